// SPDX-License-Identifier: MIT
// Moving AI benchmark files: .map maps and .map.scen scenario lists.
#include <catch2/catch.hpp>

#include "rpgnav/io/moving_ai.hpp"
#include "support/test_maps.hpp"
#include "support/text_files.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

using namespace rpgnav;
using test::replaceAll;
using test::symbolAt;
using test::TempDir;

namespace {

std::string readBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The benchmark rule and our additions, per symbol: walk, swim, fly.
struct Expected {
  char symbol;
  bool walk, swim, fly;
};
constexpr Expected kRules[] = {
    {'.', true, false, true},  {'G', true, false, true},   {'S', true, false, true},   {'T', false, false, true},
    {'W', false, true, true},  {'@', false, false, false}, {'O', false, false, false},
};

const std::string kSmallMap =
    "type octile\n"
    "height 3\n"
    "width 4\n"
    "map\n"
    ".G@O\n"
    "STW.\n"
    "..@.\n";

}  // namespace

TEST_CASE("Moving AI: a small map is parsed exactly", "[io]") {
  auto parsed = parseMovingAiMap(kSmallMap, "small.map");
  REQUIRE(parsed.ok());
  const TileMap& map = parsed.value();
  CHECK(map.width() == 4);
  CHECK(map.height() == 3);
  CHECK(map.tileCount() == 12);
  CHECK(map.layout().kind() == LayoutKind::Square);
  CHECK(map.layout().connectivity() == 8);
  CHECK(map.layout().tileSize() == 1.0f);
  CHECK(map.layout().origin() == Vec2(0.0f, 0.0f));
  CHECK(map.terrain().mobilityCount() == 3);
  CHECK(map.terrain().terrainCount() == 7);

  const char* rows[] = {".G@O", "STW.", "..@."};
  for (std::int32_t y = 0; y < 3; ++y) {
    for (std::int32_t x = 0; x < 4; ++x) {
      INFO("cell " << x << "," << y);
      CHECK(symbolAt(map, {x, y}) == rows[y][x]);
    }
  }
  // Every symbol has its own terrain; passability follows the benchmark rule, all costs 1.
  for (const Expected& rule : kRules) {
    INFO("symbol " << rule.symbol);
    const auto terrain = map.terrain().findTerrainBySymbol(rule.symbol);
    REQUIRE(terrain.has_value());
    CHECK(map.terrain().passable(*terrain, TerrainTable::kWalk) == rule.walk);
    CHECK(map.terrain().passable(*terrain, TerrainTable::kSwim) == rule.swim);
    CHECK(map.terrain().passable(*terrain, TerrainTable::kFly) == rule.fly);
    if (rule.walk) CHECK(map.terrain().cost(*terrain, TerrainTable::kWalk) == 1.0f);
    if (rule.swim) CHECK(map.terrain().cost(*terrain, TerrainTable::kSwim) == 1.0f);
    if (rule.fly) CHECK(map.terrain().cost(*terrain, TerrainTable::kFly) == 1.0f);
  }
  // Tile by tile through the map's own queries.
  CHECK(map.passable({0, 0}, TerrainTable::kWalk));   // .
  CHECK(map.passable({1, 0}, TerrainTable::kWalk));   // G
  CHECK_FALSE(map.passable({2, 0}, TerrainTable::kWalk));  // @
  CHECK_FALSE(map.passable({2, 0}, TerrainTable::kFly));
  CHECK_FALSE(map.passable({3, 0}, TerrainTable::kFly));   // O
  CHECK(map.passable({0, 1}, TerrainTable::kWalk));   // S
  CHECK_FALSE(map.passable({1, 1}, TerrainTable::kWalk));  // T
  CHECK(map.passable({1, 1}, TerrainTable::kFly));
  CHECK_FALSE(map.passable({1, 1}, TerrainTable::kSwim));
  CHECK_FALSE(map.passable({2, 1}, TerrainTable::kWalk));  // W
  CHECK(map.passable({2, 1}, TerrainTable::kSwim));
  CHECK(map.passable({2, 1}, TerrainTable::kFly));
  CHECK(map.cost({0, 0}, TerrainTable::kWalk) == 1.0f);
}

TEST_CASE("Moving AI: one-tile map and the largest side", "[io]") {
  auto one = parseMovingAiMap("type octile\nheight 1\nwidth 1\nmap\nG\n");
  REQUIRE(one.ok());
  CHECK(one->width() == 1);
  CHECK(one->height() == 1);
  CHECK(symbolAt(*one, {0, 0}) == 'G');

  // A 1 x 32768 strip is legal.
  std::string strip = "type octile\nheight 1\nwidth 32768\nmap\n" + std::string(32768, '.') + "\n";
  auto wide = parseMovingAiMap(strip);
  REQUIRE(wide.ok());
  CHECK(wide->width() == 32768);
  CHECK(wide->height() == 1);
}

