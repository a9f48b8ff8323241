// SPDX-License-Identifier: MIT
// Tiled maps (TMX and TMJ): terrain from tile properties, layers looked through, every data
// encoding, hexagonal layouts, doors and entities from objects, external tilesets, the sample
// dungeon against its .rpgmap, and malformed files.
#include <catch2/catch.hpp>

#include "rpgnav/io/tiled.hpp"
#include "rpgnav/path/planner.hpp"
#include "support/test_maps.hpp"
#include "support/text_files.hpp"

#include <zlib.h>

#include <cstdint>
#include <string>
#include <vector>

using namespace rpgnav;
using test::replaceAll;
using test::TempDir;

namespace {

// A 4×3 orthogonal map (tiles 16×16 px): floor, wall, water and a bridge drawn over the water on
// a second layer, with a torch (no terrain) on top; a door and two entities.
//   ids: 1 floor, 2 wall, 3 water, 4 bridge, 5 torch
//   terrain:  2 2 2 2      top layers:  . . 5 .
//             1 3 3 1                   . 4 . .
//             1 1 1 2                   . . . .
const char* kTmx = R"(<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="4" height="3" tilewidth="16" tileheight="16" infinite="0">
 <properties><property name="mobilities" value="climb"/></properties>
 <tileset firstgid="1" name="t" tilewidth="16" tileheight="16" tilecount="5" columns="5">
  <tile id="0"><properties><property name="terrain" value="floor"/><property name="walk" type="float" value="1"/><property name="sound" value="stone"/></properties></tile>
  <tile id="1"><properties><property name="terrain" value="wall"/><property name="climb" type="float" value="4"/></properties></tile>
  <tile id="2"><properties><property name="terrain" value="water"/><property name="swim" type="int" value="2"/></properties></tile>
  <tile id="3"><properties><property name="terrain" value="bridge"/><property name="walk" type="float" value="1.5"/></properties></tile>
  <tile id="4"><properties><property name="light" value="yes"/></properties></tile>
 </tileset>
 <layer id="1" name="ground" width="4" height="3">
  <data encoding="csv">
2,2,2,2,
1,3,3,1,
1,1,1,2
</data>
 </layer>
 <group id="4" name="over">
  <layer id="2" name="bridges" width="4" height="3">
   <data encoding="csv">0,0,0,0,0,4,0,0,0,0,0,0</data>
  </layer>
  <layer id="3" name="decor" width="4" height="3">
   <data encoding="csv">0,0,2147483653,0,0,0,0,0,0,0,0,0</data>
  </layer>
 </group>
 <objectgroup id="5" name="features">
  <object id="1" name="gate" class="door" x="48" y="24"><properties><property name="state" value="locked"/><property name="key" value="gate_key"/></properties><point/></object>
  <object id="2" name="barrel" type="entity" x="2" y="34" width="12" height="12"><ellipse/></object>
  <object id="3" name="rug" class="entity" x="40" y="40"><properties><property name="radius" type="float" value="0.75"/><property name="flat" type="bool" value="true"/></properties><point/></object>
  <object id="4" name="sign" class="note" x="1" y="1"/>
 </objectgroup>
</map>
)";

// The same map as TMJ.
const char* kTmj = R"({ "type": "map", "version": "1.10", "orientation": "orthogonal", "renderorder": "right-down",
  "width": 4, "height": 3, "tilewidth": 16, "tileheight": 16, "infinite": false,
  "properties": [{"name": "mobilities", "type": "string", "value": "climb"}],
  "tilesets": [{"firstgid": 1, "name": "t", "tilewidth": 16, "tileheight": 16, "tilecount": 5, "columns": 5, "tiles": [
    {"id": 0, "properties": [{"name": "terrain", "type": "string", "value": "floor"}, {"name": "walk", "type": "float", "value": 1},
                             {"name": "sound", "type": "string", "value": "stone"}]},
    {"id": 1, "properties": [{"name": "terrain", "type": "string", "value": "wall"}, {"name": "climb", "type": "float", "value": 4}]},
    {"id": 2, "properties": [{"name": "terrain", "type": "string", "value": "water"}, {"name": "swim", "type": "int", "value": 2}]},
    {"id": 3, "properties": [{"name": "terrain", "type": "string", "value": "bridge"}, {"name": "walk", "type": "float", "value": 1.5}]},
    {"id": 4, "properties": [{"name": "light", "type": "string", "value": "yes"}]}]}],
  "layers": [
    {"type": "tilelayer", "id": 1, "name": "ground", "width": 4, "height": 3, "data": [2,2,2,2, 1,3,3,1, 1,1,1,2]},
    {"type": "group", "id": 4, "name": "over", "layers": [
      {"type": "tilelayer", "id": 2, "name": "bridges", "width": 4, "height": 3, "data": [0,0,0,0, 0,4,0,0, 0,0,0,0]},
      {"type": "tilelayer", "id": 3, "name": "decor", "width": 4, "height": 3, "data": [0,0,2147483653,0, 0,0,0,0, 0,0,0,0]}]},
    {"type": "objectgroup", "id": 5, "name": "features", "objects": [
      {"id": 1, "name": "gate", "class": "door", "x": 48, "y": 24, "point": true,
       "properties": [{"name": "state", "type": "string", "value": "locked"}, {"name": "key", "type": "string", "value": "gate_key"}]},
      {"id": 2, "name": "barrel", "type": "entity", "x": 2, "y": 34, "width": 12, "height": 12, "ellipse": true},
      {"id": 3, "name": "rug", "class": "entity", "x": 40, "y": 40, "point": true,
       "properties": [{"name": "radius", "type": "float", "value": 0.75}, {"name": "flat", "type": "bool", "value": true}]},
      {"id": 4, "name": "sign", "class": "note", "x": 1, "y": 1}]}]
})";

