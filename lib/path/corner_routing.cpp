// SPDX-License-Identifier: MIT
// Stage 5: route around the corners that stop straightening.
#include "rpgnav/grid/line_of_sight.hpp"
#include "rpgnav/path/stages.hpp"

#include "path/funnel.hpp"
#include "path/legs.hpp"

#include <algorithm>
#include <cmath>
#include <array>
#include <optional>

namespace rpgnav {
namespace {

// The point outside corner `v` of blocked tile `tile`, on the corner's outward bisector, whose
// distance to both of the tile's edges meeting at v is `clearance`: a path bending there keeps
// that clearance from the corner (on squares the point lies √2 × clearance from it).
Vec2 besideCorner(const Layout& layout, Cell tile, Vec2 v, float clearance) {
  const int corners = layout.isHex() ? 6 : 4;
  const float halfInterior = 3.14159265f * (0.5f - 1.0f / float(corners));  // 45° or 60°
  return v + (v - layout.tileCenter(tile)).normalized() * (clearance / std::sin(halfInterior));
}

// The blocked-tile corner nearest to p within `reach`, if any (with its tile).
std::optional<std::pair<Cell, Vec2>> nearestBlockedCorner(const StageContext& context, Vec2 p, float reach) {
  const Layout& layout = context.map.layout();
  const Cell home = layout.tileAt(p);
  std::optional<std::pair<Cell, Vec2>> best;
  float bestDistance = reach;
  auto consider = [&](Cell tile) {
    if (context.map.passable(tile, context.mobility)) return;
    const TilePolygon polygon = layout.tilePolygon(tile);
    for (int k = 0; k < polygon.count; ++k) {
      const float d = (polygon.corners[std::size_t(k)] - p).norm();
      if (d <= bestDistance) {
        bestDistance = d;
        best = std::make_pair(tile, polygon.corners[std::size_t(k)]);
      }
    }
  };
  consider(home);
  for (const NeighbourStep& step : layout.touching(home)) consider({home.x + step.dx, home.y + step.dy});
  return best;
}

}  // namespace

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
    const auto measured = measurePolyline(context, polyline, stats.probes);
    return measured ? std::optional<detail::Leg>(detail::Leg{measured->first, measured->second}) : std::nullopt;
  };

  if (!tiles.empty() && points.size() > 2) {
    std::vector<Vec2> taut;
    // Portal ends are pulled in by the radius plus the margin, so that rounding never puts the
    // taut path a hair closer than the radius to the corner it hugs.
    const float pull = context.radius > 0.0f ? context.radius + settings.margin * layout.tileSize() : 0.0f;
    detail::funnelPath(context.map, context.mobility, tiles, points.front(), points.back(), pull, taut);
    // The funnel bends at portal ends pulled in along the portal; round a corner the path must
    // keep the clearance in every direction, so each bend next to a blocked corner moves out to
    // the point on that corner's bisector.
    const float clearance = context.radius + settings.margin * layout.tileSize();
    for (std::size_t i = 1; i + 1 < taut.size(); ++i) {
      if (const auto corner = nearestBlockedCorner(context, taut[i], 1.5f * clearance)) {
        taut[i] = besideCorner(layout, corner->first, corner->second, clearance);
      }
    }
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
      for (int k = 0; k < polygon.count; ++k) {
        const Vec2 v = polygon.corners[std::size_t(k)];
        // Only corners inside the triangle a-b-c can be what the path bends round.
        if (cross(c - a, v - a) * turn <= 0.0 || cross(b - a, v - a) * turn > 0.0 || cross(c - b, v - b) * turn > 0.0) {
          continue;
        }
        const Vec2 beside = besideCorner(layout, tile, v, offset);
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
