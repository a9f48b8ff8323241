// SPDX-License-Identifier: MIT
// Designer settings (a map's [settings], World::setDesignSettings): planners and schedulers on
// the world take them in place of their code's settings, read at each plan; a request's own
// comfort wins; the door costs are the default door rule's.
#include <catch2/catch.hpp>

#include "rpgnav/path/planner.hpp"
#include "rpgnav/schedule/replan_scheduler.hpp"
#include "support/crowd_run.hpp"
#include "support/path_checks.hpp"
#include "support/result_hash.hpp"
#include "support/test_maps.hpp"

#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace rpgnav;

namespace {

constexpr MobilityId kWalk = TerrainTable::kWalk;

// Entities on random floor tiles, some flat, so that detours run and their margin counts.
void addRandomEntities(std::mt19937& random, World& world, int count) {
  const TileMap& map = world.map();
  for (std::uint32_t id = 1; id <= std::uint32_t(count); ++id) {
    const Cell cell{std::uniform_int_distribution<int>(0, map.width() - 1)(random),
                    std::uniform_int_distribution<int>(0, map.height() - 1)(random)};
    if (!map.passable(cell, kWalk)) continue;
    const float radius = std::uniform_real_distribution<float>(0.2f, 0.6f)(random) * map.layout().tileSize();
    const std::uint8_t flags = random() % 4 == 0 ? kEntityFlat : kEntityStatic;
    REQUIRE(world.entities().add({EntityId{id}, map.layout().tileCenter(cell), radius, flags}) == Status::Ok);
  }
}

// A random request between two floor tiles' points (not necessarily the centres).
PathRequest randomRequest(std::mt19937& random, const TileMap& map) {
  auto point = [&] {
    while (true) {
      const Cell cell{std::uniform_int_distribution<int>(0, map.width() - 1)(random),
                      std::uniform_int_distribution<int>(0, map.height() - 1)(random)};
      if (!map.passable(cell, kWalk)) continue;
      const Vec2 jitter(std::uniform_real_distribution<float>(-0.2f, 0.2f)(random),
                        std::uniform_real_distribution<float>(-0.2f, 0.2f)(random));
      return Vec2(map.layout().tileCenter(cell) + jitter * map.layout().tileSize());
    }
  };
  PathRequest request{point(), point(), kWalk, 0.2f * map.layout().tileSize()};
  request.character = EntityId{9999};
  return request;
}

}  // namespace

TEST_CASE("designer settings: the world's comfort, smoothing and detour margin plan as the same code settings, "
          "bit for bit; a request's comfort wins over both",
          "[path][settings][property]") {
  constexpr float kOwnComfort = 0.1f;
  std::mt19937 random(0xd51);
  int differ = 0, plans = 0;
  for (const Layout& layout : test::allLayouts()) {
    for (int round = 0; round < 6; ++round) {
      const TileMap map = test::randomMap(random, layout, 24, 18, 0.22);
      World designed(map), coded(map);
      addRandomEntities(random, designed, 14);
      for (const Entity& entity : designed.entities().all()) REQUIRE(coded.entities().add(entity) == Status::Ok);
      DesignSettings settings;
      settings.comfort = std::uniform_real_distribution<float>(0.0f, 0.45f)(random);
      settings.smoothing = std::uniform_real_distribution<float>(0.0f, 1.5f)(random);
      settings.detourMargin = std::uniform_real_distribution<float>(0.0f, 0.5f)(random);
      REQUIRE(designed.setDesignSettings(settings) == Status::Ok);
      PlannerSettings code;
      code.comfort = *settings.comfort;
      code.smoothing.maxDeviation = *settings.smoothing;
      code.detours.margin = *settings.detourMargin;
      PlannerSettings ownComfort = code;
      ownComfort.comfort = kOwnComfort;
      Planner byMap(designed), byCode(coded, code), plain(coded), byOwnComfort(coded, ownComfort);
      for (int query = 0; query < 12; ++query) {
        PathRequest request = randomRequest(random, map);
        INFO(toString(layout.kind()) << " round " << round << " query " << query);
        PathResult a, b, c;
        const Status status = byMap.plan(request, a);
        CHECK(byCode.plan(request, b) == status);
        CHECK(test::digestOf(a) == test::digestOf(b));
        (void)plain.plan(request, c);  // the library's defaults (a wider margin may block the way)
        differ += test::digestOf(a) != test::digestOf(c);
        ++plans;
        // A request's comfort wins over the map's: it plans as code settings of that comfort.
        PathRequest own = request;
        own.comfort = kOwnComfort * layout.tileSize();
        CHECK(byMap.plan(own, a) == byOwnComfort.plan(request, b));
        CHECK(test::digestOf(a) == test::digestOf(b));
      }
    }
  }
  // The settings change paths (the equalities above are not between equal defaults).
  CHECK(differ > plans / 3);
}