std::string terrainName(const TileMap& map, Cell cell) { return map.terrain().terrainName(map.terrainAt(cell)); }

void checkSmallMap(const MapDocument& document) {
  const TileMap& map = document.map;
  REQUIRE(map.width() == 4);
  REQUIRE(map.height() == 3);
  CHECK(map.layout().kind() == LayoutKind::Square);
  const std::vector<std::string> expected{"wall", "wall", "wall", "wall", "floor", "bridge", "water", "floor", "floor", "floor", "floor", "wall"};
  for (int i = 0; i < 12; ++i) {
    INFO("tile " << i);
    CHECK(terrainName(map, {i % 4, i / 4}) == expected[std::size_t(i)]);  // the torch is looked through
  }
  const TerrainTable& terrain = map.terrain();
  const MobilityId climb = *terrain.findMobility("climb");
  CHECK(map.cost({1, 1}, TerrainTable::kWalk) == 1.5f);
  CHECK(map.cost({0, 1}, TerrainTable::kWalk) == 1.0f);
  CHECK(map.cost({2, 1}, TerrainTable::kSwim) == 2.0f);
  CHECK_FALSE(map.passable({2, 1}, TerrainTable::kWalk));
  CHECK(map.cost({0, 0}, climb) == 4.0f);
  CHECK_FALSE(map.passable({0, 0}, TerrainTable::kWalk));
  CHECK_FALSE(terrain.findMobility("sound").has_value());  // the game's own properties are ignored
  // The door's point (48, 24) px = (3, 1.5) tiles: the edge between (2, 1) and (3, 1).
  REQUIRE(document.doors.size() == 1);
  const DoorSpec& door = document.doors[0];
  CHECK(door.name == "gate");
  CHECK(((door.a == Cell{2, 1} && door.b == Cell{3, 1}) || (door.a == Cell{3, 1} && door.b == Cell{2, 1})));
  CHECK(door.state == DoorState::Locked);
  CHECK(door.key == "gate_key");
  REQUIRE(document.entities.size() == 2);  // the note is not an entity
  CHECK(document.entities[0].name == "barrel");
  CHECK(document.entities[0].position == Vec2(0.5f, 2.5f));
  CHECK(document.entities[0].radius == 0.375f);  // half its smaller side
  CHECK_FALSE(document.entities[0].flat);
  CHECK(document.entities[1].position == Vec2(2.5f, 2.5f));
  CHECK(document.entities[1].radius == 0.75f);
  CHECK(document.entities[1].flat);
}

// Layer data: little-endian 32-bit ids.
std::string idBytes(const std::vector<std::uint32_t>& ids) {
  std::string bytes;
  for (const std::uint32_t id : ids) {
    for (int k = 0; k < 4; ++k) bytes.push_back(char((id >> (8 * k)) & 0xFF));
  }
  return bytes;
}

