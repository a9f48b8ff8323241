// SPDX-License-Identifier: MIT
#pragma once
// Line and token reading shared by the text formats, with file:line:column error messages.

#include "core/format_float.hpp"
#include "rpgnav/core/status.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rpgnav::detail {

struct Token {
  std::string_view text;
  int column = 0;  // 1-based
};

/// Reads a text one line at a time (LF or CRLF, last newline optional) and formats errors.
class TextReader {
 public:
  TextReader(std::string_view text, std::string_view fileName) : m_text(text), m_fileName(fileName) {}

  /// The first control byte (other than tab, CR, LF), or nullopt: binary data is rejected early.
  std::optional<Error> rejectBinary() const;

  /// Next line without its line ending; false at the end of the text.
  bool nextLine(std::string_view& line);
  /// 1-based number of the line last returned.
  int lineNumber() const noexcept { return m_lineNumber; }

  /// A ParseError "file:line:column: message" at the current line.
  Error error(int column, std::string_view message) const { return errorAt(m_lineNumber, column, message); }
  Error errorAt(int line, int column, std::string_view message) const;

  /// Splits on spaces and tabs.
  static std::vector<Token> tokenize(std::string_view line);

 private:
  std::string_view m_text;
  std::string m_fileName;
  std::size_t m_position = 0;
  int m_lineNumber = 0;
};

/// Quotes a token for an error message, escaping non-printable bytes and shortening long ones.
std::string quote(std::string_view token);

/// Whole decimal integer (optional sign); false on anything else or overflow.
bool parseInteger(std::string_view text, std::int64_t& out);
/// Decimal number as float (from_chars rules: no leading '+'); false on junk, NaN or infinity.
bool parseFloat(std::string_view text, float& out);
bool parseDouble(std::string_view text, double& out);

/// Reads a file into memory; IoError if it cannot be opened or is larger than maxBytes.
Result<std::string> readWholeFile(const std::filesystem::path& path, std::uintmax_t maxBytes);

}  // namespace rpgnav::detail
