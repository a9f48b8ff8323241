// SPDX-License-Identifier: MIT
// ReplanScheduler::move(): characters walk their paths with local avoidance. Characters pass each
// other, arrive, stand at their goals (and are not planned again for it), never jump when a new
// path comes, and follow() stays exactly as it was for games that do not use move().
#include <catch2/catch.hpp>

#include "rpgnav/schedule/replan_scheduler.hpp"
#include "support/crowd_run.hpp"
#include "support/test_maps.hpp"

#include <cmath>
#include <limits>
#include <vector>

using namespace rpgnav;

namespace {

TileMap room() {
  return test::mapFromAscii(Layout::square(1.0f), {
      "##################",
      "#................#",
      "#................#",
      "#................#",
      "#................#",
      "#................#",
      "##################",
  });
}

CharacterSpec character(std::uint32_t id, Vec2 position, Vec2 goal, float radius = 0.3f, float speed = 2.5f) {
  return test::characterSpec(id, position, Goal::at(goal), speed, radius);
}

}  // namespace

TEST_CASE("move(): two characters head-on in a room pass each other and arrive", "[schedule][avoidance]") {
  TileMap map = room();
  World world(map);
  const std::vector<test::CrowdMember> members{{Vec2(2.5f, 3.5f), Vec2(15.5f, 3.5f), 0.3f, 2.5f, {}},
                                               {Vec2(15.5f, 3.5f), Vec2(2.5f, 3.5f), 0.3f, 2.5f, {}}};
  const test::CrowdOutcome outcome = test::runCrowd(world, members, {20.0});
  INFO(outcome.summary());
  CHECK(outcome.arrived == 2);
  CHECK(outcome.worstOverlap == 0.0);
  CHECK(outcome.wallsEntered == 0);
  CHECK(outcome.tooFast == 0);
  CHECK(outcome.lastArrival < 8.0);
  // The same run twice gives the same positions, bit for bit.
  TileMap again = room();
  World world2(again);
  CHECK(test::runCrowd(world2, members, {20.0}).digest == outcome.digest);
}

TEST_CASE("move(): a character at its goal stands and is not planned again; pushed off, it steps back", "[schedule][avoidance]") {
  TileMap map = room();
  World world(map);
  ReplanScheduler scheduler(world);
  REQUIRE(scheduler.add(character(1, Vec2(2.5f, 3.5f), Vec2(6.5f, 3.5f))) == Status::Ok);
  bool arrived = false;
  double now = 0.0;
  for (int frame = 0; frame < 300 && !arrived; ++frame, now += 1.0 / 60.0) {
    scheduler.update(now, {});
    for (const MoveStep& step : scheduler.move(1.0 / 60.0)) arrived = arrived || step.path.arrived;
  }
  REQUIRE(arrived);
  const int plans = scheduler.info(EntityId{1}).plans;
  Vec2 standing = scheduler.position(EntityId{1});
  for (int frame = 0; frame < 300; ++frame, now += 1.0 / 60.0) {
    scheduler.update(now, {});
    const auto steps = scheduler.move(1.0 / 60.0);
    REQUIRE(steps.size() == 1);
    CHECK_FALSE(steps[0].path.arrived);
    CHECK(steps[0].velocity == Vec2::Zero());
  }
  CHECK(scheduler.info(EntityId{1}).plans == plans);
  CHECK(scheduler.position(EntityId{1}) == standing);
  // Pushed half a tile off its goal by the game: it walks back onto it.
  REQUIRE(scheduler.setPosition(EntityId{1}, standing + Vec2(0.0f, 0.5f)) == Status::Ok);
  for (int frame = 0; frame < 120; ++frame, now += 1.0 / 60.0) {
    scheduler.update(now, {});
    scheduler.move(1.0 / 60.0);
  }
  CHECK((scheduler.position(EntityId{1}) - Vec2(6.5f, 3.5f)).norm() <= 0.1f + 1e-4f);
}

