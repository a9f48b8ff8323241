// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "grid/segment_tester.hpp"
#include "rpgnav/grid/line_of_sight.hpp"
#include "support/path_checks.hpp"
#include "support/test_maps.hpp"

#include <cmath>
#include <limits>
#include <random>

using namespace rpgnav;
using Eigen::Vector2d;

namespace {

double pointToSegment(const Vector2d& p, const Vector2d& a, const Vector2d& b) {
  const Vector2d ab = b - a;
  const double t = std::clamp((p - a).dot(ab) / ab.squaredNorm(), 0.0, 1.0);
  return (a + ab * t - p).norm();
}

// Distance between two segments that do not cross: the smallest end-point-to-segment distance.
double segmentToSegment(const Vector2d& a, const Vector2d& b, const Vector2d& c, const Vector2d& d) {
  return std::min({pointToSegment(a, c, d), pointToSegment(b, c, d), pointToSegment(c, a, b), pointToSegment(d, a, b)});
}

// Brute force: the smallest distance from the segment to any blocked tile near it (tiles off the
// map count as blocked), in tile units.
double clearance(const TileMap& map, MobilityId mobility, Vec2 from, Vec2 to) {
  const Layout& layout = map.layout();
  const Vector2d a = layout.toLocal(from), b = layout.toLocal(to);
  double best = 1e300;
  for (int y = -3; y < map.height() + 3; ++y) {
    for (int x = -3; x < map.width() + 3; ++x) {
      if (map.passable({x, y}, mobility)) continue;
      std::array<Vector2d, 6> corners;
      const int count = layout.localCorners({x, y}, corners);
      for (int i = 0; i < count; ++i) {
        best = std::min(best, segmentToSegment(a, b, corners[std::size_t(i)], corners[std::size_t((i + 1) % count)]));
      }
    }
  }
  return best;
}

// Midpoint-rule estimate of the weighted cost.
double sampledCost(const TileMap& map, MobilityId mobility, Vec2 from, Vec2 to, int samples) {
  double total = 0;
  for (int i = 0; i < samples; ++i) {
    const Vec2 p = from + (to - from) * ((float(i) + 0.5f) / float(samples));
    total += map.cost(map.layout().tileAt(p), mobility);
  }
  return total * double((to - from).norm()) / samples;
}

}  // namespace

TEST_CASE("probeSegment: weighted cost of simple segments", "[grid][los]") {
  const TileMap map = test::mapFromAscii(Layout::square(2.0f), {
                                                                   "..,,..",
                                                                   "......",
                                                               });
  // Through the middle row 0: 2 floor tiles, 2 swamp (cost 3), 2 floor; 2 world units each.
  const SegmentProbe across = probeSegment(map, TerrainTable::kWalk, Vec2(1.0f, 1.0f), Vec2(11.0f, 1.0f), 0.0f);
  REQUIRE(across.clear);
  CHECK(across.length == Approx(10.0));
  CHECK(across.cost == Approx(1.0 * 1 + 2.0 * 1 + 2.0 * 3 + 2.0 * 3 + 2.0 * 1 + 1.0 * 1));
  // Along the edge between the rows (y = 2 world units): the dearer side counts.
  const SegmentProbe along = probeSegment(map, TerrainTable::kWalk, Vec2(0.0f, 2.0f), Vec2(12.0f, 2.0f), 0.0f);
  REQUIRE(along.clear);
  CHECK(along.cost == Approx(4.0 + 4.0 * 3 + 4.0));
  // Zero length: clear on a passable tile, cost 0.
  const SegmentProbe dot = probeSegment(map, TerrainTable::kWalk, Vec2(1.0f, 1.0f), Vec2(1.0f, 1.0f), 0.3f);
  CHECK(dot.clear);
  CHECK(dot.cost == 0.0);
}

TEST_CASE("probeSegment: clearance from blocked tiles", "[grid][los]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               ".....",
                                                               "..#..",
                                                               ".....",
                                                           });
  const MobilityId walk = TerrainTable::kWalk;
  // Row 0's centre line is 0.5 from the wall's top edge.
  CHECK(probeSegment(map, walk, Vec2(0.5f, 0.5f), Vec2(4.5f, 0.5f), 0.49f).clear);
  CHECK_FALSE(probeSegment(map, walk, Vec2(0.5f, 0.4f), Vec2(4.5f, 0.4f), 0.62f).clear);
  // Past the wall's corner (2,1) at distance √0.5 ≈ 0.707 diagonally.
  CHECK(probeSegment(map, walk, Vec2(0.5f, 0.5f), Vec2(1.5f, 1.5f), 0.49f).clear);
  // Through the wall's interior: never clear.
  CHECK_FALSE(probeSegment(map, walk, Vec2(1.0f, 0.0f), Vec2(3.0f, 2.0f), 0.0f).clear);
  // Grazing the wall's corner (2,1): clear for radius 0 (touching is allowed), not for any
  // positive radius.
  CHECK(probeSegment(map, walk, Vec2(1.0f, 2.0f), Vec2(3.0f, 0.0f), 0.0f).clear);
  CHECK_FALSE(probeSegment(map, walk, Vec2(1.0f, 2.0f), Vec2(3.0f, 0.0f), 0.01f).clear);
  // Bad input.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK_FALSE(probeSegment(map, walk, Vec2(nan, 0.5f), Vec2(1.5f, 0.5f), 0.1f).clear);
  CHECK_FALSE(probeSegment(map, walk, Vec2(0.5f, 0.5f), Vec2(1.5f, 0.5f), -0.1f).clear);
  CHECK_FALSE(probeSegment(map, walk, Vec2(0.5f, 0.5f), Vec2(1.5f, 0.5f), nan).clear);
  CHECK_FALSE(probeSegment(map, walk, Vec2(0.5f, 0.5f), Vec2(-5.5f, 0.5f), 0.0f).clear);  // off the map
}

