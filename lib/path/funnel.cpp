// SPDX-License-Identifier: MIT
#include "path/funnel.hpp"

#include <array>
#include <cmath>

namespace rpgnav::detail {
namespace {

using Point = Eigen::Vector2d;

double cross(const Point& a, const Point& b) { return a.x() * b.y() - a.y() * b.x(); }

struct Portal {
  Point left, right;
};

// The boundary shared by two neighbouring tiles: an edge, or for square diagonal steps the one
// corner they share. Returns false if they share nothing.
bool sharedBoundary(const Layout& layout, Cell a, Cell b, Point& p, Point& q) {
  std::array<Point, 6> ca, cb;
  const int na = layout.localCorners(a, ca), nb = layout.localCorners(b, cb);
  int found = 0;
  for (int i = 0; i < na; ++i) {
    for (int j = 0; j < nb; ++j) {
      if ((ca[std::size_t(i)] - cb[std::size_t(j)]).squaredNorm() < 1e-12) {
        (found == 0 ? p : q) = ca[std::size_t(i)];
        ++found;
      }
    }
  }
  if (found == 1) q = p;
  return found >= 1;
}

// True when a tile touching the corner (other than the two the portal joins) is blocked.
bool cornerTouchesBlocked(const TileMap& map, MobilityId mobility, const Point& corner, Cell a, Cell b) {
  const Layout& layout = map.layout();
  for (const NeighbourStep& step : layout.touching(a)) {
    const Cell near{a.x + step.dx, a.y + step.dy};
    if (near == b || map.passable(near, mobility)) continue;
    std::array<Point, 6> corners;
    const int count = layout.localCorners(near, corners);
    for (int i = 0; i < count; ++i) {
      if ((corners[std::size_t(i)] - corner).squaredNorm() < 1e-12) return true;
    }
  }
  return false;
}

}  // namespace

void funnelPath(const TileMap& map, MobilityId mobility, const std::vector<Cell>& tiles, Vec2 start, Vec2 goal,
                float radius, std::vector<Vec2>& out) {
  out.clear();
  const Layout& layout = map.layout();
  const double r = double(radius) / double(layout.tileSize());
  const Point s = layout.toLocal(start), g = layout.toLocal(goal);

  // A square diagonal step joins two tiles at a single corner, which would pin the path to it;
  // going through one of the two orthogonal tiles instead (both passable: no corner cutting)
  // gives the funnel an edge to pass through.
  std::vector<Cell> corridor;
  corridor.reserve(tiles.size() * 2);
  for (std::size_t k = 0; k < tiles.size(); ++k) {
    if (k > 0 && tiles[k].x != tiles[k - 1].x && tiles[k].y != tiles[k - 1].y && !layout.isHex()) {
      corridor.push_back({tiles[k].x, tiles[k - 1].y});
    }
    corridor.push_back(tiles[k]);
  }

  // Portals oriented by the step direction: `left` where cross(direction, corner - centre) > 0.
  std::vector<Portal> portals;
  portals.reserve(corridor.size() + 1);
  portals.push_back({s, s});
  for (std::size_t k = 0; k + 1 < corridor.size(); ++k) {
    Point p, q;
    if (!sharedBoundary(layout, corridor[k], corridor[k + 1], p, q)) return;
    const Point from = layout.localCenter(corridor[k]), direction = layout.localCenter(corridor[k + 1]) - from;
    if (cross(direction, p - from) < cross(direction, q - from)) std::swap(p, q);  // p left, q right
    if (r > 0.0 && (p - q).squaredNorm() > 0.0) {
      const Point along = (q - p).normalized();
      const double width = (q - p).norm();
      const bool pinLeft = cornerTouchesBlocked(map, mobility, p, corridor[k], corridor[k + 1]);
      const bool pinRight = cornerTouchesBlocked(map, mobility, q, corridor[k], corridor[k + 1]);
      if ((pinLeft ? r : 0.0) + (pinRight ? r : 0.0) >= width) return;  // too narrow
      if (pinLeft) p += along * r;
      if (pinRight) q -= along * r;
    }
    portals.push_back({p, q});
  }
  portals.push_back({g, g});

  std::vector<Point> path{s};
  Point apex = s, left = s, right = s;
  std::size_t apexIndex = 0, leftIndex = 0, rightIndex = 0;
  for (std::size_t i = 1; i < portals.size(); ++i) {
    const Point& newLeft = portals[i].left;
    const Point& newRight = portals[i].right;
    // Tighten the right side: the new right point lies left of (or on) the current right ray.
    if (cross(right - apex, newRight - apex) >= 0.0) {
      if (apex == right || cross(left - apex, newRight - apex) < 0.0 || left == apex) {
        right = newRight;
        rightIndex = i;
      } else {  // crossed over the left side: the left point is a bend
        path.push_back(left);
        apex = left;
        apexIndex = leftIndex;
        right = left = apex;
        rightIndex = leftIndex = apexIndex;
        i = apexIndex;
        continue;
      }
    }
    // Tighten the left side symmetrically.
    if (cross(left - apex, newLeft - apex) <= 0.0) {
      if (apex == left || cross(right - apex, newLeft - apex) > 0.0 || right == apex) {
        left = newLeft;
        leftIndex = i;
      } else {
        path.push_back(right);
        apex = right;
        apexIndex = rightIndex;
        right = left = apex;
        rightIndex = leftIndex = apexIndex;
        i = apexIndex;
        continue;
      }
    }
  }
  if ((path.back() - g).squaredNorm() > 0.0) path.push_back(g);
  out.reserve(path.size());
  for (const Point& p : path) out.push_back(layout.toWorld(p));
  out.front() = start;  // exact end points, not round-tripped through layout space
  out.back() = goal;
}

}  // namespace rpgnav::detail
