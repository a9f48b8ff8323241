// SPDX-License-Identifier: MIT
#include "rpgnav/grid/convex_corners.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace rpgnav {
namespace {

using Point = Eigen::Vector2d;

double cross(const Point& u, const Point& v) { return u.x() * v.y() - u.y() * v.x(); }

// The x-extent of triangle (a, b, c) within the horizontal band lo <= y <= hi; empty when
// first > second.
std::pair<double, double> bandExtent(const std::array<Point, 3>& triangle, double lo, double hi) {
  double first = std::numeric_limits<double>::infinity(), second = -first;
  for (int i = 0; i < 3; ++i) {
    const Point& p = triangle[std::size_t(i)];
    const Point& q = triangle[std::size_t((i + 1) % 3)];
    double t0 = 0.0, t1 = 1.0;
    const double dy = q.y() - p.y();
    if (dy == 0.0) {
      if (p.y() < lo || p.y() > hi) continue;
    } else {
      t0 = (lo - p.y()) / dy;
      t1 = (hi - p.y()) / dy;
      if (t0 > t1) std::swap(t0, t1);
      t0 = std::max(t0, 0.0);
      t1 = std::min(t1, 1.0);
      if (t0 > t1) continue;
    }
    for (const double t : {t0, t1}) {
      const double x = p.x() + (q.x() - p.x()) * t;
      first = std::min(first, x);
      second = std::max(second, x);
    }
  }
  return {first, second};
}

}  // namespace

ConvexCorners::ConvexCorners(const TileMap& map, MobilityId mobility)
    : m_version(map.version()), m_bucket(map.layout().tileSize()), m_top(0.0f) {
  const Layout& layout = map.layout();
  const float cornerReach = layout.isHex() ? 1.15470054f : 1.41421356f;  // 1 / sin(half the interior angle)
  std::array<Eigen::Vector2d, 6> corners;
  // Every blocked tile next to passable ground, including the ring just outside the map.
  for (std::int32_t y = -1; y <= map.height(); ++y) {
    for (std::int32_t x = -1; x <= map.width(); ++x) {
      const Cell tile{x, y};
      if (map.passable(tile, mobility)) continue;
      bool nearOpen = false;
      for (const NeighbourStep& step : layout.touching(tile)) {
        nearOpen = nearOpen || map.passable({x + step.dx, y + step.dy}, mobility);
      }
      if (!nearOpen) continue;
      const Point centre = layout.localCenter(tile);
      const int count = layout.localCorners(tile, corners);
      for (int k = 0; k < count; ++k) {
        const Point& v = corners[std::size_t(k)];
        const double radius = (v - centre).norm();
        // The other tiles meeting at v: their centres are as far from v as this tile's.
        std::array<Cell, 2> edgeNeighbours{};
        int edgeCount = 0;
        bool convex = true, pinch = false;
        Cell diagonal{};
        for (const NeighbourStep& step : layout.touching(tile)) {
          const Cell other{x + step.dx, y + step.dy};
          if (std::abs((layout.localCenter(other) - v).norm() - radius) > 1e-6) continue;
          const bool open = map.passable(other, mobility);
          if (step.sharesEdge) {
            convex = convex && open;
            if (edgeCount < 2) edgeNeighbours[std::size_t(edgeCount++)] = other;
          } else {
            pinch = !open;  // a square corner where blocked tiles touch diagonally
            diagonal = other;
          }
        }
        if (!convex) continue;
        const Vec2 point = layout.toWorld(v);
        if (!pinch) {
          m_corners.push_back({point, (v - centre).normalized().cast<float>(), cornerReach});
          continue;
        }
        // Two blocked squares meet at v only diagonally: a path rounds one of them through one
        // of the two open squares there, so list the corner once per open square (from the
        // first of the two blocked squares in row order only).
        if (diagonal < tile) continue;
        for (int e = 0; e < edgeCount; ++e) {
          const Point toward = (layout.localCenter(edgeNeighbours[std::size_t(e)]) - v).normalized();
          m_corners.push_back({point, toward.cast<float>(), cornerReach});
        }
      }
    }
  }
  if (m_corners.empty()) return;
  m_top = m_corners.front().point.y();
  for (const ConvexCorner& corner : m_corners) m_top = std::min(m_top, corner.point.y());
  auto row = [&](const ConvexCorner& corner) { return std::uint32_t((corner.point.y() - m_top) / m_bucket); };
  std::sort(m_corners.begin(), m_corners.end(), [&](const ConvexCorner& p, const ConvexCorner& q) {
    const std::uint32_t rp = row(p), rq = row(q);
    return rp != rq ? rp < rq : p.point.x() < q.point.x();
  });
  m_rowStart.assign(row(m_corners.back()) + 2, 0);
  for (const ConvexCorner& corner : m_corners) ++m_rowStart[row(corner) + 1];
  for (std::size_t r = 1; r < m_rowStart.size(); ++r) m_rowStart[r] += m_rowStart[r - 1];
}

