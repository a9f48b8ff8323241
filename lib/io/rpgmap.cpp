// SPDX-License-Identifier: MIT
// The .rpgmap reader (its writer is rpgmap_write.cpp), and readMapFile, which reads any of the
// formats by what the file starts with.
#include "rpgnav/io/rpgmap.hpp"

#include "rpgnav/io/moving_ai.hpp"
#include "rpgnav/io/tiled.hpp"

#include "io/text_reader.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <tuple>

namespace rpgnav {
namespace {

using detail::quote;
using detail::TextReader;
using detail::Token;

// Strips a trailing "; comment" (';' is never a legend symbol) and surrounding blanks.
std::string_view stripComment(std::string_view line) {
  const std::size_t semicolon = line.find(';');
  if (semicolon != std::string_view::npos) line = line.substr(0, semicolon);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  return line;
}

std::optional<DoorState> parseDoorState(std::string_view text) {
  if (text == "open") return DoorState::Open;
  if (text == "closed") return DoorState::Closed;
  if (text == "locked") return DoorState::Locked;
  return std::nullopt;
}

// The parser proper: one member per section, errors returned as they are found.
class Parser {
 public:
  Parser(std::string_view text, std::string_view fileName) : m_reader(text, fileName) {}

  Result<MapDocument> run() {
    if (auto error = m_reader.rejectBinary()) return *error;
    if (auto error = parseHeader()) return *error;
    if (auto error = parseLegend()) return *error;
    if (auto error = parseTiles()) return *error;
    if (auto error = parseSections()) return *error;
    return MapDocument{std::move(*m_map), std::move(m_doors), std::move(m_entities), m_dangerFactor,
                       std::move(m_dangerLayers), m_settings};
  }

 private:
  using MaybeError = std::optional<Error>;

  // Next line that carries tokens (comments and blank lines skipped); false at end of file.
  bool nextContentLine(std::vector<Token>& tokens) {
    std::string_view line;
    while (m_reader.nextLine(line)) {
      tokens = TextReader::tokenize(stripComment(line));
      if (!tokens.empty()) return true;
    }
    return false;
  }

  Error errorHere(const Token& token, std::string_view message) const { return m_reader.error(token.column, message); }
  Error errorAtEnd(std::string_view message) const { return m_reader.errorAt(m_reader.lineNumber() + 1, 1, message); }

  MaybeError expectCount(const std::vector<Token>& tokens, std::size_t count, std::string_view usage) const {
    if (tokens.size() == count) return std::nullopt;
    const Token& at = tokens.size() > count ? tokens[count] : tokens.back();
    return errorHere(at, "expected '" + std::string(usage) + "'");
  }

  MaybeError parseInt(const Token& token, std::int64_t low, std::int64_t high, std::string_view what,
                      std::int64_t& out) const {
    if (!detail::parseInteger(token.text, out) || out < low || out > high) {
      return errorHere(token, "expected " + std::string(what) + " as a whole number in " + std::to_string(low) +
                                  ".." + std::to_string(high) + ", found " + quote(token.text));
    }
    return std::nullopt;
  }

  MaybeError parseReal(const Token& token, std::string_view what, float& out) const {
    if (!detail::parseFloat(token.text, out)) {
      return errorHere(token, "expected " + std::string(what) + " as a finite number, found " + quote(token.text));
    }
    return std::nullopt;
  }

