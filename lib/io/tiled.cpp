// SPDX-License-Identifier: MIT
// Tiled maps (TMX and TMJ): the back end, which turns the neutral description the front ends
// fill (tiled_read.cpp) into a MapDocument, and the API that reports failures with their line.
#include "io/tiled_model.hpp"

namespace rpgnav {
namespace {

using namespace tiled;
using detail::quote;

// Where the map's own properties begin in a TMX or TMJ text: TMX's first <properties> element
// (the map's come before its tilesets and layers), TMJ's "properties" key at the top level of
// the map object (Tiled writes it after "layers", whose own properties must not be mistaken
// for the map's). npos when there are none.
std::size_t mapPropertiesStart(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
  if (first != std::string_view::npos && text[first] == '<') return text.find("<properties");
  int depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '{' || c == '[') ++depth;
    else if (c == '}' || c == ']') --depth;
    else if (c == '"') {
      const std::size_t start = i;
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\') ++i;  // an escaped character
      }
      if (depth == 1 && text.substr(start, i + 1 - start) == "\"properties\"") return start;
    }
  }
  return std::string_view::npos;
}

// The line (1-based) of the map property `name` in a TMX or TMJ text (property_tree keeps no
// line numbers): the first `"name"` among or after the map's own properties. 0 when not found.
int propertyLine(std::string_view text, const std::string& name) {
  const std::size_t from = mapPropertiesStart(text);
  if (from == std::string_view::npos) return 0;
  const std::size_t at = text.find('"' + name + '"', from);
  if (at == std::string_view::npos) return 0;
  return 1 + int(std::count(text.begin(), text.begin() + std::ptrdiff_t(at), '\n'));
}

// --- To rpgnav --------------------------------------------------------------------------------

// The rpgnav layout of a Tiled map and the conversion from Tiled's pixels to world units.
struct Geometry {
  Layout layout;
  Vec2 scale{1.0f, 1.0f};
  Vec2 offset{0.0f, 0.0f};
  Vec2 toWorld(double x, double y) const {
    return Vec2(float(x * double(scale.x()) + double(offset.x())), float(y * double(scale.y()) + double(offset.y())));
  }
};

Geometry geometryOf(const TiledMap& map) {
  // Centre spacings of rpgnav's unit hex layouts: along a row 1, between rows √3/2; the first
  // centre 1/√3 from the edge.
  constexpr double kPitch = kHexPitch, kRadius = kHexCircumradius;
  Geometry g;
  if (map.orientation == "orthogonal") {
    g.layout = Layout::square();
    g.scale = Vec2(float(1.0 / map.tileWidth), float(1.0 / map.tileHeight));
    return g;
  }
  if (map.orientation != "hexagonal") {
    fail("orientation " + quote(map.orientation) + " is not supported (orthogonal or hexagonal)");
  }
  if (map.staggerIndex != "odd" && map.staggerIndex != "even") {
    fail("stagger index " + quote(map.staggerIndex) + " is not odd or even");
  }
  // Tiled shifts the rows (or columns) the stagger index names, as rpgnav's layouts do; the
  // unshifted ones start at x = 0 (or y = 0) in both.
  const HexStagger stagger = map.staggerIndex == "even" ? HexStagger::Even : HexStagger::Odd;
  if (map.staggerAxis == "y") {  // pointy tops, rows shifted right: rows (tileheight + side) / 2 apart
    const double rowPitch = (map.tileHeight + map.hexSide) / 2.0;
    if (!(rowPitch > 0.0)) fail("hex side length must be positive");
    g.layout = Layout::hexPointy(1.0f, Vec2(0.0f, 0.0f), stagger);
    g.scale = Vec2(float(1.0 / map.tileWidth), float(kPitch / rowPitch));
    g.offset = Vec2(0.0f, float(kRadius - map.tileHeight / 2.0 * kPitch / rowPitch));
    return g;
  }
  if (map.staggerAxis == "x") {  // flat tops, columns shifted down
    const double columnPitch = (map.tileWidth + map.hexSide) / 2.0;
    if (!(columnPitch > 0.0)) fail("hex side length must be positive");
    g.layout = Layout::hexFlat(1.0f, Vec2(0.0f, 0.0f), stagger);
    g.scale = Vec2(float(kPitch / columnPitch), float(1.0 / map.tileHeight));
    g.offset = Vec2(float(kRadius - map.tileWidth / 2.0 * kPitch / columnPitch), 0.0f);
    return g;
  }
  fail("stagger axis " + quote(map.staggerAxis) + " is not x or y");
}

