// SPDX-License-Identifier: MIT
// A* with optional jump point pruning, over the padded tile arrays of a SearchGrid.
//
// Jump points (8-connected squares, no corner cutting): a tile is "uniform" when it and all its
// passable neighbours cost the same. Inside uniform areas the grid behaves like an unweighted
// grid scaled by that cost, so the classic jump point rules hold there; jumps stop at any
// non-uniform tile and such tiles are expanded with all their neighbours, which keeps the search
// exact on weighted maps (the idea of JPSW, Carlson et al. 2023, in its simplest form). Every
// tile a jump enters has the cost of its first tile, so a jump of k steps costs k step costs.
//
// Any-angle mode (Theta*) expands every neighbour (no jump points) and changes relax(): a
// successor may take its expanding node's parent as its own parent when that sees it more
// cheaply; the route is rebuilt from the segments.
//
// Here: requests, the search's loop, heuristics and relaxing. The jumps and gates are in
// jump_points.cpp, the open list in open_list.cpp, the route out of a search in route_building.cpp.
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

SearchContext::Node& SearchContext::newCompactNode(std::uint32_t slot, std::int32_t index) {
  if (m_compactFilled.size() == kCompactLimit) {
    moveToArray();
    return node(index);
  }
  m_compactKeys[slot] = std::uint32_t(index) + 1;
  m_compactFilled.push_back(std::uint16_t(slot));
  return m_compactNodes[slot] = Node{0, 0, 0};
}

SearchContext::SearchContext() { makeScratch(); }

SearchContext::SearchContext(Scratch scratch) {
  if (scratch == Scratch::Tiles) makeScratch();
}

SearchContext::SearchContext(const SearchGrid& grid) {
  makeScratch();
  reserveFor(grid);
}

void SearchContext::reserveTiles() {
  if (m_compactKeys.empty()) makeScratch();
}

void SearchContext::makeScratch() {
  // Sized when the context is made, so that the first query costs what later ones do: the
  // compact table, the list of its filled slots, and an open list and path chain long enough for
  // most searches in it.
  m_compactKeys.assign(kCompactSlots, 0u);
  m_compactNodes.assign(kCompactSlots, Node{0, 0, 0});
  reserveResident(m_compactFilled, kCompactLimit);
  reserveResident(m_heap, 512);
  reserveResident(m_chain, 128);
}

void SearchContext::reserveFor(const SearchGrid& grid) {
  reserveTiles();
  const bool nodesInTable = grid.uniformCost() && grid.layout().kind() == LayoutKind::Square &&
                            grid.layout().connectivity() == 8;
  if (nodesInTable || m_nodes.size() >= std::size_t(grid.paddedCount())) return;
  m_suspended = false;  // (its nodes are gone)
  m_nodes.reset(std::size_t(grid.paddedCount()));
  if (m_nodes.size() * sizeof(Node) <= kResidentNodeBytes) m_nodes.touchAll();
}

void SearchContext::moveToArray() {
  // New nodes are unseen (stamp 0: fresh pages are zeroes); those left by earlier searches are
  // unseen by their stamps. (A larger map's array replaces the old one: its nodes are stale.)
  if (m_nodes.size() < std::size_t(m_grid->paddedCount())) m_nodes.reset(std::size_t(m_grid->paddedCount()));
  m_inArray = true;
  for (const std::uint16_t slot : m_compactFilled) {
    m_nodes[std::size_t(m_compactKeys[slot] - 1)] = m_compactNodes[slot];
  }
}

void SearchContext::finish(Status status, const char* reason, SearchResult& out) {
  m_suspended = false;
  // (A path is cleared only here, not when a search starts: writing one over the last one's
  // memory then skips zeroing it, a tenth of a short query on AR0011SR.)
  if (!isSuccess(status)) out.path.clear();
  out.status = status;
  out.reason = reason;
  out.expanded = m_expanded;
  out.generated = m_generated;
}

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

Status SearchContext::reachedGoal(SearchResult& out) {
  buildPath(out);
  finish(m_partial ? Status::PartialPath : Status::Ok, m_partial ? "goal unreachable; path to the nearest reachable tile" : "", out);
  return out.status;
}

Status SearchContext::resume(SearchLimit limit, SearchResult& out) {
  if (!m_suspended || m_grid == nullptr) {
    out.status = Status::InvalidArgument;
    out.reason = "no suspended search to resume";
    return out.status;
  }
  if (m_exactSearch) return finishExact(m_exact.resume(limit), limit, out);
  return run(limit, out);
}

