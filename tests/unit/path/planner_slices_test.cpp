// SPDX-License-Identifier: MIT
// Planner in slices (beginPlan / continuePlan) and plans along an earlier route (replanAlong).
#include <catch2/catch.hpp>

#include "rpgnav/grid/line_of_sight.hpp"
#include "rpgnav/io/rpgmap.hpp"
#include "rpgnav/path/planner.hpp"
#include "support/test_maps.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <random>

using namespace rpgnav;

namespace {

int uniformInt(std::mt19937& random, int low, int high) { return std::uniform_int_distribution<int>(low, high)(random); }

// The centre of a random tile that a walker of `radius` can stand on (nothing after 200 tries).
std::optional<Vec2> randomCentre(std::mt19937& random, const TileMap& map, float radius) {
  for (int attempt = 0; attempt < 200; ++attempt) {
    const Cell cell{uniformInt(random, 0, map.width() - 1), uniformInt(random, 0, map.height() - 1)};
    const Vec2 p = map.layout().tileCenter(cell);
    if (map.passable(cell, TerrainTable::kWalk) && probeSegment(map, TerrainTable::kWalk, p, p, radius).clear) return p;
  }
  return std::nullopt;
}

// Runs beginPlan and continuePlan until the status is not InProgress; counts the InProgress
// answers in `inProgress` and checks the budget of every slice.
Status planInSlices(Planner& planner, const PathRequest& request, PathResult& out, std::int64_t budget, int& inProgress) {
  Status status = planner.beginPlan(request, out, budget);
  std::int64_t before = 0;
  for (int guard = 0; status == Status::InProgress; ++guard) {
    REQUIRE(guard < 1000000);
    REQUIRE(planner.planInProgress());
    REQUIRE(out.status == Status::InProgress);
    const std::int64_t total = planner.diagnostics().stats(PathStage::Search).expansions;
    CHECK(total - before <= budget);  // no slice expands more than it was allowed
    before = total;
    ++inProgress;
    status = planner.continuePlan(out, budget);
  }
  CHECK_FALSE(planner.planInProgress());
  CHECK(out.status == status);
  return status;
}

// The parts of two results that must agree.
void checkSame(const PathResult& got, const PathResult& expected) {
  CHECK(got.status == expected.status);
  CHECK(got.controlPoints == expected.controlPoints);
  CHECK(got.tilePath == expected.tilePath);
  CHECK(got.door == expected.door);
  CHECK(got.cost == expected.cost);
}

bool segmentsClear(const TileMap& map, const std::vector<Vec2>& points, float radius) {
  for (std::size_t i = 1; i < points.size(); ++i) {
    if (!probeSegment(map, TerrainTable::kWalk, points[i - 1], points[i], radius).clear) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("slices: beginPlan and continuePlan give what plan() gives, whatever the budget", "[path][slices]") {
  std::mt19937 random(4242);
  int compared = 0, inProgress = 0, sliced = 0, failures = 0;
  for (int trial = 0; trial < 36; ++trial) {
    const Layout layout = trial < 30 ? Layout::square() : trial % 2 == 0 ? Layout::hexPointy() : Layout::hexFlat();
    const TileMap map = test::randomMap(random, layout, uniformInt(random, 15, 45), uniformInt(random, 15, 45), 0.25);
    const World world(map);
    Planner planner(world);  // one planner for every sliced query on this map: slices of one plan never mix with another
    for (int query = 0; query < 4; ++query) {
      const float radius = std::uniform_real_distribution<float>(0.0f, 0.3f)(random);
      const auto start = randomCentre(random, map, radius), goal = randomCentre(random, map, radius);
      if (!start || !goal) continue;
      const PathRequest request{*start, *goal, TerrainTable::kWalk, radius};
      PathResult expected;
      Planner whole(world);
      const Status want = whole.plan(request, expected);
      failures += isSuccess(want) ? 0 : 1;
      for (std::int64_t budget : {1, 7, 50}) {
        INFO(toString(layout.kind()) << " trial " << trial << " query " << query << " budget " << budget);
        PathResult got;
        const int before = inProgress;
        const Status status = planInSlices(planner, request, got, budget, inProgress);
        sliced += inProgress > before ? 1 : 0;
        CHECK(status == want);
        checkSame(got, expected);
        // Slicing does not change the search: the same nodes, spread over the slices.
        CHECK(planner.diagnostics().stats(PathStage::Search).expansions == whole.diagnostics().stats(PathStage::Search).expansions);
        ++compared;
      }
    }
  }
  CHECK(compared > 350);
  CHECK(sliced > 150);  // most plans really were cut into slices...
  CHECK(inProgress > 2000);
  CHECK(failures > 0);  // ...and some failed (NoPath) in slices too
}

namespace {

// Everything a plan hands the game, which a plan in slices must give bit for bit.
// (`gotStages` and `expectedStages`: the diagnostics of the planners that made them.)
void checkIdentical(const PathResult& got, const PlanDiagnostics& gotStages, const PathResult& expected,
                    const PlanDiagnostics& expectedStages, bool recorded) {
  checkSame(got, expected);
  CHECK(got.reason == expected.reason);
  CHECK(got.route == expected.route);
  CHECK(got.length == expected.length);
  CHECK(got.searchLength == expected.searchLength);
  CHECK(got.blocker == expected.blocker);
  CHECK(got.stopPoint == expected.stopPoint);
  CHECK(gotStages.anyAngleRoute == expectedStages.anyAngleRoute);
  REQUIRE(got.detours.size() == expected.detours.size());
  for (std::size_t i = 0; i < got.detours.size(); ++i) {
    CHECK(got.detours[i].around == expected.detours[i].around);
    CHECK(got.detours[i].first == expected.detours[i].first);
    CHECK(got.detours[i].count == expected.detours[i].count);
  }
  const auto a = got.smoothed.samples(), b = expected.smoothed.samples();
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].point == b[i].point);
    CHECK(a[i].s == b[i].s);
    CHECK(a[i].t == b[i].t);
  }
  for (int stage = 0; stage < kPathStageCount; ++stage) {
    CAPTURE(stage);
    CHECK(gotStages.stages[std::size_t(stage)].ran == expectedStages.stages[std::size_t(stage)].ran);
    CHECK(gotStages.stages[std::size_t(stage)].pointsIn == expectedStages.stages[std::size_t(stage)].pointsIn);
    CHECK(gotStages.stages[std::size_t(stage)].pointsOut == expectedStages.stages[std::size_t(stage)].pointsOut);
    CHECK(gotStages.stages[std::size_t(stage)].probes == expectedStages.stages[std::size_t(stage)].probes);
    if (recorded) CHECK(gotStages.stagePoints[std::size_t(stage)] == expectedStages.stagePoints[std::size_t(stage)]);
  }
}

// replanAlong, then continuePlan, every call with a deadline already past (one step each); the
// calls made in `calls`, at most `limit`.
Status alongInSteps(Planner& planner, const PathRequest& request, const PathResult& previous, PathResult& out, int limit,
                    int& calls) {
  const auto now = [] { return PlanSlice{0, std::chrono::steady_clock::now()}; };
  Status status = planner.replanAlong(request, previous, out, now());
  for (calls = 1; status == Status::InProgress;) {
    REQUIRE(++calls <= limit);
    status = planner.continuePlan(out, now());
  }
  return status;
}

}  // namespace