TEST_CASE("move(): no path yet, bad steps and bad settings", "[schedule][avoidance][hostile]") {
  TileMap map = room();
  World world(map);
  ReplanScheduler scheduler(world);
  REQUIRE(scheduler.add(character(1, Vec2(2.5f, 3.5f), Vec2(6.5f, 3.5f))) == Status::Ok);
  // Before the first plan it stands.
  const auto steps = scheduler.move(1.0 / 60.0);
  REQUIRE(steps.size() == 1);
  CHECK(steps[0].velocity == Vec2::Zero());
  CHECK(steps[0].position == Vec2(2.5f, 3.5f));
  CHECK(scheduler.move(0.0).empty());
  CHECK(scheduler.move(-1.0).empty());
  CHECK(scheduler.move(std::numeric_limits<double>::infinity()).empty());
  CHECK(scheduler.move(std::nan("")).empty());
  AvoidanceSettings bad;
  bad.maxNeighbours = 0;
  CHECK(scheduler.setAvoidance(EntityId{1}, bad) == Status::InvalidArgument);
  CHECK(scheduler.setAvoidance(EntityId{7}, AvoidanceSettings{}) == Status::InvalidArgument);
  CharacterSpec spec = character(2, Vec2(4.5f, 3.5f), Vec2(6.5f, 1.5f));
  spec.avoidance.timeHorizon = -1.0f;
  CHECK(scheduler.add(spec) == Status::InvalidArgument);
  AvoidanceSettings good;
  good.priority = 3;
  CHECK(scheduler.setAvoidance(EntityId{1}, good) == Status::Ok);
}

TEST_CASE("move(): a new path continues from where the character stands", "[schedule][avoidance]") {
  // Goals changed every half second while characters cross: positions never jump.
  TileMap map = room();
  World world(map);
  ReplanScheduler scheduler(world);
  for (std::uint32_t id = 1; id <= 6; ++id) {
    REQUIRE(scheduler.add(character(id, Vec2(1.5f + 2.0f * float(id), 1.5f + float(id % 4)), Vec2(15.5f, 5.5f - float(id % 4)))) == Status::Ok);
  }
  std::vector<Vec2> before(7);
  for (std::uint32_t id = 1; id <= 6; ++id) before[id] = scheduler.position(EntityId{id});
  double now = 0.0;
  for (int frame = 0; frame < 600; ++frame, now += 1.0 / 60.0) {
    if (frame % 30 == 0) {
      for (std::uint32_t id = 1; id <= 6; ++id) {
        const float x = frame % 60 == 0 ? 2.5f : 15.5f;
        REQUIRE(scheduler.setGoal(EntityId{id}, Goal::at(Vec2(x, 1.5f + float((id + frame / 30) % 5)))) == Status::Ok);
      }
    }
    scheduler.update(now, {});
    for (const MoveStep& step : scheduler.move(1.0 / 60.0)) {
      CHECK((step.position - before[step.character.value]).norm() <= 2.5f / 60.0f * (1.0f + 1e-4f));
      before[step.character.value] = step.position;
    }
  }
}

TEST_CASE("move(): a plan along the route that stops in front of furniture is followed at once by a full one",
          "[schedule][avoidance]") {
  // A plan along the old route searches nothing: where the character was pushed since (by
  // avoidance) the route may lead past furniture on a side it cannot pass, where a fresh search
  // from where it stands finds a way. So such a plan is checked by a full one in the same frame
  // or the next, not a second later.
  TileMap map = test::mapFromAscii(Layout::square(1.0f), {
      "####################",
      "#..................#",
      "####################",
  });
  World world(map);
  ReplanScheduler scheduler(world);
  REQUIRE(scheduler.add(character(1, Vec2(1.5f, 1.5f), Vec2(18.5f, 1.5f))) == Status::Ok);
  double now = 0.0;
  int blockedAlong = -1, fullAfter = -1;
  for (int frame = 0; frame < 120; ++frame, now += 1.0 / 60.0) {
    if (frame == 20) REQUIRE(world.entities().add({EntityId{50}, Vec2(9.5f, 1.5f), 0.4f, kEntityStatic}) == Status::Ok);
    scheduler.update(now, {});
    const SchedulerStats stats = scheduler.stats();
    bool blocked = false;
    for (const ReplanEvent& event : scheduler.events()) blocked = blocked || event.kind == ReplanEventKind::BlockedByEntity;
    if (blockedAlong < 0 && blocked && stats.plans > stats.fullPlans) blockedAlong = frame;
    if (blockedAlong >= 0 && fullAfter < 0 && stats.fullPlans > 0) fullAfter = frame;
    scheduler.move(1.0 / 60.0);
  }
  REQUIRE(blockedAlong >= 20);
  REQUIRE(fullAfter >= 0);
  CHECK(fullAfter - blockedAlong <= 1);
  CHECK(scheduler.path(EntityId{1})->status == Status::BlockedByEntity);
}