// The exact any-angle search's answer as a search result: the route in world units (the start
// and goal points exactly as asked) and its tiles; its cost is its length × the map's one cost.
Status SearchContext::finishExact(Status status, SearchLimit limit, SearchResult& out) {
  m_expanded = m_exact.expanded();
  m_generated = m_exact.generated();
  if (status == Status::InProgress) return suspend(out);
  // (The flood starts afresh with this call's limit: the slice may do up to twice its expansions.)
  if (status == Status::NoPath && startFlood()) return run(limit, out);
  if (status != Status::Ok) {
    finish(status == Status::NoPath ? Status::NoPath : status,
           status == Status::NoPath ? "no route that does not squeeze between blocked tiles" : "bad point for the exact any-angle search",
           out);
    return out.status;
  }
  const Layout& layout = m_grid->layout();
  m_localRoute = m_exact.route();
  out.vertices.clear();
  for (const Eigen::Vector2d& vertex : m_localRoute) out.vertices.push_back(layout.toWorld(vertex));
  out.vertices.front() = m_startPoint;
  out.vertices.back() = m_goalPoint;
  if (!traceRoute(out, true)) {
    // (No case is known: a safety net.) The tile search answers instead.
    SearchRequest tiles = m_exactRequest;
    tiles.exactAnyAngle = false;
    tiles.tilePath = true;  // (an any-angle search's path is every tile)
    tiles.sightLines = nullptr;
    tiles.startPoint.reset();
    tiles.goalPoint.reset();
    return findPath(*m_grid, tiles, out);
  }
  out.length = m_exact.length();
  out.costUnits = std::llround(out.length * double(m_grid->minStraightCost()));
  out.cost = double(out.costUnits) / double(kCostScale);
  out.reached = m_goalCell;
  finish(m_partial ? Status::PartialPath : Status::Ok,
         m_partial ? "goal unreachable; path to the nearest reachable tile" : "", out);
  return out.status;
}

Status SearchContext::suspend(SearchResult& out) {
  m_suspended = true;
  out.path.clear();
  out.status = Status::InProgress;
  out.reason = "node expansion budget used up; resume() continues";
  out.expanded = m_expanded;
  out.generated = m_generated;
  return out.status;
}

Status SearchContext::run(SearchLimit limit, SearchResult& out) {
  std::int64_t expandedHere = 0;
  while (true) {
    if (m_bucketed && m_heap.empty()) [[unlikely]] refillHeap();
    if (!m_hasHeld && m_heap.empty()) break;
    if (limit.reached(expandedHere)) return suspend(out);
    const HeapEntry top = heapPop();
    Node& popped = m_inArray ? m_nodes[std::size_t(top.node)] : m_compactNodes[top.slot];
    // Improvements push a fresh entry instead of moving the old one (no position bookkeeping
    // in the node array, so sifting touches only the heap); skip the outdated copies here.
    if ((popped.stamp & kClosedBit) != 0 || top.g != popped.g) continue;
    popped.stamp |= kClosedBit;
    const Node expanded = popped;  // (a copy: expanding adds nodes, which may move the table)
    if (top.node == m_goal) [[unlikely]] return reachedGoal(out);
    if (m_goal < 0) [[unlikely]] {
      if (closesNearest(top.node)) return reachedGoal(out);
    }
    ++m_expanded;
    ++expandedHere;
    // Tiles at gates are expanded step by step, each step asking the gate rule.
    if (m_plainJumps) {
      expandJumpPoint<JumpTiles::kPlain>(top.node, expanded);
    } else if (m_hexJumps && m_grid->nearGate()[top.node] == 0) {
      expandHexJumpPoint(top.node, expanded);
    } else if (m_jumpPoints && m_grid->nearGate()[top.node] == 0) {
      m_fit != nullptr ? expandJumpPoint<JumpTiles::kFitting>(top.node, expanded)
                       : expandJumpPoint<JumpTiles::kWeighted>(top.node, expanded);
    } else {
      expandAll(top.node, expanded.g);
    }
  }
  if (m_flooding && m_floodBest >= 0) {
    m_goal = m_floodBest;
    m_goalCell = m_grid->cellOf(m_floodBest);
    return reachedGoal(out);
  }
  if (startFlood()) return run(limit, out);  // (nearestIfUnreachable: the nearest of what it can reach)
  finish(Status::NoPath, m_fit != nullptr ? "no route is wide enough for the character" : "no path", out);
  return out.status;
}

