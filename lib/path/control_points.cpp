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

using detail::cross;

// How much further than the radius a hex portal point keeps from the obstructed corner, in
// tiles: room for the rounding of the point to float (a few units in the last place of its
// coordinates) and a little more.
double portalMargin(const Eigen::Vector2d& local) { return 1e-4 + 4e-7 * local.cwiseAbs().maxCoeff(); }

// How far the hex corridor keeps an edge's end from a corner where the third tile is dearer, in
// tiles: two such ends' segment runs parallel to that tile's edge, √3/2 of this away, and must
// stay well outside the band pricing counts as running along the edge (costTolerance: 5·10⁻⁷ ×
// the layout coordinates' magnitude) after the point is rounded to float in world coordinates
// (1.2·10⁻⁷ × their magnitude in tiles: far from the origin, or with the origin far away).
double dearerMargin(const Layout& layout, const Eigen::Vector2d& local) {
  const Vec2 world = layout.toWorld(local);
  const double worldTiles = double(world.cwiseAbs().maxCoeff()) / double(layout.tileSize());
  return 1e-4 + 4.0 * (5e-7 * std::max(1.0, local.cwiseAbs().maxCoeff()) + 1.2e-7 * worldTiles);
}

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

// An end of the edge between two neighbouring hex tiles: the corner (layout space) and the third
// tile that meets them there.
struct EdgeEnd {
  Point corner;
  Cell third;
};

// A hex tile with its axial coordinates and centre (layout space), worked out once: the corridor
// asks for two edges of every tile of a path.
struct HexTile {
  Axial axial;
  Point centre;
};
HexTile hexTile(const Layout& layout, Cell cell) { return {layout.toAxial(cell), layout.localCenter(cell)}; }

// The ends of the edge between neighbouring hex tiles a and b (left, then right of a→b, layout
// space), from the tiles' centres and axial coordinates rather than a neighbour-table walk (the
// corridor asks for every step of a path; Layout::localSharedEdge matches corners and names no
// third tile): the edge is centred on the tiles' middle, perpendicular to a→b and 1/√3 long, and
// the third tile at each end is a's neighbour a sixth of a turn from b. Turning the axial step
// (q, r) to (-r, q + r) turns it left in layout space on both hex layouts and either stagger
// (axial to layout coordinates is linear with a positive determinant; the stagger only offsets
// the cells). Nothing when a and b are not neighbours.
std::optional<std::array<EdgeEnd, 2>> hexEdgeEnds(const Layout& layout, const HexTile& a, const HexTile& b) {
  const Axial pa = a.axial, pb = b.axial;
  const Axial step{pb.q - pa.q, pb.r - pa.r};
  if (std::max({std::abs(step.q), std::abs(step.r), std::abs(step.q + step.r)}) != 1) return std::nullopt;
  const Point& ca = a.centre;
  const Point& cb = b.centre;
  const Point middle = 0.5 * (ca + cb), d = cb - ca;
  const Point half = Point(-d.y(), d.x()) * (0.5 / std::sqrt(3.0));  // towards the left end
  const Cell left = layout.fromAxial({pa.q - step.r, pa.r + step.q + step.r});
  const Cell right = layout.fromAxial({pa.q + step.q + step.r, pa.r - step.q});
  return std::array<EdgeEnd, 2>{EdgeEnd{middle + half, left}, EdgeEnd{middle - half, right}};
}
std::optional<std::array<EdgeEnd, 2>> hexEdgeEnds(const Layout& layout, Cell a, Cell b) {
  return hexEdgeEnds(layout, hexTile(layout, a), hexTile(layout, b));
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
  const auto ends = hexEdgeEnds(layout, a, b);
  if (!ends) return std::nullopt;
  const bool firstFree = !cornerObstructed(context, (*ends)[0].corner, (*ends)[0].third);
  const bool secondFree = !cornerObstructed(context, (*ends)[1].corner, (*ends)[1].third);
  if (firstFree == secondFree) return std::nullopt;  // both free: fine; both obstructed: closed gap
  const Point middle = (layout.localCenter(a) + layout.localCenter(b)) * 0.5;
  const Point free = firstFree ? (*ends)[0].corner : (*ends)[1].corner;
  const double h = 0.5, s = double(kHexHalfEdge);
  const double R = double(context.radius) / double(layout.tileSize()) + portalMargin(middle);
  const double quadratic = h * h - R * R, linear = 2.0 * h * h * s, constant = h * h * (s * s - R * R);
  const double x = (-linear + std::sqrt(linear * linear - 4.0 * quadratic * constant)) / (2.0 * quadratic);
  return layout.toWorld(middle + (free - middle) * std::min(x / s, 0.99));
}