TEST_CASE("Moving AI: line endings, final newline and blanks", "[io]") {
  const TileMap expected = parseMovingAiMap(kSmallMap).value();

  SECTION("CRLF") {
    auto parsed = parseMovingAiMap(replaceAll(kSmallMap, "\n", "\r\n"));
    REQUIRE(parsed.ok());
    CHECK(parsed.value() == expected);
  }
  SECTION("missing final newline") {
    auto parsed = parseMovingAiMap(kSmallMap.substr(0, kSmallMap.size() - 1));
    REQUIRE(parsed.ok());
    CHECK(parsed.value() == expected);
  }
  SECTION("CRLF and missing final newline") {
    std::string text = replaceAll(kSmallMap, "\n", "\r\n");
    text.resize(text.size() - 2);
    auto parsed = parseMovingAiMap(text);
    REQUIRE(parsed.ok());
    CHECK(parsed.value() == expected);
  }
  SECTION("trailing blank and whitespace-only lines are ignored") {
    auto parsed = parseMovingAiMap(kSmallMap + "\n  \n\t\r\n\n");
    REQUIRE(parsed.ok());
    CHECK(parsed.value() == expected);
  }
  SECTION("header words separated by tabs or several spaces") {
    auto parsed = parseMovingAiMap("type\toctile\nheight   3\nwidth\t4 \nmap \n.G@O\nSTW.\n..@.\n");
    REQUIRE(parsed.ok());
    CHECK(parsed.value() == expected);
  }
  SECTION("a leading '+' on a dimension is a whole number") {
    auto parsed = parseMovingAiMap(replaceAll(kSmallMap, "height 3", "height +3"));
    REQUIRE(parsed.ok());
    CHECK(parsed.value() == expected);
  }
}

TEST_CASE("Moving AI: write gives the canonical text and round-trips", "[io]") {
  auto parsed = parseMovingAiMap(replaceAll(kSmallMap, "\n", "\r\n"));
  REQUIRE(parsed.ok());
  auto written = writeMovingAiMap(parsed.value());
  REQUIRE(written.ok());
  CHECK(written.value() == kSmallMap);  // LF, final newline
  auto again = parseMovingAiMap(written.value());
  REQUIRE(again.ok());
  CHECK(again.value() == parsed.value());

  SECTION("random maps of every symbol") {
    std::mt19937 random(20240611);
    const std::string symbols = ".GS@OTW";
    for (int round = 0; round < 60; ++round) {
      const int width = std::uniform_int_distribution<int>(1, 50)(random);
      const int height = std::uniform_int_distribution<int>(1, 50)(random);
      std::string text = "type octile\nheight " + std::to_string(height) + "\nwidth " + std::to_string(width) + "\nmap\n";
      for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) text += symbols[std::uniform_int_distribution<std::size_t>(0, 6)(random)];
        text += '\n';
      }
      INFO("round " << round << ": " << width << "x" << height);
      auto map = parseMovingAiMap(text);
      REQUIRE(map.ok());
      CHECK(map->width() == width);
      CHECK(map->height() == height);
      auto out = writeMovingAiMap(map.value());
      REQUIRE(out.ok());
      CHECK(out.value() == text);
      auto back = parseMovingAiMap(out.value());
      REQUIRE(back.ok());
      CHECK(back.value() == map.value());
    }
  }
}

TEST_CASE("Moving AI: write rejects maps it cannot represent", "[io]") {
  SECTION("hex layouts") {
    std::mt19937 random(7);
    for (const Layout& layout : {Layout::hexPointy(), Layout::hexFlat()}) {
      auto written = writeMovingAiMap(test::randomMap(random, layout, 5, 4, 0.3));
      REQUIRE_FALSE(written.ok());
      CHECK(written.status() == Status::InvalidArgument);
      CHECK_THAT(written.error().message, Catch::Contains("hex"));
    }
  }
  SECTION("a terrain without a symbol") {
    TerrainTable terrain;
    const TerrainId plain = terrain.addTerrain("plain").value();
    auto map = TileMap::create(Layout::square(), 3, 2, terrain, plain);
    REQUIRE(map.ok());
    auto written = writeMovingAiMap(map.value());
    REQUIRE_FALSE(written.ok());
    CHECK(written.status() == Status::InvalidArgument);
    CHECK_THAT(written.error().message, Catch::Contains("plain") && Catch::Contains("symbol"));
  }
}

