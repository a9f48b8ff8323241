// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "rpgnav/grid/line_of_sight.hpp"
#include "rpgnav/nav/nav_data.hpp"
#include "rpgnav/path/planner.hpp"
#include "support/path_checks.hpp"
#include "support/result_hash.hpp"
#include "support/test_maps.hpp"

#include <cmath>
#include <limits>
#include <random>

using namespace rpgnav;

namespace {

double polylineLength(const std::vector<Vec2>& points) {
  double total = 0;
  for (std::size_t i = 1; i < points.size(); ++i) total += double((points[i] - points[i - 1]).norm());
  return total;
}

// A random point inside a random passable tile with room for the radius, or nothing.
std::optional<Vec2> randomStandingPoint(std::mt19937& random, const TileMap& map, MobilityId mobility, float radius) {
  for (int attempt = 0; attempt < 50; ++attempt) {
    const Cell cell{std::uniform_int_distribution<int>(0, map.width() - 1)(random),
                    std::uniform_int_distribution<int>(0, map.height() - 1)(random)};
    if (!map.passable(cell, mobility)) continue;
    const Vec2 jitter(std::uniform_real_distribution<float>(-0.3f, 0.3f)(random),
                      std::uniform_real_distribution<float>(-0.3f, 0.3f)(random));
    const Vec2 p = map.layout().tileCenter(cell) + jitter * map.layout().tileSize();
    if (probeSegment(map, mobility, p, p, radius).clear) return p;
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("search modes have distinct names, and a number that is no mode is unknown", "[planner]") {
  CHECK(toString(SearchMode::Tiles) == "tiles");
  CHECK(toString(SearchMode::AnyAngle) == "any_angle");
  CHECK(toString(SearchMode::ExactAnyAngle) == "exact_any_angle");
  CHECK(toString(SearchMode(7)) == "unknown");
}

TEST_CASE("planner: straight line without a search when start sees goal", "[path]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "......",
                                                               "......",
                                                           });
  Planner planner(map);
  PathResult result;
  REQUIRE(planner.plan({Vec2(0.5f, 0.5f), Vec2(5.5f, 1.5f)}, result) == Status::Ok);
  CHECK(result.controlPoints == std::vector<Vec2>{Vec2(0.5f, 0.5f), Vec2(5.5f, 1.5f)});
  CHECK(result.tilePath.empty());
  CHECK_FALSE(planner.diagnostics().stats(PathStage::Search).ran);
  CHECK(result.length == Approx(std::sqrt(26.0)));
  // With stage 1 off the search runs even in the open, and straightening leaves the straight line.
  planner.settings().enabled[std::size_t(PathStage::StraightLine)] = false;
  REQUIRE(planner.plan({Vec2(0.5f, 0.5f), Vec2(5.5f, 1.5f)}, result) == Status::Ok);
  CHECK(planner.diagnostics().stats(PathStage::Search).ran);
  CHECK(result.controlPoints.size() == 2);
}

TEST_CASE("planner: bends round a wall corner", "[path]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "......",
                                                               "####..",
                                                               "......",
                                                           });
  for (const bool exact : {true, false}) {
    INFO((exact ? "exact any-angle search (the default)" : "8-way search"));
    PlannerSettings settings;
    settings.search = exact ? SearchMode::ExactAnyAngle : SearchMode::Tiles;
    Planner planner(map, settings);
    PathResult result;
    PathRequest request{Vec2(0.5f, 0.5f), Vec2(0.5f, 2.5f)};
    request.comfort = 0.0f;
    REQUIRE(planner.plan(request, result) == Status::Ok);
    // Round the wall's end at (4,1)-(4,2): two corner points, one radius-margin outside.
    REQUIRE(result.controlPoints.size() == 4);
    CHECK(result.controlPoints[1].x() == Approx(4.0).margin(0.01));
    CHECK(result.controlPoints[1].y() == Approx(1.0).margin(0.01));
    CHECK(result.controlPoints[2].x() == Approx(4.0).margin(0.01));
    CHECK(result.controlPoints[2].y() == Approx(2.0).margin(0.01));
    const double optimum = 2.0 * std::hypot(3.5, 0.5) + 1.0;
    if (exact) {
      // The search's route is the shortest one, and with radius and comfort 0 it is the path.
      CHECK(result.searchLength == Approx(optimum).epsilon(1e-6));
      CHECK(result.length == Approx(result.searchLength).epsilon(1e-6));
    } else {
      // The 8-way tile path, pulled taut round the corner.
      CHECK(result.length < result.searchLength);
      CHECK(result.length == Approx(optimum).epsilon(1e-3));
    }
    // With the default comfort (a quarter tile) they stand a quarter tile (and the margin) off
    // both edges meeting at each corner.
    request.comfort.reset();
    REQUIRE(planner.plan(request, result) == Status::Ok);
    REQUIRE(result.controlPoints.size() == 4);
    CHECK(result.controlPoints[1].x() == Approx(4.251).margin(1e-4));
    CHECK(result.controlPoints[1].y() == Approx(0.749).margin(1e-4));
    CHECK(result.controlPoints[2].x() == Approx(4.251).margin(1e-4));
    CHECK(result.controlPoints[2].y() == Approx(2.251).margin(1e-4));
    // Off the corners the path is longer than the shortest route, and still shorter than the tiles.
    CHECK(result.length > optimum);
    CHECK(result.length < 10.0);
    // With a radius the corner points move out by it.
    REQUIRE(planner.plan({Vec2(0.5f, 0.5f), Vec2(0.5f, 2.5f), MobilityId{0}, 0.3f}, result) == Status::Ok);
    for (std::size_t i = 1; i < result.controlPoints.size(); ++i) {
      CHECK(probeSegment(map, MobilityId{0}, result.controlPoints[i - 1], result.controlPoints[i], 0.3f).clear);
    }
  }
}

