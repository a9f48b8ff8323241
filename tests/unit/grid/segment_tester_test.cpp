// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "grid/segment_tester.hpp"
#include "grid/segment_walk.hpp"
#include "support/test_maps.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <vector>

using namespace rpgnav;

TEST_CASE("SegmentTester agrees with probeSegment on random weighted maps", "[grid][los][property]") {
  std::mt19937 random(71);
  for (const Layout& layout :
       {Layout::square(), Layout::square(0.5f, 8, Vec2(3.0f, -2.0f)), Layout::hexPointy(),
        Layout::hexPointy(0.5f, Vec2(-2.0f, 1.0f), HexStagger::Even), Layout::hexFlat(),
        Layout::hexFlat(2.0f, Vec2(5.0f, 3.0f), HexStagger::Even)}) {
    int fastClear = 0, fastAnswers = 0, total = 0;
    for (int trial = 0; trial < 30; ++trial) {
      const TileMap map = test::randomMap(random, layout, 40, 30, trial % 3 == 0 ? 0.02 : 0.15, trial % 4 == 0);
      const MobilityId mobility = trial % 2 ? TerrainTable::kWalk : TerrainTable::kFly;
      const SegmentTester tester(map, mobility);
      const float size = layout.tileSize();
      std::uniform_real_distribution<float> x(-1.0f * size, 41.0f * size), y(-1.0f * size, 31.0f * size);
      for (int q = 0; q < 200; ++q) {
        // Random points, tile corners and tile centres (segments along edges and through corners).
        auto pick = [&]() {
          const Vec2 p = layout.origin() + Vec2(x(random), y(random));
          if (q % 3 == 1) return layout.tilePolygon(layout.tileAt(p)).corners[0];
          if (q % 3 == 2) return layout.tileCenter(layout.tileAt(p));
          return p;
        };
        const Vec2 a = pick(), b = q % 7 == 0 ? a : pick();
        // Narrow bodies mostly, some wide ones (the keeps() path of probe()).
        const float radius = q % 4 == 0   ? 0.0f
                             : q % 5 == 0 ? std::uniform_real_distribution<float>(0.5f * size, 1.6f * size)(random)
                                          : std::uniform_real_distribution<float>(0.0f, 0.49f * size)(random);
        const SegmentProbe exact = probeSegment(map, mobility, a, b, radius);
        const SegmentProbe fast = tester.probe(a, b, radius);
        INFO(toString(layout.kind()) << " trial " << trial << " query " << q << " radius " << radius << " from "
                                       << a.transpose() << " to " << b.transpose());
        REQUIRE(fast.clear == exact.clear);
        if (exact.clear) CHECK(fast.cost == Approx(exact.cost).epsilon(1e-9).margin(1e-9));
        CHECK(fast.length == Approx(exact.length).epsilon(1e-9).margin(1e-9));
        if (tester.cheaplyClear(a, b, radius)) {
          ++fastClear;
          CHECK(exact.clear);
          CHECK(exact.cost == Approx(exact.length * tester.cheapestCost()).epsilon(1e-6).margin(1e-9));
        }
        if (q % 5 != 0 && tester.answersWithoutWalk(a, b, radius)) ++fastAnswers;
        if (!fast.clear && fast.hasBlocker) CHECK_FALSE(map.passable(fast.blocker, mobility));
        // A wider berth, as the comfort asks: the same rule at the clearance.
        const float clearance = radius + std::uniform_real_distribution<float>(0.01f, 0.6f * size)(random);
        REQUIRE(tester.keeps(a, b, clearance) == probeSegment(map, mobility, a, b, clearance).clear);
        bool keepsClearance = false;
        const SegmentProbe kept = tester.probeKeeping(a, b, radius, clearance, keepsClearance);
        REQUIRE(kept.clear == exact.clear);
        REQUIRE(keepsClearance == (exact.clear && probeSegment(map, mobility, a, b, clearance).clear));
        ++total;
      }
    }
    // The fast paths must actually answer a good share of the queries (clear ones cheaply, and
    // clear or blocked ones without the walk), on squares and hexes alike.
    INFO(toString(layout.kind()) << ": " << fastClear << " cheaply clear, " << fastAnswers << " answered without the walk, of "
                                   << total);
    CHECK(fastClear > total / 10);
    CHECK(fastAnswers > total / 4);
  }
}

