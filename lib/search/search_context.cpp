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
// Here: the node store, the search's loop, heuristics and relaxing. A search's start (the request
// checked, goals and their fallback chosen, the first nodes) is in search_start.cpp, the jumps and
// gates in jump_points.cpp, the open list in open_list.cpp, the route out of a search in
// route_building.cpp.
#include "search/search_context.hpp"

#include "core/distances.hpp"
#include "search/open_list.hpp"
#include "search/search_units.hpp"

#include <algorithm>
#include <cmath>

namespace rpgnav {
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

void SearchContext::openHexJump(Node& node, std::int32_t index, Axial axial, std::int64_t g, std::int32_t parent) {
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
