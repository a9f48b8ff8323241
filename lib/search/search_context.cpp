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
  const std::int32_t maxRing = std::max(grid.width(), grid.height());
  auto consider = [&](Cell c) {
    if (!grid.contains(c) || grid.regions().regionOf(c) != region) return;
    const double d = (layout.localCenter(c) - target).squaredNorm();
    if (d < bestDistance || (d == bestDistance && c < best)) {
      best = c;
      bestDistance = d;
    }
  };
  for (std::int32_t r = 0; r <= maxRing; ++r) {
    const double lower = perRing * r;
    if (lower * lower > bestDistance) break;
    for (std::int32_t dy = -r; dy <= r; ++dy) {
      if (dy == -r || dy == r) {
        for (std::int32_t dx = -r; dx <= r; ++dx) consider({goal.x + dx, goal.y + dy});
      } else {
        consider({goal.x - r, goal.y + dy});
        consider({goal.x + r, goal.y + dy});
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
  if (++m_generation == 0) {  // wrapped after 2^32 searches: old stamps could alias
    for (Node& node : m_nodes) node.generation = 0;
    m_generation = 1;
  }
  m_heap.clear();
  m_start = grid.padded(request.start);
  m_goal = grid.padded(goal);
  m_goalCell = goal;
  m_jumpPoints = request.jumpPoints && grid.layout().kind() == LayoutKind::Square && grid.layout().connectivity() == 8;
  Node& start = m_nodes[std::size_t(m_start)];
  start = Node{0, -1, m_generation, 0};
  heapPush({heuristic(m_start), 0, m_start});
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
    m_nodes[std::size_t(top.node)].heapPosition = kClosed;
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

std::int64_t SearchContext::heuristic(std::int32_t node) const noexcept {
  const SearchGrid& grid = *m_grid;
  const Cell c = grid.cellOf(node);
  if (grid.layout().isHex()) return grid.layout().stepDistance(c, m_goalCell) * grid.minStraightCost();
  const std::int64_t dx = std::abs(c.x - m_goalCell.x), dy = std::abs(c.y - m_goalCell.y);
  if (grid.layout().connectivity() == 4) return (dx + dy) * grid.minStraightCost();
  const std::int64_t diagonal = std::min(dx, dy);
  return (std::max(dx, dy) - diagonal) * grid.minStraightCost() + diagonal * grid.minDiagonalCost();
}

void SearchContext::relax(std::int32_t index, std::int64_t g, std::int32_t parent) {
  Node& node = m_nodes[std::size_t(index)];
  if (node.generation != m_generation) {
    node = Node{g, parent, m_generation, 0};
    heapPush({g + heuristic(index), g, index});
    return;
  }
  if (node.heapPosition == kClosed || g >= node.g) return;
  HeapEntry& entry = m_heap[std::size_t(node.heapPosition)];
  entry.f += g - node.g;
  entry.g = g;
  node.g = g;
  node.parent = parent;
  siftUp(std::size_t(node.heapPosition));
}

void SearchContext::expandAll(std::int32_t index) {
  const SearchGrid& grid = *m_grid;
  const std::uint8_t* cls = grid.classes();
  const std::int32_t pw = grid.paddedWidth();
  const auto moves = grid.layout().moves(grid.cellOf(index));
  const std::int64_t g = m_nodes[std::size_t(index)].g;
  for (const NeighbourStep& step : moves) {
    const std::int32_t next = index + step.dx + step.dy * pw;
    const std::uint8_t costClass = cls[next];
    if (costClass == 0) continue;
    if (!step.sharesEdge) {  // square diagonal: both orthogonal tiles must be passable
      const NeighbourStep& a = moves[std::size_t(step.requiresA)];
      const NeighbourStep& b = moves[std::size_t(step.requiresB)];
      if (cls[index + a.dx + a.dy * pw] == 0 || cls[index + b.dx + b.dy * pw] == 0) continue;
      relax(next, g + grid.diagonalCost(costClass), index);
    } else {
      relax(next, g + grid.straightCost(costClass), index);
    }
  }
}

std::int32_t SearchContext::jumpStraight(std::int32_t from, std::int32_t step, std::int32_t& steps) const noexcept {
  const SearchGrid& grid = *m_grid;
  const std::uint8_t* cls = grid.classes();
  const std::uint8_t* uniform = grid.uniform();
  const std::int32_t side = (step == 1 || step == -1) ? grid.paddedWidth() : 1;
  std::int32_t n = from;
  steps = 0;
  while (true) {
    n += step;
    ++steps;
    if (cls[n] == 0) return -1;
    if (n == m_goal || uniform[n] == 0) return n;
    // Forced neighbour: a side tile opens up where the tile behind it was blocked.
    if ((cls[n - step + side] == 0 && cls[n + side] != 0) || (cls[n - step - side] == 0 && cls[n - side] != 0)) {
      return n;
    }
  }
}

std::int32_t SearchContext::jumpDiagonal(std::int32_t from, std::int32_t dx, std::int32_t dy,
                                         std::int32_t& steps) const noexcept {
  const SearchGrid& grid = *m_grid;
  const std::uint8_t* cls = grid.classes();
  const std::uint8_t* uniform = grid.uniform();
  const std::int32_t vertical = dy * grid.paddedWidth();
  std::int32_t n = from;
  steps = 0;
  while (true) {
    if (cls[n + dx] == 0 || cls[n + vertical] == 0) return -1;  // no corner cutting
    n += dx + vertical;
    ++steps;
    if (cls[n] == 0) return -1;
    if (n == m_goal || uniform[n] == 0) return n;
    std::int32_t ignored;
    if (jumpStraight(n, dx, ignored) >= 0 || jumpStraight(n, vertical, ignored) >= 0) return n;
  }
}

void SearchContext::expandJumpPoint(std::int32_t index) {
  const SearchGrid& grid = *m_grid;
  const std::uint8_t* cls = grid.classes();
  const std::int32_t pw = grid.paddedWidth();
  const Node node = m_nodes[std::size_t(index)];

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
    const Cell here = grid.cellOf(index), from = grid.cellOf(node.parent);
    const std::int32_t dx = sign(here.x - from.x), dy = sign(here.y - from.y);
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
    const bool diagonal = dx != 0 && dy != 0;
    if (diagonal && (cls[index + dx] == 0 || cls[index + dy * pw] == 0)) continue;
    std::int32_t steps = 0;
    const std::int32_t target = diagonal ? jumpDiagonal(index, dx, dy, steps) : jumpStraight(index, dx + dy * pw, steps);
    if (target < 0) continue;
    const std::int64_t stepCost = diagonal ? grid.diagonalCost(costClass) : grid.straightCost(costClass);
    relax(target, node.g + steps * stepCost, index);
  }
}

void SearchContext::buildPath(SearchResult& out) const {
  const SearchGrid& grid = *m_grid;
  // Parents link jump points (or neighbours); consecutive ones always lie on a straight or
  // diagonal line, so the tiles between them follow from the direction. Hex parents are always
  // neighbours (no jumps on hexes), one step apart.
  std::size_t total = 1;
  std::int64_t straight = 0, diagonal = 0;
  for (std::int32_t i = m_goal; m_nodes[std::size_t(i)].parent >= 0; i = m_nodes[std::size_t(i)].parent) {
    const Cell a = grid.cellOf(m_nodes[std::size_t(i)].parent), b = grid.cellOf(i);
    const std::int32_t steps = std::max(std::abs(b.x - a.x), std::abs(b.y - a.y));
    total += std::size_t(steps);
    const bool isDiagonal = !grid.layout().isHex() && a.x != b.x && a.y != b.y;
    (isDiagonal ? diagonal : straight) += steps;
  }
  out.path.resize(total);
  std::size_t write = total;
  for (std::int32_t i = m_goal;; i = m_nodes[std::size_t(i)].parent) {
    const Cell b = grid.cellOf(i);
    out.path[--write] = b;
    const std::int32_t parent = m_nodes[std::size_t(i)].parent;
    if (parent < 0) break;
    const Cell a = grid.cellOf(parent);
    const std::int32_t dx = sign(b.x - a.x), dy = sign(b.y - a.y);
    const std::int32_t steps = std::max(std::abs(b.x - a.x), std::abs(b.y - a.y));
    for (std::int32_t k = steps - 1; k >= 1; --k) out.path[--write] = {a.x + dx * k, a.y + dy * k};
  }
  out.reached = m_goalCell;
  out.costUnits = m_nodes[std::size_t(m_goal)].g;
  out.cost = double(out.costUnits) / double(kCostScale);
  out.length = double(straight) + double(diagonal) * std::sqrt(2.0);
}

// --- Binary heap of open nodes; each node knows its heap position for decrease-key. ---

void SearchContext::heapPush(HeapEntry entry) {
  m_heap.push_back(entry);
  m_nodes[std::size_t(entry.node)].heapPosition = std::int32_t(m_heap.size() - 1);
  siftUp(m_heap.size() - 1);
}

SearchContext::HeapEntry SearchContext::heapPop() {
  const HeapEntry top = m_heap.front();
  m_heap.front() = m_heap.back();
  m_heap.pop_back();
  if (!m_heap.empty()) {
    m_nodes[std::size_t(m_heap.front().node)].heapPosition = 0;
    siftDown(0);
  }
  return top;
}

void SearchContext::siftUp(std::size_t position) {
  const HeapEntry entry = m_heap[position];
  while (position > 0) {
    const std::size_t parent = (position - 1) / 2;
    const HeapEntry& above = m_heap[parent];
    if (!heapLess(entry.f, entry.g, entry.node, above.f, above.g, above.node)) break;
    m_heap[position] = above;
    m_nodes[std::size_t(above.node)].heapPosition = std::int32_t(position);
    position = parent;
  }
  m_heap[position] = entry;
  m_nodes[std::size_t(entry.node)].heapPosition = std::int32_t(position);
}

void SearchContext::siftDown(std::size_t position) {
  const HeapEntry entry = m_heap[position];
  const std::size_t size = m_heap.size();
  while (true) {
    std::size_t child = 2 * position + 1;
    if (child >= size) break;
    if (child + 1 < size && heapLess(m_heap[child + 1].f, m_heap[child + 1].g, m_heap[child + 1].node,
                                     m_heap[child].f, m_heap[child].g, m_heap[child].node)) {
      ++child;
    }
    const HeapEntry& below = m_heap[child];
    if (!heapLess(below.f, below.g, below.node, entry.f, entry.g, entry.node)) break;
    m_heap[position] = below;
    m_nodes[std::size_t(below.node)].heapPosition = std::int32_t(position);
    position = child;
  }
  m_heap[position] = entry;
  m_nodes[std::size_t(entry.node)].heapPosition = std::int32_t(position);
}

}  // namespace rpgnav
