// SPDX-License-Identifier: MIT
#include "rpgnav/grid/line_of_sight.hpp"

#include "grid/segment_walk.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace rpgnav {
namespace {


// Far beyond any map (kMaxMapSide tiles): walking there would only count blocked tiles, and int32
// cell coordinates would overflow.
bool withinWalkRange(const detail::Vec2d& p) {
  constexpr double kLimit = 8.0 * kMaxMapSide;
  return std::abs(p.x()) < kLimit && std::abs(p.y()) < kLimit;
}

}  // namespace

void traverseSegment(const Layout& layout, Vec2 from, Vec2 to, std::vector<TileCrossing>& out) {
  if (!finite(from) || !finite(to)) return;
  const detail::Vec2d a = layout.toLocal(from), b = layout.toLocal(to);
  if (!withinWalkRange(a) || !withinWalkRange(b)) return;
  if ((b - a).norm() <= detail::geometryTolerance(a, b)) {
    out.push_back({layout.tileAtLocal(a), 0.0f, 0.0f});
    return;
  }
  const std::size_t first = out.size();
  detail::walkSegment(
      layout, a, b,
      [&](Cell cell, double t0, double t1) {
        if (out.size() > first && out.back().cell == cell) {
          out.back().exit = float(t1);
        } else {
          out.push_back({cell, float(t0), float(t1)});
        }
        return true;
      },
      [](const detail::SideContact&) { return true; });
}

std::vector<Cell> tilesCrossed(const Layout& layout, Vec2 from, Vec2 to) {
  std::vector<TileCrossing> crossings;
  traverseSegment(layout, from, to, crossings);
  std::vector<Cell> cells;
  cells.reserve(crossings.size());
  for (const TileCrossing& crossing : crossings) cells.push_back(crossing.cell);
  return cells;
}

namespace {

// Radius (tiles) up to which the tiles touching the tiles a segment visits are all that can come
// within it: a tile that touches none of them is at least 1 tile away on squares, 1/√3 on hexes.
double touchingRingReach(const Layout& layout) { return layout.isHex() ? kHexCircumradius : 1.0; }

// Every tile whose polygon can come within `keep` of segment ab (layout space), row by row of the
// layout (columns on flat-topped hexes), among the tiles `first`..`last` (inclusive): in each row,
// the tiles whose centre lies within keep plus the tile's circumradius of the segment's part in
// the row's band. Stops at the first tile for which `visit` returns false.
template <typename Visit>
bool forTilesNear(const Layout& layout, const detail::Vec2d& a, const detail::Vec2d& b, double keep, Cell first,
                  Cell last, Visit&& visit) {
  const bool flat = layout.kind() == LayoutKind::HexFlat;
  const int major = flat ? 0 : 1, minor = 1 - major;  // v: across the rows; u: along them
  auto rowCell = [&](std::int32_t row) { return flat ? Cell{row, 0} : Cell{0, row}; };
  const double v0 = layout.localCenter(rowCell(0))[major], pitch = layout.localCenter(rowCell(1))[major] - v0;
  const double reach = keep + (layout.isHex() ? kHexCircumradius : 0.70710678118654757) + 1e-9;
  const double vLow = std::min(a[major], b[major]) - reach, vHigh = std::max(a[major], b[major]) + reach;
  const double du = b[minor] - a[minor], dv = b[major] - a[major];
  const std::int32_t rowLow = flat ? first.x : first.y, rowHigh = flat ? last.x : last.y;
  const std::int32_t kLow = flat ? first.y : first.x, kHigh = flat ? last.y : last.x;
  const double rowFrom = std::clamp(std::ceil((vLow - v0) / pitch), double(rowLow), double(rowHigh) + 1.0);
  for (auto row = std::int32_t(rowFrom); row <= rowHigh && v0 + row * pitch <= vHigh; ++row) {
    const double v = v0 + row * pitch;
    double t0 = 0.0, t1 = 1.0;  // the segment's part within reach of the row's centre line
    if (dv != 0.0) {
      t0 = (v - reach - a[major]) / dv;
      t1 = (v + reach - a[major]) / dv;
      if (t0 > t1) std::swap(t0, t1);
      t0 = std::max(t0, 0.0);
      t1 = std::min(t1, 1.0);
      if (t0 > t1) continue;
    }
    const double u0 = std::min(a[minor] + du * t0, a[minor] + du * t1) - reach;
    const double u1 = std::max(a[minor] + du * t0, a[minor] + du * t1) + reach;
    auto at = [&](double u) {
      detail::Vec2d p;
      p[major] = v;
      p[minor] = std::clamp(u, double(kLow) - 2.0, double(kHigh) + 2.0);
      const Cell cell = layout.tileAtLocal(p);
      return flat ? cell.y : cell.x;
    };
    for (std::int32_t k = std::max(at(u0) - 1, kLow), end = std::min(at(u1) + 1, kHigh); k <= end; ++k) {
      if (!visit(flat ? Cell{row, k} : Cell{k, row})) return false;
    }
  }
  return true;
}

}  // namespace