std::string base64(const std::string& bytes) {
  static const char* kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    std::uint32_t chunk = std::uint32_t(std::uint8_t(bytes[i])) << 16;
    if (i + 1 < bytes.size()) chunk |= std::uint32_t(std::uint8_t(bytes[i + 1])) << 8;
    if (i + 2 < bytes.size()) chunk |= std::uint32_t(std::uint8_t(bytes[i + 2]));
    out += kAlphabet[(chunk >> 18) & 63];
    out += kAlphabet[(chunk >> 12) & 63];
    out += i + 1 < bytes.size() ? kAlphabet[(chunk >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? kAlphabet[chunk & 63] : '=';
  }
  return out;
}

// zlib (windowBits 15) or gzip (31) compression with zlib itself.
std::string compressed(const std::string& bytes, int windowBits) {
  z_stream stream{};
  REQUIRE(deflateInit2(&stream, 9, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(bytes.size() + 64, '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  stream.avail_in = uInt(bytes.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = uInt(out.size());
  REQUIRE(deflate(&stream, Z_FINISH) == Z_STREAM_END);
  out.resize(out.size() - stream.avail_out);
  deflateEnd(&stream);
  return out;
}

}  // namespace

TEST_CASE("Tiled: TMX and TMJ give the same map, doors and entities", "[io][tiled]") {
  const auto tmx = parseTiledMap(kTmx, "small.tmx");
  INFO(tmx.message());
  REQUIRE(tmx.ok());
  checkSmallMap(*tmx);
  const auto tmj = parseTiledMap(kTmj, "small.tmj");
  INFO(tmj.message());
  REQUIRE(tmj.ok());
  checkSmallMap(*tmj);
  CHECK(*tmx == *tmj);
  // Written as .rpgmap (terrains got symbols) and read back: the same document.
  const auto text = writeRpgMap(*tmx);
  INFO(text.message());
  REQUIRE(text.ok());
  const auto again = parseRpgMap(*text);
  REQUIRE(again.ok());
  CHECK(*again == *tmx);
}

TEST_CASE("Tiled: Base64 layer data, uncompressed, zlib and gzip, in TMX and TMJ", "[io][tiled]") {
  const std::string ground = idBytes({2, 2, 2, 2, 1, 3, 3, 1, 1, 1, 1, 2});
  const std::string csv = "2,2,2,2,\n1,3,3,1,\n1,1,1,2\n";
  const auto reference = parseTiledMap(kTmx, "small.tmx");
  REQUIRE(reference.ok());
  for (const auto& [compression, data] :
       {std::pair<std::string, std::string>{"", base64(ground)}, {"zlib", base64(compressed(ground, 15))}, {"gzip", base64(compressed(ground, 31))}}) {
    INFO("compression '" << compression << "'");
    std::string tmx = replaceAll(kTmx, "<data encoding=\"csv\">\n" + csv, "<data encoding=\"base64\"" +
                                     (compression.empty() ? std::string() : " compression=\"" + compression + "\"") + ">\n   " + data + "\n  ");
    REQUIRE(tmx != kTmx);
    const auto fromTmx = parseTiledMap(tmx, "b64.tmx");
    INFO(fromTmx.message());
    REQUIRE(fromTmx.ok());
    CHECK(*fromTmx == *reference);
    std::string tmj = replaceAll(kTmj, "\"data\": [2,2,2,2, 1,3,3,1, 1,1,1,2]",
                                 "\"encoding\": \"base64\", \"compression\": \"" + compression + "\", \"data\": \"" + data + "\"");
    REQUIRE(tmj != kTmj);
    const auto fromTmj = parseTiledMap(tmj, "b64.tmj");
    INFO(fromTmj.message());
    REQUIRE(fromTmj.ok());
    CHECK(*fromTmj == *reference);
  }
  // XML <tile> elements, the oldest encoding.
  std::string tiles;
  for (const int id : {2, 2, 2, 2, 1, 3, 3, 1, 1, 1, 1, 2}) tiles += "<tile gid=\"" + std::to_string(id) + "\"/>";
  const auto elements = parseTiledMap(replaceAll(kTmx, "<data encoding=\"csv\">\n" + csv, "<data>" + tiles), "xml.tmx");
  INFO(elements.message());
  REQUIRE(elements.ok());
  CHECK(*elements == *reference);
}

TEST_CASE("Tiled: hexagonal maps become pointy and flat layouts with tile centres in place", "[io][tiled]") {
  // A Tiled hex map, regular hexagons: pointy 28×32 px (side 16) staggered on y, flat 32×28 on x,
  // with the odd or the even rows (columns) shifted.
  for (int variant = 0; variant < 4; ++variant) {
    const bool pointy = variant < 2, even = variant % 2 == 1;
    INFO((pointy ? "pointy" : "flat") << (even ? ", even" : ", odd"));
    const int w = pointy ? 28 : 32, h = pointy ? 32 : 28;
    std::string text = "<map orientation=\"hexagonal\" width=\"5\" height=\"4\" tilewidth=\"" + std::to_string(w) + "\" tileheight=\"" +
                       std::to_string(h) + "\" hexsidelength=\"16\" staggeraxis=\"" + (pointy ? "y" : "x") +
                       "\" staggerindex=\"" + (even ? "even" : "odd") + "\"><tileset firstgid=\"1\"><tile id=\"0\"><properties><property name=\"terrain\" value=\"grass\"/>"
                       "<property name=\"walk\" value=\"1\"/></properties></tile></tileset><layer name=\"g\" width=\"5\" height=\"4\">"
                       "<data encoding=\"csv\">1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1</data></layer><objectgroup>";
    // An entity at the pixel centre of every tile: Tiled puts tile (c, r) there, the rows (or
    // columns) whose parity the stagger index names shifted half a tile.
    for (int r = 0; r < 4; ++r) {
      for (int c = 0; c < 5; ++c) {
        const int shiftedRow = (r % 2) ^ int(even), shiftedColumn = (c % 2) ^ int(even);
        const double x = pointy ? c * w + w / 2.0 + shiftedRow * w / 2.0 : c * (w + 16) / 2.0 + w / 2.0;
        const double y = pointy ? r * (h + 16) / 2.0 + h / 2.0 : r * h + h / 2.0 + shiftedColumn * h / 2.0;
        text += "<object class=\"entity\" x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\"><point/></object>";
      }
    }
    text += "</objectgroup></map>";
    const auto document = parseTiledMap(text, "hex.tmx");
    INFO(document.message());
    REQUIRE(document.ok());
    const Layout& layout = document->map.layout();
    CHECK(layout.kind() == (pointy ? LayoutKind::HexPointy : LayoutKind::HexFlat));
    CHECK(layout.hexStagger() == (even ? HexStagger::Even : HexStagger::Odd));
    REQUIRE(document->entities.size() == 20);
    for (int i = 0; i < 20; ++i) {
      const Cell cell{i % 5, i / 5};
      INFO("tile " << cell.x << "," << cell.y);
      CHECK((document->entities[std::size_t(i)].position - layout.tileCenter(cell)).norm() < 1e-5f);
      CHECK(layout.tileAt(document->entities[std::size_t(i)].position) == cell);
    }
  }
}

TEST_CASE("Tiled: external tilesets are read next to the map", "[io][tiled]") {
  TempDir folder;
  const std::string tileset = R"(<?xml version="1.0"?><tileset name="t" tilewidth="16" tileheight="16">
    <tile id="0"><properties><property name="terrain" value="floor"/><property name="walk" value="1"/></properties></tile>
    <tile id="1"><properties><property name="terrain" value="wall"/></properties></tile></tileset>)";
  folder.write("terrain.tsx", tileset);
  folder.write("terrain.tsj", R"({"name": "t", "tiles": [
    {"id": 0, "properties": [{"name": "terrain", "value": "floor"}, {"name": "walk", "value": 1}]},
    {"id": 1, "properties": [{"name": "terrain", "value": "wall"}]}]})");
  for (const char* source : {"terrain.tsx", "terrain.tsj"}) {
    const auto path = folder.write("map.tmx", std::string(R"(<map orientation="orthogonal" width="3" height="1" tilewidth="16" tileheight="16">)") +
                                                  "<tileset firstgid=\"1\" source=\"" + source + "\"/>" +
                                                  R"(<layer name="g" width="3" height="1"><data encoding="csv">1,2,1</data></layer></map>)");
    const auto document = readTiledMap(path);
    INFO(document.message());
    REQUIRE(document.ok());
    CHECK(terrainName(document->map, {1, 0}) == "wall");
    CHECK(document->map.passable({0, 0}, TerrainTable::kWalk));
    // readMapFile knows Tiled maps by their first character.
    const auto any = readMapFile(path);
    REQUIRE(any.ok());
    CHECK(*any == *document);
  }
  const auto missing = readTiledMap(folder.write("lost.tmx", R"(<map orientation="orthogonal" width="1" height="1" tilewidth="8" tileheight="8"><tileset firstgid="1" source="nowhere.tsx"/><layer width="1" height="1"><data encoding="csv">1</data></layer></map>)"));
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status() == Status::IoError);
  CHECK_THAT(std::string(missing.message()), Catch::Contains("nowhere.tsx"));
}

