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
#include "search/search_context.hpp"

#include "core/distances.hpp"
#include "grid/segment_walk.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#if defined(__SSE2__)
#include <emmintrin.h>  // the wide body's jumps along rows, writing routes' tiles
#endif

namespace rpgnav {
namespace {

constexpr int sign(std::int32_t v) { return (v > 0) - (v < 0); }

// World-unit weighted cost (length × terrain cost) to fixed-point units.
std::int64_t toCostUnits(double cost, const Layout& layout) {
  return std::llround(cost / double(layout.tileSize()) * double(kCostScale));
}

bool heapLess(std::int64_t af, std::int64_t ag, std::int32_t an, std::int64_t bf, std::int64_t bg, std::int32_t bn) {
  if (af != bf) return af < bf;
  if (ag != bg) return ag > bg;  // deeper first: fewer re-expansions of equal-f plateaus
  return an < bn;
}

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

// Writes the `count` tiles after `from` along (dx, dy); returns the end. A short search with a
// long route spends a good part of its time here (AR0011SR: 221 tiles from 18 expansions): two
// tiles a store took a fill of 258 tiles from 100 to 51 ns.
Cell* writeSteps(Cell* write, Cell from, std::int32_t dx, std::int32_t dy, std::int32_t count) {
  std::int32_t i = 0;
#if defined(__SSE2__)
  static_assert(sizeof(Cell) == 8);
  __m128i pair = _mm_setr_epi32(from.x + dx, from.y + dy, from.x + 2 * dx, from.y + 2 * dy);
  const __m128i step = _mm_setr_epi32(2 * dx, 2 * dy, 2 * dx, 2 * dy);
  for (; i + 2 <= count; i += 2) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(write + i), pair);
    pair = _mm_add_epi32(pair, step);
  }
#endif
  for (; i < count; ++i) write[i] = {from.x + (i + 1) * dx, from.y + (i + 1) * dy};
  return write + count;
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
    m_startPieceUnits = toCostUnits(startPiece.cost, layout);
    m_goalPieceUnits = toCostUnits(goalPiece.cost, layout);
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
      const std::int64_t viaLine = gFrom + toCostUnits(line.cost, m_grid->layout());
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

[[gnu::always_inline]] inline void SearchContext::relaxJump(std::int32_t index, Cell cell, std::int64_t g,
                                                            std::int32_t parent, std::int32_t dx, std::int32_t dy) {
  Node& node = this->node(index);
  // A node seen in this search (closed too: see relax) is written only when g improves on it.
  if ((node.stamp >> 4) == m_generation && g >= node.g) return;
  node = Node{g, parent, (m_generation << 4) | std::uint32_t(SearchGrid::directionCode(dx, dy))};
  std::int64_t h = octileHeuristic(cell);
  if (m_landmarkCount > 0) [[unlikely]] h = std::max(h, landmarkBound(index));
  heapPush({g + h, g, index, slotOf(node)});
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

bool SearchContext::solidGate(std::int32_t a, std::int32_t b) const {
  const std::int32_t gate = m_grid->gateBetween(a, b);
  return gate >= 0 && m_gates->crossing(std::uint32_t(gate)).solid;
}

bool SearchContext::stepMeetsWall(std::int32_t from, std::int32_t to) const {
  const SearchGrid& grid = *m_grid;
  const Cell a = grid.cellOf(from);
  const std::span<const std::uint32_t> near = grid.gatesNear(a);
  if (near.empty()) return false;
  const Layout& layout = grid.layout();
  const Eigen::Vector2d p = layout.localCenter(a), q = layout.localCenter(grid.cellOf(to));
  const std::int32_t crossed = grid.gateBetween(from, to);
  // Exact geometry in layout space (double rounding only): a step that touches a wall's edge at
  // exactly the radius fits, as on tiles; the planner's probes allow for its points' float
  // rounding (barrierSlack).
  const double magnitude = std::max({1.0, p.cwiseAbs().maxCoeff(), q.cwiseAbs().maxCoeff()});
  const double keep = m_fitRadius - 1e-12 * magnitude;
  for (const std::uint32_t index : near) {
    if (std::int32_t(index) == crossed) continue;
    const SearchGate& gate = grid.gate(index);
    // Cheaply out of reach: the edge lies within 0.71 tiles of its tiles' centres.
    const Eigen::Vector2d centre = layout.localCenter(gate.a);
    if (detail::pointToSegment(centre, p, q) > keep + 0.75) continue;
    const auto edge = layout.localSharedEdge(gate.a, gate.b);
    if (!edge || detail::segmentsDistance(p, q, (*edge)[0], (*edge)[1]) >= keep) continue;
    if (m_gates->crossing(index).solid) return true;
  }
  return false;
}

bool SearchContext::gateAllows(std::int32_t from, std::int32_t to, std::int32_t a, std::int32_t b,
                               std::int64_t& cost) const {
  const SearchGrid& grid = *m_grid;
  if (a < 0) {  // an edge step: through the gate on that edge, if any
    const std::int32_t gate = grid.gateBetween(from, to);
    if (gate < 0) return true;
    const GateCrossing crossing = m_gates->crossing(std::uint32_t(gate));
    if (!crossing.open) return false;
    cost += std::max<std::int64_t>(crossing.cost, 0);
    return true;
  }
  // A square diagonal crosses no edge but passes the corner four edges meet at: a wall-like gate
  // on any of them (a closed door's end) stops it.
  const std::int32_t edges[4][2] = {{from, a}, {from, b}, {a, to}, {b, to}};
  for (const auto& edge : edges) {
    const std::int32_t gate = grid.gateBetween(edge[0], edge[1]);
    if (gate < 0) continue;
    const GateCrossing crossing = m_gates->crossing(std::uint32_t(gate));
    if (!crossing.open || crossing.solid) return false;
  }
  return true;
}

[[gnu::always_inline]] inline std::int32_t SearchContext::jumpStraight(std::int32_t x, std::int32_t y, std::int32_t dx,
                                                                       std::int32_t dy, std::int32_t& steps) const noexcept {
  // Looks the jump up in the grid's precomputed table; only the goal, which the table cannot
  // know, is checked here (a jump passing over the goal stops on it).
  const SearchGrid& grid = *m_grid;
  const std::int32_t pw = grid.paddedWidth();
  const int direction = dx > 0 ? SearchGrid::kEast : dx < 0 ? SearchGrid::kWest : dy > 0 ? SearchGrid::kSouth : SearchGrid::kNorth;
  const std::int32_t stride = dx + dy * pw;
  const bool goalOnLine = dx != 0 ? m_goalY == y : m_goalX == x;
  // Tiles from (x, y) to the goal along the direction (meaningful when goalOnLine).
  const std::int32_t toGoal = dx != 0 ? (m_goalX - x) * dx : (m_goalY - y) * dy;
  std::int32_t n = y * pw + x, travelled = 0;
  if (!(goalOnLine && toGoal > 0)) {  // (the common case: one entry answers)
    const std::int16_t d = grid.jumpDistances(n)[direction];
    if (d != SearchGrid::kJumpFar) {
      if (d < 0) return -1;
      steps = d;
      return n + d * stride;
    }
  }
  while (true) {
    const std::int16_t d = grid.jumpDistances(n)[direction];
    const std::int32_t reach = d == SearchGrid::kJumpFar ? SearchGrid::kJumpFarReach : d < 0 ? -d : d;
    if (goalOnLine && toGoal > travelled && toGoal - travelled <= reach) {
      steps = toGoal;
      return m_goal;
    }
    if (d == SearchGrid::kJumpFar) {
      n += SearchGrid::kJumpFarReach * stride;
      travelled += SearchGrid::kJumpFarReach;
      continue;
    }
    if (d < 0) return -1;
    steps = travelled + d;
    return n + d * stride;
  }
}

std::int32_t SearchContext::jumpStraightFitting(std::int32_t x, std::int32_t y, std::int32_t dx, std::int32_t dy,
                                                std::int32_t& steps) const noexcept {
  // The tables' rule (SearchGrid::buildJumpLine) on the tiles the body fits on: stop on a tile
  // that is not uniform, beside which a tile opens whose neighbour behind is closed (a forced
  // neighbour), or on the goal; give up at a tile the body does not fit on.
  const std::int32_t pw = m_grid->paddedWidth();
  const std::uint8_t* uniform = m_grid->uniform();
  const std::uint8_t* codes = m_fitCodes;
  const std::int64_t need = m_fitCode;
  const std::int32_t stride = dx + dy * pw, side = dx != 0 ? pw : 1;
  std::int32_t n = y * pw + x;
  std::int32_t k = 1;
  // On a map of one cost with no gates every passable tile is uniform: one array fewer to read
  // (down a column, a cache line a tile).
  const bool allUniform = m_grid->uniformCost() && m_grid->gateCount() == 0;
#if defined(__SSE2__)
  if (dx != 0) {
    // Along a row, sixteen tiles at a time: the row, the rows beside it and those rows one tile
    // behind, as bit masks of the tiles the body fits on; the first stop is the answer. (Loads
    // may run past the row's end: its border tile is closed, so the stop comes first. They stay
    // inside the arrays, else the walk below goes on.)
    const __m128i needs = _mm_set1_epi8(char(std::uint8_t(need)));
    const auto fitting = [&](std::int32_t at) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(codes + at));
      return unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(v, needs), v)));
    };
    const auto notUniform = [&](std::int32_t at) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(uniform + at));
      return unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())));
    };
    const std::int32_t count = m_grid->paddedCount();
    while (dx > 0 ? n + 16 + pw < count : n - 16 - pw >= 0) {
      // Tiles first .. first + 15; eastward the stop is the lowest bit, westward the highest, and
      // a tile's "behind" is one tile west (east) of it.
      const std::int32_t first = dx > 0 ? n + 1 : n - 16, behind = first - dx;
      const unsigned row = fitting(first);
      const unsigned above = fitting(first - pw), below = fitting(first + pw);
      unsigned stop = ~row | (above & ~fitting(behind - pw)) | (below & ~fitting(behind + pw));
      if (!allUniform) stop |= notUniform(first);
      if (m_goal >= first && m_goal < first + 16) stop |= 1u << (m_goal - first);
      stop &= 0xffffu;
      if (stop != 0) {
        const std::int32_t bit = dx > 0 ? std::countr_zero(stop) : 31 - std::countl_zero(stop);
        if (((row >> bit) & 1u) == 0) return -1;
        steps = k - 1 + (dx > 0 ? bit + 1 : 16 - bit);
        return first + bit;
      }
      n += 16 * dx;
      k += 16;
    }
  }