TEST_CASE("SegmentTester prices hex segments across terrain of several costs as probeSegment does, without the walk",
          "[grid][los][property]") {
  // Patches of floor, hills and swamp (costs 1, 2 and 3 walking) and no walls: most segments
  // cross several costs, and are priced hexagon by hexagon.
  std::mt19937 random(913);
  for (const Layout& layout : test::allLayouts()) {
    if (!layout.isHex()) continue;
    int pricedAcross = 0, total = 0;
    for (int trial = 0; trial < 8; ++trial) {
      std::vector<std::string> rows(24, std::string(30, '.'));
      for (int patch = 0; patch < 14; ++patch) {
        const int cx = std::uniform_int_distribution<int>(0, 29)(random), cy = std::uniform_int_distribution<int>(0, 23)(random);
        const int r = std::uniform_int_distribution<int>(1, 4)(random);
        const char symbol = patch % 2 ? ',' : 'h';
        for (int y = std::max(cy - r, 0); y <= std::min(cy + r, 23); ++y) {
          for (int x = std::max(cx - r, 0); x <= std::min(cx + r, 29); ++x) rows[std::size_t(y)][std::size_t(x)] = symbol;
        }
      }
      const std::vector<std::string_view> views(rows.begin(), rows.end());
      const TileMap map = test::mapFromRows(layout, views);
      const SegmentTester tester(map, TerrainTable::kWalk);
      for (int q = 0; q < 150; ++q) {
        // Inside the map by a tile and more, tile centres now and then (segments along the axes).
        auto pick = [&]() {
          const Cell cell{std::uniform_int_distribution<int>(2, 27)(random), std::uniform_int_distribution<int>(2, 21)(random)};
          if (q % 4 == 0) return layout.tileCenter(cell);
          return Vec2(layout.tileCenter(cell) + Vec2(std::uniform_real_distribution<float>(-0.4f, 0.4f)(random),
                                                std::uniform_real_distribution<float>(-0.4f, 0.4f)(random)));
        };
        Vec2 a = pick(), b = pick();
        if (q % 5 == 1) {
          // A piece of one hexagon's edge, away from its corners: priced at the dearer side.
          const TilePolygon hexagon = layout.tilePolygon(
              {std::uniform_int_distribution<int>(2, 27)(random), std::uniform_int_distribution<int>(2, 21)(random)});
          const int edge = std::uniform_int_distribution<int>(0, 5)(random);
          const Vec2 from = hexagon.corners[std::size_t(edge)], to = hexagon.corners[std::size_t((edge + 1) % 6)];
          std::uniform_real_distribution<float> share(0.1f, 0.9f);
          a = from + share(random) * (to - from);
          b = from + share(random) * (to - from);
        }
        const float radius = q % 3 == 0 ? 0.0f : std::uniform_real_distribution<float>(0.0f, 0.45f)(random);
        const SegmentProbe exact = probeSegment(map, TerrainTable::kWalk, a, b, radius);
        const SegmentProbe fast = tester.probe(a, b, radius);
        INFO(toString(layout.kind()) << " trial " << trial << " query " << q << " from " << a.transpose() << " to "
                                       << b.transpose() << " radius " << radius);
        REQUIRE(fast.clear == exact.clear);
        REQUIRE(exact.clear);
        CHECK(fast.cost == Approx(exact.cost).epsilon(1e-9).margin(1e-9));
        // A mean cost between the terrains' (several costs crossed), answered without the walk.
        const double mean = exact.length > 0.0 ? exact.cost / exact.length : 1.0;
        if (tester.answersWithoutWalk(a, b, radius) && std::abs(mean - 1.0) > 1e-3 && std::abs(mean - 2.0) > 1e-3 &&
            std::abs(mean - 3.0) > 1e-3) {
          ++pricedAcross;
        }
        ++total;
      }
    }
    INFO(toString(layout.kind()) << ": " << pricedAcross << " of " << total << " priced across several costs without the walk");
    CHECK(pricedAcross > total / 4);
  }
}

