// SPDX-License-Identifier: MIT
#include "rpgnav/io/moving_ai.hpp"

#include "io/text_reader.hpp"

#include <cmath>

namespace rpgnav {
namespace {

struct SymbolRule {
  char symbol;
  const char* name;
  bool walk, swim, fly;
};
// The benchmark rule: . G S passable; @ O T W blocked. Fly and swim are our additions.
constexpr SymbolRule kSymbols[] = {
    {'.', "ground", true, false, true},      {'G', "ground-g", true, false, true},
    {'S', "swamp", true, false, true},       {'T', "trees", false, false, true},
    {'W', "water", false, true, true},       {'@', "out-of-bounds", false, false, false},
    {'O', "out-of-bounds-o", false, false, false},
};

TerrainTable movingAiTerrain() {
  TerrainTable table;
  for (const SymbolRule& rule : kSymbols) {
    const TerrainId id = table.addTerrain(rule.name, rule.symbol).value();
    if (rule.walk) (void)table.setCost(id, TerrainTable::kWalk, 1.0f);
    if (rule.swim) (void)table.setCost(id, TerrainTable::kSwim, 1.0f);
    if (rule.fly) (void)table.setCost(id, TerrainTable::kFly, 1.0f);
  }
  return table;
}

// Reads "key value" header line; value must be an integer in [1, kMaxMapSide].
std::optional<Error> readDimension(detail::TextReader& reader, std::string_view key, std::int32_t& out) {
  std::string_view line;
  if (!reader.nextLine(line)) return reader.errorAt(reader.lineNumber() + 1, 1, "expected '" + std::string(key) + " N', found end of file");
  const auto tokens = detail::TextReader::tokenize(line);
  if (tokens.empty() || tokens[0].text != key) {
    return reader.error(tokens.empty() ? 1 : tokens[0].column,
                        "expected '" + std::string(key) + " N', found " + detail::quote(line));
  }
  std::int64_t value = 0;
  if (tokens.size() != 2 || !detail::parseInteger(tokens[1].text, value)) {
    return reader.error(tokens.size() > 1 ? tokens[1].column : int(line.size()) + 1,
                        "expected one whole number after '" + std::string(key) + "'");
  }
  if (value < 1 || value > kMaxMapSide) {
    return reader.error(tokens[1].column, std::string(key) + " " + std::to_string(value) + " is outside 1..32768");
  }
  out = std::int32_t(value);
  return std::nullopt;
}

}  // namespace

Result<TileMap> parseMovingAiMap(std::string_view text, std::string_view fileName) {
  detail::TextReader reader(text, fileName);
  if (auto error = reader.rejectBinary()) return *error;
  std::string_view line;
  if (!reader.nextLine(line)) return reader.errorAt(1, 1, "expected 'type octile', found an empty file");
  auto tokens = detail::TextReader::tokenize(line);
  if (tokens.size() != 2 || tokens[0].text != "type" || tokens[1].text != "octile") {
    return reader.error(1, "expected 'type octile', found " + detail::quote(line));
  }
  std::int32_t height = 0, width = 0;
  if (auto error = readDimension(reader, "height", height)) return *error;
  if (auto error = readDimension(reader, "width", width)) return *error;
  if (std::int64_t(width) * height > kMaxMapTiles) {
    return reader.error(1, "map of " + std::to_string(width) + "x" + std::to_string(height) +
                               " tiles exceeds the 2^26 tile limit");
  }
  if (!reader.nextLine(line)) {
    return reader.errorAt(reader.lineNumber() + 1, 1, "expected 'map' before the tile rows, found end of file");
  }
  if (detail::TextReader::tokenize(line).size() != 1 || detail::TextReader::tokenize(line)[0].text != "map") {
    return reader.error(1, "expected 'map' before the tile rows");
  }

  TerrainTable terrain = movingAiTerrain();
  std::uint8_t symbolToTerrain[256];
  std::fill(std::begin(symbolToTerrain), std::end(symbolToTerrain), std::uint8_t(255));
  for (int i = 0; i < terrain.terrainCount(); ++i) {
    symbolToTerrain[std::uint8_t(terrain.terrainSymbol(TerrainId{std::uint8_t(i)}))] = std::uint8_t(i);
  }
  std::vector<TerrainId> tiles;
  tiles.reserve(std::size_t(width) * std::size_t(height));
  for (std::int32_t y = 0; y < height; ++y) {
    if (!reader.nextLine(line)) {
      return reader.errorAt(reader.lineNumber() + 1, 1,
                            "expected " + std::to_string(height) + " tile rows, found " + std::to_string(y));
    }
    if (line.size() != std::size_t(width)) {
      return reader.error(int(std::min(line.size(), std::size_t(width))) + 1,
                          "expected a row of " + std::to_string(width) + " tiles, found " +
                              std::to_string(line.size()) + " characters");
    }
    for (std::int32_t x = 0; x < width; ++x) {
      const std::uint8_t id = symbolToTerrain[std::uint8_t(line[std::size_t(x)])];
      if (id == 255) {
        return reader.error(x + 1, "expected a tile symbol (. G S @ O T W), found " +
                                       detail::quote(line.substr(std::size_t(x), 1)));
      }
      tiles.push_back(TerrainId{id});
    }
  }
  while (reader.nextLine(line)) {
    if (!detail::TextReader::tokenize(line).empty()) {
      return reader.error(1, "expected end of file after " + std::to_string(height) + " rows, found " + detail::quote(line));
    }
  }
  auto created = TileMap::create(Layout::square(), width, height, std::move(terrain), std::move(tiles));
  if (!created) return reader.error(1, created.message());
  return created;
}

Result<TileMap> readMovingAiMap(const std::filesystem::path& path) {
  auto text = detail::readWholeFile(path, kMaxMovingAiMapBytes);
  if (!text) return text.error();
  return parseMovingAiMap(*text, path.string());
}

Result<std::string> writeMovingAiMap(const TileMap& map) {
  if (map.layout().kind() != LayoutKind::Square) {
    return Error{Status::InvalidArgument, "Moving AI maps are square; this map is " +
                                              std::string(toString(map.layout().kind()))};
  }
  for (int i = 0; i < map.terrain().terrainCount(); ++i) {
    if (map.terrain().terrainSymbol(TerrainId{std::uint8_t(i)}) == 0) {
      return Error{Status::InvalidArgument, "terrain '" + map.terrain().terrainName(TerrainId{std::uint8_t(i)}) +
                                                "' has no symbol"};
    }
  }
  std::string out = "type octile\nheight " + std::to_string(map.height()) + "\nwidth " +
                    std::to_string(map.width()) + "\nmap\n";
  out.reserve(out.size() + std::size_t(map.tileCount() + map.height()));
  for (std::int32_t y = 0; y < map.height(); ++y) {
    for (std::int32_t x = 0; x < map.width(); ++x) out += map.terrain().terrainSymbol(map.terrainAt({x, y}));
    out += '\n';
  }
  return out;
}

double ScenarioEntry::tolerance() const noexcept {
  return std::pow(10.0, -decimals) + 2e-6 * optimalLength;
}

Result<std::vector<ScenarioEntry>> parseScenario(std::string_view text, std::string_view fileName) {
  detail::TextReader reader(text, fileName);
  if (auto error = reader.rejectBinary()) return *error;
  std::string_view line;
  if (!reader.nextLine(line)) return reader.errorAt(1, 1, "expected 'version 1', found an empty file");
  auto tokens = detail::TextReader::tokenize(line);
  if (tokens.size() != 2 || tokens[0].text != "version" || (tokens[1].text != "1" && tokens[1].text != "1.0")) {
    return reader.error(1, "expected 'version 1' or 'version 1.0', found " + detail::quote(line));
  }
  std::vector<ScenarioEntry> entries;
  while (reader.nextLine(line)) {
    tokens = detail::TextReader::tokenize(line);
    if (tokens.empty()) continue;
    if (tokens.size() != 9) {
      return reader.error(tokens.back().column, "expected 9 fields (bucket map width height start_x start_y goal_x "
                                                "goal_y optimal_length), found " + std::to_string(tokens.size()));
    }
    std::int64_t numbers[7];
    constexpr int kIntegerField[7] = {0, 2, 3, 4, 5, 6, 7};
    constexpr const char* kFieldName[7] = {"bucket", "map width", "map height", "start x", "start y", "goal x", "goal y"};
    for (int i = 0; i < 7; ++i) {
      const detail::Token& token = tokens[std::size_t(kIntegerField[i])];
      if (!detail::parseInteger(token.text, numbers[i]) || numbers[i] < 0 || numbers[i] > kMaxMapSide) {
        return reader.error(token.column, std::string("expected ") + kFieldName[i] + " as a whole number in 0..32768, found " +
                                              detail::quote(token.text));
      }
    }
    ScenarioEntry entry;
    entry.bucket = int(numbers[0]);
    entry.mapName = std::string(tokens[1].text);
    entry.mapWidth = std::int32_t(numbers[1]);
    entry.mapHeight = std::int32_t(numbers[2]);
    entry.start = {std::int32_t(numbers[3]), std::int32_t(numbers[4])};
    entry.goal = {std::int32_t(numbers[5]), std::int32_t(numbers[6])};
    const detail::Token& length = tokens[8];
    if (!detail::parseDouble(length.text, entry.optimalLength) || entry.optimalLength < 0) {
      return reader.error(length.column, "expected the optimal length as a non-negative number, found " +
                                             detail::quote(length.text));
    }
    const std::size_t dot = length.text.find('.');
    entry.decimals = dot == std::string_view::npos ? 0 : int(length.text.size() - dot - 1);
    entry.lineNumber = reader.lineNumber();
    entries.push_back(std::move(entry));
  }
  return entries;
}

Result<std::vector<ScenarioEntry>> readScenario(const std::filesystem::path& path) {
  auto text = detail::readWholeFile(path, kMaxScenarioBytes);
  if (!text) return text.error();
  return parseScenario(*text, path.string());
}

}  // namespace rpgnav
