// SPDX-License-Identifier: MIT
// ReplanScheduler: cadence, budgets, fairness, stickiness, triggers, events, determinism,
// batches on threads and bad input. Time is simulated: every update() gets its `now`.
#include <catch2/catch.hpp>

#include "grid/clearance.hpp"
#include "rpgnav/grid/line_of_sight.hpp"
#include "rpgnav/io/rpgmap.hpp"
#include "rpgnav/schedule/replan_scheduler.hpp"
#include "support/crowd_run.hpp"
#include "support/path_checks.hpp"
#include "support/test_maps.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace rpgnav;

namespace {

constexpr MobilityId kWalk = TerrainTable::kWalk;

TerrainId terrainOf(const TileMap& map, char symbol) { return *map.terrain().findTerrainBySymbol(symbol); }
Vec2 centre(int x, int y) { return Vec2(float(x) + 0.5f, float(y) + 0.5f); }  // square tiles of size 1

CharacterSpec character(std::uint32_t id, Vec2 position, Goal goal, float speed = 2.0f, float radius = 0.2f) {
  return test::characterSpec(id, position, goal, speed, radius);
}

// The centre of a random walkable tile with x in [xLow, xHigh] (the whole width when negative).
Vec2 randomFloor(std::mt19937& random, const TileMap& map, int xLow = -1, int xHigh = -1) {
  if (xLow < 0) xLow = 0, xHigh = map.width() - 1;
  for (;;) {
    const Cell cell{std::uniform_int_distribution<int>(xLow, xHigh)(random),
                    std::uniform_int_distribution<int>(0, map.height() - 1)(random)};
    const Vec2 p = map.layout().tileCenter(cell);
    if (map.passable(cell, kWalk) && probeSegment(map, kWalk, p, p, 0.2f).clear) return p;
  }
}

bool sameEvent(const ReplanEvent& a, const ReplanEvent& b) {
  return a.character == b.character && a.kind == b.kind && a.reason == b.reason && a.status == b.status &&
         a.door == b.door && a.blocker == b.blocker && a.time == b.time;
}

std::string describe(const ReplanEvent& e) {
  return "#" + std::to_string(e.character.value) + " " + std::string(toString(e.kind)) + " " +
         std::string(toString(e.reason)) + " " + std::string(toString(e.status)) + " t=" + std::to_string(e.time);
}

std::vector<ReplanEvent> eventsOf(const ReplanScheduler& scheduler) {
  return {scheduler.events().begin(), scheduler.events().end()};
}

// update() at now, now + dt, ... for `frames` frames; all the events.
std::vector<ReplanEvent> run(ReplanScheduler& scheduler, double& now, int frames, double dt = 1.0 / 30.0,
                             ReplanBudget budget = {}) {
  std::vector<ReplanEvent> all;
  for (int i = 0; i < frames; ++i) {
    now += dt;
    scheduler.update(now, budget);
    all.insert(all.end(), scheduler.events().begin(), scheduler.events().end());
  }
  return all;
}

// A serpentine of 1-tile corridors (walls on odd rows, a gap at alternating ends) with hills on
// every fifth tile: long paths and searches of many expansions.
TileMap serpentine(int width, int height) {
  const TerrainTable terrain = test::testTerrain();
  std::vector<TerrainId> tiles;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      char symbol = '.';
      if (y % 2 == 1) symbol = (x == ((y / 2) % 2 == 0 ? width - 1 : 0)) ? '.' : '#';
      else if ((x * 7 + y * 3) % 5 == 0) symbol = 'h';
      tiles.push_back(*terrain.findTerrainBySymbol(symbol));
    }
  }
  return TileMap::create(Layout::square(), width, height, terrain, std::move(tiles)).value();
}

// An open room with walls round it.
TileMap room() {
  return test::mapFromAscii(Layout::square(), {
                                                  "####################",
                                                  "#..................#",
                                                  "#..................#",
                                                  "#..................#",
                                                  "#..................#",
                                                  "#..................#",
                                                  "#..................#",
                                                  "#..................#",
                                                  "#..................#",
                                                  "####################",
                                              });
}

// Settings that isolate triggers: no periodic replan for a long time.
SchedulerSettings quiet() {
  SchedulerSettings settings;
  settings.interval = 1000.0;
  return settings;
}

// A plan the scheduler made: why and when (CharacterInfo::lastReason, lastPlanned).
struct ScheduledPlan {
  ReplanReason reason;
  double time;
};

class Recorder final : public ReplanListener {
 public:
  void onReplanEvent(const ReplanEvent& event) override { events.push_back(event); }
  std::vector<ReplanEvent> events;
};

}  // namespace

// ---------------------------------------------------------------------------------------------
// 1. Cadence and staggering

TEST_CASE("scheduler: every character is planned once per interval, at its own phase", "[schedule]") {
  std::mt19937 random(11);
  const TileMap map = test::randomMap(random, Layout::square(), 64, 64, 0.02, false);
  const World world(map);
  SchedulerSettings settings;  // interval 1 s
  settings.stuckTime = 1e9;    // they stand still on purpose
  ReplanScheduler scheduler(world, {}, settings);
  const int n = 200;
  const double fps = 60.0;
  for (std::uint32_t id = 1; id <= std::uint32_t(n); ++id) {
    REQUIRE(scheduler.add(character(id, randomFloor(random, map, 1, 14), Goal::at(randomFloor(random, map, 50, 62)))) ==
            Status::Ok);
  }
  std::vector<int> plans(n + 1, 0), plansAtOne(n + 1, 0);
  std::vector<double> last(n + 1, -1.0);
  int maxPerFrame = 0, gaps = 0;
  for (int frame = 0; frame < 360; ++frame) {
    const double now = frame / fps;
    scheduler.update(now, ReplanBudget{});
    const SchedulerStats& stats = scheduler.stats();
    if (frame == 0) CHECK(stats.plans == n);  // newcomers are all planned at the first update
    if (now >= 1.0) maxPerFrame = std::max(maxPerFrame, stats.plans);
    int counted = 0;
    for (std::uint32_t id = 1; id <= std::uint32_t(n); ++id) {
      const ReplanScheduler::CharacterInfo info = scheduler.info(EntityId{id});
      REQUIRE(info.known);
      if (info.plans == plans[id]) continue;
      INFO("character " << id << " at " << now);
      REQUIRE(info.plans == plans[id] + 1);
      CHECK(info.lastPlanned == now);
      // From the second plan on (the first after its phase), plans come one interval apart.
      if (last[id] > 0.0) {
        CHECK(now - last[id] >= settings.interval - 1e-9);
        CHECK(now - last[id] <= settings.interval + 1.0 / fps + 1e-9);
        ++gaps;
      } else if (last[id] == 0.0) {
        CHECK(now >= 0.5 * settings.interval - 1e-9);  // the phase turn, at least half an interval after the first
        CHECK(now <= 1.5 * settings.interval + 1.0 / fps);
      }
      counted += info.plans - plans[id];
      plans[id] = info.plans;
      last[id] = now;
    }
    CHECK(counted == stats.plans);
    if (frame == 59) plansAtOne = plans;
  }
  // Over seconds 1 to 6: five turns each (one more or less for where the frames fall).
  for (std::uint32_t id = 1; id <= std::uint32_t(n); ++id) {
    INFO("character " << id);
    CHECK(plans[id] - plansAtOne[id] >= 4);
    CHECK(plans[id] - plansAtOne[id] <= 6);
    CHECK(scheduler.info(EntityId{id}).lastPlanned >= 359 / fps - settings.interval - 1e-9);
  }
  CHECK(gaps > n * 4);
  // Flat: about n / fps plans a frame, never a crowd of them.
  CHECK(maxPerFrame <= int(2.0 * n / fps) + 2);
  CHECK(maxPerFrame >= 1);
}

TEST_CASE("scheduler: a body pressed against a wall (a hair inside its radius) is planned, not refused every turn",
          "[schedule]") {
  // rpgnav sim on the wilderness: local avoidance left a body 0.0004 tiles into the river's
  // hexagon at the bridge's mouth; its plans were refused (StartBlocked) turn after turn and it
  // stood in the mouth for good. Now its path steps out to its tile's centre first.
  std::mt19937 random(53);
  int pressed = 0;
  for (const Layout& layout : {Layout::square(), Layout::hexPointy(), Layout::hexFlat(0.5f)}) {
    for (int trial = 0; trial < 12; ++trial) {
      const TileMap map = test::randomMap(random, layout, 16, 12, 0.2, trial % 2 == 0);
      const World world(map);
      const float radius = std::uniform_real_distribution<float>(0.1f, 0.45f)(random) * layout.tileSize();
      ReplanScheduler scheduler(world, {}, SchedulerSettings{});
      std::uint32_t id = 0;
      // Each walkable tile beside a blocked one: a point on the way from its centre to the
      // blocked one's, just past where the body stops keeping the radius (found by halving).
      for (std::int32_t i = 0; i < map.tileCount() && id < 8; ++i) {
        const Cell cell = map.cellAt(i);
        if (!map.passable(cell, kWalk)) continue;
        for (const NeighbourStep& step : layout.touching(cell)) {
          const Cell wall{cell.x + step.dx, cell.y + step.dy};
          if (!map.contains(wall) || map.passable(wall, kWalk)) continue;
          const Vec2 from = layout.tileCenter(cell), toward = layout.tileCenter(wall);
          auto at = [&](float t) { return Vec2(from + (toward - from) * t); };
          auto keeps = [&](float t) { return probeSegment(map, kWalk, at(t), at(t), radius).clear; };
          float low = 0.0f, high = 0.5f;
          if (!keeps(low) || keeps(high)) break;
          for (int k = 0; k < 30; ++k) (keeps(0.5f * (low + high)) ? low : high) = 0.5f * (low + high);
          const Vec2 start = at(high + 4e-4f);
          if (map.tileAt(start) != cell) break;
          const Vec2 goal = randomFloor(random, map);
          REQUIRE(scheduler.add(character(++id, start, Goal::at(goal), 2.0f, radius)) == Status::Ok);
          break;
        }
      }
      scheduler.update(0.0, ReplanBudget{});
      for (const ReplanEvent& event : eventsOf(scheduler)) {
        INFO(toString(layout.kind()) << " trial " << trial << " radius " << radius << ": " << describe(event));
        // Never refused for where it stands (a goal across the map's walls may be out of reach).
        CHECK(event.status != Status::StartBlocked);
        if (event.kind == ReplanEventKind::GoalUnreachable) continue;
        const PathResult* path = scheduler.path(event.character);
        REQUIRE(path != nullptr);
        const Vec2 start = scheduler.position(event.character);
        REQUIRE(path->controlPoints.size() >= 2);
        CHECK(path->controlPoints[0] == start);
        CHECK(path->controlPoints[1] == layout.tileCenter(*map.tileAt(start)));
        ++pressed;
      }
    }
  }
  CHECK(pressed > 100);
}

// ---------------------------------------------------------------------------------------------
// 2. Budgets

