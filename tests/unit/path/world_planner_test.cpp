// SPDX-License-Identifier: MIT
// The planner with a World: doors (policy, stops, listener, walls for line of sight) and
// stage 7 (detours round entities).
#include <catch2/catch.hpp>

#include "rpgnav/grid/line_of_sight.hpp"
#include "rpgnav/path/planner.hpp"
#include "grid/clearance.hpp"
#include "support/allocation_counter.hpp"
#include "support/geometry.hpp"
#include "support/path_checks.hpp"
#include "support/test_maps.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numbers>
#include <random>

using namespace rpgnav;

namespace {

using Point = Eigen::Vector2d;
using test::pointToSegment;

// Distance between two segments in float world units.
double segmentDistance(Vec2 p, Vec2 q, Vec2 u, Vec2 v) {
  return test::segmentDistance(p.cast<double>(), q.cast<double>(), u.cast<double>(), v.cast<double>());
}

// Every segment keeps the radius plus the entity's radius from every listed entity.
bool clearOfEntities(const std::vector<Vec2>& points, const std::vector<Entity>& entities, float radius) {
  for (std::size_t i = 1; i < points.size(); ++i) {
    for (const Entity& e : entities) {
      if (pointToSegment(e.position.cast<double>(), points[i - 1].cast<double>(), points[i].cast<double>()) <
          double(e.radius) + double(radius) - 1e-6) {
        return false;
      }
    }
  }
  return true;
}

// The path reached its goal, every segment clear of walls and of every entity in the world, at
// the request's radius.
void requireArrivedClear(const World& world, const PathRequest& request, const PathResult& result) {
  const std::vector<Vec2>& points = result.controlPoints;
  REQUIRE(points.back() == request.goal);
  CHECK(clearOfEntities(points, std::vector<Entity>(world.entities().all().begin(), world.entities().all().end()),
                        request.radius));
  for (std::size_t i = 1; i < points.size(); ++i) {
    CHECK(probeSegment(world.map(), request.mobility, points[i - 1], points[i], request.radius).clear);
  }
}

class CountingListener final : public DoorListener {
 public:
  void stoppedAtDoor(const DoorStop& stop) override {
    ++calls;
    last = stop;
  }
  int calls = 0;
  DoorStop last;
};

class FixedPolicy final : public DoorPolicy {
 public:
  explicit FixedPolicy(DoorDecision decision) : m_decision(decision) {}
  DoorDecision decide(const Door&, const Traveller&) const override {
    ++asked;
    return m_decision;
  }
  mutable int asked = 0;

 private:
  DoorDecision m_decision;
};

// Two rooms joined by a doorway at (4, 2); a door on the edge between (4, 2) and (5, 2).
TileMap twoRooms() {
  return test::mapFromAscii(Layout::square(), {
                                                  "#########",
                                                  "....#....",
                                                  ".........",
                                                  "....#....",
                                                  "#########",
                                              });
}

// The inn of samples/maps/town.rpgmap (its top-left corner at 0, 11 there): two rooms three
// tiles wide joined by a gap in the dividing wall, the door open at (8, 1).
TileMap inn() {
  return test::mapFromAscii(Layout::square(), {
                                                  "............",
                                                  "..######.##.",
                                                  "..#...#...#.",
                                                  "..#...#...#.",
                                                  "..#...#...#.",
                                                  "..#...#...#.",
                                                  "..#.......#.",
                                                  "..#...#...#.",
                                                  "..#...#...#.",
                                                  "..#########.",
                                                  "............",
                                              });
}

}  // namespace

TEST_CASE("a closed door stops the path in front of it and tells the listener once", "[path][doors]") {
  const TileMap map = twoRooms();
  World world(map);
  const DoorId door = world.addDoor({"door", {4, 2}, {5, 2}, DoorState::Closed}).value();
  CountingListener listener;
  world.setDoorListener(&listener);
  Planner planner(world);
  PathResult result;
  PathRequest request{Vec2(1.5f, 2.5f), Vec2(7.5f, 2.5f), TerrainTable::kWalk, 0.2f};
  request.character = EntityId{42};
  REQUIRE(planner.plan(request, result) == Status::StoppedAtDoor);
  CHECK(result.door == door);
  // In front of the door, on the near side: the radius plus the gap (0.1) from the edge x = 5.
  CHECK(result.stopPoint.x() == Approx(5.0f - 0.2f - 0.1f));
  CHECK(result.stopPoint.y() == Approx(2.5f));
  CHECK(result.controlPoints.back() == result.stopPoint);
  CHECK(result.controlPoints.front() == request.start);
  CHECK(listener.calls == 1);
  CHECK(listener.last.door == door);
  CHECK(listener.last.character == EntityId{42});
  CHECK(listener.last.point == result.stopPoint);
  for (const Vec2& p : result.controlPoints) CHECK(p.x() < 5.0f);

  // The game opens the door: the next plan goes through, and nobody is told anything.
  REQUIRE(world.setDoorState(door, DoorState::Open) == Status::Ok);
  REQUIRE(planner.plan(request, result) == Status::Ok);
  CHECK(result.controlPoints.back() == request.goal);
  CHECK(listener.calls == 1);

  // Locked stops too; a policy that passes it goes through; one that avoids it finds no way.
  REQUIRE(world.setDoorState(door, DoorState::Locked) == Status::Ok);
  CHECK(planner.plan(request, result) == Status::StoppedAtDoor);
  CHECK(listener.calls == 2);
  FixedPolicy pass({DoorAction::Pass, 1.0f});
  world.setDoorPolicy(&pass);
  CHECK(planner.plan(request, result) == Status::Ok);
  CHECK(pass.asked == 1);  // once per door and query, however often the search meets it
  FixedPolicy avoid({DoorAction::Avoid, 0.0f});
  world.setDoorPolicy(&avoid);
  CHECK(planner.plan(request, result) == Status::NoPath);
  CHECK(listener.calls == 2);
}