std::int64_t SearchContext::heuristic(Cell c, std::int32_t index) const noexcept {
  const SearchGrid& grid = *m_grid;
  if (m_goal < 0) [[unlikely]] {
    // A goal set: the least bound over its tiles (the least of consistent bounds is one); the
    // flood: none (Dijkstra).
    std::int64_t least = m_goalSet.empty() ? 0 : std::numeric_limits<std::int64_t>::max();
    for (const std::int32_t goal : m_goalSet) least = std::min(least, boundTowards(c, grid.cellOf(goal)));
    return least;
  }
  std::int64_t h;
  if (m_octile) {
    h = octileHeuristic(c);
  } else if (m_sight != nullptr) {
    // Straight-line distance × the cheapest step cost (truncated: stays a lower bound).
    const Layout& layout = grid.layout();
    const double tiles = double((pointOf(index) - m_goalPoint).norm()) / double(layout.tileSize());
    h = index == m_goal ? 0 : std::int64_t(tiles * double(m_minStraightCost));
  } else if (grid.layout().isHex()) {
    h = hexHeuristic(grid.layout().toAxial(c));
  } else {  // 4-way squares
    h = (std::abs(c.x - m_goalCell.x) + std::abs(c.y - m_goalCell.y)) * m_minStraightCost;
  }
  if (m_landmarkCount == 0) return h;
  std::int64_t bound = landmarkBound(index);
  if (m_sight != nullptr) {
    // Landmark distances are tile-step costs; a straight segment can be shorter than the best
    // tile-step route by the grid's worst ratio (8-way: at 22.5°, √(4 − 2√2) ≈ 1.0824; 4-way:
    // √2; hexes: 2/√3), so scaling by its inverse keeps the bound (nearly) admissible.
    const double ratio = grid.layout().isHex()                     ? 2.0 / std::sqrt(3.0)
                         : grid.layout().connectivity() == 4 ? std::sqrt(2.0)
                                                             : std::sqrt(4.0 - 2.0 * std::sqrt(2.0));
    bound = std::int64_t(double(bound) / ratio);
  }
  return std::max(h, bound);
}

std::int64_t SearchContext::boundTowards(Cell c, Cell goal) const noexcept {
  const Layout& layout = m_grid->layout();
  if (m_octile) return octileHeuristic(c, goal);
  if (layout.isHex()) return hexHeuristic(layout.toAxial(c), layout.toAxial(goal));
  return (std::abs(c.x - goal.x) + std::abs(c.y - goal.y)) * m_minStraightCost;  // 4-way squares
}

std::int64_t SearchContext::landmarkBound(std::int32_t index) const noexcept {
  // ALT with symmetric step costs: d(n,goal) >= |d(L,goal) - d(L,n)|. Stored distances are
  // rounded down to whole quanta, so the bound gives up one quantum to stay a lower bound.
  const std::uint32_t* here = m_grid->landmarkDistances(index);
  std::int64_t quanta = 0;
  for (int k = 0; k < m_landmarkCount; ++k) {
    if (here[k] != SearchGrid::kLandmarkUnknown && m_goalLandmarks[k] != SearchGrid::kLandmarkUnknown) {
      quanta = std::max(quanta, std::abs(std::int64_t(m_goalLandmarks[k]) - std::int64_t(here[k])) - 1);
    }
  }
  return quanta * SearchGrid::kLandmarkQuantum;
}

Vec2 SearchContext::pointOf(std::int32_t index) const noexcept {
  return m_grid->layout().tileCenter(m_grid->cellOf(index));
}

void SearchContext::relax(std::int32_t index, Cell cell, std::int64_t g, std::int32_t parent, std::int32_t dx,
                          std::int32_t dy) {
  Node& node = this->node(index);
  const std::uint32_t fresh = (m_generation << 4) | std::uint32_t(SearchGrid::directionCode(dx, dy));
  const bool seen = (node.stamp >> 4) == m_generation;
  bool direct = false;  // any-angle: the goal reached by a straight line to the goal point
  if (m_sight != nullptr) {
    // Theta*: closed tiles stay closed; the expanding tile's parent may see this one directly
    // (next to the start, the start point may). The probe is skipped when even a straight line
    // at the cheapest cost could not improve on what is known. Ties go to the straight line (it
    // drops a needless vertex).
    if (seen && (node.stamp & kClosedBit) != 0) return;
    if (index == m_goal) g += m_goalPieceUnits;
    std::int32_t origin = this->node(parent).parent;
    Vec2 from = m_startPoint;
    std::int64_t gFrom = 0;
    if (origin >= 0) {
      from = pointOf(origin);
      gFrom = this->node(origin).g;
    } else {
      origin = kFromStartPoint;
    }
    const Vec2 to = index == m_goal ? m_goalPoint : pointOf(index);
    const double tiles = double((to - from).norm()) / double(m_grid->layout().tileSize());
    if (gFrom + std::int64_t(tiles * double(m_grid->minStraightCost())) <= (seen ? std::min(g, node.g) : g)) {
      const SegmentProbe line = m_sight->probe(from, to, m_radius);
      const std::int64_t viaLine = gFrom + detail::toCostUnits(line.cost, m_grid->layout());
      if (line.clear && viaLine <= g && (m_gates == nullptr || !m_gates->segmentMeetsGate(from, to, m_radius))) {
        g = viaLine;
        parent = origin;
        direct = index == m_goal;
      }
    }
  }
  if (!seen) {
    node = Node{g, parent, fresh};
    if (index == m_goal) m_goalDirect = direct;
    heapPush({g + heuristic(cell, index), g, index, slotOf(node)});
    return;
  }
  // A closed node can improve only under the landmark heuristic, whose rounding may break
  // consistency by a quantum: reopening it keeps the search exact.
  if (g >= node.g) return;
  node.g = g;
  node.parent = parent;
  node.stamp = fresh;
  if (index == m_goal) m_goalDirect = direct;
  heapPush({g + heuristic(cell, index), g, index, slotOf(node)});
}