// How much further than the comfort's clearance (tiles) the corridor's way keeps from the walls'
// corners it bends round. A wall of hexes is jagged: a way pulled exactly to the clearance bends
// at every tooth, and no straight segment over several teeth keeps the clearance, so stage 4 can
// merge none of them. With the slack it merges the teeth of a straight wall, and stage 5 pulls
// the path tight at the clearance where it turns. (0.1 left two to three times the probes in
// stages 5 and 6 on dao/brc202d as a flat hex map; 0.3 no fewer than 0.2.)
constexpr double kCorridorSlack = 0.2;

// The corridor of a hex tile path (see corridorPoints): the edge each step crosses (its
// "portal"), with its ends as the path may pass them.
struct Portal {
  Point left, right;      // layout space; left of the step from the earlier tile to the later one
  std::int32_t tile = 0;  // index of the later tile in the tile path
};

// A portal from the ends of its edge between two tiles of `cost`, each end narrowed: away from an
// obstructed corner (a wall tile or a wall door ends there) by `inset` (tiles), at most to just
// short of the other end; away from a corner where the third tile costs more by `dearer` (see
// dearerMargin), so that no segment between portal points runs along or touches dearer ground. A
// corner's nearest point on the edge at distance d from it is d away from the third tile's
// hexagon (their edges meet at 120°).
Portal narrowedPortal(const StageContext& context, const EdgeEnd& leftEnd, const EdgeEnd& rightEnd, double cost,
                      double inset, double dearer) {
  auto narrowing = [&](const EdgeEnd& end) {
    if (cornerObstructed(context, end.corner, end.third)) return inset;
    return double(context.map.cost(end.third, context.mobility)) > cost ? dearer : 0.0;
  };
  const Point left = leftEnd.corner, right = rightEnd.corner;
  const double width = 1.0 / std::sqrt(3.0);  // a hex edge, in tiles
  // Never quite to the other end's corner.
  const double leftInset = std::min(narrowing(leftEnd), width - 1e-3);
  const double rightInset = std::min(narrowing(rightEnd), width - 1e-3);
  if (leftInset == 0.0 && rightInset == 0.0) return Portal{left, right, 0};
  const Point unit = (right - left) / width;
  if (leftInset + rightInset >= width) {
    // No room for both: the point that shares the want of room between the ends in proportion
    // (the middle between two walls; beside dearer ground, as far from a wall as it allows).
    const Point point = left + unit * (width * leftInset / (leftInset + rightInset));
    return Portal{point, point, 0};
  }
  return Portal{left + unit * leftInset, right - unit * rightInset, 0};
}