TEST_CASE("designer settings: changed or cleared between plans, the next plan reads them", "[path][settings]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {"..........", "....##....", "....##....", ".........."});
  World world(map);
  Planner planner(world);
  const PathRequest request{Vec2(0.5f, 2.5f), Vec2(9.5f, 1.5f), kWalk, 0.2f};
  PathResult base, comfortable, cleared;
  REQUIRE(planner.plan(request, base) == Status::Ok);
  REQUIRE(world.setDesignSettings({.comfort = 0.0f}) == Status::Ok);
  REQUIRE(planner.plan(request, comfortable) == Status::Ok);
  CHECK(comfortable.length < base.length);  // taut against the block, not a quarter tile off
  REQUIRE(world.setDesignSettings({}) == Status::Ok);
  REQUIRE(planner.plan(request, cleared) == Status::Ok);
  CHECK(test::digestOf(cleared) == test::digestOf(base));
}

TEST_CASE("designer settings: out of their limits they are refused and the previous ones kept", "[path][settings]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {"...", "..."});
  World world(map);
  const DesignSettings good{.comfort = 0.5f, .closedDoorCost = 9.0f};
  REQUIRE(world.setDesignSettings(good) == Status::Ok);
  for (const DesignSettingKey& setting : designSettingKeys()) {
    INFO(setting.key);
    for (const float bad : {-0.001f, setting.high * 1.01f + 0.01f, std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::infinity()}) {
      DesignSettings settings;
      settings.*setting.member = bad;
      CHECK(world.setDesignSettings(settings) == Status::InvalidArgument);
      CHECK(world.designSettings() == good);
    }
    // The limits themselves are allowed (an excluded low end is not).
    DesignSettings high, low;
    high.*setting.member = setting.high;
    low.*setting.member = setting.low;
    CHECK(world.setDesignSettings(high) == Status::Ok);
    CHECK(world.setDesignSettings(low) == (setting.lowExcluded ? Status::InvalidArgument : Status::Ok));
    REQUIRE(world.setDesignSettings(good) == Status::Ok);
  }
  CHECK(invalidDesignSetting(good).empty());
  CHECK(invalidDesignSetting({.replanInterval = 0.0f}) ==
        "replan-interval: expected a number of seconds over 0 up to 60, found 0");
}

TEST_CASE("designer settings: door costs per state are the default door rule's", "[path][settings][doors]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {"....", "...."});
  World world(map);
  REQUIRE(world.addDoor({"gate", {1, 0}, {2, 0}, DoorState::Open, ""}).ok());
  auto decision = [&](DoorState state) {
    Door probe = world.doors()[0];
    probe.state = state;
    return world.doorPolicy().decide(probe, Traveller{});
  };
  CHECK(decision(DoorState::Open).cost == 0.0f);
  CHECK(decision(DoorState::Closed).cost == 2.0f);
  CHECK(decision(DoorState::Locked).cost == 4.0f);
  REQUIRE(world.setDesignSettings({.openDoorCost = 1.5f, .closedDoorCost = 7.0f, .lockedDoorCost = 30.0f}) == Status::Ok);
  CHECK(decision(DoorState::Open).action == DoorAction::Pass);
  CHECK(decision(DoorState::Open).cost == 1.5f);
  CHECK(decision(DoorState::Closed).action == DoorAction::Stop);
  CHECK(decision(DoorState::Closed).cost == 7.0f);
  CHECK(decision(DoorState::Locked).action == DoorAction::Stop);
  CHECK(decision(DoorState::Locked).cost == 30.0f);
  // A game's own policy decides for itself.
  DefaultDoorPolicy own;
  world.setDoorPolicy(&own);
  CHECK(decision(DoorState::Closed).cost == 2.0f);
  world.setDoorPolicy(nullptr);
  CHECK(decision(DoorState::Closed).cost == 7.0f);
  REQUIRE(world.setDesignSettings({}) == Status::Ok);
  CHECK(decision(DoorState::Open).cost == 0.0f);
  CHECK(decision(DoorState::Closed).cost == 2.0f);
  CHECK(decision(DoorState::Locked).cost == 4.0f);
}

