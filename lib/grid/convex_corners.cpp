// SPDX-License-Identifier: MIT
#include "grid/convex_corners.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace rpgnav {
namespace {

using Point = Eigen::Vector2d;

double cross(const Point& u, const Point& v) { return u.x() * v.y() - u.y() * v.x(); }

// The x-extents of a triangle within horizontal bands, one band per row of the index: each edge's
// y-range and its x per unit of y worked out once per triangle (no division per row).
class TriangleBands {
 public:
  explicit TriangleBands(const std::array<Point, 3>& triangle) {
    for (std::size_t i = 0; i < 3; ++i) {
      const Point& p = triangle[i];
      const Point& q = triangle[(i + 1) % 3];
      Edge& edge = m_edges[i];
      edge.from = p;
      edge.low = std::min(p.y(), q.y());
      edge.high = std::max(p.y(), q.y());
      edge.flat = q.y() == p.y();
      edge.otherX = q.x();
      edge.xPerY = edge.flat ? 0.0 : (q.x() - p.x()) / (q.y() - p.y());
    }
  }

  // The x-extent within lo <= y <= hi; empty when first > second.
  std::pair<double, double> extent(double lo, double hi) const noexcept {
    double first = std::numeric_limits<double>::infinity(), second = -first;
    for (const Edge& edge : m_edges) {
      double x0 = 0.0, x1 = 0.0;
      if (edge.flat) {
        if (edge.from.y() < lo || edge.from.y() > hi) continue;
        x0 = edge.from.x(), x1 = edge.otherX;
      } else {
        const double y0 = std::max(lo, edge.low), y1 = std::min(hi, edge.high);
        if (y0 > y1) continue;
        x0 = edge.from.x() + (y0 - edge.from.y()) * edge.xPerY;
        x1 = edge.from.x() + (y1 - edge.from.y()) * edge.xPerY;
      }
      first = std::min({first, x0, x1});
      second = std::max({second, x0, x1});
    }
    return {first, second};
  }

 private:
  struct Edge {
    Point from;
    double low, high, otherX, xPerY;
    bool flat;
  };
  std::array<Edge, 3> m_edges;
};

}  // namespace

ConvexCorners::ConvexCorners(const TileMap& map, MobilityId mobility)
    : m_mobility(mobility), m_version(map.version()), m_tileSize(map.layout().tileSize()) {
  m_rows.resize(std::size_t(map.height()) + 2);
  for (std::int32_t y = -1; y <= map.height(); ++y) listRow(map, y, m_rows[std::size_t(y + 1)]);
}

void ConvexCorners::listTiles(const TileMap& map, std::int32_t y, std::int32_t x0, std::int32_t x1,
                              std::vector<Listed>& out) const {
  const Layout& layout = map.layout();
  const MobilityId mobility = m_mobility;
  const float cornerReach = layout.isHex() ? 1.15470054f : 1.41421356f;  // 1 / sin(half the interior angle)
  const std::size_t begin = out.size();
  std::array<Eigen::Vector2d, 6> corners;
  // Every blocked tile next to passable ground (the ring outside the map too).
  for (std::int32_t x = std::max(x0, -1); x <= std::min(x1, map.width()); ++x) {
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
        out.push_back({{point, (v - centre).normalized().cast<float>(), cornerReach}, x});
        continue;
      }
      // Two blocked squares meet at v only diagonally: a path rounds one of them through one
      // of the two open squares there, so list the corner once per open square (from the
      // first of the two blocked squares in row order only).
      if (diagonal < tile) continue;
      for (int e = 0; e < edgeCount; ++e) {
        const Point toward = (layout.localCenter(edgeNeighbours[std::size_t(e)]) - v).normalized();
        out.push_back({{point, toward.cast<float>(), cornerReach}, x});
      }
    }
  }
  // Listed tile by tile, so sorting by x keeping that order is the row's order.
  std::stable_sort(out.begin() + std::ptrdiff_t(begin), out.end(),
                   [](const Listed& p, const Listed& q) { return p.corner.point.x() < q.corner.point.x(); });
}