#endif
  // The goal, when it lies on this line ahead: that many tiles from (x, y); else -1.
  const std::int32_t toGoal = (dx != 0 ? m_goalY == y : m_goalX == x) ? (dx != 0 ? (m_goalX - x) * dx : (m_goalY - y) * dy) : -1;
  // The two tiles beside the last tile walked (beside the next one's "behind").
  bool left = codes[n + side] >= need, right = codes[n - side] >= need;
  for (;; ++k) {
    n += stride;
    if (codes[n] < need) return -1;
    const bool leftHere = codes[n + side] >= need, rightHere = codes[n - side] >= need;
    if (k == toGoal || (!allUniform && uniform[n] == 0) || (leftHere && !left) || (rightHere && !right)) {
      steps = k;
      return n;
    }
    left = leftHere;
    right = rightHere;
  }
}

template <SearchContext::JumpTiles kTiles>
void SearchContext::jumpDiagonal(std::int32_t index, std::int32_t x, std::int32_t y, std::int64_t gIndex, std::int32_t dx,
                                 std::int32_t dy) {
  // Goes along the diagonal; at every diagonal tile the two straight jumps it would make are run
  // at once and their jump points become successors of `index` directly ("diagonal first, then
  // straight", Harabor & Grastien 2014), so the diagonal tiles themselves are never queued. On
  // maps of one cost the grid's diagonal bits skip the tiles where those jumps find nothing;
  // otherwise the diagonal is walked tile by tile.
  constexpr bool kFit = kTiles == JumpTiles::kFitting;
  const SearchGrid& grid = *m_grid;
  const std::int32_t pw = grid.paddedWidth();
  const std::int32_t vertical = dy * pw;
  const int across = dx > 0 ? SearchGrid::kEast : SearchGrid::kWest, down = dy > 0 ? SearchGrid::kSouth : SearchGrid::kNorth;
  // Every tile entered has the cost of the first one (the others neighbour uniform tiles), so
  // k diagonal steps cost half a step in the jump point's own tile and the rest in that class.
  std::int64_t diagonalCost = m_plainDiagonalCost, straightCost = m_plainStraightCost, g = gIndex;
  if constexpr (kTiles != JumpTiles::kPlain) {
    const std::uint8_t* cls = grid.classes();
    const std::uint8_t costClass = cls[index + dx + vertical];
    diagonalCost = 2 * grid.halfDiagonal(costClass);
    straightCost = 2 * grid.halfStraight(costClass);
    g += grid.halfDiagonal(cls[index]) - grid.halfDiagonal(costClass);
  }
  std::int32_t n = index;
  // No corner cutting: a diagonal step from n needs both tiles beside it open, and the tile it
  // enters.
  auto canStep = [&](std::int32_t from) {
    return openToward<kTiles>(from, across, dx) && openToward<kTiles>(from, down, vertical) &&
           openToward<kTiles>(from + dx, down, vertical);
  };
  // The two straight jumps from diagonal tile (x, y), reached at cost gHere.
  auto jumpAcrossAndDown = [&](std::int64_t gHere) {
    std::int32_t steps = 0;
    const std::int32_t row = kFit ? jumpStraightFitting(x, y, dx, 0, steps) : jumpStraight(x, y, dx, 0, steps);
    if (row >= 0 && leadsOn<kTiles>(row, dx, 0)) relaxJump(row, {x - 1 + dx * steps, y - 1}, gHere + steps * straightCost, index, dx, 0);
    const std::int32_t column = kFit ? jumpStraightFitting(x, y, 0, dy, steps) : jumpStraight(x, y, 0, dy, steps);
    if (column >= 0 && leadsOn<kTiles>(column, 0, dy)) {
      relaxJump(column, {x - 1, y - 1 + dy * steps}, gHere + steps * straightCost, index, 0, dy);
    }
  };
  if constexpr (kTiles == JumpTiles::kPlain) {
    // The grid skips to the tiles where the walk below would find something (or could not go
    // on); the goal's row and column (a straight jump from there may reach it) are looked at too.
    // The next stop comes from the tile's record in the jump table (nearDiagonalStop), which the
    // straight jumps from the same tile read anyway; only beyond its reach from the diagonal
    // bits, whose words lie elsewhere in memory (reading them first cost 8% of a search on
    // AR0011SR). (On weighted maps diagonals end at a patch border within a few tiles, and the
    // walk, whose tiles are in cache already, measured 20% faster than reading the bits.)
    const std::int32_t stride = dx + vertical;
    const std::int32_t toRow = (m_goalY - y) * dy, toColumn = (m_goalX - x) * dx;
    for (std::int32_t k = 0;;) {
      SearchGrid::DiagonalStop stop;
      if (const std::int16_t near = grid.nearDiagonalStop(n, dx, dy); near != 0) [[likely]] {
        stop = {near < 0 ? -near : near, near < 0};
      } else {
        stop = grid.diagonalStop({x - 1, y - 1}, dx, dy);
      }
      std::int32_t ahead = stop.steps;
      if (toRow > k && toRow - k < ahead) ahead = toRow - k;
      if (toColumn > k && toColumn - k < ahead) ahead = toColumn - k;
      if (ahead == stop.steps && stop.blocked) return;
      k += ahead;
      n += ahead * stride;
      x += ahead * dx;
      y += ahead * dy;
      const std::int64_t gHere = g + k * diagonalCost;
      if (n == m_goal) {
        relaxJump(n, {x - 1, y - 1}, gHere, index, dx, dy);
        return;
      }
      jumpAcrossAndDown(gHere);
    }
  } else {
    for (std::int64_t k = 1;; ++k) {
      if (!canStep(n)) return;
      n += dx + vertical;
      x += dx;
      y += dy;
      const std::int64_t gHere = g + k * diagonalCost;
      if (n == m_goal || grid.uniform()[n] == 0) {
        if (leadsOn<kTiles>(n, dx, dy)) relaxJump(n, {x - 1, y - 1}, gHere, index, dx, dy);
        return;
      }
      jumpAcrossAndDown(gHere);
    }
  }
}

