// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "grid/clearance.hpp"
#include "support/test_maps.hpp"

#include <cmath>
#include <random>

using namespace rpgnav;

namespace {

// An independent yardstick: the distance in tiles from a tile's centre to the nearest tile the
// mobility cannot enter, or to a tile off the map (every tile within `band` steps beyond the
// edge), by brute force over the tiles' polygons in world units.
double segmentPointDistance(Vec2 point, Vec2 a, Vec2 b) {
  const Eigen::Vector2d p = point.cast<double>(), from = a.cast<double>(), edge = (b - a).cast<double>();
  const double t = std::clamp((p - from).dot(edge) / edge.squaredNorm(), 0.0, 1.0);
  return (from + t * edge - p).norm();
}

double bruteClearance(const TileMap& map, MobilityId mobility, Cell cell) {
  const Layout& layout = map.layout();
  if (!map.passable(cell, mobility)) return 0.0;
  const Vec2 centre = layout.tileCenter(cell);
  double best = std::numeric_limits<double>::infinity();
  const int band = 7;
  for (std::int32_t y = -band; y < map.height() + band; ++y) {
    for (std::int32_t x = -band; x < map.width() + band; ++x) {
      if (map.passable({x, y}, mobility)) continue;
      const TilePolygon polygon = layout.tilePolygon({x, y});
      for (int i = 0; i < polygon.count; ++i) {
        best = std::min(best, segmentPointDistance(centre, polygon.corners[std::size_t(i)],
                                                   polygon.corners[std::size_t((i + 1) % polygon.count)]));
      }
    }
  }
  return best / double(layout.tileSize());
}

}  // namespace

TEST_CASE("clearance: exact distances round one wall and at the map's edge", "[grid][clearance]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "..........",
                                                               "..........",
                                                               "..........",
                                                               "....#.....",
                                                               "..........",
                                                               "..........",
                                                               "..........",
                                                               "..........",
                                                           });
  const Clearance clearance = Clearance::build(map, TerrainTable::kWalk);
  CHECK(clearance.scale() == 4);
  CHECK(clearance.code({4, 3}) == 0);          // the wall itself
  CHECK(clearance.code({5, 3}) == 1);          // beside it: half a tile
  CHECK(clearance.code({5, 4}) == 2);          // diagonal: √2/2
  CHECK(clearance.code({6, 3}) == 9);          // 1.5 tiles
  CHECK(clearance.code({6, 5}) == 9 + 9);      // (1.5, 1.5)
  CHECK(clearance.code({0, 5}) == 1);          // the map's edge, half a tile away
  CHECK(clearance.code({7, 6}) == 9);          // the bottom edge 1.5 tiles below (the wall: 4.24)
  CHECK(clearance.tiles({5, 3}) == Approx(0.5));
  CHECK(clearance.tiles({5, 4}) == Approx(std::sqrt(0.5)));
  CHECK(clearance.code({-1, 0}) == 0);
  CHECK(clearance.code({10, 0}) == 0);
  CHECK(clearance.memoryBytes() >= std::size_t(map.tileCount()));
  CHECK(clearance.memoryBytes() <= std::size_t(map.tileCount()) + 64);
}

TEST_CASE("clearance: open ground far from everything reads kFar; fits compares exactly", "[grid][clearance]") {
  std::vector<std::string> rows(20, std::string(20, '.'));
  rows[2][2] = '#';
  TerrainTable terrain = test::testTerrain();
  std::vector<TerrainId> tiles;
  for (const std::string& row : rows) {
    for (const char symbol : row) tiles.push_back(*terrain.findTerrainBySymbol(symbol));
  }
  const TileMap map = TileMap::create(Layout::square(), 20, 20, terrain, tiles).value();
  const Clearance clearance = Clearance::build(map, TerrainTable::kWalk);
  CHECK(clearance.code({10, 10}) == Clearance::kFar);
  CHECK(clearance.tiles({10, 10}) == Clearance::kFarTiles);
  CHECK(clearance.fits({10, 10}, 3.0));
  CHECK(clearance.fits({10, 10}, 4.0));
  CHECK_FALSE(clearance.fits({10, 10}, 4.01));
  // (3, 2): half a tile from the wall: a body of radius 0.5 touches it and fits, a hair more not.
  CHECK(clearance.fits({3, 2}, 0.5));
  CHECK_FALSE(clearance.fits({3, 2}, 0.5000001));
  CHECK(clearance.fits({3, 2}, 0.0));
  CHECK(clearance.fits({3, 2}, std::nan("")));   // no radius: an enterable tile is enough
  CHECK(clearance.fits({3, 2}, -1.0));
  CHECK_FALSE(clearance.fits({2, 2}, 0.0));       // the wall
  CHECK_FALSE(clearance.fits({-1, 2}, 0.0));      // off the map
  // (5, 5): the wall at (2.5, 2.5)-(3, 3) lies (2.5, 2.5) away: 4d² = 50, d = 3.54.
  CHECK(clearance.code({5, 5}) == 50);
  CHECK(clearance.fits({5, 5}, std::sqrt(50.0 / 4.0) - 1e-9));
  CHECK_FALSE(clearance.fits({5, 5}, std::sqrt(50.0 / 4.0) + 1e-9));
  CHECK_FALSE(clearance.fits({5, 5}, std::numeric_limits<double>::infinity()));
}

