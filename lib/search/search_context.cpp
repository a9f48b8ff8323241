// SPDX-License-Identifier: MIT
// A* with optional jump point pruning, over the padded tile arrays of a SearchGrid.
//
// Jump points (8-connected squares, no corner cutting): a tile is "uniform" when it and all its
// passable neighbours cost the same. Inside uniform areas the grid behaves like an unweighted
// grid scaled by that cost, so the classic jump point rules hold there; jumps stop at any
// non-uniform tile and such tiles are expanded with all their neighbours, which keeps the search
// exact on weighted maps (the idea of JPSW, Carlson et al. 2023, in its simplest form). Every
// tile a jump enters has the cost of its first tile, so a jump of k steps costs k step costs.
#include "rpgnav/search/search_context.hpp"


#include <algorithm>
#include <cmath>

namespace rpgnav {
namespace {

constexpr int sign(std::int32_t v) { return (v > 0) - (v < 0); }

// Direction codes for the 3 bits a node keeps: index (dx+1)*3 + (dy+1) -> code, and back.
constexpr std::uint32_t kDirectionCode[9] = {0, 1, 2, 3, 0, 4, 5, 6, 7};
constexpr std::int32_t kCodeDx[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
constexpr std::int32_t kCodeDy[8] = {-1, 0, 1, -1, 1, -1, 0, 1};

bool heapLess(std::int64_t af, std::int64_t ag, std::int32_t an, std::int64_t bf, std::int64_t bg, std::int32_t bn) {
  if (af != bf) return af < bf;
  if (ag != bg) return ag > bg;  // deeper first: fewer re-expansions of equal-f plateaus
  return an < bn;
}

// The reachable tile (same region as `from`) whose centre is nearest to `goal`'s; ties go to the
// earlier tile in row-major order. Scans rings of growing offset distance and stops once no
// further ring can hold a nearer centre.
Cell nearestReachable(const SearchGrid& grid, std::uint32_t region, Cell goal) {
  const Layout& layout = grid.layout();
  const Eigen::Vector2d target = layout.localCenter(goal);
  // A tile r rings away (Chebyshev in offset coordinates) has its centre at least this far away
  // per ring: squares exactly 1; hexes at least 1/2 (rows are √3/2 apart, odd rows shifted 1/2).
  const double perRing = layout.isHex() ? 0.5 : 1.0;
  Cell best{-1, -1};
  double bestDistance = std::numeric_limits<double>::infinity();
  // Rings beyond the farthest map border hold no tiles; each ring is clipped to the map, so the
  // scan costs at most the area up to the answer.
  const std::int32_t maxRing = std::max({goal.x, grid.width() - 1 - goal.x, goal.y, grid.height() - 1 - goal.y});
  auto consider = [&](Cell c) {
    if (grid.regions().regionOf(c) != region) return;
    const double d = (layout.localCenter(c) - target).squaredNorm();
    if (d < bestDistance || (d == bestDistance && c < best)) {
      best = c;
      bestDistance = d;
    }
  };
  for (std::int32_t r = 0; r <= maxRing; ++r) {
    const double lower = perRing * r;
    if (lower * lower > bestDistance) break;
    const std::int32_t y0 = std::max(goal.y - r, 0), y1 = std::min(goal.y + r, grid.height() - 1);
    for (std::int32_t y = y0; y <= y1; ++y) {
      if (y == goal.y - r || y == goal.y + r) {
        const std::int32_t x0 = std::max(goal.x - r, 0), x1 = std::min(goal.x + r, grid.width() - 1);
        for (std::int32_t x = x0; x <= x1; ++x) consider({x, y});
      } else {
        if (goal.x - r >= 0) consider({goal.x - r, y});
        if (goal.x + r < grid.width()) consider({goal.x + r, y});
      }
    }
  }
  return best;
}

}  // namespace

void SearchContext::finish(Status status, const char* reason, SearchResult& out) {
  m_suspended = false;
  out.status = status;
  out.reason = reason;
  out.expanded = m_expanded;
}

Status SearchContext::findPath(const SearchGrid& grid, const SearchRequest& request, SearchResult& out) {
  m_suspended = false;
  m_expanded = 0;
  out.path.clear();
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
  Cell goal = request.goal;
  m_partial = false;
  const std::uint32_t region = grid.regions().regionOf(request.start);
  if (!grid.passable(goal) || grid.regions().regionOf(goal) != region) {
    if (!request.nearestIfUnreachable) {
      if (!grid.passable(goal)) {
        finish(Status::GoalBlocked, "goal tile cannot be entered by this mobility", out);
      } else {
        finish(Status::NoPath, "goal lies in another region than the start", out);
      }
      return out.status;
    }
    goal = nearestReachable(grid, region, goal);
    m_partial = true;
  }

  m_grid = &grid;
  if (m_nodes.size() < std::size_t(grid.paddedCount())) m_nodes.resize(std::size_t(grid.paddedCount()), Node{});
  if (++m_generation == kGenerationLimit) {  // wrapped: old stamps could alias, so clear them
    for (Node& node : m_nodes) node.stamp = 0;
    m_generation = 1;
  }
  m_heap.clear();
  m_start = grid.padded(request.start);
  m_goal = grid.padded(goal);
  m_goalCell = goal;
  m_goalX = goal.x + 1;
  m_goalY = goal.y + 1;
  m_jumpPoints = request.jumpPoints && grid.layout().kind() == LayoutKind::Square && grid.layout().connectivity() == 8;
  Node& start = m_nodes[std::size_t(m_start)];
  start = Node{0, -1, m_generation << 4};
  m_landmarkCount = grid.landmarkCount();
  if (m_landmarkCount > 0) {
    const std::uint32_t* goalDistances = grid.landmarkDistances(m_goal);
    std::copy(goalDistances, goalDistances + 2 * m_landmarkCount, m_goalLandmarks.begin());
  }
  heapPush({heuristic(request.start, m_start), 0, m_start});
  return run(request.maxExpansions, out);
}

Status SearchContext::resume(std::int64_t maxExpansions, SearchResult& out) {
  if (!m_suspended || m_grid == nullptr) {
    out.status = Status::InvalidArgument;
    out.reason = "no suspended search to resume";
    return out.status;
  }
  return run(maxExpansions, out);
}

Status SearchContext::run(std::int64_t maxExpansions, SearchResult& out) {
  std::int64_t expandedHere = 0;
  while (!m_heap.empty()) {
    if (maxExpansions > 0 && expandedHere >= maxExpansions) {
      out.status = Status::BudgetExhausted;
      out.reason = "node expansion budget used up; resume() continues";
      out.expanded = m_expanded;
      m_suspended = true;
      return out.status;
    }
    const HeapEntry top = heapPop();
    Node& popped = m_nodes[std::size_t(top.node)];
    // Improvements push a fresh entry instead of moving the old one (no position bookkeeping
    // in the node array, so sifting touches only the heap); skip the outdated copies here.
    if ((popped.stamp & kClosedBit) != 0 || top.g != popped.g) continue;
    popped.stamp |= kClosedBit;
    if (top.node == m_goal) {
      buildPath(out);
      finish(m_partial ? Status::PartialPath : Status::Ok, m_partial ? "goal unreachable; path to the nearest reachable tile" : "", out);
      return out.status;
    }
    ++m_expanded;
    ++expandedHere;
    if (m_jumpPoints) {
      expandJumpPoint(top.node);
    } else {
      expandAll(top.node);
    }
  }
  finish(Status::NoPath, "no path", out);
  return out.status;
}

std::int64_t SearchContext::heuristic(Cell c, std::int32_t index) const noexcept {
  const SearchGrid& grid = *m_grid;
  std::int64_t h;
  if (grid.layout().isHex()) {
    h = grid.layout().stepDistance(c, m_goalCell) * grid.minStraightCost();
  } else {
    const std::int64_t dx = std::abs(c.x - m_goalCell.x), dy = std::abs(c.y - m_goalCell.y);
    if (grid.layout().connectivity() == 4) {
      h = (dx + dy) * grid.minStraightCost();
    } else {
      const std::int64_t diagonal = std::min(dx, dy);
      h = (std::max(dx, dy) - diagonal) * grid.minStraightCost() + diagonal * grid.minDiagonalCost();
    }
  }
  if (m_landmarkCount == 0) return h;
  // ALT: d(n,goal) >= d(L,goal) - d(L,n) and d(n,goal) >= d(n,L) - d(goal,L). Stored distances
  // are rounded down to whole quanta, so each bound gives up one quantum to stay a lower bound.
  const std::uint32_t* here = grid.landmarkDistances(index);
  std::int64_t quanta = 0;
  for (int k = 0; k < 2 * m_landmarkCount; k += 2) {
    if (here[k] != SearchGrid::kLandmarkUnknown && m_goalLandmarks[k] != SearchGrid::kLandmarkUnknown) {
      quanta = std::max(quanta, std::int64_t(m_goalLandmarks[k]) - std::int64_t(here[k]) - 1);
    }
    if (here[k + 1] != SearchGrid::kLandmarkUnknown && m_goalLandmarks[k + 1] != SearchGrid::kLandmarkUnknown) {
      quanta = std::max(quanta, std::int64_t(here[k + 1]) - std::int64_t(m_goalLandmarks[k + 1]) - 1);
    }
  }
  return std::max(h, quanta * SearchGrid::kLandmarkQuantum);
}

void SearchContext::relax(std::int32_t index, Cell cell, std::int64_t g, std::int32_t parent, std::int32_t dx,
                          std::int32_t dy) {
  Node& node = m_nodes[std::size_t(index)];
  const std::uint32_t fresh = (m_generation << 4) | kDirectionCode[(dx + 1) * 3 + dy + 1];
  if ((node.stamp >> 4) != m_generation) {
    node = Node{g, parent, fresh};
    heapPush({g + heuristic(cell, index), g, index});
    return;
  }
  // A closed node can improve only under the landmark heuristic, whose rounding may break
  // consistency by a quantum: reopening it keeps the search exact.
  if (g >= node.g) return;
  node.g = g;
  node.parent = parent;
  node.stamp = fresh;
  heapPush({g + heuristic(cell, index), g, index});
}

void SearchContext::expandAll(std::int32_t index) {
  const SearchGrid& grid = *m_grid;
  const std::uint8_t* cls = grid.classes();
  const std::int32_t pw = grid.paddedWidth();
  const Cell cell = grid.cellOf(index);
  const auto moves = grid.layout().moves(cell);
  const std::int64_t g = m_nodes[std::size_t(index)].g;
  const bool closeGaps = grid.closesNarrowGaps();
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const NeighbourStep& step = moves[i];
    const std::int32_t next = index + step.dx + step.dy * pw;
    const std::uint8_t costClass = cls[next];
    if (costClass == 0) continue;
    if (closeGaps) {
      // Hex tables run round the tile, so the tiles at the two ends of the edge crossed by
      // step i are steps i-1 and i+1.
      const NeighbourStep& before = moves[(i + moves.size() - 1) % moves.size()];
      const NeighbourStep& after = moves[(i + 1) % moves.size()];
      if (cls[index + before.dx + before.dy * pw] == 0 && cls[index + after.dx + after.dy * pw] == 0) continue;
    }
    if (!step.sharesEdge) {  // square diagonal: both orthogonal tiles must be passable
      const NeighbourStep& a = moves[std::size_t(step.requiresA)];
      const NeighbourStep& b = moves[std::size_t(step.requiresB)];
      if (cls[index + a.dx + a.dy * pw] == 0 || cls[index + b.dx + b.dy * pw] == 0) continue;
      relax(next, {cell.x + step.dx, cell.y + step.dy}, g + grid.diagonalCost(costClass), index, step.dx, step.dy);
    } else {
      relax(next, {cell.x + step.dx, cell.y + step.dy}, g + grid.straightCost(costClass), index, step.dx, step.dy);
    }
  }
}

std::int32_t SearchContext::jumpStraight(std::int32_t x, std::int32_t y, std::int32_t dx, std::int32_t dy,
                                         std::int32_t& steps) const noexcept {
  // Looks the jump up in the grid's precomputed table; only the goal, which the table cannot
  // know, is checked here (a jump passing over the goal stops on it).
  const SearchGrid& grid = *m_grid;
  const std::int32_t pw = grid.paddedWidth();
  const int direction = dx > 0 ? 0 : dx < 0 ? 1 : dy > 0 ? 2 : 3;
  const std::int32_t stride = dx + dy * pw;
  const bool goalOnLine = dx != 0 ? m_goalY == y : m_goalX == x;
  // Tiles from (x, y) to the goal along the direction (meaningful when goalOnLine).
  const std::int32_t toGoal = dx != 0 ? (m_goalX - x) * dx : (m_goalY - y) * dy;
  std::int32_t n = y * pw + x, travelled = 0;
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

void SearchContext::jumpDiagonal(std::int32_t index, std::int32_t dx, std::int32_t dy) {
  // Walks the diagonal; at every diagonal tile the two straight jumps it would make are run at
  // once and their jump points become successors of `index` directly ("diagonal first, then
  // straight", Harabor & Grastien 2014), so the diagonal tiles themselves are never queued.
  const SearchGrid& grid = *m_grid;
  const std::uint8_t* cls = grid.classes();
  const std::uint8_t* uniform = grid.uniform();
  const std::int32_t pw = grid.paddedWidth();
  const std::int32_t vertical = dy * pw;
  const std::int64_t g = m_nodes[std::size_t(index)].g;
  // Every tile entered has the cost of the first one (the others neighbour uniform tiles).
  const std::uint8_t costClass = cls[index + dx + vertical];
  const std::int64_t diagonalCost = grid.diagonalCost(costClass), straightCost = grid.straightCost(costClass);
  std::int32_t n = index, x = index % pw, y = index / pw;
  for (std::int64_t k = 1;; ++k) {
    if (cls[n + dx] == 0 || cls[n + vertical] == 0) return;  // no corner cutting
    n += dx + vertical;
    x += dx;
    y += dy;
    if (cls[n] == 0) return;
    const std::int64_t gHere = g + k * diagonalCost;
    if (n == m_goal || uniform[n] == 0) {
      relax(n, {x - 1, y - 1}, gHere, index, dx, dy);
      return;
    }
    std::int32_t steps = 0;
    const std::int32_t across = jumpStraight(x, y, dx, 0, steps);
    if (across >= 0) relax(across, {x - 1 + dx * steps, y - 1}, gHere + steps * straightCost, index, dx, 0);
    const std::int32_t down = jumpStraight(x, y, 0, dy, steps);
    if (down >= 0) relax(down, {x - 1, y - 1 + dy * steps}, gHere + steps * straightCost, index, 0, dy);
  }
}

void SearchContext::expandJumpPoint(std::int32_t index) {
  const SearchGrid& grid = *m_grid;
  const std::uint8_t* cls = grid.classes();
  const std::int32_t pw = grid.paddedWidth();
  const Node node = m_nodes[std::size_t(index)];
  const std::int32_t x = index % pw, y = index / pw;

  // Directions to search from this node, as (dx, dy) pairs.
  std::int32_t directions[8][2];
  int count = 0;
  auto add = [&](std::int32_t dx, std::int32_t dy) {
    directions[count][0] = dx;
    directions[count][1] = dy;
    ++count;
  };
  if (node.parent < 0 || grid.uniform()[index] == 0) {
    for (const NeighbourStep& step : grid.layout().moves({0, 0})) add(step.dx, step.dy);
  } else {
    const std::int32_t dx = kCodeDx[node.stamp & 7], dy = kCodeDy[node.stamp & 7];
    if (dx != 0 && dy != 0) {
      add(dx, 0);
      add(0, dy);
      add(dx, dy);
    } else if (dx != 0) {
      add(dx, 0);
      for (std::int32_t s : {-1, 1}) {
        if (cls[index - dx + s * pw] == 0 && cls[index + s * pw] != 0) {
          add(0, s);
          add(dx, s);
        }
      }
    } else {
      add(0, dy);
      for (std::int32_t s : {-1, 1}) {
        if (cls[index + s - dy * pw] == 0 && cls[index + s] != 0) {
          add(s, 0);
          add(s, dy);
        }
      }
    }
  }

  for (int i = 0; i < count; ++i) {
    const std::int32_t dx = directions[i][0], dy = directions[i][1];
    const std::int32_t next = index + dx + dy * pw;
    const std::uint8_t costClass = cls[next];
    if (costClass == 0) continue;
    if (dx != 0 && dy != 0) {
      jumpDiagonal(index, dx, dy);
      continue;
    }
    std::int32_t steps = 0;
    const std::int32_t target = jumpStraight(x, y, dx, dy, steps);
    if (target < 0) continue;
    relax(target, {x - 1 + dx * steps, y - 1 + dy * steps}, node.g + steps * grid.straightCost(costClass), index,
          dx, dy);
  }
}

void SearchContext::buildPath(SearchResult& out) const {
  const SearchGrid& grid = *m_grid;
  // Parents link jump points (or plain neighbours). Between a parent and its child the route is
  // "diagonal first, then straight": min(|dx|,|dy|) diagonal steps, then the rest along one
  // axis — exactly how jumps travel. Hex parents are always neighbours, one step apart.
  const bool hex = grid.layout().isHex();
  std::size_t total = 1;
  std::int64_t straight = 0, diagonal = 0;
  for (std::int32_t i = m_goal; m_nodes[std::size_t(i)].parent >= 0; i = m_nodes[std::size_t(i)].parent) {
    const Cell a = grid.cellOf(m_nodes[std::size_t(i)].parent), b = grid.cellOf(i);
    const std::int32_t ax = std::abs(b.x - a.x), ay = std::abs(b.y - a.y);
    total += std::size_t(std::max(ax, ay));
    const std::int32_t diagonalSteps = hex ? 0 : std::min(ax, ay);
    diagonal += diagonalSteps;
    straight += std::max(ax, ay) - diagonalSteps;
  }
  out.path.resize(total);
  std::size_t write = total;
  for (std::int32_t i = m_goal;; i = m_nodes[std::size_t(i)].parent) {
    Cell b = grid.cellOf(i);
    out.path[--write] = b;
    const std::int32_t parent = m_nodes[std::size_t(i)].parent;
    if (parent < 0) break;
    const Cell a = grid.cellOf(parent);
    if (hex) continue;
    // Walk back from b: first the straight part, then the diagonal part.
    const std::int32_t dx = sign(b.x - a.x), dy = sign(b.y - a.y);
    const std::int32_t ax = std::abs(b.x - a.x), ay = std::abs(b.y - a.y);
    for (std::int32_t k = std::max(ax, ay) - std::min(ax, ay); k > 0; --k) {
      b = ax > ay ? Cell{b.x - dx, b.y} : Cell{b.x, b.y - dy};
      if (b != a) out.path[--write] = b;
    }
    while (b != a) {
      b = {b.x - dx, b.y - dy};
      if (b != a) out.path[--write] = b;
    }
  }
  out.reached = m_goalCell;
  out.costUnits = m_nodes[std::size_t(m_goal)].g;
  out.cost = double(out.costUnits) / double(kCostScale);
  out.length = double(straight) + double(diagonal) * std::sqrt(2.0);
}

// --- Binary min-heap of open entries, ordered by heapLess. ---

void SearchContext::heapPush(HeapEntry entry) {
  m_heap.push_back(entry);
  std::size_t position = m_heap.size() - 1;
  while (position > 0) {
    const std::size_t parent = (position - 1) / 2;
    const HeapEntry& above = m_heap[parent];
    if (!heapLess(entry.f, entry.g, entry.node, above.f, above.g, above.node)) break;
    m_heap[position] = above;
    position = parent;
  }
  m_heap[position] = entry;
}

SearchContext::HeapEntry SearchContext::heapPop() {
  const HeapEntry top = m_heap.front();
  const HeapEntry last = m_heap.back();
  m_heap.pop_back();
  const std::size_t size = m_heap.size();
  if (size == 0) return top;
  std::size_t position = 0;
  while (true) {
    std::size_t child = 2 * position + 1;
    if (child >= size) break;
    if (child + 1 < size && heapLess(m_heap[child + 1].f, m_heap[child + 1].g, m_heap[child + 1].node,
                                     m_heap[child].f, m_heap[child].g, m_heap[child].node)) {
      ++child;
    }
    const HeapEntry& below = m_heap[child];
    if (!heapLess(below.f, below.g, below.node, last.f, last.g, last.node)) break;
    m_heap[position] = below;
    position = child;
  }
  m_heap[position] = last;
  return top;
}

}  // namespace rpgnav