TEST_CASE("slices: a deadline stops the stages between two, and the plan comes out bit for bit as plan()'s",
          "[path][slices][budget][property]") {
  using Clock = std::chrono::steady_clock;
  std::mt19937 random(9090);
  int compared = 0, stopped = 0, stageStops = 0, along = 0;
  // Random maps of every layout, one cost and weighted, then the sample maps with their doors and
  // entities (detours, door stops, blockers).
  struct Case {
    TileMap map;
    std::vector<DoorSpec> doors;
    std::vector<EntitySpec> entities;
  };
  std::vector<Case> cases;
  const std::vector<Layout> layouts = test::allLayouts();
  for (int trial = 0; trial < 30; ++trial) {
    cases.push_back({test::randomMap(random, layouts[std::size_t(trial) % layouts.size()], uniformInt(random, 12, 40),
                                     uniformInt(random, 12, 40), 0.2, trial % 3 != 0),
                     {},
                     {}});
  }
  for (const char* name : {"town.rpgmap", "wilderness.rpgmap", "dungeon.rpgmap"}) {
    auto document = readRpgMap(test::sampleMapsDir() / name);
    REQUIRE(document);
    cases.push_back({document->map, document->doors, document->entities});
  }
  for (std::size_t c = 0; c < cases.size(); ++c) {
    CAPTURE(c);
    World world(cases[c].map);
    REQUIRE(world.addFeatures(cases[c].doors, cases[c].entities) == Status::Ok);
    const TileMap& map = world.map();
    const float tile = map.layout().tileSize();
    PlannerSettings settings;
    settings.recordStages = c % 2 == 0;
    if (c % 3 == 0) settings.detours.horizon = 3.0f;  // entities only near the start (as the scheduler has it)
    Planner whole(world, settings), sliced(world, settings);
    for (int query = 0; query < 6; ++query) {
      const float radius = std::uniform_real_distribution<float>(0.0f, 0.35f)(random) * tile;
      const auto start = randomCentre(random, map, radius), goal = randomCentre(random, map, radius);
      if (!start || !goal) continue;
      PathRequest request{*start, *goal, TerrainTable::kWalk, radius};
      if (query % 3 == 2) request.comfort = 0.0f;
      PathResult expected, got;
      const Status status = whole.plan(request, expected);
      // Deadlines already past (one step per call), then a few microseconds to a few tens.
      const int microseconds = query % 2 == 0 ? 0 : uniformInt(random, 1, 40);
      auto slice = [&] { return PlanSlice{0, microseconds == 0 ? Clock::now() : Clock::now() + std::chrono::microseconds(microseconds)}; };
      int calls = 1;
      Status step = sliced.beginPlan(request, got, slice());
      while (step == Status::InProgress) {
        REQUIRE(sliced.planInProgress());
        // Every call makes progress: a step, a search slice, or a span of stage 8's curve.
        REQUIRE(++calls < 400 + 2 * int(expected.controlPoints.size()));
        if (sliced.diagnostics().stats(PathStage::Search).ran && !sliced.planInProgress()) break;
        step = sliced.continuePlan(got, slice());
      }
      CHECK_FALSE(sliced.planInProgress());
      CHECK(step == status);
      if (microseconds == 0 && isSuccess(status)) {
        // A step per call: at least stages 7 and 8 came in calls of their own.
        CHECK(calls >= 2);
        stageStops += calls - 1;
      }
      stopped += calls > 1 ? 1 : 0;
      checkIdentical(got, sliced.diagnostics(), expected, whole.diagnostics(), settings.recordStages);
      ++compared;
      // A plan along the route, in steps too.
      if (status == Status::Ok && expected.route.size() >= 3) {
        PathRequest rest = request;
        rest.start = 0.5f * (expected.route[1] + expected.route[2]);
        PathResult wholeAlong, slicedAlong;
        const Status alongStatus = whole.replanAlong(rest, expected, wholeAlong);
        // Stages 7 and 8, a segment and a span at a time: a call per segment of the rest of the
        // route and per span at most.
        int alongCalls = 0;
        const Status alongStep = alongInSteps(sliced, rest, expected, slicedAlong,
                                              3 + int(expected.route.size() + wholeAlong.controlPoints.size()), alongCalls);
        CHECK(alongStep == alongStatus);
        if (alongStatus == Status::Ok) CHECK(alongCalls >= 2);
        checkIdentical(slicedAlong, sliced.diagnostics(), wholeAlong, whole.diagnostics(), settings.recordStages);
        ++along;
      }
    }
  }
  CHECK(compared >= 150);
  CHECK(stopped >= 100);
  CHECK(stageStops >= 300);
  CHECK(along >= 40);
}