// Symbols for terrains read from Tiled, in order of appearance.
constexpr std::string_view kSymbols = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

// A whole number 0-255 (a danger value or factor), or a failure naming `what`.
std::uint8_t byteValue(const std::string& text, const std::string& what) {
  std::int64_t value = 0;
  if (!detail::parseInteger(text, value) || value < 0 || value > 255) {
    fail(what + ": expected a whole number from 0 to 255, found " + quote(text));
  }
  return std::uint8_t(value);
}

// The designer settings: map properties named as in `[settings]` (designSettingKeys), float or
// string typed.
void readSettings(const TiledMap& map, MapDocument& document) {
  for (const DesignSettingKey& setting : designSettingKeys()) {
    const auto found = map.properties.find(std::string(setting.key));
    if (found == map.properties.end()) continue;
    float value = 0.0f;
    if (!detail::parseFloat(found->second, value) || !allows(setting, value)) {
      failProperty(found->first, "expected " + designSettingLimits(setting) + ", found " + quote(found->second));
    }
    document.settings.*setting.member = value;
  }
}

// The map property `danger-factor` and the layers of class `danger`: each tile's value is its
// tile's int property `danger` (0 for a tile without one, and for an empty cell).
void readDanger(const TiledMap& map, MapDocument& document) {
  if (const auto factor = map.properties.find("danger-factor"); factor != map.properties.end()) {
    std::int64_t value = 0;
    if (!detail::parseInteger(factor->second, value) || value < 0 || value > 255) {
      failProperty(factor->first, "expected a whole number from 0 to 255, found " + quote(factor->second));
    }
    document.dangerFactor = std::uint8_t(value);
  }
  if (map.dangerLayers.size() > std::size_t(kMaxDangerLayers)) {
    fail(std::to_string(map.dangerLayers.size()) + " layers of class danger, at most " +
         std::to_string(kMaxDangerLayers) + " allowed");
  }
  std::set<std::string> names;
  for (const TiledMap::DangerLayer& layer : map.dangerLayers) {
    if (!TerrainTable::isValidName(layer.name)) {
      fail("danger layer " + quote(layer.name) + ": a danger layer's name is letters, digits, '_', '-' or '.'");
    }
    if (!names.insert(layer.name).second) fail("two danger layers are named " + quote(layer.name));
    DangerLayerSpec spec{layer.name, std::vector<std::uint8_t>(layer.ids.size(), 0)};
    for (std::size_t i = 0; i < layer.ids.size(); ++i) {
      const auto tile = map.tiles.find(layer.ids[i] & kGidMask);
      if (tile == map.tiles.end()) continue;
      const auto danger = tile->second.find("danger");
      if (danger == tile->second.end()) continue;
      spec.values[i] = byteValue(danger->second, "danger layer " + quote(layer.name) + ", tile " +
                                                     std::to_string(layer.ids[i] & kGidMask) + ": property danger");
    }
    document.dangerLayers.push_back(std::move(spec));
  }
}