template <SearchContext::JumpTiles kTiles>
void SearchContext::expandJumpPoint(std::int32_t index, const Node here) {
  constexpr bool kFit = kTiles == JumpTiles::kFitting;
  const SearchGrid& grid = *m_grid;
  const std::int32_t pw = grid.paddedWidth();
  const std::int32_t x = index % pw, y = index / pw;

  // Directions to search from this node, as (dx, dy) pairs.
  std::int32_t directions[8][2];
  int count = 0;
  auto add = [&](std::int32_t dx, std::int32_t dy) {
    directions[count][0] = dx;
    directions[count][1] = dy;
    ++count;
  };
  if (here.parent >= 0 && kTiles == JumpTiles::kWeighted && grid.uniform()[index] == 0) {
    // Where costs change, the canonical successors (JPSW) of the way the route came in.
    const std::uint8_t mask = grid.canonicalSuccessors(index, int(here.stamp & 7));
    for (int code = 0; code < 8; ++code) {
      if ((mask >> code) & 1u) add(SearchGrid::kCodeDx[code], SearchGrid::kCodeDy[code]);
    }
  } else if (here.parent < 0 || (kTiles != JumpTiles::kPlain && grid.uniform()[index] == 0)) {
    for (const NeighbourStep& step : grid.layout().moves({0, 0})) add(step.dx, step.dy);
  } else {
    const std::int32_t dx = SearchGrid::kCodeDx[here.stamp & 7], dy = SearchGrid::kCodeDy[here.stamp & 7];
    if (dx != 0 && dy != 0) {
      add(dx, 0);
      add(0, dy);
      add(dx, dy);
    } else if (dx != 0) {
      // Forced neighbours: a side tile open where the one behind it is blocked. (The side tile
      // first, here and below: its entry is this tile's own, in cache; after a jump down a column
      // the tile behind is a row of the table away.)
      add(dx, 0);
      for (std::int32_t s : {-1, 1}) {
        const int side = s > 0 ? SearchGrid::kSouth : SearchGrid::kNorth;
        if (openToward<kTiles>(index, side, s * pw) && !openToward<kTiles>(index - dx, side, s * pw)) {
          add(0, s);
          add(dx, s);
        }
      }
    } else {
      add(0, dy);
      for (std::int32_t s : {-1, 1}) {
        const int side = s > 0 ? SearchGrid::kEast : SearchGrid::kWest;
        if (openToward<kTiles>(index, side, s) && !openToward<kTiles>(index - dy * pw, side, s)) {
          add(s, 0);
          add(s, dy);
        }
      }
    }
  }

  for (int i = 0; i < count; ++i) {
    const std::int32_t dx = directions[i][0], dy = directions[i][1];
    if (dx != 0 && dy != 0) {
      jumpDiagonal<kTiles>(index, x, y, here.g, dx, dy);  // (returns at once when its first step is closed)
      continue;
    }
    std::int32_t steps = 0;
    const std::int32_t target = kFit ? jumpStraightFitting(x, y, dx, dy, steps) : jumpStraight(x, y, dx, dy, steps);
    if (target < 0) continue;
    // Every tile the jump enters has the first one's class (see jumpDiagonal).
    std::int64_t cost = steps * m_plainStraightCost;
    if constexpr (kTiles != JumpTiles::kPlain) {
      const std::uint8_t* cls = grid.classes();
      cost = grid.halfStraight(cls[index]) + (2 * steps - 1) * grid.halfStraight(cls[index + dx + dy * pw]);
    }
    if (leadsOn<kTiles>(target, dx, dy)) relaxJump(target, {x - 1 + dx * steps, y - 1 + dy * steps}, here.g + cost, index, dx, dy);
  }
}

