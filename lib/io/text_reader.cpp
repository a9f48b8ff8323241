// SPDX-License-Identifier: MIT
#include "io/text_reader.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <system_error>

namespace rpgnav::detail {

std::optional<Error> TextReader::rejectBinary() const {
  int line = 1, column = 1;
  for (unsigned char c : m_text) {
    if (c == '\n') {
      ++line;
      column = 1;
      continue;
    }
    if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f) {
      char byte[8];
      std::snprintf(byte, sizeof byte, "0x%02x", unsigned(c));
      return errorAt(line, column, std::string("expected text, found control byte ") + byte + " (binary file?)");
    }
    ++column;
  }
  return std::nullopt;
}

bool TextReader::nextLine(std::string_view& line) {
  if (m_position >= m_text.size()) return false;
  const std::size_t end = m_text.find('\n', m_position);
  const std::size_t stop = end == std::string_view::npos ? m_text.size() : end;
  line = m_text.substr(m_position, stop - m_position);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  m_position = stop + 1;
  ++m_lineNumber;
  return true;
}

Error TextReader::errorAt(int line, int column, std::string_view message) const {
  return Error{Status::ParseError,
               m_fileName + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + std::string(message)};
}

std::vector<Token> TextReader::tokenize(std::string_view line) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) tokens.push_back({line.substr(start, i - start), int(start) + 1});
  }
  return tokens;
}

std::string quote(std::string_view token) {
  std::string out = "'";
  std::size_t shown = 0;
  for (unsigned char c : token) {
    if (++shown > 40) {
      out += "...";
      break;
    }
    if (c >= 0x20 && c < 0x7f) {
      out += char(c);
    } else {
      char byte[8];
      std::snprintf(byte, sizeof byte, "\\x%02x", unsigned(c));
      out += byte;
    }
  }
  return out + "'";
}

bool parseInteger(std::string_view text, std::int64_t& out) {
  if (text.empty()) return false;
  const char* first = text.data();
  if (*first == '+') {
    ++first;
    if (first != text.data() + text.size() && *first == '-') return false;  // "+-5" is not a number
  }
  const auto [end, error] = std::from_chars(first, text.data() + text.size(), out);
  return error == std::errc{} && end == text.data() + text.size();
}

template <class T>
static bool parseReal(std::string_view text, T& out) {
  if (text.empty()) return false;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out, std::chars_format::general);
  return error == std::errc{} && end == text.data() + text.size() && std::isfinite(out);
}
bool parseFloat(std::string_view text, float& out) { return parseReal(text, out); }
bool parseDouble(std::string_view text, double& out) { return parseReal(text, out); }

Result<std::string> readWholeFile(const std::filesystem::path& path, std::uintmax_t maxBytes) {
  std::error_code code;
  if (std::filesystem::is_directory(path, code)) {
    return Error{Status::IoError, path.string() + ": is a directory, expected a file"};
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{Status::IoError, path.string() + ": cannot open file"};
  const std::uintmax_t size = std::filesystem::file_size(path, code);
  if (!code && size > maxBytes) {
    return Error{Status::IoError, path.string() + ": file is " + std::to_string(size) + " bytes, more than the " +
                                      std::to_string(maxBytes) + " allowed"};
  }
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, std::size_t(in.gcount()));
    if (text.size() > maxBytes) return Error{Status::IoError, path.string() + ": file is too large"};
  }
  if (in.bad()) return Error{Status::IoError, path.string() + ": read error"};
  return text;
}

}  // namespace rpgnav::detail