TEST_CASE("planner: bad input gets a status and a reason", "[path]") {
  const TileMap map = test::mapFromAscii(Layout::hexPointy(), {
                                                                  "..#..",
                                                                  "..#..",
                                                                  "..#..",
                                                              });
  Planner planner(map);
  PathResult result;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Vec2 left = map.layout().tileCenter({0, 1}), right = map.layout().tileCenter({4, 1});
  const Vec2 wall = map.layout().tileCenter({2, 1});
  CHECK(planner.plan({Vec2(nan, 0.5f), left}, result) == Status::InvalidArgument);
  CHECK(planner.plan({left, left, MobilityId{0}, -1.0f}, result) == Status::InvalidArgument);
  CHECK(planner.plan({left, left, MobilityId{0}, 3.01f}, result) == Status::InvalidArgument);
  CHECK(std::string(result.reason) == "radius must be at least 0 and at most 3 tiles");
  CHECK(planner.plan({left, left, MobilityId{0}, std::numeric_limits<float>::infinity()}, result) == Status::InvalidArgument);
  // Radius 0.5 on a map 3 tiles high: the start's tile and its neighbours fit (clearance 0.5 on
  // row 1); radius 1 fits nowhere.
  CHECK(planner.plan({left, left, MobilityId{0}, 0.5f}, result) == Status::Ok);
  CHECK(planner.plan({left, left, MobilityId{0}, 1.0f}, result) == Status::StartBlocked);
  CHECK(planner.plan({left, left, MobilityId{0}, nan}, result) == Status::InvalidArgument);
  CHECK(planner.plan({left, left, MobilityId{7}}, result) == Status::InvalidArgument);
  CHECK(planner.plan({Vec2(-10.0f, 0.5f), left}, result) == Status::OutOfBounds);
  CHECK(planner.plan({left, Vec2(1e9f, 1e9f)}, result) == Status::OutOfBounds);
  CHECK(planner.plan({wall, left}, result) == Status::StartBlocked);
  CHECK(planner.plan({left, wall}, result) == Status::GoalBlocked);
  CHECK(planner.plan({left, right}, result) == Status::NoPath);
  CHECK(std::string(result.reason).find("region") != std::string::npos);
  CHECK(result.controlPoints.empty());
  // Pressed against the wall with a radius (pushed there by a crowd or the game): the start
  // steps out to its tile's centre first; a goal there cannot be reached keeping the radius.
  const Vec2 nearWall = map.layout().tileCenter({1, 1}) + Vec2(0.45f, 0.0f);
  CHECK(planner.plan({nearWall, left, MobilityId{0}, 0.3f}, result) == Status::Ok);
  REQUIRE(result.controlPoints.size() == 3);
  CHECK(result.controlPoints[1] == map.layout().tileCenter({1, 1}));
  CHECK(result.cost == Approx(0.45 + 1.0));
  CHECK(planner.plan({left, nearWall, MobilityId{0}, 0.3f}, result) == Status::GoalBlocked);
}

