// SPDX-License-Identifier: MIT
// Where a plan starts and stops for wide bodies: the tile a body enters the map's grid by (or
// steps out to from a tile too narrow for it), its escape when it stands in a door, and where it
// stops in front of a closed door.
#include "path/planner_impl.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rpgnav {

Planner::Impl::EntryTile Planner::Impl::entryTile(Vec2 point, Cell own, const PathRequest& request) const {
  const TileMap& map = *m_map;
  const Layout& layout = map.layout();
  EntryTile entry;
  if (!widerThanHalfTile(layout, request.radius)) {
    entry.tile = own;
    entry.clear = probeSegment(map, request.mobility, point, layout.tileCenter(own), request.radius).clear;
    entry.roomy = false;
    return entry;
  }
  // Wide: the search moves the body's centre between tile centres where it fits (Clearance), so
  // the path begins at such a centre. The own tile first, then the touching ones in the layout's
  // order (deterministic).
  entry.roomy = probeSegment(map, request.mobility, point, point, request.radius).clear;
  if (!entry.roomy) return entry;
  const Clearance& clearance = *m_clearance;
  const double bodyTiles = detail::bodyTilesOf(request.radius, layout);
  auto tryTile = [&](Cell cell) {
    if (!clearance.fits(cell, bodyTiles)) return false;
    if (!probeSegment(map, request.mobility, point, layout.tileCenter(cell), request.radius).clear) return false;
    entry.tile = cell;
    entry.clear = true;
    return true;
  };
  if (tryTile(own)) return entry;
  for (const NeighbourStep& step : layout.touching(own)) {
    if (tryTile({own.x + step.dx, own.y + step.dy})) return entry;
  }
  return entry;
}

Planner::Impl::EntryTile Planner::Impl::stepOutTile(Vec2 point, Cell own, const PathRequest& request) const {
  const TileMap& map = *m_map;
  const Layout& layout = map.layout();
  EntryTile entry;
  entry.pressed = true;
  const bool wide = widerThanHalfTile(layout, request.radius);
  const double bodyTiles = wide ? detail::bodyTilesOf(request.radius, layout) : 0.0;
  double best = std::numeric_limits<double>::infinity();
  auto tryTile = [&](Cell cell) {
    if (!map.contains(cell) || !map.passable(cell, request.mobility)) return;
    const Vec2 centre = layout.tileCenter(cell);
    const bool fits = wide ? m_clearance->fits(cell, bodyTiles) : probeSegment(map, request.mobility, centre, centre, request.radius).clear;
    const double distance = double((centre - point).norm());
    if (!fits || !(distance < best)) return;  // (the own tile, then the layout's order, on ties)
    best = distance;
    entry.tile = cell;
    entry.clear = true;
  };
  tryTile(own);
  for (const NeighbourStep& step : layout.touching(own)) tryTile({own.x + step.dx, own.y + step.dy});
  return entry;
}

std::optional<Cell> Planner::Impl::wideEscapeTile(const PathRequest& request) {
  const TileMap& map = *m_map;
  const Layout& layout = map.layout();
  const Clearance& clearance = *m_clearance;
  const double bodyTiles = detail::bodyTilesOf(request.radius, layout);
  const Cell own = *map.tileAt(request.start);
  const auto reach = std::int32_t(std::ceil(bodyTiles)) + 1;
  // The doors round the tiles looked at (within reach steps and the body's radius of them).
  const Vec2 span = Vec2::Constant(float(reach + 1) * layout.tileSize());
  m_doors->barriersNear(request.start - span, request.start + span, request.radius, false, m_barriers);
  std::optional<Cell> best;
  double bestDistance = std::numeric_limits<double>::infinity();
  for (std::int32_t dy = -reach; dy <= reach; ++dy) {
    for (std::int32_t dx = -reach; dx <= reach; ++dx) {
      const Cell cell{own.x + dx, own.y + dy};
      if (!clearance.fits(cell, bodyTiles)) continue;
      const Vec2 centre = layout.tileCenter(cell);
      const double distance = double((centre - request.start).norm());
      if (distance >= bestDistance) continue;  // (row-major order breaks ties)
      // The centre keeps the radius from the doors, and the step back crosses none of them (it
      // may pass within the radius of the door that holds the character: that one is exempt).
      const bool clearOfDoors = std::none_of(m_barriers.begin(), m_barriers.end(), [&](const Barrier& barrier) {
        return meetsBarrier(barrier, centre, centre, request.radius, barrierSlack(layout, request.radius, centre, centre)) ||
               meetsBarrier(barrier, request.start, centre, 0.0f);
      });
      if (!clearOfDoors || (!m_entry.pressed && !probeSegment(map, request.mobility, request.start, centre, request.radius).clear)) continue;
      best = cell;
      bestDistance = distance;
    }
  }
  return best;
}

Vec2 Planner::Impl::wideDoorStop(const Door& door, float keep, Vec2 start, std::vector<Cell>& tiles) const {
  const Layout& layout = m_world->map().layout();
  const Eigen::Vector2d edge0 = door.edge[0].cast<double>(), edge1 = door.edge[1].cast<double>();
  auto distance = [&](const Eigen::Vector2d& p) { return detail::pointToSegment(p, edge0, edge1); };
  // The search's centre polyline (start, then the tiles' centres) walked back from the door to
  // its last point at least `keep` from it; the stop lies on the step that comes closer, where
  // the distance reaches `keep` (found by halving: the distance along a segment is convex).
  std::size_t last = tiles.size() - 1;
  auto point = [&](std::size_t k) -> Eigen::Vector2d { return layout.tileCenter(tiles[k]).cast<double>(); };
  while (last > 0 && distance(point(last)) < double(keep)) --last;
  Eigen::Vector2d far = point(last), near;
  if (distance(far) >= double(keep)) {
    if (last + 1 == tiles.size()) return far.cast<float>();
    near = point(last + 1);
  } else {
    // Even the first tile's centre is closer: stop between the start and it, or where it stands.
    near = far;
    far = start.cast<double>();
    if (distance(far) < double(keep)) {
      tiles.resize(1);
      return start;
    }
  }
  tiles.resize(last + 1);
  double low = 0.0, high = 1.0;  // far + (near - far) × t keeps `keep` at low, not at high
  for (int i = 0; i < 40; ++i) {
    const double middle = 0.5 * (low + high);
    (distance(far + (near - far) * middle) >= double(keep) ? low : high) = middle;
  }
  return (far + (near - far) * low).cast<float>();
}

}  // namespace rpgnav