TEST_CASE("SegmentTester settles hex segments near walls and along edges as probeSegment does, without the walk",
          "[grid][los][property]") {
  // Patches of floor, hills and swamp with walls between, and segments from tile centres along
  // the twelve directions of the grid: to a neighbour (across an edge's middle) and to a
  // diagonal neighbour (through corners, and along the edge between the two tiles in between),
  // at narrow radii. Near walls a narrow body is settled by keeps(); pieces that run along an
  // edge are priced at the dearer side, as the walk prices them.
  std::mt19937 random(4417);
  for (const Layout& layout : test::allLayouts()) {
    if (!layout.isHex()) continue;
    int nearWalls = 0, nearWallsAnswered = 0, alongEdges = 0, alongEdgesAnswered = 0;
    for (int trial = 0; trial < 8; ++trial) {
      std::vector<std::string> rows(24, std::string(30, '.'));
      for (int patch = 0; patch < 24; ++patch) {
        const int cx = std::uniform_int_distribution<int>(0, 29)(random), cy = std::uniform_int_distribution<int>(0, 23)(random);
        const int r = std::uniform_int_distribution<int>(0, 3)(random);
        const char symbol = patch % 3 == 0 ? '#' : patch % 3 == 1 ? ',' : 'h';
        for (int y = std::max(cy - r, 0); y <= std::min(cy + r, 23); ++y) {
          for (int x = std::max(cx - r, 0); x <= std::min(cx + r, 29); ++x) {
            rows[std::size_t(y)][std::size_t(x)] = symbol == '#' && (x + y) % 3 != 0 ? '.' : symbol;
          }
        }
      }
      const std::vector<std::string_view> views(rows.begin(), rows.end());
      const TileMap map = test::mapFromRows(layout, views);
      const SegmentTester tester(map, TerrainTable::kWalk);
      for (int q = 0; q < 300; ++q) {
        const Cell cell{std::uniform_int_distribution<int>(4, 25)(random), std::uniform_int_distribution<int>(4, 19)(random)};
        const Vec2 a = layout.tileCenter(cell);
        const auto steps = layout.touching(cell);
        const NeighbourStep first = steps[std::size_t(q) % steps.size()];
        const NeighbourStep second = steps[(std::size_t(q) + std::size_t(q / 6 % 2)) % steps.size()];
        // One step doubled (across edges' middles), or two neighbouring steps (a diagonal).
        const Vec2 step = layout.tileCenter({cell.x + first.dx, cell.y + first.dy}) - a +
                          layout.tileCenter({cell.x + second.dx, cell.y + second.dy}) - a;
        const Vec2 b = a + step * float(std::uniform_int_distribution<int>(1, 4)(random));
        const float radius = q % 4 == 0 ? 0.0f : std::uniform_real_distribution<float>(0.05f, 0.45f)(random);
        const SegmentProbe exact = probeSegment(map, TerrainTable::kWalk, a, b, radius);
        const SegmentProbe fast = tester.probe(a, b, radius);
        INFO(toString(layout.kind()) << " trial " << trial << " query " << q << " from " << a.transpose() << " to "
                                       << b.transpose() << " radius " << radius);
        REQUIRE(fast.clear == exact.clear);
        if (exact.clear) CHECK(fast.cost == Approx(exact.cost).epsilon(1e-9).margin(1e-9));
        const bool answered = tester.answersWithoutWalk(a, b, radius);
        if (radius > 0.0f && !probeSegment(map, TerrainTable::kWalk, a, b, radius + 0.5f).clear) {
          ++nearWalls;
          nearWallsAnswered += answered ? 1 : 0;
        }
        const double mean = exact.clear && exact.length > 0.0 ? exact.cost / exact.length : 1.0;
        if (first.dx != second.dx || first.dy != second.dy) {
          if (std::abs(mean - std::round(mean)) > 1e-3) {
            ++alongEdges;
            alongEdgesAnswered += answered ? 1 : 0;
          }
        }
      }
    }
    INFO(toString(layout.kind()) << ": near walls " << nearWallsAnswered << " of " << nearWalls
                                   << " answered without the walk; diagonals across several costs " << alongEdgesAnswered
                                   << " of " << alongEdges);
    CHECK(nearWallsAnswered > nearWalls / 2);
    CHECK(alongEdgesAnswered > alongEdges / 3);
  }
}

