// SPDX-License-Identifier: MIT
// Tiled maps (TMX and TMJ). Boost.PropertyTree parses the XML and JSON; both front ends fill one
// neutral description of the map, and one back end turns it into a MapDocument.
#include "rpgnav/io/tiled.hpp"

#include "io/text_reader.hpp"

#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace rpgnav {
namespace {

using boost::property_tree::ptree;
using detail::quote;

constexpr std::uintmax_t kMaxFileBytes = std::uintmax_t(1) << 28;
// Deeper nesting than any Tiled map has (groups in groups) would only exhaust the parsers' stack.
constexpr int kMaxNesting = 64;
// Tile ids carry flip and rotation flags in their top four bits.
constexpr std::uint32_t kGidMask = 0x0FFFFFFFu;

using Properties = std::map<std::string, std::string>;

struct Object {
  std::string name, kind;  // kind: the class (`type` before Tiled 1.9)
  double x = 0, y = 0, width = 0, height = 0;
  Properties properties;
};

// The map as Tiled describes it, before any rpgnav rule applies.
struct TiledMap {
  std::string orientation, staggerAxis = "y", staggerIndex = "odd";
  std::int64_t width = 0, height = 0;
  double tileWidth = 0, tileHeight = 0, hexSide = 0;
  bool infinite = false;
  Properties properties;  // the map's own
  std::map<std::uint32_t, Properties> tiles;  // by global tile id
  std::vector<std::vector<std::uint32_t>> layers;  // terrain layers, bottom to top, width × height ids each
  struct DangerLayer {
    std::string name;
    std::vector<std::uint32_t> ids;
  };
  std::vector<DangerLayer> dangerLayers;  // tile layers of class `danger`, in drawing order
  std::vector<Object> objects;
};

// Thrown inside the front ends and turned into an Error at the API (Boost.PropertyTree throws
// too, so one catch serves both).
struct Failure {
  Status status;
  std::string message;
  std::string property;  // a map property the failure is about: its line is looked up in the text
};

[[noreturn]] void fail(const std::string& message) { throw Failure{Status::ParseError, message}; }
[[noreturn]] void failProperty(const std::string& property, const std::string& message) {
  throw Failure{Status::ParseError, "map property " + property + ": " + message, property};
}

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

std::int64_t integer(const std::string& text, const std::string& what) {
  std::int64_t value = 0;
  if (!detail::parseInteger(text, value)) fail("expected an integer " + what + ", found " + quote(text));
  return value;
}

double number(const std::string& text, const std::string& what) {
  double value = 0;
  if (!detail::parseDouble(text, value)) fail("expected a number " + what + ", found " + quote(text));
  return value;
}

// Refuses nesting deeper than kMaxNesting before a parser recurses into it.
void checkNesting(std::string_view text, bool json) {
  int depth = 0;
  bool inString = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (json) {
      if (inString) {
        if (c == '\\') ++i;
        else if (c == '"') inString = false;
        continue;
      }
      if (c == '"') inString = true;
      else if (c == '{' || c == '[') ++depth;
      else if (c == '}' || c == ']') --depth;
    } else if (c == '<' && i + 1 < text.size()) {
      const char next = text[i + 1];
      if (next == '/') --depth;
      else if (next != '?' && next != '!') ++depth;
    } else if (c == '>' && i > 0 && text[i - 1] == '/') {
      --depth;
    }
    if (depth > kMaxNesting) fail("nested more than " + std::to_string(kMaxNesting) + " levels deep");
  }
}

// --- Layer data -------------------------------------------------------------------------------