  MaybeError parseHeader() {
    std::vector<Token> tokens;
    if (!nextContentLine(tokens)) return errorAtEnd("expected 'rpgmap 1', found end of file");
    if (tokens[0].text != "rpgmap") return errorHere(tokens[0], "expected 'rpgmap 1', found " + quote(tokens[0].text));
    if (auto error = expectCount(tokens, 2, "rpgmap 1")) return error;
    if (tokens[1].text != "1") return errorHere(tokens[1], "expected format version 1, found " + quote(tokens[1].text));

    std::optional<LayoutKind> kind;
    HexStagger stagger = HexStagger::Odd;
    std::int64_t connectivity = 8, width = 0, height = 0;
    int connectivityLine = 0, connectivityColumn = 1;
    bool haveConnectivity = false, haveSize = false, haveTileSize = false, haveOrigin = false, haveMobilities = false;
    bool& haveDangerFactor = m_haveDangerFactor;
    float tileSize = 1.0f;
    Vec2 origin(0.0f, 0.0f);
    while (true) {
      if (!nextContentLine(tokens)) return errorAtEnd("expected '[legend]', found end of file");
      const Token& key = tokens[0];
      auto duplicate = [&](bool& seen) {
        const bool was = seen;
        seen = true;
        return was ? std::optional<Error>(errorHere(key, "duplicate '" + std::string(key.text) + "' line"))
                   : std::nullopt;
      };
      if (key.text == "[legend]") {
        if (auto error = expectCount(tokens, 1, "[legend]")) return error;
        break;
      }
      if (key.text == "layout") {
        if (kind) return errorHere(key, "duplicate 'layout' line");
        constexpr std::string_view usage = "layout square|hex-pointy|hex-flat [odd|even]";
        if (tokens.size() != 3 || tokens[1].text == "square") {
          if (auto error = expectCount(tokens, tokens.size() > 3 ? 3 : 2, usage)) return error;
        }
        if (tokens[1].text == "square") kind = LayoutKind::Square;
        else if (tokens[1].text == "hex-pointy") kind = LayoutKind::HexPointy;
        else if (tokens[1].text == "hex-flat") kind = LayoutKind::HexFlat;
        else return errorHere(tokens[1], "expected square, hex-pointy or hex-flat, found " + quote(tokens[1].text));
        if (tokens.size() == 3) {  // which rows (pointy) or columns (flat) are shifted
          if (tokens[2].text == "even") stagger = HexStagger::Even;
          else if (tokens[2].text != "odd") return errorHere(tokens[2], "expected odd or even, found " + quote(tokens[2].text));
        }
      } else if (key.text == "connectivity") {
        if (auto error = duplicate(haveConnectivity)) return error;
        if (auto error = expectCount(tokens, 2, "connectivity 8|4")) return error;
        if (tokens[1].text != "8" && tokens[1].text != "4") {
          return errorHere(tokens[1], "expected connectivity 8 or 4, found " + quote(tokens[1].text));
        }
        connectivity = tokens[1].text == "8" ? 8 : 4;
        connectivityLine = m_reader.lineNumber();
        connectivityColumn = key.column;
        if (kind && *kind != LayoutKind::Square) return errorHere(key, "connectivity applies to square layouts only");
      } else if (key.text == "size") {
        if (auto error = duplicate(haveSize)) return error;
        if (auto error = expectCount(tokens, 3, "size WIDTH HEIGHT")) return error;
        if (auto error = parseInt(tokens[1], 1, kMaxMapSide, "width", width)) return error;
        if (auto error = parseInt(tokens[2], 1, kMaxMapSide, "height", height)) return error;
        if (width * height > kMaxMapTiles) {
          return errorHere(tokens[1], "map of " + std::to_string(width) + "x" + std::to_string(height) +
                                          " tiles exceeds the 2^26 tile limit");
        }
      } else if (key.text == "tile-size") {
        if (auto error = duplicate(haveTileSize)) return error;
        if (auto error = expectCount(tokens, 2, "tile-size SIZE")) return error;
        if (auto error = parseReal(tokens[1], "tile size", tileSize)) return error;
        if (!(tileSize > 0.0f)) return errorHere(tokens[1], "expected a positive tile size");
      } else if (key.text == "origin") {
        if (auto error = duplicate(haveOrigin)) return error;
        if (auto error = expectCount(tokens, 3, "origin X Y")) return error;
        if (auto error = parseReal(tokens[1], "origin x", origin.x())) return error;
        if (auto error = parseReal(tokens[2], "origin y", origin.y())) return error;
      } else if (key.text == "mobilities") {
        if (auto error = duplicate(haveMobilities)) return error;
        for (std::size_t i = 1; i < tokens.size(); ++i) {
          if (m_terrain.findMobility(tokens[i].text)) continue;  // built-ins may be listed
          auto added = m_terrain.addMobility(tokens[i].text);
          if (!added) return errorHere(tokens[i], added.message());
        }
      } else if (key.text == "danger-factor") {  // the older place of [settings]' danger-factor
        if (auto error = duplicate(haveDangerFactor)) return error;
        if (auto error = parseDangerFactor(tokens)) return error;
      } else {
        return errorHere(key, "expected one of layout, connectivity, size, tile-size, origin, mobilities, "
                              "danger-factor or [legend], found " + quote(key.text));
      }
    }
    if (!kind) return m_reader.error(1, "expected a 'layout' line before [legend]");
    if (!haveSize) return m_reader.error(1, "expected a 'size' line before [legend]");
    if (haveConnectivity && *kind != LayoutKind::Square) {
      return m_reader.errorAt(connectivityLine, connectivityColumn, "connectivity applies to square layouts only");
    }
    switch (*kind) {
      case LayoutKind::Square: m_layout = Layout::square(tileSize, int(connectivity), origin); break;
      case LayoutKind::HexPointy: m_layout = Layout::hexPointy(tileSize, origin, stagger); break;
      case LayoutKind::HexFlat: m_layout = Layout::hexFlat(tileSize, origin, stagger); break;
    }
    m_width = std::int32_t(width);
    m_height = std::int32_t(height);
    return std::nullopt;
  }

