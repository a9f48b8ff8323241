// SPDX-License-Identifier: MIT
// SearchRequest::nearestIfUnreachable (a reachable goal): for a goal tile the search
// cannot reach, the reachable tile whose centre is nearest to the asked point, ties by cost —
// judged by brute force: every tile's cost from a plain Dijkstra with the same rules (gates, body
// width), then the nearest of the reachable ones, written here from the definition.
#include <catch2/catch.hpp>

#include "grid/clearance.hpp"
#include "search/search_context.hpp"
#include "search/search_grid.hpp"
#include "support/gate_rules.hpp"
#include "support/path_checks.hpp"
#include "support/reference_search.hpp"
#include "support/test_maps.hpp"

#include <random>

using namespace rpgnav;

namespace {

// What the answer must be, from the definition: among tiles with a cost (reachable) that `fits`,
// those whose centre is nearest to `target` (layout space; equal within 1e-9 relative), and the
// least cost among them.
struct Expected {
  double distance = std::numeric_limits<double>::infinity();  // squared
  std::int64_t cost = -1;
};
Expected bruteNearest(const TileMap& map, const std::vector<std::int64_t>& costs, const Eigen::Vector2d& target,
                      const std::function<bool(Cell)>& fits) {
  Expected best;
  for (std::int32_t i = 0; i < map.tileCount(); ++i) {
    const Cell c = map.cellAt(i);
    if (costs[std::size_t(i)] < 0 || !fits(c)) continue;
    best.distance = std::min(best.distance, (map.layout().localCenter(c) - target).squaredNorm());
  }
  for (std::int32_t i = 0; i < map.tileCount(); ++i) {
    const Cell c = map.cellAt(i);
    if (costs[std::size_t(i)] < 0 || !fits(c)) continue;
    if ((map.layout().localCenter(c) - target).squaredNorm() <= best.distance * (1.0 + 1e-9) &&
        (best.cost < 0 || costs[std::size_t(i)] < best.cost)) {
      best.cost = costs[std::size_t(i)];
    }
  }
  return best;
}

// Checks one answer: the goal itself when it can be reached, else the nearest reachable tile.
void checkAnswer(const TileMap& map, MobilityId mobility, const SearchResult& result, Cell start, Cell goal,
                 const Eigen::Vector2d& target, const std::vector<std::int64_t>& costs, const std::function<bool(Cell)>& fits,
                 const test::StepRule& steps) {
  INFO("from " << start.x << "," << start.y << " to " << goal.x << "," << goal.y << " target " << target.x() << ","
               << target.y() << ": " << toString(result.status) << " " << result.reason);
  const std::int64_t direct = costs[std::size_t(map.index(goal))];
  if (direct >= 0 && fits(goal)) {
    REQUIRE(result.status == Status::Ok);
    REQUIRE(result.reached == goal);
    REQUIRE(result.costUnits == direct);
  } else {
    const Expected expected = bruteNearest(map, costs, target, fits);
    REQUIRE(expected.cost >= 0);  // (the start itself is reachable)
    REQUIRE(result.status == Status::PartialPath);
    INFO("reached " << result.reached.x << "," << result.reached.y);
    const double distance = (map.layout().localCenter(result.reached) - target).squaredNorm();
    REQUIRE(distance <= expected.distance * (1.0 + 1e-9));
    REQUIRE(fits(result.reached));
    REQUIRE(costs[std::size_t(map.index(result.reached))] == expected.cost);
    REQUIRE(result.costUnits == expected.cost);
  }
  REQUIRE(result.path.front() == start);
  REQUIRE(result.path.back() == result.reached);
  REQUIRE(test::pathCost(map, mobility, result.path, steps) == result.costUnits);
}

// A target point: mostly inside the map (so that its tile is the goal), now and then off it.
Eigen::Vector2d randomTarget(std::mt19937& random, const TileMap& map) {
  const Eigen::Vector2d low = map.layout().localCenter({0, 0}) - Eigen::Vector2d(3.0, 3.0);
  const Eigen::Vector2d high = map.layout().localCenter({map.width() - 1, map.height() - 1}) + Eigen::Vector2d(3.0, 3.0);
  return {std::uniform_real_distribution<double>(low.x(), high.x())(random),
          std::uniform_real_distribution<double>(low.y(), high.y())(random)};
}

// The goal tile for a target: its own tile, or the map tile nearest in offset coordinates.
Cell goalFor(const TileMap& map, const Eigen::Vector2d& target) {
  const Cell c = map.layout().tileAtLocal(target);
  return {std::clamp(c.x, 0, map.width() - 1), std::clamp(c.y, 0, map.height() - 1)};
}

// A goal as a test asks it: the tile for the target, the point in world units, and the point as
// the search sees it (after the float rounding of world units).
struct Asked {
  Cell goal;
  Vec2 world;
  Eigen::Vector2d local;
};
Asked askAt(const TileMap& map, const Eigen::Vector2d& target) {
  const Vec2 world = map.layout().toWorld(target);
  return {goalFor(map, target), world, map.layout().toLocal(world)};
}

SearchRequest nearestRequest(Cell start, const Asked& asked) {
  SearchRequest request;
  request.start = start;
  request.goal = asked.goal;
  request.nearestIfUnreachable = true;
  request.nearestTo = asked.world;
  return request;
}

}  // namespace

