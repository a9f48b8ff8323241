// SPDX-License-Identifier: MIT
// The rpgnav text map format (.rpgmap): parsing, canonical writing, round trips and bad input.
#include <catch2/catch.hpp>

#include "rpgnav/io/moving_ai.hpp"
#include "rpgnav/io/rpgmap.hpp"
#include "support/test_maps.hpp"
#include "support/text_files.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

using namespace rpgnav;
using test::replaceAll;
using test::symbolAt;
using test::TempDir;

#define CHECK_INVALID_WRITE(document, word)                             \
  do {                                                                  \
    const auto written_ = writeRpgMap(document);                        \
    REQUIRE_FALSE(written_.ok());                                       \
    CHECK(written_.status() == Status::InvalidArgument);                \
    CHECK_THAT(written_.error().message, Catch::Contains(word));        \
  } while (false)

namespace {

std::string join(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

// ---------------------------------------------------------------------------------------------
// A hand-written document with every feature, and its canonical text.

const std::string kHandWritten =
    "; The guard post: a hand-written test map.\n"
    "\n"
    "rpgmap 1\n"
    "layout square        ; square | hex-pointy | hex-flat\n"
    "connectivity 8\n"
    "size 5 4             ; width height\n"
    "tile-size 2\n"
    "origin 10 -4\n"
    "mobilities climb\n"
    "\n"
    "[legend]\n"
    "; symbol  terrain  mobility=cost ...\n"
    ".  floor   walk=1 fly=1\n"
    "#  wall    climb=4\n"
    "~  water   swim=1.5 fly=1\n"
    ",  swamp   walk=3 swim=2 fly=1 climb=0.25\n"
    "\n"
    "[tiles]\n"
    "#####\n"
    "#.,~#\n"
    "#..~#\n"
    "##.##\n"
    "\n"
    "[doors]\n"
    "; name  x1 y1  x2 y2  state [key=NAME]\n"
    "front   2 2  2 3  closed\n"
    "vault   1 1  1 2  locked key=vault_key\n"
    "arch    2 1  3 1  open\n"
    "\n"
    "[entities]\n"
    "rug     13 -1     radius=1.5  flat\n"
    "table   15.5 1    radius=0.6\n"
    "chest   17.25 0.5 radius=0\n";

const std::string kHandWrittenCanonical =
    "rpgmap 1\n"
    "layout square\n"
    "size 5 4\n"
    "tile-size 2\n"
    "origin 10 -4\n"
    "mobilities climb\n"
    "\n"
    "[legend]\n"
    ". floor walk=1 fly=1\n"
    "# wall climb=4\n"
    "~ water swim=1.5 fly=1\n"
    ", swamp walk=3 swim=2 fly=1 climb=0.25\n"
    "\n"
    "[tiles]\n"
    "#####\n"
    "#.,~#\n"
    "#..~#\n"
    "##.##\n"
    "\n"
    "[doors]\n"
    "front 2 2 2 3 closed\n"
    "vault 1 1 1 2 locked key=vault_key\n"
    "arch 2 1 3 1 open\n"
    "\n"
    "[entities]\n"
    "rug 13 -1 radius=1.5 flat\n"
    "table 15.5 1 radius=0.6\n"
    "chest 17.25 0.5 radius=0\n";

// The base file of the bad-input tests; line numbers below refer to this listing.
const std::vector<std::string> kBase = {
    "rpgmap 1",                        // 1
    "layout square",                   // 2
    "size 4 3",                        // 3
    "",                                // 4
    "[legend]",                        // 5
    ". floor walk=1 fly=1",            // 6
    "# wall",                          // 7
    "~ water swim=1 fly=2.5",          // 8
    "",                                // 9
    "[tiles]",                         // 10
    "#..#",                            // 11
    "#.~.",                            // 12
    "....",                            // 13
    "",                                // 14
    "[doors]",                         // 15
    "gate 1 0 1 1 closed key=brass",   // 16
    "",                                // 17
    "[entities]",                      // 18
    "crate 2.5 0.5 radius=0.4",        // 19
};

// kBase with line `line` (1-based) replaced.
std::string with(int line, const std::string& replacement) {
  std::vector<std::string> lines = kBase;
  lines.at(std::size_t(line - 1)) = replacement;
  return join(lines);
}
// kBase with `text` inserted as line `line` (what was there moves down).
std::string inserting(int line, const std::string& text) {
  std::vector<std::string> lines = kBase;
  lines.insert(lines.begin() + (line - 1), text);
  return join(lines);
}
std::string without(int line) {
  std::vector<std::string> lines = kBase;
  lines.erase(lines.begin() + (line - 1));
  return join(lines);
}
// The first `count` lines of kBase.
std::string firstLines(int count) { return join(std::vector<std::string>(kBase.begin(), kBase.begin() + count)); }

// ---------------------------------------------------------------------------------------------
// Random documents.

std::string randomName(std::mt19937& random, std::string_view prefix) {
  static constexpr std::string_view kChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.";
  std::string name(prefix);
  const int length = std::uniform_int_distribution<int>(0, 10)(random);
  for (int i = 0; i < length; ++i) name += kChars[std::uniform_int_distribution<std::size_t>(0, kChars.size() - 1)(random)];
  return name;
}

float randomCost(std::mt19937& random) {
  switch (std::uniform_int_distribution<int>(0, 4)(random)) {
    case 0: return std::uniform_real_distribution<float>(0.1f, 10.0f)(random);
    case 1: return float(std::uniform_int_distribution<int>(1, 9)(random));
    case 2: return float(std::uniform_int_distribution<int>(1, 30)(random)) / 7.0f;
    case 3: return std::pow(10.0f, std::uniform_real_distribution<float>(-4.0f, 4.0f)(random));
    default: return 1.0f / 3.0f;
  }
}

Layout randomLayout(std::mt19937& random) {
  const float tileSize = std::uniform_int_distribution<int>(0, 2)(random) == 0
                             ? 1.0f
                             : std::uniform_real_distribution<float>(0.05f, 20.0f)(random);
  const Vec2 origin = std::uniform_int_distribution<int>(0, 2)(random) == 0
                          ? Vec2(0.0f, 0.0f)
                          : Vec2(std::uniform_real_distribution<float>(-500.0f, 500.0f)(random),
                                 std::uniform_real_distribution<float>(-500.0f, 500.0f)(random));
  const HexStagger stagger = std::uniform_int_distribution<int>(0, 1)(random) == 0 ? HexStagger::Odd : HexStagger::Even;
  switch (std::uniform_int_distribution<int>(0, 3)(random)) {
    case 0: return Layout::square(tileSize, 8, origin);
    case 1: return Layout::square(tileSize, 4, origin);
    case 2: return Layout::hexPointy(tileSize, origin, stagger);
    default: return Layout::hexFlat(tileSize, origin, stagger);
  }
}

MapDocument randomDocument(std::mt19937& random) {
  auto chance = [&](double p) { return std::uniform_real_distribution<double>(0.0, 1.0)(random) < p; };
  const Layout layout = randomLayout(random);
  const int width = std::uniform_int_distribution<int>(1, 40)(random);
  const int height = std::uniform_int_distribution<int>(1, 40)(random);

  TerrainTable terrain;
  const int extraMobilities = std::uniform_int_distribution<int>(0, 5)(random);
  for (int m = 0; m < extraMobilities; ++m) {
    while (!terrain.addMobility(randomName(random, "m")).ok()) {
    }
  }
  std::string symbols;
  for (char c = '!'; c <= '~'; ++c) {
    if (c != ';') symbols += c;
  }
  std::shuffle(symbols.begin(), symbols.end(), random);
  const int terrainCount = std::uniform_int_distribution<int>(1, 25)(random);
  for (int t = 0; t < terrainCount; ++t) {
    auto id = terrain.addTerrain(randomName(random, std::string("t").append(std::to_string(t)).append("_")), symbols[std::size_t(t)]);
    REQUIRE(id.ok());
    for (int m = 0; m < terrain.mobilityCount(); ++m) {
      if (chance(0.5)) REQUIRE(terrain.setCost(*id, MobilityId{std::uint8_t(m)}, randomCost(random)) == Status::Ok);
    }
  }
  std::vector<TerrainId> tiles(std::size_t(width * height));
  for (TerrainId& tile : tiles) {
    tile = TerrainId{std::uint8_t(std::uniform_int_distribution<int>(0, terrainCount - 1)(random))};
  }
  auto map = TileMap::create(layout, width, height, terrain, std::move(tiles));
  REQUIRE(map.ok());
  MapDocument document{std::move(map.value()), {}, {}};

  auto randomCell = [&] {
    return Cell{std::uniform_int_distribution<int>(0, width - 1)(random),
                std::uniform_int_distribution<int>(0, height - 1)(random)};
  };
  const int doorCount = std::uniform_int_distribution<int>(0, 12)(random);
  for (int attempt = 0; attempt < 50 && int(document.doors.size()) < doorCount; ++attempt) {
    const Cell a = randomCell();
    std::vector<Cell> neighbours;
    for (const NeighbourStep& step : layout.touching(a)) {
      const Cell b{a.x + step.dx, a.y + step.dy};
      if (step.sharesEdge && document.map.contains(b)) neighbours.push_back(b);
    }
    if (neighbours.empty()) continue;
    const Cell b = neighbours[std::uniform_int_distribution<std::size_t>(0, neighbours.size() - 1)(random)];
    const bool taken = std::any_of(document.doors.begin(), document.doors.end(), [&](const DoorSpec& d) {
      return (d.a == a && d.b == b) || (d.a == b && d.b == a);
    });
    if (taken) continue;
    DoorSpec door;
    door.name = randomName(random, "d" + std::to_string(document.doors.size()) + "_");
    door.a = a;
    door.b = b;
    door.state = DoorState(std::uniform_int_distribution<int>(0, 2)(random));
    if (chance(0.5)) door.key = randomName(random, "k");
    document.doors.push_back(door);
  }
  const int entityCount = std::uniform_int_distribution<int>(0, 12)(random);
  for (int attempt = 0; attempt < 50 && int(document.entities.size()) < entityCount; ++attempt) {
    const Vec2 center = layout.tileCenter(randomCell());
    const Vec2 offset(std::uniform_real_distribution<float>(-0.45f, 0.45f)(random),
                      std::uniform_real_distribution<float>(-0.45f, 0.45f)(random));
    EntitySpec entity;
    entity.name = randomName(random, std::string("e").append(std::to_string(document.entities.size())).append("_"));
    entity.position = center + offset * layout.tileSize();
    if (!document.map.tileAt(entity.position)) continue;
    entity.radius = chance(0.2) ? 0.0f : std::uniform_real_distribution<float>(0.01f, 3.0f)(random);
    entity.flat = chance(0.3);
    document.entities.push_back(entity);
  }
  // Danger layers: blocks of one value, single tiles and noise, so the writer's rectangles meet
  // runs that stack, runs that do not, and runs broken by a different value.
  if (chance(0.5)) document.dangerFactor = std::uint8_t(std::uniform_int_distribution<int>(0, 255)(random));
  // Designer settings: each set or not, anywhere in its limits, its ends included.
  for (const DesignSettingKey& setting : designSettingKeys()) {
    if (!chance(0.4)) continue;
    const int pick = std::uniform_int_distribution<int>(0, 5)(random);
    const float value = pick == 0 && !setting.lowExcluded ? setting.low
                        : pick == 1                       ? setting.high
                                                          : std::uniform_real_distribution<float>(setting.low, setting.high)(random);
    if (allows(setting, value)) document.settings.*setting.member = value;
  }
  const int layerCount = std::uniform_int_distribution<int>(0, kMaxDangerLayers)(random);
  for (int l = 0; l < layerCount; ++l) {
    DangerLayerSpec layer{randomName(random, "danger" + std::to_string(l) + "_"), std::vector<std::uint8_t>(std::size_t(width * height), 0)};
    {
      const int strokes = std::uniform_int_distribution<int>(0, 6)(random);
      for (int k = 0; k < strokes; ++k) {
        const Cell a = randomCell(), b = randomCell();
        const auto value = std::uint8_t(std::uniform_int_distribution<int>(0, 255)(random));
        for (int y = std::min(a.y, b.y); y <= std::max(a.y, b.y); ++y) {
          for (int x = std::min(a.x, b.x); x <= std::max(a.x, b.x); ++x) layer.values[std::size_t(y * width + x)] = value;
        }
      }
      if (chance(0.3)) {
        for (std::uint8_t& value : layer.values) value = std::uint8_t(std::uniform_int_distribution<int>(0, 3)(random));
      }
    }
    document.dangerLayers.push_back(std::move(layer));
  }
  return document;
}

void checkRoundTrip(const MapDocument& document) {
  auto written = writeRpgMap(document);
  REQUIRE(written.ok());
  INFO(written.value());
  auto parsed = parseRpgMap(written.value(), "written.rpgmap");
  if (!parsed.ok()) FAIL(parsed.error().message);
  CHECK(parsed.value().map == document.map);
  CHECK(parsed.value().doors == document.doors);
  CHECK(parsed.value().entities == document.entities);
  CHECK(parsed.value() == document);
  auto again = writeRpgMap(parsed.value());
  REQUIRE(again.ok());
  CHECK(again.value() == written.value());
}

}  // namespace

// ---------------------------------------------------------------------------------------------

TEST_CASE("rpgmap: a hand-written square map is parsed exactly", "[io]") {
  auto parsed = parseRpgMap(kHandWritten, "guard.rpgmap");
  if (!parsed.ok()) FAIL(parsed.error().message);
  const MapDocument& document = parsed.value();
  const TileMap& map = document.map;

  CHECK(map.layout().kind() == LayoutKind::Square);
  CHECK(map.layout().connectivity() == 8);
  CHECK(map.layout().tileSize() == 2.0f);
  CHECK(map.layout().origin() == Vec2(10.0f, -4.0f));
  CHECK(map.width() == 5);
  CHECK(map.height() == 4);

  const TerrainTable& terrain = map.terrain();
  REQUIRE(terrain.mobilityCount() == 4);
  CHECK(terrain.mobilityName(MobilityId{0}) == "walk");
  CHECK(terrain.mobilityName(MobilityId{1}) == "swim");
  CHECK(terrain.mobilityName(MobilityId{2}) == "fly");
  CHECK(terrain.mobilityName(MobilityId{3}) == "climb");
  const MobilityId climb{3};
  const float no = TerrainTable::kImpassable;

  REQUIRE(terrain.terrainCount() == 4);
  struct Row {
    const char* name;
    char symbol;
    float walk, swim, fly, climb;
  };
  const Row rows[] = {
      {"floor", '.', 1.0f, no, 1.0f, no},
      {"wall", '#', no, no, no, 4.0f},
      {"water", '~', no, 1.5f, 1.0f, no},
      {"swamp", ',', 3.0f, 2.0f, 1.0f, 0.25f},
  };
  for (int t = 0; t < 4; ++t) {
    const TerrainId id{std::uint8_t(t)};
    const Row& row = rows[t];
    INFO("terrain " << row.name);
    CHECK(terrain.terrainName(id) == row.name);
    CHECK(terrain.terrainSymbol(id) == row.symbol);
    CHECK(terrain.cost(id, TerrainTable::kWalk) == row.walk);
    CHECK(terrain.cost(id, TerrainTable::kSwim) == row.swim);
    CHECK(terrain.cost(id, TerrainTable::kFly) == row.fly);
    CHECK(terrain.cost(id, climb) == row.climb);
  }
  const char* tiles[] = {"#####", "#.,~#", "#..~#", "##.##"};
  for (std::int32_t y = 0; y < 4; ++y) {
    for (std::int32_t x = 0; x < 5; ++x) {
      INFO("cell " << x << "," << y);
      CHECK(symbolAt(map, {x, y}) == tiles[y][x]);
    }
  }
  CHECK(map.cost({2, 1}, TerrainTable::kWalk) == 3.0f);
  CHECK_FALSE(map.passable({0, 0}, TerrainTable::kWalk));
  CHECK(map.passable({0, 0}, climb));

  REQUIRE(document.doors.size() == 3);
  CHECK(document.doors[0] == DoorSpec{"front", {2, 2}, {2, 3}, DoorState::Closed, ""});
  CHECK(document.doors[1] == DoorSpec{"vault", {1, 1}, {1, 2}, DoorState::Locked, "vault_key"});
  CHECK(document.doors[2] == DoorSpec{"arch", {2, 1}, {3, 1}, DoorState::Open, ""});

  REQUIRE(document.entities.size() == 3);
  CHECK(document.entities[0].name == "rug");
  CHECK(document.entities[0].position == Vec2(13.0f, -1.0f));
  CHECK(document.entities[0].radius == 1.5f);
  CHECK(document.entities[0].flat);
  CHECK(document.entities[1].name == "table");
  CHECK(document.entities[1].position == Vec2(15.5f, 1.0f));
  CHECK(document.entities[1].radius == 0.6f);
  CHECK_FALSE(document.entities[1].flat);
  CHECK(document.entities[2].name == "chest");
  CHECK(document.entities[2].position == Vec2(17.25f, 0.5f));
  CHECK(document.entities[2].radius == 0.0f);
  CHECK_FALSE(document.entities[2].flat);
  // World positions land on the tiles one expects with tile size 2 and origin (10, -4).
  CHECK(map.tileAt(document.entities[0].position) == std::optional<Cell>(Cell{1, 1}));
  CHECK(map.tileAt(document.entities[1].position) == std::optional<Cell>(Cell{2, 2}));
  CHECK(map.tileAt(document.entities[2].position) == std::optional<Cell>(Cell{3, 2}));
}

TEST_CASE("rpgmap: the canonical text of a document", "[io]") {
  SECTION("the hand-written map") {
    auto parsed = parseRpgMap(kHandWritten);
    REQUIRE(parsed.ok());
    auto written = writeRpgMap(parsed.value());
    REQUIRE(written.ok());
    CHECK(written.value() == kHandWrittenCanonical);
    auto back = parseRpgMap(written.value());
    REQUIRE(back.ok());
    CHECK(back.value() == parsed.value());
  }
  SECTION("a document built in code") {
    TerrainTable terrain;
    REQUIRE(terrain.addMobility("dig").ok());
    REQUIRE(terrain.addMobility("ooze.2").ok());
    const TerrainId moss = terrain.addTerrain("moss", 'm').value();
    const TerrainId rock = terrain.addTerrain("rock-face", 'R').value();
    const TerrainId deep = terrain.addTerrain("deep_water", '[').value();
    REQUIRE(terrain.setCost(moss, TerrainTable::kWalk, 0.1f) == Status::Ok);
    REQUIRE(terrain.setCost(moss, MobilityId{4}, 1.0f / 3.0f) == Status::Ok);
    REQUIRE(terrain.setCost(rock, MobilityId{3}, 1e-5f) == Status::Ok);
    REQUIRE(terrain.setCost(deep, TerrainTable::kSwim, 1e20f) == Status::Ok);
    std::vector<TerrainId> tiles = {moss, rock, deep, rock, moss, moss};
    auto map = TileMap::create(Layout::square(0.5f, 4, Vec2(-1.25f, 3.0f)), 3, 2, terrain, tiles);
    REQUIRE(map.ok());
    MapDocument document{map.value(), {}, {}};
    document.doors.push_back({"hatch", {0, 0}, {0, 1}, DoorState::Open, ""});
    document.doors.push_back({"grate.1", {2, 1}, {1, 1}, DoorState::Locked, "k-9"});
    document.entities.push_back({"bones", Vec2(-1.0f, 3.1f), 0.1f, true});
    document.entities.push_back({"idol", Vec2(0.0f, 3.75f), 0.25f, false});

    auto written = writeRpgMap(document);
    REQUIRE(written.ok());
    CHECK(written.value() ==
          "rpgmap 1\n"
          "layout square\n"
          "connectivity 4\n"
          "size 3 2\n"
          "tile-size 0.5\n"
          "origin -1.25 3\n"
          "mobilities dig ooze.2\n"
          "\n"
          "[legend]\n"
          "m moss walk=0.1 ooze.2=0.33333334\n"
          "R rock-face dig=1e-05\n"
          "[ deep_water swim=1e+20\n"
          "\n"
          "[tiles]\n"
          "mR[\n"
          "Rmm\n"
          "\n"
          "[doors]\n"
          "hatch 0 0 0 1 open\n"
          "grate.1 2 1 1 1 locked key=k-9\n"
          "\n"
          "[entities]\n"
          "bones -1 3.1 radius=0.1 flat\n"
          "idol 0 3.75 radius=0.25\n");
    checkRoundTrip(document);
  }
  SECTION("the smallest document: no doors, no entities, no costs") {
    TerrainTable terrain;
    const TerrainId x = terrain.addTerrain("x", 'x').value();
    MapDocument document{TileMap::create(Layout::square(), 1, 1, terrain, x).value(), {}, {}};
    auto written = writeRpgMap(document);
    REQUIRE(written.ok());
    CHECK(written.value() ==
          "rpgmap 1\nlayout square\nsize 1 1\ntile-size 1\norigin 0 0\n\n[legend]\nx x\n\n[tiles]\nx\n");
    checkRoundTrip(document);
  }
  SECTION("hex layouts") {
    std::mt19937 random(3);
    MapDocument pointy{test::randomMap(random, Layout::hexPointy(), 3, 2, 0.2), {}, {}};
    auto written = writeRpgMap(pointy);
    REQUIRE(written.ok());
    CHECK_THAT(written.value(), Catch::StartsWith("rpgmap 1\nlayout hex-pointy\nsize 3 2\ntile-size 1\norigin 0 0\n\n"
                                                  "[legend]\n. floor walk=1 fly=1\n# wall\n~ water swim=1 fly=1\n"
                                                  ", swamp walk=3 swim=2 fly=1\nh hills walk=2 fly=1\n\n[tiles]\n"));
    CHECK_THAT(written.value(), !Catch::Contains("connectivity"));
    checkRoundTrip(pointy);
    MapDocument flat{test::randomMap(random, Layout::hexFlat(2.5f), 2, 3, 0.2), {}, {}};
    written = writeRpgMap(flat);
    REQUIRE(written.ok());
    CHECK_THAT(written.value(), Catch::StartsWith("rpgmap 1\nlayout hex-flat\nsize 2 3\ntile-size 2.5\n"));
    checkRoundTrip(flat);
    MapDocument even{test::randomMap(random, Layout::hexFlat(1.0f, Vec2(0.0f, 0.0f), HexStagger::Even), 2, 3, 0.2), {}, {}};
    written = writeRpgMap(even);
    REQUIRE(written.ok());
    CHECK_THAT(written.value(), Catch::StartsWith("rpgmap 1\nlayout hex-flat even\nsize 2 3\n"));
    checkRoundTrip(even);
  }
}

TEST_CASE("rpgmap: hex layouts and 4-connectivity", "[io]") {
  SECTION("hex-pointy (odd-r rows)") {
    const std::string text =
        "rpgmap 1\n"
        "layout hex-pointy\n"
        "size 4 3\n"
        "[legend]\n"
        ". grass walk=1\n"
        "# rock\n"
        "[tiles]\n"
        "....\n"
        ".#..\n"
        "...#\n"
        "[doors]\n"
        "up    1 0 1 1 open\n"    // even row 0: (1,1) is a neighbour down-right
        "left  1 0 0 1 closed\n"  // even row 0: (0,1) is a neighbour down-left
        "odd   2 1 3 2 open\n"    // odd row 1: (3,2) is a neighbour down-right
        "odd2  2 1 3 0 open\n"    // odd row 1: (3,0) is a neighbour up-right
        "[entities]\n"
        "e 0.5 0.6 radius=0.2\n";
    auto parsed = parseRpgMap(text, "pointy.rpgmap");
    if (!parsed.ok()) FAIL(parsed.error().message);
    const TileMap& map = parsed->map;
    CHECK(map.layout().kind() == LayoutKind::HexPointy);
    CHECK(map.layout().connectivity() == 6);
    CHECK(map.width() == 4);
    CHECK(map.height() == 3);
    CHECK(symbolAt(map, {1, 1}) == '#');
    CHECK(symbolAt(map, {3, 2}) == '#');
    REQUIRE(parsed->doors.size() == 4);
    CHECK(parsed->doors[3] == DoorSpec{"odd2", {2, 1}, {3, 0}, DoorState::Open, ""});
    REQUIRE(parsed->entities.size() == 1);
    CHECK(map.tileAt(parsed->entities[0].position) == std::optional<Cell>(Cell{0, 0}));
    checkRoundTrip(parsed.value());

    const std::string head = "rpgmap 1\nlayout hex-pointy\nsize 4 3\n[legend]\n. grass walk=1\n[tiles]\n....\n....\n....\n"
                             "[doors]\n";
    // Even row 0: (2,1) is not a neighbour of (1,0); odd row 1: (1,0) is not a neighbour of (3,1)... nor is (1,2).
    CHECK_PARSE_ERROR(parseRpgMap(head + "d 1 0 2 1 open\n", "bad.rpgmap"), "bad.rpgmap:11:3: ", "share an edge");
    CHECK_PARSE_ERROR(parseRpgMap(head + "d 2 1 1 0 open\n", "bad.rpgmap"), "bad.rpgmap:11:3: ", "share an edge");
    CHECK_PARSE_ERROR(parseRpgMap(head + "d 2 1 1 2 open\n", "bad.rpgmap"), "bad.rpgmap:11:3: ", "share an edge");
    CHECK_PARSE_ERROR(parseRpgMap(head + "d 0 0 0 2 open\n", "bad.rpgmap"), "bad.rpgmap:11:3: ", "share an edge");
    CHECK(parseRpgMap(head + "d 2 1 2 0 open\n").ok());
    CHECK(parseRpgMap(head + "d 2 1 3 1 open\n").ok());
  }
  SECTION("hex-pointy even (even-r rows)") {
    const std::string head = "rpgmap 1\nlayout hex-pointy even\nsize 4 3\n[legend]\n. grass walk=1\n[tiles]\n....\n....\n....\n"
                             "[doors]\n";
    const auto parsed = parseRpgMap(head + "a 1 0 2 1 open\nb 1 0 1 1 open\nc 2 1 2 0 open\nd 2 1 1 2 open\n");
    if (!parsed.ok()) FAIL(parsed.error().message);
    CHECK(parsed->map.layout() == Layout::hexPointy(1.0f, Vec2(0.0f, 0.0f), HexStagger::Even));
    checkRoundTrip(parsed.value());
    // The odd-r neighbours down-left of row 0 are not neighbours here.
    CHECK_PARSE_ERROR(parseRpgMap(head + "d 1 0 0 1 open\n", "bad.rpgmap"), "bad.rpgmap:11:3: ", "share an edge");
    CHECK_PARSE_ERROR(parseRpgMap(head + "d 2 1 3 2 open\n", "bad.rpgmap"), "bad.rpgmap:11:3: ", "share an edge");
    CHECK(parseRpgMap(replaceAll(head, " even", " odd") + "d 1 0 0 1 open\n").ok());
    CHECK(parseRpgMap(replaceAll(head, " even", " odd"))->map.layout() == Layout::hexPointy());
  }
  SECTION("hex-flat (odd-q columns)") {
    const std::string text =
        "rpgmap 1\n"
        "layout hex-flat\n"
        "tile-size 3\n"
        "origin -2 5\n"
        "size 3 3\n"
        "[legend]\n"
        ". grass walk=1\n"
        "[tiles]\n"
        "...\n"
        "...\n"
        "...\n"
        "[doors]\n"
        "a 0 1 1 0 open\n"    // even column 0: (1,0) is up-right of (0,1)
        "b 1 0 0 1 closed\n"  // the same edge seen from the odd column... is a duplicate
        ;
    CHECK_PARSE_ERROR(parseRpgMap(text, "flat.rpgmap"), "flat.rpgmap:14:3: ", "already sits on this edge ('a')");

    const std::string good =
        "rpgmap 1\nlayout hex-flat\ntile-size 3\norigin -2 5\nsize 3 3\n[legend]\n. grass walk=1\n[tiles]\n...\n...\n...\n"
        "[doors]\na 0 1 1 0 open\nb 1 0 2 0 open\nc 1 1 0 2 locked\nd 1 1 2 2 open\n";
    auto parsed = parseRpgMap(good, "flat.rpgmap");
    if (!parsed.ok()) FAIL(parsed.error().message);
    CHECK(parsed->map.layout().kind() == LayoutKind::HexFlat);
    CHECK(parsed->map.layout().tileSize() == 3.0f);
    CHECK(parsed->map.layout().origin() == Vec2(-2.0f, 5.0f));
    CHECK(parsed->doors.size() == 4);
    checkRoundTrip(parsed.value());

    const std::string head = "rpgmap 1\nlayout hex-flat\nsize 3 3\n[legend]\n. grass walk=1\n[tiles]\n...\n...\n...\n[doors]\n";
    // Even column 0: (1,1) is not a neighbour of (0,0); odd column 1: (0,0)... is, but (2,2) is not of (1,0).
    CHECK_PARSE_ERROR(parseRpgMap(head + "d 0 0 1 1 open\n", "bad.rpgmap"), "bad.rpgmap:11:3: ", "share an edge");
    CHECK_PARSE_ERROR(parseRpgMap(head + "d 1 0 2 2 open\n", "bad.rpgmap"), "bad.rpgmap:11:3: ", "share an edge");
    CHECK(parseRpgMap(head + "d 1 0 0 0 open\n").ok());
    CHECK(parseRpgMap(head + "d 1 0 0 1 open\n").ok());
  }
  SECTION("square with connectivity 4") {
    auto parsed = parseRpgMap(
        "rpgmap 1\nlayout square\nconnectivity 4\nsize 2 2\n[legend]\n. f walk=1\n[tiles]\n..\n..\n[doors]\nd 0 0 1 0 open\n",
        "four.rpgmap");
    if (!parsed.ok()) FAIL(parsed.error().message);
    CHECK(parsed->map.layout().connectivity() == 4);
    CHECK(parsed->map.layout().moves({0, 0}).size() == 4);
    auto written = writeRpgMap(parsed.value());
    REQUIRE(written.ok());
    CHECK_THAT(written.value(), Catch::StartsWith("rpgmap 1\nlayout square\nconnectivity 4\nsize 2 2\n"));
    checkRoundTrip(parsed.value());
    // Diagonal neighbours never share an edge, whatever the connectivity.
    CHECK_PARSE_ERROR(
        parseRpgMap("rpgmap 1\nlayout square\nconnectivity 4\nsize 2 2\n[legend]\n. f walk=1\n[tiles]\n..\n..\n"
                    "[doors]\nd 0 0 1 1 open\n",
                    "bad.rpgmap"),
        "bad.rpgmap:11:3: ", "share an edge");
  }
  SECTION("connectivity 8 is the default and may be written out") {
    auto implicit = parseRpgMap(firstLines(13));
    auto explicit8 = parseRpgMap(inserting(3, "connectivity 8"));
    REQUIRE(implicit.ok());
    REQUIRE(explicit8.ok());
    CHECK(implicit->map.layout().connectivity() == 8);
    CHECK(explicit8->map.layout().connectivity() == 8);
    CHECK(implicit->map == explicit8->map);
    // The header lines come in any order.
    auto reordered = parseRpgMap(join({"rpgmap 1", "origin 0 0", "size 4 3", "tile-size 1", "connectivity 8",
                                       "layout square", "[legend]", ". floor walk=1 fly=1", "# wall",
                                       "~ water swim=1 fly=2.5", "[tiles]", "#..#", "#.~.", "...."}));
    REQUIRE(reordered.ok());
    CHECK(reordered->map == implicit->map);
  }
}

TEST_CASE("rpgmap: custom mobilities", "[io]") {
  SECTION("declared names, built-ins listed or not") {
    auto parsed = parseRpgMap(join({"rpgmap 1", "layout square", "size 2 1", "mobilities climb walk dig fly",
                                    "[legend]", "# cliff climb=2.5 dig=7", ". floor walk=1 dig=0.5", "[tiles]", "#."}));
    if (!parsed.ok()) FAIL(parsed.error().message);
    const TerrainTable& terrain = parsed->map.terrain();
    REQUIRE(terrain.mobilityCount() == 5);
    CHECK(terrain.mobilityName(MobilityId{3}) == "climb");
    CHECK(terrain.mobilityName(MobilityId{4}) == "dig");
    const TerrainId cliff = *terrain.findTerrain("cliff");
    CHECK(terrain.cost(cliff, MobilityId{3}) == 2.5f);
    CHECK(terrain.cost(cliff, MobilityId{4}) == 7.0f);
    CHECK_FALSE(terrain.passable(cliff, TerrainTable::kWalk));
    CHECK(terrain.cost(*terrain.findTerrain("floor"), MobilityId{4}) == 0.5f);
    checkRoundTrip(parsed.value());
  }
  SECTION("up to 8 in all") {
    auto parsed = parseRpgMap(join({"rpgmap 1", "layout square", "size 1 1", "mobilities a b c d e", "[legend]",
                                    ". floor e=1", "[tiles]", "."}));
    if (!parsed.ok()) FAIL(parsed.error().message);
    CHECK(parsed->map.terrain().mobilityCount() == 8);
    checkRoundTrip(parsed.value());
    CHECK_PARSE_ERROR(parseRpgMap(join({"rpgmap 1", "layout square", "size 1 1", "mobilities a b c d e f", "[legend]",
                                        ". floor walk=1", "[tiles]", "."}),
                                  "bad.rpgmap"),
                      "bad.rpgmap:4:22: ", "at most 8");
  }
  SECTION("bad names and unknown mobilities") {
    CHECK_PARSE_ERROR(parseRpgMap(inserting(3, "mobilities climb cl@mb"), "bad.rpgmap"), "bad.rpgmap:3:18: ",
                      "invalid mobility name 'cl@mb'");
    CHECK_PARSE_ERROR(parseRpgMap(with(8, "~ water climb=1"), "bad.rpgmap"), "bad.rpgmap:8:9: ",
                      "unknown mobility 'climb'");
    CHECK_PARSE_ERROR(parseRpgMap(with(8, "~ water climb=1"), "bad.rpgmap"), "bad.rpgmap:8:9: ", "mobilities");
    CHECK_PARSE_ERROR(parseRpgMap(with(8, "~ water Walk=1"), "bad.rpgmap"), "bad.rpgmap:8:9: ", "unknown mobility");
    CHECK_PARSE_ERROR(parseRpgMap(with(8, "~ water =1"), "bad.rpgmap"), "bad.rpgmap:8:9: ", "unknown mobility ''");
  }
}

TEST_CASE("rpgmap: comments, blank lines, whitespace and line endings", "[io]") {
  const MapDocument expected = parseRpgMap(kHandWrittenCanonical).value();
  SECTION("the commented hand-written file equals its canonical text") {
    CHECK(parseRpgMap(kHandWritten).value() == expected);
  }
  SECTION("comments and blank lines everywhere but the tiles") {
    const std::string text =
        "\n; first\n   ; indented comment\n\t\nrpgmap 1 ; the version\n;\nlayout square;no space before\n"
        "size 5 4\n\n\ntile-size 2\t; tab first\norigin 10 -4\nmobilities climb ; one\n\n; legend next\n"
        "[legend] ; here\n\n. floor walk=1 fly=1 ;\n; a comment between entries\n# wall climb=4\n"
        "~ water swim=1.5 fly=1\n, swamp walk=3 swim=2 fly=1 climb=0.25 ; the swamp\n\n[tiles]   ; tiles follow\n"
        "#####\n#.,~#\n#..~#\n##.##\n; right after the tiles\n\n[doors];x\n\nfront 2 2 2 3 closed ; south\n"
        "vault 1 1 1 2 locked key=vault_key;k\narch 2 1 3 1 open\n\n[entities]\n; none yet\n"
        "rug 13 -1 radius=1.5 flat\ntable 15.5 1 radius=0.6\nchest 17.25 0.5 radius=0 ; last\n; trailing\n\n\n";
    auto parsed = parseRpgMap(text);
    if (!parsed.ok()) FAIL(parsed.error().message);
    CHECK(parsed.value() == expected);
  }
  SECTION("tabs and runs of spaces between tokens") {
    const std::string text = replaceAll(kHandWrittenCanonical, " ", " \t ");
    auto parsed = parseRpgMap(text);
    if (!parsed.ok()) FAIL(parsed.error().message);
    CHECK(parsed.value() == expected);
  }
  SECTION("CRLF") {
    auto parsed = parseRpgMap(replaceAll(kHandWritten, "\n", "\r\n"));
    if (!parsed.ok()) FAIL(parsed.error().message);
    CHECK(parsed.value() == expected);
  }
  SECTION("missing final newline") {
    auto parsed = parseRpgMap(kHandWrittenCanonical.substr(0, kHandWrittenCanonical.size() - 1));
    if (!parsed.ok()) FAIL(parsed.error().message);
    CHECK(parsed.value() == expected);
    // Also when the file ends on the last tile row.
    auto tilesLast = parseRpgMap("rpgmap 1\r\nlayout square\r\nsize 2 2\r\n[legend]\r\n. f walk=1\r\n[tiles]\r\n..\r\n..");
    REQUIRE(tilesLast.ok());
    CHECK(tilesLast->map.height() == 2);
  }
  SECTION("empty [doors] and [entities] sections") {
    auto parsed = parseRpgMap(firstLines(13) + "[doors]\n\n[entities]\n");
    REQUIRE(parsed.ok());
    CHECK(parsed->doors.empty());
    CHECK(parsed->entities.empty());
    auto entitiesOnly = parseRpgMap(firstLines(13) + "[entities]\ne 0.5 0.5 radius=1\n");
    REQUIRE(entitiesOnly.ok());
    CHECK(entitiesOnly->doors.empty());
    CHECK(entitiesOnly->entities.size() == 1);
  }
  SECTION("door and entity names live in separate namespaces") {
    auto parsed = parseRpgMap(kHandWrittenCanonical + "front 11 -3 radius=0.1\n");
    REQUIRE(parsed.ok());
    CHECK(parsed->entities.back().name == "front");
  }
}

TEST_CASE("rpgmap: the base file of the error tests is valid", "[io]") {
  auto parsed = parseRpgMap(join(kBase), "base.rpgmap");
  if (!parsed.ok()) FAIL(parsed.error().message);
  CHECK(parsed->map.width() == 4);
  CHECK(parsed->map.height() == 3);
  CHECK(parsed->map.terrain().cost(TerrainId{2}, TerrainTable::kFly) == 2.5f);
  CHECK(parsed->doors == std::vector<DoorSpec>{{"gate", {1, 0}, {1, 1}, DoorState::Closed, "brass"}});
  REQUIRE(parsed->entities.size() == 1);
  CHECK(parsed->entities[0].position == Vec2(2.5f, 0.5f));
  checkRoundTrip(parsed.value());
}

TEST_CASE("rpgmap: bad headers name the file, line and column", "[io]") {
  SECTION("empty file") {
    CHECK_PARSE_ERROR(parseRpgMap("", "bad.rpgmap"), "bad.rpgmap:1:1: ", "expected 'rpgmap 1', found end of file");
    CHECK_PARSE_ERROR(parseRpgMap("; only a comment\n\n", "bad.rpgmap"), "bad.rpgmap:3:1: ", "expected 'rpgmap 1'");
    CHECK_PARSE_ERROR(parseRpgMap(" \t \r\n", "bad.rpgmap"), "bad.rpgmap:2:1: ", "rpgmap 1");
  }
  SECTION("missing 'rpgmap 1'") {
    CHECK_PARSE_ERROR(parseRpgMap(without(1), "bad.rpgmap"), "bad.rpgmap:1:1: ", "expected 'rpgmap 1', found 'layout'");
    CHECK_PARSE_ERROR(parseRpgMap(with(1, "rpgmap"), "bad.rpgmap"), "bad.rpgmap:1:1: ", "expected 'rpgmap 1'");
    CHECK_PARSE_ERROR(parseRpgMap(with(1, "RPGMAP 1"), "bad.rpgmap"), "bad.rpgmap:1:1: ", "expected 'rpgmap 1'");
    CHECK_PARSE_ERROR(parseRpgMap(with(1, "type octile"), "bad.rpgmap"), "bad.rpgmap:1:1: ", "found 'type'");
    CHECK_PARSE_ERROR(parseRpgMap(with(1, "rpgmap 1 extra"), "bad.rpgmap"), "bad.rpgmap:1:10: ", "expected 'rpgmap 1'");
  }
  SECTION("wrong version") {
    CHECK_PARSE_ERROR(parseRpgMap(with(1, "rpgmap 2"), "bad.rpgmap"), "bad.rpgmap:1:8: ",
                      "expected format version 1, found '2'");
    CHECK_PARSE_ERROR(parseRpgMap(with(1, "rpgmap 1.0"), "bad.rpgmap"), "bad.rpgmap:1:8: ", "version 1");
    CHECK_PARSE_ERROR(parseRpgMap(with(1, "  rpgmap   01"), "bad.rpgmap"), "bad.rpgmap:1:12: ", "version 1");
  }
  SECTION("unknown header key") {
    CHECK_PARSE_ERROR(parseRpgMap(inserting(3, "height 3"), "bad.rpgmap"), "bad.rpgmap:3:1: ",
                      "expected one of layout, connectivity, size, tile-size, origin, mobilities, danger-factor or "
                      "[legend], "
                      "found 'height'");
    CHECK_PARSE_ERROR(parseRpgMap(inserting(3, "  Size 4 3"), "bad.rpgmap"), "bad.rpgmap:3:3: ", "found 'Size'");
    CHECK_PARSE_ERROR(parseRpgMap(with(5, "[tiles]"), "bad.rpgmap"), "bad.rpgmap:5:1: ", "found '[tiles]'");
    CHECK_PARSE_ERROR(parseRpgMap(with(5, "[legend] x"), "bad.rpgmap"), "bad.rpgmap:5:10: ", "expected '[legend]'");
  }
  SECTION("duplicate header key") {
    CHECK_PARSE_ERROR(parseRpgMap(inserting(4, "size 4 3"), "bad.rpgmap"), "bad.rpgmap:4:1: ", "duplicate 'size' line");
    CHECK_PARSE_ERROR(parseRpgMap(inserting(3, "layout square"), "bad.rpgmap"), "bad.rpgmap:3:1: ",
                      "duplicate 'layout' line");
    CHECK_PARSE_ERROR(parseRpgMap(inserting(3, "tile-size 1\ntile-size 2"), "bad.rpgmap"), "bad.rpgmap:4:1: ",
                      "duplicate 'tile-size' line");
    CHECK_PARSE_ERROR(parseRpgMap(inserting(3, "origin 0 0\n origin 1 1"), "bad.rpgmap"), "bad.rpgmap:4:2: ",
                      "duplicate 'origin' line");
    CHECK_PARSE_ERROR(parseRpgMap(inserting(3, "connectivity 8\nconnectivity 4"), "bad.rpgmap"), "bad.rpgmap:4:1: ",
                      "duplicate 'connectivity' line");
    CHECK_PARSE_ERROR(parseRpgMap(inserting(3, "mobilities a\nmobilities b"), "bad.rpgmap"), "bad.rpgmap:4:1: ",
                      "duplicate 'mobilities' line");
  }
  SECTION("missing layout or size") {
    CHECK_PARSE_ERROR(parseRpgMap(without(2), "bad.rpgmap"), "bad.rpgmap:4:1: ", "expected a 'layout' line before [legend]");
    CHECK_PARSE_ERROR(parseRpgMap(without(3), "bad.rpgmap"), "bad.rpgmap:4:1: ", "expected a 'size' line before [legend]");
    CHECK_PARSE_ERROR(parseRpgMap("rpgmap 1\nlayout square\nsize 2 2\n", "bad.rpgmap"), "bad.rpgmap:4:1: ",
                      "expected '[legend]', found end of file");
  }
  SECTION("bad layout name") {
    CHECK_PARSE_ERROR(parseRpgMap(with(2, "layout hexagon"), "bad.rpgmap"), "bad.rpgmap:2:8: ",
                      "expected square, hex-pointy or hex-flat, found 'hexagon'");
    CHECK_PARSE_ERROR(parseRpgMap(with(2, "layout Square"), "bad.rpgmap"), "bad.rpgmap:2:8: ", "found 'Square'");
    CHECK_PARSE_ERROR(parseRpgMap(with(2, "layout"), "bad.rpgmap"), "bad.rpgmap:2:1: ",
                      "expected 'layout square|hex-pointy|hex-flat [odd|even]'");
    CHECK_PARSE_ERROR(parseRpgMap(with(2, "layout square hex-flat"), "bad.rpgmap"), "bad.rpgmap:2:15: ",
                      "expected 'layout square|hex-pointy|hex-flat [odd|even]'");
    CHECK_PARSE_ERROR(parseRpgMap(with(2, "layout square even"), "bad.rpgmap"), "bad.rpgmap:2:15: ",
                      "expected 'layout square|hex-pointy|hex-flat [odd|even]'");
    CHECK_PARSE_ERROR(parseRpgMap(with(2, "layout hex-flat Even"), "bad.rpgmap"), "bad.rpgmap:2:17: ",
                      "expected odd or even, found 'Even'");
    CHECK_PARSE_ERROR(parseRpgMap(with(2, "layout hex-flat even odd"), "bad.rpgmap"), "bad.rpgmap:2:22: ",
                      "expected 'layout square|hex-pointy|hex-flat [odd|even]'");
  }
  SECTION("connectivity") {
    CHECK_PARSE_ERROR(parseRpgMap(inserting(3, "connectivity 6"), "bad.rpgmap"), "bad.rpgmap:3:14: ",
                      "expected connectivity 8 or 4, found '6'");
    CHECK_PARSE_ERROR(parseRpgMap(inserting(3, "connectivity"), "bad.rpgmap"), "bad.rpgmap:3:1: ",
                      "expected 'connectivity 8|4'");
    // On hex layouts, whether it comes after the layout line or before it.
    std::string hex = with(2, "layout hex-pointy");
    CHECK_PARSE_ERROR(parseRpgMap(replaceAll(hex, "size 4 3\n", "size 4 3\nconnectivity 8\n"), "bad.rpgmap"),
                      "bad.rpgmap:4:1: ", "connectivity applies to square layouts only");
    CHECK_PARSE_ERROR(parseRpgMap(replaceAll(hex, "rpgmap 1\n", "rpgmap 1\n connectivity 4\n"), "bad.rpgmap"),
                      "bad.rpgmap:2:2: ", "connectivity applies to square layouts only");
    // A square layout after the connectivity line is fine.
    CHECK(parseRpgMap(inserting(2, "connectivity 4")).ok());
    CHECK_PARSE_ERROR(parseRpgMap(replaceAll(with(2, "layout hex-flat"), "rpgmap 1\n", "rpgmap 1\nconnectivity 8\n"),
                                  "bad.rpgmap"),
                      "bad.rpgmap:2:1: ", "square layouts only");
  }
  SECTION("size 0, absurd sizes and too many tiles") {
    CHECK_PARSE_ERROR(parseRpgMap(with(3, "size 0 3"), "bad.rpgmap"), "bad.rpgmap:3:6: ",
                      "expected width as a whole number in 1..32768, found '0'");
    CHECK_PARSE_ERROR(parseRpgMap(with(3, "size 4 0"), "bad.rpgmap"), "bad.rpgmap:3:8: ",
                      "expected height as a whole number in 1..32768, found '0'");
    CHECK_PARSE_ERROR(parseRpgMap(with(3, "size 1000000000 1000000000"), "bad.rpgmap"), "bad.rpgmap:3:6: ",
                      "width as a whole number in 1..32768, found '1000000000'");
    CHECK_PARSE_ERROR(parseRpgMap(with(3, "size 32769 3"), "bad.rpgmap"), "bad.rpgmap:3:6: ", "found '32769'");
    CHECK_PARSE_ERROR(parseRpgMap(with(3, "size 4 32769"), "bad.rpgmap"), "bad.rpgmap:3:8: ",
                      "height as a whole number in 1..32768");
    CHECK_PARSE_ERROR(parseRpgMap(with(3, "size 99999999999999999999999 3"), "bad.rpgmap"), "bad.rpgmap:3:6: ",
                      "whole number");
    CHECK_PARSE_ERROR(parseRpgMap(with(3, "size -4 3"), "bad.rpgmap"), "bad.rpgmap:3:6: ", "1..32768");
    CHECK_PARSE_ERROR(parseRpgMap(with(3, "size +-4 3"), "bad.rpgmap"), "bad.rpgmap:3:6: ", "whole number");
    CHECK_PARSE_ERROR(parseRpgMap(with(3, "size four 3"), "bad.rpgmap"), "bad.rpgmap:3:6: ", "found 'four'");
    CHECK_PARSE_ERROR(parseRpgMap(with(3, "size 4.0 3"), "bad.rpgmap"), "bad.rpgmap:3:6: ", "whole number");
    CHECK_PARSE_ERROR(parseRpgMap(with(3, "size 4"), "bad.rpgmap"), "bad.rpgmap:3:6: ", "expected 'size WIDTH HEIGHT'");
    CHECK_PARSE_ERROR(parseRpgMap(with(3, "size 4 3 1"), "bad.rpgmap"), "bad.rpgmap:3:10: ", "size WIDTH HEIGHT");
    CHECK_PARSE_ERROR(parseRpgMap(with(3, "size 32768 32768"), "bad.rpgmap"), "bad.rpgmap:3:6: ",
                      "map of 32768x32768 tiles exceeds the 2^26 tile limit");
    CHECK_PARSE_ERROR(parseRpgMap(with(3, "size 8193 8192"), "bad.rpgmap"), "bad.rpgmap:3:6: ", "2^26");
    // Exactly 2^26 tiles passes the header; here the rows are missing.
    CHECK_PARSE_ERROR(parseRpgMap(join({"rpgmap 1", "layout square", "size 32768 2048", "[legend]", ". f", "[tiles]"}),
                                  "big.rpgmap"),
                      "big.rpgmap:7:1: ", "expected 2048 tile rows, found 0");
    CHECK_PARSE_ERROR(parseRpgMap(join({"rpgmap 1", "layout square", "size 2048 32768", "[legend]", ". f", "[tiles]",
                                        std::string(2048, '.')}),
                                  "big.rpgmap"),
                      "big.rpgmap:8:1: ", "expected 32768 tile rows, found 1");
  }
  SECTION("tile size and origin") {
    CHECK_PARSE_ERROR(parseRpgMap(inserting(3, "tile-size 0"), "bad.rpgmap"), "bad.rpgmap:3:11: ",
                      "expected a positive tile size");
    CHECK_PARSE_ERROR(parseRpgMap(inserting(3, "tile-size -2"), "bad.rpgmap"), "bad.rpgmap:3:11: ", "positive tile size");
    CHECK_PARSE_ERROR(parseRpgMap(inserting(3, "tile-size nan"), "bad.rpgmap"), "bad.rpgmap:3:11: ",
                      "expected tile size as a finite number, found 'nan'");
    CHECK_PARSE_ERROR(parseRpgMap(inserting(3, "tile-size inf"), "bad.rpgmap"), "bad.rpgmap:3:11: ", "finite number");
    CHECK_PARSE_ERROR(parseRpgMap(inserting(3, "tile-size 1e39"), "bad.rpgmap"), "bad.rpgmap:3:11: ", "finite number");
    CHECK_PARSE_ERROR(parseRpgMap(inserting(3, "tile-size"), "bad.rpgmap"), "bad.rpgmap:3:1: ",
                      "expected 'tile-size SIZE'");
    CHECK_PARSE_ERROR(parseRpgMap(inserting(3, "origin 1"), "bad.rpgmap"), "bad.rpgmap:3:8: ", "expected 'origin X Y'");
    CHECK_PARSE_ERROR(parseRpgMap(inserting(3, "origin 1 -inf"), "bad.rpgmap"), "bad.rpgmap:3:10: ",
                      "expected origin y as a finite number, found '-inf'");
    CHECK_PARSE_ERROR(parseRpgMap(inserting(3, "origin abc 1"), "bad.rpgmap"), "bad.rpgmap:3:8: ", "origin x");
  }
}

TEST_CASE("rpgmap: bad legends name the file, line and column", "[io]") {
  SECTION("a symbol of two characters") {
    CHECK_PARSE_ERROR(parseRpgMap(with(7, "## wall"), "bad.rpgmap"), "bad.rpgmap:7:1: ",
                      "expected a one-character legend symbol or '[tiles]', found '##'");
    CHECK_PARSE_ERROR(parseRpgMap(with(10, "[tile]"), "bad.rpgmap"), "bad.rpgmap:10:1: ", "found '[tile]'");
    CHECK_PARSE_ERROR(parseRpgMap(without(10), "bad.rpgmap"), "bad.rpgmap:10:1: ", "one-character legend symbol");
  }
  SECTION("a symbol that is not printable ASCII") {
    CHECK_PARSE_ERROR(parseRpgMap(with(8, "\xe9 water swim=1"), "bad.rpgmap"), "bad.rpgmap:8:1: ", "printable");
  }
  SECTION("a symbol without a name") {
    CHECK_PARSE_ERROR(parseRpgMap(with(8, "~"), "bad.rpgmap"), "bad.rpgmap:8:1: ",
                      "expected 'SYMBOL NAME [mobility=cost ...]'");
    CHECK_PARSE_ERROR(parseRpgMap(with(8, "  ~   ; water"), "bad.rpgmap"), "bad.rpgmap:8:3: ", "SYMBOL NAME");
  }
  SECTION("duplicate symbol") {
    CHECK_PARSE_ERROR(parseRpgMap(with(8, "# water swim=1"), "bad.rpgmap"), "bad.rpgmap:8:1: ",
                      "duplicate terrain symbol '#'");
  }
  SECTION("duplicate or invalid terrain name") {
    CHECK_PARSE_ERROR(parseRpgMap(with(8, "~ wall swim=1"), "bad.rpgmap"), "bad.rpgmap:8:3: ", "duplicate terrain 'wall'");
    CHECK_PARSE_ERROR(parseRpgMap(with(8, "~  floor"), "bad.rpgmap"), "bad.rpgmap:8:4: ", "duplicate terrain 'floor'");
    // The column follows the token in error, whatever the name says.
    CHECK_PARSE_ERROR(parseRpgMap(join({"rpgmap 1", "layout square", "size 1 1", "[legend]", ". symbol", "# symbol",
                                        "[tiles]", "."}),
                                  "bad.rpgmap"),
                      "bad.rpgmap:6:3: ", "duplicate terrain 'symbol'");
    CHECK_PARSE_ERROR(parseRpgMap(with(8, "~ wat!er swim=1"), "bad.rpgmap"), "bad.rpgmap:8:3: ", "invalid terrain name");
    CHECK_PARSE_ERROR(parseRpgMap(with(8, "~ symbol# swim=1"), "bad.rpgmap"), "bad.rpgmap:8:3: ", "invalid terrain name");
  }
  SECTION("cost entries") {
    CHECK_PARSE_ERROR(parseRpgMap(with(8, "~ water swim=0"), "bad.rpgmap"), "bad.rpgmap:8:14: ",
                      "expected a positive cost, found '0'");
    CHECK_PARSE_ERROR(parseRpgMap(with(8, "~ water swim=-1"), "bad.rpgmap"), "bad.rpgmap:8:14: ",
                      "expected a positive cost, found '-1'");
    CHECK_PARSE_ERROR(parseRpgMap(with(8, "~ water swim=-0"), "bad.rpgmap"), "bad.rpgmap:8:14: ", "positive cost");
    for (const char* cost : {"nan", "NaN", "inf", "-inf", "infinity", "abc", "", "1,5", "+1", "1e39", "2.5x", "0x10"}) {
      INFO("cost '" << cost << "'");
      CHECK_PARSE_ERROR(parseRpgMap(with(8, std::string("~ water swim=") + cost + " fly=1"), "bad.rpgmap"),
                        "bad.rpgmap:8:14: ", "expected cost as a finite number");
    }
    CHECK_PARSE_ERROR(parseRpgMap(with(8, "~ water swim=abc"), "bad.rpgmap"), "bad.rpgmap:8:14: ", "found 'abc'");
    CHECK_PARSE_ERROR(parseRpgMap(with(8, "~ water swim"), "bad.rpgmap"), "bad.rpgmap:8:9: ",
                      "expected mobility=cost, found 'swim'");
    CHECK_PARSE_ERROR(parseRpgMap(with(8, "~ water swim=1 swim=2"), "bad.rpgmap"), "bad.rpgmap:8:16: ",
                      "cost given twice");
    CHECK_PARSE_ERROR(parseRpgMap(with(8, "~ water fly=1 swim=2 fly=3"), "bad.rpgmap"), "bad.rpgmap:8:22: ",
                      "cost given twice");
    // Odd but legal costs.
    auto tiny = parseRpgMap(with(8, "~ water swim=0.001 fly=2.5e2"));
    REQUIRE(tiny.ok());
    CHECK(tiny->map.terrain().cost(TerrainId{2}, TerrainTable::kSwim) == 0.001f);
    CHECK(tiny->map.terrain().cost(TerrainId{2}, TerrainTable::kFly) == 250.0f);
  }
  SECTION("an empty legend") {
    CHECK_PARSE_ERROR(parseRpgMap(join({"rpgmap 1", "layout square", "size 1 1", "[legend]", "; nothing", "[tiles]", "."}),
                                  "bad.rpgmap"),
                      "bad.rpgmap:6:1: ", "expected at least one legend entry");
  }
  SECTION("missing [tiles]") {
    CHECK_PARSE_ERROR(parseRpgMap(firstLines(9), "bad.rpgmap"), "bad.rpgmap:10:1: ", "expected '[tiles]', found end of file");
    CHECK_PARSE_ERROR(parseRpgMap(firstLines(8), "bad.rpgmap"), "bad.rpgmap:9:1: ", "[tiles]");
    CHECK_PARSE_ERROR(parseRpgMap(with(10, "[tiles] now"), "bad.rpgmap"), "bad.rpgmap:10:9: ", "expected '[tiles]'");
  }
}

TEST_CASE("rpgmap: bad tiles name the file, line and column", "[io]") {
  SECTION("fewer rows than the height") {
    CHECK_PARSE_ERROR(parseRpgMap(firstLines(12), "bad.rpgmap"), "bad.rpgmap:13:1: ", "expected 3 tile rows, found 2");
    CHECK_PARSE_ERROR(parseRpgMap(firstLines(10), "bad.rpgmap"), "bad.rpgmap:11:1: ", "expected 3 tile rows, found 0");
    std::string noNewline = firstLines(12);
    noNewline.pop_back();
    CHECK_PARSE_ERROR(parseRpgMap(noNewline, "bad.rpgmap"), "bad.rpgmap:13:1: ", "found 2");
  }
  SECTION("a short row") {
    CHECK_PARSE_ERROR(parseRpgMap(with(12, "#."), "bad.rpgmap"), "bad.rpgmap:12:3: ",
                      "expected a row of 4 tiles, found 2 characters");
    // Blank lines are rows inside [tiles].
    CHECK_PARSE_ERROR(parseRpgMap(inserting(11, ""), "bad.rpgmap"), "bad.rpgmap:11:1: ", "found 0 characters");
    CHECK_PARSE_ERROR(parseRpgMap(replaceAll(with(12, "#.~"), "\n", "\r\n"), "bad.rpgmap"), "bad.rpgmap:12:4: ",
                      "found 3 characters");
  }
  SECTION("a long row") {
    CHECK_PARSE_ERROR(parseRpgMap(with(12, "#.~.."), "bad.rpgmap"), "bad.rpgmap:12:5: ",
                      "expected a row of 4 tiles, found 5 characters");
    // No comments inside the tiles.
    CHECK_PARSE_ERROR(parseRpgMap(with(12, "#.~. ; water"), "bad.rpgmap"), "bad.rpgmap:12:5: ", "row of 4 tiles");
  }
  SECTION("an unknown symbol") {
    CHECK_PARSE_ERROR(parseRpgMap(with(12, "#.x."), "bad.rpgmap"), "bad.rpgmap:12:3: ",
                      "expected a legend symbol, found 'x'");
    CHECK_PARSE_ERROR(parseRpgMap(with(12, "; x."), "bad.rpgmap"), "bad.rpgmap:12:1: ", "found ';'");
    CHECK_PARSE_ERROR(parseRpgMap(with(12, "#. ."), "bad.rpgmap"), "bad.rpgmap:12:3: ", "found ' '");
    CHECK_PARSE_ERROR(parseRpgMap(with(12, "#.\t."), "bad.rpgmap"), "bad.rpgmap:12:3: ", "legend symbol");
    CHECK_PARSE_ERROR(parseRpgMap(with(13, "...\xff"), "bad.rpgmap"), "bad.rpgmap:13:4: ", "'\\xff'");
  }
  SECTION("binary bytes") {
    std::string text = join(kBase);
    text[text.find("floor") + 1] = '\0';  // line 6, column 4
    CHECK_PARSE_ERROR(parseRpgMap(text, "bad.rpgmap"), "bad.rpgmap:6:4: ",
                      "expected text, found control byte 0x00 (binary file?)");
    CHECK_PARSE_ERROR(parseRpgMap(with(12, "#.\x1b."), "bad.rpgmap"), "bad.rpgmap:12:3: ", "control byte 0x1b");
    CHECK_PARSE_ERROR(parseRpgMap(std::string("\x7f" "ELF\x02\x01\x01", 7), "bad.rpgmap"), "bad.rpgmap:1:1: ",
                      "control byte 0x7f");
    std::mt19937 random(1234);
    for (int round = 0; round < 50; ++round) {
      std::string bytes(std::size_t(std::uniform_int_distribution<int>(1, 500)(random)), '\0');
      for (char& c : bytes) c = char(std::uniform_int_distribution<int>(0, 255)(random));
      auto parsed = parseRpgMap(bytes, "bad.rpgmap");
      REQUIRE_FALSE(parsed.ok());
      CHECK(parsed.status() == Status::ParseError);
      CHECK_THAT(parsed.error().message, Catch::StartsWith("bad.rpgmap:"));
    }
  }
}

TEST_CASE("rpgmap: bad doors and entities name the file, line and column", "[io]") {
  SECTION("door between non-neighbours") {
    CHECK_PARSE_ERROR(parseRpgMap(with(16, "gate 1 0 3 0 closed"), "bad.rpgmap"), "bad.rpgmap:16:6: ",
                      "expected two tiles that share an edge for a door");
    CHECK_PARSE_ERROR(parseRpgMap(with(16, "gate 1 0 1 0 closed"), "bad.rpgmap"), "bad.rpgmap:16:6: ", "share an edge");
    CHECK_PARSE_ERROR(parseRpgMap(with(16, "gate 0 0 3 2 closed"), "bad.rpgmap"), "bad.rpgmap:16:6: ", "share an edge");
  }
  SECTION("door between diagonal square neighbours") {
    CHECK_PARSE_ERROR(parseRpgMap(with(16, "gate 1 0 2 1 closed"), "bad.rpgmap"), "bad.rpgmap:16:6: ", "share an edge");
    CHECK_PARSE_ERROR(parseRpgMap(with(16, "gate 2 1 1 0 closed"), "bad.rpgmap"), "bad.rpgmap:16:6: ", "share an edge");
    CHECK_PARSE_ERROR(parseRpgMap(with(16, "gate 1 1 0 2 open"), "bad.rpgmap"), "bad.rpgmap:16:6: ", "share an edge");
  }
  SECTION("door out of the map") {
    CHECK_PARSE_ERROR(parseRpgMap(with(16, "gate 3 0 4 0 closed"), "bad.rpgmap"), "bad.rpgmap:16:10: ",
                      "expected tile x as a whole number in 0..3, found '4'");
    CHECK_PARSE_ERROR(parseRpgMap(with(16, "gate 1 2 1 3 closed"), "bad.rpgmap"), "bad.rpgmap:16:12: ",
                      "expected tile y as a whole number in 0..2, found '3'");
    CHECK_PARSE_ERROR(parseRpgMap(with(16, "gate -1 0 0 0 closed"), "bad.rpgmap"), "bad.rpgmap:16:6: ", "tile x");
    CHECK_PARSE_ERROR(parseRpgMap(with(16, "gate 0 -1 0 0 closed"), "bad.rpgmap"), "bad.rpgmap:16:8: ", "tile y");
    CHECK_PARSE_ERROR(parseRpgMap(with(16, "gate +-0 0 1 0 closed"), "bad.rpgmap"), "bad.rpgmap:16:6: ", "whole number");
    CHECK_PARSE_ERROR(parseRpgMap(with(16, "gate 1.0 0 1 1 closed"), "bad.rpgmap"), "bad.rpgmap:16:6: ", "whole number");
    CHECK_PARSE_ERROR(parseRpgMap(with(16, "gate 1 0 1 99999999999999999999 closed"), "bad.rpgmap"), "bad.rpgmap:16:12: ",
                      "whole number");
  }
  SECTION("door bad state") {
    CHECK_PARSE_ERROR(parseRpgMap(with(16, "gate 1 0 1 1 ajar"), "bad.rpgmap"), "bad.rpgmap:16:14: ",
                      "expected open, closed or locked, found 'ajar'");
    CHECK_PARSE_ERROR(parseRpgMap(with(16, "gate 1 0 1 1 Closed key=brass"), "bad.rpgmap"), "bad.rpgmap:16:14: ",
                      "found 'Closed'");
  }
  SECTION("door field count and name") {
    CHECK_PARSE_ERROR(parseRpgMap(with(16, "gate 1 0 1 1"), "bad.rpgmap"), "bad.rpgmap:16:12: ",
                      "expected 'NAME X1 Y1 X2 Y2 open|closed|locked [key=NAME]'");
    CHECK_PARSE_ERROR(parseRpgMap(with(16, "gate 1 0 1 1 closed key=brass extra"), "bad.rpgmap"), "bad.rpgmap:16:31: ",
                      "NAME X1 Y1 X2 Y2");
    CHECK_PARSE_ERROR(parseRpgMap(with(16, "g@te 1 0 1 1 closed"), "bad.rpgmap"), "bad.rpgmap:16:1: ",
                      "expected a name of letters, digits, '_', '-' or '.', found 'g@te'");
    CHECK_PARSE_ERROR(parseRpgMap(with(16, std::string(65, 'g') + " 1 0 1 1 closed"), "bad.rpgmap"), "bad.rpgmap:16:1: ",
                      "expected a name");
  }
  SECTION("duplicate door name") {
    CHECK_PARSE_ERROR(parseRpgMap(inserting(17, "gate 2 0 2 1 open"), "bad.rpgmap"), "bad.rpgmap:17:1: ",
                      "duplicate name 'gate'");
  }
  SECTION("two doors on one edge") {
    CHECK_PARSE_ERROR(parseRpgMap(inserting(17, "gate2 1 0 1 1 open"), "bad.rpgmap"), "bad.rpgmap:17:7: ",
                      "a door already sits on this edge ('gate')");
    CHECK_PARSE_ERROR(parseRpgMap(inserting(17, "\tgate2   1 1 1 0 open"), "bad.rpgmap"), "bad.rpgmap:17:10: ",
                      "already sits on this edge");
  }
  SECTION("bad key token") {
    for (const char* key : {"key=", "kee=brass", "key=br@ss", "key=a=b", "KEY=brass", "brass", "key"}) {
      INFO(key);
      CHECK_PARSE_ERROR(parseRpgMap(with(16, std::string("gate 1 0 1 1 closed ") + key), "bad.rpgmap"),
                        "bad.rpgmap:16:21: ", "expected key=NAME");
    }
    // A key on an open door is allowed (it may be locked later).
    auto open = parseRpgMap(with(16, "gate 1 0 1 1 open key=k"));
    REQUIRE(open.ok());
    CHECK(open->doors[0].key == "k");
  }
  SECTION("entity outside the map") {
    CHECK_PARSE_ERROR(parseRpgMap(with(19, "crate 4.5 0.5 radius=0.4"), "bad.rpgmap"), "bad.rpgmap:19:7: ",
                      "entity position lies outside the map");
    CHECK_PARSE_ERROR(parseRpgMap(with(19, "crate 4 0.5 radius=0.4"), "bad.rpgmap"), "bad.rpgmap:19:7: ", "outside");
    CHECK_PARSE_ERROR(parseRpgMap(with(19, "crate 2 3 radius=0.4"), "bad.rpgmap"), "bad.rpgmap:19:7: ", "outside");
    CHECK_PARSE_ERROR(parseRpgMap(with(19, "crate -0.01 1 radius=0.4"), "bad.rpgmap"), "bad.rpgmap:19:7: ", "outside");
    CHECK_PARSE_ERROR(parseRpgMap(with(19, "crate 1e30 1 radius=0.4"), "bad.rpgmap"), "bad.rpgmap:19:7: ", "outside");
    CHECK_PARSE_ERROR(parseRpgMap(with(19, "crate nan 1 radius=0.4"), "bad.rpgmap"), "bad.rpgmap:19:7: ",
                      "expected x as a finite number, found 'nan'");
    CHECK_PARSE_ERROR(parseRpgMap(with(19, "crate 1 inf radius=0.4"), "bad.rpgmap"), "bad.rpgmap:19:9: ",
                      "expected y as a finite number");
    // The corners just inside are fine.
    CHECK(parseRpgMap(with(19, "crate 0 0 radius=0.4")).ok());
    CHECK(parseRpgMap(with(19, "crate 3.999 2.999 radius=0.4")).ok());
  }
  SECTION("entity radius") {
    CHECK_PARSE_ERROR(parseRpgMap(with(19, "crate 2.5 0.5 radius=-1"), "bad.rpgmap"), "bad.rpgmap:19:22: ",
                      "expected a radius of 0 or more");
    CHECK_PARSE_ERROR(parseRpgMap(with(19, "crate 2.5 0.5 radius=nan"), "bad.rpgmap"), "bad.rpgmap:19:22: ",
                      "expected radius as a finite number");
    CHECK_PARSE_ERROR(parseRpgMap(with(19, "crate 2.5 0.5 radius="), "bad.rpgmap"), "bad.rpgmap:19:22: ", "radius");
    CHECK_PARSE_ERROR(parseRpgMap(with(19, "crate 2.5 0.5 r=1"), "bad.rpgmap"), "bad.rpgmap:19:15: ",
                      "expected radius=R, found 'r=1'");
    CHECK_PARSE_ERROR(parseRpgMap(with(19, "crate 2.5 0.5 0.4"), "bad.rpgmap"), "bad.rpgmap:19:15: ", "radius=R");
  }
  SECTION("entity unknown flag") {
    CHECK_PARSE_ERROR(parseRpgMap(with(19, "crate 2.5 0.5 radius=0.4 solid"), "bad.rpgmap"), "bad.rpgmap:19:26: ",
                      "expected 'flat' or end of line, found 'solid'");
    CHECK_PARSE_ERROR(parseRpgMap(with(19, "crate 2.5 0.5 radius=0.4 FLAT"), "bad.rpgmap"), "bad.rpgmap:19:26: ", "flat");
  }
  SECTION("entity field count, name") {
    CHECK_PARSE_ERROR(parseRpgMap(with(19, "crate 2.5 0.5"), "bad.rpgmap"), "bad.rpgmap:19:11: ",
                      "expected 'NAME X Y radius=R [flat]'");
    CHECK_PARSE_ERROR(parseRpgMap(with(19, "crate 2.5 0.5 radius=0.4 flat flat"), "bad.rpgmap"), "bad.rpgmap:19:31: ",
                      "NAME X Y radius=R [flat]");
    CHECK_PARSE_ERROR(parseRpgMap(inserting(20, "crate 1.5 1.5 radius=0.1"), "bad.rpgmap"), "bad.rpgmap:20:1: ",
                      "duplicate name 'crate'");
    CHECK_PARSE_ERROR(parseRpgMap(with(19, "cr/ate 2.5 0.5 radius=0.4"), "bad.rpgmap"), "bad.rpgmap:19:1: ",
                      "expected a name");
  }
  SECTION("sections out of order or repeated") {
    CHECK_PARSE_ERROR(parseRpgMap(firstLines(13) + "[entities]\n[doors]\n", "bad.rpgmap"), "bad.rpgmap:15:1: ",
                      "expected sections in the order [settings], [doors], [entities], [danger NAME]..., the first three each once");
    CHECK_PARSE_ERROR(parseRpgMap(join(kBase) + "[doors]\n", "bad.rpgmap"), "bad.rpgmap:20:1: ", "each once");
    CHECK_PARSE_ERROR(parseRpgMap(join(kBase) + "[entities]\n", "bad.rpgmap"), "bad.rpgmap:20:1: ", "each once");
    CHECK_PARSE_ERROR(parseRpgMap(inserting(17, "[doors]"), "bad.rpgmap"), "bad.rpgmap:17:1: ", "each once");
    CHECK_PARSE_ERROR(parseRpgMap(with(15, "[doors] x"), "bad.rpgmap"), "bad.rpgmap:15:9: ", "expected '[doors]'");
    // Inside [entities], a stray section name is read as a malformed entity line.
    CHECK_PARSE_ERROR(parseRpgMap(join(kBase) + "[legend]\n", "bad.rpgmap"), "bad.rpgmap:20:1: ", "NAME X Y radius=R");
  }
  SECTION("text after the tiles that is not a section") {
    CHECK_PARSE_ERROR(parseRpgMap(inserting(14, "...."), "bad.rpgmap"), "bad.rpgmap:14:1: ",
                      "expected '[settings]', '[doors]', '[entities]', '[danger NAME]' or end of file after the tile rows, found '....'");
    CHECK_PARSE_ERROR(parseRpgMap(inserting(14, "  [legend]"), "bad.rpgmap"), "bad.rpgmap:14:3: ", "found '[legend]'");
    CHECK_PARSE_ERROR(parseRpgMap(firstLines(13) + "gate 1 0 1 1 closed\n", "bad.rpgmap"), "bad.rpgmap:14:1: ",
                      "found 'gate'");
    CHECK_PARSE_ERROR(parseRpgMap(firstLines(13) + "[door]\n", "bad.rpgmap"), "bad.rpgmap:14:1: ", "found '[door]'");
  }
}

TEST_CASE("rpgmap: writing rejects documents that would not parse back", "[io]") {
  const MapDocument good = parseRpgMap(join(kBase)).value();
  REQUIRE(writeRpgMap(good).ok());

  SECTION("a terrain without a usable symbol") {
    TerrainTable terrain;
    const TerrainId plain = terrain.addTerrain("plain").value();
    CHECK_INVALID_WRITE((MapDocument{TileMap::create(Layout::square(), 2, 2, terrain, plain).value(), {}, {}}), "plain");
    TerrainTable semicolon;
    const TerrainId s = semicolon.addTerrain("semi", ';').value();
    CHECK_INVALID_WRITE((MapDocument{TileMap::create(Layout::square(), 2, 2, semicolon, s).value(), {}, {}}), "semi");
  }
  SECTION("bad door names and keys") {
    MapDocument document = good;
    document.doors[0].name = "two words";
    CHECK_INVALID_WRITE(document, "door name");
    document.doors[0].name = "";
    CHECK_INVALID_WRITE(document, "door name");
    document = good;
    document.doors[0].key = "br@ss";
    CHECK_INVALID_WRITE(document, "key");
    document = good;
    document.doors.push_back({"gate", {2, 0}, {2, 1}, DoorState::Open, ""});
    CHECK_INVALID_WRITE(document, "duplicate door name 'gate'");
  }
  SECTION("doors not between neighbouring tiles, or sharing an edge") {
    MapDocument document = good;
    document.doors[0].b = {2, 1};  // diagonal
    CHECK_INVALID_WRITE(document, "neighbouring");
    document.doors[0].b = {1, 3};  // outside
    CHECK_INVALID_WRITE(document, "neighbouring");
    document.doors[0].a = {-1, 0};
    document.doors[0].b = {0, 0};
    CHECK_INVALID_WRITE(document, "neighbouring");
    document = good;
    document.doors.push_back({"gate2", {1, 1}, {1, 0}, DoorState::Open, ""});
    CHECK_INVALID_WRITE(document, "same edge");
    document = good;
    document.doors[0].state = DoorState(7);
    CHECK_INVALID_WRITE(document, "state");
  }
  SECTION("bad entities") {
    MapDocument document = good;
    document.entities[0].position = Vec2(4.0f, 0.5f);
    CHECK_INVALID_WRITE(document, "outside the map");
    document.entities[0].position = Vec2(std::numeric_limits<float>::quiet_NaN(), 0.5f);
    CHECK_INVALID_WRITE(document, "outside the map");
    document = good;
    document.entities[0].radius = -0.5f;
    CHECK_INVALID_WRITE(document, "radius");
    document.entities[0].radius = std::numeric_limits<float>::infinity();
    CHECK_INVALID_WRITE(document, "radius");
    document = good;
    document.entities[0].name = "a;b";
    CHECK_INVALID_WRITE(document, "entity name");
    document = good;
    document.entities.push_back(document.entities[0]);
    CHECK_INVALID_WRITE(document, "duplicate entity name 'crate'");
  }
}

TEST_CASE("rpgmap: every sample map parses and round-trips", "[io]") {
  std::vector<std::filesystem::path> samples;
  for (const auto& entry : std::filesystem::directory_iterator(test::sampleMapsDir())) {
    if (entry.path().extension() == ".rpgmap") samples.push_back(entry.path());
  }
  std::sort(samples.begin(), samples.end());
  REQUIRE(samples.size() >= 3);
  for (const auto& path : samples) {
    INFO(path.string());
    auto document = readRpgMap(path);
    if (!document.ok()) FAIL(document.error().message);
    CHECK(document->map.tileCount() > 0);
    auto viaDispatch = readMapFile(path);
    REQUIRE(viaDispatch.ok());
    CHECK(viaDispatch.value() == document.value());
    checkRoundTrip(document.value());
  }

  struct Known {
    const char* file;
    LayoutKind kind;
    int width, height, terrains, doors, entities;
  };
  for (const Known& known : {Known{"dungeon.rpgmap", LayoutKind::Square, 56, 42, 7, 11, 45},
                             Known{"town.rpgmap", LayoutKind::Square, 64, 50, 11, 16, 43},
                             Known{"wilderness.rpgmap", LayoutKind::HexPointy, 56, 44, 10, 1, 11}}) {
    INFO(known.file);
    auto document = readRpgMap(test::sampleMapsDir() / known.file);
    REQUIRE(document.ok());
    CHECK(document->map.layout().kind() == known.kind);
    CHECK(document->map.width() == known.width);
    CHECK(document->map.height() == known.height);
    CHECK(document->map.terrain().terrainCount() == known.terrains);
    CHECK(int(document->doors.size()) == known.doors);
    CHECK(int(document->entities.size()) == known.entities);
  }
  // The town carries the crowd-field settings the demo pictures show.
  auto town = readRpgMap(test::sampleMapsDir() / "town.rpgmap");
  REQUIRE(town.ok());
  CHECK(town->dangerFactor == 100);
  REQUIRE(town->dangerLayers.size() == 2);
  CHECK(town->dangerLayers[0].name == "pickpockets");
  CHECK(town->dangerLayers[0].values[std::size_t(18 * 64 + 30)] == 40);
  CHECK(town->dangerLayers[1].name == "wolves");
  CHECK(town->dangerLayers[1].values[std::size_t(37 * 64 + 2)] == 200);
  CHECK(town->dangerLayers[1].values[std::size_t(37 * 64 + 5)] == 0);
  auto dungeon = readRpgMap(test::sampleMapsDir() / "dungeon.rpgmap");
  REQUIRE(dungeon.ok());
  CHECK(dungeon->doors[2] == DoorSpec{"library_door", {47, 6}, {48, 6}, DoorState::Locked, "library_key"});
  CHECK(dungeon->entities[0].name == "rug_entrance");
  CHECK(dungeon->entities[0].position == Vec2(7.5f, 7.0f));
  CHECK(dungeon->entities[0].radius == 1.5f);
  CHECK(dungeon->entities[0].flat);
  const auto pit = dungeon->map.terrain().findTerrain("pit");
  REQUIRE(pit.has_value());
  CHECK(dungeon->map.terrain().terrainSymbol(*pit) == '^');
  CHECK_FALSE(dungeon->map.terrain().passable(*pit, TerrainTable::kWalk));
  CHECK(dungeon->map.terrain().cost(*pit, TerrainTable::kFly) == 1.0f);
}

TEST_CASE("rpgmap: random documents round-trip", "[io]") {
  std::mt19937 random(0x5eed);
  int withDoors = 0, withEntities = 0, hex = 0, fourWay = 0, extraMobilities = 0, withSettings = 0;
  for (int round = 0; round < 120; ++round) {
    const MapDocument document = randomDocument(random);
    INFO("round " << round);
    checkRoundTrip(document);
    withSettings += document.settings != DesignSettings{};
    withDoors += !document.doors.empty();
    withEntities += !document.entities.empty();
    hex += document.map.layout().isHex();
    fourWay += document.map.layout().connectivity() == 4;
    extraMobilities += document.map.terrain().mobilityCount() > 3;
  }
  // The generator covers every feature.
  CHECK(withDoors > 60);
  CHECK(withEntities > 60);
  CHECK(hex > 30);
  CHECK(fourWay > 10);
  CHECK(extraMobilities > 60);
  CHECK(withSettings > 60);
}

TEST_CASE("rpgmap: readMapFile chooses the format by content", "[io]") {
  TempDir dir;
  const std::string movingAi = "type octile\nheight 2\nwidth 3\nmap\n.@T\nGSW\n";
  SECTION("a Moving AI .map") {
    auto document = readMapFile(dir.write("a.map", movingAi));
    if (!document.ok()) FAIL(document.error().message);
    CHECK(document->map == parseMovingAiMap(movingAi).value());
    CHECK(document->doors.empty());
    CHECK(document->entities.empty());
  }
  SECTION("an .rpgmap") {
    auto document = readMapFile(dir.write("b.rpgmap", kHandWritten));
    if (!document.ok()) FAIL(document.error().message);
    CHECK(document.value() == parseRpgMap(kHandWritten).value());
    auto direct = readRpgMap(dir.path / "b.rpgmap");
    REQUIRE(direct.ok());
    CHECK(direct.value() == document.value());
  }
  SECTION("the content decides, not the extension") {
    auto rpg = readMapFile(dir.write("c.map", replaceAll(kHandWritten, "\n", "\r\n")));
    if (!rpg.ok()) FAIL(rpg.error().message);
    CHECK(rpg.value() == parseRpgMap(kHandWritten).value());
    auto octile = readMapFile(dir.write("d.rpgmap", movingAi));
    if (!octile.ok()) FAIL(octile.error().message);
    CHECK(octile->map == parseMovingAiMap(movingAi).value());
  }
  SECTION("errors name the path") {
    const auto badMovingAi = dir.write("bad.map", "type octile\nheight 2\nwidth 3\nmap\n...\n.#.\n");
    auto a = readMapFile(badMovingAi);
    REQUIRE_FALSE(a.ok());
    CHECK(a.status() == Status::ParseError);
    CHECK_THAT(a.error().message, Catch::StartsWith(badMovingAi.string() + ":6:2: "));
    const auto badRpg = dir.write("bad.rpgmap", with(12, "#.x."));
    auto b = readMapFile(badRpg);
    REQUIRE_FALSE(b.ok());
    CHECK(b.status() == Status::ParseError);
    CHECK_THAT(b.error().message, Catch::StartsWith(badRpg.string() + ":12:3: "));
    auto c = readRpgMap(badRpg);
    REQUIRE_FALSE(c.ok());
    CHECK(c.error().message == b.error().message);
    // Neither format.
    auto d = readMapFile(dir.write("e.txt", "hello\n"));
    REQUIRE_FALSE(d.ok());
    CHECK(d.status() == Status::ParseError);
    CHECK_THAT(d.error().message, Catch::Contains(":1:1: ") && Catch::Contains("rpgmap 1"));
    auto empty = readMapFile(dir.write("empty.map", ""));
    REQUIRE_FALSE(empty.ok());
    CHECK(empty.status() == Status::ParseError);
  }
  SECTION("missing files and directories are IoError") {
    for (const auto& path : {dir.path / "missing.rpgmap", dir.path / "missing.map", dir.path}) {
      INFO(path.string());
      auto a = readMapFile(path);
      REQUIRE_FALSE(a.ok());
      CHECK(a.status() == Status::IoError);
      CHECK_THAT(a.error().message, Catch::Contains(path.string()));
      auto b = readRpgMap(path);
      REQUIRE_FALSE(b.ok());
      CHECK(b.status() == Status::IoError);
    }
  }
}

TEST_CASE("rpgmap: a 2000 x 2000 map parses", "[io]") {
  std::mt19937 random(2000);
  const std::string symbols = ".#~,";
  std::string text = "rpgmap 1\nlayout hex-flat\nsize 2000 2000\n[legend]\n. floor walk=1\n# wall\n~ water swim=1\n"
                     ", swamp walk=3 swim=2\n[tiles]\n";
  std::string tiles;
  tiles.reserve(2000 * 2000);
  for (int i = 0; i < 2000 * 2000; ++i) tiles += symbols[std::uniform_int_distribution<std::size_t>(0, 3)(random)];
  for (int y = 0; y < 2000; ++y) {
    text.append(tiles, std::size_t(y) * 2000, 2000);
    text += '\n';
  }
  text += "[doors]\nd 1999 1998 1999 1999 locked key=k\n[entities]\ne 100.5 200.5 radius=3\n";
  auto parsed = parseRpgMap(text, "huge.rpgmap");
  if (!parsed.ok()) FAIL(parsed.error().message);
  const TileMap& map = parsed->map;
  CHECK(map.width() == 2000);
  CHECK(map.height() == 2000);
  CHECK(map.tileCount() == 4000000);
  std::size_t mismatches = 0;
  for (std::int32_t i = 0; i < map.tileCount(); ++i) {
    mismatches += map.terrain().terrainSymbol(map.tiles()[std::size_t(i)]) != tiles[std::size_t(i)];
  }
  CHECK(mismatches == 0);
  CHECK(parsed->doors.size() == 1);
  CHECK(parsed->entities.size() == 1);
  auto written = writeRpgMap(parsed.value());
  REQUIRE(written.ok());
  CHECK(written->size() > 4000000);
}

TEST_CASE("rpgmap: randomly damaged files parse or fail cleanly", "[io]") {
  std::mt19937 random(0xbad);
  const std::string base = kHandWritten;
  const std::string interesting = " \t\r\n;#.,~=[]-+0123456789e";
  int parsedCount = 0, failedCount = 0;
  for (int round = 0; round < 250; ++round) {
    std::string text = base;
    const int edits = std::uniform_int_distribution<int>(1, 4)(random);
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const std::size_t at = std::uniform_int_distribution<std::size_t>(0, text.size() - 1)(random);
      switch (std::uniform_int_distribution<int>(0, 6)(random)) {
        case 0: text[at] = char(std::uniform_int_distribution<int>(0, 255)(random)); break;
        case 1: text[at] = interesting[std::uniform_int_distribution<std::size_t>(0, interesting.size() - 1)(random)]; break;
        case 2: text.resize(at); break;
        case 3: {
          std::string insert(std::size_t(std::uniform_int_distribution<int>(1, 8)(random)), ' ');
          for (char& c : insert) c = interesting[std::uniform_int_distribution<std::size_t>(0, interesting.size() - 1)(random)];
          text.insert(at, insert);
          break;
        }
        case 4: text.erase(at, std::size_t(std::uniform_int_distribution<int>(1, 20)(random))); break;
        case 5: {  // duplicate a line
          const std::size_t start = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
          const std::size_t end = text.find('\n', at);
          const std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start + 1);
          text.insert(start, line);
          break;
        }
        default: text[at] = char(text[at] ^ (1 << std::uniform_int_distribution<int>(0, 7)(random))); break;
      }
    }
    INFO("round " << round << ":\n" << text);
    auto parsed = parseRpgMap(text, "fuzz.rpgmap");
    if (parsed.ok()) {
      ++parsedCount;
      // Whatever parses also writes and parses back to the same document.
      auto written = writeRpgMap(parsed.value());
      REQUIRE(written.ok());
      auto again = parseRpgMap(written.value());
      REQUIRE(again.ok());
      CHECK(again.value() == parsed.value());
    } else {
      ++failedCount;
      CHECK(parsed.status() == Status::ParseError);
      CHECK_THAT(parsed.error().message, Catch::StartsWith("fuzz.rpgmap:"));
      CHECK(parsed.error().message.size() > std::string("fuzz.rpgmap:1:1: ").size());
    }
  }
  CHECK(parsedCount > 10);
  CHECK(failedCount > 100);
}