TEST_CASE("Tiled: the README's walk through the sample dungeon's doors", "[io][tiled][scenario]") {
  // The README's Tiled snippet, run: the crypt path stops at the cistern door, then (opened) at
  // the crypt door, then (opened) reaches the crypt, its curve passing both doorways.
  const auto dungeon = readTiledMap(test::sampleMapsDir() / "dungeon.tmx");
  REQUIRE(dungeon.ok());
  World world(dungeon->map);
  REQUIRE(world.addFeatures(dungeon->doors, dungeon->entities) == Status::Ok);
  Planner planner(world);
  PathResult path;
  const PathRequest crypt{Vec2(4.5f, 9.5f), Vec2(23.5f, 20.5f), TerrainTable::kWalk, 0.3f};
  std::vector<std::string> stops;
  Status status = planner.plan(crypt, path);
  while (status == Status::StoppedAtDoor && stops.size() < 5) {
    stops.push_back(world.door(path.door)->name);
    REQUIRE(world.setDoorState(path.door, DoorState::Open) == Status::Ok);
    status = planner.plan(crypt, path);
  }
  CHECK(stops == std::vector<std::string>{"cistern_door", "crypt_door"});
  REQUIRE(status == Status::Ok);
  CHECK((path.smoothed.position(path.smoothed.length()) - crypt.goal).norm() < 1e-4f);
  // Both doorways are on the curve: it comes within half a tile of each door's edge middle.
  for (const std::string& name : stops) {
    const Door* door = nullptr;
    for (const Door& candidate : world.doors()) door = candidate.name == name ? &candidate : door;
    REQUIRE(door != nullptr);
    const Vec2 middle = (door->edge[0] + door->edge[1]) * 0.5f;
    std::vector<Vec2> curve;
    path.smoothed.sampleEvery(0.05, curve);
    float nearest = 1e9f;
    for (const Vec2& p : curve) nearest = std::min(nearest, (p - middle).norm());
    CHECK(nearest < 0.5f);
  }
}