std::vector<std::uint8_t> decodeBase64(std::string_view text) {
  std::vector<std::uint8_t> out;
  out.reserve(text.size() / 4 * 3);
  std::uint32_t bits = 0;
  int count = 0, padding = 0;
  for (const char c : text) {
    int value;
    if (c >= 'A' && c <= 'Z') value = c - 'A';
    else if (c >= 'a' && c <= 'z') value = c - 'a' + 26;
    else if (c >= '0' && c <= '9') value = c - '0' + 52;
    else if (c == '+') value = 62;
    else if (c == '/') value = 63;
    else if (c == '=') {
      ++padding;
      continue;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      continue;
    } else {
      fail("layer data: " + quote(std::string_view(&c, 1)) + " is not Base64");
    }
    if (padding > 0) fail("layer data: Base64 continues after '='");
    bits = bits << 6 | std::uint32_t(value);
    if (++count == 4) {
      out.push_back(std::uint8_t(bits >> 16));
      out.push_back(std::uint8_t(bits >> 8));
      out.push_back(std::uint8_t(bits));
      bits = 0;
      count = 0;
    }
  }
  if (count == 1 || padding > 2) fail("layer data: truncated Base64");
  if (count == 2) out.push_back(std::uint8_t(bits >> 4));
  if (count == 3) {
    out.push_back(std::uint8_t(bits >> 10));
    out.push_back(std::uint8_t(bits >> 2));
  }
  return out;
}

// Inflates zlib or gzip data to exactly `expected` bytes (more is refused before it is written:
// no decompression bomb).
std::vector<std::uint8_t> inflate(const std::vector<std::uint8_t>& in, std::size_t expected) {
  std::vector<std::uint8_t> out(expected + 1);
  z_stream stream{};
  if (inflateInit2(&stream, 15 + 32) != Z_OK) fail("layer data: zlib failed to start");  // 32: zlib or gzip
  stream.next_in = const_cast<Bytef*>(in.data());
  stream.avail_in = uInt(in.size());
  stream.next_out = out.data();
  stream.avail_out = uInt(out.size());
  const int result = ::inflate(&stream, Z_FINISH);
  const std::size_t produced = out.size() - stream.avail_out;
  inflateEnd(&stream);
  if (result != Z_STREAM_END || produced != expected) {
    fail("layer data: compressed data is corrupt or does not hold " + std::to_string(expected / 4) + " tiles");
  }
  out.resize(expected);
  return out;
}

std::vector<std::uint32_t> tileIds(const std::vector<std::uint8_t>& bytes) {
  std::vector<std::uint32_t> ids(bytes.size() / 4);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    ids[i] = std::uint32_t(bytes[4 * i]) | std::uint32_t(bytes[4 * i + 1]) << 8 | std::uint32_t(bytes[4 * i + 2]) << 16 |
             std::uint32_t(bytes[4 * i + 3]) << 24;  // little-endian
  }
  return ids;
}

// Layer data in any encoding, checked to hold exactly count ids.
std::vector<std::uint32_t> decodeData(const std::string& text, const std::string& encoding, const std::string& compression,
                                      std::size_t count, const std::string& layer) {
  std::vector<std::uint32_t> ids;
  if (encoding == "csv") {
    std::size_t start = 0;
    while (start <= text.size()) {
      std::size_t end = text.find(',', start);
      if (end == std::string::npos) end = text.size();
      std::string_view field(text.data() + start, end - start);
      while (!field.empty() && std::isspace(static_cast<unsigned char>(field.front()))) field.remove_prefix(1);
      while (!field.empty() && std::isspace(static_cast<unsigned char>(field.back()))) field.remove_suffix(1);
      if (!(field.empty() && end == text.size() && !ids.empty())) {  // a trailing comma is fine
        std::int64_t id = 0;
        if (!detail::parseInteger(field, id) || id < 0 || id > 0xFFFFFFFFll) {
          fail("layer " + quote(layer) + ": expected a tile id, found " + quote(field));
        }
        ids.push_back(std::uint32_t(id));
        if (ids.size() > count) break;
      }
      start = end + 1;
    }
  } else if (encoding == "base64") {
    std::vector<std::uint8_t> bytes = decodeBase64(text);
    if (compression == "zlib" || compression == "gzip") {
      bytes = inflate(bytes, count * 4);
    } else if (!compression.empty()) {
      fail("layer " + quote(layer) + ": compression " + quote(compression) +
           " is not supported (use zlib, gzip or none: Map Properties, Tile Layer Format)");
    }
    if (bytes.size() != count * 4) {
      fail("layer " + quote(layer) + ": expected " + std::to_string(count) + " tiles, found " + std::to_string(bytes.size() / 4));
    }
    ids = tileIds(bytes);
  } else {
    fail("layer " + quote(layer) + ": encoding " + quote(encoding) + " is not csv or base64");
  }
  if (ids.size() != count) {
    fail("layer " + quote(layer) + ": expected " + std::to_string(count) + " tiles, found " +
         (ids.size() > count ? "more" : std::to_string(ids.size())));
  }
  return ids;
}