TEST_CASE("slices: along a route the world changed under, the rest of it is probed a segment a step, as one call does",
          "[path][slices][budget]") {
  std::mt19937 random(6161);
  int compared = 0, stepped = 0, blocked = 0;
  for (int trial = 0; trial < 60 && (compared < 25 || blocked < 5); ++trial) {
    const Layout layout = test::allLayouts()[std::size_t(trial) % test::allLayouts().size()];
    TileMap map = test::randomMap(random, layout, 30, 30, 0.15, false);
    const World world(map);
    Planner whole(world), sliced(world);
    const auto start = randomCentre(random, map, 0.2f), goal = randomCentre(random, map, 0.2f);
    if (!start || !goal) continue;
    PathRequest request{*start, *goal, TerrainTable::kWalk, 0.2f};
    PathResult first;
    if (whole.plan(request, first) != Status::Ok || first.route.size() < 4) continue;
    // A wall put up: on a tile of the route's far part every other trial, elsewhere otherwise.
    const Vec2 onRoute = 0.5f * (first.route[first.route.size() - 3] + first.route[first.route.size() - 2]);
    Cell wall = *map.tileAt(onRoute);
    if (trial % 2 == 1) {
      wall = Cell{uniformInt(random, 0, map.width() - 1), uniformInt(random, 0, map.height() - 1)};
    }
    if (wall == *map.tileAt(request.goal) || wall == *map.tileAt(request.start)) continue;
    REQUIRE(map.setTerrain(wall, *map.terrain().findTerrainBySymbol('#')) == Status::Ok);
    request.start = 0.5f * (first.route[0] + first.route[1]);
    PathResult expected, got;
    const Status status = whole.replanAlong(request, first, expected);
    int calls = 0;
    // (A call per probed segment, per segment of stage 7 and per span of stage 8 at most.)
    const Status step = alongInSteps(sliced, request, first, got, 4 + int(2 * first.route.size() + expected.controlPoints.size()), calls);
    CHECK(step == status);
    checkIdentical(got, sliced.diagnostics(), expected, whole.diagnostics(), false);
    if (status == Status::NoPath) ++blocked;
    // Probed a segment a call: more calls than stages 7 and 8 alone make.
    if (calls > 3) ++stepped;
    ++compared;
  }
  CHECK(compared >= 25);
  CHECK(blocked >= 5);
  CHECK(stepped >= 10);
}