TEST_CASE("the nearest reachable tile: islands, walls and water on random square and hex maps, ties by cost",
          "[search][nearest][property]") {
  std::mt19937 random(5501);
  int partial = 0, ties = 0;
  for (const Layout& layout : {Layout::square(), Layout::square(1.0f, 4), Layout::hexPointy(), Layout::hexFlat(),
                               Layout::hexPointy(1.0f, Vec2(0.0f, 0.0f), HexStagger::Even)}) {
    for (int trial = 0; trial < 16; ++trial) {
      const int w = std::uniform_int_distribution<int>(4, 28)(random), h = std::uniform_int_distribution<int>(4, 24)(random);
      const TileMap map = test::randomMap(random, layout, w, h, 0.1 + 0.05 * (trial % 5));
      const MobilityId mobility = trial % 4 == 3 ? TerrainTable::kSwim : TerrainTable::kWalk;
      SearchGridSettings settings;
      settings.landmarks = trial % 2 == 0 ? 4 : 0;
      auto grid = SearchGrid::build(map, mobility, settings);
      REQUIRE(grid.ok());
      SearchContext context;
      SearchResult result;
      INFO(toString(layout.kind()) << " " << layout.connectivity() << "-way, trial " << trial);
      for (int q = 0; q < 12; ++q) {
        const Cell start{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
        if (!map.passable(start, mobility)) continue;
        const std::vector<std::int64_t> costs = test::dijkstraCosts(map, mobility, start);
        // A target at a random point, or on a tile centre (whose neighbours' centres tie).
        Eigen::Vector2d target = randomTarget(random, map);
        if (q % 3 == 0) target = layout.localCenter(goalFor(map, target));
        const Asked asked = askAt(map, target);
        const Cell goal = asked.goal;
        for (bool jumps : {true, false}) {
          SearchRequest request = nearestRequest(start, asked);
          request.jumpPoints = jumps;
          context.findPath(*grid, request, result);
          checkAnswer(map, mobility, result, start, goal, asked.local, costs, [](Cell) { return true; }, {});
          partial += result.status == Status::PartialPath ? 1 : 0;
        }
        // How often the answer had to choose among equally near tiles.
        int nearest = 0;
        const Expected expected = bruteNearest(map, costs, asked.local, [](Cell) { return true; });
        for (std::int32_t i = 0; i < map.tileCount(); ++i) {
          if (costs[std::size_t(i)] >= 0 &&
              (layout.localCenter(map.cellAt(i)) - asked.local).squaredNorm() <= expected.distance * (1.0 + 1e-9)) {
            ++nearest;
          }
        }
        ties += nearest > 1 && costs[std::size_t(map.index(goal))] < 0 ? 1 : 0;
      }
    }
  }
  CHECK(partial > 200);
  CHECK(ties > 20);
}

TEST_CASE("the nearest reachable tile behind closed gates: the search floods what it can reach", "[search][nearest][property]") {
  // Regions join tiles across gates, so the nearest tile of the start's region may lie behind a
  // closed one: the search runs dry and floods instead.
  std::mt19937 random(5502);
  int flooded = 0;
  for (const Layout& layout : {Layout::square(), Layout::square(1.0f, 4), Layout::hexPointy(), Layout::hexFlat()}) {
    for (int trial = 0; trial < 30; ++trial) {
      const int w = std::uniform_int_distribution<int>(3, 22)(random), h = std::uniform_int_distribution<int>(3, 22)(random);
      const TileMap map = test::randomMap(random, layout, w, h, 0.2);
      const std::vector<SearchGate> gates = test::randomGates(random, map, w * h / 3);
      auto grid = SearchGrid::build(map, TerrainTable::kWalk, {}, gates);
      REQUIRE(grid.ok());
      test::TableRule rule;
      for (std::size_t i = 0; i < gates.size(); ++i) {
        rule.crossings.push_back(std::uniform_int_distribution<int>(0, 1)(random) == 0 ? GateCrossing{false, true, 0} : GateCrossing{});
      }
      const test::StepRule steps = test::referenceRule(map, gates, rule);
      SearchContext context;
      SearchResult result;
      INFO(toString(layout.kind()) << " " << layout.connectivity() << "-way, trial " << trial);
      for (int q = 0; q < 8; ++q) {
        const Cell start{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
        if (!map.passable(start, TerrainTable::kWalk)) continue;
        const std::vector<std::int64_t> costs = test::dijkstraCosts(map, TerrainTable::kWalk, start, steps);
        const Asked asked = askAt(map, randomTarget(random, map));
        const Cell goal = asked.goal;
        SearchRequest request = nearestRequest(start, asked);
        request.gates = &rule;
        // In slices of a few expansions: the flood suspends and resumes like any search.
        request.maxExpansions = q % 2 == 0 ? 3 : 0;
        Status status = context.findPath(*grid, request, result);
        while (status == Status::InProgress) status = context.resume(3, result);
        checkAnswer(map, TerrainTable::kWalk, result, start, goal, asked.local, costs, [](Cell) { return true; }, steps);
        const bool regionReaches = map.passable(goal, TerrainTable::kWalk) && grid->regions().connected(start, goal);
        flooded += regionReaches && costs[std::size_t(map.index(goal))] < 0 ? 1 : 0;
      }
    }
  }
  CHECK(flooded > 20);
}

TEST_CASE("the nearest reachable tile a wide body fits on", "[search][nearest][clearance][property]") {
  std::mt19937 random(5503);
  const double radii[] = {0.5, 0.75, 1.0, 1.5, 2.0};
  int partial = 0;
  for (const Layout& layout : {Layout::square(), Layout::square(1.0f, 4), Layout::hexPointy(), Layout::hexFlat()}) {
    for (int trial = 0; trial < 20; ++trial) {
      const int w = std::uniform_int_distribution<int>(6, 26)(random), h = std::uniform_int_distribution<int>(6, 22)(random);
      const TileMap map = test::randomMap(random, layout, w, h, 0.03 + 0.02 * (trial % 4));
      auto grid = SearchGrid::build(map, TerrainTable::kWalk);
      REQUIRE(grid.ok());
      const Clearance clearance = Clearance::build(map, TerrainTable::kWalk);
      const double radius = radii[std::size_t(trial) % std::size(radii)];
      const test::BodyFitRule fit(map, TerrainTable::kWalk, radius);
      const test::StepRule steps = [&](Cell from, Cell to) { return fit.step(from, to); };
      const std::function<bool(Cell)> fits = [&](Cell c) { return fit.fits(c); };
      SearchContext context;
      SearchResult result;
      INFO(toString(layout.kind()) << " " << layout.connectivity() << "-way, trial " << trial << ", radius " << radius);
      for (int q = 0; q < 10; ++q) {
        const Cell start{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
        if (!fit.fits(start)) continue;
        const std::vector<std::int64_t> costs = test::dijkstraCosts(map, TerrainTable::kWalk, start, steps);
        const Asked asked = askAt(map, randomTarget(random, map));
        for (bool jumps : {true, false}) {
          SearchRequest request = nearestRequest(start, asked);
          request.clearance = &clearance;
          request.bodyTiles = radius;
          request.jumpPoints = jumps;
          context.findPath(*grid, request, result);
          checkAnswer(map, TerrainTable::kWalk, result, start, asked.goal, asked.local, costs, fits, steps);
          partial += result.status == Status::PartialPath ? 1 : 0;
        }
      }
    }
  }
  CHECK(partial > 100);
}