// The shortest polyline from `start` to `goal` that crosses every portal in order ("string
// pulling" through the corridor: the simple stupid funnel of Mononen, after Lee & Preparata): it
// bends only at portal ends. Appends its inner points to `out`, each with the tile index of the
// portal it bends on, to `tilesOut`.
void pullThroughPortals(const Point& start, const Point& goal, std::span<const Portal> portals, std::vector<Point>& out,
                        std::vector<std::int32_t>& tilesOut) {
  // The funnel: rays from the apex through its left and right sides, narrowed portal by portal.
  // When a new side crosses the other, the other side's point is a bend and the next apex.
  Point apex = start, left = start, right = start;
  std::size_t apexAt = 0, leftAt = 0, rightAt = 0;  // 1 + the portal index (0: the start)
  const std::size_t count = portals.size() + 1;     // the goal as a last portal of width 0
  // Consecutive portals may share an end (the corridor turns round it): a bend there is kept
  // once, with the later portal's tile.
  const std::size_t first = out.size();
  auto bend = [&](const Point& point, std::size_t at) {
    if (at == count) return;  // the goal itself: the way ends there
    if (point == start || (out.size() > first && out.back() == point)) {
      if (out.size() > first) tilesOut.back() = portals[at - 1].tile;
      return;
    }
    out.push_back(point);
    tilesOut.push_back(portals[at - 1].tile);
  };
  // A bend at a side's point: the funnel starts afresh from there.
  auto restart = [&](Point point, std::size_t at) {
    apex = left = right = point;
    apexAt = leftAt = rightAt = at;
    bend(point, at);
  };
  for (std::size_t i = 1; i <= count; ++i) {
    const Point newLeft = i < count ? portals[i - 1].left : goal;
    const Point newRight = i < count ? portals[i - 1].right : goal;
    // The right side narrows when the new right point is not right of it.
    if (cross(right - apex, newRight - apex) >= 0.0) {
      if (apex == right || cross(left - apex, newRight - apex) < 0.0) {
        right = newRight;
        rightAt = i;
      } else {  // crosses the left side: bend at its point
        restart(left, leftAt);
        i = apexAt;
        continue;
      }
    }
    if (cross(left - apex, newLeft - apex) <= 0.0) {
      if (apex == left || cross(right - apex, newLeft - apex) > 0.0) {
        left = newLeft;
        leftAt = i;
      } else {  // crosses the right side
        restart(right, rightAt);
        i = apexAt;
        continue;
      }
    }
  }
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
  std::vector<Portal> portals;
  std::vector<std::int32_t> walled;
  std::vector<Point> bends;
  std::vector<std::int32_t> bendTiles;
};