// An object of either format; `get(name, otherwise)` reads a TMX attribute or a TMJ field.
template <class Get>
Object readObject(const Get& get, Properties properties) {
  Object object;
  object.name = get("name", "");
  object.kind = get("class", "");
  if (object.kind.empty()) object.kind = get("type", "");  // Tiled before 1.9
  object.x = number(get("x", "0"), "object x");
  object.y = number(get("y", "0"), "object y");
  object.width = number(get("width", "0"), "object width");
  object.height = number(get("height", "0"), "object height");
  object.properties = std::move(properties);
  return object;
}

// --- TMX (XML) --------------------------------------------------------------------------------

const ptree& attributes(const ptree& element) {
  static const ptree none;
  const auto found = element.find("<xmlattr>");
  return found == element.not_found() ? none : found->second;
}

std::string attribute(const ptree& element, const char* name, const std::string& otherwise = "") {
  return attributes(element).get<std::string>(name, otherwise);
}

Properties xmlProperties(const ptree& element) {
  Properties properties;
  const auto found = element.find("properties");
  if (found == element.not_found()) return properties;
  for (const auto& [key, property] : found->second) {
    if (key != "property") continue;
    const std::string name = attribute(property, "name");
    // Multi-line strings keep their value as the element's text.
    properties[name] = attributes(property).count("value") != 0 ? attribute(property, "value") : property.data();
  }
  return properties;
}

void addXmlTileset(TiledMap& map, const ptree& tileset, std::uint32_t firstGid) {
  for (const auto& [key, tile] : tileset) {
    if (key != "tile") continue;
    const std::int64_t id = integer(attribute(tile, "id"), "tile id");
    if (id < 0 || id > std::int64_t(kGidMask) - firstGid) fail("tile id " + std::to_string(id) + " is out of range");
    map.tiles[firstGid + std::uint32_t(id)] = xmlProperties(tile);
  }
}

// A tile layer's ids: a danger layer for a layer of class `danger`, else a terrain layer.
void addTileLayer(TiledMap& map, const std::string& name, const std::string& kind, std::vector<std::uint32_t> ids) {
  if (kind == "danger") map.dangerLayers.push_back({name, std::move(ids)});
  else map.layers.push_back(std::move(ids));
}

// Layers and object groups, groups flattened in drawing order.
void readXmlLayers(TiledMap& map, const ptree& parent, int depth);

void readXmlLayer(TiledMap& map, const ptree& layer) {
  const std::string name = attribute(layer, "name");
  const auto data = layer.find("data");
  if (data == layer.not_found()) fail("layer " + quote(name) + " has no data");
  if (data->second.find("chunk") != data->second.not_found()) {
    fail("infinite maps are not supported (Map Properties: untick Infinite)");
  }
  const std::size_t count = std::size_t(map.width * map.height);
  const std::string encoding = attribute(data->second, "encoding");
  if (encoding.empty()) {  // <tile gid="..."/> elements
    std::vector<std::uint32_t> ids;
    for (const auto& [key, tile] : data->second) {
      if (key != "tile") continue;
      const std::int64_t gid = integer(attribute(tile, "gid", "0"), "gid");
      if (gid < 0 || gid > 0xFFFFFFFFll) fail("layer " + quote(name) + ": gid " + std::to_string(gid) + " is out of range");
      ids.push_back(std::uint32_t(gid));
      if (ids.size() > count) break;
    }
    if (ids.size() != count) fail("layer " + quote(name) + ": expected " + std::to_string(count) + " tiles");
    addTileLayer(map, name, attribute(layer, "class"), std::move(ids));
  } else {
    addTileLayer(map, name, attribute(layer, "class"),
                 decodeData(data->second.data(), encoding, attribute(data->second, "compression"), count, name));
  }
}

