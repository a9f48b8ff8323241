// SPDX-License-Identifier: MIT
#include "rpgnav/grid/line_of_sight.hpp"

#include "grid/segment_walk.hpp"

#include <cmath>

namespace rpgnav {
namespace {

bool finite(Vec2 p) { return std::isfinite(p.x()) && std::isfinite(p.y()); }

// Far beyond any map (kMaxSide tiles): walking there would only count blocked tiles, and int32
// cell coordinates would overflow.
bool withinWalkRange(const detail::Vec2d& p) {
  constexpr double kLimit = 8.0 * TileMap::kMaxSide;
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

bool hasLineOfSight(const TileMap& map, MobilityId mobility, Vec2 from, Vec2 to) {
  if (!finite(from) || !finite(to)) return false;
  const Layout& layout = map.layout();
  const detail::Vec2d a = layout.toLocal(from), b = layout.toLocal(to);
  if (!withinWalkRange(a) || !withinWalkRange(b)) return false;
  if ((b - a).norm() <= detail::geometryTolerance(a, b)) return map.passable(layout.tileAtLocal(a), mobility);
  auto blocked = [&](const detail::TileSet& set) {
    for (int i = 0; i < set.count; ++i) {
      if (!map.passable(set.cells[i], mobility)) return true;
    }
    return false;
  };
  return detail::walkSegment(
      layout, a, b, [&](Cell cell, double, double) { return map.passable(cell, mobility); },
      [&](const detail::SideContact& contact) { return !(blocked(contact.left) && blocked(contact.right)); });
}

}  // namespace rpgnav
