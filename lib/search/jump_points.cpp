// SPDX-License-Identifier: MIT
// Jump points on square 8-connected maps (see search_context.cpp for the rules), and the gates
// (doors and their sides) that a jump or a step must respect.
#include "search/search_context.hpp"

#include "core/distances.hpp"
#include "search/open_list.hpp"
#include "search/search_units.hpp"

#include <algorithm>
#include <bit>
#if defined(__SSE2__)
#include <emmintrin.h>  // the wide body's jumps along rows
#endif

namespace rpgnav {

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


// The search's loop (search_context.cpp) expands with each kind of jump.
template void SearchContext::expandJumpPoint<SearchContext::JumpTiles::kPlain>(std::int32_t, const Node);
template void SearchContext::expandJumpPoint<SearchContext::JumpTiles::kWeighted>(std::int32_t, const Node);
template void SearchContext::expandJumpPoint<SearchContext::JumpTiles::kFitting>(std::int32_t, const Node);

}  // namespace rpgnav