TEST_CASE("Moving AI: bad maps name the file, line and column", "[io]") {
  SECTION("empty file") {
    CHECK_PARSE_ERROR(parseMovingAiMap("", "bad.map"), "bad.map:1:1: ", "expected 'type octile'");
    CHECK_PARSE_ERROR(parseMovingAiMap("", "bad.map"), "bad.map:1:1: ", "empty");
  }
  SECTION("blank first line") {
    CHECK_PARSE_ERROR(parseMovingAiMap("\ntype octile\n", "bad.map"), "bad.map:1:1: ", "type octile");
  }
  SECTION("wrong type") {
    CHECK_PARSE_ERROR(parseMovingAiMap("type grid\nheight 1\nwidth 1\nmap\n.\n", "bad.map"), "bad.map:1:1: ",
                      "expected 'type octile', found 'type grid'");
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile extra\nheight 1\nwidth 1\nmap\n.\n", "bad.map"), "bad.map:1:1: ",
                      "type octile");
    CHECK_PARSE_ERROR(parseMovingAiMap("rpgmap 1\n", "bad.map"), "bad.map:1:1: ", "type octile");
  }
  SECTION("missing height") {
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\n", "bad.map"), "bad.map:2:1: ", "expected 'height N'");
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile", "bad.map"), "bad.map:2:1: ", "end of file");
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nwidth 3\nheight 3\nmap\n", "bad.map"), "bad.map:2:1: ",
                      "expected 'height N', found 'width 3'");
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\n\nheight 3\n", "bad.map"), "bad.map:2:1: ", "height");
  }
  SECTION("height without a value") {
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight\nwidth 3\nmap\n", "bad.map"), "bad.map:2:7: ",
                      "expected one whole number after 'height'");
  }
  SECTION("negative height") {
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight -3\nwidth 3\nmap\n", "bad.map"), "bad.map:2:8: ",
                      "1..32768");
  }
  SECTION("zero width") {
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight 3\nwidth 0\nmap\n", "bad.map"), "bad.map:3:7: ",
                      "width 0 is outside 1..32768");
  }
  SECTION("non-numeric height") {
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight abc\nwidth 3\nmap\n", "bad.map"), "bad.map:2:8: ",
                      "whole number");
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight 3.0\nwidth 3\nmap\n", "bad.map"), "bad.map:2:8: ",
                      "whole number");
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight 0x10\nwidth 3\nmap\n", "bad.map"), "bad.map:2:8: ",
                      "whole number");
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight +\nwidth 3\nmap\n", "bad.map"), "bad.map:2:8: ",
                      "whole number");
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight +-3\nwidth 3\nmap\n", "bad.map"), "bad.map:2:8: ",
                      "whole number");
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight 3 4\nwidth 3\nmap\n", "bad.map"), "bad.map:2:",
                      "one whole number");
  }
  SECTION("absurd dimensions") {
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight 1000000000\nwidth 3\nmap\n", "bad.map"), "bad.map:2:8: ",
                      "height 1000000000 is outside 1..32768");
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight 3\nwidth 1000000000\nmap\n", "bad.map"), "bad.map:3:7: ",
                      "outside 1..32768");
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight 32769\nwidth 3\nmap\n", "bad.map"), "bad.map:2:8: ",
                      "outside 1..32768");
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight 99999999999999999999999\nwidth 3\nmap\n", "bad.map"),
                      "bad.map:2:8: ", "whole number");
    // Both sides legal, but 2^30 tiles.
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight 32768\nwidth 32768\nmap\n", "bad.map"), "bad.map:3:",
                      "2^26");
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight 8193\nwidth 8192\nmap\n", "bad.map"), "bad.map:3:",
                      "2^26");
    // Exactly 2^26 tiles is allowed: the complaint is then about the missing rows.
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight 2048\nwidth 32768\nmap\n", "bad.map"), "bad.map:5:1: ",
                      "expected 2048 tile rows, found 0");
  }
  SECTION("missing width") {
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight 3\nmap\n...\n", "bad.map"), "bad.map:3:1: ",
                      "expected 'width N'");
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight 3\n", "bad.map"), "bad.map:3:1: ", "width");
  }
  SECTION("missing 'map' line") {
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight 1\nwidth 3\n...\n", "bad.map"), "bad.map:4:1: ",
                      "expected 'map'");
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight 1\nwidth 3\nmaps\n...\n", "bad.map"), "bad.map:4:1: ",
                      "'map'");
    // At the end of the file, the missing line is the one after "width".
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight 1\nwidth 3\n", "bad.map"), "bad.map:4:1: ", "'map'");
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight 1\nwidth 3", "bad.map"), "bad.map:4:1: ", "'map'");
  }
  SECTION("fewer rows than the height") {
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight 3\nwidth 4\nmap\n....\n....\n", "bad.map"),
                      "bad.map:7:1: ", "expected 3 tile rows, found 2");
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight 3\nwidth 4\nmap\n....\n....", "bad.map"), "bad.map:7:1: ",
                      "expected 3 tile rows, found 2");
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight 3\nwidth 4\nmap\n", "bad.map"), "bad.map:5:1: ",
                      "found 0");
  }
  SECTION("a short row") {
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight 3\nwidth 4\nmap\n....\n..\n....\n", "bad.map"),
                      "bad.map:6:3: ", "expected a row of 4 tiles, found 2 characters");
    // An empty row in the middle counts as a short row, not a blank line.
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight 3\nwidth 4\nmap\n....\n\n....\n....\n", "bad.map"),
                      "bad.map:6:1: ", "found 0 characters");
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\r\nheight 2\r\nwidth 4\r\nmap\r\n...\r\n....\r\n", "bad.map"),
                      "bad.map:5:4: ", "row of 4 tiles, found 3");
  }
  SECTION("a long row") {
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight 3\nwidth 4\nmap\n....\n......\n....\n", "bad.map"),
                      "bad.map:6:5: ", "expected a row of 4 tiles, found 6 characters");
    // Trailing blanks are characters of the row.
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight 1\nwidth 4\nmap\n.... \n", "bad.map"), "bad.map:5:5: ",
                      "found 5 characters");
  }
  SECTION("extra rows after the map") {
    CHECK_PARSE_ERROR(parseMovingAiMap(kSmallMap + "....\n", "bad.map"), "bad.map:8:1: ",
                      "expected end of file after 3 rows, found '....'");
    CHECK_PARSE_ERROR(parseMovingAiMap(kSmallMap + "\n\n  x\n", "bad.map"), "bad.map:10:1: ", "end of file");
  }
  SECTION("an unknown symbol") {
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight 2\nwidth 4\nmap\n....\n..#.\n", "bad.map"),
                      "bad.map:6:3: ", "expected a tile symbol");
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight 2\nwidth 4\nmap\n....\n..#.\n", "bad.map"),
                      "bad.map:6:3: ", "'#'");
    // Symbols are case-sensitive; a space is not a tile.
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight 1\nwidth 3\nmap\ng..\n", "bad.map"), "bad.map:5:1: ",
                      "'g'");
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight 1\nwidth 3\nmap\n. .\n", "bad.map"), "bad.map:5:2: ",
                      "tile symbol");
    // A high byte is quoted as an escape.
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight 1\nwidth 3\nmap\n..\xe9\n", "bad.map"), "bad.map:5:3: ",
                      "\\xe9");
    // A stray carriage return inside a row is not a tile either.
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\nheight 1\nwidth 3\nmap\n.\r.\n", "bad.map"), "bad.map:5:2: ",
                      "tile symbol");
  }
  SECTION("binary data") {
    std::string nul = kSmallMap;
    nul[kSmallMap.find("STW.") + 1] = '\0';  // line 6, column 2
    CHECK_PARSE_ERROR(parseMovingAiMap(nul, "bad.map"), "bad.map:6:2: ", "control byte 0x00");
    CHECK_PARSE_ERROR(parseMovingAiMap(std::string("\0\0\0\0", 4), "bad.map"), "bad.map:1:1: ", "expected text");
    CHECK_PARSE_ERROR(parseMovingAiMap("type octile\x7f\n", "bad.map"), "bad.map:1:12: ", "0x7f");

    std::mt19937 random(99);
    for (int round = 0; round < 50; ++round) {
      std::string bytes(std::size_t(std::uniform_int_distribution<int>(1, 400)(random)), '\0');
      for (char& c : bytes) c = char(std::uniform_int_distribution<int>(0, 255)(random));
      auto parsed = parseMovingAiMap(bytes, "bad.map");
      REQUIRE_FALSE(parsed.ok());
      CHECK(parsed.status() == Status::ParseError);
      CHECK_THAT(parsed.error().message, Catch::StartsWith("bad.map:"));
    }
  }
  SECTION("the default file name") {
    CHECK_PARSE_ERROR(parseMovingAiMap(""), "<text>:1:1: ", "type octile");
  }
}