TEST_CASE("SegmentTester settles hex segments at radius 0 that pass a wall's corner as probeSegment does, without the walk",
          "[grid][los][property]") {
  // Maps of floor with scattered walls, tile sizes and origins that round the float centres,
  // and segments between tile centres: those along the zig-zag of the grid pass exactly through
  // tile corners, and the float centres put them a rounding step inside or outside the wall
  // tile there. Each wall tile near such a segment is settled by its own hexagon (entered deeper
  // than a margin far above the walk's tolerance, or kept apart by it); only a segment within
  // that margin of a wall is left to the walk.
  std::mt19937 random(5077);
  for (const Layout& base : test::allLayouts()) {
    if (!base.isHex()) continue;
    int grazing = 0, grazingAnswered = 0, blocked = 0, clear = 0;
    for (int trial = 0; trial < 12; ++trial) {
      const float size = trial % 3 == 0 ? 1.0f : trial % 3 == 1 ? 0.7f : 3.3f;
      const Vec2 origin = trial % 2 ? Vec2(13.7f, -101.3f) : Vec2(0.0f, 0.0f);
      const Layout layout = base.kind() == LayoutKind::HexPointy ? Layout::hexPointy(size, origin, base.hexStagger())
                                                                 : Layout::hexFlat(size, origin, base.hexStagger());
      // (Terrain of several costs on every fourth map: the rule needs the cheapest ground round.)
      const TileMap map = test::randomMap(random, layout, 36, 30, trial % 2 ? 0.08 : 0.25, trial % 4 == 3);
      const SegmentTester tester(map, TerrainTable::kWalk);
      for (int q = 0; q < 400; ++q) {
        const Cell cell{std::uniform_int_distribution<int>(1, 34)(random), std::uniform_int_distribution<int>(1, 28)(random)};
        const Vec2 a = layout.tileCenter(cell);
        Vec2 b;
        if (q % 4 == 3) {
          b = layout.tileCenter({std::uniform_int_distribution<int>(0, 35)(random), std::uniform_int_distribution<int>(0, 29)(random)});
        } else {
          // Along a zig-zag of the grid (two neighbouring steps), 1 to 6 times.
          const auto steps = layout.touching(cell);
          const NeighbourStep first = steps[std::size_t(q) % steps.size()], second = steps[(std::size_t(q) + 1) % steps.size()];
          const Vec2 step = layout.tileCenter({cell.x + first.dx, cell.y + first.dy}) +
                            layout.tileCenter({cell.x + second.dx, cell.y + second.dy}) - 2.0f * a;
          b = a + step * float(std::uniform_int_distribution<int>(1, 6)(random));
        }
        const SegmentProbe exact = probeSegment(map, TerrainTable::kWalk, a, b, 0.0f);
        const SegmentProbe fast = tester.probe(a, b, 0.0f);
        INFO(toString(layout.kind()) << " trial " << trial << " query " << q << " from " << a.transpose() << " to "
                                       << b.transpose());
        REQUIRE(fast.clear == exact.clear);
        if (exact.clear) CHECK(fast.cost == Approx(exact.cost).epsilon(1e-9).margin(1e-9));
        if (!fast.clear && fast.hasBlocker) CHECK_FALSE(map.passable(fast.blocker, TerrainTable::kWalk));
        (exact.clear ? clear : blocked) += 1;
        // Clear, yet a wall within a thousandth of a tile: it passes a wall's corner (the bits
        // alone cannot tell these from segments that enter the wall).
        const bool nearWall = exact.clear && !probeSegment(map, TerrainTable::kWalk, a, b, 1e-3f * size).clear;
        if (nearWall) {
          ++grazing;
          grazingAnswered += tester.answersWithoutWalk(a, b, 0.0f) ? 1 : 0;
        }
      }
    }
    INFO(toString(base.kind()) << ": " << grazingAnswered << " of " << grazing << " clear segments within 1e-3 of a wall "
                                 << "answered without the walk; " << clear << " clear, " << blocked << " blocked");
    CHECK(clear > 500);
    CHECK(blocked > 500);
    // (Segments exactly through a corner, such as along a pointy map's columns at whole tile
    // sizes, stay with the walk: there the rule of touching decides.)
    CHECK(grazing > 150);
    CHECK(grazingAnswered > grazing / 2);
  }
}