TEST_CASE("Tiled: the sample dungeon in Tiled is the sample dungeon", "[io][tiled][scenario]") {
  const auto tiled = readTiledMap(test::sampleMapsDir() / "dungeon.tmx");
  INFO(tiled.message());
  REQUIRE(tiled.ok());
  const auto original = readRpgMap(test::sampleMapsDir() / "dungeon.rpgmap");
  REQUIRE(original.ok());
  const TileMap& a = tiled->map;
  const TileMap& b = original->map;
  REQUIRE(a.width() == b.width());
  REQUIRE(a.height() == b.height());
  for (std::int32_t y = 0; y < a.height(); ++y) {
    for (std::int32_t x = 0; x < a.width(); ++x) {
      INFO("tile " << x << "," << y);
      REQUIRE(terrainName(a, {x, y}) == terrainName(b, {x, y}));
      for (const MobilityId mobility : {TerrainTable::kWalk, TerrainTable::kSwim, TerrainTable::kFly}) {
        REQUIRE(a.cost({x, y}, mobility) == b.cost({x, y}, mobility));
      }
    }
  }
  REQUIRE(tiled->doors.size() == original->doors.size());
  for (std::size_t i = 0; i < tiled->doors.size(); ++i) {
    const DoorSpec &p = tiled->doors[i], &q = original->doors[i];
    INFO("door " << q.name);
    CHECK(p.name == q.name);
    CHECK(((p.a == q.a && p.b == q.b) || (p.a == q.b && p.b == q.a)));
    CHECK(p.state == q.state);
    CHECK(p.key == q.key);
  }
  CHECK(tiled->entities == original->entities);
}

TEST_CASE("Tiled: malformed and unsupported files get a clear error", "[io][tiled]") {
  auto expectError = [](const std::string& text, const std::string& word, Status status = Status::ParseError) {
    const auto document = parseTiledMap(text, "bad.tmx");
    INFO(text.substr(0, 200));
    REQUIRE_FALSE(document.ok());
    CHECK(document.status() == status);
    CHECK_THAT(std::string(document.message()), Catch::StartsWith("bad.tmx") && Catch::Contains(word));
  };
  const std::string small = kTmx;
  expectError("", "expected a Tiled map");
  expectError("rpgmap 1", "expected a Tiled map");
  expectError("<map", "bad.tmx:1");                               // XML cut short
  expectError(small.substr(0, small.size() / 2), "bad.tmx:");      // truncated
  expectError("{\"width\": 3,", "bad.tmx:");                        // JSON cut short
  expectError("<tileset/>", "expected a <map> element");
  expectError(replaceAll(small, "orthogonal", "isometric"), "orientation 'isometric' is not supported");
  expectError(replaceAll(small, "width=\"4\" height=\"3\" tilewidth", "width=\"40000\" height=\"3\" tilewidth"), "2^26 tile limit");
  expectError(replaceAll(small, "width=\"4\" height=\"3\" tilewidth", "width=\"0\" height=\"3\" tilewidth"), "at least 1");
  expectError(replaceAll(small, "width=\"4\" height=\"3\" tilewidth", "width=\"x\" height=\"3\" tilewidth"), "expected an integer map width");
  expectError(replaceAll(small, "infinite=\"0\"", "infinite=\"1\""), "infinite maps are not supported");
  expectError(replaceAll(small, "1,1,1,2\n", "1,1,1\n"), "expected 12 tiles, found 11");
  expectError(replaceAll(small, "1,1,1,2\n", "1,1,1,2,7\n"), "expected 12 tiles, found more");
  expectError(replaceAll(small, "1,1,1,2\n", "1,1,1,x\n"), "expected a tile id, found 'x'");
  expectError(replaceAll(small, "encoding=\"csv\">\n2,2", "encoding=\"hex\">\n2,2"), "encoding 'hex' is not csv or base64");
  expectError(replaceAll(small, "encoding=\"csv\">\n2,2,2,2,\n1,3,3,1,\n1,1,1,2\n", "encoding=\"base64\">AAAA!AAA"), "is not Base64");
  expectError(replaceAll(small, "encoding=\"csv\">\n2,2,2,2,\n1,3,3,1,\n1,1,1,2\n", "encoding=\"base64\" compression=\"zstd\">AAAA"), "compression 'zstd' is not supported");
  expectError(replaceAll(small, "encoding=\"csv\">\n2,2,2,2,\n1,3,3,1,\n1,1,1,2\n", "encoding=\"base64\" compression=\"zlib\">AAAAAAAA"), "corrupt");
  expectError(replaceAll(small, "encoding=\"csv\">\n2,2,2,2,\n1,3,3,1,\n1,1,1,2\n", "encoding=\"base64\">AAAAAAAAAAA="), "expected 12 tiles, found 2");
  expectError(replaceAll(small, "<property name=\"walk\" type=\"float\" value=\"1.5\"/>", "<property name=\"walk\" type=\"float\" value=\"-1\"/>"),
              "must be positive");
  expectError(replaceAll(small, "value=\"bridge\"", "value=\"floor\""), "give it different costs");
  expectError(replaceAll(small, "value=\"bridge\"", "value=\"no way\""), "terrain 'no way'");
  expectError(replaceAll(small, "value=\"locked\"", "value=\"ajar\""), "state must be open, closed or locked");
  expectError(replaceAll(small, "x=\"48\" y=\"24\"", "x=\"480\" y=\"24\""), "door 'gate' lies outside the map");
  expectError(replaceAll(small, "x=\"48\" y=\"24\"", "x=\"nan\" y=\"24\""), "expected a number object x");
  expectError(replaceAll(small, "value=\"0.75\"", "value=\"-2\""), "radius must be finite and not negative");
  expectError(replaceAll(small, "type=\"bool\" value=\"true\"", "type=\"bool\" value=\"yes\""), "flat must be true or false");
  expectError(replaceAll(small, "firstgid=\"1\"", "firstgid=\"0\""), "firstgid 0 is out of range");
  expectError(replaceAll(small, "value=\"climb\"", "value=\"bad name!\""), "map property mobilities");
  std::string hex = replaceAll(small, "orientation=\"orthogonal\"", "orientation=\"hexagonal\" hexsidelength=\"8\" staggeraxis=\"y\" staggerindex=\"middle\"");
  expectError(hex, "stagger index 'middle' is not odd or even");
  // Nesting deep enough to exhaust a recursive parser is refused first.
  expectError(std::string(100000, '[') + std::string(100000, ']'), "expected a Tiled map");
  expectError("{" + std::string(5000, '[') + std::string(5000, ']') + "}", "nested more than 64 levels deep");
  expectError("<map>" + replaceAll(std::string(2000, 'x'), "x", "<g>") + "</map>", "nested more than 64 levels deep");
}