TEST_CASE("Moving AI: reading files", "[io]") {
  TempDir dir;
  SECTION("a good file") {
    const auto path = dir.write("small.map", replaceAll(kSmallMap, "\n", "\r\n"));
    auto map = readMovingAiMap(path);
    REQUIRE(map.ok());
    CHECK(map.value() == parseMovingAiMap(kSmallMap).value());
  }
  SECTION("errors name the path") {
    const auto path = dir.write("bad.map", "type octile\nheight 2\nwidth 2\nmap\n..\n.x\n");
    auto map = readMovingAiMap(path);
    REQUIRE_FALSE(map.ok());
    CHECK(map.status() == Status::ParseError);
    CHECK_THAT(map.error().message, Catch::StartsWith(path.string() + ":6:2: "));
  }
  SECTION("a missing file") {
    auto map = readMovingAiMap(dir.path / "nope.map");
    REQUIRE_FALSE(map.ok());
    CHECK(map.status() == Status::IoError);
    CHECK_THAT(map.error().message, Catch::Contains("nope.map"));
    auto scenario = readScenario(dir.path / "nope.map.scen");
    REQUIRE_FALSE(scenario.ok());
    CHECK(scenario.status() == Status::IoError);
    CHECK_THAT(scenario.error().message, Catch::Contains("nope.map.scen"));
  }
  SECTION("a directory") {
    auto map = readMovingAiMap(dir.path);
    REQUIRE_FALSE(map.ok());
    CHECK(map.status() == Status::IoError);
    CHECK_THAT(map.error().message, Catch::Contains("directory"));
    auto scenario = readScenario(dir.path);
    REQUIRE_FALSE(scenario.ok());
    CHECK(scenario.status() == Status::IoError);
  }
  SECTION("a scenario file") {
    const auto path = dir.write("x.map.scen", "version 1\n0\tx.map\t2\t2\t0\t0\t1\t1\t1.41421356\n");
    auto scenario = readScenario(path);
    REQUIRE(scenario.ok());
    REQUIRE(scenario->size() == 1);
    CHECK(scenario->front().decimals == 8);
    const auto bad = dir.write("bad.map.scen", "version 1\n0\tx.map\t2\t2\t0\t0\t1\t1\tnan\n");
    auto failed = readScenario(bad);
    REQUIRE_FALSE(failed.ok());
    CHECK(failed.status() == Status::ParseError);
    CHECK_THAT(failed.error().message, Catch::StartsWith(bad.string() + ":2:"));
  }
}