TEST_CASE("SegmentTester prices short hex segments in the map's first and last lines of tiles as probeSegment does",
          "[grid][los][property]") {
  // Hills along the border, floor inside: a segment inside a border tile (toward its point, at
  // any angle) crosses the band of the line of tiles beyond the map, which no bit stores.
  std::mt19937 random(2203);
  for (const Layout& layout : test::allLayouts()) {
    if (!layout.isHex()) continue;
    std::vector<std::string> rows(12, std::string(14, '.'));
    for (std::size_t y = 0; y < rows.size(); ++y) {
      for (std::size_t x = 0; x < rows[y].size(); ++x) {
        if (y < 2 || y + 2 >= rows.size() || x < 2 || x + 2 >= rows[y].size()) rows[y][x] = 'h';
      }
    }
    const std::vector<std::string_view> views(rows.begin(), rows.end());
    const TileMap map = test::mapFromRows(layout, views);
    const SegmentTester tester(map, TerrainTable::kWalk);
    std::uniform_real_distribution<float> offset(-0.55f, 0.55f);
    for (int q = 0; q < 2000; ++q) {
      const bool flat = layout.kind() == LayoutKind::HexFlat;
      const std::int32_t lines = flat ? map.width() : map.height(), length = flat ? map.height() : map.width();
      const std::int32_t line = q % 2 ? 0 : lines - 1, k = std::uniform_int_distribution<std::int32_t>(0, length - 1)(random);
      const Cell cell = flat ? Cell{line, k} : Cell{k, line};
      const Vec2 centre = layout.tileCenter(cell);
      const Vec2 a = centre + Vec2(offset(random), offset(random)), b = centre + Vec2(offset(random), offset(random));
      const SegmentProbe exact = probeSegment(map, TerrainTable::kWalk, a, b, 0.0f);
      const SegmentProbe fast = tester.probe(a, b, 0.0f);
      INFO(toString(layout.kind()) << " query " << q << " from " << a.transpose() << " to " << b.transpose());
      REQUIRE(fast.clear == exact.clear);
      if (exact.clear) CHECK(fast.cost == Approx(exact.cost).epsilon(1e-9).margin(1e-9));
    }
  }
}