TEST_CASE("scheduler: an expansion budget caps every update, and long searches go on in later frames", "[schedule]") {
  const TileMap map = serpentine(100, 100);
  const World world(map);
  std::mt19937 random(5);
  for (std::int64_t budget : {std::int64_t(10), std::int64_t(400)}) {
    INFO("budget " << budget);
    SchedulerSettings settings;
    settings.stuckTime = 1e9;
    ReplanScheduler scheduler(world, {}, settings);
    const int n = 12;
    std::vector<CharacterSpec> specs;
    for (std::uint32_t id = 1; id <= std::uint32_t(n); ++id) {
      // From the top rows to the bottom rows: paths of thousands of tiles.
      const Vec2 start = centre(std::uniform_int_distribution<int>(0, 99)(random), 2 * std::uniform_int_distribution<int>(0, 3)(random));
      const Vec2 goal = centre(std::uniform_int_distribution<int>(0, 99)(random), 2 * std::uniform_int_distribution<int>(45, 49)(random));
      specs.push_back(character(id, start, Goal::at(goal)));
      REQUIRE(scheduler.add(specs.back()) == Status::Ok);
    }
    std::map<std::uint32_t, int> firstPlanFrame;
    int suspendedFrames = 0, sliceOnlyFrames = 0;
    std::int64_t total = 0;
    for (int frame = 0; frame < 20000 && int(firstPlanFrame.size()) < n; ++frame) {
      scheduler.update(frame / 60.0, ReplanBudget::work(budget));
      const SchedulerStats& stats = scheduler.stats();
      CHECK(stats.expansions <= budget);
      total += stats.expansions;
      if (scheduler.planner().planInProgress()) ++suspendedFrames;
      if (stats.slices > 0 && stats.plans == 0) ++sliceOnlyFrames;
      for (const ReplanEvent& event : scheduler.events()) {
        if (firstPlanFrame.count(event.character.value) == 0) {
          firstPlanFrame[event.character.value] = frame;
          // The path made in slices is the one a single plan() gives.
          const CharacterSpec& spec = specs[event.character.value - 1];
          Planner fresh(scheduler.navData(), scheduler.planner().settings());
          PathResult expected;
          PathRequest request{spec.position, spec.goal.point, spec.mobility, spec.radius};
          request.character = spec.id;
          REQUIRE(fresh.plan(request, expected) == Status::Ok);
          CHECK(event.kind == ReplanEventKind::NewPath);
          const PathResult* path = scheduler.path(event.character);
          REQUIRE(path != nullptr);
          CHECK(path->controlPoints == expected.controlPoints);
          CHECK(path->tilePath == expected.tilePath);
          CHECK(path->tilePath.size() > 500);
        }
      }
    }
    CHECK(int(firstPlanFrame.size()) == n);  // everyone got a path in the end
    CHECK(suspendedFrames > 0);
    CHECK(sliceOnlyFrames > 0);  // frames that only moved a long search on: plans finished in later frames
    CHECK(total > 10 * budget);  // the work really was many frames' worth
  }
}

TEST_CASE("scheduler: under time budgets down to a few microseconds, plans finish over later frames bit for bit",
          "[schedule][budget][property]") {
  // Random maps of every layout, weighted or of one cost, and the town with its doors and
  // furniture; characters that stand still (no move()), so that each first path can be compared
  // with a plan() made afresh.
  std::mt19937 random(31);
  const std::vector<Layout> layouts = test::allLayouts();
  int compared = 0, stageFrames = 0;
  for (int trial = 0; trial < 12; ++trial) {
    CAPTURE(trial);
    const bool town = trial == 11;
    TileMap map = test::randomMap(random, layouts[std::size_t(trial) % layouts.size()], 30, 24, 0.2, trial % 2 == 0);
    std::vector<DoorSpec> doors;
    std::vector<EntitySpec> entities;
    if (town) {
      auto document = readRpgMap(test::sampleMapsDir() / "town.rpgmap");
      REQUIRE(document);
      map = document->map;
      doors = document->doors;
      entities = document->entities;
    }
    World world(map);
    REQUIRE(world.addFeatures(doors, entities) == Status::Ok);
    const double budget = std::array<double, 4>{1.0, 3.0, 8.0, 25.0}[std::size_t(trial) % 4];
    SchedulerSettings settings;
    settings.stuckTime = 1e9;
    ReplanScheduler scheduler(world, {}, settings);
    std::vector<CharacterSpec> specs;
    const float tile = world.map().layout().tileSize();
    for (std::uint32_t id = 1; id <= 8; ++id) {
      auto open = [&]() -> std::optional<Vec2> {
        for (int attempt = 0; attempt < 500; ++attempt) {
          const Cell cell{std::uniform_int_distribution<int>(0, world.map().width() - 1)(random),
                          std::uniform_int_distribution<int>(0, world.map().height() - 1)(random)};
          const Vec2 p = world.map().layout().tileCenter(cell);
          if (world.map().passable(cell, kWalk) && probeSegment(world.map(), kWalk, p, p, 0.25f * tile).clear) return p;
        }
        return std::nullopt;
      };
      const auto start = open(), goal = open();
      if (!start || !goal) continue;
      specs.push_back(test::characterSpec(id + 1000, *start, Goal::at(*goal), 2.0f, 0.25f * tile));
      REQUIRE(specs.size() == id);
      REQUIRE(scheduler.add(specs.back()) == Status::Ok);
    }
    std::map<std::uint32_t, bool> seen;
    for (int frame = 0; frame < 3000 && seen.size() < specs.size(); ++frame) {
      scheduler.update(frame / 60.0, ReplanBudget::time(budget));
      const SchedulerStats& stats = scheduler.stats();
      if (stats.slices > 0 && stats.plans == 0 && stats.expansions == 0) ++stageFrames;  // only stages after a search
      for (const ReplanEvent& event : scheduler.events()) {
        if (seen.count(event.character.value) != 0) continue;
        seen[event.character.value] = true;
        const CharacterSpec& spec = specs[event.character.value - 1001];
        Planner fresh(scheduler.navData(), scheduler.planner().settings());
        PathRequest request{spec.position, spec.goal.point, spec.mobility, spec.radius};
        request.character = spec.id;
        PathResult expected;
        CHECK(fresh.plan(request, expected) == event.status);
        const PathResult* path = scheduler.path(event.character);
        if (!isSuccess(event.status)) continue;
        REQUIRE(path != nullptr);
        CHECK(path->controlPoints == expected.controlPoints);
        CHECK(path->tilePath == expected.tilePath);
        CHECK(path->cost == expected.cost);
        CHECK(path->smoothed.samples().size() == expected.smoothed.samples().size());
        ++compared;
      }
    }
    CHECK(seen.size() == specs.size());  // everyone got an answer
  }
  CHECK(compared >= 50);
  CHECK(stageFrames >= 50);  // frames that went on with a plan's stages, not its search
}

TEST_CASE("scheduler: the cadence counter says when the budget cannot keep every character planned once an interval",
          "[schedule][budget]") {
  const TileMap map = serpentine(60, 60);
  const World world(map);
  std::mt19937 random(8);
  for (const bool starved : {false, true}) {
    CAPTURE(starved);
    SchedulerSettings settings;
    settings.stuckTime = 1e9;
    ReplanScheduler scheduler(world, {}, settings);
    for (std::uint32_t id = 1; id <= 60; ++id) {
      REQUIRE(scheduler.add(character(id, randomFloor(random, map), Goal::at(randomFloor(random, map)))) == Status::Ok);
    }
    // No limit: every due plan in its frame. A few hundred expansions a frame: far too few for
    // 60 long searches a second.
    const ReplanBudget budget = starved ? ReplanBudget::work(300) : ReplanBudget{};
    std::int64_t summed = 0;
    double longest = 0.0;
    for (int frame = 0; frame < 600; ++frame) {
      scheduler.update(frame / 60.0, budget);
      summed += scheduler.stats().lateTurns;
      longest = std::max(longest, scheduler.stats().longestWait);
      CHECK(scheduler.stats().longestWait >= 0.0);
      if (scheduler.stats().lateTurns > 0) CHECK(scheduler.stats().longestWait > settings.interval);
    }
    CHECK(scheduler.lateTurns() == summed);
    if (starved) {
      CHECK(summed > 20);
      CHECK(longest > settings.interval);
    } else {
      CHECK(summed == 0);
      CHECK(longest <= 1.0 / 60.0 + 1e-9);  // every turn taken in the frame after it came due
    }
  }
}

// ---------------------------------------------------------------------------------------------
// 3. No starvation

TEST_CASE("scheduler: with far more work than budget, nobody starves", "[schedule]") {
  std::mt19937 random(23);
  const TileMap map = test::randomMap(random, Layout::square(), 40, 40, 0.15, false);
  const World world(map);
  SchedulerSettings settings;
  settings.stuckTime = 1e9;
  ReplanScheduler scheduler(world, {}, settings);
  const std::uint32_t periodic = 300, restless = 3;
  for (std::uint32_t id = 1; id <= periodic + restless; ++id) {
    REQUIRE(scheduler.add(character(id, randomFloor(random, map, 0, 10), Goal::at(randomFloor(random, map, 29, 39)))) ==
            Status::Ok);
  }
  const Vec2 goals[2] = {randomFloor(random, map, 29, 39), randomFloor(random, map, 29, 39)};
  const double dt = 1.0 / 30.0;
  const int frames = 30 * 60;
  std::vector<int> atHalf;
  int restlessPlans = 0;
  for (int frame = 0; frame < frames; ++frame) {
    // The restless ones get a new goal every frame: a GoalChanged trigger each time.
    for (std::uint32_t id = periodic + 1; id <= periodic + restless; ++id) {
      REQUIRE(scheduler.setGoal(EntityId{id}, Goal::at(goals[frame % 2])) == Status::Ok);
    }
    scheduler.update(frame * dt, ReplanBudget::work(40));
    for (const ReplanEvent& event : scheduler.events()) restlessPlans += event.character.value > periodic ? 1 : 0;
    if (frame == frames / 2) {
      for (std::uint32_t id = 1; id <= periodic + restless; ++id) atHalf.push_back(scheduler.info(EntityId{id}).plans);
    }
  }
  int total = 0, fewest = std::numeric_limits<int>::max(), fewestLate = std::numeric_limits<int>::max();
  for (std::uint32_t id = 1; id <= periodic + restless; ++id) {
    const int plans = scheduler.info(EntityId{id}).plans;
    total += plans;
    if (id <= periodic) {
      fewest = std::min(fewest, plans);
      fewestLate = std::min(fewestLate, plans - atHalf[id - 1]);
    }
  }
  const double mean = double(total) / double(periodic + restless);
  INFO("plans " << total << ", mean " << mean << ", fewest " << fewest << ", fewest in the second half " << fewestLate
                << ", restless " << restlessPlans);
  CHECK(mean >= 3.0);  // the test really has each character planned a few times
  CHECK(mean < 30.0);  // ...and far fewer times than once per interval (the budget binds)
  // Everyone is planned, again and again, about as often as the others: the periodic ones are
  // not starved by the triggered ones...
  CHECK(fewest >= mean / 2.0);
  CHECK(fewestLate >= 1);
  // ...and the triggered ones are served first only within reason (their triggers keep them at
  // the front among those waiting less than an interval).
  for (std::uint32_t id = periodic + 1; id <= periodic + restless; ++id) {
    CHECK(scheduler.info(EntityId{id}).plans >= mean / 2.0);
  }
}