TEST_CASE("probeSegment matches brute-force clearance and sampled cost", "[grid][los][property]") {
  std::mt19937 random(31);
  int clearCount = 0, total = 0;
  for (const Layout& layout : test::allLayouts()) {
    for (int trial = 0; trial < 30; ++trial) {
      const int w = std::uniform_int_distribution<int>(3, 12)(random);
      const int h = std::uniform_int_distribution<int>(3, 12)(random);
      const TileMap map = test::randomMap(random, layout, w, h, 0.08, trial % 2 == 0);
      for (int s = 0; s < 60; ++s) {
        const Vec2 a = map.layout().tileCenter({std::uniform_int_distribution<int>(0, w - 1)(random),
                                                std::uniform_int_distribution<int>(0, h - 1)(random)});
        // Half long segments across the map, half short hops (more of them clear).
        const Vec2 b = s % 2 == 0 ? Vec2(std::uniform_real_distribution<float>(0.0f, float(w))(random),
                                         std::uniform_real_distribution<float>(0.0f, float(h) * 0.9f)(random))
                                  : Vec2(a + Vec2(std::uniform_real_distribution<float>(-2.5f, 2.5f)(random),
                                                  std::uniform_real_distribution<float>(-2.5f, 2.5f)(random)));
        const float radius = s % 3 == 0 ? 0.0f : std::uniform_real_distribution<float>(0.0f, 0.49f)(random);
        const SegmentProbe probe = probeSegment(map, TerrainTable::kWalk, a, b, radius);
        const bool sees = hasLineOfSight(map, TerrainTable::kWalk, a, b);
        const double gap = clearance(map, TerrainTable::kWalk, a, b);
        INFO(toString(layout.kind()) << " (" << a.x() << "," << a.y() << ")->(" << b.x() << "," << b.y() << ") r "
                                       << radius << " gap " << gap);
        // Away from the decision boundary the answer must match the brute force exactly.
        if (std::abs(gap - radius) < 1e-4) continue;
        REQUIRE(probe.clear == (sees && gap >= radius));
        ++total;
        if (!probe.clear) continue;
        ++clearCount;
        REQUIRE(probe.length == Approx((b - a).norm()));
        const double sampled = sampledCost(map, TerrainTable::kWalk, a, b, 4000);
        REQUIRE(probe.cost == Approx(sampled).epsilon(0.01).margin(0.01));
      }
    }
  }
  CHECK(total > 4000);
  CHECK(clearCount > total / 5);
  CHECK(clearCount < total);
}