// ---------------------------------------------------------------------------------------------
// Crowd-field settings: the danger factor and named danger layers.

namespace {

// kBase (4x3) with a danger factor and two layers; `extra` is appended after the last layer.
std::string withDanger(const std::string& extra = "") {
  std::vector<std::string> lines = kBase;
  lines.insert(lines.begin() + 3, "danger-factor 40   ; against distance");  // becomes line 4
  lines.push_back("");
  lines.push_back("[danger turret]");       // line 22
  lines.push_back("0 0 2 1 100  ; a block");  // line 23
  lines.push_back("1 1 250");                 // line 24: one tile, over the block
  lines.push_back("[danger fire]");         // line 25
  lines.push_back("3 2 7");                   // line 26
  std::string text = join(lines);
  return text + extra;
}

std::uint8_t dangerAt(const MapDocument& document, std::size_t layer, int x, int y) {
  return document.dangerLayers.at(layer).values.at(std::size_t(y * document.map.width() + x));
}

}  // namespace

TEST_CASE("rpgmap: danger factor and danger layers are parsed exactly", "[io][danger]") {
  auto parsed = parseRpgMap(withDanger(), "danger.rpgmap");
  if (!parsed.ok()) FAIL(parsed.error().message);
  CHECK(parsed->dangerFactor == 40);
  REQUIRE(parsed->dangerLayers.size() == 2);
  CHECK(parsed->dangerLayers[0].name == "turret");
  CHECK(parsed->dangerLayers[1].name == "fire");
  // The rectangle (0,0)-(2,1) inclusive, then tile (1,1) overridden by the later line.
  CHECK(parsed->dangerLayers[0].values == std::vector<std::uint8_t>{100, 100, 100, 0,  //
                                                                    100, 250, 100, 0,  //
                                                                    0, 0, 0, 0});
  CHECK(dangerAt(*parsed, 1, 3, 2) == 7);
  CHECK(std::count(parsed->dangerLayers[1].values.begin(), parsed->dangerLayers[1].values.end(), 0) == 11);
  SECTION("without them: factor 0 and no layers") {
    auto plain = parseRpgMap(join(kBase), "base.rpgmap");
    REQUIRE(plain.ok());
    CHECK(plain->dangerFactor == 0);
    CHECK(plain->dangerLayers.empty());
  }
  SECTION("an empty layer is a layer of zeros") {
    auto empty = parseRpgMap(join(kBase) + "[danger calm]\n", "calm.rpgmap");
    REQUIRE(empty.ok());
    REQUIRE(empty->dangerLayers.size() == 1);
    CHECK(empty->dangerLayers[0].values == std::vector<std::uint8_t>(12, 0));
  }
  SECTION("danger sections may follow the tiles directly") {
    std::vector<std::string> lines(kBase.begin(), kBase.begin() + 13);
    auto early = parseRpgMap(join(lines) + "[danger a]\n0 0 3 2 9\n", "early.rpgmap");
    REQUIRE(early.ok());
    CHECK(early->dangerLayers[0].values == std::vector<std::uint8_t>(12, 9));
  }
}