TEST_CASE("a goal touching a closed door, or within the radius of one, is refused with GoalBlocked", "[path][doors]") {
  const TileMap map = twoRooms();
  World world(map);
  const DoorId door = world.addDoor({"door", {4, 2}, {5, 2}, DoorState::Closed}).value();
  Planner planner(world);
  PathResult result;
  // On the door's edge x = 5 (its end at (5, 3) too), at radius 0: touching it is crossing it.
  CHECK(planner.plan({Vec2(1.5f, 2.5f), Vec2(5.0f, 2.5f), TerrainTable::kWalk, 0.0f}, result) == Status::GoalBlocked);
  CHECK(std::string(result.reason).find("door") != std::string::npos);
  CHECK(planner.plan({Vec2(1.5f, 2.5f), Vec2(5.0f, 3.0f), TerrainTable::kWalk, 0.0f}, result) == Status::GoalBlocked);
  // 0.3 in front of it: too close for radius 0.35, fine for 0.25 (the path ends there).
  CHECK(planner.plan({Vec2(1.5f, 2.5f), Vec2(4.7f, 2.5f), TerrainTable::kWalk, 0.35f}, result) == Status::GoalBlocked);
  REQUIRE(planner.plan({Vec2(1.5f, 2.5f), Vec2(4.7f, 2.5f), TerrainTable::kWalk, 0.25f}, result) == Status::Ok);
  CHECK(result.controlPoints.back() == Vec2(4.7f, 2.5f));
  // Open, the door is no wall.
  REQUIRE(world.setDoorState(door, DoorState::Open) == Status::Ok);
  CHECK(planner.plan({Vec2(1.5f, 2.5f), Vec2(5.0f, 2.5f), TerrainTable::kWalk, 0.0f}, result) == Status::Ok);
}

TEST_CASE("a door closed on a character does not trap it: the path steps back to its tile's centre", "[path][doors]") {
  const TileMap map = twoRooms();
  World world(map);
  const DoorId door = world.addDoor({"door", {4, 2}, {5, 2}, DoorState::Open}).value();
  Planner planner(world);
  PathResult result;
  // Standing in the doorway tile (4, 2), 0.1 from the door's edge x = 5, radius 0.3.
  const Vec2 inDoorway(4.9f, 2.5f);
  PathRequest back{inDoorway, Vec2(1.5f, 2.5f), TerrainTable::kWalk, 0.3f};
  REQUIRE(planner.plan(back, result) == Status::Ok);  // open: nothing special
  REQUIRE(world.setDoorState(door, DoorState::Closed) == Status::Ok);
  // Back into its room: first the step to (4.5, 2.5), then on; the cost is finite.
  REQUIRE(planner.plan(back, result) == Status::Ok);
  REQUIRE(result.controlPoints.size() >= 2);
  CHECK(result.controlPoints.front() == inDoorway);
  CHECK(result.controlPoints.back() == back.goal);
  CHECK(std::isfinite(result.cost));
  for (std::size_t i = 1; i < result.controlPoints.size(); ++i) {
    CHECK(result.controlPoints[i].x() <= 4.5f + 1e-5f);  // never towards the door
    CHECK(probeSegment(map, TerrainTable::kWalk, result.controlPoints[i - 1], result.controlPoints[i], 0.3f).clear);
  }
  // Through the closed door: it stops in front of it, on its own side, after the step back.
  PathRequest through{inDoorway, Vec2(7.5f, 2.5f), TerrainTable::kWalk, 0.3f};
  REQUIRE(planner.plan(through, result) == Status::StoppedAtDoor);
  CHECK(result.controlPoints.front() == inDoorway);
  CHECK(result.stopPoint.x() == Approx(5.0f - 0.3f - 0.1f));
  for (const Vec2& p : result.controlPoints) CHECK(p.x() < 5.0f);
  // Sliced, the same.
  PathResult sliced;
  Status status = planner.beginPlan(through, sliced, 1);
  while (status == Status::InProgress) status = planner.continuePlan(sliced, 1);
  CHECK(status == Status::StoppedAtDoor);
  CHECK(sliced.controlPoints == result.controlPoints);
}