TEST_CASE("planner: a failed plan's reason is the result's own, unchanged by later plans", "[path]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {"..#..", "..#..", "..#.."});
  World world(map);
  NavData shared(world);
  Planner own(world);
  Planner onShared(shared);  // nothing prepared: its failures say so
  for (Planner* planner : {&own, &onShared}) {
    const Vec2 left = map.layout().tileCenter({0, 1}), right = map.layout().tileCenter({4, 1});
    PathResult first, second;
    const Status failed = planner->plan({left, right, MobilityId{0}, 0.2f}, first);
    REQUIRE(failed != Status::Ok);
    const std::string before = first.reason;
    REQUIRE_FALSE(before.empty());
    // Another, different failure on the same planner (into another result, then into none).
    REQUIRE(planner->plan({left, left, MobilityId{0}, 5.0f}, second) == Status::InvalidArgument);
    CHECK(second.reason != before);
    CHECK(first.reason == before);
    PathResult third;
    (void)planner->plan({Vec2(-1.0f, 0.0f), left}, third);
    CHECK(first.reason == before);
    // A copy owns its text too.
    const PathResult copy = first;
    first.reason.clear();
    CHECK(copy.reason == before);
  }
}

TEST_CASE("planner invariants on random weighted square and hex maps", "[path][property]") {
  std::mt19937 random(2025);
  int planned = 0, viaSearch = 0, radiusFailures = 0;
  for (const Layout& layout : {Layout::square(), Layout::square(2.0f), Layout::hexPointy(), Layout::hexFlat(0.5f),
                                Layout::hexFlat(0.5f, Vec2(0.0f, 0.0f), HexStagger::Even)}) {
    for (int trial = 0; trial < 40; ++trial) {
      const int w = std::uniform_int_distribution<int>(4, 24)(random);
      const int h = std::uniform_int_distribution<int>(4, 24)(random);
      const TileMap map = test::randomMap(random, layout, w, h, 0.2);
      // Every other map with the any-angle search.
      PlannerSettings settings;
      settings.search = trial % 2 == 1 ? SearchMode::AnyAngle : SearchMode::ExactAnyAngle;
      settings.recordStages = true;
      Planner planner(map, settings);
      PathResult result;
      for (int q = 0; q < 12; ++q) {
        const MobilityId mobility = q % 4 == 3 ? TerrainTable::kFly : TerrainTable::kWalk;
        // Radii up to just under half a tile.
        const float maxRadius = 0.49f * layout.tileSize();
        const float radius = q % 3 == 0 ? 0.0f : std::uniform_real_distribution<float>(0.0f, maxRadius)(random);
        const auto start = randomStandingPoint(random, map, mobility, radius);
        const auto goal = randomStandingPoint(random, map, mobility, radius);
        if (!start || !goal) continue;
        const PathRequest request{*start, *goal, mobility, radius};
        const Status status = planner.plan(request, result);
        INFO(toString(layout.kind()) << " trial " << trial << " query " << q << " radius " << radius << " any-angle "
                                        << (settings.search == SearchMode::AnyAngle));
        REQUIRE((status == Status::Ok || status == Status::NoPath));
        if (status != Status::Ok) {
          // NoPath only for goals the search cannot reach, never for want of a clear polyline.
          radiusFailures += std::string(result.reason).find("radius") != std::string::npos ? 1 : 0;
          continue;
        }
        ++planned;
        const std::vector<Vec2>& points = result.controlPoints;
        REQUIRE(points.size() >= 2);
        CHECK(points.front() == request.start);
        CHECK(points.back() == request.goal);
        // Every segment keeps the radius and stays in allowed tiles.
        double cost = 0;
        for (std::size_t i = 1; i < points.size(); ++i) {
          const SegmentProbe probe = probeSegment(map, mobility, points[i - 1], points[i], radius);
          REQUIRE(probe.clear);
          cost += probe.cost;
        }
        CHECK(result.cost == Approx(cost));
        CHECK(result.length == Approx(polylineLength(points)));
        if (result.tilePath.empty()) continue;  // straight line
        ++viaSearch;
        // The cost invariant, stage by stage, judged independently (support/path_checks).
        const bool anyAngle = settings.search == SearchMode::AnyAngle && !widerThanHalfHexEdge(layout, radius);
        const std::string broken = test::costInvariantViolation(map, request, result, planner.diagnostics(), {}, anyAngle);
        INFO(broken);
        CHECK(broken.empty());
        if (anyAngle) CHECK(result.searchLength == Approx(polylineLength(planner.diagnostics().stagePoints[std::size_t(PathStage::Search)])).epsilon(1e-6));
      }
    }
  }
  CHECK(planned > 800);
  CHECK(radiusFailures == 0);
  CHECK(viaSearch > 300);
}