void SearchContext::relaxHexJump(std::int32_t index, Axial axial, std::int64_t g, std::int32_t parent) {
  Node& node = this->node(index);
  if ((node.stamp >> 4) == m_generation && g >= node.g) return;
  node = Node{g, parent, m_generation << 4};
  std::int64_t h = hexHeuristic(axial);
  if (m_landmarkCount > 0) [[unlikely]] h = std::max(h, landmarkBound(index));
  heapPush({g + h, g, index, slotOf(node)});
}

void SearchContext::expandAll(std::int32_t index, std::int64_t g) {
  const SearchGrid& grid = *m_grid;
  const std::uint8_t* cls = grid.classes();
  const std::int32_t pw = grid.paddedWidth();
  const Cell cell = grid.cellOf(index);
  const auto moves = grid.layout().moves(cell);
  const bool closeGaps = grid.closesNarrowGaps();
  const bool gated = m_gates != nullptr && grid.nearGate()[index] != 0;
  // A step runs centre to centre, half in each tile (see kCostScale).
  const std::uint8_t here = cls[index];
  auto stepCost = [&](std::uint8_t to, bool diagonal) { return grid.stepCost(here, to, diagonal); };
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const NeighbourStep& step = moves[i];
    const std::int32_t next = index + step.dx + step.dy * pw;
    const std::uint8_t costClass = cls[next];
    if (costClass == 0) continue;
    if (m_fit != nullptr) {
      // The body fits on the next tile and, where a step passes between two other tiles (a
      // square diagonal, any hex step), on those.
      auto fitsAt = [&](const NeighbourStep& to) { return open<true>(index + to.dx + to.dy * pw); };
      if (!fitsAt(step)) continue;
      if (grid.layout().isHex()) {
        if (!fitsAt(moves[(i + moves.size() - 1) % moves.size()]) || !fitsAt(moves[(i + 1) % moves.size()])) continue;
      } else if (!step.sharesEdge && (!fitsAt(moves[std::size_t(step.requiresA)]) || !fitsAt(moves[std::size_t(step.requiresB)]))) {
        continue;
      }
    }
    if (closeGaps) {
      // Hex tables run round the tile, so the tiles at the two ends of the edge crossed by
      // step i are steps i-1 and i+1. An end is obstructed when that tile is blocked or a door
      // that is a wall for this query (not passed) ends there, on the edge from either tile of
      // the step to it: the character would pass within half an edge of it.
      auto obstructed = [&](const NeighbourStep& side) {
        const std::int32_t third = index + side.dx + side.dy * pw;
        if (cls[third] == 0) return true;
        return gated && (solidGate(index, third) || solidGate(next, third));
      };
      if (obstructed(moves[(i + moves.size() - 1) % moves.size()]) && obstructed(moves[(i + 1) % moves.size()])) {
        continue;
      }
    }
    if (m_fit != nullptr && m_gates != nullptr && stepMeetsWall(index, next)) continue;
    std::int64_t gateCost = 0;
    if (!step.sharesEdge) {  // square diagonal: both orthogonal tiles must be passable
      const NeighbourStep& a = moves[std::size_t(step.requiresA)];
      const NeighbourStep& b = moves[std::size_t(step.requiresB)];
      const std::int32_t sideA = index + a.dx + a.dy * pw, sideB = index + b.dx + b.dy * pw;
      if (cls[sideA] == 0 || cls[sideB] == 0) continue;
      if (gated && !gateAllows(index, next, sideA, sideB, gateCost)) continue;
      relax(next, {cell.x + step.dx, cell.y + step.dy}, g + stepCost(costClass, true) + gateCost, index, step.dx,
            step.dy);
    } else {
      if (gated && !gateAllows(index, next, -1, -1, gateCost)) continue;
      relax(next, {cell.x + step.dx, cell.y + step.dy}, g + stepCost(costClass, false) + gateCost, index, step.dx,
            step.dy);
    }
  }
}

}  // namespace rpgnav