TEST_CASE("door policies: a dear or avoided door sends the path the other way", "[path][doors]") {
  // Two doorways in the wall at x = 4: a door at (4, 1) and an open gap at (4, 5).
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "#########",
                                                               ".........",
                                                               "....#....",
                                                               "....#....",
                                                               "....#....",
                                                               ".........",
                                                               "#########",
                                                           });
  World world(map);
  const DoorId door = world.addDoor({"door", {3, 1}, {4, 1}, DoorState::Closed}).value();
  Planner planner(world);
  PathResult result;
  const PathRequest request{Vec2(1.5f, 1.5f), Vec2(7.5f, 1.5f), TerrainTable::kWalk, 0.1f};
  auto usesDoor = [&] { return std::find(result.tilePath.begin(), result.tilePath.end(), Cell{4, 1}) != result.tilePath.end(); };
  FixedPolicy cheap({DoorAction::Pass, 2.0f});
  world.setDoorPolicy(&cheap);
  REQUIRE(planner.plan(request, result) == Status::Ok);
  CHECK(usesDoor());
  FixedPolicy dear({DoorAction::Pass, 50.0f});
  world.setDoorPolicy(&dear);
  REQUIRE(planner.plan(request, result) == Status::Ok);
  CHECK_FALSE(usesDoor());
  CHECK(result.length > 8.5);  // down to the gap at (4, 5) and back up
  FixedPolicy avoid({DoorAction::Avoid, 0.0f});
  world.setDoorPolicy(&avoid);
  REQUIRE(planner.plan(request, result) == Status::Ok);
  CHECK_FALSE(usesDoor());
  // A dear door that stops is still planned through when it is the better way (the game may open it).
  world.setDoorPolicy(nullptr);  // default: closed stops at cost 2
  REQUIRE(planner.plan(request, result) == Status::StoppedAtDoor);
  CHECK(result.door == door);
}

TEST_CASE("a door that is not passed is a wall for line of sight, even in the open", "[path][doors]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {"......", "......", "......"});
  World world(map);
  (void)world.addDoor({"free_standing", {2, 1}, {3, 1}, DoorState::Closed}).value();
  FixedPolicy avoid({DoorAction::Avoid, 0.0f});
  world.setDoorPolicy(&avoid);
  Planner planner(world);
  PathResult result;
  for (float radius : {0.0f, 0.2f}) {
    const PathRequest request{Vec2(0.5f, 1.5f), Vec2(5.5f, 1.5f), TerrainTable::kWalk, radius};
    REQUIRE(planner.plan(request, result) == Status::Ok);
    CHECK(result.controlPoints.size() > 2);
    for (std::size_t i = 1; i < result.controlPoints.size(); ++i) {
      CHECK(segmentDistance(result.controlPoints[i - 1], result.controlPoints[i], Vec2(3, 1), Vec2(3, 2)) >= radius);
    }
  }
}

TEST_CASE("detours go round an entity on the shorter side", "[path][entities]") {
  const TileMap map = test::randomMap(*std::make_unique<std::mt19937>(1), Layout::square(), 20, 9, 0.0, false);
  World world(map);
  Planner planner(world);
  PathResult result;
  const float radius = 0.2f;
  const PathRequest request{Vec2(1.5f, 4.5f), Vec2(18.5f, 4.5f), TerrainTable::kWalk, radius};
  // Slightly below the line (y grows downwards): the way above is shorter, and the reverse.
  double lengths[2];
  for (int side = 0; side < 2; ++side) {
    world.entities().clear();
    REQUIRE(world.entities().add({EntityId{5}, Vec2(10.0f, side == 0 ? 4.6f : 4.4f), 1.0f}) == Status::Ok);
    REQUIRE(planner.plan(request, result) == Status::Ok);
    REQUIRE(result.detours.size() == 1);
    CHECK(result.detours[0].around == EntityId{5});
    CHECK(result.controlPoints.front() == request.start);
    CHECK(result.controlPoints.back() == request.goal);
    CHECK(clearOfEntities(result.controlPoints, {*world.entities().find(EntityId{5})}, radius));
    for (const Vec2& p : result.controlPoints) CHECK((side == 0 ? p.y() <= 4.5f : p.y() >= 4.5f));
    lengths[side] = result.length;
    // Round a disc of 1.2 (plus the margin) at 0.1 off the line: no shorter than the taut way
    // (tangents and arc), and the polygon costs little more.
    CHECK(result.length > 17.0 + 0.05);
    CHECK(result.length < 17.0 + 0.5);
  }
  CHECK(lengths[0] == Approx(lengths[1]).epsilon(1e-4));
}