namespace {

// The small map with crowd-field settings: the map property danger-factor 150 and a layer of
// class `danger` named turret over the terrain. Tiles 6 and 7 carry danger 40 and 200; the layer
// also holds a wall tile (2), which names a terrain but no danger, at (0, 1) where the floor is:
// were the layer read as terrain, that floor would turn to wall.
//   turret:  40  40  0 0
//             0 200  0 0   ((0, 1): the wall tile, danger 0)
//             0   0  0 0   ((3, 2): the torch, no properties)
std::string dangerTmx(const std::string& value = "200", const std::string& factor = "150",
                      const std::string& name = "turret") {
  std::string text = kTmx;
  text = replaceAll(text, "<property name=\"mobilities\" value=\"climb\"/>",
                    "<property name=\"mobilities\" value=\"climb\"/><property name=\"danger-factor\" type=\"int\" value=\"" +
                        factor + "\"/>");
  text = replaceAll(text, " </tileset>",
                    "  <tile id=\"5\"><properties><property name=\"danger\" type=\"int\" value=\"40\"/></properties></tile>\n"
                    "  <tile id=\"6\"><properties><property name=\"danger\" type=\"int\" value=\"" + value +
                        "\"/></properties></tile>\n </tileset>");
  return replaceAll(text, " <objectgroup",
                    " <layer id=\"6\" name=\"" + name + "\" class=\"danger\" width=\"4\" height=\"3\">"
                    "<data encoding=\"csv\">6,6,0,0,2,7,0,0,0,0,0,5</data></layer>\n <objectgroup");
}

std::string dangerTmj(const std::string& value = "200") {
  std::string text = kTmj;
  text = replaceAll(text, R"("properties": [{"name": "mobilities", "type": "string", "value": "climb"}],)",
                    R"("properties": [{"name": "mobilities", "type": "string", "value": "climb"},
                                      {"name": "danger-factor", "type": "int", "value": 150}],)");
  text = replaceAll(text, R"({"id": 4, "properties": [{"name": "light", "type": "string", "value": "yes"}]}]}],)",
                    R"({"id": 4, "properties": [{"name": "light", "type": "string", "value": "yes"}]},
    {"id": 5, "properties": [{"name": "danger", "type": "int", "value": 40}]},
    {"id": 6, "properties": [{"name": "danger", "type": "int", "value": )" + value + R"(}]}]}],)");
  return replaceAll(text, R"(    {"type": "objectgroup")",
                    R"(    {"type": "tilelayer", "id": 6, "name": "turret", "class": "danger", "width": 4, "height": 3,
     "data": [6,6,0,0, 2,7,0,0, 0,0,0,5]},
    {"type": "objectgroup")");
}

}  // namespace