  MaybeError parseLegend() {
    std::vector<Token> tokens;
    while (true) {
      if (!nextContentLine(tokens)) return errorAtEnd("expected '[tiles]', found end of file");
      if (tokens[0].text == "[tiles]") {
        if (auto error = expectCount(tokens, 1, "[tiles]")) return error;
        if (m_terrain.terrainCount() == 0) return errorHere(tokens[0], "expected at least one legend entry before [tiles]");
        return std::nullopt;
      }
      const Token& symbol = tokens[0];
      if (symbol.text.size() != 1) {
        return errorHere(symbol, "expected a one-character legend symbol or '[tiles]', found " + quote(symbol.text));
      }
      if (tokens.size() < 2) return errorHere(symbol, "expected 'SYMBOL NAME [mobility=cost ...]'");
      const char glyph = symbol.text[0];
      const bool badSymbol = glyph <= ' ' || glyph > '~' || m_terrain.findTerrainBySymbol(glyph).has_value();
      auto terrain = m_terrain.addTerrain(tokens[1].text, glyph);
      if (!terrain) return errorHere(badSymbol ? symbol : tokens[1], terrain.message());
      for (std::size_t i = 2; i < tokens.size(); ++i) {
        const Token& entry = tokens[i];
        const std::size_t equals = entry.text.find('=');
        if (equals == std::string_view::npos) {
          return errorHere(entry, "expected mobility=cost, found " + quote(entry.text));
        }
        const auto mobility = m_terrain.findMobility(entry.text.substr(0, equals));
        if (!mobility) {
          return errorHere(entry, "unknown mobility " + quote(entry.text.substr(0, equals)) +
                                      " (declare it on the 'mobilities' line)");
        }
        if (m_terrain.passable(*terrain, *mobility)) return errorHere(entry, "cost given twice for this mobility");
        float cost = 0.0f;
        const Token value{entry.text.substr(equals + 1), entry.column + int(equals) + 1};
        if (auto error = parseReal(value, "cost", cost)) return error;
        if (m_terrain.setCost(*terrain, *mobility, cost) != Status::Ok) {
          return errorHere(value, "expected a positive cost, found " + quote(value.text));
        }
      }
    }
  }

  MaybeError parseTiles() {
    std::vector<TerrainId> tiles;
    tiles.reserve(std::size_t(m_width) * std::size_t(m_height));
    std::uint8_t symbolToTerrain[256];
    std::fill(std::begin(symbolToTerrain), std::end(symbolToTerrain), std::uint8_t(255));
    for (int i = 0; i < m_terrain.terrainCount(); ++i) {
      symbolToTerrain[std::uint8_t(m_terrain.terrainSymbol(TerrainId{std::uint8_t(i)}))] = std::uint8_t(i);
    }
    std::string_view line;
    for (std::int32_t y = 0; y < m_height; ++y) {
      if (!m_reader.nextLine(line)) {
        return errorAtEnd("expected " + std::to_string(m_height) + " tile rows, found " + std::to_string(y));
      }
      if (line.size() != std::size_t(m_width)) {
        return m_reader.error(int(std::min(line.size(), std::size_t(m_width))) + 1,
                              "expected a row of " + std::to_string(m_width) + " tiles, found " +
                                  std::to_string(line.size()) + " characters");
      }
      for (std::int32_t x = 0; x < m_width; ++x) {
        const std::uint8_t id = symbolToTerrain[std::uint8_t(line[std::size_t(x)])];
        if (id == 255) {
          return m_reader.error(x + 1, "expected a legend symbol, found " + quote(line.substr(std::size_t(x), 1)));
        }
        tiles.push_back(TerrainId{id});
      }
    }
    auto created = TileMap::create(m_layout, m_width, m_height, m_terrain, std::move(tiles));
    if (!created) return m_reader.error(1, created.message());
    m_map.emplace(std::move(created.value()));
    return std::nullopt;
  }