TEST_CASE("detours take the longer side when walls close the shorter one", "[path][entities]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "....................",
                                                               "........#####.......",
                                                               "........#####.......",
                                                               "........#####.......",
                                                               "....................",
                                                               "....................",
                                                               "....................",
                                                               "....................",
                                                           });
  World world(map);
  REQUIRE(world.entities().add({EntityId{1}, Vec2(10.5f, 4.4f), 0.8f}) == Status::Ok);
  Planner planner(world);
  PathResult result;
  const PathRequest request{Vec2(1.5f, 4.5f), Vec2(18.5f, 4.5f), TerrainTable::kWalk, 0.2f};
  REQUIRE(planner.plan(request, result) == Status::Ok);
  REQUIRE(result.detours.size() == 1);
  for (const Vec2& p : result.controlPoints) CHECK(p.y() >= 4.5f - 1e-4f);
  for (std::size_t i = 1; i < result.controlPoints.size(); ++i) {
    CHECK(probeSegment(map, TerrainTable::kWalk, result.controlPoints[i - 1], result.controlPoints[i], 0.2f).clear);
  }
}

TEST_CASE("entities too close to pass between are gone round as one group", "[path][entities]") {
  const TileMap map = test::randomMap(*std::make_unique<std::mt19937>(1), Layout::square(), 20, 12, 0.0, false);
  World world(map);
  // 0.2 apart at the edges: a character of radius 0.3 does not fit between them.
  REQUIRE(world.entities().add({EntityId{1}, Vec2(10.0f, 5.4f), 0.5f}) == Status::Ok);
  REQUIRE(world.entities().add({EntityId{2}, Vec2(10.0f, 6.6f), 0.5f}) == Status::Ok);
  Planner planner(world);
  PathResult result;
  const PathRequest request{Vec2(1.5f, 6.0f), Vec2(18.5f, 6.0f), TerrainTable::kWalk, 0.3f};
  REQUIRE(planner.plan(request, result) == Status::Ok);
  REQUIRE(result.detours.size() == 1);
  CHECK(result.detours[0].groupSize == 2);
  CHECK(clearOfEntities(result.controlPoints,
                        {*world.entities().find(EntityId{1}), *world.entities().find(EntityId{2})}, 0.3f));
}

TEST_CASE("an entity filling a corridor blocks: the path stops in front of it", "[path][entities]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "##########",
                                                               "..........",
                                                               "##########",
                                                           });
  World world(map);
  REQUIRE(world.entities().add({EntityId{3}, Vec2(6.5f, 1.5f), 0.4f, kEntityMoving}) == Status::Ok);
  Planner planner(world);
  PathResult result;
  PathRequest request{Vec2(0.5f, 1.5f), Vec2(9.5f, 1.5f), TerrainTable::kWalk, 0.2f};
  REQUIRE(planner.plan(request, result) == Status::BlockedByEntity);
  CHECK(result.blocker == EntityId{3});
  CHECK(result.controlPoints.back() == result.stopPoint);
  // Stops 0.05 tiles before the grown space: 6.5 - 0.6 - 0.05.
  CHECK(result.stopPoint.x() == Approx(5.85f).margin(1e-4));
  CHECK(result.stopPoint.y() == Approx(1.5f));
  CHECK(isSuccess(result.status));

  // The character itself, an ignored entity and a flat one never block.
  request.character = EntityId{3};
  CHECK(planner.plan(request, result) == Status::Ok);
  request.character = EntityId{0};
  const EntityId ignored[] = {EntityId{3}};
  request.ignore = ignored;
  CHECK(planner.plan(request, result) == Status::Ok);
  request.ignore = {};
  REQUIRE(world.entities().update({EntityId{3}, Vec2(6.5f, 1.5f), 0.4f, kEntityFlat}) == Status::Ok);
  CHECK(planner.plan(request, result) == Status::Ok);
  CHECK(result.detours.empty());

  // A goal inside an entity's space cannot be reached; a start inside one may leave.
  REQUIRE(world.entities().update({EntityId{3}, Vec2(9.3f, 1.5f), 0.4f, kEntityStatic}) == Status::Ok);
  CHECK(planner.plan(request, result) == Status::BlockedByEntity);
  std::swap(request.start, request.goal);
  CHECK(planner.plan(request, result) == Status::Ok);
}