void SearchContext::buildPath(SearchResult& out) {
  out.through.clear();
  out.vertexTiles.clear();
  out.vertices.clear();
  if (m_sight != nullptr) {
    buildAnyAnglePath(out);
    return;
  }
  const SearchGrid& grid = *m_grid;
  // Parents link jump points (or plain neighbours). Between a parent and its child the route is
  // "diagonal first, then straight": min(|dx|,|dy|) diagonal steps, then the rest along one
  // axis — exactly how jumps travel. On hexes it is a shortest hex route (fillHexJumpRoute):
  // neighbours, or hex jump points. The chain of nodes is read once (each read of a node may
  // probe the node table).
  const bool hex = grid.layout().isHex();
  m_chain.clear();
  for (std::int32_t i = m_goal; i >= 0; i = nodeAt(i).parent) m_chain.push_back(grid.cellOf(i));
  std::reverse(m_chain.begin(), m_chain.end());
  std::int64_t straight = 0, diagonal = 0;
  for (std::size_t k = 0; k + 1 < m_chain.size(); ++k) {
    const Cell a = m_chain[k], b = m_chain[k + 1];
    const std::int32_t ax = std::abs(b.x - a.x), ay = std::abs(b.y - a.y);
    if (hex) {
      straight += grid.layout().stepDistance(a, b);
      continue;
    }
    const std::int32_t diagonalSteps = std::min(ax, ay);
    diagonal += diagonalSteps;
    straight += std::max(ax, ay) - diagonalSteps;
  }
  if (m_tilePath && hex) {
    fillHexJumpRoute(grid.layout(), m_chain, out.path);
  } else if (m_tilePath) {
    fillJumpRoute(m_chain, out.path);
  } else {
    out.path.assign(m_chain.begin(), m_chain.end());
  }
  out.reached = m_goalCell;
  out.costUnits = nodeAt(m_goal).g;
  out.cost = double(out.costUnits) / double(kCostScale);
  out.length = double(straight) + double(diagonal) * std::sqrt(2.0);
}