TEST_CASE("scheduler: a character whose goal changes faster than its searches finish still gets paths", "[schedule]") {
  // A winding corridor: every search from the top to the bottom takes many frames at a budget
  // of a few expansions, and the goal changes every frame. Dropping each unfinished search for
  // the new goal would leave the character without a path for ever.
  std::vector<std::string> rows;
  for (int y = 0; y < 21; ++y) {
    std::string row(41, '.');
    if (y % 2 == 1) {
      row.assign(41, '#');
      row[(y / 2) % 2 == 0 ? 39 : 1] = '.';
    }
    rows.push_back(row);
  }
  const std::vector<std::string_view> views(rows.begin(), rows.end());
  const TileMap map = test::mapFromRows(Layout::square(), views);
  const World world(map);
  SchedulerSettings settings;
  settings.stuckTime = 1e9;
  ReplanScheduler scheduler(world, {}, settings);
  REQUIRE(scheduler.add(character(1, centre(0, 0), Goal::at(centre(0, 20)))) == Status::Ok);
  const Vec2 goals[3] = {centre(2, 20), centre(38, 20), centre(20, 20)};
  int plans = 0, sliceOnlyFrames = 0, framesWithPath = 0, events = 0;
  std::mt19937 random(5);
  for (int frame = 0; frame < 400; ++frame) {
    const Vec2 goal = goals[std::uniform_int_distribution<int>(0, 2)(random)];
    REQUIRE(scheduler.setGoal(EntityId{1}, Goal::at(goal)) == Status::Ok);
    scheduler.update(frame / 30.0, ReplanBudget::work(2));
    if (scheduler.stats().slices > 0 && scheduler.stats().plans == 0) ++sliceOnlyFrames;
    if (const PathResult* path = scheduler.path(EntityId{1})) {
      // A path to one of the goals it was given, down the whole corridor.
      ++framesWithPath;
      CHECK(std::any_of(std::begin(goals), std::end(goals), [&](Vec2 g) { return path->controlPoints.back() == g; }));
      CHECK(path->length > 100.0);
    }
    for (const ReplanEvent& event : scheduler.events()) {
      // Events come only for plans to the goal it has now (a plan for a goal replaced while it
      // was made tells the game nothing).
      ++events;
      CHECK(event.status == Status::Ok);
      CHECK(scheduler.path(event.character)->controlPoints.back() == goal);
    }
    plans = scheduler.info(EntityId{1}).plans;
  }
  INFO("plans " << plans << ", frames that only moved a search on " << sliceOnlyFrames << ", events " << events);
  CHECK(sliceOnlyFrames > 100);  // each search really outlasts a frame
  CHECK(plans >= 5);
  CHECK(framesWithPath > 200);
  CHECK(events < plans);  // some plans were for goals replaced meanwhile: walked, not reported
  // Then the goal stays: the next plan is for it, with its event.
  REQUIRE(scheduler.setGoal(EntityId{1}, Goal::at(goals[0])) == Status::Ok);
  bool arrived = false;
  for (int frame = 400; frame < 800 && !arrived; ++frame) {
    scheduler.update(frame / 30.0, ReplanBudget::work(2));
    for (const ReplanEvent& event : scheduler.events()) {
      CHECK(event.kind == ReplanEventKind::NewPath);
      CHECK(event.reason == ReplanReason::GoalChanged);
      CHECK(scheduler.path(event.character)->controlPoints.back() == goals[0]);
      arrived = true;
    }
  }
  CHECK(arrived);
}

// ---------------------------------------------------------------------------------------------
// 4. Stickiness

namespace {

// Which way round the central block the path goes: -1 above, +1 below, 0 neither.
int sideOf(const PathResult& path) {
  int side = 0;
  for (const Vec2& p : path.controlPoints) {
    if (p.y() < 2.5f) side = side == 1 ? 2 : -1;
    if (p.y() > 4.5f) side = side == -1 ? 2 : 1;
  }
  return side;
}

// A character between two equally long corridors; every 1.5 s the corridor it takes gets a hill
// tile (dearer by about 4%) and the other loses its hill. Returns how often its side changed.
// `designed`: the world's designer stickiness, in place of `stickiness` where set.
int sideChanges(double stickiness, int& kept, std::optional<float> designed = std::nullopt) {
  TileMap map = test::mapFromAscii(Layout::square(), {
                                                         "#########################",
                                                         "#.......................#",
                                                         "#.#####################.#",
                                                         "#.#####################.#",
                                                         "#.#####################.#",
                                                         "#.......................#",
                                                         "#########################",
                                                     });
  World world(map);
  REQUIRE(world.setDesignSettings({.stickiness = designed}) == Status::Ok);
  SchedulerSettings settings;
  settings.interval = 0.5;
  settings.stickiness = stickiness;
  settings.fullReplanInterval = 0.0;  // every periodic plan searches afresh: only stickiness keeps the route
  settings.stuckTime = 1e9;           // it stands still on purpose
  ReplanScheduler scheduler(world, {}, settings);
  const EntityId id{1};
  REQUIRE(scheduler.add(character(id.value, centre(1, 3), Goal::at(centre(23, 3)))) == Status::Ok);
  const Cell upper{12, 1}, lower{12, 5};
  int changes = 0, side = 0;
  kept = 0;
  for (int frame = 0; frame <= 300; ++frame) {
    const double now = frame / 30.0;
    if (frame > 0 && frame % 45 == 0) {
      // Make the side it uses the dearer one.
      REQUIRE((side == -1 || side == 1));
      REQUIRE(map.setTerrain(side == -1 ? upper : lower, terrainOf(map, 'h')) == Status::Ok);
      REQUIRE(map.setTerrain(side == -1 ? lower : upper, terrainOf(map, '.')) == Status::Ok);
    }
    scheduler.update(now, ReplanBudget{});
    kept += scheduler.stats().kept;
    for (const ReplanEvent& event : scheduler.events()) {
      INFO(describe(event));
      CHECK(event.kind == ReplanEventKind::NewPath);
      CHECK((event.reason == ReplanReason::First || event.reason == ReplanReason::Periodic));
    }
    const PathResult* path = scheduler.path(id);
    REQUIRE(path != nullptr);
    const int now_side = sideOf(*path);
    REQUIRE((now_side == -1 || now_side == 1));
    if (side != 0 && now_side != side) ++changes;
    side = now_side;
  }
  CHECK(scheduler.info(id).plans >= 18);  // periodic plans every half second
  return changes;
}

}  // namespace

TEST_CASE("scheduler: stickiness keeps a path that another route beats by only a little", "[schedule]") {
  int kept = 0;
  CHECK(sideChanges(0.1, kept) == 0);
  CHECK(kept >= 10);  // periodic plans found the other side cheaper and were not taken
  // Without stickiness the same scenario flips sides after every change: the test can fail.
  CHECK(sideChanges(0.0, kept) >= 4);
}

TEST_CASE("scheduler: the map's stickiness takes the place of the code's", "[schedule][settings]") {
  int kept = 0;
  CHECK(sideChanges(0.0, kept, 0.1f) == 0);
  CHECK(kept >= 10);
  CHECK(sideChanges(0.1, kept, 0.0f) >= 4);
}

// ---------------------------------------------------------------------------------------------
// 5. Triggers

TEST_CASE("scheduler triggers: goal changed", "[schedule][triggers]") {
  const TileMap map = room();
  const World world(map);
  ReplanScheduler scheduler(world, {}, quiet());
  REQUIRE(scheduler.add(character(1, centre(2, 5), Goal::at(centre(17, 5)))) == Status::Ok);
  double now = 0.0;
  scheduler.update(now, {});
  REQUIRE(scheduler.events().size() == 1);
  CHECK(scheduler.events()[0].reason == ReplanReason::First);
  CHECK(run(scheduler, now, 5).empty());  // nothing changed: nothing planned
  REQUIRE(scheduler.setGoal(EntityId{1}, Goal::at(centre(17, 2))) == Status::Ok);
  CHECK(scheduler.info(EntityId{1}).reason == ReplanReason::GoalChanged);
  const std::vector<ReplanEvent> events = run(scheduler, now, 2);
  REQUIRE(events.size() == 1);
  CHECK(events[0].reason == ReplanReason::GoalChanged);
  CHECK(events[0].kind == ReplanEventKind::NewPath);
  CHECK(scheduler.path(EntityId{1})->controlPoints.back() == centre(17, 2));
}

TEST_CASE("scheduler triggers: followed entity moved", "[schedule][triggers]") {
  const TileMap map = room();
  World world(map);
  ReplanScheduler scheduler(world, {}, quiet());
  REQUIRE(scheduler.add(character(2, centre(16, 5), Goal::at(centre(16, 5)))) == Status::Ok);  // the leader
  REQUIRE(scheduler.add(character(1, centre(2, 5), Goal::following(EntityId{2}))) == Status::Ok);
  REQUIRE(world.entities().add({EntityId{50}, Vec2(16.5f, 2.5f), 0.2f, kEntityMoving}) == Status::Ok);
  REQUIRE(scheduler.add(character(3, centre(2, 2), Goal::following(EntityId{50}))) == Status::Ok);  // a world entity
  double now = 0.0;
  scheduler.update(now, {});
  REQUIRE(scheduler.events().size() == 3);
  CHECK(scheduler.path(EntityId{1})->controlPoints.back() == centre(16, 5));
  CHECK(scheduler.path(EntityId{3})->controlPoints.back() == Vec2(16.5f, 2.5f));
  // Less than goalMoveThreshold (a tile): no replan.
  REQUIRE(scheduler.setPosition(EntityId{2}, Vec2(16.5f, 6.2f)) == Status::Ok);
  REQUIRE(world.entities().move(EntityId{50}, Vec2(16.5f, 3.2f)) == Status::Ok);
  CHECK(run(scheduler, now, 5).empty());
  // Far: the followers are planned again, to where the leaders are now. Their outcome is a
  // path to the goal, as before: no event (events tell changes of outcome), but a plan each.
  REQUIRE(scheduler.setPosition(EntityId{2}, centre(12, 8)) == Status::Ok);
  REQUIRE(world.entities().move(EntityId{50}, Vec2(10.5f, 1.5f)) == Status::Ok);
  const std::int32_t plans1 = scheduler.info(EntityId{1}).plans, plans3 = scheduler.info(EntityId{3}).plans;
  CHECK(run(scheduler, now, 2).empty());
  CHECK(scheduler.info(EntityId{1}).plans == plans1 + 1);
  CHECK(scheduler.info(EntityId{3}).plans == plans3 + 1);
  CHECK(scheduler.info(EntityId{1}).lastReason == ReplanReason::GoalMoved);
  CHECK(scheduler.info(EntityId{3}).lastReason == ReplanReason::GoalMoved);
  CHECK(scheduler.path(EntityId{1})->controlPoints.back() == centre(12, 8));
  CHECK(scheduler.path(EntityId{3})->controlPoints.back() == Vec2(10.5f, 1.5f));
}