TEST_CASE("Moving AI: scenario generation A (version 1, TABs, 6 significant digits)", "[io]") {
  const std::string text =
      "version 1\n"
      "0\tmaps/dao/arena.map\t49\t49\t1\t11\t1\t12\t1\n"
      "3\tmaps/dao/arena.map\t49\t49\t17\t5\t30\t9\t15.2426\n"
      "94\tmaps/dao/orz100d.map\t412\t395\t3\t50\t300\t390\t378.764\n"
      "250\tmaps/dao/brc202d.map\t530\t481\t0\t0\t529\t480\t1001.23\n";
  auto parsed = parseScenario(text, "a.scen");
  REQUIRE(parsed.ok());
  const auto& entries = parsed.value();
  REQUIRE(entries.size() == 4);

  CHECK(entries[0].bucket == 0);
  CHECK(entries[0].mapName == "maps/dao/arena.map");
  CHECK(entries[0].mapWidth == 49);
  CHECK(entries[0].mapHeight == 49);
  CHECK(entries[0].start == Cell{1, 11});
  CHECK(entries[0].goal == Cell{1, 12});
  CHECK(entries[0].optimalLength == 1.0);
  CHECK(entries[0].decimals == 0);
  CHECK(entries[0].lineNumber == 2);
  CHECK(entries[0].tolerance() == Approx(1.0 + 2e-6));

  CHECK(entries[1].bucket == 3);
  CHECK(entries[1].start == Cell{17, 5});
  CHECK(entries[1].goal == Cell{30, 9});
  CHECK(entries[1].optimalLength == 15.2426);
  CHECK(entries[1].decimals == 4);
  CHECK(entries[1].lineNumber == 3);
  CHECK(entries[1].tolerance() == Approx(1e-4 + 2e-6 * 15.2426));

  CHECK(entries[2].mapName == "maps/dao/orz100d.map");
  CHECK(entries[2].mapWidth == 412);
  CHECK(entries[2].mapHeight == 395);
  CHECK(entries[2].optimalLength == 378.764);
  CHECK(entries[2].decimals == 3);
  CHECK(entries[2].tolerance() == Approx(1e-3 + 2e-6 * 378.764));
  // The true optimum 378.7645020 lies within the tolerance of the printed value.
  CHECK(std::abs(378.7645020 - entries[2].optimalLength) <= entries[2].tolerance());

  CHECK(entries[3].bucket == 250);
  CHECK(entries[3].goal == Cell{529, 480});
  CHECK(entries[3].decimals == 2);
  CHECK(entries[3].tolerance() == Approx(1e-2 + 2e-6 * 1001.23));
  CHECK(entries[3].lineNumber == 5);
}

TEST_CASE("Moving AI: scenario generation A' (version 1.0, spaces, 2 decimals)", "[io]") {
  const std::string text =
      "version 1.0\n"
      "61 maps/bgmaps/AR0011SR.map 512 512 210 395 87 201 244.95\n"
      "33 maps/bgmaps/AR0011SR.map 512 512 244 370 359 376 132.40\n";
  auto parsed = parseScenario(text, "bg.scen");
  REQUIRE(parsed.ok());
  REQUIRE(parsed->size() == 2);
  const ScenarioEntry& first = parsed->at(0);
  CHECK(first.bucket == 61);
  CHECK(first.mapName == "maps/bgmaps/AR0011SR.map");
  CHECK(first.mapWidth == 512);
  CHECK(first.mapHeight == 512);
  CHECK(first.start == Cell{210, 395});
  CHECK(first.goal == Cell{87, 201});
  CHECK(first.optimalLength == 244.95);
  CHECK(first.decimals == 2);
  CHECK(first.tolerance() == Approx(0.01 + 2e-6 * 244.95));
  const ScenarioEntry& second = parsed->at(1);
  CHECK(second.optimalLength == 132.4);
  CHECK(second.decimals == 2);  // the trailing zero counts
  CHECK(second.lineNumber == 3);
}