// Stage 3 on hex maps, for characters under half a hex edge in radius on a path of tiles of one
// cost: the shortest way through the corridor of the path's tiles (bending at edge ends narrowed
// by the comfort's clearance and kCorridorSlack), instead of a point in every tile. A zig-zag of
// tiles along a wall becomes a few segments, so stage 4 starts from the path's turns rather than
// from a point per tile. (Square maps keep exit points: an 8-way diagonal step's tiles share only
// a corner, a corridor of no width there, and the jump point search's routes already run in
// straight lines that stage 4's collinear drop reduces to their turns.) The way lies in the path's tiles and is no longer than the centres'
// polyline, so no dearer. A segment that could come nearer a wall than the radius, or meets a
// door, is probed, and one that is not clear at the tiles' cost is replaced by the tiles'
// centres it spans. False (`out` unspecified) when that does not give a clear polyline no longer
// than the centres'.
bool corridorPoints(const StageContext& context, const std::vector<Cell>& tiles, const std::vector<Anchor>& safe,
                    Buffers& buffers, std::vector<Vec2>& out, StageStats& stats) {
  const Layout& layout = context.map.layout();
  if (!layout.isHex() || tiles.size() < 2 || widerThanHalfHexEdge(layout, context.radius) ||
      safe.size() != tiles.size() + 2) {
    return false;
  }
  // Paths over tiles of one cost only: where costs change, the exit points toward the goal find
  // where to cross (on the wilderness sample, corridors crossing each change at its middle made
  // paths 0.9% cheaper but stages 4-6 10% slower).
  const double cost = double(context.map.cost(tiles.front(), context.mobility));
  for (const Cell& cell : tiles) {
    if (double(context.map.cost(cell, context.mobility)) != cost) return false;
  }
  const detail::Comfort comfort(context, safe.front().point, safe.back().point);
  const double tile = double(layout.tileSize());
  std::vector<Portal>& portals = buffers.portals;
  portals.clear();
  HexTile before = hexTile(layout, tiles.front());
  for (std::size_t k = 1; k < tiles.size(); ++k) {
    const HexTile after = hexTile(layout, tiles[k]);
    const auto ends = hexEdgeEnds(layout, before, after);
    if (!ends) return false;
    const Point& centre = after.centre;
    before = after;
    const double margin = portalMargin(centre);
    Portal portal = narrowedPortal(context, (*ends)[0], (*ends)[1], cost,
                                   double(comfort.clearance(0)) / tile + kCorridorSlack + margin,
                                   dearerMargin(layout, centre));
    portal.tile = std::int32_t(k);
    portals.push_back(portal);
  }
  std::vector<Point>& bends = buffers.bends;
  std::vector<std::int32_t>& bendTiles = buffers.bendTiles;
  bends.clear();
  bendTiles.clear();
  const Vec2 start = safe.front().point, goal = safe.back().point;
  pullThroughPortals(layout.toLocal(start), layout.toLocal(goal), portals, bends, bendTiles);
  bendTiles.push_back(std::int32_t(tiles.size()));  // the goal: after every tile's centre
  // The polyline lies in the path's tiles (between two portals in the tile they bound, which is
  // convex), so a segment is clear at its tiles' cost when it meets no door and keeps the radius
  // from walls: at radius 0 always; else when no tile it crosses has a wall (or the map's edge)
  // beside it, since a tile's neighbours keep every point of it 1/√3 tiles from the tiles beyond
  // them, more than any radius here. Only the other segments are probed.
  const bool inside = context.map.tileAt(start) == tiles.front() && context.map.tileAt(goal) == tiles.back();
  std::vector<std::int32_t>& walled = buffers.walled;  // tiles with a wall beside them, up to each tile
  walled.assign(tiles.size() + 1, 0);
  if (context.radius > 0.0f) {
    for (std::size_t k = 0; k < tiles.size(); ++k) {
      bool wall = false;
      for (const NeighbourStep& step : layout.moves(tiles[k])) {
        wall = wall || !context.map.passable({tiles[k].x + step.dx, tiles[k].y + step.dy}, context.mobility);
      }
      walled[k + 1] = walled[k] + (wall ? 1 : 0);
    }
  }
  out.assign(1, start);
  std::int32_t fromTile = 0;  // the first tile whose centre lies after out.back() along the path
  double length = 0.0;
  for (std::size_t j = 0; j < bendTiles.size(); ++j) {
    const Vec2 from = out.back(), to = j + 1 < bendTiles.size() ? layout.toWorld(bends[j]) : goal;
    // The piece from here to `to` runs in the tiles from fromTile - 1 (when it starts on an edge)
    // to toTile.
    const std::int32_t last = std::int32_t(tiles.size()) - 1;
    const std::int32_t low = std::max(fromTile - 1, 0), high = std::min(bendTiles[j], last);
    if (inside && walled[std::size_t(high) + 1] == walled[std::size_t(low)] && !context.blockedByBarrier(from, to)) {
      length += double((to - from).norm());
      out.push_back(to);
      fromTile = bendTiles[j];
      continue;
    }
    auto clearAtCost = [&](Vec2 a, Vec2 b) {
      ++stats.probes;
      const SegmentProbe probe = context.probe(a, b);
      if (!probe.clear || !detail::atCheapestCost(probe.cost, probe.length, cost)) return false;
      length += double((b - a).norm());
      return true;
    };
    if (!clearAtCost(from, to)) {
      // The centres of the tiles between: neighbouring centres keep the radius by construction
      // (see controlPointStage); the pieces to and from the bends are probed.
      const std::int32_t toTile = bendTiles[j];
      if (toTile <= fromTile) return false;
      Vec2 at = from;
      for (std::int32_t k = fromTile; k < toTile; ++k) {
        const Vec2 centre = safe[std::size_t(k) + 1].point;
        if (k == fromTile) {
          if (!clearAtCost(at, centre)) return false;
        } else {
          length += double((centre - at).norm());
        }
        out.push_back(centre);
        at = centre;
      }
      if (!clearAtCost(at, to)) return false;
    }
    out.push_back(to);
    fromTile = bendTiles[j];
  }
  double centres = 0.0;
  for (std::size_t i = 1; i < safe.size(); ++i) centres += double((safe[i].point - safe[i - 1].point).norm());
  return detail::noWorse(length, centres);
}

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
  if (routed || !settings.exitPoints || !corridorPoints(context, tiles, safe, buffers, out, stats)) {
    exitPoints(context, settings.exitPoints, tiles, safe, out, stats);
  }
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