namespace {

// Two rooms; the way from the upper left to the upper right goes down to the doorway at (5, 3)
// (a bend: the path comes from a search).
TileMap doorRooms() {
  return test::mapFromAscii(Layout::square(), {
                                                  "###########",
                                                  "#....#....#",
                                                  "#....#....#",
                                                  "#.........#",
                                                  "#....#....#",
                                                  "#....#....#",
                                                  "###########",
                                              });
}

// Closes the door on the path from the upper left to the upper right room, then opens it again:
// checks the events (a DoorChanged replan each time).
void closeAndOpen(World& world, DoorId door, DoorId elsewhere) {
  ReplanScheduler scheduler(world, {}, quiet());
  REQUIRE(scheduler.add(character(1, centre(2, 1), Goal::at(centre(8, 1)))) == Status::Ok);
  double now = 0.0;
  scheduler.update(now, {});
  REQUIRE(scheduler.events().size() == 1);
  REQUIRE(scheduler.events()[0].kind == ReplanEventKind::NewPath);
  REQUIRE_FALSE(scheduler.path(EntityId{1})->tilePath.empty());
  // A door that is not on the path: nothing.
  REQUIRE(world.setDoorState(elsewhere, DoorState::Closed) == Status::Ok);
  CHECK(run(scheduler, now, 5).empty());
  // The door it goes through closes: planned again, and it now stops in front of the door.
  REQUIRE(world.setDoorState(door, DoorState::Closed) == Status::Ok);
  std::vector<ReplanEvent> events = run(scheduler, now, 2);
  REQUIRE(events.size() == 1);
  CHECK(events[0].reason == ReplanReason::DoorChanged);
  CHECK(events[0].kind == ReplanEventKind::StoppedAtDoor);
  CHECK(events[0].status == Status::StoppedAtDoor);
  CHECK(events[0].door == door);
  CHECK(scheduler.path(EntityId{1})->door == door);
  // It opens again: the door it stops at changed, so it is planned again, through it.
  REQUIRE(world.setDoorState(door, DoorState::Open) == Status::Ok);
  events = run(scheduler, now, 2);
  REQUIRE(events.size() == 1);
  CHECK(events[0].reason == ReplanReason::DoorChanged);
  CHECK(events[0].kind == ReplanEventKind::NewPath);
  CHECK(scheduler.path(EntityId{1})->controlPoints.back() == centre(8, 1));
}

}  // namespace

// The door on the path added first (id 1: ids count from 1, 0 means no door) or after another.
TEST_CASE("scheduler triggers: a door on the path changed state", "[schedule][triggers]") {
  for (const bool pathDoorFirst : {true, false}) {
    INFO("path door added first: " << pathDoorFirst);
    const TileMap map = doorRooms();
    World world(map);
    const DoorSpec onPath{"door", {4, 3}, {5, 3}, DoorState::Open}, away{"elsewhere", {8, 4}, {8, 5}, DoorState::Open};
    const DoorId first = world.addDoor(pathDoorFirst ? onPath : away).value();
    const DoorId second = world.addDoor(pathDoorFirst ? away : onPath).value();
    CHECK(first == DoorId{1});
    closeAndOpen(world, pathDoorFirst ? first : second, pathDoorFirst ? second : first);
  }
}

namespace {
class DoorStops final : public DoorListener {
 public:
  void stoppedAtDoor(const DoorStop& stop) override { stops.push_back(stop); }
  std::vector<DoorStop> stops;
};
}  // namespace

// One character waits at a closed door while the scheduler replans it about once a second: the
// game hears of the stop once (one event, one listener call), not once per replan; opening the
// door is a change (a path through it), closing it again another (a new stop).
TEST_CASE("scheduler events: a character held at a closed door is told once per change", "[schedule][events][doors]") {
  const TileMap map = doorRooms();
  World world(map);
  const DoorId door = world.addDoor({"door", {4, 3}, {5, 3}, DoorState::Closed}).value();
  DoorStops listener;
  world.setDoorListener(&listener);
  ReplanScheduler scheduler(world);  // replans every second
  REQUIRE(scheduler.add(character(1, centre(2, 1), Goal::at(centre(8, 1)))) == Status::Ok);
  Recorder recorder;
  scheduler.setListener(&recorder);
  double now = 0.0;
  scheduler.update(now, {});
  const std::vector<ReplanEvent> held = run(scheduler, now, 180);  // and 6 s more
  CHECK(scheduler.info(EntityId{1}).plans >= 6);  // replanned all along...
  REQUIRE(recorder.events.size() == 1);           // ...but told once
  CHECK(held.empty());
  CHECK(recorder.events[0].kind == ReplanEventKind::StoppedAtDoor);
  CHECK(recorder.events[0].door == door);
  REQUIRE(listener.stops.size() == 1);
  CHECK(listener.stops[0].character == EntityId{1});
  CHECK(listener.stops[0].door == door);
  CHECK(listener.stops[0].point == scheduler.path(EntityId{1})->stopPoint);
  // Opened: a path through it (a change); the listener hears nothing.
  REQUIRE(world.setDoorState(door, DoorState::Open) == Status::Ok);
  std::vector<ReplanEvent> events = run(scheduler, now, 2);
  REQUIRE(events.size() == 1);
  CHECK(events[0].kind == ReplanEventKind::NewPath);
  CHECK(listener.stops.size() == 1);
  // Closed again before it got there: it stops again, a change: one event, one call.
  REQUIRE(world.setDoorState(door, DoorState::Closed) == Status::Ok);
  events = run(scheduler, now, 90);
  REQUIRE(events.size() == 1);
  CHECK(events[0].kind == ReplanEventKind::StoppedAtDoor);
  CHECK(listener.stops.size() == 2);
  // A direct plan by the game tells the listener once per plan that stops, as always.
  Planner planner(world);
  PathResult result;
  const PathRequest request{centre(2, 1), centre(8, 1), kWalk, 0.2f, EntityId{9}};
  REQUIRE(planner.plan(request, result) == Status::StoppedAtDoor);
  REQUIRE(planner.plan(request, result) == Status::StoppedAtDoor);
  CHECK(listener.stops.size() == 4);
  world.setDoorListener(nullptr);
}

namespace {
class PassAll final : public DoorPolicy {
 public:
  DoorDecision decide(const Door&, const Traveller&) const override { return {DoorAction::Pass, 0.0f}; }
};
}  // namespace

// A character's own QueryFilter: its plans (update() and jobs alike) use its door policy and
// terrain costs; the others keep the world's.
TEST_CASE("scheduler: a character's query filter", "[schedule][filter]") {
  const TileMap map = doorRooms();
  World world(map);
  const DoorId door = world.addDoor({"door", {4, 3}, {5, 3}, DoorState::Closed}).value();
  const PassAll pass;
  QueryFilter filter;
  filter.doorPolicy = &pass;
  const TerrainCost dearFloor[] = {{terrainOf(map, '.'), 2.0f}};
  filter.costs = dearFloor;
  ReplanScheduler scheduler(world);
  CharacterSpec key = character(1, centre(2, 1), Goal::at(centre(8, 1)));
  key.filter = &filter;
  REQUIRE(scheduler.add(key) == Status::Ok);
  REQUIRE(scheduler.add(character(2, centre(2, 2), Goal::at(centre(8, 2)))) == Status::Ok);
  double now = 0.0;
  scheduler.update(now, {});
  REQUIRE(scheduler.path(EntityId{1}) != nullptr);
  CHECK(scheduler.path(EntityId{1})->status == Status::Ok);  // through the closed door
  CHECK(scheduler.path(EntityId{2})->status == Status::StoppedAtDoor);
  CHECK(scheduler.path(EntityId{2})->door == door);
  // The same path as the filtered query's on a planner, the cost the filter's.
  Planner planner(world, scheduler.planner().settings());
  PathRequest request{centre(2, 1), centre(8, 1), kWalk, 0.2f, EntityId{1}};
  request.filter = &filter;
  PathResult direct;
  REQUIRE(planner.plan(request, direct) == Status::Ok);
  CHECK(direct.controlPoints == scheduler.path(EntityId{1})->controlPoints);
  CHECK(direct.cost == scheduler.path(EntityId{1})->cost);
  CHECK(direct.cost > 1.9 * direct.length);
  // Through a job on a worker's planner as well.
  std::vector<PlanJob> jobs;
  REQUIRE(scheduler.setGoal(EntityId{1}, Goal::at(centre(8, 2))) == Status::Ok);
  scheduler.collectDue(now + 0.1, 8, jobs);
  REQUIRE(jobs.size() == 1);
  Planner worker(scheduler.navData(), scheduler.planner().settings());
  CHECK(jobs[0].run(worker) == Status::Ok);
  scheduler.acceptJobs(now + 0.1, jobs);
  CHECK(scheduler.path(EntityId{1})->status == Status::Ok);
  // A filter with costs the data cannot take is refused.
  const TerrainCost bad[] = {{TerrainId{200}, 1.0f}};
  QueryFilter badFilter;
  badFilter.costs = bad;
  CharacterSpec other = character(3, centre(2, 4), Goal::at(centre(8, 4)));
  other.filter = &badFilter;
  CHECK(scheduler.add(other) == Status::InvalidArgument);
}

// A straight-line path (no search ran, so no tile path) through an open doorway: closing the door
// replans it (the doors on a path are read from its segments).
TEST_CASE("scheduler triggers: a door on a straight-line path changed state", "[schedule][triggers]") {
  const TileMap map = doorRooms();
  World world(map);
  const DoorId door = world.addDoor({"door", {4, 3}, {5, 3}, DoorState::Open}).value();
  ReplanScheduler scheduler(world, {}, quiet());
  REQUIRE(scheduler.add(character(1, centre(1, 3), Goal::at(centre(9, 3)))) == Status::Ok);  // straight through the doorway
  double now = 0.0;
  scheduler.update(now, {});
  REQUIRE(scheduler.events().size() == 1);
  REQUIRE(scheduler.events()[0].kind == ReplanEventKind::NewPath);
  CHECK(scheduler.path(EntityId{1})->tilePath.empty());  // the straight line sufficed: no search ran
  REQUIRE(world.setDoorState(door, DoorState::Closed) == Status::Ok);
  const std::vector<ReplanEvent> events = run(scheduler, now, 2);
  REQUIRE(events.size() == 1);
  CHECK(events[0].reason == ReplanReason::DoorChanged);
  CHECK(events[0].kind == ReplanEventKind::StoppedAtDoor);
  CHECK(events[0].door == door);
}

