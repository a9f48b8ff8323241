// SPDX-License-Identifier: MIT
// Canonical successors on weighted maps: for each tile and way in, the moves a canonical route
// may take on (JPSW), from the costs of the tile's 3x3 (or hex 7-tile) window.
#include "search/search_grid.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rpgnav {

namespace {

// The masks of SearchGrid::canonicalSuccessors for a 3 × 3 window of cost classes (numbered
// 3 × (dy + 1) + dx + 1 round the centre 4; 0 closed; the centre open), one byte per way in.
std::uint64_t canonicalMasks(const std::uint8_t (&window)[9], const SearchGrid& grid) {
  std::uint64_t masks = 0;
  for (int arrival = 0; arrival < 8; ++arrival) {
    const int from = 3 * (1 - SearchGrid::kCodeDy[arrival]) + 1 - SearchGrid::kCodeDx[arrival];
    std::uint64_t mask = 0xff;  // (no route comes in from a closed tile: never read)
    if (window[from] != 0) {
      // Dijkstra over the window from `from`: per tile the cost, whether the last step is
      // straight, and whether it comes from the centre; ties as canonicalSuccessors() says.
      constexpr std::int64_t kUnreached = std::numeric_limits<std::int64_t>::max();
      std::int64_t cost[9];
      bool straightLast[9] = {}, viaCentre[9] = {}, done[9] = {};
      std::fill(cost, cost + 9, kUnreached);
      cost[from] = 0;
      for (int round = 0; round < 9; ++round) {
        int u = -1;
        for (int t = 0; t < 9; ++t) {
          if (!done[t] && cost[t] != kUnreached && (u < 0 || cost[t] < cost[u])) u = t;
        }
        if (u < 0) break;
        done[u] = true;
        const int ux = u % 3, uy = u / 3;
        for (int v = 0; v < 9; ++v) {
          const int vx = v % 3, vy = v / 3;
          if (done[v] || window[v] == 0 || std::abs(vx - ux) > 1 || std::abs(vy - uy) > 1) continue;
          const bool diagonal = vx != ux && vy != uy;
          // No corner cutting: both tiles beside a diagonal step open.
          if (diagonal && (window[3 * uy + vx] == 0 || window[3 * vy + ux] == 0)) continue;
          const std::int64_t through = cost[u] + grid.stepCost(window[u], window[v], diagonal);
          const bool better = through < cost[v] ||
                              (through == cost[v] && ((!diagonal && !straightLast[v]) ||
                                                      (!diagonal == straightLast[v] && u == 4 && !viaCentre[v])));
          if (!better) continue;
          cost[v] = through;
          straightLast[v] = !diagonal;
          viaCentre[v] = u == 4;
        }
      }
      mask = 0;
      for (int code = 0; code < 8; ++code) {
        if (viaCentre[3 * (1 + SearchGrid::kCodeDy[code]) + 1 + SearchGrid::kCodeDx[code]]) mask |= 1u << code;
      }
    }
    masks |= mask << (8 * arrival);
  }
  return masks;
}

// The masks of SearchGrid::canonicalSuccessors on hex maps for a tile's window: the classes of
// its six neighbours in the direction table's order, then its own (open), one byte per way in
// (bytes 6 and 7 unused: every bit set). A route that entered the tile c by a step of direction e
// came from p = c + D(e+3), whose neighbours in the window are c and the ring tiles e+2 and e-2.
// A neighbour n = c + D(f) is a canonical successor when the way p → c → n, 2h(c) beyond p's and
// n's halves, is cheaper than both ways round c's ring (the ring tiles in between, 2h each), or
// as cheap and preferred: the way through c is, except that for f = e-1 the two steps [e-1, e]
// by way of ring tile e-2 are preferred to [e, e-1] — the order the uniform runs follow (a run
// turns by +1 sixth, never back; hex_jumps.cpp). f = e±2 are neighbours of p (the direct step is
// strictly cheaper) and f = e+3 is p itself: never successors.
std::uint64_t canonicalHexMasks(const std::uint8_t (&window)[7], const SearchGrid& grid) {
  constexpr std::int64_t kClosed = std::numeric_limits<std::int64_t>::max() / 4;
  auto twice = [&](int ring) {  // 2h of ring tile `ring`, or "closed"
    const std::uint8_t c = window[ring];
    return c == 0 ? kClosed : 2 * grid.halfStraight(c);
  };
  auto roundAbout = [&](std::initializer_list<int> rings) {  // 2h summed over ring tiles in between
    std::int64_t sum = 0;
    for (const int ring : rings) sum += twice(ring);
    return std::min(sum, kClosed);
  };
  const std::int64_t through = 2 * grid.halfStraight(window[6]);
  std::uint64_t masks = ~std::uint64_t(0);
  for (int e = 0; e < 6; ++e) {
    auto at = [e](int by) { return HexDirections::turn(e, by); };
    std::uint64_t mask = 0xff;  // (no route comes in from a closed tile: never read)
    if (window[at(3)] != 0) {
      mask = 0;
      for (const int by : {-1, 0, 1}) {
        if (window[at(by)] == 0) continue;
        const std::int64_t right = by == 1   ? roundAbout({at(2)})
                                   : by == 0 ? roundAbout({at(2), at(1)})
                                             : roundAbout({at(2), at(1), at(0)});
        const std::int64_t left = by == 1   ? roundAbout({at(-2), at(-1), at(0)})
                                  : by == 0 ? roundAbout({at(-2), at(-1)})
                                            : roundAbout({at(-2)});
        const bool canonical = through < std::min(left, right) || (through == std::min(left, right) && !(by == -1 && left == through));
        if (canonical) mask |= 1u << at(by);
      }
    }
    masks = (masks & ~(std::uint64_t(0xff) << (8 * e))) | (mask << (8 * e));
  }
  return masks;
}

}  // namespace