TEST_CASE("a path point within furniture is passed by: the way goes round to the next point", "[path][entities]") {
  // The river bank below the town's dock (samples/maps/town.rpgmap, 18 tiles right and 23 down):
  // two barrels stand on the bank at (9.5, 2.5) and (10.5, 2.5), water south and east of the
  // character, a tree west. The tile path toward the bridge runs through the barrel's tile, so a
  // control point lies within its space: no way round leads to it. The way goes round the
  // barrels to the point after it instead (north, by the street), every piece clear of walls.
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "###....................",
                                                               ".......................",
                                                               "...#.................#.",
                                                               ".......#...~..~~~#.....",
                                                               "....~~~~~~~~..~~~~~~~~~",
                                                               "~~~~~~~~~~~~..~~~~~~~~~",
                                                               "~~~~~~~~~~~~..~~~~~~~~~",
                                                               "~~~~~~~~~~~......~~~~~~",
                                                               "~~~~...................",
                                                               ".......................",
                                                               "......#................",
                                                               "..................#....",
                                                               "..#....................",
                                                               ".......................",
                                                           });
  World world(map);
  REQUIRE(world.entities().add({EntityId{1}, Vec2(10.5f, 2.5f), 0.4f}) == Status::Ok);
  REQUIRE(world.entities().add({EntityId{2}, Vec2(9.5f, 2.5f), 0.4f}) == Status::Ok);
  Planner planner(world);
  PathResult result;
  const float radius = 0.25f;
  const PathRequest request{Vec2(9.19f, 3.19f), Vec2(19.5f, 12.5f), TerrainTable::kWalk, radius};
  REQUIRE(planner.plan(request, result) == Status::Ok);
  requireArrivedClear(world, request, result);
  // Round the barrels' north side: the way climbs above them.
  CHECK(std::any_of(result.controlPoints.begin(), result.controlPoints.end(), [](Vec2 p) { return p.y() < 2.0f; }));

  // With the way north closed by a third barrel against the tree line, there is no way out but
  // through the barrels: the path stops in front of them, as before.
  REQUIRE(world.entities().add({EntityId{3}, Vec2(8.3f, 2.2f), 0.4f}) == Status::Ok);
  REQUIRE(planner.plan(request, result) == Status::BlockedByEntity);
  CHECK(result.controlPoints.back() == result.stopPoint);
  CHECK(clearOfEntities(result.controlPoints,
                        std::vector<Entity>(world.entities().all().begin(), world.entities().all().end()), radius));
}

TEST_CASE("a start or goal by furniture, nearer than its polygon's corners, still has a way round", "[path][entities]") {
  // Stage 7 stands a polygon in for each grown disc; its corners lie beyond the disc. A character
  // standing between the two (avoidance keeps bodies apart by the radii only) steps out of the
  // polygon's hull first, instead of having no way round at all.
  const TileMap map = test::randomMap(*std::make_unique<std::mt19937>(1), Layout::square(), 14, 14, 0.0, false);
  World world(map);
  const Vec2 table(7.0f, 7.0f);
  REQUIRE(world.entities().add({EntityId{1}, table, 0.6f}) == Status::Ok);
  const float radius = 0.25f;
  const float grown = 0.6f + radius + DetourSettings{}.margin;  // the polygon's corners: grown / cos 22.5°
  const float between = 0.5f * (grown + 0.6f + radius) + 0.01f * grown;  // outside the disc, inside the polygon
  const auto at = [&](float degrees, float distance) {
    const float angle = degrees * float(std::numbers::pi) / 180.0f;
    return Vec2(table + distance * Vec2(std::cos(angle), std::sin(angle)));
  };
  Planner planner(world);
  PathResult result;
  const std::vector<Entity> furniture{*world.entities().find(EntityId{1})};
  // From beside the table (mid-way between two corners) to the far side, and back.
  for (const auto& [from, to] : {std::pair{at(22.5f, between), at(202.5f, 5.0f)}, std::pair{at(202.5f, 5.0f), at(22.5f, between)}}) {
    const PathRequest request{from, to, TerrainTable::kWalk, radius};
    REQUIRE(planner.plan(request, result) == Status::Ok);
    CHECK(result.controlPoints.front() == from);
    CHECK(result.controlPoints.back() == to);
    CHECK(clearOfEntities(result.controlPoints, furniture, radius));
    CHECK(result.detours.size() == 1);
    // Round the table, not a long way off: the step out of the polygon is a hair.
    CHECK(result.length < 5.0 + between + 1.0);
  }
}