TEST_CASE("probeSegment prices segments along edges and through corners as the cost model says", "[grid][los][property]") {
  // The cost model (README, "One cost model"): the length inside each tile × its cost; along an
  // edge between two passable tiles, or within float rounding of one all along, the dearer. The
  // judge (tests/support/path_checks) computes it by clipping tile polygons. Segments here run
  // from tile corners and edge middles to others (along edges, through corners), nudged by a
  // float rounding step or by a clear 10⁻⁴ tiles, on weighted square and hex maps.
  std::mt19937 random(77);
  int segments = 0, along = 0;
  for (const Layout& layout : test::allLayouts()) {
    for (int trial = 0; trial < 40; ++trial) {
      const int w = std::uniform_int_distribution<int>(3, 12)(random), h = std::uniform_int_distribution<int>(3, 12)(random);
      const TileMap map = test::randomMap(random, layout, w, h, 0.15);
      for (int s = 0; s < 60; ++s) {
        auto cornerOrMiddle = [&] {
          const Cell cell{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
          const TilePolygon polygon = layout.tilePolygon(cell);
          const int i = std::uniform_int_distribution<int>(0, polygon.count - 1)(random);
          const Vec2 a = polygon.corners[std::size_t(i)], b = polygon.corners[std::size_t((i + 1) % polygon.count)];
          return s % 2 == 0 ? a : Vec2((a + b) * 0.5f);
        };
        Vec2 from = cornerOrMiddle(), to = cornerOrMiddle();
        if ((to - from).norm() < 1e-3f) continue;
        // Now and then along an edge line of the same direction, nudged sideways.
        const Vec2 normal = Vec2(-(to - from).y(), (to - from).x()).normalized();
        const float nudge = s % 5 == 1 ? 1e-4f : s % 5 == 2 ? -1e-4f : s % 5 == 3 ? std::abs(from.x()) * 1.2e-7f : 0.0f;
        from += normal * nudge;
        to += normal * nudge;
        const SegmentProbe probe = probeSegment(map, TerrainTable::kWalk, from, to, 0.0f);
        const test::SegmentJudgement judged = test::judgeSegment(map, TerrainTable::kWalk, from, to, 0.0);
        INFO(toString(layout.kind()) << " from " << from.transpose() << " to " << to.transpose());
        REQUIRE(probe.clear == judged.clear);
        if (!probe.clear) continue;
        ++segments;
        // Within a few float steps of a corner (5·10⁻⁷ × magnitude each) the two may cut a piece
        // differently and price it on different sides: a few 10⁻⁶ × magnitude of length.
        const double magnitude = std::max({1.0f, from.cwiseAbs().maxCoeff(), to.cwiseAbs().maxCoeff()});
        CHECK(probe.cost == Approx(judged.cost).epsilon(1e-9).margin(1e-5 * magnitude));
        along += std::abs(from.y() - to.y()) == 0.0f || std::abs(from.x() - to.x()) == 0.0f ? 1 : 0;
      }
    }
  }
  CHECK(segments > 2000);
  CHECK(along > 50);
}

TEST_CASE("probes for wide bodies (up to 3 tiles) match brute-force clearance, agree with the tester and with the reversed segment",
          "[grid][los][property][wide]") {
  // Beyond the touching ring's reach (1 tile on squares, 1/√3 on hexes) probeSegment sweeps the
  // band round the segment; the tester's fast path (SegmentTester::keeps on squares) must say the
  // same. At a radius equal to a distance exactly (tile centres and corners, radii of whole and
  // half tiles) the answer must not depend on the segment's direction.
  std::mt19937 random(2727);
  int compared = 0, clear = 0, exact = 0;
  for (const Layout& layout : test::allLayouts()) {
    for (int trial = 0; trial < 24; ++trial) {
      const int w = std::uniform_int_distribution<int>(6, 20)(random), h = std::uniform_int_distribution<int>(6, 20)(random);
      const TileMap map = test::randomMap(random, layout, w, h, 0.03, trial % 2 == 0);
      const SegmentTester tester(map, TerrainTable::kWalk);
      for (int s = 0; s < 60; ++s) {
        const Cell from{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
        const Cell to{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
        const Vec2 a = layout.tileCenter(from), b = s % 4 == 0 ? a : layout.tileCenter(to);
        const bool round = s % 2 == 0;
        const float radius = round ? 0.5f * float(std::uniform_int_distribution<int>(1, 6)(random))
                                   : std::uniform_real_distribution<float>(0.5f, 3.0f)(random);
        const SegmentProbe probe = probeSegment(map, TerrainTable::kWalk, a, b, radius);
        INFO(toString(layout.kind()) << " (" << a.x() << "," << a.y() << ")->(" << b.x() << "," << b.y() << ") r " << radius);
        REQUIRE(probe.clear == probeSegment(map, TerrainTable::kWalk, b, a, radius).clear);
        REQUIRE(probe.clear == tester.probe(a, b, radius).clear);
        const double gap = clearance(map, TerrainTable::kWalk, a, b);
        const bool sees = hasLineOfSight(map, TerrainTable::kWalk, a, b);
        if (round && std::abs(gap - radius) < 1e-6) {
          // Touching at exactly the radius keeps it (the search fits such bodies).
          ++exact;
          REQUIRE(probe.clear == sees);
          continue;
        }
        if (std::abs(gap - radius) < 1e-5) continue;  // within rounding of the boundary
        REQUIRE(probe.clear == (sees && gap >= radius));
        ++compared;
        clear += probe.clear ? 1 : 0;
      }
    }
  }
  CHECK(compared > 4000);
  CHECK(clear > compared / 20);
  CHECK(exact > 100);
}

TEST_CASE("the tester's wide probes refuse segments far off the map, as probeSegment does", "[grid][los][wide]") {
  const TileMap map = test::randomMap(*std::make_unique<std::mt19937>(3), Layout::square(), 10, 10, 0.0, false);
  const SegmentTester tester(map, TerrainTable::kWalk);
  for (const float far : {3e6f, 1e30f}) {
    INFO("far " << far);
    CHECK_FALSE(tester.probe(Vec2(5.5f, 5.5f), Vec2(far, 5.5f), 0.6f).clear);
    CHECK_FALSE(tester.keeps(Vec2(5.5f, 5.5f), Vec2(far, 5.5f), 0.6f));
    CHECK_FALSE(probeSegment(map, TerrainTable::kWalk, Vec2(5.5f, 5.5f), Vec2(far, 5.5f), 0.6f).clear);
  }
}
