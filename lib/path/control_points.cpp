// SPDX-License-Identifier: MIT
// Stage 3: one control point per tile of the A* path.
#include "rpgnav/grid/line_of_sight.hpp"
#include "rpgnav/path/stages.hpp"

#include "path/legs.hpp"

#include <array>

namespace rpgnav {
namespace {

// Where the ray from `from` toward `to` leaves tile `cell` (layout space), if it crosses the
// tile's interior and leaves before reaching `to`. Cyrus-Beck clipping against the convex tile.
std::optional<Eigen::Vector2d> exitPoint(const Layout& layout, Cell cell, const Eigen::Vector2d& from,
                                         const Eigen::Vector2d& to) {
  std::array<Eigen::Vector2d, 6> corners;
  const int count = layout.localCorners(cell, corners);
  const Eigen::Vector2d d = to - from;
  const Eigen::Vector2d centre = layout.localCenter(cell);
  double t0 = 0.0, t1 = 1.0;
  for (int i = 0; i < count; ++i) {
    const Eigen::Vector2d& v = corners[std::size_t(i)];
    const Eigen::Vector2d& w = corners[std::size_t((i + 1) % count)];
    Eigen::Vector2d inward(-(w - v).y(), (w - v).x());
    if (inward.dot(centre - v) < 0) inward = -inward;
    const double num = inward.dot(from - v), den = inward.dot(d);
    if (den == 0.0) {
      if (num < 0) return std::nullopt;
      continue;
    }
    const double t = -num / den;
    if (den > 0) {
      t0 = std::max(t0, t);
    } else {
      t1 = std::min(t1, t);
    }
  }
  if (t1 - t0 <= 1e-9 || t1 >= 1.0 - 1e-9) return std::nullopt;
  return Eigen::Vector2d(from + d * t1);
}

}  // namespace

void controlPointStage(const StageContext& context, const ControlPointSettings& settings,
                       const std::vector<Cell>& tiles, Vec2 start, Vec2 goal, std::vector<Vec2>& out,
                       StageStats& stats) {
  stats.ran = true;
  stats.pointsIn = std::int32_t(tiles.size());
  const Layout& layout = context.map.layout();
  out.clear();
  out.push_back(start);
  const Eigen::Vector2d goalLocal = layout.toLocal(goal);
  for (std::size_t k = 1; k + 1 < tiles.size(); ++k) {
    const Vec2 previous = out.back();
    const Vec2 centre = layout.tileCenter(tiles[k]);
    Vec2 point = centre;
    if (settings.exitPoints) {
      const auto exit = exitPoint(layout, tiles[k], layout.toLocal(previous), goalLocal);
      // The exit point must lead into the next tile of the path, or the polyline would leave it.
      if (exit && layout.tileAtLocal(*exit + (goalLocal - *exit).normalized() * 1e-6) == tiles[k + 1]) {
        const Vec2 candidate = layout.toWorld(*exit);
        const Vec2 next = k + 2 < tiles.size() ? layout.tileCenter(tiles[k + 1]) : goal;
        stats.probes += 4;
        const SegmentProbe in = probeSegment(context.map, context.mobility, previous, candidate, context.radius);
        const SegmentProbe on = probeSegment(context.map, context.mobility, candidate, next, context.radius);
        const SegmentProbe viaCentreIn = probeSegment(context.map, context.mobility, previous, centre, context.radius);
        const SegmentProbe viaCentreOn = probeSegment(context.map, context.mobility, centre, next, context.radius);
        const bool centreClear = viaCentreIn.clear && viaCentreOn.clear;
        const detail::Leg viaExit{in.cost + on.cost, in.length + on.length};
        const detail::Leg viaCentre{viaCentreIn.cost + viaCentreOn.cost, viaCentreIn.length + viaCentreOn.length};
        if (in.clear && on.clear && (!centreClear || detail::noWorse(viaExit, viaCentre))) point = candidate;
      }
    }
    out.push_back(point);
  }
  out.push_back(goal);
  stats.pointsOut = std::int32_t(out.size());
}

}  // namespace rpgnav