TEST_CASE("SegmentTester: open ground, costly terrain and bad input", "[grid][los]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "........",
                                                               "........",
                                                               "...,,...",
                                                               "........",
                                                               "#.......",
                                                           });
  const SegmentTester tester(map, TerrainTable::kWalk);
  CHECK(tester.cheapestCost() == 1.0);
  CHECK(tester.cheaplyClear(Vec2(0.5f, 0.5f), Vec2(7.5f, 1.5f), 0.4f));
  // Through swamp: clear but dearer, so not cheaply clear, and the cost is the exact one.
  CHECK_FALSE(tester.cheaplyClear(Vec2(0.5f, 2.5f), Vec2(7.5f, 2.5f), 0.0f));
  CHECK(tester.probe(Vec2(0.5f, 2.5f), Vec2(7.5f, 2.5f), 0.0f).cost == Approx(5.0 + 2.0 * 3.0));
  // Too close to the wall for the radius; off the map; NaN.
  CHECK_FALSE(tester.probe(Vec2(1.3f, 3.5f), Vec2(1.3f, 4.5f), 0.4f).clear);
  CHECK_FALSE(tester.probe(Vec2(0.5f, 0.5f), Vec2(-3.0f, 0.5f), 0.0f).clear);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK_FALSE(tester.probe(Vec2(nan, 0.5f), Vec2(1.5f, 0.5f), 0.0f).clear);
  CHECK_FALSE(tester.cheaplyClear(Vec2(0.5f, 0.5f), Vec2(1.5f, 0.5f), nan));
  CHECK(tester.openAround({5, 0}) == false);  // touches the map edge
  CHECK(tester.openAround({6, 1}));
  CHECK_FALSE(tester.openAround({2, 1}));  // touches swamp
  CHECK_FALSE(tester.openAround({1, 3}));  // touches the wall
  // Boxes of tiles: open ground, one holding swamp or the wall, and boxes the answer refuses.
  CHECK(tester.allCheapest({0, 0}, {7, 1}));
  CHECK(tester.allCheapest({5, 2}, {7, 4}));
  CHECK(tester.allCheapest({3, 3}, {3, 3}));
  CHECK_FALSE(tester.allCheapest({0, 0}, {3, 2}));  // swamp at (3, 2)
  CHECK_FALSE(tester.allCheapest({0, 4}, {0, 4}));  // the wall
  CHECK_FALSE(tester.allCheapest({0, 3}, {7, 4}));
  CHECK_FALSE(tester.allCheapest({-1, 0}, {2, 1}));  // reaches off the map
  CHECK_FALSE(tester.allCheapest({5, 3}, {8, 4}));
  CHECK_FALSE(tester.allCheapest({3, 1}, {2, 1}));  // empty
}

TEST_CASE("SegmentTester::cheapLines finds the next tile that is not cheapest, by rows and by columns",
          "[grid][los][property]") {
  std::mt19937 random(29);
  for (int trial = 0; trial < 20; ++trial) {
    // Widths around a machine word's edge (63, 64, 65, 130 tiles) and odd shapes.
    const std::int32_t width = std::array<std::int32_t, 5>{7, 63, 64, 65, 130}[std::size_t(trial % 5)];
    const std::int32_t height = 3 + trial * 7;
    const TileMap map = test::randomMap(random, Layout::square(), width, height, trial % 2 ? 0.05 : 0.3, trial % 3 == 0);
    const SegmentTester tester(map, TerrainTable::kWalk);
    const double cheapest = tester.cheapestCost();
    auto cheap = [&](Cell cell) {
      return map.contains(cell) && double(map.cost(cell, TerrainTable::kWalk)) == cheapest;
    };
    for (const bool column : {false, true}) {
      const BitLines lines = tester.cheapLines(column);
      const std::int32_t count = column ? width : height, length = column ? height : width;
      REQUIRE(lines.count == count);
      REQUIRE(lines.length == length);
      std::uniform_int_distribution<std::int32_t> along(-3, length + 3), across(-2, count + 1);
      for (int q = 0; q < 400; ++q) {
        const std::int32_t line = across(random), from = along(random), to = along(random);
        std::int32_t expected = to + 1;
        for (std::int32_t k = from; k <= to; ++k) {
          if (!cheap(column ? Cell{line, k} : Cell{k, line})) {
            expected = k;
            break;
          }
        }
        INFO("line " << line << " from " << from << " to " << to << (column ? " (column)" : " (row)"));
        REQUIRE(lines.nextNotCheapest(line, from, to) == expected);
        REQUIRE(lines.anyNotCheapest(line, from, to) == (expected <= to));
      }
    }
  }
  // Hex maps have no bitmaps: every tile must be looked at.
  const TileMap hex = test::randomMap(random, Layout::hexPointy(), 5, 5, 0.0, false);
  const BitLines none = SegmentTester(hex, TerrainTable::kWalk).cheapLines(false);
  CHECK(none.nextNotCheapest(2, 1, 3) == 1);
  CHECK(none.anyNotCheapest(2, 1, 3));
}