TEST_CASE("a path point within furniture by a wall corner: the way goes round to where the path leaves it",
          "[path][entities]") {
  // The inn: from the gap in the dividing wall to the left room's top, stages 1-6 give a bend at (3.5, 15.5), which the
  // counter's space holds. Straight on to the goal the wall corner by the gap is in the way, so
  // the way leads round the counter to where the path leaves its space, and on from there.
  const TileMap map = inn();
  World world(map);
  REQUIRE(world.entities().add({EntityId{1}, Vec2(3.5f, 4.0f), 0.5f}) == Status::Ok);  // the counter
  const float radius = 0.25f;
  const PathRequest request{Vec2(5.9f, 6.3f), Vec2(3.5f, 2.5f), TerrainTable::kWalk, radius};
  for (const bool exact : {false, true}) {
    INFO((exact ? "exact any-angle search (the default)" : "8-way search"));
    PathResult result;
    PlannerSettings settings;
    settings.recordStages = true;
    settings.search = exact ? SearchMode::ExactAnyAngle : SearchMode::Tiles;
    Planner recording(world, settings);
    REQUIRE(recording.plan(request, result) == Status::Ok);
    const std::vector<Vec2>& stage6 = recording.diagnostics().stagePoints[5];  // stage k's points at k - 1
    REQUIRE(stage6.size() >= 3);
    // The case as it was found (after the 8-way search): stage 6 bends inside the counter's space.
    if (!exact) {
      CHECK(std::any_of(stage6.begin() + 1, stage6.end() - 1, [](Vec2 p) { return (p - Vec2(3.5f, 4.0f)).norm() < 0.75f; }));
    }
    requireArrivedClear(world, request, result);
    for (std::size_t i = 1; i < result.controlPoints.size(); ++i) {
      // No step back: each point is nearer the goal than the one before.
      CHECK((result.controlPoints[i] - request.goal).norm() < (result.controlPoints[i - 1] - request.goal).norm());
    }
  }
}

TEST_CASE("an S round two tables in a narrow room: round the first to beyond it, then round the second",
          "[path][entities]") {
  // The inn's right room, three tiles wide: a character by the lower table heads for the door
  // past the upper one, on the other side. The segment starts within half a tile of the lower
  // table, so there is no anchor before it; going round both tables at once leads into the walls.
  // Round the lower table to the anchor beyond it, and the rest of the segment round the upper.
  const TileMap map = inn();
  World world(map);
  REQUIRE(world.entities().add({EntityId{1}, Vec2(9.0f, 4.0f), 0.6f}) == Status::Ok);  // the upper table
  REQUIRE(world.entities().add({EntityId{2}, Vec2(8.0f, 7.5f), 0.6f}) == Status::Ok);  // the lower table
  Planner planner(world);
  PathResult result;
  const float radius = 0.25f;
  const PathRequest request{Vec2(8.8f, 7.8f), Vec2(8.5f, 0.5f), TerrainTable::kWalk, radius};
  REQUIRE(planner.plan(request, result) == Status::Ok);
  requireArrivedClear(world, request, result);
  // East of the lower table, then west of the upper one.
  const auto eastOfLower = std::any_of(result.controlPoints.begin(), result.controlPoints.end(),
                                       [](Vec2 p) { return p.y() > 6.5f && p.y() < 8.5f && p.x() > 8.6f; });
  const auto westOfUpper = std::any_of(result.controlPoints.begin(), result.controlPoints.end(),
                                       [](Vec2 p) { return p.y() > 3.0f && p.y() < 5.0f && p.x() < 8.4f; });
  CHECK(eastOfLower);
  CHECK(westOfUpper);
}

TEST_CASE("an entity source callback replaces the registry", "[path][entities]") {
  class OneEntity final : public EntitySource {
   public:
    void entitiesNear(Vec2 from, Vec2 to, float reach, std::vector<Entity>& out) const override {
      ++calls;
      const Entity entity{EntityId{9}, Vec2(5.0f, 2.5f), 1.0f, kEntityMoving};
      if (entityTouchesSegment(entity, from, to, reach)) out.push_back(entity);
    }
    mutable int calls = 0;
  };
  const TileMap map = test::randomMap(*std::make_unique<std::mt19937>(1), Layout::hexPointy(), 12, 7, 0.0, false);
  World world(map);
  OneEntity source;
  world.setEntitySource(&source);
  Planner planner(world);
  PathResult result;
  const PathRequest request{map.layout().tileCenter({1, 3}), map.layout().tileCenter({10, 3}), TerrainTable::kWalk, 0.2f};
  REQUIRE(planner.plan(request, result) == Status::Ok);
  CHECK(source.calls > 0);
  REQUIRE(result.detours.size() == 1);
  CHECK(result.detours[0].around == EntityId{9});
  CHECK(clearOfEntities(result.controlPoints, {Entity{EntityId{9}, Vec2(5.0f, 2.5f), 1.0f}}, 0.2f));
}

