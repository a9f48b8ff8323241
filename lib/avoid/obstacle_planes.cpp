// SPDX-License-Identifier: MIT
#include "obstacle_planes.hpp"

#include <algorithm>
#include <cmath>

namespace rpgnav::avoid {
namespace {

// The widest window of tiles looked at, per side (bodies of 3 tiles at 30 tiles a second fit).
constexpr std::int32_t kMaxWindow = 24;

// The plane for an obstacle point at `distance` from the body's centre, `away` towards it.
void addPlane(const ObstacleBody& body, Vec2 away, float distance, HalfPlane* out, std::size_t& count) {
  const float gap = distance - body.radius;
  if (!(gap < body.reach())) return;
  // Pushed in already (rounding, or a wall raised on it): out at up to the max speed.
  const float offset = std::max(gap / body.horizon, -body.maxSpeed);
  out[count++] = HalfPlane{Vec2(-away), offset};
}

// The plane of segment a-b (world units) whose free side `normal` points to, for a body on that
// side; `normal` is used as the direction away when the nearest point is inside the segment.
void segmentPlane(const ObstacleBody& body, Vec2 a, Vec2 b, Vec2 normal, HalfPlane* out, std::size_t& count) {
  const Vec2 ab = b - a;
  const Vec2 ap = body.position - a;
  if (ap.dot(normal) <= 0.0f) return;  // behind the wall: not its side
  const float t = ab.dot(ap) / ab.squaredNorm();
  if (t > 0.0f && t < 1.0f) {
    addPlane(body, normal, ap.dot(normal), out, count);
    return;
  }
  const Vec2 offset = t <= 0.0f ? ap : Vec2(body.position - b);
  const float distance = offset.norm();
  if (distance > 0.0f) addPlane(body, offset / distance, distance, out, count);
}

// The point of segment a-b nearest to p.
Vec2 nearestOnSegment(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 ab = b - a;
  const float length = ab.squaredNorm();
  const float t = length > 0.0f ? std::clamp(ab.dot(p - a) / length, 0.0f, 1.0f) : 0.0f;
  return a + t * ab;
}


// The tile across each edge of a hex tile (edges in Layout::localCorners' order) as an offset,
// by the parity of the tile's row (pointy) or column (flat): the same on every map of a layout
// kind and stagger, so found once, from the point beyond each edge's middle (a look-up per edge
// of every blocked tile would round against two lines of centres each time).
using EdgeNeighbours = std::array<std::array<Cell, 6>, 2>;
const EdgeNeighbours& edgeNeighbours(const Layout& layout) {
  static const std::array<EdgeNeighbours, 4> tables = [] {
    std::array<EdgeNeighbours, 4> made{};
    for (std::size_t t = 0; t < made.size(); ++t) {
      const HexStagger stagger = t % 2 == 0 ? HexStagger::Odd : HexStagger::Even;
      const bool flat = t >= 2;
      const Layout hex = flat ? Layout::hexFlat(1.0f, Vec2::Zero(), stagger) : Layout::hexPointy(1.0f, Vec2::Zero(), stagger);
      for (std::int32_t parity = 0; parity < 2; ++parity) {
        const Cell reference = flat ? Cell{parity, 0} : Cell{0, parity};
        const Eigen::Vector2d centre = hex.localCenter(reference);
        std::array<Eigen::Vector2d, 6> corners;
        const int n = hex.localCorners(reference, corners);
        for (int k = 0; k < n; ++k) {
          const Eigen::Vector2d outward = (corners[std::size_t(k)] + corners[std::size_t((k + 1) % n)]) * 0.5 - centre;
          const Cell beyond = hex.tileAtLocal(centre + 2.0 * outward);
          made[t][std::size_t(parity)][std::size_t(k)] = {beyond.x - reference.x, beyond.y - reference.y};
        }
      }
    }
    return made;
  }();
  return tables[(layout.kind() == LayoutKind::HexFlat ? 2 : 0) + (layout.hexStagger() == HexStagger::Even ? 1 : 0)];
}

}  // namespace

std::size_t wallPlanes(const TileMap& map, MobilityId mobility, const ObstacleBody& body, std::span<HalfPlane> out) {
  const Layout& layout = map.layout();
  const double tile = double(layout.tileSize());
  const double range = std::min((double(body.radius) + double(body.reach())) / tile + 1e-3, double(kMaxWindow - 1));
  const Eigen::Vector2d local = layout.toLocal(body.position);
  std::size_t count = 0;
  const std::size_t capacity = out.size();
  auto toWorld = [&](double x, double y) { return layout.toWorld(Eigen::Vector2d(x, y)); };
  if (!layout.isHex()) {
    // Tiles [x0, x1] x [y0, y1]: the window's outer lines are out of range, only inner edges count.
    const std::int32_t x0 = Layout::floorToIndex(local.x() - range), x1 = Layout::floorToIndex(local.x() + range);
    const std::int32_t y0 = Layout::floorToIndex(local.y() - range), y1 = Layout::floorToIndex(local.y() + range);
    const std::int32_t w = x1 - x0 + 1, h = y1 - y0 + 1;
    std::array<bool, std::size_t(2 * kMaxWindow + 2) * std::size_t(2 * kMaxWindow + 2)> open;
    for (std::int32_t y = 0; y < h; ++y) {
      for (std::int32_t x = 0; x < w; ++x) open[std::size_t(y * w + x)] = map.passable({x0 + x, y0 + y}, mobility);
    }
    auto at = [&](std::int32_t x, std::int32_t y) { return open[std::size_t(y * w + x)]; };
    // Edges between rows y-1 and y, merged along x while the free side stays the same.
    for (std::int32_t y = 1; y < h && count < capacity; ++y) {
      std::int32_t x = 0;
      while (x < w && count < capacity) {
        const bool above = at(x, y - 1), below = at(x, y);
        if (above == below) {
          ++x;
          continue;
        }
        std::int32_t end = x + 1;
        while (end < w && at(end, y - 1) == above && at(end, y) == below) ++end;
        const double line = double(y0 + y);
        segmentPlane(body, toWorld(double(x0 + x), line), toWorld(double(x0 + end), line),
                     above ? Vec2(0.0f, -1.0f) : Vec2(0.0f, 1.0f), out.data(), count);
        x = end;
      }
    }
    for (std::int32_t x = 1; x < w && count < capacity; ++x) {
      std::int32_t y = 0;
      while (y < h && count < capacity) {
        const bool left = at(x - 1, y), right = at(x, y);
        if (left == right) {
          ++y;
          continue;
        }
        std::int32_t end = y + 1;
        while (end < h && at(x - 1, end) == left && at(x, end) == right) ++end;
        const double line = double(x0 + x);
        segmentPlane(body, toWorld(line, double(y0 + y)), toWorld(line, double(y0 + end)),
                     left ? Vec2(-1.0f, 0.0f) : Vec2(1.0f, 0.0f), out.data(), count);
        y = end;
      }
    }
    return count;
  }
  // Hexes: every edge of a forbidden tile whose neighbour across it is free, one by one (hex edges
  // never line up). The tiles whose centres lie within range plus a tile.
  std::int32_t x0 = std::numeric_limits<std::int32_t>::max(), y0 = x0, x1 = std::numeric_limits<std::int32_t>::min(), y1 = x1;
  for (const double dx : {-range, range}) {
    for (const double dy : {-range, range}) {
      const Cell c = layout.tileAtLocal(local + Eigen::Vector2d(dx, dy));
      x0 = std::min(x0, c.x), x1 = std::max(x1, c.x), y0 = std::min(y0, c.y), y1 = std::max(y1, c.y);
    }
  }
  const bool flat = layout.kind() == LayoutKind::HexFlat;
  const EdgeNeighbours& across = edgeNeighbours(layout);
  for (std::int32_t y = y0 - 1; y <= y1 + 1 && count < capacity; ++y) {
    for (std::int32_t x = x0 - 1; x <= x1 + 1 && count < capacity; ++x) {
      const Cell blocked{x, y};
      const std::array<Cell, 6>& neighbours = across[std::size_t((flat ? x : y) & 1)];
      if (map.passable(blocked, mobility)) continue;
      const Eigen::Vector2d centre = layout.localCenter(blocked);
      if ((centre - local).norm() > range + 1.0) continue;
      std::array<Eigen::Vector2d, 6> corners;
      const int n = layout.localCorners(blocked, corners);
      for (int k = 0; k < n && count < capacity; ++k) {
        const Eigen::Vector2d a = corners[std::size_t(k)], b = corners[std::size_t((k + 1) % n)];
        const Eigen::Vector2d outward = (a + b) * 0.5 - centre;
        const Cell beyond{x + neighbours[std::size_t(k)].x, y + neighbours[std::size_t(k)].y};
        if (!map.passable(beyond, mobility)) continue;
        const Eigen::Vector2d normal = outward.normalized();
        segmentPlane(body, layout.toWorld(a), layout.toWorld(b), Vec2(float(normal.x()), float(normal.y())), out.data(),
                     count);
      }
    }
  }
  return count;
}

void discPlane(const ObstacleBody& body, Vec2 centre, float radius, HalfPlane* out, std::size_t& count) {
  const Vec2 offset = body.position - centre;
  const float distance = offset.norm();
  if (distance > 0.0f) addPlane(body, offset / distance, distance - radius, out, count);
}

void capsulePlane(const ObstacleBody& body, Vec2 a, Vec2 b, float radius, HalfPlane* out, std::size_t& count) {
  discPlane(body, nearestOnSegment(body.position, a, b), radius, out, count);
}

void doorPlane(const ObstacleBody& body, const std::array<Vec2, 2>& edge, HalfPlane* out, std::size_t& count) {
  if (!((edge[1] - edge[0]).squaredNorm() > 0.0f)) return;
  const Vec2 offset = body.position - nearestOnSegment(body.position, edge[0], edge[1]);
  const float distance = offset.norm();
  if (!(distance >= body.radius * (1.0f - 1e-4f)) || distance == 0.0f) return;  // closed on the body
  addPlane(body, offset / distance, distance, out, count);
}

}  // namespace rpgnav::avoid