TEST_CASE("Tiled: the danger factor and layers of class danger, in TMX and TMJ", "[io][tiled][danger]") {
  const auto tmx = parseTiledMap(dangerTmx(), "danger.tmx");
  INFO(tmx.message());
  REQUIRE(tmx.ok());
  checkSmallMap(*tmx);  // the same terrain: the danger layer is not a terrain layer
  CHECK(tmx->dangerFactor == 150);
  REQUIRE(tmx->dangerLayers.size() == 1);
  CHECK(tmx->dangerLayers[0].name == "turret");
  CHECK(tmx->dangerLayers[0].values == std::vector<std::uint8_t>{40, 40, 0, 0, 0, 200, 0, 0, 0, 0, 0, 0});
  const auto tmj = parseTiledMap(dangerTmj(), "danger.tmj");
  INFO(tmj.message());
  REQUIRE(tmj.ok());
  CHECK(*tmj == *tmx);
  // They survive the trip through .rpgmap.
  const auto text = writeRpgMap(*tmx);
  REQUIRE(text.ok());
  const auto again = parseRpgMap(*text);
  REQUIRE(again.ok());
  CHECK(*again == *tmx);
  SECTION("a map without them: factor 0, no layers") {
    const auto plain = parseTiledMap(kTmx, "small.tmx");
    REQUIRE(plain.ok());
    CHECK(plain->dangerFactor == 0);
    CHECK(plain->dangerLayers.empty());
  }
}

TEST_CASE("Tiled: bad danger settings get a clear error", "[io][tiled][danger]") {
  auto expectError = [](const std::string& text, const std::string& message) {
    const auto document = parseTiledMap(text, "bad.tmx");
    REQUIRE_FALSE(document.ok());
    CHECK(document.status() == Status::ParseError);
    CHECK(std::string(document.message()) == message);
  };
  expectError(dangerTmx("300"), "bad.tmx: danger layer 'turret', tile 7: property danger: expected a whole number from 0 to 255, found '300'");
  expectError(dangerTmx("-1"), "bad.tmx: danger layer 'turret', tile 7: property danger: expected a whole number from 0 to 255, found '-1'");
  expectError(dangerTmx("high"), "bad.tmx: danger layer 'turret', tile 7: property danger: expected a whole number from 0 to 255, found 'high'");
  expectError(dangerTmj("256"), "bad.tmx: danger layer 'turret', tile 7: property danger: expected a whole number from 0 to 255, found '256'");
  expectError(dangerTmx("200", "256"), "bad.tmx:3: map property danger-factor: expected a whole number from 0 to 255, found '256'");
  expectError(dangerTmx("200", "x"), "bad.tmx:3: map property danger-factor: expected a whole number from 0 to 255, found 'x'");
  expectError(dangerTmx("200", "150", "gun turret"),
              "bad.tmx: danger layer 'gun turret': a danger layer's name is letters, digits, '_', '-' or '.'");
  // Two layers of one name, and nine layers.
  const std::string layer = "<layer id=\"6\" name=\"turret\" class=\"danger\" width=\"4\" height=\"3\">"
                            "<data encoding=\"csv\">6,6,0,0,2,7,0,0,0,0,0,5</data></layer>\n";
  expectError(replaceAll(dangerTmx(), " <objectgroup", layer + " <objectgroup"), "bad.tmx: two danger layers are named 'turret'");
  std::string nine = dangerTmx();
  for (int i = 1; i <= 8; ++i) nine = replaceAll(nine, " <objectgroup", replaceAll(layer, "turret", "t" + std::to_string(i)) + " <objectgroup");
  expectError(nine, "bad.tmx: 9 layers of class danger, at most 8 allowed");
}

namespace {

// The small map with designer settings as map properties on the lines after `mobilities` (from
// line 4 on, in TMX and TMJ).
std::string settingsTmx(const std::string& properties) {
  return replaceAll(kTmx, "<property name=\"mobilities\" value=\"climb\"/>",
                    "<property name=\"mobilities\" value=\"climb\"/>\n" + properties);
}
std::string settingsTmj(const std::string& properties) {
  return replaceAll(kTmj, R"({"name": "mobilities", "type": "string", "value": "climb"}],)",
                    R"({"name": "mobilities", "type": "string", "value": "climb"},
)" + properties + "],");
}

}  // namespace