TEST_CASE("rpgmap: danger is written canonically and round-trips", "[io][danger]") {
  auto parsed = parseRpgMap(withDanger(), "danger.rpgmap");
  REQUIRE(parsed.ok());
  auto written = writeRpgMap(*parsed);
  REQUIRE(written.ok());
  // The factor in [settings] (the header line it was read from is the older place); each layer
  // as rows of equal values stacked into rectangles, top row first: (0,0)-(2,0) and the single
  // tiles of row 1 (broken by the 250).
  CHECK_THAT(written.value(), Catch::Contains("origin 0 0\n\n[legend]\n"));
  CHECK_THAT(written.value(), Catch::Contains("....\n\n[settings]\ndanger-factor 40\n\n[doors]\n"));
  CHECK_THAT(written.value(), Catch::EndsWith("crate 2.5 0.5 radius=0.4\n"
                                              "\n[danger turret]\n"
                                              "0 0 2 0 100\n"
                                              "0 1 100\n"
                                              "1 1 250\n"
                                              "2 1 100\n"
                                              "\n[danger fire]\n"
                                              "3 2 7\n"));
  checkRoundTrip(*parsed);
  SECTION("a block of rows is one rectangle") {
    MapDocument document = *parsed;
    document.dangerLayers = {{"block", std::vector<std::uint8_t>(12, 0)}};
    for (int y = 0; y < 3; ++y) {
      for (int x = 1; x < 3; ++x) document.dangerLayers[0].values[std::size_t(y * 4 + x)] = 60;
    }
    auto block = writeRpgMap(document);
    REQUIRE(block.ok());
    CHECK_THAT(block.value(), Catch::EndsWith("\n[danger block]\n1 0 2 2 60\n"));
    checkRoundTrip(document);
  }
  SECTION("factor 0 is not written; an all-zero layer is a bare section") {
    MapDocument document = *parsed;
    document.dangerFactor = 0;
    document.dangerLayers = {{"calm", std::vector<std::uint8_t>(12, 0)}};
    auto calm = writeRpgMap(document);
    REQUIRE(calm.ok());
    CHECK_THAT(calm.value(), !Catch::Contains("danger-factor"));
    CHECK_THAT(calm.value(), !Catch::Contains("[settings]"));
    CHECK_THAT(calm.value(), Catch::EndsWith("radius=0.4\n\n[danger calm]\n"));
    checkRoundTrip(document);
  }
}

