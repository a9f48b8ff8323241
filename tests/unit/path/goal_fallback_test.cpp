// SPDX-License-Identifier: MIT
// PathRequest::goalFallback (a reachable goal): a click on water, a wall, a table, an
// island or off the map plans to the centre of the nearest reachable tile, ties by cost; checked
// on exact cases and against a brute force on random maps.
#include <catch2/catch.hpp>

#include "rpgnav/grid/line_of_sight.hpp"
#include "rpgnav/path/planner.hpp"
#include "support/path_checks.hpp"
#include "support/reference_search.hpp"
#include "support/test_maps.hpp"

#include <cmath>
#include <random>

using namespace rpgnav;

namespace {

PathRequest fallbackRequest(Vec2 start, Vec2 goal, float radius = 0.0f) {
  PathRequest request;
  request.start = start;
  request.goal = goal;
  request.radius = radius;
  request.goalFallback = true;
  return request;
}

class AvoidLocked final : public DoorPolicy {
 public:
  DoorDecision decide(const Door& door, const Traveller&) const override {
    return {door.state == DoorState::Locked ? DoorAction::Avoid : DoorAction::Pass, 0.0f};
  }
};

// The centre the fallback must choose, from the definition: among the tiles a plain Dijkstra
// reaches from `start`, those whose centre is nearest to `goal` (equal within 1e-9 relative), the
// cheapest; all of those equally cheap (the search may take any).
std::vector<Cell> bruteFallback(const TileMap& map, MobilityId mobility, Cell start, Vec2 goal) {
  const std::vector<std::int64_t> costs = test::dijkstraCosts(map, mobility, start);
  const Eigen::Vector2d target = map.layout().toLocal(goal);
  double nearest = std::numeric_limits<double>::infinity();
  for (std::int32_t i = 0; i < map.tileCount(); ++i) {
    if (costs[std::size_t(i)] >= 0) nearest = std::min(nearest, (map.layout().localCenter(map.cellAt(i)) - target).squaredNorm());
  }
  std::int64_t cheapest = std::numeric_limits<std::int64_t>::max();
  std::vector<Cell> tied;
  for (std::int32_t i = 0; i < map.tileCount(); ++i) {
    if (costs[std::size_t(i)] < 0 || (map.layout().localCenter(map.cellAt(i)) - target).squaredNorm() > nearest * (1.0 + 1e-9)) continue;
    if (costs[std::size_t(i)] < cheapest) tied.clear();
    if (costs[std::size_t(i)] <= cheapest) {
      cheapest = costs[std::size_t(i)];
      tied.push_back(map.cellAt(i));
    }
  }
  return tied;
}

}  // namespace

TEST_CASE("goal fallback: a wall, water, an island and off the map lead to the nearest reachable tile", "[path][fallback]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "........",
                                                               "..#.....",
                                                               "........",
                                                               "~~~~~~~~",
                                                               "...~....",
                                                           });
  Planner planner(map);
  PathResult result;
  const Vec2 start(0.5f, 0.5f);
  // Without the option: the statuses of old.
  CHECK(planner.plan({start, Vec2(2.5f, 1.5f)}, result) == Status::GoalBlocked);
  CHECK(planner.plan({start, Vec2(1.5f, 4.5f)}, result) == Status::NoPath);
  CHECK(planner.plan({start, Vec2(-3.0f, 0.5f)}, result) == Status::OutOfBounds);
  CHECK_FALSE(result.fallbackGoal);

  // The centre of the wall tile: four neighbours' centres tie at one tile; the diagonal step to
  // (1,1) is the cheapest from (0,0).
  REQUIRE(planner.plan(fallbackRequest(start, Vec2(2.5f, 1.5f)), result) == Status::PartialPath);
  REQUIRE(result.fallbackGoal);
  CHECK(*result.fallbackGoal == Vec2(1.5f, 1.5f));
  CHECK(result.controlPoints.back() == Vec2(1.5f, 1.5f));
  CHECK(result.reason.empty());  // (a success)
  // Off the wall's centre, towards its right: the tile to the right is nearest.
  REQUIRE(planner.plan(fallbackRequest(start, Vec2(2.9f, 1.45f)), result) == Status::PartialPath);
  CHECK(*result.fallbackGoal == Vec2(3.5f, 1.5f));
  // Water: the shore tile above the click.
  REQUIRE(planner.plan(fallbackRequest(start, Vec2(5.2f, 3.4f)), result) == Status::PartialPath);
  CHECK(*result.fallbackGoal == Vec2(5.5f, 2.5f));
  // The island across the water (walkers cannot swim): the shore tile facing it.
  REQUIRE(planner.plan(fallbackRequest(start, Vec2(6.5f, 4.5f)), result) == Status::PartialPath);
  CHECK(*result.fallbackGoal == Vec2(6.5f, 2.5f));
  // A swimmer cannot stand on the island either: the water beside it is nearest.
  PathRequest swimmer = fallbackRequest(Vec2(0.5f, 3.5f), Vec2(6.5f, 4.5f));
  swimmer.mobility = TerrainTable::kSwim;
  REQUIRE(planner.plan(swimmer, result) == Status::PartialPath);
  CHECK((*result.fallbackGoal == Vec2(6.5f, 3.5f)));
  // Off the map, left of row 2: that row's first tile.
  REQUIRE(planner.plan(fallbackRequest(Vec2(7.5f, 0.5f), Vec2(-3.0f, 2.5f)), result) == Status::PartialPath);
  CHECK(*result.fallbackGoal == Vec2(0.5f, 2.5f));
  REQUIRE(planner.plan(fallbackRequest(Vec2(7.5f, 0.5f), Vec2(1e9f, -1e9f)), result) == Status::PartialPath);
  CHECK(*result.fallbackGoal == Vec2(7.5f, 0.5f));  // (the start's own tile: the path is a point)
  // A goal the character can reach is planned as without the option, bit for bit.
  PathResult plain;
  REQUIRE(planner.plan({start, Vec2(6.3f, 2.2f)}, plain) == Status::Ok);
  REQUIRE(planner.plan(fallbackRequest(start, Vec2(6.3f, 2.2f)), result) == Status::Ok);
  CHECK_FALSE(result.fallbackGoal);
  CHECK(result.controlPoints == plain.controlPoints);
  // Bad input is still refused.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(planner.plan(fallbackRequest(start, Vec2(nan, 1.0f)), result) == Status::InvalidArgument);
  CHECK(planner.plan(fallbackRequest(start, Vec2(std::numeric_limits<float>::infinity(), 1.0f)), result) == Status::InvalidArgument);
  CHECK(planner.plan(fallbackRequest(Vec2(2.5f, 1.5f), Vec2(0.5f, 0.5f)), result) == Status::StartBlocked);
}