  MaybeError parseSections() {
    std::vector<Token> tokens;
    // The fixed order, each once but for the danger layers.
    enum class Section { None, Settings, Doors, Entities, Danger } section = Section::None;
    while (nextContentLine(tokens)) {
      const Token& first = tokens[0];
      if (first.text == "[settings]" || first.text == "[doors]" || first.text == "[entities]") {
        if (auto error = expectCount(tokens, 1, std::string(first.text))) return error;
        const Section next = first.text == "[settings]" ? Section::Settings
                             : first.text == "[doors]"  ? Section::Doors
                                                        : Section::Entities;
        if (next <= section) {
          return errorHere(first, "expected sections in the order [settings], [doors], [entities], [danger NAME]..., "
                                  "the first three each once");
        }
        section = next;
        continue;
      }
      if (first.text.substr(0, 7) == "[danger") {
        if (auto error = startDangerLayer(tokens)) return error;
        section = Section::Danger;
        continue;
      }
      if (section == Section::None) {
        return errorHere(first, "expected '[settings]', '[doors]', '[entities]', '[danger NAME]' or end of file "
                                "after the tile rows, found " + quote(first.text));
      }
      MaybeError error;
      switch (section) {
        case Section::Settings: error = parseSetting(tokens); break;
        case Section::Doors: error = parseDoor(tokens); break;
        case Section::Entities: error = parseEntity(tokens); break;
        default: error = parseDanger(tokens); break;
      }
      if (error) return error;
    }
    return std::nullopt;
  }

  // "danger-factor 0-255", in [settings] or (older files) the header.
  MaybeError parseDangerFactor(const std::vector<Token>& tokens) {
    if (auto error = expectCount(tokens, 2, "danger-factor 0-255")) return error;
    std::int64_t factor = 0;
    if (auto error = parseInt(tokens[1], 0, 255, "danger factor", factor)) return error;
    m_dangerFactor = std::uint8_t(factor);
    return std::nullopt;
  }

  // "KEY VALUE": a designer setting (designSettingKeys) or the danger factor, each once.
  MaybeError parseSetting(const std::vector<Token>& tokens) {
    const Token& key = tokens[0];
    if (key.text == "danger-factor") {
      if (m_haveDangerFactor) return errorHere(key, "duplicate 'danger-factor' line");
      m_haveDangerFactor = true;
      return parseDangerFactor(tokens);
    }
    const auto keys = designSettingKeys();
    const auto setting = std::find_if(keys.begin(), keys.end(), [&](const DesignSettingKey& k) { return k.key == key.text; });
    if (setting == keys.end()) {
      std::string names;
      for (const DesignSettingKey& k : keys) names += std::string(k.key) + ", ";
      return errorHere(key, "expected one of " + names + "danger-factor or a section, found " + quote(key.text));
    }
    std::optional<float>& value = m_settings.*setting->member;
    if (value) return errorHere(key, "duplicate '" + std::string(key.text) + "' line");
    if (auto error = expectCount(tokens, 2, std::string(key.text) + " VALUE")) return error;
    float number = 0.0f;
    if (!detail::parseFloat(tokens[1].text, number) || !allows(*setting, number)) {
      return errorHere(tokens[1], "expected " + std::string(key.text) + " as " + designSettingLimits(*setting) +
                                      ", found " + quote(tokens[1].text));
    }
    value = number;
    return std::nullopt;
  }