TEST_CASE("slices: a door closed while the stages are under way starts the plan again; along the route, NoPath",
          "[path][slices][budget]") {
  using Clock = std::chrono::steady_clock;
  auto document = readRpgMap(test::sampleMapsDir() / "town.rpgmap");
  REQUIRE(document);
  World world(document->map);
  REQUIRE(world.addFeatures(document->doors, document->entities) == Status::Ok);
  REQUIRE_FALSE(world.doors().empty());
  const Door& door = world.doors().front();
  const TileMap& map = world.map();
  Planner planner(world), reference(world);
  std::mt19937 random(77);
  int restarted = 0, ended = 0;
  for (int query = 0; query < 40 && (restarted < 5 || ended < 5); ++query) {
    const auto start = randomCentre(random, map, 0.25f), goal = randomCentre(random, map, 0.25f);
    if (!start || !goal) continue;
    const PathRequest request{*start, *goal, TerrainTable::kWalk, 0.25f};
    PathResult out;
    Status status = planner.beginPlan(request, out, PlanSlice{0, Clock::now()});
    // On to the stages after the search.
    while (status == Status::InProgress && !planner.diagnostics().stats(PathStage::ControlPoints).ran) {
      status = planner.continuePlan(out, PlanSlice{0, Clock::now()});
    }
    if (status != Status::InProgress) continue;
    // The door changes state: the plan starts again and comes out as a plan of the world as it is.
    const DoorState was = door.state;
    REQUIRE(world.setDoorState(door.id, was == DoorState::Open ? DoorState::Closed : DoorState::Open) == Status::Ok);
    status = planner.continuePlan(out, PlanSlice{0, Clock::now()});
    CHECK_FALSE(planner.diagnostics().stats(PathStage::ControlPoints).ran);  // begun again: nothing after the search yet
    while (status == Status::InProgress) status = planner.continuePlan(out, PlanSlice{});
    PathResult expected;
    CHECK(status == reference.plan(request, expected));
    CHECK(out.controlPoints == expected.controlPoints);
    ++restarted;
    // Along the route: the change ends it with NoPath.
    if (status == Status::Ok && expected.route.size() >= 3) {
      PathRequest rest = request;
      rest.start = 0.5f * (expected.route[1] + expected.route[2]);
      PathResult alongOut;
      Status alongStatus = planner.replanAlong(rest, expected, alongOut, PlanSlice{0, Clock::now()});
      if (alongStatus == Status::InProgress) {
        REQUIRE(world.setDoorState(door.id, was) == Status::Ok);
        CHECK(planner.continuePlan(alongOut, PlanSlice{}) == Status::NoPath);
        CHECK_FALSE(planner.planInProgress());
        ++ended;
        continue;
      }
    }
    REQUIRE(world.setDoorState(door.id, was) == Status::Ok);
  }
  CHECK(restarted >= 5);
  CHECK(ended >= 5);
}

