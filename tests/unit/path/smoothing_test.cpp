// SPDX-License-Identifier: MIT
// Stage 8 (smoothing) and the PathFollower: the curve keeps every rule, passes through every
// control point, has no cusps or loops within a span, and a follower travels exactly its length.
#include <catch2/catch.hpp>

#include "grid/convex_corners.hpp"
#include "rpgnav/grid/line_of_sight.hpp"
#include "grid/segment_tester.hpp"
#include "rpgnav/path/planner.hpp"
#include "path/stages.hpp"
#include "support/geometry.hpp"
#include "support/path_checks.hpp"
#include "support/test_maps.hpp"

#include <algorithm>
#include <cmath>
#include <random>

using namespace rpgnav;

namespace {

using Point = Eigen::Vector2d;
using test::pointToSegment;

using test::curveViolation;
using test::densePoints;
using test::segmentToPolygon;

// `count` entities (ids 1..count) anywhere on the world's map, radii minRadius..maxRadius tiles,
// every `flatEvery`-th one flat, the rest static obstacles.
void scatterEntities(World& world, std::mt19937& random, std::uint32_t count, float minRadius, float maxRadius,
                     std::uint32_t flatEvery) {
  const Layout& layout = world.map().layout();
  const float size = layout.tileSize();
  const int w = world.map().width(), h = world.map().height();
  for (std::uint32_t i = 1; i <= count; ++i) {
    const Vec2 p(std::uniform_real_distribution<float>(0.0f, float(w))(random),
                 std::uniform_real_distribution<float>(0.0f, float(h))(random));
    (void)world.entities().add({EntityId{i}, layout.origin() + p * size,
                                std::uniform_real_distribution<float>(minRadius, maxRadius)(random) * size,
                                std::uint8_t(i % flatEvery == 0 ? kEntityFlat : kEntityStatic)});
  }
}

// The dearest tile the segment a→b touches (by exact segment distances, within 10⁻⁶ × the
// points' coordinates in tiles: at least the library's tolerance for a segment running along a
// tile's edge, which prices the dearer side, detail::costTolerance — the float rounding of points
// meant to lie on it): at least what the straight segment crosses, slivers at tile corners
// included.
double dearestNear(const TileMap& map, MobilityId mobility, Vec2 a, Vec2 b) {
  const Layout& layout = map.layout();
  const auto from = map.tileAt(a), to = map.tileAt(b);
  REQUIRE((from && to));
  const Eigen::Vector2d localA = layout.toLocal(a), localB = layout.toLocal(b);
  const double magnitude = std::max({1.0, std::abs(localA.x()), std::abs(localA.y()), std::abs(localB.x()), std::abs(localB.y())});
  const double touching = 1e-6 * magnitude * double(layout.tileSize());
  double dearest = 0.0;
  for (std::int32_t y = std::min(from->y, to->y) - 2; y <= std::max(from->y, to->y) + 2; ++y) {
    for (std::int32_t x = std::min(from->x, to->x) - 2; x <= std::max(from->x, to->x) + 2; ++x) {
      if (!map.passable({x, y}, mobility) ||
          segmentToPolygon(a.cast<double>(), b.cast<double>(), layout.tilePolygon({x, y})) > touching) {
        continue;
      }
      dearest = std::max(dearest, double(map.cost({x, y}, mobility)));
    }
  }
  return dearest;
}

// How far inside its tile (from the tile's edges) a point lies.
double depthInTile(const Layout& layout, Cell cell, Vec2 p) {
  const TilePolygon polygon = layout.tilePolygon(cell);
  double depth = 1e30;
  for (int i = 0; i < polygon.count; ++i) {
    depth = std::min(depth, pointToSegment(p.cast<double>(), polygon.corners[std::size_t(i)].cast<double>(),
                                           polygon.corners[std::size_t((i + 1) % polygon.count)].cast<double>()));
  }
  return depth;
}

// The terrain rule: no span leads over a tile dearer than the dearest its straight segment (the
// control points `points[i]`→`points[i + 1]`) touches. Returns the first violation, or "".
std::string dearerTerrain(const TileMap& map, MobilityId mobility, const std::vector<Vec2>& points, const SmoothPath& path) {
  const Layout& layout = map.layout();
  for (std::size_t i = 0; i < path.spans().size(); ++i) {
    const CubicSpan& span = path.spans()[i];
    const double limit = dearestNear(map, mobility, points[i], points[i + 1]);
    for (int k = 0; k <= 400; ++k) {
      const Vec2 p = span.at(k / 400.0);
      const auto tile = map.tileAt(p);
      if (!tile) return "span " + std::to_string(i) + " leaves the map";
      if (double(map.cost(*tile, mobility)) > limit && depthInTile(layout, *tile, p) > 1e-4 * double(layout.tileSize())) {
        return "span " + std::to_string(i) + " leads over dearer terrain at " + std::to_string(p.x()) + "," + std::to_string(p.y());
      }
    }
  }
  return "";
}

void requireSafe(const World& world, const PathRequest& request, const SmoothPath& path, double slack) {
  REQUIRE(curveViolation(world, request, path, slack).empty());
}

// Within each span: the derivative never vanishes or turns back (no cusp), and the span's
// polyline does not cross itself (no loop).
void requireNoCuspsOrLoops(const SmoothPath& path) {
  for (const CubicSpan& span : path.spans()) {
    const double chord = double((span.p[3] - span.p[0]).norm());
    if (chord == 0.0) continue;
    std::vector<Point> points;
    Point previous = span.derivative(0.0).cast<double>();
    for (int k = 0; k <= 64; ++k) {
      const double t = k / 64.0;
      const Point d = span.derivative(t).cast<double>();
      if (!(d.norm() > 1e-3 * chord) || !(d.dot(previous) > 0.0)) FAIL("cusp or reversal in a span");
      previous = d;
      points.push_back(span.at(t).cast<double>());
    }
    auto cross = [](const Point& a, const Point& b) { return a.x() * b.y() - a.y() * b.x(); };
    for (std::size_t i = 1; i < points.size(); ++i) {
      for (std::size_t j = i + 2; j < points.size(); ++j) {
        const Point p = points[i - 1], q = points[i], r = points[j - 1], s = points[j];
        const double o1 = cross(q - p, r - p), o2 = cross(q - p, s - p), o3 = cross(s - r, p - r), o4 = cross(s - r, q - r);
        if (o1 * o2 < 0 && o3 * o4 < 0) FAIL("a span crosses itself");
      }
    }
  }
}

}  // namespace