void readXmlObjects(TiledMap& map, const ptree& group) {
  for (const auto& child : group) {  // not a structured binding: Clang 14 cannot capture one
    if (child.first != "object") continue;
    const ptree& element = child.second;
    map.objects.push_back(readObject([&](const char* name, const char* otherwise) { return attribute(element, name, otherwise); },
                                     xmlProperties(element)));
  }
}

void readXmlLayers(TiledMap& map, const ptree& parent, int depth) {
  if (depth > kMaxNesting) fail("groups nested too deeply");
  for (const auto& [key, element] : parent) {
    if (key == "layer") readXmlLayer(map, element);
    else if (key == "objectgroup") readXmlObjects(map, element);
    else if (key == "group") readXmlLayers(map, element, depth + 1);
  }
}

// --- TMJ (JSON) -------------------------------------------------------------------------------

std::string field(const ptree& object, const char* name, const std::string& otherwise = "") {
  return object.get<std::string>(name, otherwise);
}

Properties jsonProperties(const ptree& object) {
  Properties properties;
  const auto found = object.find("properties");
  if (found == object.not_found()) return properties;
  for (const auto& [key, property] : found->second) properties[field(property, "name")] = field(property, "value");
  return properties;
}

void addJsonTileset(TiledMap& map, const ptree& tileset, std::uint32_t firstGid) {
  const auto tiles = tileset.find("tiles");
  if (tiles == tileset.not_found()) return;
  for (const auto& [key, tile] : tiles->second) {
    const std::int64_t id = integer(field(tile, "id"), "tile id");
    if (id < 0 || id > std::int64_t(kGidMask) - firstGid) fail("tile id " + std::to_string(id) + " is out of range");
    map.tiles[firstGid + std::uint32_t(id)] = jsonProperties(tile);
  }
}

void readJsonLayers(TiledMap& map, const ptree& layers, int depth) {
  if (depth > kMaxNesting) fail("groups nested too deeply");
  for (const auto& [key, layer] : layers) {
    const std::string type = field(layer, "type"), name = field(layer, "name");
    if (type == "tilelayer") {
      if (layer.find("chunks") != layer.not_found()) fail("infinite maps are not supported (Map Properties: untick Infinite)");
      const std::size_t count = std::size_t(map.width * map.height);
      const auto data = layer.find("data");
      if (data == layer.not_found()) fail("layer " + quote(name) + " has no data");
      const std::string encoding = field(layer, "encoding", "csv");
      if (encoding == "csv") {  // a JSON array of numbers
        std::string csv;
        for (const auto& [index, id] : data->second) csv += id.data() + ",";
        addTileLayer(map, name, field(layer, "class"), decodeData(csv, "csv", "", count, name));
      } else {
        addTileLayer(map, name, field(layer, "class"),
                     decodeData(data->second.data(), encoding, field(layer, "compression"), count, name));
      }
    } else if (type == "objectgroup") {
      const auto objects = layer.find("objects");
      if (objects == layer.not_found()) continue;
      for (const auto& child : objects->second) {  // not a structured binding: Clang 14 cannot capture one
        const ptree& element = child.second;
        map.objects.push_back(readObject([&](const char* name, const char* otherwise) { return field(element, name, otherwise); },
                                         jsonProperties(element)));
      }
    } else if (type == "group") {
      const auto children = layer.find("layers");
      if (children != layer.not_found()) readJsonLayers(map, children->second, depth + 1);
    }
  }
}

// --- Both -------------------------------------------------------------------------------------

ptree parseTree(std::string_view text, bool json) {
  checkNesting(text, json);
  std::istringstream in{std::string(text)};
  ptree tree;
  if (json) {
    boost::property_tree::read_json(in, tree);
  } else {
    boost::property_tree::read_xml(in, tree);
  }
  return tree;
}

// An external tileset (.tsx or .tsj) next to the map.
void addExternalTileset(TiledMap& map, const std::filesystem::path& folder, const std::string& source, std::uint32_t firstGid) {
  const std::filesystem::path path = folder / source;
  auto text = detail::readWholeFile(path, kMaxFileBytes);
  if (!text) throw Failure{text.status(), std::string(text.message())};
  const std::string_view view = *text;
  const std::size_t start = view.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
  const bool json = start != std::string_view::npos && view[start] == '{';
  const ptree tree = parseTree(view, json);
  if (json) {
    addJsonTileset(map, tree, firstGid);
  } else {
    const auto tileset = tree.find("tileset");
    if (tileset == tree.not_found()) fail("tileset " + quote(source) + " has no <tileset> element");
    addXmlTileset(map, tileset->second, firstGid);
  }
}