TEST_CASE("slices: a tile edit between slices makes continuePlan start again", "[path][slices]") {
  std::mt19937 random(99);
  int edited = 0, changedAnswer = 0;
  for (int trial = 0; trial < 30; ++trial) {
    TileMap map = test::randomMap(random, Layout::square(), 30, 30, 0.2);
    const World world(map);
    Planner planner(world);
    const auto start = randomCentre(random, map, 0.2f), goal = randomCentre(random, map, 0.2f);
    if (!start || !goal) continue;
    const PathRequest request{*start, *goal, TerrainTable::kWalk, 0.2f};
    PathResult before;
    if (Planner(world).plan(request, before) != Status::Ok || before.tilePath.size() < 8) continue;
    PathResult got;
    if (planner.beginPlan(request, got, 3) != Status::InProgress) continue;
    // Wall off a tile in the middle of the path found before (start and goal tiles stay), or
    // make it swamp (dearer, still passable) every third time.
    const Cell cut = before.tilePath[before.tilePath.size() / 2];
    const TerrainId terrain = *map.terrain().findTerrainBySymbol(trial % 3 == 0 ? ',' : '#');
    REQUIRE(map.setTerrain(cut, terrain) == Status::Ok);
    int inProgress = 0;
    Status status = planner.continuePlan(got, 3);
    while (status == Status::InProgress) {
      REQUIRE(++inProgress < 100000);
      status = planner.continuePlan(got, 3);
    }
    PathResult expected;
    const Status want = Planner(world).plan(request, expected);
    INFO("trial " << trial << " cut " << cut.x << "," << cut.y);
    CHECK(status == want);
    checkSame(got, expected);
    ++edited;
    changedAnswer += expected.status != before.status || expected.tilePath != before.tilePath ? 1 : 0;
  }
  CHECK(edited >= 15);
  CHECK(changedAnswer >= 10);  // the edits mattered: an unchanged search would have given the old answer
}

