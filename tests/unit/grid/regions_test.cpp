// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "rpgnav/grid/regions.hpp"
#include "support/test_maps.hpp"

#include <cmath>
#include <deque>

using namespace rpgnav;

TEST_CASE("regions split at walls and at diagonal-only gaps", "[grid]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "..#..",
                                                               "..#..",
                                                               "####.",
                                                               "...#.",
                                                               "..#..",
                                                           });
  const RegionMap regions = RegionMap::compute(map, TerrainTable::kWalk);
  CHECK(regions.regionCount() == 3);
  CHECK(regions.regionOf({0, 0}) == 0);  // labels follow row-major order of first tiles
  CHECK(regions.regionOf({3, 0}) == 1);
  CHECK(regions.regionOf({0, 3}) == 2);
  CHECK(regions.regionSize(0) == 4);
  CHECK(regions.regionSize(1) == 8);   // right column and the two tiles below (3,4),(4,x)
  CHECK(regions.regionSize(2) == 5);
  CHECK(regions.connected({0, 0}, {1, 1}));
  CHECK_FALSE(regions.connected({0, 0}, {3, 0}));
  // (2,3) and (3,4) touch only at a corner beside walls: no corner cutting, no connection.
  CHECK_FALSE(regions.connected({2, 3}, {3, 4}));
  CHECK(regions.regionOf({2, 0}) == RegionMap::kNoRegion);
  CHECK(regions.regionOf({-1, 0}) == RegionMap::kNoRegion);
  CHECK(regions.regionOf({5, 0}) == RegionMap::kNoRegion);
  CHECK_FALSE(regions.connected({2, 0}, {2, 0}));
  CHECK(regions.mapVersion() == map.version());
  CHECK(regions.regionSize(99) == 0);
}

TEST_CASE("regions depend on the mobility", "[grid]") {
  const TileMap map = test::mapFromAscii(Layout::hexPointy(), {
                                                                  "..~~..",
                                                                  "..~~..",
                                                                  "..~~..",
                                                              });
  CHECK(RegionMap::compute(map, TerrainTable::kWalk).regionCount() == 2);
  CHECK(RegionMap::compute(map, TerrainTable::kSwim).regionCount() == 1);
  CHECK(RegionMap::compute(map, TerrainTable::kFly).regionCount() == 1);
}

namespace {

// Reference connectivity built from geometry alone: two tiles are adjacent when their centres are
// one step apart (hex), or orthogonally adjacent (square: diagonals need both orthogonals, so they
// never add connectivity).
std::vector<int> referenceLabels(const TileMap& map, MobilityId mobility) {
  const Layout& layout = map.layout();
  std::vector<int> labels(std::size_t(map.tileCount()), -1);
  int next = 0;
  for (int seed = 0; seed < map.tileCount(); ++seed) {
    if (labels[std::size_t(seed)] >= 0 || !map.passable(map.cellAt(seed), mobility)) continue;
    std::deque<Cell> queue{map.cellAt(seed)};
    labels[std::size_t(seed)] = next;
    while (!queue.empty()) {
      const Cell c = queue.front();
      queue.pop_front();
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          const Cell n{c.x + dx, c.y + dy};
          if (!map.passable(n, mobility)) continue;
          const double distance = (layout.localCenter(n) - layout.localCenter(c)).norm();
          if (std::abs(distance - 1.0) > 1e-9) continue;
          int& label = labels[std::size_t(map.index(n))];
          if (label >= 0) continue;
          label = next;
          queue.push_back(n);
        }
      }
    }
    ++next;
  }
  return labels;
}

}  // namespace

TEST_CASE("region labels match a geometric flood fill on random maps", "[grid][property]") {
  std::mt19937 random(1234);
  for (const Layout& layout : test::allLayouts()) {
    for (int trial = 0; trial < 60; ++trial) {
      const int w = std::uniform_int_distribution<int>(1, 30)(random);
      const int h = std::uniform_int_distribution<int>(1, 30)(random);
      const TileMap map = test::randomMap(random, layout, w, h, 0.35);
      for (MobilityId mobility : {TerrainTable::kWalk, TerrainTable::kSwim}) {
        const RegionMap regions = RegionMap::compute(map, mobility);
        const std::vector<int> reference = referenceLabels(map, mobility);
        // Both label in row-major order of first tiles, so the labels must be equal outright.
        std::uint32_t total = 0;
        for (int i = 0; i < map.tileCount(); ++i) {
          const std::uint32_t label = regions.regionOf(map.cellAt(i));
          const int expected = reference[std::size_t(i)];
          REQUIRE(label == (expected < 0 ? RegionMap::kNoRegion : std::uint32_t(expected)));
        }
        for (std::uint32_t r = 0; r < regions.regionCount(); ++r) total += regions.regionSize(r);
        std::uint32_t passable = 0;
        for (int i = 0; i < map.tileCount(); ++i) passable += map.passable(map.cellAt(i), mobility) ? 1 : 0;
        CHECK(total == passable);
      }
    }
  }
}

