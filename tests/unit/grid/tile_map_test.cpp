// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "rpgnav/grid/tile_map.hpp"
#include "support/test_maps.hpp"

#include <limits>

using namespace rpgnav;

TEST_CASE("TileMap::create rejects bad sizes and layouts", "[grid]") {
  const TerrainTable terrain = test::testTerrain();
  const TerrainId floor{0};
  CHECK(TileMap::create(Layout::square(), 1, 1, terrain, floor).ok());
  CHECK(TileMap::create(Layout::square(), 32768, 2048, terrain, floor).ok());  // exactly 2^26 tiles
  for (auto [w, h] : {std::pair{0, 5}, {5, 0}, {-3, 5}, {32769, 1}, {1, 32769}, {32768, 2049}, {2147483647, 2147483647}}) {
    // Sizes below 1 are malformed; sizes over the limits are refused before anything is allocated.
    const auto map = TileMap::create(Layout::square(), w, h, terrain, floor);
    CHECK(map.status() == (w < 1 || h < 1 ? Status::InvalidArgument : Status::LimitExceeded));
    CHECK_THAT(std::string(map.message()), Catch::Contains("map size"));
  }
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK_FALSE(TileMap::create(Layout::square(0.0f), 4, 4, terrain, floor).ok());
  CHECK_FALSE(TileMap::create(Layout::square(-1.0f), 4, 4, terrain, floor).ok());
  CHECK_FALSE(TileMap::create(Layout::hexFlat(nan), 4, 4, terrain, floor).ok());
  CHECK_FALSE(TileMap::create(Layout::hexPointy(1.0f, Vec2(nan, 0.0f)), 4, 4, terrain, floor).ok());
  CHECK_FALSE(TileMap::create(Layout::square(), 4, 4, terrain, TerrainId{99}).ok());
  CHECK_FALSE(TileMap::create(Layout::square(), 2, 2, terrain, std::vector<TerrainId>(3)).ok());
  CHECK_FALSE(TileMap::create(Layout::square(), 1, 2, terrain, std::vector<TerrainId>{TerrainId{0}, TerrainId{77}}).ok());
}

TEST_CASE("TileMap edits bump the version; bad edits change nothing", "[grid]") {
  TileMap map = test::mapFromAscii(Layout::square(), {"...", "..."});
  CHECK(map.version() == 0);
  CHECK(map.setTerrain({1, 1}, TerrainId{1}) == Status::Ok);
  CHECK(map.version() == 1);
  CHECK(map.terrainAt({1, 1}) == TerrainId{1});
  CHECK_FALSE(map.passable({1, 1}, TerrainTable::kWalk));
  CHECK(map.setTerrain({3, 0}, TerrainId{0}) == Status::OutOfBounds);
  CHECK(map.setTerrain({-1, 0}, TerrainId{0}) == Status::OutOfBounds);
  CHECK(map.setTerrain({0, 0}, TerrainId{42}) == Status::InvalidArgument);
  CHECK(map.version() == 1);
  CHECK(map.setTerrainCost(TerrainId{0}, TerrainTable::kWalk, 2.0f) == Status::Ok);
  CHECK(map.version() == 2);
  CHECK(map.cost({0, 0}, TerrainTable::kWalk) == 2.0f);
  CHECK(map.setTerrainCost(TerrainId{0}, TerrainTable::kWalk, -2.0f) == Status::InvalidArgument);
  CHECK(map.setTerrainCost(TerrainId{0}, TerrainTable::kWalk, TerrainTable::kImpassable) == Status::Ok);
  CHECK_FALSE(map.passable({0, 0}, TerrainTable::kWalk));
  CHECK(map.version() == 3);
}

TEST_CASE("TileMap costs and passability per mobility; outside is impassable", "[grid]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {".~,", "#h."});
  CHECK(map.cost({0, 0}, TerrainTable::kWalk) == 1.0f);
  CHECK_FALSE(map.passable({1, 0}, TerrainTable::kWalk));
  CHECK(map.passable({1, 0}, TerrainTable::kSwim));
  CHECK(map.cost({2, 0}, TerrainTable::kWalk) == 3.0f);
  CHECK(map.cost({2, 0}, TerrainTable::kSwim) == 2.0f);
  CHECK_FALSE(map.passable({0, 1}, TerrainTable::kFly));
  CHECK(map.cost({1, 1}, TerrainTable::kWalk) == 2.0f);
  CHECK(map.cost({-1, 0}, TerrainTable::kFly) == TerrainTable::kImpassable);
  CHECK(map.cost({3, 0}, TerrainTable::kFly) == TerrainTable::kImpassable);
  CHECK(map.cost({0, 2}, TerrainTable::kFly) == TerrainTable::kImpassable);
  CHECK(map.cost({0, 0}, MobilityId{6}) == TerrainTable::kImpassable);
}

TEST_CASE("square diagonals never cut a blocked corner", "[grid]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "...",
                                                               ".#.",
                                                               "...",
                                                           });
  const auto moves = map.layout().moves({0, 0});
  auto step = [&](int dx, int dy) {
    for (const NeighbourStep& s : moves) {
      if (s.dx == dx && s.dy == dy) return s;
    }
    FAIL("no such step");
    return NeighbourStep{};
  };
  CHECK_FALSE(map.canStep({0, 0}, step(1, 1), TerrainTable::kWalk));  // into the wall
  CHECK_FALSE(map.canStep({1, 0}, step(1, 1), TerrainTable::kWalk));  // (1,1) is a wall beside the step
  CHECK_FALSE(map.canStep({0, 1}, step(1, -1), TerrainTable::kWalk));
  CHECK(map.canStep({0, 0}, step(1, 0), TerrainTable::kWalk));
  CHECK(map.canStep({1, 0}, step(1, 0), TerrainTable::kWalk));
  CHECK_FALSE(map.canStep({2, 0}, step(1, 0), TerrainTable::kWalk));  // off the map
  const TileMap open = test::mapFromAscii(Layout::square(), {"..", ".."});
  CHECK(open.canStep({0, 0}, step(1, 1), TerrainTable::kWalk));
}

TEST_CASE("TileMap::tileAt rejects non-finite and outside points", "[grid]") {
  const TileMap map = test::mapFromAscii(Layout::square(2.0f, 8, Vec2(10.0f, 20.0f)), {"...", "..."});
  CHECK(map.tileAt(Vec2(10.0f, 20.0f)) == Cell{0, 0});
  CHECK(map.tileAt(Vec2(15.9f, 23.9f)) == Cell{2, 1});
  CHECK(map.tileAt(Vec2(12.0f, 22.0f)) == Cell{1, 1});  // borders go to the larger row and column
  CHECK_FALSE(map.tileAt(Vec2(16.0f, 21.0f)).has_value());
  CHECK_FALSE(map.tileAt(Vec2(9.99f, 21.0f)).has_value());
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  CHECK_FALSE(map.tileAt(Vec2(nan, 21.0f)).has_value());
  CHECK_FALSE(map.tileAt(Vec2(11.0f, inf)).has_value());
  CHECK_FALSE(map.tileAt(Vec2(3e38f, -3e38f)).has_value());
}