void ConvexCorners::inTriangle(Vec2 a, Vec2 b, Vec2 c, float clearance, std::vector<ConvexCorner>& out) const {
  if (m_corners.empty()) return;
  const std::array<Point, 3> triangle{a.cast<double>(), b.cast<double>(), c.cast<double>()};
  const double area = cross(triangle[1] - triangle[0], triangle[2] - triangle[0]);
  if (area == 0.0 || !std::isfinite(area)) return;
  const double orientation = area > 0.0 ? 1.0 : -1.0;
  const double scale = std::max({1.0, triangle[0].cwiseAbs().maxCoeff(), triangle[1].cwiseAbs().maxCoeff(),
                                 triangle[2].cwiseAbs().maxCoeff()});
  const double tolerance = 1e-9 * scale * scale;
  // Corner points lie within `reach` of their beside points.
  const double reach = 1.5 * double(std::max(clearance, 0.0f)) + 1e-4 * double(m_bucket);
  const double low = std::min({triangle[0].y(), triangle[1].y(), triangle[2].y()}) - reach;
  const double high = std::max({triangle[0].y(), triangle[1].y(), triangle[2].y()}) + reach;
  const double rows = double(m_rowStart.size() - 1);
  const double firstRow = std::max(0.0, std::floor((low - double(m_top)) / double(m_bucket)));
  const double lastRow = std::min(rows - 1.0, std::floor((high - double(m_top)) / double(m_bucket)));
  for (double r = firstRow; r <= lastRow; r += 1.0) {
    const double bandLow = double(m_top) + r * double(m_bucket), bandHigh = bandLow + double(m_bucket);
    const auto [x0, x1] = bandExtent(triangle, bandLow - reach, bandHigh + reach);
    if (x0 > x1) continue;
    const auto begin = m_corners.begin() + m_rowStart[std::size_t(r)];
    const auto end = m_corners.begin() + m_rowStart[std::size_t(r) + 1];
    auto it = std::lower_bound(begin, end, x0 - reach,
                               [](const ConvexCorner& corner, double x) { return double(corner.point.x()) < x; });
    for (; it != end && double(it->point.x()) <= x1 + reach; ++it) {
      auto inside = [&](const Point& p) {
        for (int i = 0; i < 3; ++i) {
          const Point& u = triangle[std::size_t(i)];
          const Point& v = triangle[std::size_t((i + 1) % 3)];
          if (cross(v - u, p - u) * orientation < -tolerance) return false;
        }
        return true;
      };
      if (inside(it->point.cast<double>()) || inside(it->beside(clearance).cast<double>())) out.push_back(*it);
    }
  }
}

const ConvexCorner* ConvexCorners::cornerAt(Vec2 bend, float clearance) const {
  if (m_corners.empty() || !bend.allFinite()) return nullptr;
  const float reach = 1.5f * std::max(clearance, 0.0f) + 1e-4f * m_bucket;
  const float tolerance = 1e-6f * std::max({1.0f, std::abs(bend.x()), std::abs(bend.y())});
  const float rows = float(m_rowStart.size() - 1);
  const float firstRow = std::max(0.0f, std::floor((bend.y() - reach - m_top) / m_bucket));
  const float lastRow = std::min(rows - 1.0f, std::floor((bend.y() + reach - m_top) / m_bucket));
  for (float r = firstRow; r <= lastRow; r += 1.0f) {
    const auto begin = m_corners.begin() + m_rowStart[std::size_t(r)];
    const auto end = m_corners.begin() + m_rowStart[std::size_t(r) + 1];
    auto it = std::lower_bound(begin, end, bend.x() - reach,
                               [](const ConvexCorner& corner, float x) { return corner.point.x() < x; });
    for (; it != end && it->point.x() <= bend.x() + reach; ++it) {
      if ((it->beside(clearance) - bend).norm() <= tolerance) return &*it;
    }
  }
  return nullptr;
}

}  // namespace rpgnav