TEST_CASE("slices: a door state change between slices makes continuePlan start again", "[path][slices]") {
  std::mt19937 random(7);
  int changed = 0, differed = 0;
  for (int trial = 0; trial < 25; ++trial) {
    const TileMap map = test::randomMap(random, Layout::square(), 30, 30, 0.2);
    World world(map);
    const auto start = randomCentre(random, map, 0.2f), goal = randomCentre(random, map, 0.2f);
    if (!start || !goal) continue;
    const PathRequest request{*start, *goal, TerrainTable::kWalk, 0.2f};
    PathResult before;
    if (Planner(world).plan(request, before) != Status::Ok || before.tilePath.size() < 10) continue;
    // Open doors across the middle steps of that path (orthogonal steps only: doors sit on edges).
    std::vector<DoorId> doors;
    for (std::size_t i = before.tilePath.size() / 3; i + 1 < before.tilePath.size() && doors.size() < 3; ++i) {
      const Cell a = before.tilePath[i], b = before.tilePath[i + 1];
      if (!map.layout().sharedEdge(a, b)) continue;
      doors.push_back(world.addDoor({"d" + std::to_string(i), a, b, DoorState::Open}).value());
    }
    if (doors.empty()) continue;
    Planner planner(world);
    PathResult got;
    if (planner.beginPlan(request, got, 2) != Status::InProgress) continue;
    REQUIRE(world.setDoorState(doors[trial % doors.size()], trial % 2 == 0 ? DoorState::Closed : DoorState::Locked) ==
            Status::Ok);
    Status status = Status::InProgress;
    for (int guard = 0; status == Status::InProgress; ++guard) {
      REQUIRE(guard < 100000);
      status = planner.continuePlan(got, 2);
    }
    PathResult expected;
    const Status want = Planner(world).plan(request, expected);
    INFO("trial " << trial);
    CHECK(status == want);
    checkSame(got, expected);
    ++changed;
    differed += expected.status != Status::Ok || expected.tilePath != before.tilePath ? 1 : 0;
  }
  CHECK(changed >= 10);
  CHECK(differed == changed);  // a closed or locked door stops the path or sends it round: never the old answer
}

TEST_CASE("slices: continuePlan without a plan in progress, and plan() abandoning one", "[path][slices]") {
  const TileMap maze = test::mapFromAscii(Layout::square(), {
                                                                "..........",
                                                                "########..",
                                                                "..........",
                                                                "..########",
                                                                "..........",
                                                            });
  const World world(maze);
  Planner planner(world);
  PathResult result;
  CHECK_FALSE(planner.planInProgress());
  CHECK(planner.continuePlan(result, 10) == Status::InvalidArgument);
  CHECK(result.status == Status::InvalidArgument);

  const PathRequest request{Vec2(0.5f, 0.5f), Vec2(0.5f, 4.5f), TerrainTable::kWalk, 0.2f};
  REQUIRE(planner.beginPlan(request, result, 1) == Status::InProgress);
  CHECK(planner.planInProgress());
  // plan() of another query abandons it: nothing is left to continue.
  PathResult other;
  const PathRequest straight{Vec2(0.5f, 0.5f), Vec2(9.5f, 0.5f), TerrainTable::kWalk, 0.2f};
  CHECK(planner.plan(straight, other) == Status::Ok);
  CHECK_FALSE(planner.planInProgress());
  CHECK(planner.continuePlan(result, 10) == Status::InvalidArgument);

  // Also when plan() itself runs a search.
  REQUIRE(planner.beginPlan(request, result, 1) == Status::InProgress);
  CHECK(planner.plan(request, other) == Status::Ok);
  CHECK_FALSE(planner.planInProgress());
  CHECK(planner.continuePlan(result, 10) == Status::InvalidArgument);

  // cancelPlan forgets it; a plan that finishes in its first slice leaves nothing in progress.
  REQUIRE(planner.beginPlan(request, result, 1) == Status::InProgress);
  planner.cancelPlan();
  CHECK_FALSE(planner.planInProgress());
  CHECK(planner.continuePlan(result, 10) == Status::InvalidArgument);
  CHECK(planner.beginPlan(request, result, 0) == Status::Ok);
  CHECK_FALSE(planner.planInProgress());
  CHECK(planner.continuePlan(result, 10) == Status::InvalidArgument);
}