TEST_CASE("SegmentTester::allCheapest answers for any box as a tile-by-tile look would", "[grid][los][property]") {
  std::mt19937 random(83);
  for (int trial = 0; trial < 24; ++trial) {
    const std::int32_t width = std::array<std::int32_t, 4>{1, 9, 64, 97}[std::size_t(trial % 4)];
    const std::int32_t height = 1 + trial * 5;
    const TileMap map =
        test::randomMap(random, Layout::square(), width, height, std::array<double, 3>{0.0, 0.02, 0.3}[std::size_t(trial % 3)],
                        trial % 2 == 0);
    const MobilityId mobility = trial % 3 == 1 ? TerrainTable::kFly : TerrainTable::kWalk;
    const SegmentTester tester(map, mobility);
    // (A map the mobility cannot enter anywhere has no cheapest tile.)
    auto cheap = [&](Cell cell) {
      return map.passable(cell, mobility) && double(map.cost(cell, mobility)) == tester.cheapestCost();
    };
    std::uniform_int_distribution<std::int32_t> x(-2, width + 1), y(-2, height + 1);
    int open = 0;
    for (int q = 0; q < 300; ++q) {
      Cell low{x(random), y(random)}, high{x(random), y(random)};
      if (q % 2 == 0) {  // mostly small boxes inside the map, where open ones are common
        low = {std::clamp(low.x, 0, width - 1), std::clamp(low.y, 0, height - 1)};
        high = {std::min(low.x + q % 4, width - 1), std::min(low.y + q % 3, height - 1)};
      }
      bool expected = low.x >= 0 && low.y >= 0 && high.x < width && high.y < height && low.x <= high.x && low.y <= high.y;
      for (std::int32_t j = low.y; expected && j <= high.y; ++j) {
        for (std::int32_t i = low.x; expected && i <= high.x; ++i) expected = cheap({i, j});
      }
      INFO("trial " << trial << " box " << low.x << "," << low.y << " .. " << high.x << "," << high.y);
      REQUIRE(tester.allCheapest(low, high) == expected);
      open += expected;
    }
    bool anyCheap = false;
    for (std::int32_t i = 0; i < map.tileCount(); ++i) anyCheap = anyCheap || cheap(map.cellAt(i));
    if (anyCheap) CHECK(open > 0);
  }
  // Hex maps have no table: the answer is always "look at the tiles".
  const TileMap hex = test::randomMap(random, Layout::hexPointy(), 5, 5, 0.0, false);
  CHECK_FALSE(SegmentTester(hex, TerrainTable::kWalk).allCheapest({1, 1}, {2, 2}));
}