TEST_CASE("rpgmap: bad danger settings name the file, line and column", "[io][danger]") {
  SECTION("factor out of range, not a number, missing or twice") {
    CHECK_PARSE_ERROR(parseRpgMap(inserting(4, "danger-factor 256"), "bad.rpgmap"), "bad.rpgmap:4:15: ",
                      "expected danger factor as a whole number in 0..255, found '256'");
    CHECK_PARSE_ERROR(parseRpgMap(inserting(4, "danger-factor -1"), "bad.rpgmap"), "bad.rpgmap:4:15: ", "0..255");
    CHECK_PARSE_ERROR(parseRpgMap(inserting(4, "danger-factor high"), "bad.rpgmap"), "bad.rpgmap:4:15: ",
                      "found 'high'");
    CHECK_PARSE_ERROR(parseRpgMap(inserting(4, "danger-factor 2.5"), "bad.rpgmap"), "bad.rpgmap:4:15: ", "whole number");
    CHECK_PARSE_ERROR(parseRpgMap(inserting(4, "danger-factor"), "bad.rpgmap"), "bad.rpgmap:4:1: ",
                      "expected 'danger-factor 0-255'");
    CHECK_PARSE_ERROR(parseRpgMap(inserting(4, "danger-factor 1 2"), "bad.rpgmap"), "bad.rpgmap:4:17: ",
                      "expected 'danger-factor 0-255'");
    CHECK_PARSE_ERROR(parseRpgMap(inserting(4, "danger-factor 1\ndanger-factor 2"), "bad.rpgmap"), "bad.rpgmap:5:1: ",
                      "duplicate 'danger-factor' line");
  }
  SECTION("a value out of range or not a number") {
    CHECK_PARSE_ERROR(parseRpgMap(withDanger("0 0 256\n"), "bad.rpgmap"), "bad.rpgmap:27:5: ",
                      "expected danger as a whole number in 0..255, found '256'");
    CHECK_PARSE_ERROR(parseRpgMap(withDanger("0 0 3 2 -4\n"), "bad.rpgmap"), "bad.rpgmap:27:9: ", "0..255");
    CHECK_PARSE_ERROR(parseRpgMap(withDanger("0 0 lots\n"), "bad.rpgmap"), "bad.rpgmap:27:5: ", "found 'lots'");
  }
  SECTION("a tile or rectangle off the map, or reversed") {
    CHECK_PARSE_ERROR(parseRpgMap(withDanger("4 0 9\n"), "bad.rpgmap"), "bad.rpgmap:27:1: ",
                      "expected tile x as a whole number in 0..3, found '4'");
    CHECK_PARSE_ERROR(parseRpgMap(withDanger("0 0 3 3 9\n"), "bad.rpgmap"), "bad.rpgmap:27:7: ",
                      "expected tile y as a whole number in 0..2, found '3'");
    CHECK_PARSE_ERROR(parseRpgMap(withDanger("2 0 1 1 9\n"), "bad.rpgmap"), "bad.rpgmap:27:5: ",
                      "expected X0 <= X1 and Y0 <= Y1");
    CHECK_PARSE_ERROR(parseRpgMap(withDanger("0 2 1 1 9\n"), "bad.rpgmap"), "bad.rpgmap:27:7: ", "X0 <= X1 and Y0 <= Y1");
  }
  SECTION("a line of the wrong length") {
    CHECK_PARSE_ERROR(parseRpgMap(withDanger("0 0\n"), "bad.rpgmap"), "bad.rpgmap:27:3: ",
                      "expected 'X Y VALUE' or 'X0 Y0 X1 Y1 VALUE'");
    CHECK_PARSE_ERROR(parseRpgMap(withDanger("0 0 1 1\n"), "bad.rpgmap"), "bad.rpgmap:27:7: ", "X0 Y0 X1 Y1 VALUE");
    CHECK_PARSE_ERROR(parseRpgMap(withDanger("0 0 1 1 2 3\n"), "bad.rpgmap"), "bad.rpgmap:27:11: ", "X0 Y0 X1 Y1 VALUE");
  }
  SECTION("a duplicate, missing or bad layer name") {
    CHECK_PARSE_ERROR(parseRpgMap(withDanger("[danger turret]\n"), "bad.rpgmap"), "bad.rpgmap:27:9: ",
                      "duplicate name 'turret'");
    CHECK_PARSE_ERROR(parseRpgMap(withDanger("[danger]\n"), "bad.rpgmap"), "bad.rpgmap:27:1: ", "expected '[danger NAME]'");
    CHECK_PARSE_ERROR(parseRpgMap(withDanger("[danger a b]\n"), "bad.rpgmap"), "bad.rpgmap:27:1: ", "expected '[danger NAME]'");
    CHECK_PARSE_ERROR(parseRpgMap(withDanger("[danger a\n"), "bad.rpgmap"), "bad.rpgmap:27:9: ", "expected '[danger NAME]'");
    CHECK_PARSE_ERROR(parseRpgMap(withDanger("[danger a/b]\n"), "bad.rpgmap"), "bad.rpgmap:27:9: ",
                      "expected a name of letters, digits, '_', '-' or '.', found 'a/b'");
  }
  SECTION("more than 8 layers") {
    std::string extra;
    for (int i = 0; i < 7; ++i) extra += "[danger extra" + std::to_string(i) + "]\n";  // 2 + 7 = 9 layers
    CHECK_PARSE_ERROR(parseRpgMap(withDanger(extra), "bad.rpgmap"), "bad.rpgmap:33:1: ", "expected at most 8 danger layers");
    std::string eight;
    for (int i = 0; i < 6; ++i) eight += "[danger extra" + std::to_string(i) + "]\n";
    CHECK(parseRpgMap(withDanger(eight), "eight.rpgmap").ok());
  }
  SECTION("doors or entities after a danger layer") {
    CHECK_PARSE_ERROR(parseRpgMap(withDanger("[doors]\n"), "bad.rpgmap"), "bad.rpgmap:27:1: ",
                      "expected sections in the order [settings], [doors], [entities], [danger NAME]");
  }
}

