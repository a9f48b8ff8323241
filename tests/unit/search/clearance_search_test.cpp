// SPDX-License-Identifier: MIT
// The search for characters of any size: only tiles and steps the body fits through,
// optimal among those, checked against a plain Dijkstra whose fit rule comes from the tile
// polygons by brute force (support/path_checks), not from Clearance.
#include <catch2/catch.hpp>

#include "grid/clearance.hpp"
#include "search/search_context.hpp"
#include "search/search_grid.hpp"
#include "support/path_checks.hpp"
#include "support/reference_search.hpp"
#include "support/test_maps.hpp"

#include <random>

using namespace rpgnav;

namespace {

double bruteClearance(const TileMap& map, MobilityId mobility, Cell from, Cell to, double radius) {
  return test::BodyFitRule::stepClearance(map, mobility, from, to, radius);
}

using FitRule = test::BodyFitRule;

SearchResult searchWide(const SearchGrid& grid, const Clearance& clearance, Cell start, Cell goal, double radius,
                        bool jumpPoints = true) {
  SearchContext context;
  SearchResult result;
  SearchRequest request;
  request.start = start;
  request.goal = goal;
  request.clearance = &clearance;
  request.bodyTiles = radius;
  request.jumpPoints = jumpPoints;
  context.findPath(grid, request, result);
  return result;
}

}  // namespace