TEST_CASE("smoothing: a straight path stays straight; a bend is rounded through its control point", "[path][smoothing]") {
  const TileMap open = test::mapFromAscii(Layout::square(), {"..........", "..........", ".........."});
  Planner planner(open);
  PathResult result;
  REQUIRE(planner.plan({Vec2(0.5f, 1.5f), Vec2(9.5f, 1.5f)}, result) == Status::Ok);
  REQUIRE(result.smoothed.spans().size() == 1);
  CHECK(result.smoothed.length() == Approx(9.0).epsilon(1e-6));
  CHECK(result.smoothed.position(4.5).isApprox(Vec2(5.0f, 1.5f), 1e-5f));

  const TileMap corner = test::mapFromAscii(Layout::square(), {
                                                                  "......",
                                                                  "......",
                                                                  "..####",
                                                                  "..####",
                                                                  "..####",
                                                              });
  Planner bend(corner);
  const PathRequest request{Vec2(0.5f, 4.5f), Vec2(5.5f, 0.5f), TerrainTable::kWalk, 0.2f};
  REQUIRE(bend.plan(request, result) == Status::Ok);
  REQUIRE(result.controlPoints.size() == 3);
  const SmoothPath& curve = result.smoothed;
  REQUIRE(curve.knotCount() == 3);
  for (std::size_t i = 0; i < 3; ++i) CHECK(curve.position(curve.knot(i)).isApprox(result.controlPoints[i], 1e-4f));
  // The ends leave and arrive along the first and last segments (no overshoot).
  const Vec2 first = (result.controlPoints[1] - result.controlPoints[0]).normalized();
  const Vec2 last = (result.controlPoints[2] - result.controlPoints[1]).normalized();
  CHECK(curve.tangent(0.0).dot(first) == Approx(1.0f).margin(1e-4));
  CHECK(curve.tangent(curve.length()).dot(last) == Approx(1.0f).margin(1e-4));
  World world(corner);
  requireSafe(world, request, curve, 1e-4);
  requireNoCuspsOrLoops(curve);
}

