// SPDX-License-Identifier: MIT
// A search's start: the request checked, the goal (or, for an unreachable one, the nearest
// reachable tiles) chosen, and the first nodes of the tile search, the flood or the exact
// any-angle search made. The loop that follows is in search_context.cpp.
#include "search/search_context.hpp"

#include "core/distances.hpp"
#include "search/open_list.hpp"
#include "search/search_units.hpp"

#include <algorithm>
#include <cmath>

namespace rpgnav {
namespace {

// The tiles `usable` accepts whose centres are nearest to `target` (layout space), equally near
// ones all (within a relative 1e-9, so that mirror images tie despite rounding), in row-major
// order, into `nearest` (empty when there is none). Scans rings of growing offset distance round
// `from` (a tile near the target) and stops once no further ring can hold a nearer centre.
template <class Usable>
void nearestUsable(const SearchGrid& grid, Cell from, const Eigen::Vector2d& target, Usable usable, std::vector<Cell>& nearest) {
  const Layout& layout = grid.layout();
  // A tile r rings away (Chebyshev in offset coordinates) has its centre at least this far from
  // `from`'s per ring: squares exactly 1; hexes at least 1/2 (rows are √3/2 apart, odd rows
  // shifted 1/2); so at least that less the target's distance from `from`'s centre from the target.
  const double perRing = layout.isHex() ? 0.5 : 1.0;
  const double offset = (layout.localCenter(from) - target).norm();
  constexpr double kTie = 1.0 + 1e-9;
  nearest.clear();
  double bestDistance = std::numeric_limits<double>::infinity();
  // Rings beyond the farthest map border hold no tiles; each ring is clipped to the map, so the
  // scan costs at most the area up to the answer.
  const std::int32_t maxRing = std::max({from.x, grid.width() - 1 - from.x, from.y, grid.height() - 1 - from.y});
  auto consider = [&](Cell c) {
    const double d = (layout.localCenter(c) - target).squaredNorm();
    if (d > bestDistance * kTie || !usable(c)) return;
    if (d * kTie < bestDistance) nearest.clear();
    if (nearest.empty() || d < bestDistance) bestDistance = d;
    nearest.push_back(c);
  };
  for (std::int32_t r = 0; r <= maxRing; ++r) {
    const double lower = perRing * r - offset;
    if (lower > 0.0 && lower * lower > bestDistance * kTie) break;
    const std::int32_t y0 = std::max(from.y - r, 0), y1 = std::min(from.y + r, grid.height() - 1);
    for (std::int32_t y = y0; y <= y1; ++y) {
      if (y == from.y - r || y == from.y + r) {
        const std::int32_t x0 = std::max(from.x - r, 0), x1 = std::min(from.x + r, grid.width() - 1);
        for (std::int32_t x = x0; x <= x1; ++x) consider({x, y});
      } else {
        if (from.x - r >= 0) consider({from.x - r, y});
        if (from.x + r < grid.width()) consider({from.x + r, y});
      }
    }
  }
  // A nearer tile found later drops only the ones beyond the tolerance of it: drop the rest.
  std::erase_if(nearest, [&](Cell c) { return (layout.localCenter(c) - target).squaredNorm() > bestDistance * kTie; });
  std::sort(nearest.begin(), nearest.end());  // (Cell orders row-major)
}

}  // namespace

Status SearchContext::findPath(const SearchGrid& grid, const SearchRequest& request, SearchResult& out) {
  m_suspended = false;
  m_exactSearch = false;
  m_expanded = 0;
  m_generated = 0;
  out.through.clear();
  out.vertexTiles.clear();
  out.vertices.clear();
  out.costUnits = 0;
  out.cost = 0.0;
  out.length = 0.0;
  out.reached = request.start;
  if (!grid.contains(request.start)) {
    finish(Status::OutOfBounds, "start tile outside the map", out);
    return out.status;
  }
  if (!grid.contains(request.goal)) {
    finish(Status::OutOfBounds, "goal tile outside the map", out);
    return out.status;
  }
  if (!grid.passable(request.start)) {
    finish(Status::StartBlocked, "start tile cannot be entered by this mobility", out);
    return out.status;
  }
  m_sight = request.sightLines;
  m_gates = grid.gateCount() > 0 ? request.gates : nullptr;
  m_fit = nullptr;
  if (request.clearance != nullptr) {
    const Clearance& clearance = *request.clearance;
    if (clearance.width() != grid.width() || clearance.height() != grid.height() ||
        clearance.scale() != (grid.layout().isHex() ? 12 : 4) || clearance.mobility() != grid.mobility()) {
      finish(Status::InvalidArgument, "the clearance is for another map or mobility", out);
      return out.status;
    }
    if (!std::isfinite(request.bodyTiles) || request.bodyTiles < 0.0 || request.bodyTiles > 3.0) {
      finish(Status::InvalidArgument, "body radius must lie in [0, 3] tiles", out);
      return out.status;
    }
    if (m_sight != nullptr) {
      finish(Status::InvalidArgument, "a clearance search takes no sight lines", out);
      return out.status;
    }
    if (request.bodyTiles > 0.0) {
      m_fit = &clearance;
      m_fitCodes = clearance.paddedCodes();
      m_fitCode = clearance.codeFor(request.bodyTiles);
      m_fitRadius = request.bodyTiles;
      if (!fits(request.start)) {
        finish(Status::StartBlocked, "the character is too wide for its start tile", out);
        return out.status;
      }
      if (grid.passable(request.goal) && !fits(request.goal) && !request.nearestIfUnreachable) {
        finish(Status::GoalBlocked, "the character is too wide for the goal tile", out);
        return out.status;
      }
    }
  }
  if (m_sight != nullptr) {
    const Layout& layout = grid.layout();
    if (m_sight->mapVersion() != grid.mapVersion() || m_sight->mobility() != grid.mobility()) {
      finish(Status::InvalidArgument, "the sight-line tester is for another map version or mobility", out);
      return out.status;
    }
    if (!std::isfinite(request.radius) || request.radius < 0.0f) {
      finish(Status::InvalidArgument, "radius must be finite and at least 0", out);
      return out.status;
    }
    if (widerThanHalfHexEdge(layout, request.radius)) {
      // The segment between two hex neighbours' centres passes only half an edge from the ends
      // of their shared edge: for such characters the route's plain neighbour steps would not
      // be clear where an end touches a blocked tile.
      finish(Status::InvalidArgument, "any-angle search on hexes needs a radius under half a hex edge", out);
      return out.status;
    }
    auto inside = [&](const std::optional<Vec2>& point, Cell cell) {
      return !point || (std::isfinite(point->x()) && std::isfinite(point->y()) && layout.tileAt(*point) == cell);
    };
    if (!inside(request.startPoint, request.start) || !inside(request.goalPoint, request.goal)) {
      finish(Status::InvalidArgument, "start or goal point is not inside its tile", out);
      return out.status;
    }
    m_radius = request.radius;
    m_startPoint = request.startPoint.value_or(layout.tileCenter(request.start));
    m_goalPoint = request.goalPoint.value_or(layout.tileCenter(request.goal));
    // Costs count from the start point: the start tile's centre is one piece away, and the goal
    // point one piece beyond the goal tile's centre (unless a straight line reaches it).
    const SegmentProbe startPiece = m_sight->probe(m_startPoint, layout.tileCenter(request.start), m_radius);
    // (A blocked goal tile is answered below; its piece does not matter.)
    const SegmentProbe goalPiece = m_sight->probe(layout.tileCenter(request.goal), m_goalPoint, m_radius);
    if (!startPiece.clear) {
      finish(Status::StartBlocked, "start point is closer than the radius to a blocked tile", out);
      return out.status;
    }
    if (!goalPiece.clear && grid.passable(request.goal)) {
      finish(Status::GoalBlocked, "goal point is closer than the radius to a blocked tile", out);
      return out.status;
    }
    m_startPieceUnits = detail::toCostUnits(startPiece.cost, layout);
    m_goalPieceUnits = detail::toCostUnits(goalPiece.cost, layout);
    m_goalDirect = false;
  } else {
    m_startPieceUnits = 0;
  }
  Cell goal = request.goal;
  m_partial = false;
  m_nearest = request.nearestIfUnreachable;
  m_flooding = false;
  m_goalSet.clear();
  m_tilePath = request.tilePath;
  m_jumpRequest = request.jumpPoints;
  const std::uint32_t region = grid.regions().regionOf(request.start);
  auto usable = [&](Cell c) {
    return grid.passable(c) && grid.regions().regionOf(c) == region && (m_fit == nullptr || fits(c));
  };
  if (m_nearest) {
    m_nearestTarget = request.nearestTo ? grid.layout().toLocal(*request.nearestTo) : grid.layout().localCenter(goal);
    if (!std::isfinite(m_nearestTarget.x()) || !std::isfinite(m_nearestTarget.y())) {
      finish(Status::InvalidArgument, "the point to find the nearest reachable tile to is not finite", out);
      return out.status;
    }
  }
  if (!usable(goal)) {
    if (!m_nearest) {
      if (!grid.passable(goal)) {
        finish(Status::GoalBlocked, "goal tile cannot be entered by this mobility", out);
      } else {
        finish(Status::NoPath, "goal lies in another region than the start", out);
      }
      return out.status;
    }
    m_partial = true;
    std::vector<Cell>& nearest = m_chain;  // (scratch until buildPath)
    nearestUsable(grid, goal, m_nearestTarget, usable, nearest);
    if (nearest.empty()) {  // (the start itself is usable unless the body does not fit there: refused above)
      finish(Status::NoPath, "no tile the character can reach", out);
      return out.status;
    }
    goal = nearest.front();
    if (nearest.size() > 1) {
      // Several equally near: a tile search to all of them at once.
      for (const Cell c : nearest) m_goalSet.push_back(grid.padded(c));
      std::sort(m_goalSet.begin(), m_goalSet.end());
      m_sight = nullptr;
      m_startPieceUnits = 0;
    }
  }

  if (m_partial && m_sight != nullptr) {
    // A goal replaced by the nearest reachable tile is reached at that tile's centre.
    m_goalPoint = grid.layout().tileCenter(goal);
    m_goalPieceUnits = 0;
  }
  if (request.exactAnyAngle && m_goalSet.empty()) {
    const Layout& layout = grid.layout();
    if (m_sight == nullptr || layout.kind() != LayoutKind::Square || layout.connectivity() != 8 ||
        !grid.uniformCost() || grid.gateCount() > 0 || m_fit != nullptr) {
      finish(Status::InvalidArgument,
             "the exact any-angle search needs sight lines, an 8-way square map of one cost, no gates and no clearance",
             out);
      return out.status;
    }
    m_grid = &grid;
    m_start = grid.padded(request.start);
    m_goalCell = goal;
    m_exactSearch = true;
    m_exactRequest = request;
    const SearchLimit limit{request.maxExpansions, request.deadline};
    return finishExact(m_exact.findPath(grid, m_sight->cheapLines(false), layout.toLocal(m_startPoint),
                                        layout.toLocal(m_goalPoint), limit, request.start, goal),
                       limit, out);
  }
  m_goal = m_goalSet.empty() ? grid.padded(goal) : -1;
  m_goalCell = goal;
  startTileSearch(grid, request.start);
  return run(SearchLimit{request.maxExpansions, request.deadline}, out);
}

void SearchContext::startTileSearch(const SearchGrid& grid, Cell start) {
  m_grid = &grid;
  reserveTiles();  // (a context made without it, or moved from)
  // The compact table is emptied of the last search's slots; a new generation makes every node
  // in the array unseen.
  for (const std::uint16_t slot : m_compactFilled) m_compactKeys[slot] = 0;
  m_compactFilled.clear();
  m_inArray = false;
  if (m_generation + 1 == kGenerationLimit) {  // about to wrap: old stamps could alias
    m_nodes.reset(m_nodes.size());  // fresh zero pages: nothing to clear (may throw: then no wrap)
    m_generation = 0;
  }
  ++m_generation;
  clearOpen();
  m_start = grid.padded(start);
  const Cell goal = m_goalCell;
  m_goalX = goal.x + 1;
  m_goalY = goal.y + 1;
  // Jump points prune by the 8-way metric's symmetries, which any-angle costs do not have: with
  // them the route could only turn at jump points and often keeps the octile's wrong side.
  // A wide body keeps its radius from walls among the gates too, which the fitted jumps do not
  // look at: on a grid with gates it is searched tile by tile. A goal set and the flood are
  // searched tile by tile too: jumps stop only at the one goal.
  const bool oneGoal = m_goal >= 0;
  m_jumpPoints = oneGoal && m_jumpRequest && m_sight == nullptr && grid.layout().kind() == LayoutKind::Square &&
                 grid.layout().connectivity() == 8 && !(m_fit != nullptr && m_gates != nullptr);
  m_plainJumps = m_jumpPoints && m_fit == nullptr && grid.uniformCost() && grid.gateCount() == 0;
  // Hex jump points: for bodies that need no fitting nor gap rule (elsewhere on hexes every tile
  // is expanded). Runs cross uniform tiles only; tiles where costs change and tiles at gates are
  // expanded in full (all six runs, or step by step at gates).
  m_hexJumps = oneGoal && m_jumpRequest && m_sight == nullptr && grid.layout().isHex() && m_fit == nullptr &&
               !grid.closesNarrowGaps();
  if (grid.layout().isHex()) m_goalAxial = grid.layout().toAxial(goal);
  m_octile = m_sight == nullptr && grid.layout().kind() == LayoutKind::Square && grid.layout().connectivity() == 8;
  {
    // (The grid's least step costs are over every terrain of the table, not only the map's.)
    const std::uint8_t only = grid.classes()[m_start];
    m_plainStraightCost = grid.stepCost(only, only, false);
    m_plainDiagonalCost = grid.stepCost(only, only, true);
  }
  m_minStraightCost = grid.minStraightCost();
  m_minDiagonalCost = grid.minDiagonalCost();
  // Jump points on a map of one cost touch a few scattered tiles; other searches touch whole
  // areas, which the array holds better than the table from the start.
  if (!(m_jumpPoints && grid.uniformCost())) moveToArray();
  Node& startNode = node(m_start);
  startNode = Node{m_startPieceUnits, -1, m_generation << 4};
  m_landmarkCount = oneGoal && grid.landmarksUsable() ? grid.landmarkCount() : 0;
  if (m_landmarkCount > 0) {
    const std::uint32_t* goalDistances = grid.landmarkDistances(m_goal);
    std::copy(goalDistances, goalDistances + m_landmarkCount, m_goalLandmarks.begin());
  }
  const std::int64_t startF = m_startPieceUnits + heuristic(start, m_start);
  m_bucketed = !m_plainJumps && !(m_hexJumps && grid.uniformCost());  // (jumps on maps of one cost push few entries)
  m_firstBucketKey = startF >> kBucketShift;
  heapPush({startF, m_startPieceUnits, m_start, slotOf(startNode)});
}

bool SearchContext::startFlood() {
  if (!m_nearest || m_flooding) return false;
  m_flooding = true;
  m_partial = true;
  m_goalSet.clear();
  m_goal = -1;
  m_floodBest = -1;
  m_floodBestDistance = std::numeric_limits<double>::infinity();
  // The flood is the tile search: its closed tiles are every tile it reaches, at their costs.
  m_exactSearch = false;
  m_sight = nullptr;
  m_startPieceUnits = 0;
  startTileSearch(*m_grid, m_grid->cellOf(m_start));
  return true;
}

bool SearchContext::closesNearest(std::int32_t node) {
  if (!m_flooding) {
    if (!std::binary_search(m_goalSet.begin(), m_goalSet.end(), node)) return false;
    m_goal = node;
    m_goalCell = m_grid->cellOf(node);
    return true;
  }
  // Closed in order of cost: a tile no nearer than the best so far never replaces it, so ties
  // go to the cheaper.
  const double d = (m_grid->layout().localCenter(m_grid->cellOf(node)) - m_nearestTarget).squaredNorm();
  if (d * (1.0 + 1e-9) < m_floodBestDistance) {
    m_floodBest = node;
    m_floodBestDistance = d;
  }
  return false;
}

}  // namespace rpgnav