TEST_CASE("rpgmap: danger layers the parser would reject are not written", "[io][danger]") {
  auto parsed = parseRpgMap(withDanger(), "danger.rpgmap");
  REQUIRE(parsed.ok());
  MapDocument document = *parsed;
  SECTION("the wrong number of values") {
    document.dangerLayers[1].values.pop_back();
    CHECK_INVALID_WRITE(document, "danger layer 'fire' has 11 values for 12 tiles");
  }
  SECTION("an invalid or duplicate name") {
    document.dangerLayers[1].name = "on fire";
    CHECK_INVALID_WRITE(document, "invalid danger layer name 'on fire'");
    document.dangerLayers[1].name = "turret";
    CHECK_INVALID_WRITE(document, "duplicate danger layer name 'turret'");
  }
  SECTION("more than 8 layers") {
    for (int i = 0; i < 7; ++i) document.dangerLayers.push_back({"extra" + std::to_string(i), std::vector<std::uint8_t>(12, 0)});
    CHECK_INVALID_WRITE(document, "9 danger layers, at most 8 allowed");
  }
}

// ---------------------------------------------------------------------------------------------
// Designer settings: `[settings]` between the tiles and the doors.

TEST_CASE("rpgmap: designer settings are parsed exactly and written canonically", "[io][settings]") {
  // Out of the writer's order, with comments, the ends of the limits and the danger factor.
  const std::string text = inserting(15, "[settings]            ; what the designer tunes\n"
                                         "stickiness 1\n"
                                         "replan-interval 60\n"
                                         "danger-factor 12\n"
                                         "door-cost-locked 0\n"
                                         "door-cost-closed 2.5 ; a stiff door\n"
                                         "door-cost-open 1000\n"
                                         "detour-margin 2\n"
                                         "smoothing 0.125\n"
                                         "comfort 0\n");
  auto parsed = parseRpgMap(text, "settings.rpgmap");
  if (!parsed.ok()) FAIL(parsed.error().message);
  const DesignSettings expected{0.0f, 0.125f, 2.0f, 1000.0f, 2.5f, 0.0f, 60.0f, 1.0f};
  CHECK(parsed->settings == expected);
  CHECK(parsed->dangerFactor == 12);
  CHECK(parsed->doors.size() == 1);
  auto written = writeRpgMap(*parsed);
  REQUIRE(written.ok());
  CHECK_THAT(*written, Catch::Contains("....\n\n[settings]\ncomfort 0\nsmoothing 0.125\ndetour-margin 2\n"
                                       "door-cost-open 1000\ndoor-cost-closed 2.5\ndoor-cost-locked 0\n"
                                       "replan-interval 60\nstickiness 1\ndanger-factor 12\n\n[doors]\n"));
  checkRoundTrip(*parsed);
  SECTION("each setting alone round-trips, and nothing else is set") {
    for (const DesignSettingKey& setting : designSettingKeys()) {
      INFO(setting.key);
      auto alone = parseRpgMap(inserting(15, "[settings]\n" + std::string(setting.key) + " 0.75\n"), "alone.rpgmap");
      REQUIRE(alone.ok());
      DesignSettings only;
      only.*setting.member = 0.75f;
      CHECK(alone->settings == only);
      auto text = writeRpgMap(*alone);
      REQUIRE(text.ok());
      CHECK_THAT(*text, Catch::Contains("[settings]\n" + std::string(setting.key) + " 0.75\n\n[doors]"));
      checkRoundTrip(*alone);
    }
  }
  SECTION("an empty section sets nothing and is not written") {
    auto empty = parseRpgMap(inserting(15, "[settings]\n"), "empty.rpgmap");
    REQUIRE(empty.ok());
    CHECK(empty->settings == DesignSettings{});
    CHECK_THAT(*writeRpgMap(*empty), !Catch::Contains("[settings]"));
  }
  SECTION("the settings may be the only section") {
    auto only = parseRpgMap(firstLines(13) + "[settings]\ncomfort 0.5\n", "only.rpgmap");
    REQUIRE(only.ok());
    CHECK(only->settings.comfort == 0.5f);
  }
  SECTION("the danger factor of the header, the older place, is written in [settings]") {
    auto old = parseRpgMap(inserting(4, "danger-factor 7"), "old.rpgmap");
    REQUIRE(old.ok());
    CHECK(old->dangerFactor == 7);
    CHECK_THAT(*writeRpgMap(*old), Catch::Contains("[settings]\ndanger-factor 7\n"));
  }
}

