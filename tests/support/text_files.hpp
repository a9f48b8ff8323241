// SPDX-License-Identifier: MIT
#pragma once
// Helpers for tests of file formats: text edits, temporary folders, parse-error checks.

#include <catch2/catch.hpp>

#include "rpgnav/grid/tile_map.hpp"

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <string_view>

// A failed parse: ParseError, the message starts with "file:line:column: " and names what was
// expected. A macro so that failures point at the calling line.
#define CHECK_PARSE_ERROR(expression, where, word)                  \
  do {                                                             \
    const auto& parsed_ = (expression);                            \
    REQUIRE_FALSE(parsed_.ok());                                   \
    CHECK(parsed_.status() == ::rpgnav::Status::ParseError);       \
    CHECK_THAT(parsed_.error().message, Catch::StartsWith(where)); \
    CHECK_THAT(parsed_.error().message, Catch::Contains(word));    \
  } while (false)

namespace rpgnav::test {

/// `text` with every occurrence of `from` replaced by `to`.
/// (Built by appending rather than std::string::replace, which GCC 12 flags with a false
/// -Wrestrict warning once inlined.)
inline std::string replaceAll(const std::string& text, std::string_view from, std::string_view to) {
  std::string out;
  std::size_t done = 0;
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, done)) {
    out.append(text, done, at - done);
    out.append(to);
    done = at + from.size();
  }
  out.append(text, done, std::string::npos);
  return out;
}

/// The legend symbol of a tile's terrain.
inline char symbolAt(const TileMap& map, Cell cell) { return map.terrain().terrainSymbol(map.terrainAt(cell)); }

/// A folder under the system temporary directory, removed again at the end of the test.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::random_device seed;
    std::string name = "rpgnav-test-";  // appended, not "literal" + string: GCC 12 -Wrestrict
    name += std::to_string(seed());
    name += '-';
    name += std::to_string(seed());
    path = std::filesystem::temp_directory_path() / name;
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::filesystem::path write(const std::string& name, std::string_view content) const {
    const std::filesystem::path file = path / name;
    std::ofstream out(file, std::ios::binary);
    out.write(content.data(), std::streamsize(content.size()));
    return file;
  }
};

}  // namespace rpgnav::test
