// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "rpgnav/grid/line_of_sight.hpp"
#include "support/test_maps.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

using namespace rpgnav;
using Eigen::Vector2d;

namespace {

// ---------------------------------------------------------------------------------------------
// Brute-force reference: tests every tile polygon near the segment directly (clipping for
// interiors, corner and edge scans for contacts). It shares only the tile polygons with the
// library, not its walking or point-location logic.
struct Reference {
  std::vector<Cell> crossed;
  bool clear = true;
};

// Only double rounding counts as "on": the rule is decided on the float points as given.
double toleranceFor(const Vector2d& a, const Vector2d& b) {
  return 1e-12 * std::max({1.0, std::abs(a.x()), std::abs(a.y()), std::abs(b.x()), std::abs(b.y())});
}

struct Polygon {
  Cell cell;
  std::array<Vector2d, 6> corners;
  int count = 0;
  Vector2d centre;
};

Reference reference(const TileMap& map, MobilityId mobility, Vec2 from, Vec2 to) {
  const Layout& layout = map.layout();
  const Vector2d a = layout.toLocal(from), b = layout.toLocal(to);
  const Vector2d d = b - a;
  const double length = d.norm();
  const double tol = toleranceFor(a, b);
  const double tolT = tol / length;
  auto blocked = [&](Cell c) { return !map.passable(c, mobility); };

  // Every tile whose centre lies within 2 tiles of the segment's bounding box.
  std::vector<Polygon> polygons;
  const double minX = std::min(a.x(), b.x()) - 2, maxX = std::max(a.x(), b.x()) + 2;
  const double minY = std::min(a.y(), b.y()) - 2, maxY = std::max(a.y(), b.y()) + 2;
  for (int y = int(std::floor(std::min(minY, minY / 0.866))) - 2; y <= int(std::ceil(maxY / 0.866)) + 2; ++y) {
    for (int x = int(std::floor(std::min(minX, minX / 0.866))) - 2; x <= int(std::ceil(maxX / 0.866)) + 2; ++x) {
      Polygon p;
      p.cell = {x, y};
      p.centre = layout.localCenter(p.cell);
      if (p.centre.x() < minX || p.centre.x() > maxX || p.centre.y() < minY || p.centre.y() > maxY) continue;
      p.count = layout.localCorners(p.cell, p.corners);
      polygons.push_back(p);
    }
  }

  Reference result;
  std::vector<std::pair<double, Cell>> entries;
  for (const Polygon& p : polygons) {
    double t0 = 0, t1 = 1;
    bool outside = false;
    double minBoundary = 1e300;
    for (int i = 0; i < p.count; ++i) {
      const Vector2d& v = p.corners[std::size_t(i)];
      const Vector2d& w = p.corners[std::size_t((i + 1) % p.count)];
      Vector2d n(-(w - v).y(), (w - v).x());
      n.normalize();
      if (n.dot(p.centre - v) < 0) n = -n;  // inward
      const double num = n.dot(a - v), den = n.dot(d);
      if (std::abs(den) < 1e-15) {
        if (num < -tol) outside = true;
        continue;
      }
      const double t = -num / den;
      if (den > 0) t0 = std::max(t0, t);
      else t1 = std::min(t1, t);
    }
    if (outside || t1 - t0 <= tolT) continue;
    const Vector2d mid = a + d * (0.5 * (t0 + t1));
    for (int i = 0; i < p.count; ++i) {
      const Vector2d& v = p.corners[std::size_t(i)];
      const Vector2d& w = p.corners[std::size_t((i + 1) % p.count)];
      Vector2d n(-(w - v).y(), (w - v).x());
      n.normalize();
      minBoundary = std::min(minBoundary, std::abs(n.dot(mid - v)));
    }
    if (minBoundary > tol) entries.push_back({t0, p.cell});
  }
  std::sort(entries.begin(), entries.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  for (const auto& [t, cell] : entries) {
    result.crossed.push_back(cell);
    if (blocked(cell)) result.clear = false;
  }
  auto crossed = [&](Cell c) { return std::find(result.crossed.begin(), result.crossed.end(), c) != result.crossed.end(); };
  auto parameterOf = [&](const Vector2d& p) { return (p - a).dot(d) / (length * length); };
  auto onLine = [&](const Vector2d& p) { return std::abs((d.x() * (p - a).y() - d.y() * (p - a).x()) / length) <= tol; };

  // Vertices strictly inside the segment: blocked tiles on both sides there means a squeeze.
  for (const Polygon& p : polygons) {
    for (int i = 0; i < p.count; ++i) {
      const Vector2d& v = p.corners[std::size_t(i)];
      const double t = parameterOf(v);
      if (!onLine(v) || t <= tolT || t >= 1 - tolT) continue;
      bool left = false, right = false;
      for (const Polygon& q : polygons) {
        bool touches = false;
        for (int j = 0; j < q.count; ++j) touches = touches || (q.corners[std::size_t(j)] - v).norm() <= tol;
        if (!touches || crossed(q.cell) || !blocked(q.cell)) continue;
        const Vector2d c = q.centre - v;
        const double side = (d.x() * c.y() - d.y() * c.x()) / length;
        if (side > tol) right = true;
        if (side < -tol) left = true;
      }
      if (left && right) result.clear = false;
    }
  }
  // Edges the segment runs along: the two tiles sharing the edge are on both sides.
  for (const Polygon& p : polygons) {
    for (int i = 0; i < p.count; ++i) {
      const Vector2d& v = p.corners[std::size_t(i)];
      const Vector2d& w = p.corners[std::size_t((i + 1) % p.count)];
      if (!onLine(v) || !onLine(w)) continue;
      const double tv = parameterOf(v), tw = parameterOf(w);
      const double overlap = std::min(1.0, std::max(tv, tw)) - std::max(0.0, std::min(tv, tw));
      if (overlap <= tolT || !blocked(p.cell)) continue;
      for (const Polygon& q : polygons) {
        if (q.cell == p.cell || !blocked(q.cell)) continue;
        int shared = 0;
        for (int j = 0; j < q.count; ++j) {
          shared += (q.corners[std::size_t(j)] - v).norm() <= tol || (q.corners[std::size_t(j)] - w).norm() <= tol;
        }
        if (shared == 2) result.clear = false;
      }
    }
  }
  return result;
}

// Random points of different kinds: anywhere, tile corners, tile centres, edge midpoints.
Vec2 randomPoint(std::mt19937& random, const TileMap& map, int kind) {
  const Layout& layout = map.layout();
  std::uniform_int_distribution<int> x(-1, map.width()), y(-1, map.height());
  const Cell cell{x(random), y(random)};
  switch (kind) {
    case 0: {
      std::uniform_real_distribution<float> fx(-1.0f, float(map.width()) + 1.0f), fy(-1.0f, float(map.height()) + 1.0f);
      return Vec2(fx(random), fy(random));
    }
    case 1: {
      const TilePolygon polygon = layout.tilePolygon(cell);
      return polygon.corners[std::size_t(std::uniform_int_distribution<int>(0, polygon.count - 1)(random))];
    }
    case 2: return layout.tileCenter(cell);
    default: {
      const TilePolygon polygon = layout.tilePolygon(cell);
      const int i = std::uniform_int_distribution<int>(0, polygon.count - 1)(random);
      return (polygon.corners[std::size_t(i)] + polygon.corners[std::size_t((i + 1) % polygon.count)]) * 0.5f;
    }
  }
}

}  // namespace

TEST_CASE("square traversal: exact tiles for simple segments", "[grid][los]") {
  const Layout layout = Layout::square();
  CHECK(tilesCrossed(layout, Vec2(0.5f, 0.5f), Vec2(2.5f, 0.5f)) == std::vector<Cell>{{0, 0}, {1, 0}, {2, 0}});
  CHECK(tilesCrossed(layout, Vec2(2.5f, 0.5f), Vec2(0.5f, 0.5f)) == std::vector<Cell>{{2, 0}, {1, 0}, {0, 0}});
  // Through a vertex diagonally: the two side tiles are only touched.
  CHECK(tilesCrossed(layout, Vec2(0.5f, 0.5f), Vec2(1.5f, 1.5f)) == std::vector<Cell>{{0, 0}, {1, 1}});
  // Along the edge between rows 0 and 1: no interior is crossed.
  CHECK(tilesCrossed(layout, Vec2(0.0f, 1.0f), Vec2(3.0f, 1.0f)).empty());
  // A shallow line.
  CHECK(tilesCrossed(layout, Vec2(0.5f, 0.5f), Vec2(3.5f, 1.9f)) ==
        std::vector<Cell>{{0, 0}, {1, 0}, {1, 1}, {2, 1}, {3, 1}});
  // Zero length: the containing tile.
  CHECK(tilesCrossed(layout, Vec2(2.2f, 3.7f), Vec2(2.2f, 3.7f)) == std::vector<Cell>{{2, 3}});
  // Non-finite input: nothing.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(tilesCrossed(layout, Vec2(nan, 0.0f), Vec2(1.0f, 1.0f)).empty());
  std::vector<TileCrossing> crossings;
  traverseSegment(layout, Vec2(0.5f, 0.5f), Vec2(2.5f, 0.5f), crossings);
  REQUIRE(crossings.size() == 3);
  CHECK(crossings[0].enter == 0.0f);
  CHECK(crossings[0].exit == Approx(0.25));
  CHECK(crossings[1].exit == Approx(0.75));
  CHECK(crossings[2].exit == 1.0f);
}

TEST_CASE("square line of sight: touching allowed, crossing and squeezing not", "[grid][los]") {
  const MobilityId walk = TerrainTable::kWalk;
  const TileMap diagonal = test::mapFromAscii(Layout::square(), {
                                                                    ".#.",
                                                                    "#..",
                                                                    "...",
                                                                });
  // Squeezing between (1,0) and (0,1), which touch only at the corner (1,1).
  CHECK_FALSE(hasLineOfSight(diagonal, walk, Vec2(0.5f, 0.5f), Vec2(1.5f, 1.5f)));
  CHECK_FALSE(hasLineOfSight(diagonal, walk, Vec2(1.5f, 1.5f), Vec2(0.5f, 0.5f)));
  // Grazing one blocked corner is fine.
  const TileMap corner = test::mapFromAscii(Layout::square(), {
                                                                  ".#.",
                                                                  "...",
                                                                  "...",
                                                              });
  CHECK(hasLineOfSight(corner, walk, Vec2(0.5f, 0.5f), Vec2(1.5f, 1.5f)));
  // This one meets (1,0)'s bottom edge at (1.5,1) and carries on into its interior.
  CHECK_FALSE(hasLineOfSight(corner, walk, Vec2(0.5f, 1.5f), Vec2(2.5f, 0.5f)));
}

TEST_CASE("square line of sight along edges", "[grid][los]") {
  const MobilityId walk = TerrainTable::kWalk;
  const TileMap oneSide = test::mapFromAscii(Layout::square(), {
                                                                   "####",
                                                                   "....",
                                                               });
  CHECK(hasLineOfSight(oneSide, walk, Vec2(0.0f, 1.0f), Vec2(4.0f, 1.0f)));  // along the wall's face
  const TileMap bothSides = test::mapFromAscii(Layout::square(), {
                                                                     ".#..",
                                                                     ".#..",
                                                                 });
  // Along y = 1 between (1,0) and (1,1), both blocked.
  CHECK_FALSE(hasLineOfSight(bothSides, walk, Vec2(0.5f, 1.0f), Vec2(3.5f, 1.0f)));
  const TileMap stacked = test::mapFromAscii(Layout::square(), {
                                                                  "..#.",
                                                                  "..#.",
                                                                  "....",
                                                              });
  // Along x = 2 between the wall column and floor: clear; along x = 3 between wall and floor: clear.
  CHECK(hasLineOfSight(stacked, walk, Vec2(2.0f, 0.0f), Vec2(2.0f, 3.0f)));
  CHECK(hasLineOfSight(stacked, walk, Vec2(3.0f, 0.0f), Vec2(3.0f, 3.0f)));
  const TileMap walled = test::mapFromAscii(Layout::square(), {
                                                                 ".##.",
                                                                 "....",
                                                             });
  // Along the edge between two blocked tiles (x = 2, y in [0,1]): inside the wall.
  CHECK_FALSE(hasLineOfSight(walled, walk, Vec2(2.0f, 0.0f), Vec2(2.0f, 2.0f)));
  // Passing straight through a corner where blocked tiles sit diagonally.
  const TileMap checker = test::mapFromAscii(Layout::square(), {
                                                                  "#...",
                                                                  ".#..",
                                                                  "....",
                                                              });
  CHECK_FALSE(hasLineOfSight(checker, walk, Vec2(1.0f, 0.0f), Vec2(1.0f, 3.0f)));
  CHECK_FALSE(hasLineOfSight(checker, walk, Vec2(0.0f, 1.0f), Vec2(3.0f, 1.0f)));
  // The map border counts as blocked on the outside.
  CHECK(hasLineOfSight(oneSide, walk, Vec2(0.0f, 2.0f), Vec2(4.0f, 2.0f)));
  CHECK_FALSE(hasLineOfSight(oneSide, walk, Vec2(0.5f, 1.5f), Vec2(0.5f, 2.5f)));
}

TEST_CASE("line of sight: bad input and terrain per mobility", "[grid][los]") {
  const TileMap map = test::mapFromAscii(Layout::hexFlat(), {
                                                               "..~~..",
                                                               "..~~..",
                                                           });
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const Vec2 left = map.layout().tileCenter({0, 0}), right = map.layout().tileCenter({5, 0});
  CHECK_FALSE(hasLineOfSight(map, TerrainTable::kWalk, left, right));
  CHECK(hasLineOfSight(map, TerrainTable::kFly, left, right));
  CHECK_FALSE(hasLineOfSight(map, TerrainTable::kSwim, left, right));
  CHECK_FALSE(hasLineOfSight(map, TerrainTable::kFly, Vec2(nan, 0.5f), right));
  CHECK_FALSE(hasLineOfSight(map, TerrainTable::kFly, left, Vec2(inf, 0.5f)));
  CHECK_FALSE(hasLineOfSight(map, TerrainTable::kFly, left, Vec2(1e30f, 0.5f)));
  CHECK_FALSE(hasLineOfSight(map, TerrainTable::kFly, left, Vec2(-40.0f, 0.5f)));  // leaves the map
  CHECK(hasLineOfSight(map, TerrainTable::kFly, left, left));
  CHECK_FALSE(hasLineOfSight(map, TerrainTable::kWalk, map.layout().tileCenter({2, 0}), map.layout().tileCenter({2, 0})));
}

TEST_CASE("hex traversal: neighbours, vertices and edges", "[grid][los]") {
  for (const Layout& layout : {Layout::hexPointy(), Layout::hexFlat()}) {
    const Cell c{3, 3};
    for (const NeighbourStep& step : layout.moves(c)) {
      const Cell n{c.x + step.dx, c.y + step.dy};
      CHECK(tilesCrossed(layout, layout.tileCenter(c), layout.tileCenter(n)) == std::vector<Cell>{c, n});
    }
    // Along a shared edge, corner to corner: hex corners are irrational, so the float corners
    // lie a rounding step off the edge, and the segment runs inside one of the two tiles
    // sharing it, or along it; never anywhere else.
    const TilePolygon polygon = layout.tilePolygon(c);
    const std::vector<Cell> along = tilesCrossed(layout, polygon.corners[0], polygon.corners[1]);
    CHECK(along.size() <= 2);
    for (const Cell& cell : along) {
      const bool shares = cell == c || layout.sharedEdge(c, cell).has_value();
      CHECK(shares);
    }
  }
  // Pointy hexes: a walker between two walls that share an edge is inside the wall.
  const TileMap map = test::mapFromAscii(Layout::hexPointy(), {
                                                                  "......",
                                                                  "..##..",
                                                                  "......",
                                                              });
  const TilePolygon a = map.layout().tilePolygon({2, 1});
  // corners[1] and [2] are (2,1)'s right edge, shared with the wall (3,1): whichever side of the
  // edge the float corners fall, the segment is in a wall or squeezed between two.
  CHECK_FALSE(hasLineOfSight(map, TerrainTable::kWalk, a.corners[1], a.corners[2]));
  // Its left edge faces floor: a hair on the floor's side is clear, a hair inside the wall is not.
  const Vec2 outward(-1e-4f, 0.0f);
  CHECK(hasLineOfSight(map, TerrainTable::kWalk, a.corners[4] + outward, a.corners[5] + outward));
  CHECK_FALSE(hasLineOfSight(map, TerrainTable::kWalk, a.corners[4] - outward, a.corners[5] - outward));
}

TEST_CASE("line of sight on the float points as given: a rounding step inside a blocked tile is inside", "[grid][los]") {
  // Found by independent checks (corner-intrusion.map): two corner points 0.001 off two
  // different corners, on either side of a row's edge, make a segment that crosses the edge and
  // enters a blocked tile by 8e-5 tiles. The old tolerance (5e-7 × coordinate) called that
  // touching.
  TileMap map = TileMap::create(Layout::square(), 220, 140, test::testTerrain(), TerrainId{0}).value();
  REQUIRE(map.setTerrain({117, 132}, TerrainId{1}) == Status::Ok);
  const Vec2 from(123.999f, 132.001f), to(110.999f, 131.999f);
  CHECK_FALSE(hasLineOfSight(map, TerrainTable::kWalk, from, to));
  CHECK_FALSE(probeSegment(map, TerrainTable::kWalk, from, to, 0.0f).clear);
  // Just above the edge all the way: clear; exactly along the edge: touching, clear.
  CHECK(hasLineOfSight(map, TerrainTable::kWalk, Vec2(123.999f, 131.999f), Vec2(110.999f, 131.999f)));
  CHECK(hasLineOfSight(map, TerrainTable::kWalk, Vec2(123.5f, 132.0f), Vec2(110.5f, 132.0f)));
  // A segment ending on a blocked tile's corner, and one grazing it: touching is allowed.
  CHECK(hasLineOfSight(map, TerrainTable::kWalk, Vec2(115.0f, 130.0f), Vec2(117.0f, 132.0f)));
  CHECK_FALSE(hasLineOfSight(map, TerrainTable::kWalk, Vec2(115.0f, 130.0f), Vec2(119.0f, 134.0f)));
  CHECK(hasLineOfSight(map, TerrainTable::kWalk, Vec2(116.0f, 133.0f), Vec2(118.0f, 131.0f)));
  // The same corner missed by a float step on the inside: entered.
  CHECK_FALSE(hasLineOfSight(map, TerrainTable::kWalk, Vec2(116.0f, 133.0f), Vec2(118.0f, std::nextafter(131.0f, 140.0f))));
}

TEST_CASE("traversal and line of sight match a brute-force reference", "[grid][los][property]") {
  std::mt19937 random(2024);
  int segments = 0, blockedCount = 0;
  for (const Layout& layout : test::allLayouts()) {
    for (int trial = 0; trial < 40; ++trial) {
      const int w = std::uniform_int_distribution<int>(2, 14)(random);
      const int h = std::uniform_int_distribution<int>(2, 14)(random);
      const TileMap map = test::randomMap(random, layout, w, h, 0.3, false);
      for (int s = 0; s < 60; ++s) {
        const int kindA = std::uniform_int_distribution<int>(0, 3)(random);
        const int kindB = std::uniform_int_distribution<int>(0, 3)(random);
        const Vec2 from = randomPoint(random, map, kindA), to = randomPoint(random, map, kindB);
        if ((from - to).norm() < 1e-3f) continue;
        const Reference expected = reference(map, TerrainTable::kWalk, from, to);
        INFO("layout " << toString(layout.kind()) << " from (" << from.x() << "," << from.y() << ") to ("
                       << to.x() << "," << to.y() << ")");
        REQUIRE(tilesCrossed(layout, from, to) == expected.crossed);
        REQUIRE(hasLineOfSight(map, TerrainTable::kWalk, from, to) == expected.clear);
        ++segments;
        blockedCount += expected.clear ? 0 : 1;
      }
    }
  }
  // The generator must exercise both outcomes in quantity.
  CHECK(segments > 5000);
  CHECK(blockedCount > segments / 4);
  CHECK(blockedCount < segments);
}

TEST_CASE("line of sight is symmetric", "[grid][los][property]") {
  std::mt19937 random(99);
  for (const Layout& layout : test::allLayouts()) {
    const TileMap map = test::randomMap(random, layout, 20, 20, 0.25, false);
    for (int s = 0; s < 2000; ++s) {
      const Vec2 from = randomPoint(random, map, s % 4), to = randomPoint(random, map, (s / 4) % 4);
      REQUIRE(hasLineOfSight(map, TerrainTable::kWalk, from, to) == hasLineOfSight(map, TerrainTable::kWalk, to, from));
    }
  }
}