TEST_CASE("rpgmap: bad designer settings name the file, line and column", "[io][settings]") {
  auto settings = [](const std::string& lines) { return inserting(15, "[settings]\n" + lines); };
  SECTION("values outside their limits, or not numbers") {
    struct Bad {
      const char* lines;
      const char* where;
      const char* message;
    };
    for (const Bad& bad : {
             Bad{"comfort 8.5\n", "16:9", "expected comfort as a number of tiles from 0 to 8, found '8.5'"},
             Bad{"smoothing -0.1\n", "16:11", "expected smoothing as a number of tiles from 0 to 8, found '-0.1'"},
             Bad{"comfort 0\ndetour-margin 3\n", "17:15", "expected detour-margin as a number of tiles from 0 to 2, found '3'"},
             Bad{"door-cost-open nan\n", "16:16", "expected door-cost-open as a number of tile steps from 0 to 1000, found 'nan'"},
             Bad{"door-cost-closed inf\n", "16:18", "found 'inf'"},
             Bad{"door-cost-locked 1000.5\n", "16:18", "from 0 to 1000"},
             Bad{"replan-interval 0\n", "16:17", "expected replan-interval as a number of seconds over 0 up to 60, found '0'"},
             Bad{"replan-interval 61\n", "16:17", "over 0 up to 60"},
             Bad{"stickiness 1.5\n", "16:12", "expected stickiness as a fraction from 0 to 1, found '1.5'"},
             Bad{"stickiness half\n", "16:12", "found 'half'"},
             Bad{"danger-factor 300\n", "16:15", "expected danger factor as a whole number in 0..255, found '300'"},
         }) {
      INFO(bad.lines);
      CHECK_PARSE_ERROR(parseRpgMap(settings(bad.lines), "bad.rpgmap"), "bad.rpgmap:" + std::string(bad.where) + ": ",
                        bad.message);
    }
  }
  SECTION("a value missing, two values, a setting twice, an unknown setting") {
    CHECK_PARSE_ERROR(parseRpgMap(settings("comfort\n"), "bad.rpgmap"), "bad.rpgmap:16:1: ", "expected 'comfort VALUE'");
    CHECK_PARSE_ERROR(parseRpgMap(settings("comfort 1 2\n"), "bad.rpgmap"), "bad.rpgmap:16:11: ", "expected 'comfort VALUE'");
    CHECK_PARSE_ERROR(parseRpgMap(settings("comfort 1\ncomfort 1\n"), "bad.rpgmap"), "bad.rpgmap:17:1: ",
                      "duplicate 'comfort' line");
    CHECK_PARSE_ERROR(parseRpgMap(settings("danger-factor 1\ndanger-factor 1\n"), "bad.rpgmap"), "bad.rpgmap:17:1: ",
                      "duplicate 'danger-factor' line");
    CHECK_PARSE_ERROR(parseRpgMap(settings("speed 2\n"), "bad.rpgmap"), "bad.rpgmap:16:1: ",
                      "expected one of comfort, smoothing, detour-margin, door-cost-open, door-cost-closed, "
                      "door-cost-locked, replan-interval, stickiness, danger-factor or a section, found 'speed'");
  }
  SECTION("the danger factor both in the header and in [settings]") {
    std::vector<std::string> lines = kBase;
    lines.insert(lines.begin() + 3, "danger-factor 5");
    lines.insert(lines.begin() + 15, "[settings]\ndanger-factor 6");
    CHECK_PARSE_ERROR(parseRpgMap(join(lines), "bad.rpgmap"), "bad.rpgmap:17:1: ", "duplicate 'danger-factor' line");
  }
  SECTION("[settings] after the doors, or twice") {
    CHECK_PARSE_ERROR(parseRpgMap(inserting(17, "[settings]"), "bad.rpgmap"), "bad.rpgmap:17:1: ",
                      "expected sections in the order [settings], [doors], [entities], [danger NAME]..., the first three each once");
    CHECK_PARSE_ERROR(parseRpgMap(settings("[settings]\n"), "bad.rpgmap"), "bad.rpgmap:16:1: ", "the first three each once");
    CHECK_PARSE_ERROR(parseRpgMap(settings("[settings] now\n"), "bad.rpgmap"), "bad.rpgmap:16:12: ", "expected '[settings]'");
  }
}

TEST_CASE("rpgmap: settings the parser would reject are not written", "[io][settings]") {
  auto parsed = parseRpgMap(join(kBase), "base.rpgmap");
  REQUIRE(parsed.ok());
  for (const DesignSettingKey& setting : designSettingKeys()) {
    INFO(setting.key);
    for (const float bad : {setting.high * 2.0f + 1.0f, -1.0f, std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::infinity()}) {
      MapDocument document = *parsed;
      document.settings.*setting.member = bad;
      CHECK_INVALID_WRITE(document, "setting " + std::string(setting.key) + ": expected " + designSettingLimits(setting));
    }
  }
  MapDocument zero = *parsed;
  zero.settings.replanInterval = 0.0f;  // its limit excludes 0
  CHECK_INVALID_WRITE(zero, "setting replan-interval: expected a number of seconds over 0 up to 60, found 0");
}
