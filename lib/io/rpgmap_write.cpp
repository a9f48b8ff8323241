// SPDX-License-Identifier: MIT
// The .rpgmap writer: a document as canonical text that parses back to it.
#include "rpgnav/io/rpgmap.hpp"

#include "io/text_reader.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <tuple>

namespace rpgnav {
namespace {

using detail::quote;

// What parseRpgMap would reject in the doors and entities of a document (the map itself is valid
// by construction); nullopt when writing it gives text that parses back to it.
std::optional<Error> invalidFeature(const MapDocument& document) {
  const TileMap& map = document.map;
  auto invalid = [](std::string message) { return Error{Status::InvalidArgument, std::move(message)}; };
  std::set<std::string, std::less<>> names;
  for (std::size_t i = 0; i < document.doors.size(); ++i) {
    const DoorSpec& door = document.doors[i];
    if (!TerrainTable::isValidName(door.name)) return invalid("invalid door name " + quote(door.name));
    if (!names.insert(door.name).second) return invalid("duplicate door name " + quote(door.name));
    if (!door.key.empty() && !TerrainTable::isValidName(door.key)) return invalid("invalid key name " + quote(door.key));
    if (door.state != DoorState::Open && door.state != DoorState::Closed && door.state != DoorState::Locked) {
      return invalid("door " + quote(door.name) + " has an invalid state");
    }
    if (!map.contains(door.a) || !map.contains(door.b) || !map.layout().sharedEdge(door.a, door.b)) {
      return invalid("door " + quote(door.name) + " is not between two neighbouring tiles of the map");
    }
    for (std::size_t j = 0; j < i; ++j) {
      const DoorSpec& other = document.doors[j];
      if ((other.a == door.a && other.b == door.b) || (other.a == door.b && other.b == door.a)) {
        return invalid("doors " + quote(other.name) + " and " + quote(door.name) + " sit on the same edge");
      }
    }
  }
  names.clear();
  for (const EntitySpec& entity : document.entities) {
    if (!TerrainTable::isValidName(entity.name)) return invalid("invalid entity name " + quote(entity.name));
    if (!names.insert(entity.name).second) return invalid("duplicate entity name " + quote(entity.name));
    if (!map.tileAt(entity.position)) return invalid("entity " + quote(entity.name) + " lies outside the map");
    if (!std::isfinite(entity.radius) || entity.radius < 0.0f) {
      return invalid("entity " + quote(entity.name) + " has a negative or non-finite radius");
    }
  }
  if (std::string invalidSetting = invalidDesignSetting(document.settings); !invalidSetting.empty()) {
    return invalid("setting " + invalidSetting);
  }
  names.clear();
  if (document.dangerLayers.size() > std::size_t(kMaxDangerLayers)) {
    return invalid(std::to_string(document.dangerLayers.size()) + " danger layers, at most " +
                   std::to_string(kMaxDangerLayers) + " allowed");
  }
  for (const DangerLayerSpec& layer : document.dangerLayers) {
    if (!TerrainTable::isValidName(layer.name)) return invalid("invalid danger layer name " + quote(layer.name));
    if (!names.insert(layer.name).second) return invalid("duplicate danger layer name " + quote(layer.name));
    if (layer.values.size() != std::size_t(map.tileCount())) {
      return invalid("danger layer " + quote(layer.name) + " has " + std::to_string(layer.values.size()) +
                     " values for " + std::to_string(map.tileCount()) + " tiles");
    }
  }
  return std::nullopt;
}

// A danger layer's lines: runs of one nonzero value in a row, stacked into rectangles where the
// same run repeats on the rows below, as "X Y VALUE" for one tile and "X0 Y0 X1 Y1 VALUE" for
// more, ordered by top row then left column. Deterministic, so written text is canonical.
std::string dangerLines(const DangerLayerSpec& layer, std::int32_t width, std::int32_t height) {
  struct Rect {
    std::int32_t x0, y0, x1, y1;
    std::uint8_t value;
  };
  std::vector<Rect> done, open;  // `open` rectangles reach the row above the current one
  for (std::int32_t y = 0; y < height; ++y) {
    std::vector<Rect> next;
    for (std::int32_t x = 0; x < width;) {
      const std::uint8_t value = layer.values[std::size_t(y) * std::size_t(width) + std::size_t(x)];
      std::int32_t end = x;
      while (end + 1 < width && layer.values[std::size_t(y) * std::size_t(width) + std::size_t(end + 1)] == value) ++end;
      if (value != 0) {
        const auto above = std::find_if(open.begin(), open.end(), [&](const Rect& r) {
          return r.x0 == x && r.x1 == end && r.value == value;
        });
        if (above != open.end()) {
          next.push_back({above->x0, above->y0, above->x1, y, value});
          open.erase(above);
        } else {
          next.push_back({x, y, end, y, value});
        }
      }
      x = end + 1;
    }
    done.insert(done.end(), open.begin(), open.end());
    open = std::move(next);
  }
  done.insert(done.end(), open.begin(), open.end());
  std::sort(done.begin(), done.end(), [](const Rect& a, const Rect& b) { return std::tie(a.y0, a.x0) < std::tie(b.y0, b.x0); });
  std::string out;
  for (const Rect& r : done) {
    out += std::to_string(r.x0) + ' ' + std::to_string(r.y0) + ' ';
    if (r.x0 != r.x1 || r.y0 != r.y1) out += std::to_string(r.x1) + ' ' + std::to_string(r.y1) + ' ';
    out += std::to_string(r.value) + '\n';
  }
  return out;
}

}  // namespace

Result<std::string> writeRpgMap(const MapDocument& document) {
  if (auto error = invalidFeature(document)) return *error;
  const TileMap& map = document.map;
  const TerrainTable& terrain = map.terrain();
  const Layout& layout = map.layout();
  std::string out = "rpgmap 1\nlayout ";
  out += toString(layout.kind());
  if (layout.hexStagger() == HexStagger::Even) out += " even";
  out += '\n';
  if (layout.kind() == LayoutKind::Square && layout.connectivity() == 4) out += "connectivity 4\n";
  out += "size " + std::to_string(map.width()) + " " + std::to_string(map.height()) + "\n";
  out += "tile-size " + detail::formatFloat(layout.tileSize()) + "\n";
  out += "origin " + detail::formatFloat(layout.origin().x()) + " " + detail::formatFloat(layout.origin().y()) + "\n";
  if (terrain.mobilityCount() > 3) {
    out += "mobilities";
    for (int m = 3; m < terrain.mobilityCount(); ++m) out += " " + terrain.mobilityName(MobilityId{std::uint8_t(m)});
    out += '\n';
  }
  out += "\n[legend]\n";
  for (int t = 0; t < terrain.terrainCount(); ++t) {
    const TerrainId id{std::uint8_t(t)};
    const char symbol = terrain.terrainSymbol(id);
    if (symbol == 0 || symbol == ';') {
      return Error{Status::InvalidArgument, "terrain '" + terrain.terrainName(id) + "' has no usable symbol"};
    }
    out += symbol;
    out += ' ' + terrain.terrainName(id);
    for (int m = 0; m < terrain.mobilityCount(); ++m) {
      const MobilityId mobility{std::uint8_t(m)};
      if (terrain.passable(id, mobility)) {
        out += ' ' + terrain.mobilityName(mobility) + '=' + detail::formatFloat(terrain.cost(id, mobility));
      }
    }
    out += '\n';
  }
  out += "\n[tiles]\n";
  for (std::int32_t y = 0; y < map.height(); ++y) {
    for (std::int32_t x = 0; x < map.width(); ++x) out += terrain.terrainSymbol(map.terrainAt({x, y}));
    out += '\n';
  }
  std::string settings;
  for (const DesignSettingKey& setting : designSettingKeys()) {
    if (const std::optional<float>& value = document.settings.*setting.member) {
      settings += std::string(setting.key) + ' ' + detail::formatFloat(*value) + '\n';
    }
  }
  if (document.dangerFactor != 0) settings += "danger-factor " + std::to_string(document.dangerFactor) + "\n";
  if (!settings.empty()) out += "\n[settings]\n" + settings;
  if (!document.doors.empty()) {
    out += "\n[doors]\n";
    for (const DoorSpec& door : document.doors) {
      out += door.name + ' ' + std::to_string(door.a.x) + ' ' + std::to_string(door.a.y) + ' ' +
             std::to_string(door.b.x) + ' ' + std::to_string(door.b.y) + ' ' + std::string(toString(door.state));
      if (!door.key.empty()) out += " key=" + door.key;
      out += '\n';
    }
  }
  if (!document.entities.empty()) {
    out += "\n[entities]\n";
    for (const EntitySpec& entity : document.entities) {
      out += entity.name + ' ' + detail::formatFloat(entity.position.x()) + ' ' +
             detail::formatFloat(entity.position.y()) + " radius=" + detail::formatFloat(entity.radius);
      if (entity.flat) out += " flat";
      out += '\n';
    }
  }
  for (const DangerLayerSpec& layer : document.dangerLayers) {
    out += "\n[danger " + layer.name + "]\n" + dangerLines(layer, map.width(), map.height());
  }
  return out;
}

}  // namespace rpgnav