TEST_CASE("clearance: a 1x1 map and a one-tile-wide corridor", "[grid][clearance]") {
  const TileMap single = test::mapFromAscii(Layout::square(), {"."});
  const Clearance one = Clearance::build(single, TerrainTable::kWalk);
  CHECK(one.code({0, 0}) == 1);
  CHECK(one.fits({0, 0}, 0.5));
  CHECK_FALSE(one.fits({0, 0}, 0.6));
  const TileMap walled = test::mapFromAscii(Layout::square(), {"#"});
  CHECK(Clearance::build(walled, TerrainTable::kWalk).code({0, 0}) == 0);
  for (const Layout& layout : test::allLayouts()) {
    const TileMap corridor = test::mapFromAscii(layout, {"##########", "..........", "##########"});
    const Clearance clearance = Clearance::build(corridor, TerrainTable::kWalk);
    for (std::int32_t x = 0; x < 10; ++x) {
      INFO("layout " << int(layout.kind()) << " x " << x);
      CHECK_FALSE(clearance.fits({x, 1}, 0.51));  // nobody wider than the corridor fits
      CHECK(clearance.fits({x, 1}, 0.0));
    }
  }
}

TEST_CASE("clearance: depends on the mobility", "[grid][clearance]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               ".....",
                                                               ".~~~.",
                                                               ".~~~.",
                                                               ".~~~.",
                                                               ".....",
                                                           });
  const Clearance walk = Clearance::build(map, TerrainTable::kWalk);
  const Clearance swim = Clearance::build(map, TerrainTable::kSwim);
  const Clearance fly = Clearance::build(map, TerrainTable::kFly);
  CHECK(walk.code({2, 2}) == 0);
  CHECK(walk.code({0, 2}) == 1);
  CHECK(swim.code({2, 2}) == 9);   // the floor round the pond is 1.5 tiles from the middle
  CHECK(swim.code({0, 2}) == 0);
  CHECK(fly.code({2, 2}) == 25);   // only the map's edge, 2.5 tiles away
}

TEST_CASE("clearance equals a brute-force distance on random square and hex maps", "[grid][clearance][property]") {
  std::mt19937 random(2711);
  int checked = 0;
  for (const Layout& base : test::allLayouts()) {
    // A tile size other than 1 and an origin elsewhere: clearance is in tiles, whatever the units.
    const Layout layout = base.isHex() ? (base.kind() == LayoutKind::HexPointy
                                              ? Layout::hexPointy(2.5f, Vec2(-3.0f, 7.0f), base.hexStagger())
                                              : Layout::hexFlat(2.5f, Vec2(-3.0f, 7.0f), base.hexStagger()))
                                       : Layout::square(2.5f, 8, Vec2(-3.0f, 7.0f));
    for (int round = 0; round < 12; ++round) {
      const int width = 1 + int(random() % 16), height = 1 + int(random() % 14);
      const double wallRate = std::uniform_real_distribution<double>(0.0, 0.25)(random);
      const TileMap map = test::randomMap(random, layout, width, height, wallRate);
      for (const MobilityId mobility : {TerrainTable::kWalk, TerrainTable::kSwim}) {
        const Clearance clearance = Clearance::build(map, mobility);
        for (std::int32_t y = 0; y < height; ++y) {
          for (std::int32_t x = 0; x < width; ++x) {
            const double expected = std::min(bruteClearance(map, mobility, {x, y}), double(Clearance::kFarTiles));
            INFO("layout " << int(layout.kind()) << " map " << width << "x" << height << " tile " << x << "," << y);
            if (expected >= Clearance::kFarTiles - 1e-4) {
              CHECK(clearance.code({x, y}) == Clearance::kFar);
            } else {
              // The code is exact: scale × d² is an integer.
              const double scaled = clearance.scale() * expected * expected;
              CHECK(std::abs(scaled - std::round(scaled)) < 1e-3);
              CHECK(clearance.code({x, y}) == std::lround(scaled));
              CHECK(clearance.tiles({x, y}) == Approx(expected).margin(1e-5));
            }
            ++checked;
          }
        }
      }
    }
  }
  CHECK(checked > 2000);
}

TEST_CASE("clearance updated after edits equals a fresh build", "[grid][clearance][property][edits]") {
  std::mt19937 random(5150);
  const TerrainTable terrain = test::testTerrain();
  const TerrainId floor = *terrain.findTerrainBySymbol('.'), wall = *terrain.findTerrainBySymbol('#'),
                  water = *terrain.findTerrainBySymbol('~');
  for (const Layout& layout : test::allLayouts()) {
    for (int round = 0; round < 6; ++round) {
      const int width = 1 + int(random() % 30), height = 1 + int(random() % 30);
      TileMap map = test::randomMap(random, layout, width, height, 0.15);
      Clearance clearance = Clearance::build(map, TerrainTable::kWalk);
      for (int edit = 0; edit < 40; ++edit) {
        const TerrainId terrainOf[3] = {floor, wall, water};
        const Cell low{int(random() % unsigned(width)), int(random() % unsigned(height))};
        const Cell high{std::min(width - 1, low.x + int(random() % 4)), std::min(height - 1, low.y + int(random() % 4))};
        const TerrainId put = terrainOf[random() % 3];
        for (std::int32_t y = low.y; y <= high.y; ++y) {
          for (std::int32_t x = low.x; x <= high.x; ++x) REQUIRE(map.setTerrain({x, y}, put) == Status::Ok);
        }
        clearance.update(map, low, high);
        const Clearance fresh = Clearance::build(map, TerrainTable::kWalk);
        bool same = true;
        for (std::int32_t y = 0; y < height; ++y) {
          for (std::int32_t x = 0; x < width; ++x) same = same && clearance.code({x, y}) == fresh.code({x, y});
        }
        INFO("layout " << int(layout.kind()) << " map " << width << "x" << height << " edit " << edit);
        REQUIRE(same);
      }
    }
  }
}