// Under load, a character already overdue by more than an interval keeps its queue place when a
// trigger comes, and the trigger's reason and its "search afresh" are kept: its door closes, and
// when its turn comes it is planned for that reason (no stickiness keeps the path through the
// closed door).
TEST_CASE("scheduler triggers: a trigger on an overdue character keeps its reason", "[schedule][triggers]") {
  // Second case: the goal a tile beyond the door and stickiness 0.5: the path through the closed
  // door is kept, with no event at all.
  for (const auto& [goal, stickiness] : {std::pair{centre(8, 1), 0.1}, std::pair{centre(6, 3), 0.5}}) {
    INFO("stickiness " << stickiness);
    const TileMap map = doorRooms();
    World world(map);
      const DoorId door = world.addDoor({"door", {4, 3}, {5, 3}, DoorState::Open}).value();
    SchedulerSettings settings;
    settings.interval = 0.1;
    settings.stickiness = stickiness;
    settings.stuckTime = 1e9;
    ReplanScheduler scheduler(world, {}, settings);
    REQUIRE(scheduler.add(character(1, centre(1, 1), Goal::at(goal))) == Status::Ok);
    // A crowd standing in the right room: one plan (or search slice) per frame is far too little.
    for (std::uint32_t id = 2; id <= 100; ++id) {
      REQUIRE(scheduler.add(character(id, centre(6 + int(id % 4), 1 + int(id % 5)), Goal::at(centre(9, 5)))) == Status::Ok);
    }
    const double dt = 1.0 / 30.0;
    scheduler.update(0.0, {});  // everyone gets a path
    REQUIRE(scheduler.events().size() == 100);
    REQUIRE_FALSE(scheduler.path(EntityId{1})->tilePath.empty());  // through the door (a search ran)
    int frame = 1;
    for (; frame <= 10; ++frame) scheduler.update(frame * dt, ReplanBudget::work(1));
    REQUIRE(scheduler.info(EntityId{1}).nextTurn < frame * dt - settings.interval);  // overdue by more than an interval
    REQUIRE(world.setDoorState(door, DoorState::Closed) == Status::Ok);
    const int plans = scheduler.info(EntityId{1}).plans;
    std::vector<ReplanEvent> mine;
    for (; frame < 400 && scheduler.info(EntityId{1}).plans == plans; ++frame) {
      scheduler.update(frame * dt, ReplanBudget::work(1));
      for (const ReplanEvent& event : scheduler.events()) {
        if (event.character == EntityId{1}) mine.push_back(event);
      }
    }
    REQUIRE(scheduler.info(EntityId{1}).plans == plans + 1);  // its turn came
    CHECK(mine.size() == 1);  // (before the fix: no event with stickiness 0.5)
    for (const ReplanEvent& event : mine) {
      CHECK(event.reason == ReplanReason::DoorChanged);  // (before the fix: Periodic)
      CHECK(event.kind == ReplanEventKind::StoppedAtDoor);
    }
    CHECK(scheduler.path(EntityId{1})->status == Status::StoppedAtDoor);  // (before the fix: Ok, through the closed door)
  }
}

TEST_CASE("scheduler triggers: tiles under the path changed", "[schedule][triggers]") {
  TileMap map = room();
  const World world(map);
  ReplanScheduler scheduler(world, {}, quiet());
  REQUIRE(scheduler.add(character(1, centre(2, 5), Goal::at(centre(17, 5)))) == Status::Ok);
  double now = 0.0;
  scheduler.update(now, {});
  REQUIRE(scheduler.events().size() == 1);
  // A wall away from the path, and dearer ground under it (still clear): no replan.
  REQUIRE(map.setTerrain({10, 1}, terrainOf(map, '#')) == Status::Ok);
  REQUIRE(map.setTerrain({12, 5}, terrainOf(map, 'h')) == Status::Ok);
  CHECK(run(scheduler, now, 5).empty());
  CHECK(scheduler.info(EntityId{1}).plans == 1);
  // A wall on it: planned again at once (a new path to the goal, as before: no event).
  REQUIRE(map.setTerrain({10, 5}, terrainOf(map, '#')) == Status::Ok);
  CHECK(run(scheduler, now, 2).empty());
  CHECK(scheduler.info(EntityId{1}).plans == 2);
  CHECK(scheduler.info(EntityId{1}).lastReason == ReplanReason::MapChanged);
  const PathResult* path = scheduler.path(EntityId{1});
  for (std::size_t i = 1; i < path->controlPoints.size(); ++i) {
    CHECK(probeSegment(map, kWalk, path->controlPoints[i - 1], path->controlPoints[i], 0.2f).clear);
  }
}

TEST_CASE("scheduler: data an update could not keep is prepared again once the costs are valid", "[schedule]") {
  // A floor cost the search cannot take loses the layer (plans are refused); set right again,
  // the scheduler's next update makes the characters' data ready without a new add().
  TileMap map = room();
  const World world(map);
  ReplanScheduler scheduler(world, {}, quiet());
  REQUIRE(scheduler.add(character(1, centre(2, 5), Goal::at(centre(17, 5)), 2.0f, 1.2f)) == Status::Ok);
  double now = 0.0;
  scheduler.update(now, {});
  REQUIRE(scheduler.path(EntityId{1}) != nullptr);
  CHECK(scheduler.path(EntityId{1})->status == Status::Ok);
  const TerrainId floor = terrainOf(map, '.');
  REQUIRE(map.setTerrainCost(floor, kWalk, 5000.0f) == Status::Ok);
  scheduler.update(now += 0.1, {});
  CHECK_FALSE(scheduler.navData().ready(kWalk, 1.2f));
  REQUIRE(map.setTerrainCost(floor, kWalk, 1.0f) == Status::Ok);
  REQUIRE(scheduler.setGoal(EntityId{1}, Goal::at(centre(16, 4))) == Status::Ok);
  scheduler.update(now += 0.1, {});
  CHECK(scheduler.navData().ready(kWalk, 1.2f));
  run(scheduler, now, 3);
  CHECK(scheduler.path(EntityId{1})->status == Status::Ok);
  CHECK(scheduler.info(EntityId{1}).plans >= 2);
}

TEST_CASE("scheduler triggers: an entity in the corridor ahead", "[schedule][triggers]") {
  const TileMap map = room();
  World world(map);
  ReplanScheduler scheduler(world, {}, quiet());
  REQUIRE(scheduler.add(character(1, centre(2, 5), Goal::at(centre(17, 5)))) == Status::Ok);
  double now = 0.0;
  scheduler.update(now, {});
  REQUIRE(scheduler.events().size() == 1);
  // On the path but far ahead (beyond corridorLookahead), and near but off the path: nothing.
  REQUIRE(world.entities().add({EntityId{70}, Vec2(12.5f, 5.5f), 0.3f, kEntityMoving}) == Status::Ok);
  REQUIRE(world.entities().add({EntityId{71}, Vec2(3.5f, 2.5f), 0.3f, kEntityMoving}) == Status::Ok);
  REQUIRE(world.entities().add({EntityId{72}, Vec2(4.0f, 5.5f), 0.3f, kEntityFlat}) == Status::Ok);  // a rug
  CHECK(run(scheduler, now, 30).empty());
  CHECK(scheduler.info(EntityId{1}).plans == 1);
  // A tile and a half ahead, on the path: planned again within a corridor check interval (a
  // path round it to the goal: the outcome is unchanged, no event).
  REQUIRE(world.entities().add({EntityId{73}, Vec2(3.7f, 5.5f), 0.3f, kEntityMoving}) == Status::Ok);
  CHECK(run(scheduler, now, 10).empty());  // a third of a second
  CHECK(scheduler.info(EntityId{1}).plans == 2);
  CHECK(scheduler.info(EntityId{1}).lastReason == ReplanReason::EntityInCorridor);
  const PathResult* path = scheduler.path(EntityId{1});
  REQUIRE(path->detours.size() == 1);
  CHECK(path->detours[0].around == EntityId{73});
  // The new path goes round it: no more triggers.
  CHECK(run(scheduler, now, 30).empty());
  CHECK(scheduler.info(EntityId{1}).plans == 2);
}

TEST_CASE("scheduler triggers: stuck", "[schedule][triggers]") {
  const TileMap map = room();
  const World world(map);
  ReplanScheduler scheduler(world, {}, quiet());  // stuckTime 2 s
  REQUIRE(scheduler.add(character(1, centre(2, 5), Goal::at(centre(17, 5)), 1.0f)) == Status::Ok);  // stands still
  REQUIRE(scheduler.add(character(2, centre(2, 2), Goal::at(centre(17, 2)), 1.0f)) == Status::Ok);  // walks
  const double dt = 1.0 / 30.0;
  // The plans after the first (a replan of a stuck character that finds the same way out is no
  // change of outcome, so no event: the plan counts show it).
  std::vector<std::pair<EntityId, ScheduledPlan>> replans;
  for (int frame = 0; frame <= 75; ++frame) {  // 2.5 s
    const double now = frame * dt;
    scheduler.update(now, {});
    if (frame > 0) CHECK(scheduler.events().empty());
    for (const std::uint32_t id : {1u, 2u}) {
      const ReplanScheduler::CharacterInfo info = scheduler.info(EntityId{id});
      if (info.plans > 1 + std::int32_t(std::count_if(replans.begin(), replans.end(), [&](const auto& r) { return r.first == EntityId{id}; }))) {
        replans.push_back({EntityId{id}, {info.lastReason, info.lastPlanned}});
      }
    }
    scheduler.follow(EntityId{2}, 1.0 * dt);
  }
  REQUIRE(replans.size() == 1);
  CHECK(replans[0].first == EntityId{1});
  CHECK(replans[0].second.reason == ReplanReason::Stuck);
  CHECK(replans[0].second.time >= 2.0 - 1e-9);
  CHECK(replans[0].second.time <= 2.0 + 2 * dt);
}

// ---------------------------------------------------------------------------------------------
// 6. Events

TEST_CASE("scheduler: a character with goalFallback heads for the nearest reachable tile of a goal it cannot reach",
          "[schedule][fallback]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "###########",
                                                               "#....#....#",
                                                               "#....#....#",
                                                               "#....#....#",
                                                               "###########",
                                                           });
  World world(map);
  ReplanScheduler scheduler(world, {}, quiet());
  CharacterSpec hopeful = character(1, centre(1, 2), Goal::at(centre(8, 2)));  // the sealed room
  hopeful.goalFallback = true;
  REQUIRE(scheduler.add(hopeful) == Status::Ok);
  REQUIRE(scheduler.add(character(2, centre(1, 2), Goal::at(centre(8, 2)))) == Status::Ok);
  scheduler.update(0.0, {});
  std::map<std::uint32_t, ReplanEvent> by;
  for (const ReplanEvent& event : eventsOf(scheduler)) by[event.character.value] = event;
  REQUIRE(by.size() == 2);
  CHECK(by[1].kind == ReplanEventKind::NewPath);
  CHECK(by[1].status == Status::PartialPath);
  REQUIRE(scheduler.path(EntityId{1}) != nullptr);
  REQUIRE(scheduler.path(EntityId{1})->fallbackGoal);
  CHECK(*scheduler.path(EntityId{1})->fallbackGoal == centre(4, 2));  // beside the wall, nearest the goal
  CHECK(scheduler.path(EntityId{1})->controlPoints.back() == centre(4, 2));
  CHECK(by[2].kind == ReplanEventKind::GoalUnreachable);
  CHECK(by[2].status == Status::NoPath);
}