void ConvexCorners::listRow(const TileMap& map, std::int32_t y, Row& row) const {
  const Layout& layout = map.layout();
  // The row's y range: every tile corner of the row (shifted columns of flat hexes included).
  std::array<Eigen::Vector2d, 6> corners;
  double low = std::numeric_limits<double>::infinity(), high = -low;
  for (std::int32_t x = 0; x <= 1; ++x) {
    const int count = layout.localCorners({x, y}, corners);
    for (int k = 0; k < count; ++k) {
      const double world = double(layout.origin().y()) + corners[std::size_t(k)].y() * double(layout.tileSize());
      low = std::min(low, world);
      high = std::max(high, world);
    }
  }
  row.low = float(low);
  row.high = float(high);
  std::vector<Listed> listed;
  listTiles(map, y, -1, map.width(), listed);
  row.corners.clear();
  row.tiles.clear();
  for (const Listed& entry : listed) {
    row.corners.push_back(entry.corner);
    row.tiles.push_back(entry.tile);
  }
}

void ConvexCorners::relistTiles(const TileMap& map, std::int32_t y, std::int32_t x0, std::int32_t x1, Row& row) const {
  std::vector<Listed> fresh, kept;
  listTiles(map, y, x0, x1, fresh);
  for (std::size_t i = 0; i < row.corners.size(); ++i) {
    if (row.tiles[i] < x0 || row.tiles[i] > x1) kept.push_back({row.corners[i], row.tiles[i]});
  }
  std::vector<Listed> merged(kept.size() + fresh.size());
  std::merge(kept.begin(), kept.end(), fresh.begin(), fresh.end(), merged.begin(), before);
  row.corners.clear();
  row.tiles.clear();
  for (const Listed& entry : merged) {
    row.corners.push_back(entry.corner);
    row.tiles.push_back(entry.tile);
  }
}

void ConvexCorners::update(const TileMap& map, std::span<const std::pair<Cell, Cell>> rects) {
  m_version = map.version();
  if (m_rows.size() != std::size_t(map.height()) + 2) {
    *this = ConvexCorners(map, m_mobility);
    return;
  }
  for (const auto& [low, high] : rects) {
    for (std::int32_t y = std::max(low.y - 1, -1); y <= std::min(high.y + 1, map.height()); ++y) {
      relistTiles(map, y, low.x - 1, high.x + 1, m_rows[std::size_t(y + 1)]);
    }
  }
}

std::size_t ConvexCorners::size() const noexcept {
  std::size_t total = 0;
  for (const Row& row : m_rows) total += row.corners.size();
  return total;
}

std::size_t ConvexCorners::memoryBytes() const noexcept {
  std::size_t total = sizeof(*this) + m_rows.capacity() * sizeof(Row);
  for (const Row& row : m_rows) total += row.corners.capacity() * sizeof(ConvexCorner) + row.tiles.capacity() * sizeof(std::int32_t);
  return total;
}

std::vector<ConvexCorner> ConvexCorners::all() const {
  std::vector<ConvexCorner> out;
  for (const Row& row : m_rows) out.insert(out.end(), row.corners.begin(), row.corners.end());
  return out;
}

std::pair<std::size_t, std::size_t> ConvexCorners::rowsMeeting(double low, double high) const noexcept {
  // Rows go down the map: their ranges rise with the index (they overlap their neighbours').
  const auto first = std::partition_point(m_rows.begin(), m_rows.end(), [&](const Row& row) { return double(row.high) < low; });
  const auto last = std::partition_point(first, m_rows.end(), [&](const Row& row) { return double(row.low) <= high; });
  return {std::size_t(first - m_rows.begin()), std::size_t(last - m_rows.begin())};
}