TEST_CASE("paths with entities and doors keep every invariant on random maps", "[path][entities][doors][property]") {
  std::mt19937 random(2024);
  int queries = 0, detoured = 0, blocked = 0, stopped = 0;
  for (const Layout& layout : {Layout::square(), Layout::square(1.0f, 4), Layout::hexPointy(), Layout::hexFlat(),
                                Layout::hexPointy(1.0f, Vec2(0.0f, 0.0f), HexStagger::Even)}) {
    for (int trial = 0; trial < 12; ++trial) {
      const int w = std::uniform_int_distribution<int>(10, 40)(random), h = std::uniform_int_distribution<int>(10, 40)(random);
      const TileMap map = test::randomMap(random, layout, w, h, 0.2);
      World world(map);
      // Hundreds of entities, a fifth of them flat.
      for (std::uint32_t i = 1; i <= std::uint32_t(w * h / 5); ++i) {
        const Vec2 p(std::uniform_real_distribution<float>(0.0f, float(w))(random),
                     std::uniform_real_distribution<float>(0.0f, float(h))(random));
        REQUIRE(world.entities().add({EntityId{i}, p, std::uniform_real_distribution<float>(0.05f, 0.6f)(random),
                                      std::uint8_t(i % 5 == 0 ? kEntityFlat : kEntityMoving)}) == Status::Ok);
      }
      for (int d = 0; d < w * h / 20; ++d) {
        const Cell a{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
        const auto touching = layout.touching(a);
        const NeighbourStep& step = touching[std::uniform_int_distribution<std::size_t>(0, touching.size() - 1)(random)];
        const DoorState state = DoorState(std::uniform_int_distribution<int>(0, 2)(random));
        (void)world.addDoor({"d" + std::to_string(d), a, {a.x + step.dx, a.y + step.dy}, state});
      }
      CountingListener listener;
      world.setDoorListener(&listener);
      for (bool anyAngle : {false, true}) {
        PlannerSettings settings;
        settings.search = anyAngle ? SearchMode::AnyAngle : SearchMode::ExactAnyAngle;
        settings.recordStages = true;
        Planner planner(world, settings);
        PathResult result;
        for (int q = 0; q < 15; ++q) {
          const float radius = std::uniform_real_distribution<float>(0.0f, 0.24f)(random);
          const Cell s{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
          const Cell g{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
          PathRequest request{layout.tileCenter(s), layout.tileCenter(g), TerrainTable::kWalk, radius};
          request.character = EntityId{std::uniform_int_distribution<std::uint32_t>(0, 50)(random)};
          const int callsBefore = listener.calls;
          const Status status = planner.plan(request, result);
          INFO(toString(layout.kind()) << " trial " << trial << " query " << q << " status " << toString(status));
          CHECK(listener.calls - callsBefore == (status == Status::StoppedAtDoor ? 1 : 0));
          if (!isSuccess(status)) continue;
          ++queries;
          const std::vector<Vec2>& points = result.controlPoints;
          REQUIRE(!points.empty());
          REQUIRE(points.front() == request.start);
          if (status == Status::Ok) REQUIRE(points.back() == request.goal);
          if (status == Status::StoppedAtDoor || status == Status::BlockedByEntity) REQUIRE(points.back() == result.stopPoint);
          detoured += result.detours.empty() ? 0 : 1;
          blocked += status == Status::BlockedByEntity ? 1 : 0;
          stopped += status == Status::StoppedAtDoor ? 1 : 0;
          // Walls: every segment clear at the radius (exact probe).
          for (std::size_t i = 1; i < points.size(); ++i) {
            REQUIRE(probeSegment(map, TerrainTable::kWalk, points[i - 1], points[i], radius).clear);
          }
          // Doors the default policy does not pass (closed, locked) are walls: never crossed or
          // touched, and kept the radius from.
          for (const Door& door : world.doors()) {
            if (door.state == DoorState::Open) continue;
            for (std::size_t i = 1; i < points.size(); ++i) {
              REQUIRE(segmentDistance(points[i - 1], points[i], door.edge[0], door.edge[1]) >= double(radius) - 1e-5);
            }
          }
          // Entities: no segment enters a blocking entity's grown space (those holding the start
          // excepted: the character may walk out of them).
          std::vector<Entity> blockers;
          for (const Entity& e : world.entities().all()) {
            const bool holdsStart = (e.position - request.start).norm() < e.radius + radius;
            if (!e.flat() && e.id != request.character && !holdsStart) blockers.push_back(e);
          }
          REQUIRE(clearOfEntities(points, blockers, radius));
          // The cost invariant up to stage 6, stage by stage, judged independently (stage 7 goes
          // round entities). Not for a character a door was closed on: its first step is exempt.
          const std::vector<const Door*> walls = test::wallDoors(world.doors());
          const bool escapes = std::any_of(walls.begin(), walls.end(), [&](const Door* door) {
            return segmentDistance(request.start, request.start, door->edge[0], door->edge[1]) < double(radius) + 1e-2;
          });
          if (!escapes) {
            const bool searchedAnyAngle = anyAngle && !widerThanHalfHexEdge(layout, radius);
            const std::string broken = test::costInvariantViolation(map, request, result, planner.diagnostics(), walls, searchedAnyAngle, true);
            INFO(broken);
            CHECK(broken.empty());
          }
        }
      }
    }
  }
  CHECK(queries > 300);
  CHECK(detoured > 30);
  CHECK(blocked > 10);
  CHECK(stopped > 10);
}

TEST_CASE("a warm planner allocates nothing: every stage reuses its memory", "[path][memory]") {
  // The same queries twice with one planner and one result: the first pass sizes every buffer
  // (search nodes, stage scratch, the result's vectors), the second must allocate nothing.
  // Last, wide bodies (1.2 tiles: the clearance fit, the band probes, entry tiles) on open maps.
  std::mt19937 random(77);
  struct Setting {
    Layout layout;
    double walls;
    float radius;
  };
  for (const auto& [layout, walls, radius] : {Setting{Layout::square(), 0.2, 0.2f}, Setting{Layout::square(1.0f, 4), 0.2, 0.2f},
                                             Setting{Layout::hexPointy(), 0.2, 0.2f}, Setting{Layout::square(), 0.015, 1.2f},
                                             Setting{Layout::hexFlat(), 0.015, 1.2f}}) {
    const TileMap map = test::randomMap(random, layout, 48, 48, walls, radius < 0.5f);
    const Clearance clearance = Clearance::build(map, TerrainTable::kWalk);
    World world(map);
    for (std::uint32_t i = 1; i <= 150; ++i) {
      const Vec2 p(std::uniform_real_distribution<float>(0.0f, 48.0f)(random), std::uniform_real_distribution<float>(0.0f, 48.0f)(random));
      REQUIRE(world.entities().add({EntityId{i}, p, 0.3f, kEntityMoving}) == Status::Ok);
    }
    std::vector<PathRequest> requests;
    for (int q = 0; q < 60; ++q) {
      Cell s{std::uniform_int_distribution<int>(0, 47)(random), std::uniform_int_distribution<int>(0, 47)(random)};
      Cell g{std::uniform_int_distribution<int>(0, 47)(random), std::uniform_int_distribution<int>(0, 47)(random)};
      // (Wide bodies: ends where they fit.)
      for (int attempt = 0; attempt < 200 && radius >= 0.5f && !clearance.fits(s, radius); ++attempt) {
        s = {std::uniform_int_distribution<int>(0, 47)(random), std::uniform_int_distribution<int>(0, 47)(random)};
      }
      for (int attempt = 0; attempt < 200 && radius >= 0.5f && !clearance.fits(g, radius); ++attempt) {
        g = {std::uniform_int_distribution<int>(0, 47)(random), std::uniform_int_distribution<int>(0, 47)(random)};
      }
      requests.push_back({layout.tileCenter(s), layout.tileCenter(g), TerrainTable::kWalk, radius});
    }
    Planner planner(world);
    PathResult result;
    int curved = 0;
    for (const PathRequest& request : requests) (void)planner.plan(request, result);  // warm-up
    const std::uint64_t before = test::allocationCount();
    for (const PathRequest& request : requests) {
      (void)planner.plan(request, result);
      curved += result.smoothed.spans().size() > 1 ? 1 : 0;
    }
    const std::uint64_t allocations = test::allocationCount() - before;  // before INFO, which allocates
    INFO(toString(layout.kind()) << " radius " << radius);
    CHECK(allocations == 0);
    CHECK(curved > 10);
  }
}

TEST_CASE("stage times are each counted once: they add up to no more than plan() takes", "[path][entities]") {
  // A straight path (stage 1 answers) past thousands of entities that come within 0.05 of the
  // character but leave room: stage 7 looks at every one.
  // Timed as part of stage 1 as well, it would make the sum exceed the time around plan(). The
  // stages read the same steady_clock as this test, each from where the last one ended, so the
  // sum lies inside the interval measured here whatever the machine's load (no timing limit).
  const TileMap map = test::randomMap(*std::make_unique<std::mt19937>(2), Layout::square(), 64, 9, 0.0, false);
  World world(map);
  std::uint32_t id = 1;
  for (float x = 2.0f; x < 61.0f; x += 0.02f) {
    for (const float y : {4.1f, 4.9f}) REQUIRE(world.entities().add({EntityId{id++}, Vec2(x, y), 0.1f}) == Status::Ok);
  }
  Planner planner(world);
  PathResult result;
  const PathRequest request{Vec2(1.5f, 4.5f), Vec2(61.5f, 4.5f), TerrainTable::kWalk, 0.25f};
  for (int run = 0; run < 5; ++run) {
    const auto begin = std::chrono::steady_clock::now();
    REQUIRE(planner.plan(request, result) == Status::Ok);
    const double wall = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - begin).count();
    REQUIRE(result.controlPoints.size() == 2);
    REQUIRE(result.detours.empty());
    REQUIRE(planner.diagnostics().stats(PathStage::StraightLine).ran);
    REQUIRE_FALSE(planner.diagnostics().stats(PathStage::Search).ran);
    double sum = 0.0;
    for (const StageStats& stats : planner.diagnostics().stages) {
      CHECK(stats.micros >= 0.0);
      sum += stats.micros;
    }
    INFO("stages " << sum << " us, plan() " << wall << " us, of which detours " << planner.diagnostics().stats(PathStage::Detours).micros);
    CHECK(sum <= wall * 1.000001 + 0.001);  // (rounding of the durations to double)
  }
}