TEST_CASE("goal fallback: a goal closer than the radius to a wall ends at its tile's centre; wide bodies where they fit",
          "[path][fallback]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "..........",
                                                               "..........",
                                                               "....#.....",
                                                               "..........",
                                                               "..........",
                                                           });
  Planner planner(map);
  PathResult result;
  // Radius 0.3: the point 0.1 from the wall's left edge is refused; its own tile's centre is not.
  CHECK(planner.plan({Vec2(0.5f, 0.5f), Vec2(3.9f, 2.5f), MobilityId{0}, 0.3f}, result) == Status::GoalBlocked);
  REQUIRE(planner.plan(fallbackRequest(Vec2(0.5f, 0.5f), Vec2(3.9f, 2.5f), 0.3f), result) == Status::PartialPath);
  CHECK(*result.fallbackGoal == Vec2(3.5f, 2.5f));
  // A body of radius one tile fits on centres at least a tile from the wall and the map's edge:
  // the click on the wall's centre goes to the nearest such centre, and the path keeps the radius.
  const float radius = 1.0f;
  CHECK(planner.plan({Vec2(1.5f, 1.5f), Vec2(4.5f, 2.5f), MobilityId{0}, radius}, result) == Status::GoalBlocked);
  REQUIRE(planner.plan(fallbackRequest(Vec2(1.5f, 1.5f), Vec2(4.5f, 2.5f), radius), result) == Status::PartialPath);
  const test::BodyFitRule fit(map, MobilityId{0}, 1.0);
  REQUIRE(result.fallbackGoal);
  const Cell chosen = map.layout().tileAt(*result.fallbackGoal);
  CHECK(fit.fits(chosen));
  // No fitting centre is nearer to the click.
  const double distance = (map.layout().localCenter(chosen) - map.layout().toLocal(Vec2(4.5f, 2.5f))).norm();
  for (std::int32_t i = 0; i < map.tileCount(); ++i) {
    if (fit.fits(map.cellAt(i)) && fit.reaches({1, 1}, map.cellAt(i))) {
      CHECK(distance <= (map.layout().localCenter(map.cellAt(i)) - map.layout().toLocal(Vec2(4.5f, 2.5f))).norm() + 1e-9);
    }
  }
  CHECK(test::judgePolyline(map, MobilityId{0}, result.controlPoints, radius, {}, 1e-4, 1e-4).clear);
}