TEST_CASE("Moving AI: scenario generation B (8 decimals)", "[io]") {
  const std::string text =
      "version 1\n"
      "0\tBerlin_0_256.map\t256\t256\t248\t165\t249\t164\t2.00000000\n"
      "105\tden312d.map\t65\t81\t3\t4\t60\t77\t423.97265472\n";
  auto parsed = parseScenario(text);
  REQUIRE(parsed.ok());
  REQUIRE(parsed->size() == 2);
  CHECK(parsed->at(0).mapName == "Berlin_0_256.map");
  CHECK(parsed->at(0).optimalLength == 2.0);
  CHECK(parsed->at(0).decimals == 8);
  CHECK(parsed->at(0).tolerance() == Approx(1e-8 + 4e-6));
  CHECK(parsed->at(1).bucket == 105);
  CHECK(parsed->at(1).mapName == "den312d.map");
  CHECK(parsed->at(1).optimalLength == 423.97265472);
  CHECK(parsed->at(1).decimals == 8);
  CHECK(parsed->at(1).tolerance() == Approx(1e-8 + 2e-6 * 423.97265472));
  // Tolerance is small but not below the printed rounding.
  CHECK(parsed->at(1).tolerance() > 5e-9);
}

TEST_CASE("Moving AI: scenario whitespace, blank lines and line endings", "[io]") {
  const std::vector<ScenarioEntry> expected =
      parseScenario("version 1\n0\tm.map\t10\t8\t1\t2\t3\t4\t2.82843\n1\tm.map\t10\t8\t0\t0\t9\t7\t11.8995\n").value();
  REQUIRE(expected.size() == 2);

  auto same = [&](const std::vector<ScenarioEntry>& entries, int secondLine) {
    REQUIRE(entries.size() == 2);
    for (std::size_t i = 0; i < 2; ++i) {
      CHECK(entries[i].bucket == expected[i].bucket);
      CHECK(entries[i].mapName == expected[i].mapName);
      CHECK(entries[i].mapWidth == expected[i].mapWidth);
      CHECK(entries[i].mapHeight == expected[i].mapHeight);
      CHECK(entries[i].start == expected[i].start);
      CHECK(entries[i].goal == expected[i].goal);
      CHECK(entries[i].optimalLength == expected[i].optimalLength);
      CHECK(entries[i].decimals == expected[i].decimals);
    }
    CHECK(entries[0].lineNumber == 2);
    CHECK(entries[1].lineNumber == secondLine);
  };
  SECTION("spaces") {
    same(parseScenario("version 1\n0 m.map 10 8 1 2 3 4 2.82843\n1 m.map 10 8 0 0 9 7 11.8995\n").value(), 3);
  }
  SECTION("mixed tabs and runs of spaces") {
    same(parseScenario("version  1\n0 \t m.map\t\t10   8\t1 2\t3 4  2.82843  \n\t1 m.map 10 8 0 0 9 7 11.8995\n").value(),
         3);
  }
  SECTION("blank lines are skipped but counted") {
    same(parseScenario("version 1\n0\tm.map\t10\t8\t1\t2\t3\t4\t2.82843\n\n  \n\t\n1\tm.map\t10\t8\t0\t0\t9\t7\t11.8995\n\n")
             .value(),
         6);
  }
  SECTION("CRLF without a final newline") {
    same(parseScenario("version 1\r\n0\tm.map\t10\t8\t1\t2\t3\t4\t2.82843\r\n1\tm.map\t10\t8\t0\t0\t9\t7\t11.8995").value(),
         3);
  }
  SECTION("only a header") {
    auto parsed = parseScenario("version 1\n");
    REQUIRE(parsed.ok());
    CHECK(parsed->empty());
    auto crlf = parseScenario("version 1.0\r\n\r\n");
    REQUIRE(crlf.ok());
    CHECK(crlf->empty());
  }
}

