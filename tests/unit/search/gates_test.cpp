// SPDX-License-Identifier: MIT
// Gates (the search's view of doors): per-query open / closed / solid edges with crossing costs.
#include <catch2/catch.hpp>

#include "search/search_context.hpp"
#include "search/search_grid.hpp"
#include "support/gate_rules.hpp"
#include "support/reference_search.hpp"
#include "support/test_maps.hpp"

#include <map>
#include <random>

using namespace rpgnav;

using test::TableRule;
using test::referenceRule;

TEST_CASE("a closed gate is a wall, an open one costs its price, a solid one blocks diagonals past its ends",
          "[search][gates]") {
  // A wall with a one-tile doorway at (4, 2); a long way round through the gap at the bottom.
  const TileMap map = test::mapFromAscii(Layout::square(), {
      "....#....",
      "....#....",
      ".........",
      "....#....",
      "....#....",
      "....#....",
      ".........",
  });
  const std::vector<SearchGate> gates{{{3, 2}, {4, 2}}};
  auto grid = SearchGrid::build(map, TerrainTable::kWalk, {}, gates);
  REQUIRE(grid.ok());
  SearchContext context;
  SearchResult result;
  TableRule rule;
  SearchRequest request;
  request.start = {0, 2};
  request.goal = {8, 2};
  request.gates = &rule;

  rule.crossings = {{true, false, 0}};
  REQUIRE(context.findPath(*grid, request, result) == Status::Ok);
  CHECK(result.costUnits == 8 * kCostScale);
  CHECK(rule.asked > 0);

  rule.crossings = {{true, false, 3 * kCostScale}};
  REQUIRE(context.findPath(*grid, request, result) == Status::Ok);
  CHECK(result.costUnits == 11 * kCostScale);

  // Dearer than the way round (4 tiles down and back up, diagonally): the search goes round.
  rule.crossings = {{true, false, 100 * kCostScale}};
  REQUIRE(context.findPath(*grid, request, result) == Status::Ok);
  CHECK(std::find(result.path.begin(), result.path.end(), Cell{4, 6}) != result.path.end());

  rule.crossings = {{false, true, 0}};
  REQUIRE(context.findPath(*grid, request, result) == Status::Ok);
  CHECK(std::find(result.path.begin(), result.path.end(), Cell{4, 2}) == result.path.end());
  CHECK(std::find(result.path.begin(), result.path.end(), Cell{4, 6}) != result.path.end());

  // Without a rule every gate is open and free.
  request.gates = nullptr;
  REQUIRE(context.findPath(*grid, request, result) == Status::Ok);
  CHECK(result.costUnits == 8 * kCostScale);
}

TEST_CASE("gates on edges that are not between two neighbouring map tiles are refused", "[search][gates]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {"....", "...."});
  for (const SearchGate gate : {SearchGate{{0, 0}, {1, 1}}, SearchGate{{0, 0}, {2, 0}}, SearchGate{{3, 1}, {4, 1}},
                                SearchGate{{0, 0}, {0, 0}}}) {
    auto grid = SearchGrid::build(map, TerrainTable::kWalk, {}, std::vector<SearchGate>{gate});
    CHECK(grid.status() == Status::InvalidArgument);
  }
}

TEST_CASE("searches with gates equal Dijkstra with the same rule on random maps", "[search][gates][property]") {
  std::mt19937 random(7);
  int queries = 0, differentFromOpen = 0;
  for (const Layout& layout : {Layout::square(), Layout::square(1.0f, 4), Layout::hexPointy(), Layout::hexFlat()}) {
    for (int trial = 0; trial < 60; ++trial) {
      const int w = std::uniform_int_distribution<int>(2, 24)(random);
      const int h = std::uniform_int_distribution<int>(2, 24)(random);
      const TileMap map = test::randomMap(random, layout, w, h, 0.25);
      const std::vector<SearchGate> gates = test::randomGates(random, map, w * h / 4);
      for (int landmarks : {0, 4}) {
        SearchGridSettings settings;
        settings.landmarks = landmarks;
        auto grid = SearchGrid::build(map, TerrainTable::kWalk, settings, gates);
        REQUIRE(grid.ok());
        TableRule rule;
        for (std::size_t i = 0; i < gates.size(); ++i) {
          const int kind = std::uniform_int_distribution<int>(0, 3)(random);
          const std::int64_t cost = std::uniform_int_distribution<std::int64_t>(0, 3 * kCostScale)(random);
          rule.crossings.push_back(kind == 0 ? GateCrossing{false, true, 0} : GateCrossing{true, kind == 1, cost});
        }
        const test::StepRule reference = referenceRule(map, gates, rule);
        SearchContext context;
        SearchResult result;
        for (int q = 0; q < 4; ++q) {
          const Cell start{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
          if (!map.passable(start, TerrainTable::kWalk)) continue;
          const std::vector<std::int64_t> best = test::dijkstraCosts(map, TerrainTable::kWalk, start, reference);
          const std::vector<std::int64_t> open = test::dijkstraCosts(map, TerrainTable::kWalk, start);
          for (int g = 0; g < 5; ++g) {
            const Cell goal{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
            const std::int64_t expected = best[std::size_t(map.index(goal))];
            differentFromOpen += expected != open[std::size_t(map.index(goal))] ? 1 : 0;
            for (bool jumps : {true, false}) {
              SearchRequest request;
              request.start = start;
              request.goal = goal;
              request.jumpPoints = jumps;
              request.gates = &rule;
              context.findPath(*grid, request, result);
              INFO(toString(layout.kind()) << " " << layout.connectivity() << "-way, trial " << trial << ", jumps "
                                             << jumps << ", landmarks " << landmarks);
              if (expected < 0) {
                REQUIRE(result.status == (map.passable(goal, TerrainTable::kWalk) ? Status::NoPath : Status::GoalBlocked));
                continue;
              }
              REQUIRE(result.status == Status::Ok);
              REQUIRE(result.costUnits == expected);
              REQUIRE(result.path.front() == start);
              REQUIRE(result.path.back() == goal);
              REQUIRE(test::pathCost(map, TerrainTable::kWalk, result.path, reference) == expected);
              ++queries;
            }
          }
        }
      }
    }
  }
  CHECK(queries > 2000);
  CHECK(differentFromOpen > 200);  // the gates mattered
}