TEST_CASE("the search for wide characters is optimal among the routes they fit through, on random square and hex maps",
          "[search][clearance][property]") {
  std::mt19937 random(2711);
  const double radii[] = {0.5, 0.6, 0.75, 1.0, 1.2, 1.5, 2.0, 2.5, 3.0};
  int found = 0, tooWide = 0, blockedEnds = 0;
  for (const Layout& layout : {Layout::square(), Layout::square(1.0f, 4), Layout::hexPointy(), Layout::hexFlat(),
                               Layout::hexFlat(0.5f, Vec2(3.0f, 1.0f), HexStagger::Even)}) {
    for (int trial = 0; trial < 24; ++trial) {
      const int w = std::uniform_int_distribution<int>(8, 34)(random), h = std::uniform_int_distribution<int>(8, 30)(random);
      const TileMap map = test::randomMap(random, layout, w, h, 0.02 + 0.015 * (trial % 5));
      const MobilityId mobility = trial % 3 == 2 ? TerrainTable::kSwim : TerrainTable::kWalk;
      auto grid = SearchGrid::build(map, mobility);
      REQUIRE(grid.ok());
      const Clearance clearance = Clearance::build(map, mobility);
      const double radius = radii[std::size_t(trial) % std::size(radii)];
      const FitRule rule(map, mobility, radius);
      std::vector<Cell> fitting;
      for (std::int32_t i = 0; i < map.tileCount(); ++i) {
        if (rule.fits(map.cellAt(i))) fitting.push_back(map.cellAt(i));
      }
      // Ends mostly where the body fits (else mostly nothing would be asked), now and then anywhere.
      auto anyEnd = [&] {
        if (!fitting.empty() && std::uniform_int_distribution<int>(0, 9)(random) < 8) {
          return fitting[std::uniform_int_distribution<std::size_t>(0, fitting.size() - 1)(random)];
        }
        return Cell{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
      };
      INFO(toString(layout.kind()) << " " << layout.connectivity() << "-way, trial " << trial << ", radius " << radius);
      for (int q = 0; q < 10; ++q) {
        const Cell start = anyEnd(), goal = anyEnd();
        if (!map.passable(start, mobility)) continue;
        INFO("from " << start.x << "," << start.y << " to " << goal.x << "," << goal.y);
        // Square 8-way maps: with jump points (walked on the tiles the body fits on) and without.
        const bool jumpPoints = q % 2 == 0;
        INFO("jump points " << jumpPoints);
        const SearchResult result = searchWide(grid.value(), clearance, start, goal, radius, jumpPoints);
        if (!rule.fits(start)) {
          REQUIRE(result.status == Status::StartBlocked);
          ++blockedEnds;
          continue;
        }
        if (!map.passable(goal, mobility) || !rule.fits(goal)) {
          REQUIRE(result.status == Status::GoalBlocked);
          ++blockedEnds;
          continue;
        }
        const auto stepRule = [&](Cell from, Cell to) { return rule.step(from, to); };
        const std::int64_t expected = test::dijkstraCosts(map, mobility, start, stepRule)[std::size_t(map.index(goal))];
        if (expected < 0) {
          REQUIRE(result.status == Status::NoPath);
          ++tooWide;
          continue;
        }
        INFO(result.reason);
        REQUIRE(result.status == Status::Ok);
        REQUIRE(result.costUnits == expected);
        REQUIRE(result.path.front() == start);
        REQUIRE(result.path.back() == goal);
        REQUIRE(test::pathCost(map, mobility, result.path, stepRule) == expected);
        // Every step, centre to centre, keeps the radius from every forbidden tile and the edge.
        for (std::size_t i = 1; i < result.path.size(); ++i) {
          REQUIRE(bruteClearance(map, mobility, result.path[i - 1], result.path[i], radius) >= radius - 1e-6);
        }
        ++found;
      }
    }
  }
  CHECK(found > 150);
  CHECK(tooWide > 10);
  CHECK(blockedEnds > 50);
}

TEST_CASE("jump points walked on the tiles a wide body fits on find optimal routes (square 8-way, many maps)",
          "[search][clearance][property]") {
  // The jumps' stops (forced neighbours on both sides, cost borders, the goal) along rows sixteen
  // tiles at a time and down columns tile by tile: every answer against Dijkstra's.
  std::mt19937 random(2712);
  const double radii[] = {0.5, 0.75, 1.0, 1.5, 2.0};
  int compared = 0;
  for (int trial = 0; trial < 160; ++trial) {
    const int w = std::uniform_int_distribution<int>(10, 60)(random), h = std::uniform_int_distribution<int>(8, 40)(random);
    const TileMap map = test::randomMap(random, Layout::square(), w, h, 0.01 + 0.01 * (trial % 6), trial % 2 == 0);
    auto grid = SearchGrid::build(map, TerrainTable::kWalk);
    REQUIRE(grid.ok());
    const Clearance clearance = Clearance::build(map, TerrainTable::kWalk);
    const double radius = radii[std::size_t(trial) % std::size(radii)];
    const FitRule rule(map, TerrainTable::kWalk, radius);
    std::vector<Cell> fitting;
    for (std::int32_t i = 0; i < map.tileCount(); ++i) {
      if (rule.fits(map.cellAt(i))) fitting.push_back(map.cellAt(i));
    }
    if (fitting.size() < 2) continue;
    const auto stepRule = [&](Cell from, Cell to) { return rule.step(from, to); };
    std::uniform_int_distribution<std::size_t> pick(0, fitting.size() - 1);
    for (int s = 0; s < 3; ++s) {
      const Cell start = fitting[pick(random)];
      const std::vector<std::int64_t> best = test::dijkstraCosts(map, TerrainTable::kWalk, start, stepRule);
      for (int g = 0; g < 12; ++g) {
        const Cell goal = fitting[pick(random)];
        INFO("trial " << trial << " " << w << "x" << h << " radius " << radius << " from " << start.x << "," << start.y << " to "
                      << goal.x << "," << goal.y);
        const SearchResult result = searchWide(grid.value(), clearance, start, goal, radius);
        const std::int64_t expected = best[std::size_t(map.index(goal))];
        if (expected < 0) {
          REQUIRE(result.status == Status::NoPath);
          continue;
        }
        REQUIRE(result.status == Status::Ok);
        REQUIRE(result.costUnits == expected);
        REQUIRE(test::pathCost(map, TerrainTable::kWalk, result.path, stepRule) == expected);
        ++compared;
      }
    }
  }
  CHECK(compared > 3000);
}

TEST_CASE("a character too wide for every route gets NoPath naming that; bad clearance requests are refused",
          "[search][clearance]") {
  // Two rooms joined by a gap one tile wide (column 6 open on row 4 only): a body of radius 0.5
  // passes, one of radius 1 does not, though both fit in each room.
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "#############",
                                                               "#.....#.....#",
                                                               "#.....#.....#",
                                                               "#.....#.....#",
                                                               "#...........#",
                                                               "#.....#.....#",
                                                               "#.....#.....#",
                                                               "#.....#.....#",
                                                               "#############",
                                                           });
  auto grid = SearchGrid::build(map, TerrainTable::kWalk);
  REQUIRE(grid.ok());
  const Clearance clearance = Clearance::build(map, TerrainTable::kWalk);
  const SearchResult narrow = searchWide(grid.value(), clearance, {3, 4}, {9, 4}, 0.5);
  CHECK(narrow.status == Status::Ok);
  const SearchResult wide = searchWide(grid.value(), clearance, {3, 4}, {9, 4}, 1.0);
  CHECK(wide.status == Status::NoPath);
  CHECK(std::string(wide.reason) == "no route is wide enough for the character");
  // Ends beside a wall: a body of radius 1 does not fit there.
  CHECK(searchWide(grid.value(), clearance, {1, 1}, {9, 4}, 1.0).status == Status::StartBlocked);
  CHECK(searchWide(grid.value(), clearance, {3, 4}, {11, 7}, 1.0).status == Status::GoalBlocked);
  CHECK(searchWide(grid.value(), clearance, {3, 4}, {3, 5}, 1.0).status == Status::Ok);
  // Radius 0: the plain search (jump points and all), same cost as without a clearance.
  CHECK(searchWide(grid.value(), clearance, {1, 1}, {11, 7}, 0.0).status == Status::Ok);
  // Bad requests.
  CHECK(searchWide(grid.value(), clearance, {3, 4}, {9, 4}, 3.5).status == Status::InvalidArgument);
  CHECK(searchWide(grid.value(), clearance, {3, 4}, {9, 4}, std::nan("")).status == Status::InvalidArgument);
  CHECK(searchWide(grid.value(), clearance, {3, 4}, {9, 4}, -1.0).status == Status::InvalidArgument);
  const Clearance flying = Clearance::build(map, TerrainTable::kFly);
  CHECK(searchWide(grid.value(), flying, {3, 4}, {9, 4}, 1.0).status == Status::InvalidArgument);
  const TileMap other = test::mapFromAscii(Layout::square(), {"....", "...."});
  const Clearance elsewhere = Clearance::build(other, TerrainTable::kWalk);
  CHECK(searchWide(grid.value(), elsewhere, {3, 4}, {9, 4}, 1.0).status == Status::InvalidArgument);
  SearchContext context;
  SearchResult result;
  SearchRequest request;
  request.start = {3, 4};
  request.goal = {9, 4};
  request.clearance = &clearance;
  request.bodyTiles = 1.0;
  const SegmentTester lines(map, TerrainTable::kWalk);
  request.sightLines = &lines;  // (a wide body gets the tile search)
  CHECK(context.findPath(grid.value(), request, result) == Status::InvalidArgument);
}
