// SPDX-License-Identifier: MIT
// Stage 3: one control point per tile of the A* path.
#include "rpgnav/path/stages.hpp"

#include "path/legs.hpp"

#include <array>
#include <optional>

namespace rpgnav {
namespace {

using Point = Eigen::Vector2d;

// On hex maps the segment between two neighbouring centres crosses their shared edge at its
// middle, only half an edge (0.289 tiles) from the edge's ends. When one end touches a blocked
// tile and the character is wider than that, the polyline goes through the other end instead
// (nudged just inside the edge), which keeps half a tile from the blocked corner.
std::optional<Vec2> hexPortalPoint(const StageContext& context, Cell a, Cell b) {
  const Layout& layout = context.map.layout();
  if (!widerThanHalfHexEdge(layout, context.radius)) return std::nullopt;
  const auto moves = layout.moves(a);
  for (std::size_t i = 0; i < moves.size(); ++i) {
    if (Cell{a.x + moves[i].dx, a.y + moves[i].dy} != b) continue;
    const NeighbourStep& before = moves[(i + moves.size() - 1) % moves.size()];
    const NeighbourStep& after = moves[(i + 1) % moves.size()];
    const Cell beforeTile{a.x + before.dx, a.y + before.dy}, afterTile{a.x + after.dx, a.y + after.dy};
    const bool beforeOpen = context.map.passable(beforeTile, context.mobility);
    const bool afterOpen = context.map.passable(afterTile, context.mobility);
    if (beforeOpen == afterOpen) return std::nullopt;  // both open: fine; both blocked: closed gap
    // The open end is the corner a, b and the open tile share.
    const Cell open = beforeOpen ? beforeTile : afterTile;
    const Point middle = (layout.localCenter(a) + layout.localCenter(b)) * 0.5;
    const Point corner = (layout.localCenter(a) + layout.localCenter(b) + layout.localCenter(open)) / 3.0;
    return layout.toWorld(corner + (middle - corner) * 0.01);
  }
  return std::nullopt;
}

}  // namespace

void controlPointStage(const StageContext& context, const ControlPointSettings& settings,
                       const std::vector<Cell>& tiles, const std::vector<Vec2>& through, Vec2 start, Vec2 goal,
                       std::vector<Vec2>& out, StageStats& stats) {
  stats.ran = true;
  stats.pointsIn = std::int32_t(tiles.size());
  const Layout& layout = context.map.layout();
  // The safe polyline: start, the route's point in every tile (the start and goal tiles' too),
  // hex portal points where needed, goal. Every segment of it keeps the radius: the any-angle
  // route's segments were probed; otherwise a point to its own tile's centre, and neighbouring
  // centres (the search never cuts corners).
  const bool routed = through.size() == tiles.size();
  // Scratch kept per thread: no allocation once warm.
  thread_local std::vector<Vec2> safe;
  thread_local std::vector<int> tileOf;  // index into `tiles` of route points, -1 for other points
  safe.assign(1, start);
  tileOf.assign(1, -1);
  for (std::size_t k = 0; k < tiles.size(); ++k) {
    if (routed) {
      safe.push_back(through[k]);
      tileOf.push_back(int(k));
      continue;
    }
    if (k > 0) {
      if (const auto portal = hexPortalPoint(context, tiles[k - 1], tiles[k])) {
        safe.push_back(*portal);
        tileOf.push_back(-1);
      }
    }
    safe.push_back(layout.tileCenter(tiles[k]));
    tileOf.push_back(int(k));
  }
  safe.push_back(goal);
  tileOf.push_back(-1);

  // Replace each inner tile's centre by where the line from the previous point toward the goal
  // leaves the tile, when that leads into the next tile and is clear and no worse.
  out.clear();
  out.push_back(start);
  const Point goalLocal = layout.toLocal(goal);
  for (std::size_t i = 1; i + 1 < safe.size(); ++i) {
    const int k = tileOf[i];
    Vec2 point = safe[i];
    if (settings.exitPoints && k > 0 && std::size_t(k) + 1 < tiles.size()) {
      const Cell before = tiles[std::size_t(k) - 1], here = tiles[std::size_t(k)], after = tiles[std::size_t(k) + 1];
      const Vec2 previous = out.back(), next = safe[i + 1];
      const auto exit = layout.segmentExit(here, layout.toLocal(previous), goalLocal);
      if (exit && layout.tileAtLocal(*exit + (goalLocal - *exit).normalized() * 1e-6) == after) {
        const Vec2 candidate = layout.toWorld(*exit);
        if (tileOf[i - 1] >= 0 && tileOf[i + 1] == k + 1 && context.openAround(before) && context.openAround(here) &&
            context.openAround(after)) {
          // The previous point is in (or on the edge of) the previous tile and `next` is the next
          // tile's centre, so all four segments lie in tiles of the cheapest cost with open
          // ground around them: clear, and cost is proportional to length.
          const double viaExit = double((candidate - previous).norm() + (next - candidate).norm());
          const double viaCentre = double((point - previous).norm() + (next - point).norm());
          if (detail::noWorse(viaExit, viaCentre)) point = candidate;
        } else {
          stats.probes += 2;
          const SegmentProbe in = context.probe(previous, candidate);
          const SegmentProbe on = in.clear ? context.probe(candidate, next) : SegmentProbe{};
          const detail::Leg viaExit{in.cost + on.cost, in.length + on.length};
          if (!in.clear || !on.clear) {
            // the centre stays
          } else if (detail::atCheapestCost(viaExit.cost, viaExit.length, context.lines.cheapestCost())) {
            const double viaCentre = double((point - previous).norm() + (next - point).norm());
            if (detail::noWorse(viaExit.length, viaCentre)) point = candidate;
          } else {
            stats.probes += 2;
            const SegmentProbe viaCentreIn = context.probe(previous, point);
            const SegmentProbe viaCentreOn = context.probe(point, next);
            const bool centreClear = viaCentreIn.clear && viaCentreOn.clear;
            const detail::Leg viaCentre{viaCentreIn.cost + viaCentreOn.cost, viaCentreIn.length + viaCentreOn.length};
            if (!centreClear || detail::noWorse(viaExit, viaCentre)) point = candidate;
          }
        }
      }
    }
    out.push_back(point);
  }
  out.push_back(goal);
  stats.pointsOut = std::int32_t(out.size());
}

}  // namespace rpgnav