TEST_CASE("scheduler events: kinds, statuses, and the listener hears them all in order", "[schedule]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "###########",
                                                               "#....#....#",
                                                               "#....#....#",
                                                               "#.........#",
                                                               "#....#....#",
                                                               "#....#..###",
                                                               "#....#..#.#",
                                                               "###########",
                                                           });
  World world(map);
  const DoorId door = world.addDoor({"door", {4, 3}, {5, 3}, DoorState::Closed}).value();
  ReplanScheduler scheduler(world, {}, quiet());
  Recorder recorder;
  scheduler.setListener(&recorder);
  REQUIRE(scheduler.add(character(1, centre(2, 1), Goal::at(centre(2, 5)))) == Status::Ok);   // same room
  REQUIRE(scheduler.add(character(2, centre(2, 1), Goal::at(centre(7, 1)))) == Status::Ok);   // through the door
  REQUIRE(scheduler.add(character(3, centre(2, 1), Goal::at(centre(9, 6)))) == Status::Ok);   // into the pocket
  REQUIRE(scheduler.add(character(4, centre(2, 1), Goal::following(EntityId{999}))) == Status::Ok);  // nobody
  scheduler.update(0.0, {});
  const std::vector<ReplanEvent> events = eventsOf(scheduler);
  REQUIRE(events.size() == 4);
  std::map<std::uint32_t, ReplanEvent> by;
  for (const ReplanEvent& event : events) {
    CHECK(event.reason == ReplanReason::First);
    CHECK(event.time == 0.0);
    by[event.character.value] = event;
  }
  REQUIRE(by.size() == 4);
  CHECK(by[1].kind == ReplanEventKind::NewPath);
  CHECK(by[1].status == Status::Ok);
  CHECK(by[2].kind == ReplanEventKind::StoppedAtDoor);
  CHECK(by[2].status == Status::StoppedAtDoor);
  CHECK(by[2].door == door);
  CHECK(by[3].kind == ReplanEventKind::GoalUnreachable);
  CHECK(by[3].status == Status::NoPath);
  CHECK(by[4].kind == ReplanEventKind::GoalUnreachable);
  CHECK(by[4].status == Status::InvalidArgument);
  CHECK(scheduler.path(EntityId{1}) != nullptr);
  CHECK(scheduler.path(EntityId{2}) != nullptr);
  CHECK(scheduler.path(EntityId{3}) == nullptr);  // no path now
  CHECK(scheduler.path(EntityId{4}) == nullptr);
  // The listener heard exactly these, in this order.
  REQUIRE(recorder.events.size() == events.size());
  for (std::size_t i = 0; i < events.size(); ++i) CHECK(sameEvent(recorder.events[i], events[i]));

  // An entity filling the doorway: the path ends in front of it.
  REQUIRE(world.setDoorState(door, DoorState::Open) == Status::Ok);
  REQUIRE(world.entities().add({EntityId{60}, Vec2(5.5f, 3.5f), 0.45f, kEntityStatic}) == Status::Ok);
  recorder.events.clear();
  double now = 0.0;
  const std::vector<ReplanEvent> later = run(scheduler, now, 3);
  REQUIRE(later.size() == 1);
  CHECK(later[0].character == EntityId{2});
  CHECK(later[0].reason == ReplanReason::DoorChanged);
  CHECK(later[0].kind == ReplanEventKind::BlockedByEntity);
  CHECK(later[0].status == Status::BlockedByEntity);
  CHECK(later[0].blocker == EntityId{60});
  REQUIRE(recorder.events.size() == 1);
  CHECK(sameEvent(recorder.events[0], later[0]));
}

// A character whose path ended in front of a blocking entity is planned along its route once the
// entity has gone: a plain new path, not a door stop (the old stop point is not carried over).
TEST_CASE("scheduler events: a periodic plan after a blocker left is a plain new path", "[schedule]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "############",
                                                               "#..........#",
                                                               "############",
                                                           });
  World world(map);
  REQUIRE(world.entities().add({EntityId{60}, Vec2(6.5f, 1.5f), 0.45f, kEntityStatic}) == Status::Ok);
  SchedulerSettings settings;
  settings.interval = 0.5;
  settings.stuckTime = 1e9;
  ReplanScheduler scheduler(world, {}, settings);
  REQUIRE(scheduler.add(character(1, centre(1, 1), Goal::at(centre(10, 1)))) == Status::Ok);
  double now = 0.0;
  scheduler.update(now, {});
  REQUIRE(scheduler.events().size() == 1);
  REQUIRE(scheduler.events()[0].kind == ReplanEventKind::BlockedByEntity);
  REQUIRE(world.entities().remove(EntityId{60}) == Status::Ok);
  const std::vector<ReplanEvent> events = run(scheduler, now, 30);  // a second: periodic plans
  REQUIRE_FALSE(events.empty());
  for (const ReplanEvent& event : events) {
    INFO(describe(event));
    CHECK(event.kind == ReplanEventKind::NewPath);
    CHECK(event.status == Status::Ok);
  }
  CHECK(scheduler.path(EntityId{1})->controlPoints.back() == centre(10, 1));
  CHECK(scheduler.path(EntityId{1})->status == Status::Ok);
}

// ---------------------------------------------------------------------------------------------
// 7. Determinism

namespace {

struct Outcome {
  std::vector<ReplanEvent> events;
  std::vector<Vec2> positions;
  std::vector<std::vector<Vec2>> paths;
  int arrivals = 0;
};

// 100 characters walking their paths at fixed speeds, each taking a new random goal when it
// arrives (or cannot get there), under an expansion budget.
Outcome wander() {
  std::mt19937 random(2025);
  const TileMap map = test::randomMap(random, Layout::square(), 40, 40, 0.18, true);
  World world(map);
  for (std::uint32_t i = 0; i < 25; ++i) {
    REQUIRE(world.entities().add({EntityId{1000 + i}, randomFloor(random, map), 0.3f, kEntityStatic}) == Status::Ok);
  }
  ReplanScheduler scheduler(world);
  const std::uint32_t n = 100;
  std::vector<float> speeds;
  for (std::uint32_t id = 1; id <= n; ++id) {
    speeds.push_back(std::uniform_real_distribution<float>(1.0f, 4.0f)(random));
    REQUIRE(scheduler.add(character(id, randomFloor(random, map), Goal::at(randomFloor(random, map)), speeds.back())) ==
            Status::Ok);
  }
  Outcome out;
  const double dt = 1.0 / 30.0;
  for (int frame = 0; frame < 300; ++frame) {
    scheduler.update(frame * dt, ReplanBudget::work(3000));
    out.events.insert(out.events.end(), scheduler.events().begin(), scheduler.events().end());
    for (const ReplanEvent& event : scheduler.events()) {
      if (event.kind == ReplanEventKind::GoalUnreachable) {
        REQUIRE(scheduler.setGoal(event.character, Goal::at(randomFloor(random, map))) == Status::Ok);
      }
    }
    for (std::uint32_t id = 1; id <= n; ++id) {
      const PathFollower::Step step = scheduler.follow(EntityId{id}, double(speeds[id - 1]) * dt);
      if (step.arrived) {
        ++out.arrivals;
        REQUIRE(scheduler.setGoal(EntityId{id}, Goal::at(randomFloor(random, map))) == Status::Ok);
      }
    }
  }
  for (std::uint32_t id = 1; id <= n; ++id) {
    out.positions.push_back(scheduler.position(EntityId{id}));
    const PathResult* path = scheduler.path(EntityId{id});
    out.paths.push_back(path != nullptr ? path->controlPoints : std::vector<Vec2>{});
  }
  return out;
}

// Characters of three sizes (a person, a cart of 1.2 tiles, an ogre of 2) on an open map with
// blocks, taking new goals where their bodies fit as they arrive.
Outcome wanderWide() {
  std::mt19937 random(2727);
  TileMap map = test::randomMap(random, Layout::square(), 48, 40, 0.0, true);
  const TerrainId wall = terrainOf(map, '#');
  for (int b = 0; b < 30; ++b) {
    const Cell low{std::uniform_int_distribution<int>(0, 45)(random), std::uniform_int_distribution<int>(0, 37)(random)};
    REQUIRE(map.setTerrain(low, Cell{low.x + std::uniform_int_distribution<int>(0, 2)(random),
                                     low.y + std::uniform_int_distribution<int>(0, 2)(random)}, wall) == Status::Ok);
  }
  const Clearance clearance = Clearance::build(map, kWalk);
  const float radii[] = {0.25f, 1.2f, 2.0f};
  auto fitting = [&](float radius) {
    for (;;) {
      const Cell cell{std::uniform_int_distribution<int>(0, 47)(random), std::uniform_int_distribution<int>(0, 39)(random)};
      if (clearance.fits(cell, double(radius) + 0.01)) return map.layout().tileCenter(cell);
    }
  };
  World world(map);
  ReplanScheduler scheduler(world);
  const std::uint32_t n = 12;
  for (std::uint32_t id = 1; id <= n; ++id) {
    const float radius = radii[id % 3];
    REQUIRE(scheduler.add(character(id, fitting(radius), Goal::at(fitting(radius)), 3.0f, radius)) == Status::Ok);
  }
  Outcome out;
  const double dt = 1.0 / 30.0;
  for (int frame = 0; frame < 600; ++frame) {
    scheduler.update(frame * dt, ReplanBudget::work(3000));
    out.events.insert(out.events.end(), scheduler.events().begin(), scheduler.events().end());
    for (const ReplanEvent& event : scheduler.events()) {
      if (event.kind == ReplanEventKind::GoalUnreachable) {
        REQUIRE(scheduler.setGoal(event.character, Goal::at(fitting(radii[event.character.value % 3]))) == Status::Ok);
      }
    }
    for (std::uint32_t id = 1; id <= n; ++id) {
      if (const PathResult* path = scheduler.path(EntityId{id})) {
        // Every path a wide character gets keeps its radius from the walls.
        INFO("character " << id << " radius " << radii[id % 3]);
        REQUIRE(test::judgePolyline(map, kWalk, path->controlPoints, double(radii[id % 3])).clear);
      }
      if (scheduler.follow(EntityId{id}, 3.0 * dt).arrived) {
        ++out.arrivals;
        REQUIRE(scheduler.setGoal(EntityId{id}, Goal::at(fitting(radii[id % 3]))) == Status::Ok);
      }
    }
  }
  for (std::uint32_t id = 1; id <= n; ++id) {
    out.positions.push_back(scheduler.position(EntityId{id}));
    const PathResult* path = scheduler.path(EntityId{id});
    out.paths.push_back(path != nullptr ? path->controlPoints : std::vector<Vec2>{});
  }
  return out;
}

bool bitwiseEqual(const std::vector<Vec2>& a, const std::vector<Vec2>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(Vec2)) == 0);
}

}  // namespace