void fillJumpRoute(std::span<const Cell> nodes, std::vector<Cell>& tiles) {
  if (!nodes.empty() && !std::less<const Cell*>()(nodes.data(), tiles.data()) &&
      std::less<const Cell*>()(nodes.data(), tiles.data() + tiles.size())) {
    // The nodes are in `tiles` itself (filling a path in place): resizing would move them.
    const std::vector<Cell> copy(nodes.begin(), nodes.end());
    fillJumpRoute(copy, tiles);
    return;
  }
  std::size_t total = nodes.empty() ? 0 : 1;
  for (std::size_t k = 0; k + 1 < nodes.size(); ++k) {
    total += std::size_t(std::max(std::abs(nodes[k + 1].x - nodes[k].x), std::abs(nodes[k + 1].y - nodes[k].y)));
  }
  tiles.resize(total);
  if (nodes.empty()) return;
  Cell* write = tiles.data();
  *write++ = nodes.front();
  for (std::size_t k = 0; k + 1 < nodes.size(); ++k) {
    const Cell a = nodes[k], b = nodes[k + 1];
    const std::int32_t dx = sign(b.x - a.x), dy = sign(b.y - a.y);
    const std::int32_t ax = std::abs(b.x - a.x), ay = std::abs(b.y - a.y);
    const std::int32_t diagonalSteps = std::min(ax, ay);
    const std::int32_t sx = ax > ay ? dx : 0, sy = ax > ay ? 0 : dy;  // the straight part's step
    const std::int32_t straightSteps = std::max(ax, ay) - diagonalSteps;
    write = writeSteps(write, a, dx, dy, diagonalSteps);
    write = writeSteps(write, {a.x + diagonalSteps * dx, a.y + diagonalSteps * dy}, sx, sy, straightSteps);
  }
}