TEST_CASE("Moving AI: bad scenarios name the file, line and column", "[io]") {
  const std::string header = "version 1\n";
  SECTION("empty file") {
    CHECK_PARSE_ERROR(parseScenario("", "bad.scen"), "bad.scen:1:1: ", "expected 'version 1'");
  }
  SECTION("missing or wrong version line") {
    CHECK_PARSE_ERROR(parseScenario("0\tm.map\t10\t8\t1\t2\t3\t4\t2.82843\n", "bad.scen"), "bad.scen:1:1: ",
                      "expected 'version 1' or 'version 1.0'");
    CHECK_PARSE_ERROR(parseScenario("version 2\n", "bad.scen"), "bad.scen:1:1: ", "version 1");
    CHECK_PARSE_ERROR(parseScenario("version\n", "bad.scen"), "bad.scen:1:1: ", "version 1");
    CHECK_PARSE_ERROR(parseScenario("version 1 extra\n", "bad.scen"), "bad.scen:1:1: ", "version 1");
    CHECK_PARSE_ERROR(parseScenario("\nversion 1\n", "bad.scen"), "bad.scen:1:1: ", "version 1");
  }
  SECTION("8 fields") {
    CHECK_PARSE_ERROR(parseScenario(header + "0\tm.map\t10\t8\t1\t2\t3\t4\n", "bad.scen"), "bad.scen:2:",
                      "expected 9 fields");
    CHECK_PARSE_ERROR(parseScenario(header + "0 m.map 10 8 1 2 3 4\n", "bad.scen"), "bad.scen:2:20: ", "found 8");
  }
  SECTION("10 fields") {
    CHECK_PARSE_ERROR(parseScenario(header + "0 m.map 10 8 1 2 3 4 2.5 7\n", "bad.scen"), "bad.scen:2:26: ",
                      "expected 9 fields");
    CHECK_PARSE_ERROR(parseScenario(header + "0 m.map 10 8 1 2 3 4 2.5 7\n", "bad.scen"), "bad.scen:2:", "found 10");
  }
  SECTION("an error on a later line") {
    CHECK_PARSE_ERROR(parseScenario(header + "0 m.map 10 8 1 2 3 4 2.5\n\n0 m.map 10 8 1 2 3\n", "bad.scen"),
                      "bad.scen:4:", "found 7");
  }
  SECTION("non-numeric coordinates") {
    CHECK_PARSE_ERROR(parseScenario(header + "0 m.map 10 8 x1 2 3 4 2.5\n", "bad.scen"), "bad.scen:2:14: ",
                      "expected start x as a whole number");
    CHECK_PARSE_ERROR(parseScenario(header + "0 m.map 10 8 1 2.0 3 4 2.5\n", "bad.scen"), "bad.scen:2:16: ",
                      "start y");
    CHECK_PARSE_ERROR(parseScenario(header + "0 m.map 10 8 1 2 three 4 2.5\n", "bad.scen"), "bad.scen:2:18: ",
                      "goal x");
    CHECK_PARSE_ERROR(parseScenario(header + "0 m.map 10 8 1 2 3 4e0 2.5\n", "bad.scen"), "bad.scen:2:20: ",
                      "goal y");
    CHECK_PARSE_ERROR(parseScenario(header + "b m.map 10 8 1 2 3 4 2.5\n", "bad.scen"), "bad.scen:2:1: ", "bucket");
    CHECK_PARSE_ERROR(parseScenario(header + "0 m.map ten 8 1 2 3 4 2.5\n", "bad.scen"), "bad.scen:2:9: ",
                      "map width");
    CHECK_PARSE_ERROR(parseScenario(header + "0 m.map 10 8x 1 2 3 4 2.5\n", "bad.scen"), "bad.scen:2:12: ",
                      "map height");
  }
  SECTION("out-of-range and malformed integers") {
    CHECK_PARSE_ERROR(parseScenario(header + "0 m.map 10 8 -1 2 3 4 2.5\n", "bad.scen"), "bad.scen:2:14: ",
                      "0..32768");
    CHECK_PARSE_ERROR(parseScenario(header + "0 m.map 10 8 1 2 3 1000000000 2.5\n", "bad.scen"), "bad.scen:2:20: ",
                      "0..32768");
    CHECK_PARSE_ERROR(parseScenario(header + "0 m.map 40000 8 1 2 3 4 2.5\n", "bad.scen"), "bad.scen:2:9: ",
                      "0..32768");
    CHECK_PARSE_ERROR(parseScenario(header + "0 m.map 10 8 +-0 2 3 4 2.5\n", "bad.scen"), "bad.scen:2:14: ",
                      "whole number");
    CHECK_PARSE_ERROR(parseScenario(header + "0 m.map 10 8 1 2 3 99999999999999999999999 2.5\n", "bad.scen"),
                      "bad.scen:2:20: ", "whole number");
  }
  SECTION("NaN, infinite, negative or malformed lengths") {
    for (const char* length : {"nan", "NaN", "inf", "-inf", "infinity", "-1", "-0.5", "abc", "1.5.2", "2,5", "1e999"}) {
      INFO(length);
      CHECK_PARSE_ERROR(parseScenario(header + "0 m.map 10 8 1 2 3 4 " + length + "\n", "bad.scen"),
                        "bad.scen:2:22: ", "expected the optimal length as a non-negative number");
    }
    CHECK_PARSE_ERROR(parseScenario(header + "0\tm.map\t10\t8\t1\t2\t3\t4\tnan\n", "bad.scen"), "bad.scen:2:", "'nan'");
  }
  SECTION("binary data") {
    std::string nul = header + "0 m.map 10 8 1 2 3 4 2.5\n";
    nul[header.size() + 3] = '\0';
    CHECK_PARSE_ERROR(parseScenario(nul, "bad.scen"), "bad.scen:2:4: ", "control byte 0x00");
    std::mt19937 random(5);
    for (int round = 0; round < 30; ++round) {
      std::string bytes(std::size_t(std::uniform_int_distribution<int>(1, 300)(random)), '\0');
      for (char& c : bytes) c = char(std::uniform_int_distribution<int>(0, 255)(random));
      auto parsed = parseScenario(bytes, "bad.scen");
      REQUIRE_FALSE(parsed.ok());
      CHECK(parsed.status() == Status::ParseError);
      CHECK_THAT(parsed.error().message, Catch::StartsWith("bad.scen:"));
    }
  }
}