TEST_CASE("goal fallback: a door the policy avoids closes a room off; the nearest tile on this side is chosen",
          "[path][fallback]") {
  // A room (right) behind a locked door on the edge between (5,2) and (6,2): walls elsewhere.
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                              ".....#...",
                                                              ".....#...",
                                                              ".........",
                                                              ".....#...",
                                                              ".....#...",
                                                          });
  World world(map);
  const auto door = world.addDoor({"vault", Cell{5, 2}, Cell{6, 2}, DoorState::Locked});
  INFO(door.message());
  REQUIRE(door.ok());
  const AvoidLocked policy;
  world.setDoorPolicy(&policy);
  Planner planner(world);
  PathResult result;
  const Vec2 start(0.5f, 2.5f);
  CHECK(planner.plan({start, Vec2(7.5f, 1.5f)}, result) == Status::NoPath);
  REQUIRE(planner.plan(fallbackRequest(start, Vec2(7.5f, 1.5f)), result) == Status::PartialPath);
  // Nearest reachable centre to (7.5, 1.5): (5,2)'s centre (5.5, 2.5) at √5 ≈ 2.24 beats (4,1)'s
  // (4.5, 1.5) at 3.
  CHECK(*result.fallbackGoal == Vec2(5.5f, 2.5f));
  CHECK(result.controlPoints.back() == Vec2(5.5f, 2.5f));
  // In slices of a few expansions the flood gives the same answer.
  PathResult sliced;
  Status status = planner.beginPlan(fallbackRequest(start, Vec2(7.5f, 1.5f)), sliced, 2);
  int slices = 1;
  while (status == Status::InProgress) {
    status = planner.continuePlan(sliced, 2);
    ++slices;
  }
  CHECK(slices > 3);
  CHECK(status == Status::PartialPath);
  CHECK(sliced.controlPoints == result.controlPoints);
  CHECK(sliced.fallbackGoal == result.fallbackGoal);
}

TEST_CASE("goal fallback chooses the nearest reachable tile on random square and hex maps (brute force)",
          "[path][fallback][property]") {
  std::mt19937 random(5504);
  int partial = 0, plainSame = 0;
  for (const Layout& layout : test::allLayouts()) {
    for (int trial = 0; trial < 12; ++trial) {
      const int w = std::uniform_int_distribution<int>(5, 26)(random), h = std::uniform_int_distribution<int>(5, 22)(random);
      const TileMap map = test::randomMap(random, layout, w, h, 0.1 + 0.06 * (trial % 4), trial % 2 == 0);
      const MobilityId mobility = trial % 3 == 2 ? TerrainTable::kSwim : TerrainTable::kWalk;
      Planner planner(map);
      PathResult result, plain;
      INFO(toString(layout.kind()) << " trial " << trial);
      for (int q = 0; q < 14; ++q) {
        const Cell startTile{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
        if (!map.passable(startTile, mobility)) continue;
        const Vec2 start = layout.tileCenter(startTile);
        // Anywhere on the map and a tile beyond it; now and then a tile centre (ties).
        const Vec2 low = layout.tileCenter({0, 0}) - Vec2(1.5f, 1.5f) * layout.tileSize();
        const Vec2 high = layout.tileCenter({w - 1, h - 1}) + Vec2(1.5f, 1.5f) * layout.tileSize();
        Vec2 goal(std::uniform_real_distribution<float>(low.x(), high.x())(random),
                  std::uniform_real_distribution<float>(low.y(), high.y())(random));
        if (q % 3 == 0 && map.tileAt(goal)) goal = layout.tileCenter(*map.tileAt(goal));
        const float radius = float(q % 3) * 0.1f * layout.tileSize();
        INFO("from " << start.x() << "," << start.y() << " to " << goal.x() << "," << goal.y() << " radius " << radius);
        PathRequest request = fallbackRequest(start, goal, radius);
        request.mobility = mobility;
        const Status status = planner.plan(request, result);
        INFO(toString(status) << " " << result.reason << " map " << w << "x" << h << " goal tile "
                                << (map.tileAt(goal) ? map.tileAt(goal)->x : -9) << "," << (map.tileAt(goal) ? map.tileAt(goal)->y : -9));
        PathRequest without = request;
        without.goalFallback = false;
        const Status plainStatus = planner.plan(without, plain);
        INFO("without: " << toString(plainStatus) << " " << plain.reason);
        if (plainStatus == Status::Ok) {
          // Reachable: the same plan.
          REQUIRE(status == Status::Ok);
          REQUIRE_FALSE(result.fallbackGoal);
          REQUIRE(result.controlPoints == plain.controlPoints);
          ++plainSame;
          continue;
        }
        REQUIRE(status == Status::PartialPath);
        REQUIRE(result.fallbackGoal);
        REQUIRE(result.controlPoints.back() == *result.fallbackGoal);
        const std::vector<Cell> expected = bruteFallback(map, mobility, startTile, goal);
        const auto chosen = map.tileAt(*result.fallbackGoal);
        REQUIRE(chosen);
        REQUIRE(layout.tileCenter(*chosen) == *result.fallbackGoal);
        INFO("chose " << chosen->x << "," << chosen->y << "; expected " << expected.front().x << "," << expected.front().y
                      << " of " << expected.size());
        REQUIRE(std::find(expected.begin(), expected.end(), *chosen) != expected.end());
        REQUIRE(test::judgePolyline(map, mobility, result.controlPoints, radius).clear);
        ++partial;
      }
    }
  }
  CHECK(partial > 150);
  CHECK(plainSame > 50);
}