std::uint32_t firstGidOf(const std::string& text) {
  const std::int64_t gid = integer(text, "firstgid");
  if (gid < 1 || gid > std::int64_t(kGidMask)) fail("firstgid " + std::to_string(gid) + " is out of range");
  return std::uint32_t(gid);
}

void readHeader(TiledMap& map, const std::function<std::string(const char*)>& get) {
  map.orientation = get("orientation");
  map.width = integer(get("width"), "map width");
  map.height = integer(get("height"), "map height");
  map.tileWidth = number(get("tilewidth"), "tile width");
  map.tileHeight = number(get("tileheight"), "tile height");
  const std::string hexSide = get("hexsidelength");
  map.hexSide = hexSide.empty() ? 0.0 : number(hexSide, "hex side length");
  if (!get("staggeraxis").empty()) map.staggerAxis = get("staggeraxis");
  if (!get("staggerindex").empty()) map.staggerIndex = get("staggerindex");
  const std::string infinite = get("infinite");
  map.infinite = infinite == "1" || infinite == "true";
  if (map.width < 1 || map.height < 1) fail("map size " + std::to_string(map.width) + "x" + std::to_string(map.height) + ": each side must be at least 1");
  if (map.width > TileMap::kMaxSide || map.height > TileMap::kMaxSide || map.width * map.height > TileMap::kMaxTiles) {
    fail("map of " + std::to_string(map.width) + "x" + std::to_string(map.height) + " tiles exceeds the 2^26 tile limit");
  }
  if (!(map.tileWidth > 0.0) || !(map.tileHeight > 0.0)) fail("tile width and height must be positive");
  if (map.infinite) fail("infinite maps are not supported (Map Properties: untick Infinite)");
}

TiledMap readTmx(std::string_view text, const std::filesystem::path& folder) {
  const ptree tree = parseTree(text, false);
  const auto root = tree.find("map");
  if (root == tree.not_found()) fail("expected a <map> element");
  const ptree& element = root->second;
  TiledMap map;
  readHeader(map, [&](const char* name) { return attribute(element, name); });
  map.properties = xmlProperties(element);
  for (const auto& [key, tileset] : element) {
    if (key != "tileset") continue;
    const std::uint32_t firstGid = firstGidOf(attribute(tileset, "firstgid"));
    const std::string source = attribute(tileset, "source");
    if (!source.empty()) addExternalTileset(map, folder, source, firstGid);
    else addXmlTileset(map, tileset, firstGid);
  }
  readXmlLayers(map, element, 0);
  return map;
}

TiledMap readTmj(std::string_view text, const std::filesystem::path& folder) {
  const ptree tree = parseTree(text, true);
  TiledMap map;
  readHeader(map, [&](const char* name) { return field(tree, name); });
  map.properties = jsonProperties(tree);
  if (const auto tilesets = tree.find("tilesets"); tilesets != tree.not_found()) {
    for (const auto& [index, tileset] : tilesets->second) {
      const std::uint32_t firstGid = firstGidOf(field(tileset, "firstgid"));
      const std::string source = field(tileset, "source");
      if (!source.empty()) addExternalTileset(map, folder, source, firstGid);
      else addJsonTileset(map, tileset, firstGid);
    }
  }
  if (const auto layers = tree.find("layers"); layers != tree.not_found()) readJsonLayers(map, layers->second, 0);
  return map;
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
  if (map.dangerLayers.size() > std::size_t(DangerLayerSpec::kMaxLayers)) {
    fail(std::to_string(map.dangerLayers.size()) + " layers of class danger, at most " +
         std::to_string(DangerLayerSpec::kMaxLayers) + " allowed");
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
  auto text = detail::readWholeFile(path, kMaxFileBytes);
  if (!text) return text.error();
  return parseTiledMap(*text, path.string());
}

}  // namespace rpgnav
