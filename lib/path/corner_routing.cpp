// SPDX-License-Identifier: MIT
// Stage 5: route around the corners that stop straightening.
#include "rpgnav/grid/line_of_sight.hpp"
#include "rpgnav/path/stages.hpp"

#include "path/funnel.hpp"
#include "path/legs.hpp"

#include <algorithm>
#include <array>
#include <optional>

namespace rpgnav {

void cornerRoutingStage(const StageContext& context, const CornerRoutingSettings& settings,
                        const std::vector<Cell>& tiles, std::vector<Vec2>& points, StageStats& stats) {
  stats.ran = true;
  stats.pointsIn = std::int32_t(points.size());
  const Layout& layout = context.map.layout();
  auto probe = [&](Vec2 a, Vec2 b) {
    ++stats.probes;
    return probeSegment(context.map, context.mobility, a, b, context.radius);
  };
  auto measure = [&](const std::vector<Vec2>& polyline) {
    detail::Leg total;
    for (std::size_t i = 1; i < polyline.size(); ++i) {
      const SegmentProbe segment = probe(polyline[i - 1], polyline[i]);
      if (!segment.clear) return std::optional<detail::Leg>();
      total.cost += segment.cost;
      total.length += segment.length;
    }
    return std::optional<detail::Leg>(total);
  };

  if (!tiles.empty() && points.size() > 2) {
    std::vector<Vec2> taut;
    detail::funnelPath(context.map, context.mobility, tiles, points.front(), points.back(), context.radius, taut);
    if (!taut.empty()) {
      const auto current = measure(points);
      const auto candidate = measure(taut);
      if (candidate && (!current || detail::noWorse(*candidate, *current))) points = std::move(taut);
    }
  }
  const float offset = context.radius + settings.margin * layout.tileSize();
  // For each interior point b between a (the point before it, already final) and c: when a→c is
  // not clear, the path bends round some blocked corner inside the triangle a-b-c, next to b.
  // Each corner of the blocked tiles around b's tile, and of the tile that stopped a→c, is a
  // candidate; the point just outside it (`offset` away along the corner's outward diagonal)
  // replaces b when both new segments are clear, and the cheapest such replacement wins if it
  // is no dearer than going through b.
  auto cross = [](Vec2 u, Vec2 v) { return double(u.x()) * v.y() - double(u.y()) * v.x(); };
  for (std::size_t i = 1; i + 1 < points.size(); ++i) {
    const Vec2 a = points[i - 1], b = points[i], c = points[i + 1];
    const SegmentProbe direct = probe(a, c);
    if (direct.clear) continue;
    const double turn = cross(c - a, b - a);  // which side of a→c the detour lies on
    if (turn == 0.0) continue;
    std::array<Cell, 10> blockedTiles;
    int blockedCount = 0;
    if (direct.hasBlocker) blockedTiles[std::size_t(blockedCount++)] = direct.blocker;
    const Cell home = layout.tileAt(b);
    for (const NeighbourStep& step : layout.touching(home)) {
      const Cell near{home.x + step.dx, home.y + step.dy};
      if (!context.map.passable(near, context.mobility) && !(direct.hasBlocker && near == direct.blocker)) {
        blockedTiles[std::size_t(blockedCount++)] = near;
      }
    }
    const detail::Leg replaced{probe(a, b).cost + probe(b, c).cost, double((b - a).norm() + (c - b).norm())};
    detail::Leg best = replaced;
    std::optional<Vec2> chosen;
    for (int t = 0; t < blockedCount; ++t) {
      const Cell tile = blockedTiles[std::size_t(t)];
      const TilePolygon polygon = layout.tilePolygon(tile);
      const Vec2 centre = layout.tileCenter(tile);
      for (int k = 0; k < polygon.count; ++k) {
        const Vec2 v = polygon.corners[std::size_t(k)];
        // Only corners inside the triangle a-b-c can be what the path bends round.
        if (cross(c - a, v - a) * turn <= 0.0 || cross(b - a, v - a) * turn > 0.0 || cross(c - b, v - b) * turn > 0.0) {
          continue;
        }
        const Vec2 beside = v + (v - centre).normalized() * offset;
        const SegmentProbe first = probe(a, beside);
        if (!first.clear || !detail::noWorse(first.cost, best.cost)) continue;
        const SegmentProbe second = probe(beside, c);
        const detail::Leg candidate{first.cost + second.cost, first.length + second.length};
        if (second.clear && detail::noWorse(candidate, best) && candidate.cost < best.cost) {
          best = candidate;
          chosen = beside;
        }
      }
    }
    if (chosen) points[i] = *chosen;
  }
  stats.pointsOut = std::int32_t(points.size());
}

}  // namespace rpgnav