MapDocument convert(const TiledMap& map) {
  const Geometry geometry = geometryOf(map);
  TerrainTable terrain;
  // Mobilities beyond walk, swim and fly: the map property `mobilities`, names split by commas.
  if (const auto extra = map.properties.find("mobilities"); extra != map.properties.end()) {
    std::stringstream names(extra->second);
    for (std::string mobility; std::getline(names, mobility, ',');) {
      mobility.erase(0, mobility.find_first_not_of(" \t"));
      mobility.erase(mobility.find_last_not_of(" \t") + 1);
      if (mobility.empty() || terrain.findMobility(mobility)) continue;
      if (auto added = terrain.addMobility(mobility); !added) fail("map property mobilities: " + std::string(added.message()));
    }
  }
  // Terrains as tiles name them, each with its costs, agreed by every tile naming it.
  std::map<std::string, TerrainId> byName;
  std::map<std::string, Properties> costsOf;
  std::map<std::uint32_t, TerrainId> terrainOfGid;
  auto addTerrain = [&](const std::string& name, char symbol) {
    auto added = terrain.addTerrain(name, symbol);
    if (!added) fail("terrain " + quote(name) + ": " + std::string(added.message()));
    byName.emplace(name, *added);
    return *added;
  };
  for (const auto& [gid, properties] : map.tiles) {
    const auto named = properties.find("terrain");
    if (named == properties.end()) continue;
    const std::string& name = named->second;
    Properties costs;  // the properties named after a mobility; others are the game's own
    for (const auto& [key, value] : properties) {
      if (terrain.findMobility(key)) costs[key] = value;
    }
    if (const auto known = byName.find(name); known != byName.end()) {
      if (costsOf[name] != costs) fail("tiles naming terrain " + quote(name) + " give it different costs");
      terrainOfGid[gid] = known->second;
      continue;
    }
    const std::size_t index = byName.size();
    const TerrainId id = addTerrain(name, index < kSymbols.size() ? kSymbols[index] : 0);
    costsOf[name] = costs;
    for (const auto& [mobilityName, value] : costs) {
      const MobilityId mobility = *terrain.findMobility(mobilityName);
      const double cost = number(value, "cost of " + name + " for " + mobilityName);
      if (terrain.setCost(id, mobility, float(cost)) != Status::Ok) {
        fail("terrain " + quote(name) + ": the cost for " + mobilityName + " must be positive, found " + quote(value));
      }
    }
    terrainOfGid[gid] = id;
  }
  // Every cell: the top-most layer's tile that names a terrain; `void` where none does.
  const std::size_t count = std::size_t(map.width * map.height);
  std::optional<TerrainId> voidTerrain;
  std::vector<TerrainId> tiles(count);
  for (std::size_t i = 0; i < count; ++i) {
    std::optional<TerrainId> found;
    for (auto layer = map.layers.rbegin(); layer != map.layers.rend() && !found; ++layer) {
      const std::uint32_t gid = (*layer)[i] & kGidMask;
      if (gid == 0) continue;
      if (const auto known = terrainOfGid.find(gid); known != terrainOfGid.end()) found = known->second;
    }
    if (!found) {
      if (!voidTerrain) voidTerrain = byName.count("void") != 0 ? byName["void"] : addTerrain("void", 0);
      found = voidTerrain;
    }
    tiles[i] = *found;
  }
  auto created = TileMap::create(geometry.layout, std::int32_t(map.width), std::int32_t(map.height), std::move(terrain), std::move(tiles));
  if (!created) fail(std::string(created.message()));
  MapDocument document{std::move(created.value()), {}, {}};
  const TileMap& tileMap = document.map;
  readDanger(map, document);
  readSettings(map, document);

  for (const Object& object : map.objects) {
    const Vec2 centre = geometry.toWorld(object.x + object.width / 2.0, object.y + object.height / 2.0);
    const std::string label = object.name.empty() ? object.kind : object.name;
    if (!std::isfinite(centre.x()) || !std::isfinite(centre.y())) fail("object " + quote(label) + " is not at a finite place");
    auto property = [&](const char* name) {
      const auto found = object.properties.find(name);
      return found == object.properties.end() ? std::optional<std::string>() : std::optional<std::string>(found->second);
    };
    if (object.kind == "door") {
      // The edge nearest the centre: between the tile under it and the neighbour whose shared
      // edge's middle is closest.
      const Cell a = geometry.layout.tileAt(centre);
      if (!tileMap.contains(a)) fail("door " + quote(label) + " lies outside the map");
      double best = HUGE_VAL;
      Cell b = a;
      for (const NeighbourStep& step : geometry.layout.touching(a)) {
        const Cell other{a.x + step.dx, a.y + step.dy};
        const auto edge = geometry.layout.sharedEdge(a, other);
        if (!edge || !tileMap.contains(other)) continue;
        const double distance = double((((*edge)[0] + (*edge)[1]) * 0.5f - centre).norm());
        if (distance < best) best = distance, b = other;
      }
      if (b == a) fail("door " + quote(label) + " has no neighbouring tile on the map");
      DoorSpec door;
      door.name = object.name.empty() ? "door" + std::to_string(document.doors.size() + 1) : object.name;
      door.a = a;
      door.b = b;
      const std::string state = property("state").value_or("closed");
      if (state == "open") door.state = DoorState::Open;
      else if (state == "closed") door.state = DoorState::Closed;
      else if (state == "locked") door.state = DoorState::Locked;
      else fail("door " + quote(label) + ": state must be open, closed or locked, found " + quote(state));
      door.key = property("key").value_or("");
      document.doors.push_back(std::move(door));
    } else if (object.kind == "entity") {
      EntitySpec entity;
      entity.name = object.name.empty() ? "entity" + std::to_string(document.entities.size() + 1) : object.name;
      entity.position = centre;
      const double sizeX = object.width * double(geometry.scale.x()), sizeY = object.height * double(geometry.scale.y());
      double radius = sizeX > 0.0 && sizeY > 0.0 ? std::min(sizeX, sizeY) / 2.0 : 0.5;
      if (const auto given = property("radius")) radius = number(*given, "entity radius");
      if (!(radius >= 0.0) || !std::isfinite(radius)) fail("entity " + quote(label) + ": radius must be finite and not negative");
      entity.radius = float(radius);
      const std::string flat = property("flat").value_or("false");
      if (flat != "true" && flat != "false") fail("entity " + quote(label) + ": flat must be true or false, found " + quote(flat));
      entity.flat = flat == "true";
      document.entities.push_back(std::move(entity));
    }
  }
  return document;
}

}  // namespace