  // "[danger NAME]": a new layer, after those before it (its index is its position).
  MaybeError startDangerLayer(const std::vector<Token>& tokens) {
    constexpr std::string_view usage = "[danger NAME]";
    if (tokens[0].text != "[danger" || tokens.size() != 2 || tokens[1].text.size() < 2 || tokens[1].text.back() != ']') {
      return errorHere(tokens.size() == 2 ? tokens[1] : tokens[0], "expected '" + std::string(usage) + "'");
    }
    const Token name{tokens[1].text.substr(0, tokens[1].text.size() - 1), tokens[1].column};
    if (auto error = parseName(name, m_dangerNames)) return error;
    if (m_dangerLayers.size() >= std::size_t(kMaxDangerLayers)) {
      return errorHere(tokens[0], "expected at most " + std::to_string(kMaxDangerLayers) + " danger layers");
    }
    m_dangerLayers.push_back({std::string(name.text), std::vector<std::uint8_t>(std::size_t(m_width) * std::size_t(m_height), 0)});
    return std::nullopt;
  }

  // "X Y VALUE" or "X0 Y0 X1 Y1 VALUE" (an inclusive rectangle); later lines override earlier ones.
  MaybeError parseDanger(const std::vector<Token>& tokens) {
    constexpr std::string_view usage = "X Y VALUE' or 'X0 Y0 X1 Y1 VALUE";
    if (tokens.size() != 3 && tokens.size() != 5) return expectCount(tokens, tokens.size() < 3 ? 3 : 5, usage);
    const std::size_t corners = tokens.size() == 3 ? 1 : 2;
    std::int64_t c[4];
    if (auto error = parseTileCoordinates(tokens, 0, 2 * corners, c)) return error;
    if (corners == 1) {
      c[2] = c[0];
      c[3] = c[1];
    } else if (c[2] < c[0] || c[3] < c[1]) {
      return errorHere(tokens[c[2] < c[0] ? 2 : 3], "expected X0 <= X1 and Y0 <= Y1 (the rectangle's top-left corner first)");
    }
    std::int64_t value = 0;
    if (auto error = parseInt(tokens.back(), 0, 255, "danger", value)) return error;
    std::vector<std::uint8_t>& values = m_dangerLayers.back().values;
    for (std::int64_t y = c[1]; y <= c[3]; ++y) {
      for (std::int64_t x = c[0]; x <= c[2]; ++x) values[std::size_t(y * m_width + x)] = std::uint8_t(value);
    }
    return std::nullopt;
  }

  MaybeError parseName(const Token& token, std::set<std::string, std::less<>>& seen) const {
    if (!TerrainTable::isValidName(token.text)) {
      return errorHere(token, "expected a name of letters, digits, '_', '-' or '.', found " + quote(token.text));
    }
    if (!seen.emplace(token.text).second) return errorHere(token, "duplicate name " + quote(token.text));
    return std::nullopt;
  }

  // `count` tile coordinates x, y, x, y... from tokens[first] on, each on the map.
  MaybeError parseTileCoordinates(const std::vector<Token>& tokens, std::size_t first, std::size_t count,
                                  std::int64_t* out) const {
    for (std::size_t i = 0; i < count; ++i) {
      const std::int64_t high = (i % 2 == 0 ? m_width : m_height) - 1;
      if (auto error = parseInt(tokens[first + i], 0, high, i % 2 == 0 ? "tile x" : "tile y", out[i])) return error;
    }
    return std::nullopt;
  }