TEST_CASE("scheduler: the same calls give the same events and positions, bit for bit", "[schedule]") {
  const Outcome a = wander();
  const Outcome b = wander();
  CHECK(a.arrivals > 20);  // they really walked and were re-goaled
  CHECK(a.events.size() > 300);
  std::map<ReplanReason, int> reasons;
  for (const ReplanEvent& event : a.events) ++reasons[event.reason];
  CHECK(reasons[ReplanReason::Periodic] > 0);
  CHECK(reasons[ReplanReason::GoalChanged] > 0);
  REQUIRE(a.events.size() == b.events.size());
  for (std::size_t i = 0; i < a.events.size(); ++i) {
    INFO("event " << i << ": " << describe(a.events[i]) << " / " << describe(b.events[i]));
    REQUIRE(sameEvent(a.events[i], b.events[i]));
  }
  CHECK(bitwiseEqual(a.positions, b.positions));
  REQUIRE(a.paths.size() == b.paths.size());
  for (std::size_t i = 0; i < a.paths.size(); ++i) CHECK(bitwiseEqual(a.paths[i], b.paths[i]));
}

TEST_CASE("scheduler: wide characters (1.2 and 2 tiles) are planned, keep their radius and arrive, the same bit for bit",
          "[schedule][wide]") {
  const Outcome a = wanderWide();
  const Outcome b = wanderWide();
  CHECK(a.arrivals > 12);
  REQUIRE(a.events.size() == b.events.size());
  for (std::size_t i = 0; i < a.events.size(); ++i) REQUIRE(sameEvent(a.events[i], b.events[i]));
  CHECK(bitwiseEqual(a.positions, b.positions));
  for (std::size_t i = 0; i < a.paths.size(); ++i) CHECK(bitwiseEqual(a.paths[i], b.paths[i]));
}

// ---------------------------------------------------------------------------------------------
// 8. Batches on threads

TEST_CASE("scheduler batches: jobs run on two threads give what they give run in turn", "[schedule][threads]") {
  std::mt19937 random(77);
  const TileMap map = test::randomMap(random, Layout::square(), 40, 40, 0.18, true);
  World world(map);
  for (std::uint32_t i = 0; i < 20; ++i) {
    REQUIRE(world.entities().add({EntityId{1000 + i}, randomFloor(random, map), 0.3f, kEntityStatic}) == Status::Ok);
  }
  SchedulerSettings settings;
  settings.interval = 0.5;  // plenty of periodic plans along the route (PlanJob::previous)
  ReplanScheduler threaded(world, {}, settings), sequential(world, {}, settings);
  const std::uint32_t n = 60;
  std::vector<float> speeds;
  for (std::uint32_t id = 1; id <= n; ++id) {
    speeds.push_back(std::uniform_real_distribution<float>(1.0f, 3.0f)(random));
    const CharacterSpec spec = character(id, randomFloor(random, map), Goal::at(randomFloor(random, map)), speeds.back());
    REQUIRE(threaded.add(spec) == Status::Ok);
    REQUIRE(sequential.add(spec) == Status::Ok);
  }
  // Workers plan with the scheduler's own planner settings.
  Planner workerA(threaded.navData(), threaded.planner().settings()), workerB(threaded.navData(), threaded.planner().settings());
  Planner single(sequential.navData(), sequential.planner().settings());
  std::vector<PlanJob> jobsT, jobsS;
  int jobs = 0, along = 0, events = 0;
  const double dt = 1.0 / 30.0;
  for (int frame = 0; frame < 120; ++frame) {
    const double now = frame * dt;
    if (frame == 60) {
      // Every sixth character is sent elsewhere halfway: new plans and events whatever the
      // periodic plans find.
      for (std::uint32_t id = 6; id <= n; id += 6) {
        const Goal goal = Goal::at(randomFloor(random, map));
        REQUIRE(threaded.setGoal(EntityId{id}, goal) == Status::Ok);
        REQUIRE(sequential.setGoal(EntityId{id}, goal) == Status::Ok);
      }
    }
    threaded.collectDue(now, 16, jobsT);
    sequential.collectDue(now, 16, jobsS);
    REQUIRE(jobsT.size() == jobsS.size());
    for (std::size_t i = 0; i < jobsT.size(); ++i) {
      REQUIRE(jobsT[i].character == jobsS[i].character);
      REQUIRE((jobsT[i].previous == nullptr) == (jobsS[i].previous == nullptr));
      along += jobsT[i].previous != nullptr ? 1 : 0;
    }
    jobs += int(jobsT.size());
    const std::size_t half = jobsT.size() / 2;
    std::thread a([&] {
      for (std::size_t i = 0; i < half; ++i) jobsT[i].run(workerA);
    });
    std::thread b([&] {
      for (std::size_t i = half; i < jobsT.size(); ++i) jobsT[i].run(workerB);
    });
    a.join();
    b.join();
    for (PlanJob& job : jobsS) job.run(single);
    threaded.acceptJobs(now, jobsT);
    sequential.acceptJobs(now, jobsS);
    REQUIRE(threaded.events().size() == sequential.events().size());
    for (std::size_t i = 0; i < threaded.events().size(); ++i) {
      INFO(describe(threaded.events()[i]) << " / " << describe(sequential.events()[i]));
      CHECK(sameEvent(threaded.events()[i], sequential.events()[i]));
    }
    events += int(threaded.events().size());
    for (std::uint32_t id = 1; id <= n; ++id) {
      const PathResult* p = threaded.path(EntityId{id});
      const PathResult* q = sequential.path(EntityId{id});
      REQUIRE((p == nullptr) == (q == nullptr));
      if (p != nullptr) {
        CHECK(p->status == q->status);
        CHECK(bitwiseEqual(p->controlPoints, q->controlPoints));
      }
      const PathFollower::Step s = threaded.follow(EntityId{id}, speeds[id - 1] * dt);
      const PathFollower::Step t = sequential.follow(EntityId{id}, speeds[id - 1] * dt);
      CHECK(s.position == t.position);
    }
  }
  CHECK(jobs > 150);
  CHECK(along > 20);
  // Every character's first outcome, and the changes after it (events tell changes only): at
  // least the new goals'.
  CHECK(events >= int(n + n / 6));
}

// ---------------------------------------------------------------------------------------------
// 9. Bad input

TEST_CASE("scheduler: bad input is refused", "[schedule]") {
  const TileMap map = room();
  const World world(map);
  ReplanScheduler scheduler(world);
  const Goal goal = Goal::at(centre(17, 5));
  REQUIRE(scheduler.add(character(1, centre(2, 5), goal)) == Status::Ok);
  CHECK(scheduler.add(character(0, centre(2, 5), goal)) == Status::InvalidArgument);
  CHECK(scheduler.add(character(1, centre(3, 5), goal)) == Status::InvalidArgument);
  CharacterSpec spec = character(2, centre(2, 5), goal);
  spec.mobility = MobilityId{200};
  CHECK(scheduler.add(spec) == Status::InvalidArgument);
  CHECK(scheduler.add(character(2, centre(2, 5), goal, 1.0f, -0.1f)) == Status::InvalidArgument);
  CHECK(scheduler.add(character(2, centre(2, 5), goal, 1.0f, 3.01f)) == Status::InvalidArgument);
  CHECK(scheduler.add(character(2, centre(2, 5), goal, 1.0f, std::numeric_limits<float>::quiet_NaN())) ==
        Status::InvalidArgument);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(scheduler.add(character(2, Vec2(nan, 5.0f), goal)) == Status::InvalidArgument);
  CHECK(scheduler.add(character(2, centre(2, 5), Goal::at(Vec2(3.0f, nan)))) == Status::InvalidArgument);
  CHECK(scheduler.add(character(2, centre(2, 5), goal, 0.0f)) == Status::InvalidArgument);
  CHECK(scheduler.add(character(2, centre(2, 5), goal, -1.0f)) == Status::InvalidArgument);
  CHECK(scheduler.add(character(2, centre(2, 5), Goal::following(EntityId{2}))) == Status::InvalidArgument);
  CHECK(scheduler.size() == 1);
  CHECK_FALSE(scheduler.info(EntityId{2}).known);
  // The edge of the allowed: radius 0, and 3 tiles (kMaxRadiusTiles).
  CHECK(scheduler.add(character(2, centre(2, 5), goal, 1.0f, 0.0f)) == Status::Ok);
  CHECK(scheduler.add(character(3, centre(2, 5), goal, 1.0f, 3.0f)) == Status::Ok);
  CHECK(scheduler.size() == 3);

  const EntityId unknown{77};
  CHECK(scheduler.remove(unknown) == Status::InvalidArgument);
  CHECK(scheduler.setGoal(unknown, goal) == Status::InvalidArgument);
  CHECK(scheduler.setPosition(unknown, centre(3, 3)) == Status::InvalidArgument);
  CHECK(scheduler.setGoal(EntityId{1}, Goal::following(EntityId{1})) == Status::InvalidArgument);
  CHECK(scheduler.setGoal(EntityId{1}, Goal::at(Vec2(nan, 1.0f))) == Status::InvalidArgument);
  CHECK(scheduler.setPosition(EntityId{1}, Vec2(1.0f, nan)) == Status::InvalidArgument);
  CHECK(scheduler.path(unknown) == nullptr);
  CHECK(scheduler.path(EntityId{1}) == nullptr);  // none yet
  CHECK(std::isnan(scheduler.position(unknown).x()));
  const PathFollower::Step step = scheduler.follow(unknown, 1.0);
  CHECK(step.travelled == 0.0);
  CHECK(step.position == Vec2::Zero());
  CHECK_FALSE(step.arrived);
  CHECK(scheduler.follow(EntityId{1}, 1.0).travelled == 0.0);  // no path yet
  scheduler.update(0.0, {});
  CHECK(scheduler.events().size() == 3);
  CHECK(scheduler.follow(EntityId{1}, 1.0).travelled == Approx(1.0));
  CHECK(scheduler.remove(EntityId{1}) == Status::Ok);
  CHECK(scheduler.remove(EntityId{1}) == Status::InvalidArgument);
  CHECK(scheduler.path(EntityId{1}) == nullptr);
  CHECK(scheduler.follow(EntityId{1}, 1.0).travelled == 0.0);
}

