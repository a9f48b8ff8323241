// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// Moving AI grid benchmark files: `.map` maps and `.map.scen` scenario lists
/// (https://movingai.com/benchmarks/formats.html).

#include "rpgnav/core/export.hpp"
#include "rpgnav/core/status.hpp"
#include "rpgnav/grid/tile_map.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace rpgnav {

/// Reads a Moving AI `.map` ("type octile", height, width, "map", rows). Every symbol becomes
/// its own terrain with the benchmark rule for walk: `.` `G` `S` passable (cost 1), `@` `O` `T`
/// `W` blocked. Fly may also cross `T` and `W`, swim only `W`; nothing enters `@` or `O`.
/// The layout is square, 8-connected, tile size 1. LF or CRLF, with or without a final newline.
/// Errors name the file, line and column.
RPGNAV_API Result<TileMap> parseMovingAiMap(std::string_view text, std::string_view fileName = "<text>");
RPGNAV_API Result<TileMap> readMovingAiMap(const std::filesystem::path& path);
/// Writes a map whose terrains all have symbols in the format above (LF line endings).
/// InvalidArgument for hex maps or terrains without a symbol.
RPGNAV_API Result<std::string> writeMovingAiMap(const TileMap& map);

/// One line of a scenario file.
struct ScenarioEntry {
  int bucket = 0;
  std::string mapName;  ///< Informational: the map column as written.
  std::int32_t mapWidth = 0;
  std::int32_t mapHeight = 0;
  Cell start;
  Cell goal;
  double optimalLength = 0.0;
  int decimals = 0;  ///< Digits printed after the decimal point of the optimal length.
  int lineNumber = 0;
  /// How far a computed length may differ from optimalLength: 10^-decimals + 2e-6 × optimal,
  /// the rounding of the printed value plus single-precision slack of older files.
  double tolerance() const noexcept;
};

/// Reads a `.map.scen` file: "version 1" or "version 1.0", then lines of 9 fields separated by
/// any whitespace. Blank lines are skipped.
RPGNAV_API Result<std::vector<ScenarioEntry>> parseScenario(std::string_view text, std::string_view fileName = "<text>");
RPGNAV_API Result<std::vector<ScenarioEntry>> readScenario(const std::filesystem::path& path);

}  // namespace rpgnav