TEST_CASE("smoothing: a path that turns back (a spike) gets no cusp: the spans beside the turn are straight",
          "[path][smoothing]") {
  const TileMap open = test::mapFromAscii(Layout::square(), {"..........", "..........", "..........", ".........."});
  const SegmentTester lines(open, TerrainTable::kWalk);
  const ConvexCorners corners(open, TerrainTable::kWalk);
  const StageContext context{open, TerrainTable::kWalk, 0.2f, lines, corners};
  const EntityRegistry none;
  const EntityQuery entities{none};
  for (const float aside : {0.0f, 0.001f, 0.05f}) {
    // Out along y = 1.5 and back, a hair aside, then down.
    const std::vector<Vec2> points{Vec2(1.5f, 1.5f), Vec2(6.5f, 1.5f), Vec2(2.5f, 1.5f + aside), Vec2(2.5f, 3.5f)};
    SmoothPath path;
    StageStats stats;
    smoothingStage(context, SmoothingSettings{}, entities, points, path, stats);
    INFO("aside " << aside);
    REQUIRE(path.spans().size() == 3);
    requireNoCuspsOrLoops(path);
    // The spans into and out of the turn are the segments themselves; the last one curves.
    for (int k = 0; k < 2; ++k) CHECK(path.spans()[std::size_t(k)].spread() < 1e-5);
    CHECK(stats.repairs >= 1);
    CHECK(path.spans()[2].spread() > 1e-3);
  }
}

TEST_CASE("smoothing: the deviation cap and the parameterisation settings", "[path][smoothing]") {
  const TileMap map = test::randomMap(*std::make_unique<std::mt19937>(3), Layout::square(), 30, 30, 0.0, false);
  World world(map);
  // Two entities make a zig-zag path in the open.
  REQUIRE(world.entities().add({EntityId{1}, Vec2(10.0f, 15.2f), 2.0f}) == Status::Ok);
  REQUIRE(world.entities().add({EntityId{2}, Vec2(20.0f, 14.8f), 2.0f}) == Status::Ok);
  const PathRequest request{Vec2(1.5f, 15.0f), Vec2(28.5f, 15.0f), TerrainTable::kWalk, 0.25f};
  double lengths[3];
  int k = 0;
  for (const float alpha : {0.5f, 0.0f, 1.0f}) {
    PlannerSettings settings;
    settings.smoothing.alpha = alpha;
    settings.smoothing.maxDeviation = 0.2f;
    Planner planner(world, settings);
    PathResult result;
    REQUIRE(planner.plan(request, result) == Status::Ok);
    REQUIRE(result.detours.size() >= 1);
    // No curve point strays more than the cap (plus the table's tolerance) from the polyline.
    double farthest = 0.0;
    for (const Vec2& p : densePoints(result.smoothed, 0.02)) {
      double nearest = 1e30;
      for (std::size_t i = 1; i < result.controlPoints.size(); ++i) {
        nearest = std::min(nearest, pointToSegment(p.cast<double>(), result.controlPoints[i - 1].cast<double>(),
                                                   result.controlPoints[i].cast<double>()));
      }
      farthest = std::max(farthest, nearest);
    }
    CHECK(farthest <= 0.2 + 0.011);
    CHECK(farthest > 0.05);  // it is a curve
    requireSafe(world, request, result.smoothed, 1e-4);
    lengths[k++] = result.smoothed.length();
  }
  CHECK(lengths[0] != lengths[1]);
  CHECK(lengths[0] != lengths[2]);
}