namespace {

// True when a character may step from tile a to tile b under the grid's rules.
bool legalStep(const SearchGrid& grid, Cell a, Cell b) {
  const auto moves = grid.layout().moves(a);
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const NeighbourStep& step = moves[i];
    if (Cell{a.x + step.dx, a.y + step.dy} != b) continue;
    if (!grid.passable(b)) return false;
    auto open = [&](const NeighbourStep& side) { return grid.passable({a.x + side.dx, a.y + side.dy}); };
    if (!step.sharesEdge) return open(moves[std::size_t(step.requiresA)]) && open(moves[std::size_t(step.requiresB)]);
    if (grid.closesNarrowGaps()) {
      return open(moves[(i + moves.size() - 1) % moves.size()]) || open(moves[(i + 1) % moves.size()]);
    }
    return true;
  }
  return false;
}

}  // namespace

void SearchContext::buildAnyAnglePath(SearchResult& out) {
  const SearchGrid& grid = *m_grid;
  const Layout& layout = grid.layout();
  // The route: the start point, the chain of parents (tile centres joined by clear segments;
  // the start tile's only when its first link left from its centre), the goal tile's centre
  // unless a straight line reached the goal point, and the goal point.
  std::vector<Vec2>& route = out.vertices;
  route.assign(1, m_startPoint);
  std::size_t first = route.size();
  for (std::int32_t i = nodeAt(m_goal).parent; i >= 0; i = nodeAt(i).parent) {
    route.push_back(pointOf(i));
  }
  std::reverse(route.begin() + std::ptrdiff_t(first), route.end());
  out.costUnits = nodeAt(m_goal).g;
  if (m_start == m_goal) {
    // One tile: through its centre (both pieces probed in findPath), or straight across.
    out.costUnits = m_startPieceUnits + m_goalPieceUnits;
    const SegmentProbe across = m_sight->probe(m_startPoint, m_goalPoint, m_radius);
    if (!across.clear || toCostUnits(across.cost, layout) > out.costUnits) {
      route.push_back(pointOf(m_goal));
    } else {
      out.costUnits = toCostUnits(across.cost, layout);
    }
  } else if (!m_goalDirect) {
    route.push_back(pointOf(m_goal));
  }
  route.push_back(m_goalPoint);

  double length = 0.0;
  m_localRoute.clear();
  for (std::size_t v = 0; v < route.size(); ++v) {
    if (v > 0) length += double((route[v] - route[v - 1]).norm());
    m_localRoute.push_back(layout.toLocal(route[v]));
  }
  traceRoute(out, false);  // (clear segments: no tile they cross is blocked)
  out.reached = m_goalCell;
  out.cost = double(out.costUnits) / double(kCostScale);
  out.length = length / double(layout.tileSize());
}