TEST_CASE("Tiled: designer settings from map properties, in TMX and TMJ", "[io][tiled][settings]") {
  const auto tmx = parseTiledMap(settingsTmx(R"(<property name="comfort" type="float" value="0.4"/>
<property name="smoothing" type="float" value="0"/>
<property name="detour-margin" type="float" value="0.125"/>
<property name="door-cost-open" type="int" value="1"/>
<property name="door-cost-closed" value="6.5"/>
<property name="door-cost-locked" type="float" value="1000"/>
<property name="replan-interval" type="float" value="2.5"/>
<property name="stickiness" type="float" value="0.3"/>)"),
                                 "settings.tmx");
  INFO(tmx.message());
  REQUIRE(tmx.ok());
  checkSmallMap(*tmx);
  const DesignSettings expected{0.4f, 0.0f, 0.125f, 1.0f, 6.5f, 1000.0f, 2.5f, 0.3f};
  CHECK(tmx->settings == expected);
  const auto tmj = parseTiledMap(settingsTmj(R"({"name": "comfort", "type": "float", "value": 0.4},
{"name": "smoothing", "type": "float", "value": 0}, {"name": "detour-margin", "type": "float", "value": 0.125},
{"name": "door-cost-open", "type": "int", "value": 1}, {"name": "door-cost-closed", "type": "string", "value": "6.5"},
{"name": "door-cost-locked", "type": "float", "value": 1000}, {"name": "replan-interval", "type": "float", "value": 2.5},
{"name": "stickiness", "type": "float", "value": 0.3})"),
                                 "settings.tmj");
  INFO(tmj.message());
  REQUIRE(tmj.ok());
  CHECK(*tmj == *tmx);
  // They survive the trip through .rpgmap.
  const auto text = writeRpgMap(*tmx);
  REQUIRE(text.ok());
  CHECK_THAT(*text, Catch::Contains("[settings]\ncomfort 0.4\nsmoothing 0\ndetour-margin 0.125\ndoor-cost-open 1\n"
                                    "door-cost-closed 6.5\ndoor-cost-locked 1000\nreplan-interval 2.5\nstickiness 0.3\n"));
  const auto again = parseRpgMap(*text);
  REQUIRE(again.ok());
  CHECK(*again == *tmx);
  SECTION("some set, the rest unset") {
    const auto some = parseTiledMap(settingsTmx(R"(<property name="stickiness" type="float" value="1"/>)"), "some.tmx");
    REQUIRE(some.ok());
    CHECK(some->settings == DesignSettings{.stickiness = 1.0f});
    const auto none = parseTiledMap(kTmx, "small.tmx");
    REQUIRE(none.ok());
    CHECK(none->settings == DesignSettings{});
  }
}

TEST_CASE("Tiled: bad designer settings name the file, the property's line and the limits", "[io][tiled][settings]") {
  auto expectError = [](const std::string& text, const std::string& name, const std::string& message) {
    const auto document = parseTiledMap(text, name);
    REQUIRE_FALSE(document.ok());
    CHECK(document.status() == Status::ParseError);
    CHECK(std::string(document.message()) == message);
  };
  expectError(settingsTmx(R"(<property name="comfort" type="float" value="9"/>)"), "bad.tmx",
              "bad.tmx:4: map property comfort: expected a number of tiles from 0 to 8, found '9'");
  expectError(settingsTmx("<property name=\"x\" value=\"1\"/>\n<property name=\"smoothing\" value=\"-0.5\"/>"), "bad.tmx",
              "bad.tmx:5: map property smoothing: expected a number of tiles from 0 to 8, found '-0.5'");
  expectError(settingsTmx(R"(<property name="detour-margin" value="wide"/>)"), "bad.tmx",
              "bad.tmx:4: map property detour-margin: expected a number of tiles from 0 to 2, found 'wide'");
  expectError(settingsTmx(R"(<property name="door-cost-locked" value="1001"/>)"), "bad.tmx",
              "bad.tmx:4: map property door-cost-locked: expected a number of tile steps from 0 to 1000, found '1001'");
  expectError(settingsTmx(R"(<property name="replan-interval" value="0"/>)"), "bad.tmx",
              "bad.tmx:4: map property replan-interval: expected a number of seconds over 0 up to 60, found '0'");
  expectError(settingsTmx(R"(<property name="stickiness" value="nan"/>)"), "bad.tmx",
              "bad.tmx:4: map property stickiness: expected a fraction from 0 to 1, found 'nan'");
  expectError(settingsTmj(R"({"name": "comfort", "type": "string", "value": "inf"})"), "bad.tmj",
              "bad.tmj:4: map property comfort: expected a number of tiles from 0 to 8, found 'inf'");
  expectError(settingsTmj(R"({"name": "door-cost-open", "type": "float", "value": -1})"), "bad.tmj",
              "bad.tmj:4: map property door-cost-open: expected a number of tile steps from 0 to 1000, found '-1'");
  // As Tiled writes TMJ: the map's properties after its layers, here with an object property of
  // the same name (line 20) before them; the error names the map property's line (23).
  std::string late = replaceAll(kTmj, R"(  "properties": [{"name": "mobilities", "type": "string", "value": "climb"}],
)", "");
  late = replaceAll(late, R"({"name": "key", "type": "string", "value": "gate_key"}]},)",
                    R"({"name": "key", "type": "string", "value": "gate_key"}, {"name": "comfort", "value": 1}]},)");
  late = replaceAll(late, R"({"id": 4, "name": "sign", "class": "note", "x": 1, "y": 1}]}]
})", R"({"id": 4, "name": "sign", "class": "note", "x": 1, "y": 1}]}],
  "properties": [{"name": "mobilities", "type": "string", "value": "climb"},
                 {"name": "comfort", "type": "float", "value": 12}]
})");
  REQUIRE(late.find("\"comfort\"") < late.find("\"properties\": [{\"name\": \"mobilities\""));
  expectError(late, "late.tmj", "late.tmj:23: map property comfort: expected a number of tiles from 0 to 8, found '12'");
}