TEST_CASE("regions of a large open map", "[grid]") {
  const TileMap map = TileMap::create(Layout::square(), 2048, 2048, test::testTerrain(), TerrainId{0}).value();
  const RegionMap regions = RegionMap::compute(map, TerrainTable::kWalk);
  CHECK(regions.regionCount() == 1);
  CHECK(regions.regionSize(0) == 2048u * 2048u);
  CHECK(regions.connected({0, 0}, {2047, 2047}));
}

namespace {

// True when two labellings describe the same regions (a one-to-one map between their labels)
// with the same sizes; `why` says where they differ.
bool samePartition(const TileMap& map, const RegionMap& a, const RegionMap& b, std::string& why) {
  std::unordered_map<std::uint32_t, std::uint32_t> forward, backward;
  for (std::int32_t i = 0; i < map.tileCount(); ++i) {
    const Cell cell = map.cellAt(i);
    const std::uint32_t la = a.regionOf(cell), lb = b.regionOf(cell);
    if ((la == RegionMap::kNoRegion) != (lb == RegionMap::kNoRegion)) {
      why = "passability differs at tile " + std::to_string(i);
      return false;
    }
    if (la == RegionMap::kNoRegion) continue;
    const auto [f, newF] = forward.emplace(la, lb);
    const auto [g, newG] = backward.emplace(lb, la);
    if (f->second != lb || g->second != la) {
      why = "regions differ at tile " + std::to_string(i);
      return false;
    }
    if (a.regionSize(la) != b.regionSize(lb)) {
      why = "sizes differ at tile " + std::to_string(i);
      return false;
    }
  }
  if (a.regionCount() != b.regionCount()) {
    why = "region counts differ: " + std::to_string(a.regionCount()) + " and " + std::to_string(b.regionCount());
    return false;
  }
  return true;
}

}  // namespace

TEST_CASE("regions follow edits in place: the same regions as a fresh computation", "[grid][edits][property]") {
  // Walls put up and taken down one by one, in rectangles and in lists, on random square (8- and
  // 4-way) and hex maps; after each edit the updated labels describe exactly the regions a fresh
  // computation finds, with the same sizes and count.
  std::mt19937 random(41);
  int edits = 0, splits = 0, joins = 0;
  for (const Layout& layout : {Layout::square(), Layout::square(1.0f, 4), Layout::hexPointy(), Layout::hexFlat(),
                                Layout::hexPointy(1.0f, Vec2(0.0f, 0.0f), HexStagger::Even)}) {
    for (int trial = 0; trial < 12; ++trial) {
      const int w = std::uniform_int_distribution<int>(1, 24)(random), h = std::uniform_int_distribution<int>(1, 24)(random);
      TileMap map = test::randomMap(random, layout, w, h, 0.35);
      RegionMap regions = RegionMap::compute(map, TerrainTable::kWalk);
      for (int e = 0; e < 60; ++e) {
        const TerrainId terrain{std::uint8_t(std::uniform_int_distribution<int>(0, 4)(random))};  // floor, wall, water...
        const Cell a{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
        std::vector<Cell> changed;
        const int kind = e % 5;
        if (kind == 3) {
          const Cell b{std::min(w - 1, a.x + std::uniform_int_distribution<int>(0, 3)(random)),
                       std::min(h - 1, a.y + std::uniform_int_distribution<int>(0, 3)(random))};
          REQUIRE(map.setTerrain(a, b, terrain) == Status::Ok);
          for (std::int32_t y = a.y; y <= b.y; ++y) {
            for (std::int32_t x = a.x; x <= b.x; ++x) changed.push_back({x, y});
          }
        } else if (kind == 4) {
          for (int k = 0; k < 4; ++k) {
            changed.push_back({std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)});
          }
          REQUIRE(map.setTerrain(changed, terrain) == Status::Ok);
        } else {
          REQUIRE(map.setTerrain(a, terrain) == Status::Ok);
          changed.push_back(a);
        }
        const std::uint32_t before = regions.regionCount();
        regions.update(map, changed);
        const RegionMap fresh = RegionMap::compute(map, TerrainTable::kWalk);
        std::string why;
        INFO(toString(layout.kind()) << " trial " << trial << " edit " << e);
        const bool same = samePartition(map, regions, fresh, why);
        INFO(why);
        REQUIRE(same);
        CHECK(regions.mapVersion() == map.version());
        ++edits;
        splits += regions.regionCount() > before ? 1 : 0;
        joins += regions.regionCount() < before ? 1 : 0;
      }
    }
  }
  CHECK(edits == 5 * 12 * 60);
  CHECK(splits > 200);
  CHECK(joins > 200);
}