// The route's tiles, into out.path: those each segment of m_localRoute crosses, in order, and a
// point of the route in each (out.through; the vertices' tiles in out.vertexTiles). Where the
// route passes from one tile to another only through a shared corner, the tile path steps through
// a passable tile touching that place, so every step is a legal move. `alongEdges`: the route may
// run along tiles' edges (the exact any-angle route does, by walls), where it crosses no tile's
// inside; there the passable tile beside the edge counts as crossed. False (alongEdges only) when
// a tile crossed, or both beside an edge, cannot be entered, or two tiles in a row meet only at a
// corner no passable tile bridges.
bool SearchContext::traceRoute(SearchResult& out, bool alongEdges) {
  const SearchGrid& grid = *m_grid;
  const Layout& layout = grid.layout();
  out.path.assign(1, grid.cellOf(m_start));
  out.through.assign(1, m_startPoint);
  out.vertexTiles.assign(1, 0);
  bool legal = true;
  auto append = [&](Cell cell, Vec2 entry, Vec2 inside) {
    if (cell == out.path.back()) return;
    if (!legalStep(grid, out.path.back(), cell)) {
      bool bridged = false;
      for (const NeighbourStep& step : layout.moves(out.path.back())) {
        const Cell side{out.path.back().x + step.dx, out.path.back().y + step.dy};
        if (legalStep(grid, out.path.back(), side) && legalStep(grid, side, cell)) {
          out.path.push_back(side);
          out.through.push_back(entry);
          bridged = true;
          break;
        }
      }
      legal = legal && bridged;
    }
    out.path.push_back(cell);
    out.through.push_back(inside);
  };
  const std::vector<Eigen::Vector2d>& route = m_localRoute;
  for (std::size_t v = 1; v < route.size(); ++v) {
    const Eigen::Vector2d from = route[v - 1], along = route[v] - from;
    if (along != Eigen::Vector2d::Zero()) {
      auto onInterior = [&](Cell cell, double t0, double t1) {
        if (alongEdges && !grid.passable(cell)) return false;
        append(cell, layout.toWorld(from + along * t0), layout.toWorld(from + along * (0.5 * (t0 + t1))));
        return true;
      };
      auto onContact = [&](const detail::SideContact& contact) {
        if (!alongEdges || contact.t1 <= contact.t0) return true;
        for (const detail::TileSet* side : {&contact.left, &contact.right}) {
          for (int i = 0; i < side->count; ++i) {
            if (grid.passable(side->cells[std::size_t(i)])) {
              append(side->cells[std::size_t(i)], layout.toWorld(from + along * contact.t0),
                     layout.toWorld(from + along * (0.5 * (contact.t0 + contact.t1))));
              return true;
            }
          }
        }
        return false;
      };
      const bool traced = detail::walkSegment(layout, from, from + along, onInterior, onContact);
      if (!traced) return false;
    }
    if (v + 1 < route.size()) {
      // The vertex itself, so that the route's turns are kept exactly.
      out.through.back() = out.vertices[v];
    } else {
      // A goal point on the goal tile's border may leave the walk in a neighbouring tile.
      append(m_goalCell, m_goalPoint, m_goalPoint);
    }
    out.vertexTiles.push_back(std::int32_t(out.path.size() - 1));
  }
  return legal || !alongEdges;
}

// --- Four-ary min-heap of open entries, ordered by heapLess (a total order, so the pop order and
// every result are the same as with any other heap). Four children per entry halve the depth a
// pop sifts through against a binary heap; the children sit side by side in memory.

void SearchContext::clearOpen() {
  m_heap.clear();
  m_hasHeld = false;
  // (A context moved from has no buckets left, whatever its counts say.)
  for (std::size_t k = m_nextBucket; k < std::min(m_bucketsUsed, m_buckets.size()); ++k) m_buckets[k].clear();
  m_nextBucket = m_bucketsUsed = 0;
  m_beyond.clear();
}