TEST_CASE("planner: a clear straight line through costly terrain is not taken blindly", "[path]") {
  TerrainTable terrain = test::testTerrain();
  const TerrainId lava = terrain.addTerrain("lava", 'L').value();
  REQUIRE(terrain.setCost(lava, TerrainTable::kWalk, 1000.0f) == Status::Ok);
  TileMap map = TileMap::create(Layout::square(), 10, 10, terrain, TerrainId{0}).value();
  for (int y = 0; y < 9; ++y) REQUIRE(map.setTerrain({5, y}, lava) == Status::Ok);
  Planner planner(map);
  PathResult result;
  REQUIRE(planner.plan({Vec2(2.5f, 2.5f), Vec2(8.5f, 2.5f)}, result) == Status::Ok);
  CHECK(planner.diagnostics().stats(PathStage::Search).ran);
  CHECK(result.cost < 20.0);  // round the end of the lava strip, not 1005 straight through it
}

TEST_CASE("planner: hex start or goal that cannot reach its tile centre is refused, not NoPath", "[path]") {
  // Found by review: the goal stands clear, but the way to its tile's centre passes within the
  // radius of the (off-map, so blocked) neighbour's corner.
  TileMap map = TileMap::create(Layout::hexPointy(), 6, 24, test::testTerrain(), TerrainId{0}).value();
  REQUIRE(map.setTerrain({4, 18}, TerrainId{1}) == Status::Ok);
  Planner planner(map);
  PathResult result;
  const Status status =
      planner.plan({Vec2(1.916808f, 13.496378f), Vec2(5.603007f, 20.140766f), MobilityId{0}, 0.433482f}, result);
  CHECK((status == Status::Ok || status == Status::GoalBlocked));
  if (status == Status::Ok) {
    for (std::size_t i = 1; i < result.controlPoints.size(); ++i) {
      CHECK(probeSegment(map, MobilityId{0}, result.controlPoints[i - 1], result.controlPoints[i], 0.433482f).clear);
    }
  }
}

TEST_CASE("planner: a moved planner plans as before; a moved-from one has no plan in progress", "[path][planner]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "..........",
                                                               "..####....",
                                                               ".....#....",
                                                               "..........",
                                                           });
  const TileMap other = test::mapFromAscii(Layout::square(), {"...", "..."});
  const PathRequest request{Vec2(0.5f, 0.5f), Vec2(8.5f, 2.5f), TerrainTable::kWalk, 0.2f};
  Planner first(map);
  PathResult before, after;
  REQUIRE(first.plan(request, before) == Status::Ok);
  // A sliced plan in progress moves with the planner.
  REQUIRE(first.beginPlan(request, after, 1) == Status::InProgress);
  Planner second(std::move(first));
  CHECK_FALSE(first.planInProgress());  // NOLINT(bugprone-use-after-move): what the contract allows
  first.cancelPlan();                   // NOLINT(bugprone-use-after-move)
  CHECK(second.planInProgress());
  while (second.continuePlan(after, 1) == Status::InProgress) {
  }
  CHECK(test::digestOf(after) == test::digestOf(before));
  CHECK(&second.world().map() != &other);
  // Move-assigned over a planner of another map: it plans on the first map.
  Planner third(other);
  third = std::move(second);
  REQUIRE(third.plan(request, after) == Status::Ok);
  CHECK(test::digestOf(after) == test::digestOf(before));
  CHECK(third.world().map().width() == 10);
  first = std::move(third);  // a moved-from planner may be assigned to, and plans again
  REQUIRE(first.plan(request, after) == Status::Ok);
  CHECK(test::digestOf(after) == test::digestOf(before));
}