TEST_CASE("replanAlong: plans along the rest of the earlier route", "[path][slices]") {
  std::mt19937 random(515);
  int checked = 0;
  for (int trial = 0; trial < 40 && checked < 12; ++trial) {
    TileMap map = test::randomMap(random, Layout::square(), 30, 30, 0.2, trial % 2 == 0);
    const World world(map);
    Planner planner(world);
    const float radius = 0.2f;
    const auto start = randomCentre(random, map, radius), goal = randomCentre(random, map, radius);
    if (!start || !goal) continue;
    PathRequest request{*start, *goal, TerrainTable::kWalk, radius};
    PathResult first;
    if (planner.plan(request, first) != Status::Ok || first.route.size() < 4) continue;
    INFO("trial " << trial);
    REQUIRE(first.route.front() == request.start);
    REQUIRE(first.route.back() == request.goal);
    // Part-way along: the middle of the second segment.
    const Vec2 here = 0.5f * (first.route[1] + first.route[2]);
    request.start = here;
    PathResult along;
    REQUIRE(planner.replanAlong(request, first, along) == Status::Ok);
    CHECK(along.status == Status::Ok);
    CHECK(along.controlPoints.front() == here);
    CHECK(along.controlPoints.back() == request.goal);
    CHECK(segmentsClear(map, along.controlPoints, radius));
    // Its route: where it stands, then the earlier route from the end of the second segment on.
    REQUIRE(along.route.size() == first.route.size() - 1);
    CHECK(along.route.front() == here);
    CHECK(std::equal(along.route.begin() + 1, along.route.end(), first.route.begin() + 2));
    CHECK_FALSE(planner.diagnostics().stats(PathStage::Search).ran);

    // A wall across what is left of the route: no longer clear.
    const Vec2 ahead = 0.5f * (first.route[2] + first.route[3]);
    const Cell cut = *map.tileAt(ahead);
    if (cut == *map.tileAt(request.goal) || cut == *map.tileAt(here)) continue;
    REQUIRE(map.setTerrain(cut, *map.terrain().findTerrainBySymbol('#')) == Status::Ok);
    CHECK(planner.replanAlong(request, first, along) == Status::NoPath);
    CHECK(along.status == Status::NoPath);
    ++checked;
  }
  CHECK(checked >= 8);

  // Only after a successful plan.
  const TileMap pocket = test::mapFromAscii(Layout::square(), {
                                                                  "......",
                                                                  ".....#",
                                                                  "....#.",
                                                              });
  Planner planner(pocket);
  PathResult failed, out;
  const PathRequest request{Vec2(0.5f, 0.5f), Vec2(5.5f, 2.5f), TerrainTable::kWalk, 0.1f};
  REQUIRE(planner.plan(request, failed) == Status::NoPath);
  CHECK(planner.replanAlong(request, failed, out) == Status::InvalidArgument);
  PathResult never;  // never planned
  CHECK(planner.replanAlong(request, never, out) == Status::InvalidArgument);
}

// replanAlong after a plan that ended in front of a blocking entity: once the entity has gone,
// the plan along the route reaches the goal with Ok (the blocked end is not a door stop).
TEST_CASE("replanAlong: after a blocker has gone, the plan along reaches the goal with Ok", "[path][slices]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "##########",
                                                               "..........",
                                                               "##########",
                                                           });
  World world(map);
  REQUIRE(world.entities().add({EntityId{3}, Vec2(6.5f, 1.5f), 0.4f, kEntityMoving}) == Status::Ok);
  Planner planner(world);
  PathRequest request{Vec2(0.5f, 1.5f), Vec2(9.5f, 1.5f), TerrainTable::kWalk, 0.2f};
  PathResult blocked, along;
  REQUIRE(planner.plan(request, blocked) == Status::BlockedByEntity);
  REQUIRE(world.entities().remove(EntityId{3}) == Status::Ok);
  request.start = Vec2(2.0f, 1.5f);
  const Status status = planner.replanAlong(request, blocked, along);
  CHECK(along.controlPoints.back() == request.goal);
  CHECK(status == Status::Ok);
  CHECK(along.door == DoorId{0});
  CHECK(along.stopPoint == Vec2::Zero());
}