TEST_CASE("Moving AI: every benchmark map and scenario parses and agrees", "[io]") {
  const auto root = test::movingAiDir();
  if (!root) RPGNAV_SKIP_TEST("no Moving AI benchmark folder at " RPGNAV_MOVINGAI_DIR " (set RPGNAV_MOVINGAI_DIR)");
  std::vector<std::filesystem::path> maps;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(*root)) {
    if (entry.is_regular_file() && entry.path().extension() == ".map") maps.push_back(entry.path());
  }
  std::sort(maps.begin(), maps.end());
  REQUIRE(maps.size() >= 20);

  std::size_t scenarioFiles = 0, scenarioLines = 0;
  for (const auto& mapPath : maps) {
    INFO(mapPath.string());
    auto map = readMovingAiMap(mapPath);
    REQUIRE(map.ok());
    CHECK(map->width() >= 1);
    CHECK(map->height() >= 1);

    // Writing gives back the file's bytes, less carriage returns and plus a final newline.
    std::string bytes = readBytes(mapPath);
    bytes = replaceAll(bytes, "\r\n", "\n");
    if (bytes.back() != '\n') bytes += '\n';
    auto written = writeMovingAiMap(map.value());
    REQUIRE(written.ok());
    CHECK(written.value() == bytes);

    // Only the three symbols the README lists occur in this folder.
    const auto others = std::count_if(map->tiles().begin(), map->tiles().end(), [&](TerrainId id) {
      const char symbol = map->terrain().terrainSymbol(id);
      return symbol != '.' && symbol != '@' && symbol != 'T';
    });
    CHECK(others == 0);

    std::filesystem::path scenarioPath = mapPath;
    scenarioPath += ".scen";
    if (!std::filesystem::exists(scenarioPath)) continue;
    ++scenarioFiles;
    auto scenario = readScenario(scenarioPath);
    REQUIRE(scenario.ok());
    CHECK_FALSE(scenario->empty());
    scenarioLines += scenario->size();

    const std::string folder = mapPath.parent_path().filename().string();
    const bool generationB = folder == "cities" || folder == "current-release-sample" || folder == "anyangle";
    int previousLine = 1;
    std::size_t bad = 0;
    for (const ScenarioEntry& entry : scenario.value()) {
      const bool good = entry.mapWidth == map->width() && entry.mapHeight == map->height() &&
                        map->passable(entry.start, TerrainTable::kWalk) &&
                        map->passable(entry.goal, TerrainTable::kWalk) && entry.lineNumber > previousLine &&
                        entry.optimalLength >= 0.0;
      bool precision = true;
      if (generationB) {
        precision = entry.decimals == 8;
      } else if (folder == "bg512") {
        precision = entry.decimals == 2;
      } else {
        const double whole = std::floor(entry.optimalLength);
        const int digits = whole < 1.0 ? 1 : int(std::floor(std::log10(whole))) + 1;
        precision = digits + entry.decimals <= 6;
      }
      if (!good || !precision) {
        ++bad;
        UNSCOPED_INFO("line " << entry.lineNumber << ": " << entry.mapWidth << "x" << entry.mapHeight << " start "
                              << entry.start.x << "," << entry.start.y << " goal " << entry.goal.x << ","
                              << entry.goal.y << " length " << entry.optimalLength << " decimals "
                              << entry.decimals);
      }
      previousLine = entry.lineNumber;
    }
    CHECK(bad == 0);
  }
  CHECK(scenarioFiles == maps.size());
  CHECK(scenarioLines > 50000);

  // Counts from the folder's README.
  auto lines = [&](const char* relative) {
    auto scenario = readScenario(*root / relative);
    return scenario.ok() ? scenario->size() : std::size_t(0);
  };
  CHECK(lines("dao/arena.map.scen") == 160);
  CHECK(lines("bg512/AR0011SR.map.scen") == 1280);
  CHECK(lines("cities/Berlin_0_256.map.scen") == 930);
  CHECK(lines("current-release-sample/den312d.map.scen") == 290);
  CHECK(lines("dao/den312d.map.scen") == 320);
  auto arena = readMovingAiMap(*root / "dao/arena.map");
  REQUIRE(arena.ok());
  CHECK(arena->width() == 49);
  CHECK(arena->height() == 49);
  auto combat = readMovingAiMap(*root / "dao/combat.map");
  REQUIRE(combat.ok());
  CHECK(combat->width() == 177);
  CHECK(combat->height() == 193);
  // A CRLF map without a final newline.
  const auto berlin = *root / "cities/Berlin_0_256.map";
  const std::string berlinBytes = readBytes(berlin);
  CHECK(berlinBytes.find("\r\n") != std::string::npos);
  CHECK(berlinBytes.back() != '\n');
  auto berlinMap = readMovingAiMap(berlin);
  REQUIRE(berlinMap.ok());
  CHECK(berlinMap->width() == 256);
  CHECK(berlinMap->height() == 256);
}