TEST_CASE("SegmentTester::forHexTilesNear visits every tile within reach above the cost limit, and only such tiles",
          "[grid][los][property]") {
  std::mt19937 random(404);
  int visitedNear = 0;
  for (const Layout& layout : {Layout::hexPointy(), Layout::hexFlat(), Layout::hexPointy(1.0f, Vec2::Zero(), HexStagger::Even),
                               Layout::hexFlat(1.0f, Vec2::Zero(), HexStagger::Even)}) {
    for (int trial = 0; trial < 12; ++trial) {
      const TileMap map = test::randomMap(random, layout, 5 + trial * 3, 4 + trial * 2, 0.15, true);
      const SegmentTester tester(map, TerrainTable::kWalk);
      std::uniform_real_distribution<double> x(-2.0, map.width() + 2.0), y(-2.0, map.height() + 2.0);
      for (int q = 0; q < 60; ++q) {
        const Eigen::Vector2d a(x(random), y(random)), b = q % 5 == 0 ? a : Eigen::Vector2d(x(random), y(random));
        const double reach = std::uniform_real_distribution<double>(0.0, 2.0)(random);
        const float limit = q % 3 == 0 ? std::numeric_limits<float>::infinity() : std::array{1.0f, 2.0f, 3.0f}[std::size_t(q % 3)];
        std::vector<Cell> visited;
        const bool all = tester.forHexTilesNear(a, b, reach, limit, [&](Cell cell) {
          visited.push_back(cell);
          return true;
        });
        REQUIRE(all);
        // Brute force over every tile round the map: a tile above the limit (or off the map)
        // whose polygon comes within reach of the segment must have been visited...
        for (std::int32_t cy = -4; cy < map.height() + 4; ++cy) {
          for (std::int32_t cx = -4; cx < map.width() + 4; ++cx) {
            const Cell cell{cx, cy};
            const float cost = map.cost(cell, TerrainTable::kWalk);
            if (!(cost > limit || cost == TerrainTable::kImpassable)) continue;
            // A hexagon lies within its circumradius of its centre: a centre further than that
            // and the reach from the segment cannot be near (the cheap bound, before sampling).
            const Eigen::Vector2d centre = layout.localCenter(cell), ab = b - a;
            const double t = ab.squaredNorm() > 0.0 ? std::clamp((centre - a).dot(ab) / ab.squaredNorm(), 0.0, 1.0) : 0.0;
            if ((a + ab * t - centre).norm() > reach + kHexCircumradius + 1e-6) continue;
            std::array<Eigen::Vector2d, 6> corners;
            const int count = layout.localCorners(cell, corners);
            // Distance from the segment to the hexagon, sampled finely along the segment.
            double nearest = 1e9;
            for (int s = 0; s <= 200; ++s) {
              const Eigen::Vector2d p = a + (b - a) * (s / 200.0);
              bool inside = true;
              for (int i = 0; i < count; ++i) {
                const Eigen::Vector2d e = corners[std::size_t((i + 1) % count)] - corners[std::size_t(i)], to = p - corners[std::size_t(i)];
                inside = inside && e.x() * to.y() - e.y() * to.x() >= 0.0;
              }
              double d = inside ? 0.0 : 1e9;
              for (int i = 0; i < count; ++i) {
                const Eigen::Vector2d c = corners[std::size_t(i)], e = corners[std::size_t((i + 1) % count)] - c;
                const double t = std::clamp((p - c).dot(e) / e.squaredNorm(), 0.0, 1.0);
                d = std::min(d, (c + e * t - p).norm());
              }
              nearest = std::min(nearest, d);
            }
            if (nearest < reach - 1e-3) {
              INFO("tile " << cx << "," << cy << " at " << nearest << " within " << reach);
              REQUIRE(std::find(visited.begin(), visited.end(), cell) != visited.end());
              ++visitedNear;
            }
          }
        }
        // ... and every tile visited is above the limit (or off the map), and near: within
        // 2/√3 × reach (where two of its grown sides meet), give or take a segment's tilt.
        for (const Cell cell : visited) {
          const float cost = map.cost(cell, TerrainTable::kWalk);
          REQUIRE((cost > limit || cost == TerrainTable::kImpassable));
          std::array<Eigen::Vector2d, 6> corners;
          const int count = layout.localCorners(cell, corners);
          bool inside = true;
          for (int i = 0; i < count; ++i) {
            const Eigen::Vector2d e = corners[std::size_t((i + 1) % count)] - corners[std::size_t(i)], to = a - corners[std::size_t(i)];
            inside = inside && e.x() * to.y() - e.y() * to.x() >= 0.0;
          }
          INFO("tile " << cell.x << "," << cell.y << " visited, reach " << reach);
          REQUIRE((inside || detail::closerThan(a, b, corners, count, reach * 2.0 / std::sqrt(3.0) + 0.01)));
        }
      }
    }
  }
  CHECK(visitedNear > 1000);
}
