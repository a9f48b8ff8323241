// SPDX-License-Identifier: MIT
// Tiled maps' front ends: TMX (XML) and TMJ (JSON) read into the neutral TiledMap, layer data
// decoded (CSV, base64, zlib and gzip), external tilesets read.
#include "io/tiled_model.hpp"

#include <zlib.h>

namespace rpgnav::tiled {
namespace {

using boost::property_tree::ptree;

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
  auto text = detail::readWholeFile(path, kMaxMapFileBytes);
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
  if (map.width > kMaxMapSide || map.height > kMaxMapSide || map.width * map.height > kMaxMapTiles) {
    fail("map of " + std::to_string(map.width) + "x" + std::to_string(map.height) + " tiles exceeds the 2^26 tile limit");
  }
  if (!(map.tileWidth > 0.0) || !(map.tileHeight > 0.0)) fail("tile width and height must be positive");
  if (map.infinite) fail("infinite maps are not supported (Map Properties: untick Infinite)");
}

}  // namespace

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

}  // namespace rpgnav::tiled