[[gnu::noinline]] void SearchContext::refillHeap() {
  while (m_heap.empty()) {
    if (m_nextBucket == m_bucketsUsed) {
      // The buckets ran dry: those beyond them start a new run of buckets at the least of them.
      if (m_beyond.empty()) return;
      std::int64_t least = m_beyond.front().f;
      for (const HeapEntry& entry : m_beyond) least = std::min(least, entry.f);
      m_firstBucketKey = least >> kBucketShift;
      m_nextBucket = m_bucketsUsed = 0;
      std::size_t kept = 0;
      for (const HeapEntry& entry : m_beyond) {
        const std::size_t index = std::size_t((entry.f >> kBucketShift) - m_firstBucketKey);
        if (index < kBucketCount) {
          putInBucket(index, entry);
        } else {
          m_beyond[kept++] = entry;
        }
      }
      m_beyond.resize(kept);
    }
    // The next bucket's entries go into the heap, in heap order bottom-up (Floyd): linear in
    // their number.
    std::vector<HeapEntry>& bucket = m_buckets[m_nextBucket++];
    m_heap.assign(bucket.begin(), bucket.end());
    bucket.clear();
    if (m_heap.size() > 1) {
      for (std::size_t k = (m_heap.size() - 2) / 4 + 1; k-- > 0;) siftDown(k);  // (from the last parent)
    }
  }
}

[[gnu::noinline]] void SearchContext::settle(HeapEntry entry) {
  // Buckets up to the last one moved into the heap are the heap's (an f below the start's,
  // under the landmarks' rounding, too); past the last bucket, m_beyond.
  const std::int64_t key = (entry.f >> kBucketShift) - m_firstBucketKey;
  if (key < std::int64_t(m_nextBucket)) {
    siftIn(entry);
    return;
  }
  if (key >= std::int64_t(kBucketCount)) {
    m_beyond.push_back(entry);
    return;
  }
  putInBucket(std::size_t(key), entry);
}

void SearchContext::putInBucket(std::size_t index, HeapEntry entry) {
  if (index >= m_buckets.size()) m_buckets.resize(index + 1);
  m_buckets[index].push_back(entry);
  m_bucketsUsed = std::max(m_bucketsUsed, index + 1);
}

// The open list's least entry is often the one pushed last (a jump toward the goal keeps f):
// the best of the entries pushed since the last pop waits outside the heap, and a pop that finds
// it below the heap's top takes it without sifting. Pops come out in the same order.
[[gnu::always_inline]] inline void SearchContext::heapPush(HeapEntry entry) {
  ++m_generated;
  if (!m_hasHeld) {
    m_held = entry;
    m_hasHeld = true;
    return;
  }
  if (heapLess(entry.f, entry.g, entry.node, m_held.f, m_held.g, m_held.node)) std::swap(entry, m_held);
  if (m_bucketed) [[unlikely]] {  // (out of line: the plain searches' push stays small)
    settle(entry);
    return;
  }
  siftIn(entry);
}

SearchContext::HeapEntry SearchContext::heapPop() {
  if (m_hasHeld && (m_heap.empty() || heapLess(m_held.f, m_held.g, m_held.node, m_heap.front().f, m_heap.front().g,
                                                 m_heap.front().node))) {
    m_hasHeld = false;
    return m_held;
  }
  return siftOut();
}

[[gnu::always_inline]] inline void SearchContext::siftIn(HeapEntry entry) {
  m_heap.push_back(entry);
  std::size_t position = m_heap.size() - 1;
  while (position > 0) {
    const std::size_t parent = (position - 1) / 4;
    const HeapEntry& above = m_heap[parent];
    if (!heapLess(entry.f, entry.g, entry.node, above.f, above.g, above.node)) break;
    m_heap[position] = above;
    position = parent;
  }
  m_heap[position] = entry;
}

[[gnu::always_inline]] inline void SearchContext::siftDown(std::size_t position) {
  HeapEntry* heap = m_heap.data();
  const std::size_t size = m_heap.size();
  const HeapEntry moving = heap[position];
  while (true) {
    const std::size_t first = 4 * position + 1;
    if (first >= size) break;
    std::size_t child = first;
    const std::size_t end = std::min(first + 4, size);
    for (std::size_t other = first + 1; other < end; ++other) {
      if (heapLess(heap[other].f, heap[other].g, heap[other].node, heap[child].f, heap[child].g, heap[child].node)) {
        child = other;
      }
    }
    const HeapEntry& below = heap[child];
    if (!heapLess(below.f, below.g, below.node, moving.f, moving.g, moving.node)) break;
    heap[position] = below;
    position = child;
  }
  heap[position] = moving;
}

SearchContext::HeapEntry SearchContext::siftOut() {
  const HeapEntry top = m_heap.front();
  m_heap.front() = m_heap.back();
  m_heap.pop_back();
  if (!m_heap.empty()) siftDown(0);
  return top;
}

}  // namespace rpgnav