  MaybeError parseDoor(const std::vector<Token>& tokens) {
    constexpr std::string_view usage = "NAME X1 Y1 X2 Y2 open|closed|locked [key=NAME]";
    if (tokens.size() < 6 || tokens.size() > 7) return expectCount(tokens, tokens.size() < 6 ? 6 : 7, usage);
    DoorSpec door;
    if (auto error = parseName(tokens[0], m_doorNames)) return error;
    door.name = std::string(tokens[0].text);
    std::int64_t c[4];
    if (auto error = parseTileCoordinates(tokens, 1, 4, c)) return error;
    door.a = {std::int32_t(c[0]), std::int32_t(c[1])};
    door.b = {std::int32_t(c[2]), std::int32_t(c[3])};
    if (!m_layout.sharedEdge(door.a, door.b)) {
      return errorHere(tokens[1], "expected two tiles that share an edge for a door");
    }
    for (const DoorSpec& other : m_doors) {
      if ((other.a == door.a && other.b == door.b) || (other.a == door.b && other.b == door.a)) {
        return errorHere(tokens[1], "a door already sits on this edge ('" + other.name + "')");
      }
    }
    const auto state = parseDoorState(tokens[5].text);
    if (!state) return errorHere(tokens[5], "expected open, closed or locked, found " + quote(tokens[5].text));
    door.state = *state;
    if (tokens.size() == 7) {
      const Token& key = tokens[6];
      if (key.text.substr(0, 4) != "key=" || !TerrainTable::isValidName(key.text.substr(4))) {
        return errorHere(key, "expected key=NAME, found " + quote(key.text));
      }
      door.key = std::string(key.text.substr(4));
    }
    m_doors.push_back(std::move(door));
    return std::nullopt;
  }

  MaybeError parseEntity(const std::vector<Token>& tokens) {
    constexpr std::string_view usage = "NAME X Y radius=R [flat]";
    if (tokens.size() < 4 || tokens.size() > 5) return expectCount(tokens, tokens.size() < 4 ? 4 : 5, usage);
    EntitySpec entity;
    if (auto error = parseName(tokens[0], m_entityNames)) return error;
    entity.name = std::string(tokens[0].text);
    if (auto error = parseReal(tokens[1], "x", entity.position.x())) return error;
    if (auto error = parseReal(tokens[2], "y", entity.position.y())) return error;
    if (!m_map->tileAt(entity.position)) return errorHere(tokens[1], "entity position lies outside the map");
    const Token& radius = tokens[3];
    if (radius.text.substr(0, 7) != "radius=") return errorHere(radius, "expected radius=R, found " + quote(radius.text));
    const Token value{radius.text.substr(7), radius.column + 7};
    if (auto error = parseReal(value, "radius", entity.radius)) return error;
    if (entity.radius < 0.0f) return errorHere(value, "expected a radius of 0 or more");
    if (tokens.size() == 5) {
      if (tokens[4].text != "flat") return errorHere(tokens[4], "expected 'flat' or end of line, found " + quote(tokens[4].text));
      entity.flat = true;
    }
    m_entities.push_back(std::move(entity));
    return std::nullopt;
  }

  TextReader m_reader;
  Layout m_layout;
  std::int32_t m_width = 0;
  std::int32_t m_height = 0;
  TerrainTable m_terrain;
  std::optional<TileMap> m_map;
  std::vector<DoorSpec> m_doors;
  std::vector<EntitySpec> m_entities;
  std::set<std::string, std::less<>> m_doorNames;
  std::set<std::string, std::less<>> m_entityNames;
  std::uint8_t m_dangerFactor = 0;
  bool m_haveDangerFactor = false;
  std::vector<DangerLayerSpec> m_dangerLayers;
  std::set<std::string, std::less<>> m_dangerNames;
  DesignSettings m_settings;
};

}  // namespace

Result<MapDocument> parseRpgMap(std::string_view text, std::string_view fileName) {
  return Parser(text, fileName).run();
}

Result<MapDocument> readRpgMap(const std::filesystem::path& path) {
  auto text = detail::readWholeFile(path, kMaxMapFileBytes);
  if (!text) return text.error();
  return parseRpgMap(*text, path.string());
}

Result<MapDocument> readMapFile(const std::filesystem::path& path) {
  auto text = detail::readWholeFile(path, kMaxMapFileBytes);
  if (!text) return text.error();
  const std::string_view view = *text;
  const std::size_t start = view.find_first_not_of(" \t\r\n");
  if (start != std::string_view::npos && view.substr(start, 4) == "type" && view.size() > start + 4 &&
      (view[start + 4] == ' ' || view[start + 4] == '\t')) {
    auto map = parseMovingAiMap(view, path.string());
    if (!map) return map.error();
    return MapDocument{std::move(map.value()), {}, {}};
  }
  if (start != std::string_view::npos && (view[start] == '<' || view[start] == '{' || view.substr(start, 3) == "\xEF\xBB\xBF")) {
    return parseTiledMap(view, path.string());
  }
  return parseRpgMap(view, path.string());
}

}  // namespace rpgnav