namespace {

// Smoothed curves on random maps of one layout, with entities and doors: every rule of the curve
// and of a follower walking it, on thousands of queries. One test case per layout, so that the
// layouts run side by side in a parallel ctest run.
void checkSmoothedCurvesOnRandomMaps(const Layout& layout, std::uint32_t seed) {
  std::mt19937 random(seed);
  // Thousands of queries: 40 maps × this many.
  constexpr int kQueriesPerMap = 100;
  int queries = 0, curves = 0, repaired = 0;
  const float size = layout.tileSize();
  for (int trial = 0; trial < 40; ++trial) {
    const int w = std::uniform_int_distribution<int>(8, 32)(random), h = std::uniform_int_distribution<int>(8, 32)(random);
    const TileMap map = test::randomMap(random, layout, w, h, 0.2);
    World world(map);
    scatterEntities(world, random, std::uint32_t(w * h / 12), 0.05f, 0.5f, 4);
    for (int d = 0; d < w * h / 30; ++d) {
      const Cell a{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
      const auto touching = layout.touching(a);
      const NeighbourStep& step = touching[std::uniform_int_distribution<std::size_t>(0, touching.size() - 1)(random)];
      (void)world.addDoor({"d" + std::to_string(d), a, {a.x + step.dx, a.y + step.dy},
                           DoorState(std::uniform_int_distribution<int>(0, 2)(random))});
    }
    // On every fourth map the stages are recorded and the cost invariant judged stage by stage.
    const bool judged = trial % 4 == 0;
    PlannerSettings settings;
    settings.recordStages = judged;
    Planner planner(world, settings);
    PathResult result;
    const std::vector<const Door*> walls = test::wallDoors(world.doors());
    // Starts and goals on tiles a walker may enter (most of them reachable).
    std::vector<Cell> open;
    for (std::int32_t y = 0; y < h; ++y) {
      for (std::int32_t x = 0; x < w; ++x) {
        if (map.passable({x, y}, TerrainTable::kWalk)) open.push_back({x, y});
      }
    }
    if (open.empty()) continue;
    std::uniform_int_distribution<std::size_t> anyOpen(0, open.size() - 1);
    for (int q = 0; q < kQueriesPerMap; ++q) {
      ++queries;
      const float radius = std::uniform_real_distribution<float>(0.0f, 0.24f)(random) * size;
      const Cell s = open[anyOpen(random)], g = open[anyOpen(random)];
      const Vec2 jitter(std::uniform_real_distribution<float>(-0.2f, 0.2f)(random),
                        std::uniform_real_distribution<float>(-0.2f, 0.2f)(random));
      const PathRequest request{layout.tileCenter(s) + jitter * size, layout.tileCenter(g), TerrainTable::kWalk, radius};
      if (!isSuccess(planner.plan(request, result))) continue;
      INFO(toString(layout.kind()) << " trial " << trial << " query " << q);
      if (judged) {
        const std::string broken = test::costInvariantViolation(map, request, result, planner.diagnostics(), walls, false, true);
        INFO(broken);
        REQUIRE(broken.empty());
      }
      const SmoothPath& curve = result.smoothed;
      REQUIRE(curve.knotCount() >= 2);
      // Through every control point, in order (repeated points merged).
      std::vector<Vec2> distinct;
      for (const Vec2& p : result.controlPoints) {
        if (distinct.empty() || distinct.back() != p) distinct.push_back(p);
      }
      if (distinct.size() >= 2) {
        REQUIRE(curve.knotCount() == distinct.size());
        for (std::size_t i = 0; i < distinct.size(); ++i) {
          if (!curve.position(curve.knot(i)).isApprox(distinct[i], 1e-4f)) FAIL("misses control point " << i);
        }
      }
      requireSafe(world, request, curve, 1e-4);
      if (distinct.size() >= 2) {
        const std::string dearer = dearerTerrain(map, TerrainTable::kWalk, distinct, curve);
        if (!dearer.empty()) FAIL(dearer);
      }
      requireNoCuspsOrLoops(curve);
      // A follower walking in uneven steps travels exactly the curve's length, passes every
      // control point once and ends on the last one.
      PathFollower follower(curve, result.status == Status::StoppedAtDoor ? PathFollower::Ending::DoorStop
                                                                          : PathFollower::Ending::Goal);
      double travelled = 0.0;
      std::int32_t reached = 0;
      PathFollower::Step step;
      for (int frame = 0; frame < 100000 && !follower.arrived(); ++frame) {
        step = follower.advance(std::uniform_real_distribution<double>(0.0, 0.7)(random));
        travelled += step.travelled;
        reached += step.reached;
        if (step.travelled > 0 && std::abs(step.heading.norm() - 1.0f) > 1e-4f) FAIL("heading not a unit vector");
      }
      REQUIRE(follower.arrived());
      REQUIRE(travelled == Approx(curve.length()).margin(1e-9));
      REQUIRE(reached == std::int32_t(curve.knotCount()) - 1);
      REQUIRE(step.position == distinct.back());
      REQUIRE(step.ending == (result.status == Status::StoppedAtDoor ? PathFollower::Ending::DoorStop
                                                                      : PathFollower::Ending::Goal));
      ++curves;
      repaired += planner.diagnostics().stats(PathStage::Smoothing).repairs > 0 ? 1 : 0;
    }
  }
  INFO(queries << " queries, " << curves << " curves, " << repaired << " repaired");
  CHECK(queries >= 3500);
  CHECK(curves > 2500);
  CHECK(repaired > 100);  // the repairs were needed, and the check above saw their results
}

}  // namespace

// (Small tiles away from the origin too: the checks work in tile coordinates.)
TEST_CASE("smoothed curves keep every rule on random square maps, with entities and doors", "[path][smoothing][property]") {
  checkSmoothedCurvesOnRandomMaps(Layout::square(), 99);
}
TEST_CASE("smoothed curves keep every rule on random 4-way square maps, with entities and doors",
          "[path][smoothing][property]") {
  checkSmoothedCurvesOnRandomMaps(Layout::square(1.0f, 4), 100);
}
TEST_CASE("smoothed curves keep every rule on random square maps of half tiles off the origin, with entities and doors",
          "[path][smoothing][property]") {
  checkSmoothedCurvesOnRandomMaps(Layout::square(0.5f, 8, Vec2(3.0f, -2.0f)), 101);
}
TEST_CASE("smoothed curves keep every rule on random pointy hex maps, with entities and doors", "[path][smoothing][property]") {
  checkSmoothedCurvesOnRandomMaps(Layout::hexPointy(), 102);
}
TEST_CASE("smoothed curves keep every rule on random flat hex maps, with entities and doors", "[path][smoothing][property]") {
  checkSmoothedCurvesOnRandomMaps(Layout::hexFlat(), 103);
}
TEST_CASE("smoothed curves keep every rule on random flat hex maps of even stagger, with entities and doors",
          "[path][smoothing][property]") {
  checkSmoothedCurvesOnRandomMaps(Layout::hexFlat(1.0f, Vec2(0.0f, 0.0f), HexStagger::Even), 104);
}

// Control points the planner would never make: long clear segments across random weighted maps,
// bending anywhere, with generous bulges allowed. Every curve must still keep every rule; this
// drives the span check through its whole-box, block and line-by-line answers.
TEST_CASE("smoothing keeps every rule through arbitrary clear control points", "[path][smoothing][property]") {
  std::mt19937 random(131);
  int spans = 0, curved = 0, repaired = 0;
  for (const Layout& layout : {Layout::square(), Layout::square(1.0f, 4), Layout::square(0.5f, 8, Vec2(3.0f, -2.0f)),
                                Layout::hexPointy(), Layout::hexFlat()}) {
    const float size = layout.tileSize();
    for (int trial = 0; trial < 24; ++trial) {
      // Every other map is big and sparse, mostly of one terrain, with long segments away from its
      // edges (tall boxes inside the map, where the check asks about blocks of lines).
      const bool big = trial % 2 == 1;
      const int w = big ? 64 : std::uniform_int_distribution<int>(10, 40)(random);
      const int h = big ? 64 : std::uniform_int_distribution<int>(10, 40)(random);
      const int edge = big ? 8 : 0;
      const TileMap map = test::randomMap(random, layout, w, h, big ? 0.03 : trial % 3 == 0 ? 0.04 : 0.12, !big || trial % 4 == 1);
      World world(map);
      scatterEntities(world, random, std::uint32_t(w * h / 40), 0.1f, 0.6f, 3);
      const MobilityId mobility = TerrainTable::kWalk;
      const SegmentTester lines(map, mobility);
      const ConvexCorners corners(map, mobility);
      for (int q = 0; q < 12; ++q) {
        const float radius = std::uniform_real_distribution<float>(0.0f, 0.3f)(random) * size;
        const StageContext context{map, mobility, radius, lines, corners};
        const EntityQuery entities{world.entities()};
        auto randomPoint = [&]() {
          const Cell cell{std::uniform_int_distribution<int>(edge, w - 1 - edge)(random),
                          std::uniform_int_distribution<int>(edge, h - 1 - edge)(random)};
          return Vec2(layout.tileCenter(cell) + Vec2(std::uniform_real_distribution<float>(-0.3f, 0.3f)(random),
                                                     std::uniform_real_distribution<float>(-0.3f, 0.3f)(random)) * size);
        };
        // A clear segment: keeps the radius from blocked tiles and from every entity that blocks.
        auto clear = [&](Vec2 a, Vec2 b, Vec2 start) {
          if (!probeSegment(map, mobility, a, b, radius).clear) return false;
          for (const Entity& e : world.entities().all()) {
            if (entities.blocks(e, start, radius) &&
                pointToSegment(e.position.cast<double>(), a.cast<double>(), b.cast<double>()) < double(e.radius + radius) + 1e-3) {
              return false;
            }
          }
          return true;
        };
        std::vector<Vec2> points{randomPoint()};
        const int wanted = std::uniform_int_distribution<int>(2, 5)(random);
        for (int attempt = 0; attempt < 200 && int(points.size()) < wanted; ++attempt) {
          const Vec2 next = randomPoint();
          const float shortest = (big ? 12.0f : 2.0f) * size;
          if ((next - points.back()).norm() > shortest && clear(points.back(), next, points.front())) points.push_back(next);
        }
        if (points.size() < 2) continue;
        // Every fourth path turns back at its end, exactly or all but (stage 7 may leave such a
        // spike): the curve must not stop dead or loop there.
        if (q % 4 == 3) {
          const Vec2 back = points[points.size() - 2] + Vec2(0.0f, trial % 2 == 0 ? 0.0f : 0.01f * size);
          if (clear(points.back(), back, points.front())) points.push_back(back);
        }
        SmoothingSettings settings;
        settings.maxDeviation = std::array<float, 3>{0.5f, 2.0f, 6.0f}[std::size_t(q % 3)];
        SmoothPath path;
        StageStats stats;
        smoothingStage(context, settings, entities, points, path, stats);
        INFO(toString(layout.kind()) << " trial " << trial << " query " << q << " radius " << radius);
        REQUIRE(path.spans().size() == points.size() - 1);
        const PathRequest request{points.front(), points.back(), mobility, radius};
        const std::string problem = curveViolation(world, request, path, 1e-4 * size);
        if (!problem.empty()) FAIL(problem);
        const std::string dearer = dearerTerrain(map, mobility, points, path);
        if (!dearer.empty()) FAIL(dearer);
        requireNoCuspsOrLoops(path);
        for (const CubicSpan& span : path.spans()) {
          ++spans;
          if (span.spread() > 1e-4 * size) ++curved;
        }
        repaired += stats.repairs > 0 ? 1 : 0;
      }
    }
  }
  INFO(spans << " spans, " << curved << " curved, " << repaired << " curves repaired");
  CHECK(spans > 1000);
  CHECK(curved > spans / 3);
  CHECK(repaired > 50);  // curves that had to be tightened or straightened: the check said no
}

TEST_CASE("path follower: empty paths, bad distances and control point reports", "[path][smoothing]") {
  SmoothPath empty;
  PathFollower none(empty);
  CHECK(none.arrived());
  const PathFollower::Step step = none.advance(1.0);
  CHECK(step.travelled == 0.0);

  CubicSpan a, b;
  a.p = {Vec2(0, 0), Vec2(1, 0), Vec2(2, 0), Vec2(3, 0)};
  b.p = {Vec2(3, 0), Vec2(3, 1), Vec2(3, 2), Vec2(3, 3)};
  SmoothPath path;
  path.assign(std::vector<CubicSpan>{a, b}, 1e-3);
  CHECK(path.length() == Approx(6.0));
  PathFollower follower(path, PathFollower::Ending::Blocked);
  CHECK(follower.advance(std::nan("")).travelled == 0.0);
  CHECK(follower.advance(-5.0).travelled == 0.0);
  PathFollower::Step first = follower.advance(2.0);
  CHECK(first.reached == 0);
  CHECK(first.position.isApprox(Vec2(2, 0), 1e-5f));
  CHECK(first.heading.isApprox(Vec2(1, 0), 1e-5f));
  PathFollower::Step second = follower.advance(2.0);
  CHECK(second.reached == 1);
  CHECK(second.firstReached == 1);
  CHECK(second.position.isApprox(Vec2(3, 1), 1e-5f));
  CHECK(second.heading.isApprox(Vec2(0, 1), 1e-5f));
  PathFollower::Step last = follower.advance(100.0);
  CHECK(last.arrived);
  CHECK(last.travelled == Approx(2.0));
  CHECK(last.ending == PathFollower::Ending::Blocked);
  CHECK(last.position == Vec2(3, 3));
  CHECK_FALSE(follower.advance(1.0).arrived);  // reported once
  std::vector<Vec2> every;
  path.sampleEvery(1.0, every);
  CHECK(every.size() == 7);
  std::vector<Vec2> sampled;
  path.sample(0.01, sampled);
  CHECK(sampled.front() == Vec2(0, 0));
  CHECK(sampled.back() == Vec2(3, 3));
}