TEST_CASE("designer settings: a closed door's cost decides between the door and the way round", "[path][settings][doors]") {
  // A wall down column 5 with a closed door on the edge (4,0)-(5,0) and the way round by row 5:
  // from (2.5, 0.5) to (8.5, 0.5), 6 tiles through the door plus its cost, about 12 round.
  const TileMap map = test::mapFromAscii(Layout::square(), {"..........",  //
                                                            ".....#....",  //
                                                            ".....#....",  //
                                                            ".....#....",  //
                                                            ".....#....",  //
                                                            ".........."});
  World world(map);
  REQUIRE(world.addDoor({"gate", {4, 0}, {5, 0}, DoorState::Closed, ""}).ok());
  Planner planner(world);
  const PathRequest request{Vec2(2.5f, 0.5f), Vec2(8.5f, 0.5f), kWalk, 0.2f};
  PathResult result;
  CHECK(planner.plan(request, result) == Status::StoppedAtDoor);  // the default closed cost: 2 steps
  REQUIRE(world.setDesignSettings({.closedDoorCost = 20.0f}) == Status::Ok);
  CHECK(planner.plan(request, result) == Status::Ok);  // dearer than the way round
  CHECK(result.length > 10.0f);
  REQUIRE(world.setDesignSettings({.closedDoorCost = 1.0f}) == Status::Ok);
  CHECK(planner.plan(request, result) == Status::StoppedAtDoor);
}

TEST_CASE("designer settings: the scheduler's interval and stickiness are the world's where set, bit for bit as the "
          "same SchedulerSettings",
          "[schedule][settings]") {
  std::mt19937 random(0x5e7);
  const TileMap map = test::randomMap(random, Layout::square(), 30, 20, 0.15, true);
  auto run = [&](const DesignSettings& design, const SchedulerSettings& settings, std::vector<double>* gaps) {
    World world(map);
    REQUIRE(world.setDesignSettings(design) == Status::Ok);
    ReplanScheduler scheduler(world, {}, settings);
    std::mt19937 placing(7);
    std::vector<EntityId> ids;
    for (std::uint32_t id = 1; ids.size() < 8; ++id) {
      const PathRequest request = randomRequest(placing, map);
      REQUIRE(scheduler.add(test::characterSpec(id, request.start, Goal::at(request.goal), 1.5f, 0.2f)) == Status::Ok);
      ids.push_back(EntityId{id});
    }
    test::Digest digest;
    std::vector<double> last(ids.size(), -1.0);
    for (int frame = 0; frame < 600; ++frame) {
      const double now = frame / 60.0;
      for (const MoveStep& step : scheduler.move(1.0 / 60.0)) {
        digest.add(step.position.x());
        digest.add(step.position.y());
      }
      scheduler.update(now, ReplanBudget{});
      for (std::size_t i = 0; i < ids.size(); ++i) {
        const double planned = scheduler.info(ids[i]).lastPlanned;
        if (planned != last[i]) {
          if (last[i] >= 0.0 && gaps) gaps->push_back(planned - last[i]);
          last[i] = planned;
        }
      }
      for (const ReplanEvent& event : scheduler.events()) {
        digest.add(event.character.value);
        digest.add(event.kind);
        digest.add(event.reason);
      }
    }
    return digest.value();
  };
  SchedulerSettings code;
  code.interval = 2.5;
  code.stickiness = 0.35;
  std::vector<double> designedGaps, codedGaps, defaultGaps;
  const std::uint64_t designed = run({.replanInterval = 2.5f, .stickiness = 0.35f}, {}, &designedGaps);
  const std::uint64_t coded = run({}, code, &codedGaps);
  CHECK(designed == coded);
  CHECK(designedGaps == codedGaps);
  // The world's win over the code's.
  CHECK(run({.replanInterval = 2.5f, .stickiness = 0.35f}, SchedulerSettings{.interval = 0.5}, nullptr) == designed);
  // And they do change the cadence: most replans 2.5 s apart, against 1 s by default.
  run({}, {}, &defaultGaps);
  auto near = [](const std::vector<double>& gaps, double interval) {
    return std::count_if(gaps.begin(), gaps.end(), [&](double gap) { return std::abs(gap - interval) < 0.05; });
  };
  REQUIRE_FALSE(designedGaps.empty());
  CHECK(near(designedGaps, 2.5) * 2 > std::int64_t(designedGaps.size()));
  CHECK(near(defaultGaps, 1.0) * 2 > std::int64_t(defaultGaps.size()));
}