Result<MapDocument> parseTiledMap(std::string_view text, std::string_view fileName) {
  const std::string name(fileName);
  const std::size_t start = text.find_first_not_of(" \t\r\n");
  // A UTF-8 byte order mark may come first.
  const std::string_view body = text.substr(start == std::string_view::npos ? text.size() : start);
  const bool bom = body.substr(0, 3) == "\xEF\xBB\xBF";
  const std::string_view content = bom ? body.substr(3) : body;
  if (content.empty() || (content[0] != '<' && content[0] != '{')) {
    return Error{Status::ParseError, name + ": expected a Tiled map (TMX starts with '<', TMJ with '{')"};
  }
  const std::filesystem::path folder = std::filesystem::path(name).parent_path();
  try {
    const TiledMap map = content[0] == '<' ? readTmx(content, folder) : readTmj(content, folder);
    return convert(map);
  } catch (const Failure& failure) {
    // External tileset messages name their own file already.
    if (failure.status == Status::IoError) return Error{failure.status, failure.message};
    const int line = failure.property.empty() ? 0 : propertyLine(text, failure.property);
    return Error{failure.status, name + (line > 0 ? ":" + std::to_string(line) : "") + ": " + failure.message};
  } catch (const boost::property_tree::file_parser_error& error) {
    return Error{Status::ParseError, name + ":" + std::to_string(error.line()) + ": " + error.message()};
  } catch (const boost::property_tree::ptree_error& error) {
    return Error{Status::ParseError, name + ": " + error.what()};
  }
}

Result<MapDocument> readTiledMap(const std::filesystem::path& path) {
  auto text = detail::readWholeFile(path, kMaxMapFileBytes);
  if (!text) return text.error();
  return parseTiledMap(*text, path.string());
}

}  // namespace rpgnav
