// SPDX-License-Identifier: MIT
#include "rpgnav/path/path.hpp"

#include "grid/segment_walk.hpp"
#include "path/legs.hpp"
#include "path/stage_context.hpp"

#include "rpgnav/grid/line_of_sight.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rpgnav {

std::string_view toString(PathStage stage) noexcept {
  switch (stage) {
    case PathStage::StraightLine: return "straight_line";
    case PathStage::Search: return "search";
    case PathStage::ControlPoints: return "control_points";
    case PathStage::StraightenForward: return "straighten_forward";
    case PathStage::CornerRouting: return "corner_routing";
    case PathStage::StraightenBackward: return "straighten_backward";
    case PathStage::Detours: return "detours";
    case PathStage::Smoothing: return "smoothing";
  }
  return "unknown";
}

bool meetsBarrier(const Barrier& barrier, Vec2 from, Vec2 to, float radius, double slack) noexcept {
  // Distance between two segments: zero when they cross, else the least of the four
  // endpoint-to-segment distances.
  if (slack > 0.0 && (to.x() < from.x() || (to.x() == from.x() && to.y() < from.y()))) std::swap(from, to);
  const double distance = detail::segmentsDistance(from.cast<double>(), to.cast<double>(), barrier.a.cast<double>(),
                                                   barrier.b.cast<double>());
  return distance < barrierClearance(barrier, radius) - slack;
}

double barrierSlack(const Layout& layout, float radius, Vec2 from, Vec2 to) noexcept {
  const double tile = double(layout.tileSize());
  if (!widerThanHalfTile(layout, radius)) return 0.0;
  return tile * detail::wideTolerance(double(radius) / tile, layout.toLocal(from), layout.toLocal(to),
                                      detail::worldTilesOf(from, to, layout.tileSize()));
}

double barrierClearance(const Barrier& barrier, float radius) noexcept {
  return std::max(double(radius), kBarrierTouch * (barrier.b.cast<double>() - barrier.a.cast<double>()).norm());
}

double StageContext::dearestTerrain(Vec2 from, Vec2 to, const SegmentProbe& probe) const {
  if (memo == nullptr) return measureDearestTerrain(from, to, probe);
  return memo->dearest(lines, from, to, probe, [&] { return measureDearestTerrain(from, to, probe); });
}

double StageContext::measureDearestTerrain(Vec2 from, Vec2 to, const SegmentProbe& probe) const {
  const double cheapest = lines.cheapestCost();
  if (probe.cost <= probe.length * cheapest * (1.0 + 1e-9)) return cheapest;
  // The tiles whose inside the segment crosses, and where it runs along an edge the dearer side
  // (which the cost model charges there).
  const Layout& layout = map.layout();
  const Eigen::Vector2d a = layout.toLocal(from), b = layout.toLocal(to);
  double dearest = cheapest;
  if ((b - a).norm() <= detail::geometryTolerance(a, b)) return double(map.cost(layout.tileAt(from), mobility));
  auto consider = [&](Cell cell) {
    const float cost = map.cost(cell, mobility);
    if (cost != TerrainTable::kImpassable) dearest = std::max(dearest, double(cost));
  };
  const double alongTolerance = detail::costTolerance(a, b);
  detail::walkSegment(
      layout, a, b,
      [&](Cell cell, double t0, double t1) {
        consider(cell);
        // Pieces priced as running along an edge (see probeSegment) bring the other side in too.
        const detail::TileSet alongside = detail::alongsideTiles(layout, cell, a + (b - a) * t0, a + (b - a) * t1, alongTolerance);
        for (int i = 0; i < alongside.count; ++i) consider(alongside.cells[std::size_t(i)]);
        return true;
      },
      [&](const detail::SideContact& contact) {
        if (contact.t1 > contact.t0) {
          for (const detail::TileSet* side : {&contact.left, &contact.right}) {
            for (int i = 0; i < side->count; ++i) consider(side->cells[std::size_t(i)]);
          }
        }
        return true;
      });
  return dearest;
}

bool StageContext::openAround(Cell cell) const {
  // The tester's ring of touching tiles holds everything that can come within 1 tile (squares)
  // or 1/√3 (hexes) of a segment inside the tile; a wide body's clearances may reach further.
  const Layout& layout = map.layout();
  const float reach = (layout.isHex() ? 0.57735f : 1.0f) * layout.tileSize();
  if (widerThanHalfTile(layout, radius) && radius + comfort > reach) return false;
  if (!lines.openAround(cell)) return false;
  for (const Barrier& barrier : barriers) {
    for (const Cell side : {barrier.tileA, barrier.tileB}) {
      if (std::abs(cell.x - side.x) <= 1 && std::abs(cell.y - side.y) <= 1) return false;
    }
  }
  return true;
}

std::optional<std::pair<double, double>> measurePolyline(const StageContext& context, std::span<const Vec2> points,
                                                         std::int32_t& probes) {
  double cost = 0.0, length = 0.0;
  for (std::size_t i = 1; i < points.size(); ++i) {
    ++probes;
    const SegmentProbe probe = context.probe(points[i - 1], points[i]);
    if (!probe.clear) return std::nullopt;
    cost += probe.cost;
    length += probe.length;
  }
  return std::make_pair(cost, length);
}

double polylineCost(const StageContext& context, std::span<const Vec2> points) {
  std::int32_t probes = 0;
  const auto measured = measurePolyline(context, points, probes);
  return measured ? measured->first : std::numeric_limits<double>::infinity();
}

}  // namespace rpgnav