SegmentProbe probeSegment(const TileMap& map, MobilityId mobility, Vec2 from, Vec2 to, float radius) {
  return detail::probeSegmentKnowing(map, mobility, from, to, radius, nullptr);
}

SegmentProbe detail::probeSegmentKnowing(const TileMap& map, MobilityId mobility, Vec2 from, Vec2 to, float radius,
                                         const std::vector<bool>* passableAround) {
  SegmentProbe probe;
  if (!finite(from) || !finite(to) || !std::isfinite(radius) || radius < 0.0f) return probe;
  const Layout& layout = map.layout();
  const detail::Vec2d a = layout.toLocal(from), b = layout.toLocal(to);
  if (!withinWalkRange(a) || !withinWalkRange(b)) return probe;
  const double length = (b - a).norm();
  probe.length = length * double(layout.tileSize());
  const double localRadius = double(radius) / double(layout.tileSize());
  const double keep = detail::keptDistance(localRadius, a, b, detail::worldTilesOf(from, to, layout.tileSize()));
  // Distances measured from the same end whichever way the segment runs (wide bodies only: the
  // narrow rule's answers stay as they were).
  const bool reversed = localRadius >= 0.5 && detail::measureReversed(a, b);
  const detail::Vec2d& near = reversed ? b : a;
  const detail::Vec2d& far = reversed ? a : b;
  auto tooClose = [&](Cell cell) {
    std::array<detail::Vec2d, 6> corners;
    const int count = layout.localCorners(cell, corners);
    if (!detail::closerThan(near, far, corners, count, keep)) return false;
    probe.blocker = cell;
    probe.hasBlocker = true;
    return true;
  };
  // Wider than the touching ring reaches: after the walk, every blocked tile near the segment.
  const bool band = localRadius > touchingRingReach(layout);
  auto bandClear = [&] {
    // Off the map every tile is forbidden, and the border round it holds the nearest of them to
    // any point on the map: the sweep stays within it, however wide the radius.
    return forTilesNear(layout, near, far, keep, {-1, -1}, {map.width(), map.height()},
                        [&](Cell cell) { return map.passable(cell, mobility) || !tooClose(cell); });
  };
  // Clearance: up to the ring's reach only tiles touching a tile the segment visits can come
  // within the radius of it. Each blocked one is tested once per probe; a small cache of the last
  // tested tiles avoids repeating the work for neighbours shared by consecutive tiles.
  std::array<Cell, 16> tested{};
  std::size_t testedCount = 0, testedNext = 0;
  auto clearAround = [&](Cell cell) {
    if (localRadius <= 0.0 || band) return true;
    if (passableAround != nullptr && map.contains(cell) && (*passableAround)[std::size_t(map.index(cell))]) return true;
    for (const NeighbourStep& step : layout.touching(cell)) {
      const Cell next{cell.x + step.dx, cell.y + step.dy};
      if (map.passable(next, mobility)) continue;
      bool seen = false;
      for (std::size_t i = 0; i < testedCount && !seen; ++i) seen = tested[i] == next;
      if (seen) continue;
      tested[testedNext] = next;
      testedNext = (testedNext + 1) % tested.size();
      testedCount = std::min(testedCount + 1, tested.size());
      if (tooClose(next)) return false;
    }
    return true;
  };
  auto blocked = [&](const detail::TileSet& set) {
    for (int i = 0; i < set.count; ++i) {
      if (!map.passable(set.cells[i], mobility)) {
        probe.blocker = set.cells[i];
        probe.hasBlocker = true;
        return true;
      }
    }
    return false;
  };
  if (length <= detail::geometryTolerance(a, b)) {  // a point: its tile and its surroundings
    const Cell cell = layout.tileAtLocal(a);
    probe.clear = map.passable(cell, mobility) && clearAround(cell) && (!band || bandClear());
    if (!map.passable(cell, mobility)) {
      probe.blocker = cell;
      probe.hasBlocker = true;
    }
    return probe;
  }
  double cost = 0.0;
  const double alongTolerance = detail::costTolerance(a, b);
  const float dearestTerrain = map.terrain().maxCost(mobility);  // no piece is dearer than this
  const detail::Vec2d d = b - a;
  const bool clear = detail::walkSegment(
      layout, a, b,
      [&](Cell cell, double t0, double t1) {
        float tileCost = map.cost(cell, mobility);
        if (tileCost == TerrainTable::kImpassable) {
          probe.blocker = cell;
          probe.hasBlocker = true;
          return false;
        }
        if (!clearAround(cell)) return false;
        // Within float rounding of an edge all along: priced as running along it (see
        // costTolerance), the dearer passable side counting.
        if (tileCost < dearestTerrain) {
          const detail::TileSet alongside = detail::alongsideTiles(layout, cell, a + d * t0, a + d * t1, alongTolerance);
          for (int i = 0; i < alongside.count; ++i) {
            const float other = map.cost(alongside.cells[std::size_t(i)], mobility);
            if (other != TerrainTable::kImpassable) tileCost = std::max(tileCost, other);
          }
        }
        cost += (t1 - t0) * double(tileCost);
        return true;
      },
      [&](const detail::SideContact& contact) {
        if (localRadius > 0.0) {
          // Touching a blocked tile is closer than any positive radius.
          if (blocked(contact.left) || blocked(contact.right)) return false;
        } else if (blocked(contact.left)) {
          if (blocked(contact.right)) return false;
          probe.hasBlocker = false;  // one blocked side only: touching is allowed
        }
        if (contact.t1 > contact.t0) {  // running along an edge: the dearer side counts
          float dearer = 0.0f;
          for (const detail::TileSet* side : {&contact.left, &contact.right}) {
            for (int i = 0; i < side->count; ++i) {
              const float c = map.cost(side->cells[i], mobility);
              if (c != TerrainTable::kImpassable) dearer = std::max(dearer, c);
            }
          }
          cost += (contact.t1 - contact.t0) * double(dearer);
          for (const detail::TileSet* side : {&contact.left, &contact.right}) {
            for (int i = 0; i < side->count; ++i) {
              if (!clearAround(side->cells[i])) return false;
            }
          }
        }
        return true;
      });
  probe.clear = clear && (!band || bandClear());
  probe.cost = probe.clear ? cost * probe.length : 0.0;
  return probe;
}

bool hasLineOfSight(const TileMap& map, MobilityId mobility, Vec2 from, Vec2 to) {
  // The zero-radius probe applies exactly the rule; its cost sum is a few additions.
  return probeSegment(map, mobility, from, to, 0.0f).clear;
}

}  // namespace rpgnav