TEST_CASE("scheduler: removing a character mid-search or mid-job is safe", "[schedule]") {
  const TileMap map = serpentine(60, 60);
  const World world(map);
  ReplanScheduler scheduler(world);
  REQUIRE(scheduler.add(character(1, centre(0, 0), Goal::at(centre(0, 58)))) == Status::Ok);
  REQUIRE(scheduler.add(character(2, centre(59, 0), Goal::at(centre(59, 58)))) == Status::Ok);
  REQUIRE(scheduler.add(character(3, centre(5, 0), Goal::at(centre(10, 0)))) == Status::Ok);
  scheduler.update(0.0, ReplanBudget::work(5));
  REQUIRE(scheduler.planner().planInProgress());  // character 1's search, suspended
  CHECK(scheduler.events().empty());
  REQUIRE(scheduler.remove(EntityId{1}) == Status::Ok);
  CHECK_FALSE(scheduler.planner().planInProgress());
  // The others go on; 1 is never heard of again.
  std::vector<ReplanEvent> events;
  double now = 0.0;
  for (int frame = 0; frame < 2000 && events.size() < 2; ++frame) {
    now += 1.0 / 60.0;
    scheduler.update(now, ReplanBudget::work(5));
    events.insert(events.end(), scheduler.events().begin(), scheduler.events().end());
  }
  REQUIRE(events.size() == 2);
  for (const ReplanEvent& event : events) {
    CHECK(event.character != EntityId{1});
    CHECK(event.kind == ReplanEventKind::NewPath);
  }
  CHECK(scheduler.path(EntityId{1}) == nullptr);
  // The id may come back: a new character, planned from scratch.
  REQUIRE(scheduler.add(character(1, centre(0, 0), Goal::at(centre(3, 0)))) == Status::Ok);
  now += 1.0 / 60.0;
  scheduler.update(now, {});
  REQUIRE(scheduler.events().size() == 1);
  CHECK(scheduler.events()[0].character == EntityId{1});
  CHECK(scheduler.events()[0].reason == ReplanReason::First);
  CHECK(scheduler.info(EntityId{1}).plans == 1);

  // A job handed out, then its character removed: dropped when it comes back.
  REQUIRE(scheduler.setGoal(EntityId{3}, Goal::at(centre(20, 0))) == Status::Ok);
  std::vector<PlanJob> jobs;
  now += 1.0 / 60.0;
  scheduler.collectDue(now, 8, jobs);
  REQUIRE(jobs.size() == 1);
  CHECK(jobs[0].character == EntityId{3});
  Planner worker(scheduler.navData(), scheduler.planner().settings());
  CHECK(jobs[0].run(worker) == Status::Ok);
  REQUIRE(scheduler.remove(EntityId{3}) == Status::Ok);
  scheduler.acceptJobs(now, jobs);
  CHECK(scheduler.events().empty());
  CHECK(scheduler.path(EntityId{3}) == nullptr);
}

// ---------------------------------------------------------------------------------------------
// Review findings: each of these failed before its fix.

TEST_CASE("scheduler: a long search survives doors changing elsewhere, and others still get planned", "[schedule][budget]") {
  TileMap map = serpentine(100, 100);
  World world(map);
  // A door the long search never meets (between two wall tiles), toggled every few frames.
  const DoorId elsewhere = world.addDoor({"elsewhere", {5, 1}, {6, 1}, DoorState::Open}).value();
  ReplanScheduler scheduler(world, {}, SchedulerSettings{});
  REQUIRE(scheduler.add(character(1, centre(0, 0), Goal::at(centre(0, 98)))) == Status::Ok);
  for (std::uint32_t id = 2; id <= 11; ++id) {
    REQUIRE(scheduler.add(character(id, centre(int(id) * 5, 98), Goal::at(centre(int(id) * 5 + 3, 98)))) == Status::Ok);
  }
  double now = 0.0;
  for (int frame = 0; frame < 600; ++frame) {
    now += 1.0 / 30.0;
    if (frame % 8 == 0) {
      REQUIRE(world.setDoorState(elsewhere, frame % 16 == 0 ? DoorState::Closed : DoorState::Open) == Status::Ok);
    }
    scheduler.update(now, ReplanBudget::work(300));
    CHECK(scheduler.stats().expansions <= 300 + 0);
  }
  CHECK(scheduler.path(EntityId{1}) != nullptr);  // the long search finished
  for (std::uint32_t id = 2; id <= 11; ++id) CHECK(scheduler.info(EntityId{id}).plans >= 5);
}

TEST_CASE("scheduler: a path cut short at a door gives way to one that gets further", "[schedule][stickiness]") {
  // Left room to right room: through door `shut` (closed, on the short way) or round through
  // `far` (closed at first; opened later, elsewhere on the map).
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "###########",
                                                               "#....#....#",
                                                               "#.........#",
                                                               "#....#....#",
                                                               "#....#....#",
                                                               "#....#....#",
                                                               "#.........#",
                                                               "###########",
                                                           });
  World world(map);
  const DoorId shut = world.addDoor({"shut", {4, 2}, {5, 2}, DoorState::Closed}).value();
  const DoorId far = world.addDoor({"far", {4, 6}, {5, 6}, DoorState::Locked}).value();
  (void)shut;
  SchedulerSettings settings;
  settings.interval = 0.5;
  settings.fullReplanInterval = 1.0;
  settings.stuckTime = 1e9;
  // Open doors pass; a closed one stops the character and is dear (the game would have to
  // break it), so an open way round is worth a detour.
  class DearWhenShut final : public DoorPolicy {
   public:
    DoorDecision decide(const Door& door, const Traveller&) const override {
      return door.state == DoorState::Open ? DoorDecision{DoorAction::Pass, 0.0f} : DoorDecision{DoorAction::Stop, 20.0f};
    }
  } policy;
  world.setDoorPolicy(&policy);
  ReplanScheduler scheduler(world, {}, settings);
  REQUIRE(scheduler.add(character(1, centre(2, 2), Goal::at(centre(8, 2)))) == Status::Ok);
  double now = 0.0;
  scheduler.update(now, {});
  REQUIRE(scheduler.path(EntityId{1})->status == Status::StoppedAtDoor);
  // The far door opens (not on the path: no trigger); the periodic full plan finds the way
  // through it, which gets further than the stop: it replaces the stop despite costing more.
  REQUIRE(world.setDoorState(far, DoorState::Open) == Status::Ok);
  run(scheduler, now, 90);  // three seconds: a full replan comes within fullReplanInterval
  REQUIRE(scheduler.path(EntityId{1}) != nullptr);
  CHECK(scheduler.path(EntityId{1})->status == Status::Ok);
  CHECK(scheduler.path(EntityId{1})->controlPoints.back() == centre(8, 2));
}

TEST_CASE("scheduler: jobs outlive their characters' removal and goal changes", "[schedule][batches]") {
  const TileMap map = room();
  World world(map);
  REQUIRE(world.entities().add({EntityId{50}, centre(10, 5), 0.3f, kEntityMoving}) == Status::Ok);
  ReplanScheduler scheduler(world);
  REQUIRE(scheduler.add(character(1, centre(2, 5), Goal::following(EntityId{50}))) == Status::Ok);
  REQUIRE(scheduler.add(character(2, centre(2, 2), Goal::at(centre(17, 2)))) == Status::Ok);
  std::vector<PlanJob> jobs;
  scheduler.collectDue(0.0, 10, jobs);
  REQUIRE(jobs.size() == 2);
  // Meanwhile the game re-goals one character and removes the other.
  REQUIRE(scheduler.setGoal(EntityId{1}, Goal::at(centre(17, 8))) == Status::Ok);
  REQUIRE(scheduler.remove(EntityId{2}) == Status::Ok);
  Planner planner(scheduler.navData(), scheduler.planner().settings());
  for (PlanJob& job : jobs) job.run(planner);
  // The follower's job still ignores the entity it followed when it was handed out.
  CHECK(jobs[0].result.status == Status::Ok);
  scheduler.acceptJobs(0.0, jobs);
  CHECK(scheduler.path(EntityId{2}) == nullptr);  // the removed one's job is dropped
  // The re-goaled one's result is for a goal replaced meanwhile: no event (it tells the game
  // nothing), but with no other path the character walks it until the new goal's plan comes.
  CHECK(scheduler.events().empty());
  REQUIRE(scheduler.path(EntityId{1}) != nullptr);
  CHECK(scheduler.path(EntityId{1})->controlPoints.back() == jobs[0].request.goal);
  // The new goal is planned next (it was re-goaled while its job was out), with its event.
  scheduler.update(0.1, {});
  REQUIRE(scheduler.path(EntityId{1}) != nullptr);
  CHECK(scheduler.path(EntityId{1})->controlPoints.back() == centre(17, 8));
  REQUIRE(scheduler.events().size() == 1);
  CHECK(scheduler.events()[0].reason == ReplanReason::GoalChanged);
  // A job never handed back: cancelJobs() gives the character back to the queue.
  scheduler.collectDue(5.0, 10, jobs);
  REQUIRE(jobs.size() == 1);
  scheduler.cancelJobs();
  scheduler.update(5.1, {});
  CHECK(scheduler.info(EntityId{1}).lastPlanned == Approx(5.1));
}

TEST_CASE("scheduler: non-finite times, odd budgets and a new goal during a sliced search", "[schedule][budget]") {
  TileMap map = serpentine(60, 60);
  const World world(map);
  ReplanScheduler scheduler(world);
  REQUIRE(scheduler.add(character(1, centre(0, 0), Goal::at(centre(0, 58)))) == Status::Ok);
  scheduler.update(std::numeric_limits<double>::quiet_NaN(), {});
  scheduler.update(std::numeric_limits<double>::infinity(), ReplanBudget::work(1000));
  CHECK(scheduler.info(EntityId{1}).plans == 0);
  // A negative budget does the least work: one slice.
  scheduler.update(0.0, ReplanBudget::time(-5.0));
  CHECK(scheduler.stats().slices == 1);
  CHECK(scheduler.path(EntityId{1}) == nullptr);  // still searching
  scheduler.update(0.03, ReplanBudget::time(std::numeric_limits<double>::infinity()));  // clamped, no overflow
  // A new goal next to it while a search for the far one is under way: the search is dropped.
  REQUIRE(scheduler.add(character(2, centre(0, 0), Goal::at(centre(0, 58)))) == Status::Ok);
  scheduler.update(1.0, ReplanBudget::work(10));
  REQUIRE(scheduler.stats().slices == 1);
  REQUIRE(scheduler.setGoal(EntityId{2}, Goal::at(centre(3, 0))) == Status::Ok);
  double now = 1.0;
  const std::vector<ReplanEvent> events = run(scheduler, now, 3, 1.0 / 30.0, ReplanBudget::work(10));
  bool near = false;
  for (const ReplanEvent& event : events) {
    if (event.character == EntityId{2}) {
      CHECK(event.reason == ReplanReason::GoalChanged);
      near = scheduler.path(EntityId{2}) != nullptr && scheduler.path(EntityId{2})->controlPoints.back() == centre(3, 0);
    }
  }
  CHECK(near);
}
