// SPDX-License-Identifier: MIT
// Stage 3: one control point per tile of the A* path.
#include "path/stages.hpp"

#include "path/comfort.hpp"
#include "path/legs.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

namespace rpgnav {
namespace {

using Point = Eigen::Vector2d;

// How much further than the radius a hex portal point keeps from the obstructed corner, in
// tiles: room for the rounding of the point to float (a few units in the last place of its
// coordinates) and a little more.
double portalMargin(const Eigen::Vector2d& local) { return 1e-4 + 4e-7 * local.cwiseAbs().maxCoeff(); }

// True when a corner of the tiles (layout space) is a place a wide character cannot pass close
// to: a blocked tile touches it, or a door that is a wall for this query ends there.
bool cornerObstructed(const StageContext& context, const Point& corner, Cell third) {
  if (!context.map.passable(third, context.mobility)) return true;
  const Layout& layout = context.map.layout();
  const double near = 1e-3;  // tiles; door ends are float copies of the same corners
  for (const Barrier& barrier : context.barriers) {
    if ((layout.toLocal(barrier.a) - corner).norm() < near || (layout.toLocal(barrier.b) - corner).norm() < near) {
      return true;
    }
  }
  return false;
}

// On hex maps the segment between two neighbouring centres crosses their shared edge at its
// middle, only half an edge (s = 0.289 tiles) from the edge's ends. When one end P is obstructed
// (a blocked tile or a closed door ends there) and the character is wider than that, the
// polyline crosses the edge at the point X that is just far enough towards the free end Q. With
// the middle at the origin, the edge along the first axis, a tile's centre h = 1/2 away from it
// and X = (x, 0), the segment from the centre to X passes P at h(x + s) / √(x² + h²), which must
// be at least the radius R: the least such x solves (h² − R²)x² + 2h²s·x + h²(s² − R²) = 0, and
// lies in [0, s) for every R under half a tile. Tiles and doors near Q are no closer (Q's third
// tile is open and no wall door ends at Q; everything else is at least half a tile from the
// segment). The search closes steps whose two ends are both obstructed (see
// SearchGridSettings::clearance and the gate rule), so one end is always free.
std::optional<Vec2> hexPortalPoint(const StageContext& context, Cell a, Cell b) {
  const Layout& layout = context.map.layout();
  if (!widerThanHalfHexEdge(layout, context.radius)) return std::nullopt;
  // From half a tile up (no root in [0, s) then) the search's fit rule needs both tiles beside
  // the step to fit the body and keeps closed doors at the radius: the centres' segment keeps it.
  if (widerThanHalfTile(layout, context.radius)) return std::nullopt;
  const auto moves = layout.moves(a);
  for (std::size_t i = 0; i < moves.size(); ++i) {
    if (Cell{a.x + moves[i].dx, a.y + moves[i].dy} != b) continue;
    const NeighbourStep& before = moves[(i + moves.size() - 1) % moves.size()];
    const NeighbourStep& after = moves[(i + 1) % moves.size()];
    const Cell beforeTile{a.x + before.dx, a.y + before.dy}, afterTile{a.x + after.dx, a.y + after.dy};
    // The ends of the edge a-b: the corners a and b share with each third tile.
    const Point beforeCorner = (layout.localCenter(a) + layout.localCenter(b) + layout.localCenter(beforeTile)) / 3.0;
    const Point afterCorner = (layout.localCenter(a) + layout.localCenter(b) + layout.localCenter(afterTile)) / 3.0;
    const bool beforeFree = !cornerObstructed(context, beforeCorner, beforeTile);
    const bool afterFree = !cornerObstructed(context, afterCorner, afterTile);
    if (beforeFree == afterFree) return std::nullopt;  // both free: fine; both obstructed: closed gap
    const Point middle = (layout.localCenter(a) + layout.localCenter(b)) * 0.5;
    const Point free = beforeFree ? beforeCorner : afterCorner;
    const double h = 0.5, s = double(kHexHalfEdge);
    const double R = double(context.radius) / double(layout.tileSize()) + portalMargin(middle);
    const double quadratic = h * h - R * R, linear = 2.0 * h * h * s, constant = h * h * (s * s - R * R);
    const double x = (-linear + std::sqrt(linear * linear - 4.0 * quadratic * constant)) / (2.0 * quadratic);
    return layout.toWorld(middle + (free - middle) * std::min(x / s, 0.99));
  }
  return std::nullopt;
}

// A point of the safe polyline (see controlPointStage).
struct Anchor {
  Vec2 point;
  int tile;  // index into the tile path, or -1 (start, goal, portal)
};

// The stage's scratch (see StageScratch): no allocation once warm.
struct Buffers : detail::ScratchSlot {
  std::vector<Anchor> safe;
  std::vector<Vec2> vertices;
};

// Replaces each inner tile's point of `safe` by where the line from the previous point toward
// the goal leaves the tile, when that leads into the next tile and is clear and no worse, into
// `out`. Every point kept or chosen is clear to the next point of `safe`, so when `safe` is
// clear, so is `out`, and it costs no more.
void exitPoints(const StageContext& context, bool enabled, const std::vector<Cell>& tiles,
                const std::vector<Anchor>& safe, std::vector<Vec2>& out, StageStats& stats) {
  const Layout& layout = context.map.layout();
  const detail::Comfort comfort(context, safe.front().point, safe.back().point);
  // True when previous → via → next keeps the full comfort from walls.
  auto comfortable = [&](Vec2 previous, Vec2 via, Vec2 next) {
    return comfort.probe(previous, via, 0, stats.probes).clear && comfort.probe(via, next, 0, stats.probes).clear;
  };
  out.clear();
  out.push_back(safe.front().point);
  const Point goalLocal = layout.toLocal(safe.back().point);
  for (std::size_t i = 1; i + 1 < safe.size(); ++i) {
    const int k = safe[i].tile;
    Vec2 point = safe[i].point;
    if (enabled && k > 0 && std::size_t(k) + 1 < tiles.size()) {
      const Cell before = tiles[std::size_t(k) - 1], here = tiles[std::size_t(k)], after = tiles[std::size_t(k) + 1];
      const Vec2 previous = out.back(), next = safe[i + 1].point;
      const auto exit = layout.segmentExit(here, layout.toLocal(previous), goalLocal);
      if (exit && layout.tileAtLocal(*exit + (goalLocal - *exit).normalized() * 1e-6) == after) {
        const Vec2 candidate = layout.toWorld(*exit);
        if (safe[i - 1].tile == k - 1 && safe[i + 1].tile == k + 1 && context.openAround(before) &&
            context.openAround(here) && context.openAround(after)) {
          // The previous point is in (or on the edge of) the previous tile and `next` is in the
          // next tile, so all four segments lie in tiles of the cheapest cost with open ground
          // around them: clear, and cost is proportional to length.
          const double viaExit = double((candidate - previous).norm() + (next - candidate).norm());
          const double viaCentre = double((point - previous).norm() + (next - point).norm());
          if (detail::noWorse(viaExit, viaCentre)) point = candidate;
        } else {
          // With comfort the exit's way must keep it, unless the route point's way does not
          // either: then, as without comfort, the radius. (Later stages pull the path tight at the
          // comfort, or judge it not worth its length: see corner routing.)
          SegmentProbe in, on;
          if (comfort.active()) {
            const detail::Comfort::Judged inJudged = comfort.judge(previous, candidate, 0, stats.probes);
            const detail::Comfort::Judged onJudged =
                inJudged.probe.clear ? comfort.judge(candidate, next, 0, stats.probes) : detail::Comfort::Judged{};
            in = inJudged.probe;
            on = onJudged.probe;
            if (!(inJudged.comfortable && onJudged.comfortable) && comfortable(previous, point, next)) in.clear = false;
          } else {
            stats.probes += 2;
            in = context.probe(previous, candidate);
            on = in.clear ? context.probe(candidate, next) : SegmentProbe{};
          }
          const detail::Leg viaExit{in.cost + on.cost, in.length + on.length};
          if (!in.clear || !on.clear) {
            // the route's point stays
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
  out.push_back(safe.back().point);
}

}  // namespace

void controlPointStage(const StageContext& context, const ControlPointSettings& settings,
                       const std::vector<Cell>& tiles, std::span<const Vec2> through, std::span<const Vec2> route,
                       std::span<const std::int32_t> routeTiles, Vec2 start, Vec2 goal, std::vector<Vec2>& out,
                       StageStats& stats, std::vector<Vec2>* safeOut) {
  stats.ran = true;
  stats.pointsIn = std::int32_t(tiles.size());
  const Layout& layout = context.map.layout();
  // The safe polyline: start, the search route's point in every tile, goal. After the tile
  // search these are the tiles' centres (the start and goal tiles' too) and hex portal points
  // where needed: a point to its own tile's centre, and neighbouring centres, keep the radius
  // (the search never cuts corners and closes gaps too narrow), so it is clear by construction.
  StageScratch fallback;
  Buffers& buffers = context.buffers<Buffers>(detail::ScratchUse::ControlPoints, fallback);
  std::vector<Anchor>& safe = buffers.safe;
  safe.assign(1, {start, -1});
  const bool routed = !route.empty();
  if (routed) {
    // After the any-angle search: the route's point in each tile (a door stop cut the tiles
    // short). These are rounded to float off the route's segments, so the result is checked below.
    for (std::size_t k = 0; k < tiles.size(); ++k) safe.push_back({through[k], int(k)});
  } else {
    for (std::size_t k = 0; k < tiles.size(); ++k) {
      if (k > 0) {
        if (const auto portal = hexPortalPoint(context, tiles[k - 1], tiles[k])) safe.push_back({*portal, -1});
      }
      safe.push_back({layout.tileCenter(tiles[k]), int(k)});
    }
  }
  safe.push_back({goal, -1});
  exitPoints(context, settings.exitPoints, tiles, safe, out, stats);
  if (!routed) {
    if (safeOut != nullptr) {
      safeOut->clear();
      for (const Anchor& anchor : safe) safeOut->push_back(anchor.point);
    }
    stats.pointsOut = std::int32_t(out.size());
    return;
  }
  // A route point rounded off a segment of the route can kink it into a corner the route grazes,
  // or off an edge the route runs along onto dearer terrain. Then the route's own vertices serve,
  // whose segments the search probed on exactly these float points, and the tiles between them
  // get no point of their own. (The any-angle search costs far more than these probes.)
  std::size_t routeEnd = 1;
  while (routeEnd + 1 < route.size() && std::size_t(routeTiles[routeEnd]) < tiles.size()) ++routeEnd;
  const auto measured = measurePolyline(context, out, stats.probes);
  std::vector<Vec2>& vertices = buffers.vertices;
  vertices.assign(route.begin(), route.begin() + std::ptrdiff_t(routeEnd));
  vertices.push_back(goal);
  const auto routeMeasured = measurePolyline(context, vertices, stats.probes);
  if (!measured || (routeMeasured && !detail::noWorse(detail::Leg{measured->first, measured->second},
                                                      detail::Leg{routeMeasured->first, routeMeasured->second}))) {
    safe.assign(1, {start, -1});
    for (std::size_t v = 1; v < routeEnd; ++v) safe.push_back({route[v], routeTiles[v]});
    safe.push_back({goal, -1});
    exitPoints(context, settings.exitPoints, tiles, safe, out, stats);
  }
  if (safeOut != nullptr) *safeOut = vertices;
  stats.pointsOut = std::int32_t(out.size());
}

}  // namespace rpgnav
