// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "grid/convex_corners.hpp"
#include "support/test_maps.hpp"

#include <algorithm>
#include <cmath>
#include <random>

using namespace rpgnav;

namespace {

bool contains(const std::vector<ConvexCorner>& corners, Vec2 point, Vec2 outward) {
  return std::any_of(corners.begin(), corners.end(), [&](const ConvexCorner& c) {
    return (c.point - point).norm() < 1e-5f && (c.outward - outward).norm() < 1e-5f;
  });
}

double cross(Vec2 u, Vec2 v) { return double(u.x()) * v.y() - double(u.y()) * v.x(); }

bool insideTriangle(Vec2 p, Vec2 a, Vec2 b, Vec2 c) {
  const double o = cross(b - a, c - a) > 0 ? 1.0 : -1.0;
  return cross(b - a, p - a) * o >= 1e-6 && cross(c - b, p - b) * o >= 1e-6 && cross(a - c, p - c) * o >= 1e-6;
}

}  // namespace

TEST_CASE("ConvexCorners: a lone wall tile, a diagonal pinch and an inside corner", "[grid][corners]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "......",
                                                               ".#....",
                                                               "......",
                                                               "...#..",
                                                               "....#.",
                                                               "......",
                                                           });
  const ConvexCorners corners(map, TerrainTable::kWalk);
  const std::vector<ConvexCorner>& all = corners.all();
  const float d = std::sqrt(0.5f);
  // The lone tile (1,1): four convex corners pointing diagonally away from it.
  CHECK(contains(all, Vec2(1, 1), Vec2(-d, -d)));
  CHECK(contains(all, Vec2(2, 1), Vec2(d, -d)));
  CHECK(contains(all, Vec2(2, 2), Vec2(d, d)));
  CHECK(contains(all, Vec2(1, 2), Vec2(-d, d)));
  // The pinch at (4,4) between (3,3) and (4,4): listed once per open square there, pointing into it.
  CHECK(contains(all, Vec2(4, 4), Vec2(d, -d)));
  CHECK(contains(all, Vec2(4, 4), Vec2(-d, d)));
  CHECK_FALSE(contains(all, Vec2(4, 4), Vec2(d, d)));
  // The map border: tiles outside count as blocked, but the border is straight, so its corners
  // are not convex (each outside tile's edge neighbours along the border are blocked too).
  CHECK_FALSE(std::any_of(all.begin(), all.end(), [](const ConvexCorner& c) { return c.point.x() == 0.0f; }));
  CHECK(all.size() == 4 + 3 + 3 + 2);
  for (const ConvexCorner& corner : all) CHECK(corner.reach == Approx(std::sqrt(2.0f)));
  // beside() keeps the clearance from both edges.
  const ConvexCorner* found = corners.cornerAt(Vec2(2.25f, 2.25f), 0.25f);
  REQUIRE(found != nullptr);
  CHECK(found->point == Vec2(2, 2));
  CHECK(corners.cornerAt(Vec2(2.3f, 2.25f), 0.25f) == nullptr);
}

TEST_CASE("ConvexCorners::inTriangle finds exactly the corners inside, on every layout", "[grid][corners][property]") {
  std::mt19937 random(5);
  for (const Layout& layout : test::allLayouts()) {
    for (int trial = 0; trial < 10; ++trial) {
      const TileMap map = test::randomMap(random, layout, 30, 25, 0.2, false);
      const ConvexCorners corners(map, TerrainTable::kWalk);
      // Every listed corner: its blocked tile's two edge neighbours there are open.
      for (const ConvexCorner& corner : corners.all()) {
        // Behind it a blocked tile; or, at a square pinch, blocked tiles on both sides of it.
        const float step = 0.05f * layout.tileSize();
        const Vec2 side(-corner.outward.y(), corner.outward.x());
        const bool behind = !map.passable(layout.tileAt(corner.point - corner.outward * step), TerrainTable::kWalk);
        const bool pinch = !map.passable(layout.tileAt(corner.point + side * step), TerrainTable::kWalk) &&
                           !map.passable(layout.tileAt(corner.point - side * step), TerrainTable::kWalk);
        CHECK((behind || (!layout.isHex() && pinch)));
        const Cell openTile = layout.tileAt(corner.point + corner.outward * 0.05f * layout.tileSize());
        CHECK(map.passable(openTile, TerrainTable::kWalk));
      }
      std::uniform_real_distribution<float> x(-2.0f, 32.0f), y(-2.0f, 27.0f);
      for (int q = 0; q < 40; ++q) {
        const Vec2 a = layout.toWorld({x(random), y(random)}), b = layout.toWorld({x(random), y(random)}),
                   c = layout.toWorld({x(random), y(random)});
        const float clearance = q % 2 ? 0.0f : 0.3f * layout.tileSize();
        std::vector<ConvexCorner> found;
        corners.inTriangle(a, b, c, clearance, found);
        for (const ConvexCorner& corner : corners.all()) {
          const bool inside = insideTriangle(corner.point, a, b, c) || insideTriangle(corner.beside(clearance), a, b, c);
          if (inside) CHECK(contains(found, corner.point, corner.outward));
        }
      }
    }
  }
}