void SearchGrid::refreshSuccessors(std::size_t index) {
  // Every way (0xff) on a closed tile, a uniform one and one near a gate (expanded step by step):
  // a jump that ends there leads on, which the search then learns from this one byte.
  if (m_class[index] == 0 || m_uniform[index] != 0 || m_nearGate[index] != 0) {
    std::fill_n(m_successors.begin() + std::ptrdiff_t(index * 8), 8, std::uint8_t(0xff));
    return;
  }
  const std::int32_t pw = paddedWidth();
  // Windows repeat (a few costs, patches of each): their masks are kept per window while the
  // classes' costs stay (readCosts forgets them), keyed by the window's classes when each fits
  // in 7 bits (nine on squares; seven on hexes, marked by bit 63).
  std::uint64_t key = 0;
  bool keyed = true;
  const bool hex = m_layout.isHex();
  std::uint8_t window[9];
  std::uint8_t hexWindow[7];
  if (hex) {
    const auto& around = m_hex.padded[m_hex.shifted(cellOf(std::int32_t(index)))];
    for (int k = 0; k < 7; ++k) {
      hexWindow[k] = m_class[k < 6 ? std::size_t(std::int32_t(index) + around[std::size_t(k)]) : index];
      keyed = keyed && hexWindow[k] < 128;
      key |= std::uint64_t(hexWindow[k] & 127) << (7 * k);
    }
    key |= std::uint64_t(1) << 63;
  } else {
    for (std::int32_t dy = -1; dy <= 1; ++dy) {
      for (std::int32_t dx = -1; dx <= 1; ++dx) {
        const int k = 3 * (dy + 1) + dx + 1;
        window[k] = m_class[index + std::size_t(dy * pw + dx)];
        keyed = keyed && window[k] < 128;
        key |= std::uint64_t(window[k] & 127) << (7 * k);
      }
    }
  }
  std::uint64_t masks;
  if (const auto known = keyed ? m_successorCache.find(key) : m_successorCache.end(); known != m_successorCache.end()) {
    masks = known->second;
  } else {
    masks = hex ? canonicalHexMasks(hexWindow, *this) : canonicalMasks(window, *this);
    // (A cache: bounded, so a map of many costs in many mixes holds no more than about 2 MB.)
    if (m_successorCache.size() >= kSuccessorCacheLimit) m_successorCache.clear();
    if (keyed) m_successorCache.emplace(key, masks);
  }
  for (int arrival = 0; arrival < 8; ++arrival) m_successors[index * 8 + std::size_t(arrival)] = std::uint8_t(masks >> (8 * arrival));
}

void SearchGrid::fillSuccessors() {
  // Worked out only where costs change away from gates (every other tile keeps 0xff, which
  // refreshTile writes back when a tile's flags turn): on a map of one cost that just got a
  // second one, a few tiles.
  m_successors.assign(std::size_t(paddedCount()) * 8, 0xff);
  for (std::int32_t y = 0; y < m_height; ++y) {
    for (std::int32_t x = 0; x < m_width; ++x) {
      const std::size_t index = std::size_t(padded({x, y}));
      if (m_uniform[index] == 0) refreshSuccessors(index);
    }
  }
}

}  // namespace rpgnav