void ConvexCorners::inTriangle(Vec2 a, Vec2 b, Vec2 c, float clearance, std::vector<ConvexCorner>& out, bool discs) const {
  const std::array<Point, 3> triangle{a.cast<double>(), b.cast<double>(), c.cast<double>()};
  const double area = cross(triangle[1] - triangle[0], triangle[2] - triangle[0]);
  if (area == 0.0 || !std::isfinite(area)) return;
  const double orientation = area > 0.0 ? 1.0 : -1.0;
  const double scale = std::max({1.0, triangle[0].cwiseAbs().maxCoeff(), triangle[1].cwiseAbs().maxCoeff(),
                                 triangle[2].cwiseAbs().maxCoeff()});
  const double tolerance = 1e-9 * scale * scale;
  // Corner points lie within `reach` of their beside points.
  const double reach = 1.5 * double(std::max(clearance, 0.0f)) + 1e-4 * double(m_tileSize);
  const double low = std::min({triangle[0].y(), triangle[1].y(), triangle[2].y()}) - reach;
  const double high = std::max({triangle[0].y(), triangle[1].y(), triangle[2].y()}) + reach;
  auto inside = [&](const Point& p) {
    for (int i = 0; i < 3; ++i) {
      const Point& u = triangle[std::size_t(i)];
      const Point& v = triangle[std::size_t((i + 1) % 3)];
      if (cross(v - u, p - u) * orientation < -tolerance) return false;
    }
    return true;
  };
  // A wide body's disc round a corner can cross the triangle while the corner and its beside
  // point both lie outside: such a corner stops a→c too (narrow bodies keep the cheaper test,
  // and their answers).
  auto withinOfEdges = [&](const Point& p) {
    for (int i = 0; i < 3; ++i) {
      const Point& u = triangle[std::size_t(i)];
      const Point uv = triangle[std::size_t((i + 1) % 3)] - u;
      const double t = std::clamp((p - u).dot(uv) / uv.squaredNorm(), 0.0, 1.0);
      if ((u + t * uv - p).norm() < double(clearance)) return true;
    }
    return false;
  };
  const TriangleBands bands(triangle);
  const auto [first, last] = rowsMeeting(low, high);
  for (std::size_t r = first; r < last; ++r) {
    const Row& row = m_rows[r];
    if (row.corners.empty()) continue;
    // (The rows' corners are filtered by x with `reach` to spare: an x-extent a rounding off
    // finds the same corners.)
    const auto [x0, x1] = bands.extent(double(row.low) - reach, double(row.high) + reach);
    if (x0 > x1) continue;
    auto it = std::lower_bound(row.corners.begin(), row.corners.end(), x0 - reach,
                               [](const ConvexCorner& corner, double x) { return double(corner.point.x()) < x; });
    for (; it != row.corners.end() && double(it->point.x()) <= x1 + reach; ++it) {
      if (inside(it->point.cast<double>()) || inside(it->beside(clearance).cast<double>()) ||
          (discs && withinOfEdges(it->point.cast<double>()))) {
        out.push_back(*it);
      }
    }
  }
}

const ConvexCorner* ConvexCorners::cornerAt(Vec2 bend, float clearance) const {
  if (!bend.allFinite()) return nullptr;
  const float scale = std::max({1.0f, std::abs(bend.x()), std::abs(bend.y())});
  const float reach = 1.5f * std::max(clearance, 0.0f) + 1e-4f * m_tileSize;
  const float tolerance = 1e-6f * scale;
  const auto [first, last] = rowsMeeting(double(bend.y() - reach), double(bend.y() + reach));
  for (std::size_t r = first; r < last; ++r) {
    const Row& row = m_rows[r];
    auto it = std::lower_bound(row.corners.begin(), row.corners.end(), bend.x() - reach,
                               [](const ConvexCorner& corner, float x) { return corner.point.x() < x; });
    for (; it != row.corners.end() && it->point.x() <= bend.x() + reach; ++it) {
      if ((it->beside(clearance) - bend).norm() <= tolerance) return &*it;
    }
  }
  return nullptr;
}

}  // namespace rpgnav
