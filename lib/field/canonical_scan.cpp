// SPDX-License-Identifier: MIT
// The canonical integration of whole fields on maps of one weight: routes scanned along straight
// lines from jump points, a sweep that checks every tile against its neighbours (and picks its
// direction), and Dial's algorithm from the tiles found too high.
#include "field/crowd_field_impl.hpp"

#include "field/settle_kernels.hpp"
#include "grid/step_cost.hpp"

#include <algorithm>
#include <chrono>

namespace rpgnav {

#if RPGNAV_FIELD_AVX2
namespace {
// checkHexRowAvx2()'s look at the six neighbours of four tiles: `best`, the first move to a tile
// exactly a step nearer, and `high`, a move to one more than a step nearer. kEveryMove: all four
// tiles have every move open; kOneTable: all four read their neighbours from `first` (else lanes
// 1 and 3 from `second`).
template <bool kEveryMove, bool kOneTable>
__attribute__((target("avx2"), always_inline)) inline void lookHex(const std::int64_t* distance, std::size_t tile,
                                                                   const std::ptrdiff_t* first, const std::ptrdiff_t* second,
                                                                   __m256i here, __m256i open, __m256i step, __m256i& best,
                                                                   __m256i& high) {
  for (int m = 5; m >= 0; --m) {  // (from the last move to the first: the first exact one is kept)
    __m256i there = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(distance + std::ptrdiff_t(tile) + first[m]));
    if (!kOneTable && second[m] != first[m]) {
      const __m256i other = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(distance + std::ptrdiff_t(tile) + second[m]));
      there = _mm256_blend_epi32(there, other, 0xcc);  // lanes 1 and 3
    }
    // (here - there never overflows: both lie in [0, kUnreachable].)
    const __m256i fall = _mm256_sub_epi64(here, there);
    __m256i exact = _mm256_cmpeq_epi64(fall, step), higher = _mm256_cmpgt_epi64(fall, step);
    if constexpr (!kEveryMove) {
      const __m256i bit = _mm256_set1_epi64x(std::int64_t(1) << m);
      const __m256i moveOpen = _mm256_cmpeq_epi64(_mm256_and_si256(open, bit), bit);
      exact = _mm256_and_si256(exact, moveOpen);
      higher = _mm256_and_si256(higher, moveOpen);
    }
    best = _mm256_blendv_epi8(best, _mm256_set1_epi64x(m), exact);
    high = _mm256_or_si256(high, higher);
  }
}

// settleCheckingHex()'s look for the tiles row .. row + width - 1, four at a time (AVX2): the
// tiles done (a multiple of four; the caller does the rest). A hex tile's moves depend on its
// row's or column's shift (the parity kept in its move bits' byte): along a row of pointy hexes
// it is the same for all four, along a row of flat ones it alternates, so lanes 1 and 3 read
// their neighbours from the second tile's table (a second load where the two differ).
__attribute__((target("avx2"))) std::size_t checkHexRowAvx2(const std::int64_t* distance, const std::int64_t* half,
                                                            const std::uint8_t* openBits, std::uint8_t* direction,
                                                            std::size_t row, std::size_t width,
                                                            const std::ptrdiff_t (*offsets)[6], int parityShift,
                                                            unsigned openMask, std::int64_t& reachable,
                                                            std::int64_t straight, std::vector<std::uint32_t>& found) {
  constexpr std::int64_t kNone = CrowdField::kNoDirection;
  const __m256i unreachable = _mm256_set1_epi64x(CrowdField::kUnreachable);
  const __m256i step = _mm256_set1_epi64x(straight);
  const std::int32_t moveBytes = std::int32_t(openMask * 0x01010101u);
  // Lanes 0 and 2 share the parity of the row's first tile (x steps by four), lanes 1 and 3 that
  // of its second. Along a row of pointy hexes the two tables hold the same steps (the row's
  // shift decides them), so one load a move serves all four lanes.
  const std::ptrdiff_t* first = offsets[openBits[row] >> parityShift];
  const std::ptrdiff_t* second = offsets[openBits[row + 1] >> parityShift];
  const bool oneTable = std::equal(first, first + 6, second);
  std::size_t x = 0;
  for (; x + 4 <= width; x += 4) {
    const std::size_t tile = row + x;
    const __m256i weights = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(half + tile));
    if (_mm256_testz_si256(weights, weights)) {  // four walls
      std::memset(direction + tile, CrowdField::kNoDirection, 4);
      continue;
    }
    const __m256i here = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(distance + tile));
    const __m256i none = _mm256_cmpeq_epi64(here, unreachable);  // (walls among them)
    reachable += 4 - std::popcount(unsigned(_mm256_movemask_pd(_mm256_castsi256_pd(none))));
    std::int32_t packed;
    std::memcpy(&packed, openBits + tile, sizeof packed);
    const __m256i wall = _mm256_cmpeq_epi64(weights, _mm256_setzero_si256());
    const __m256i open = _mm256_andnot_si256(wall, _mm256_cvtepu8_epi64(_mm_cvtsi32_si128(packed & moveBytes)));
    __m256i best = _mm256_set1_epi64x(kNone), high = _mm256_setzero_si256();
    // Four tiles away from walls (every move open: no move bits to apply) are the most common
    // case, as in directionRowAvx2.
    const bool everyMove = (packed & moveBytes) == moveBytes && _mm256_testz_si256(wall, wall);
    if (oneTable) {
      if (everyMove) {
        lookHex<true, true>(distance, tile, first, second, here, open, step, best, high);
      } else {
        lookHex<false, true>(distance, tile, first, second, here, open, step, best, high);
      }
    } else if (everyMove) {
      lookHex<true, false>(distance, tile, first, second, here, open, step, best, high);
    } else {
      lookHex<false, false>(distance, tile, first, second, here, open, step, best, high);
    }
    for (unsigned lanes = unsigned(_mm256_movemask_pd(_mm256_castsi256_pd(high))); lanes != 0; lanes &= lanes - 1) {
      found.push_back(std::uint32_t(tile + std::size_t(std::countr_zero(lanes))));
    }
    best = _mm256_blendv_epi8(best, _mm256_set1_epi64x(kNone), none);
    const std::int32_t bytes = detail::lowBytes(best);
    std::memcpy(direction + tile, &bytes, sizeof bytes);
  }
  return x;
}
}  // namespace
#endif


bool CrowdField::Impl::integrateCanonical() {
  m_diagnostics.build.canonical = false;
  m_diagnostics.build.scanMicros = m_diagnostics.build.checkMicros = m_diagnostics.build.repairMicros = 0.0;
  m_diagnostics.build.repaired = 0;
  // One weight on every passable tile, so a route's cost is its count of straight and diagonal
  // steps; no sources and no crossings that cost extra (doors that block are in the move bits).
  if (!scansWhole() || !m_boundsExact || m_stopEarly || m_recording || m_seeds.empty()) return false;
  using Clock = std::chrono::steady_clock;
  const auto begin = Clock::now();
  const std::int64_t straight = 2 * halfStraightCost(m_lightest), diagonal = 2 * halfDiagonalCost(m_lightest);
  const bool scanned = m_parityMatters ? scanCanonicalHex(straight, kUnreachable) : scanCanonical(straight, diagonal, kUnreachable);
  const auto scanEnd = Clock::now();
  m_diagnostics.build.scanMicros = std::chrono::duration<double, std::micro>(scanEnd - begin).count();
  if (!scanned) {  // it gave up: Dial's algorithm from the goals alone
    std::fill(m_distance.begin(), m_distance.end(), kUnreachable);
    for (const std::uint32_t goal : m_seeds) m_distance[goal] = 0;
    return false;
  }
  // The check and the directions in one sweep (both compare every tile with its neighbours).
  m_diagnostics.work.tiles += m_parityMatters ? settleCheckingHex(straight) : settleChecking(straight, diagonal);  // as settleAll()
  const auto checked = Clock::now();
  m_diagnostics.build.repaired = std::int64_t(m_seeds.size());
  if (!m_seeds.empty()) {
    // Every distance is a real route's and every tile too high is lowered to what a neighbour
    // offers and spreads that: the edges all meet Bellman's condition again, so the field is
    // exact. The tiles it lowered, and their neighbours, get their directions again.
    for (const std::uint32_t tile : m_seeds) m_distance[tile] = bestFromNeighbours(tile);
    m_touched.assign(m_seeds.begin(), m_seeds.end());
    m_recording = true;
    m_sweepDirections = false;
    m_sweepAbove = m_distance.size() / (m_moves[0].size() + 1);
    propagate();
    m_recording = false;
    refreshDirections();
  }
  const auto repaired = Clock::now();
  m_diagnostics.build.canonical = true;
  m_diagnostics.build.checkMicros = std::chrono::duration<double, std::micro>(checked - scanEnd).count();
  m_diagnostics.build.repairMicros = std::chrono::duration<double, std::micro>(repaired - checked).count();
  return true;
}

namespace {
// Square moves (the layout's order): east, south, west, north, then south-east, south-west,
// north-west, north-east. The diagonal between two straight moves at right angles, and each
// diagonal's two straight parts.
constexpr std::uint8_t kDiagonalOf[4][4] = {{0, 4, 0, 7}, {4, 0, 5, 0}, {0, 5, 0, 6}, {7, 0, 6, 0}};
constexpr std::uint8_t kPartsOf[8][2] = {{}, {}, {}, {}, {0, 1}, {2, 1}, {2, 3}, {0, 3}};
// The scan gives up once it has taken more than one jump point per kJumpShare tiles written (and
// kJumpSlack more): measured on random walls, a jump point costs 100-170 ns, about what Dial's
// algorithm spends on ten tiles, and there jump points came one per 3-6 tiles written.
constexpr std::int64_t kJumpShare = 16, kJumpSlack = 256;
}  // namespace

// Both scans' loop: jump points from the goals (scanning every direction in `goalDirections`),
// nearest first, each handed to `expand` unless it was reached sooner since; false when jump
// points come too often for the tiles written (see kJumpShare).
template <typename Expand>
bool CrowdField::Impl::drainJumpPoints(std::uint8_t goalDirections, const std::int64_t& written, Expand&& expand) {
  std::vector<JumpPoint>& heap = m_jumpPoints;
  heap.clear();
  for (const std::uint32_t goal : m_seeds) heap.push_back({0, goal, goalDirections});
  std::make_heap(heap.begin(), heap.end(), jumpPointLater);
  std::int64_t popped = 0;
  while (!heap.empty()) {
    // Jump points cost a heap operation and a cache miss or two each, a tile on a run a store:
    // where walls are scattered (random walls, narrow mazes), jump points come nearly as often
    // as tiles and Dial's algorithm is faster.
    if (++popped * kJumpShare > written + kJumpSlack) return false;
    std::pop_heap(heap.begin(), heap.end(), jumpPointLater);
    const JumpPoint point = heap.back();
    heap.pop_back();
    if (m_distance[point.tile] != point.distance) continue;  // reached sooner since
    expand(point);
  }
  return true;
}

void CrowdField::Impl::pushJumpPoint(std::int64_t reached, std::size_t tile, unsigned directions, unsigned turns) {
  m_jumpPoints.push_back({reached, std::uint32_t(tile), std::uint8_t(directions), std::uint8_t(turns)});
  std::push_heap(m_jumpPoints.begin(), m_jumpPoints.end(), jumpPointLater);
}

bool CrowdField::Impl::scanCanonical(std::int64_t straight, std::int64_t diagonal, std::int64_t cap) {
  std::ptrdiff_t offset[8];
  for (std::size_t k = 0; k < 8; ++k) offset[k] = m_moves[0][k].offset;
  const std::uint8_t* open = m_open.data();
  std::int64_t* distance = m_distance.data();
  std::int64_t written = 0;
  // A straight run from `tile` (at `reached`) along move `move`, writing each tile's distance
  // until it meets a tile as near already or a wall. Where a tile beside the run can be entered
  // but the run beside it (from the tile behind that one) cannot reach it, the routes round that
  // corner start here: a jump point, which goes on with the run and turns that way later.
  // One step along `move`, when it is open and leads to a tile not as near already: its distance.
  const auto step = [&](std::size_t& tile, unsigned move, std::int64_t& reached, std::int64_t length) {
    if (((open[tile] >> move) & 1u) == 0) return false;
    tile = std::size_t(std::ptrdiff_t(tile) + offset[move]);
    reached += length;
    if (reached >= cap || distance[tile] <= reached) return false;
    distance[tile] = reached;
    ++written;
    return true;
  };
  const auto run = [&](std::size_t tile, unsigned move, std::int64_t reached) {
    const unsigned side = (move + 1) & 3, otherSide = (move + 3) & 3, back = (move + 2) & 3;
    while (step(tile, move, reached, straight)) {
      const unsigned bits = open[tile];
      unsigned forced = 0;
      for (const unsigned beside : {side, otherSide}) {
        if (((bits >> beside) & 1u) != 0 && ((open[std::size_t(std::ptrdiff_t(tile) + offset[beside])] >> back) & 1u) == 0) {
          forced |= (1u << beside) | (1u << kDiagonalOf[move][beside]);
        }
      }
      if (forced != 0) [[unlikely]] {
        pushJumpPoint(reached, tile, forced | (1u << move));
        return;
      }
    }
  };
  return drainJumpPoints(0xff, written, [&](const JumpPoint& point) {
    for (unsigned move = 0; move < 4; ++move) {
      if (((point.directions >> move) & 1u) != 0) run(point.tile, move, point.distance);
    }
    // Diagonally, and from every tile on the way straight along both of the diagonal's parts.
    for (unsigned move = 4; move < 8; ++move) {
      if (((point.directions >> move) & 1u) == 0) continue;
      std::size_t tile = point.tile;
      std::int64_t reached = point.distance;
      while (step(tile, move, reached, diagonal)) {
        run(tile, kPartsOf[move][0], reached);
        run(tile, kPartsOf[move][1], reached);
      }
    }
  });
}

// Hex maps: the same scan with the hex search's canonical routes (lib/search/hex_jumps.cpp): a
// primary run in one direction, from every tile of it a secondary run one sixth clockwise, and
// nothing else. A run that steps from p into x passes x's two neighbours beside its way ahead,
// x + D(e∓1); the canonical route to one of them comes past the tile beside p on that side, and
// when that tile cannot step to it (blocked, or a door between) the route must come through x: a
// jump point there scans on from x later, in the run's direction and, for a forced left side,
// the side's (its secondaries cover the ground behind). A primary run's right side is its own
// secondary's. Every distance written is a real route's (the repair after the check makes the
// field exact whatever the scan misses).
bool CrowdField::Impl::scanCanonicalHex(std::int64_t straight, std::int64_t cap) {
  // A hex move's offset depends on the tile's parity (its row's or column's shift). A run carries
  // its tile's parity along (each move leads to a known one) rather than reading it back from the
  // tile it has just loaded: that read sat in the chain of loads from one step to the next.
  std::ptrdiff_t offsets[4][6];
  std::uint8_t after[4][6];
  const Layout& layout = m_costs.layout();
  for (std::size_t parity = 0; parity < 4; ++parity) {
    const Cell sample{std::int32_t(parity % 2), std::int32_t(parity / 2)};
    const auto moves = layout.moves(sample);
    for (std::size_t k = 0; k < 6; ++k) {
      offsets[parity][k] = m_moves[parity][k].offset;
      after[parity][k] = std::uint8_t(((sample.x + moves[k].dx) & 1) + 2 * ((sample.y + moves[k].dy) & 1));
    }
  }
  const std::uint8_t* open = m_open.data();
  std::int64_t* distance = m_distance.data();
  std::int64_t written = 0;
  // A tile on a run: its index and parity.
  struct At {
    std::size_t tile;
    unsigned parity;
  };
  const auto at = [&](std::size_t tile) { return At{tile, unsigned(open[tile] >> kParityShift)}; };
  // One step along `move`, when it is open and leads to a tile not as near already.
  const auto step = [&](At& here, unsigned move, std::int64_t& reached) {
    if (((open[here.tile] >> move) & 1u) == 0) return false;
    here.tile = std::size_t(std::ptrdiff_t(here.tile) + offsets[here.parity][move]);
    here.parity = after[here.parity][move];
    reached += straight;
    if (reached >= cap || distance[here.tile] <= reached) return false;
    distance[here.tile] = reached;
    ++written;
    return true;
  };
  // Whether the side `side` of a run along `move` is forced at `here`: the neighbour there is
  // open, and cannot step back against the run to the tile beside the one behind.
  const auto forcedByNeighbour = [&](At here, unsigned move, unsigned side) {
    return ((open[here.tile] >> side) & 1u) != 0 &&
           ((open[std::size_t(std::ptrdiff_t(here.tile) + offsets[here.parity][side])] >> ((move + 3) % 6)) & 1u) == 0;
  };
  // Without doors or a body's side tiles a step is open exactly when the tile it enters is
  // passable; the tile beside the one behind is a neighbour of this tile too, one turn further
  // round than the side (D(e-1) + D(e+3) = D(e-2), D(e+1) + D(e+3) = D(e+2)), so this tile's own
  // bits give the same answer without loading the neighbour's.
  const auto forcedByOwnBits = [&](At here, unsigned move, unsigned side) {
    const unsigned further = side == (move + 1) % 6 ? (move + 2) % 6 : (move + 4) % 6;
    return ((open[here.tile] >> side) & 1u) != 0 && ((open[here.tile] >> further) & 1u) == 0;
  };
  const auto scan = [&](const auto& forcedAt) {
    // A secondary run: both sides can force. A forced right side is the turn a primary run along
    // `move` makes: the route goes on as one, turning at every tile, the turn from this tile too.
    const auto secondary = [&](At here, unsigned move, std::int64_t reached) {
      const unsigned left = (move + 5) % 6, right = (move + 1) % 6;
      while (step(here, move, reached)) {
        const bool forcedLeft = forcedAt(here, move, left), forcedRight = forcedAt(here, move, right);
        if (forcedLeft || forcedRight) [[unlikely]] {
          pushJumpPoint(reached, here.tile, (1u << move) | (forcedLeft ? 1u << left : 0u), forcedRight ? 1u << right : 0u);
          return;
        }
      }
    };
    return drainJumpPoints(0x3f, written, [&](const JumpPoint& point) {
      const At start = at(point.tile);
      for (unsigned move = 0; move < 6; ++move) {
        if (((point.turns >> move) & 1u) != 0) secondary(start, move, point.distance);
      }
      for (unsigned move = 0; move < 6; ++move) {
        if (((point.directions >> move) & 1u) == 0) continue;
        // The primary run, a secondary from every tile of it; only its left side can force.
        const unsigned left = (move + 5) % 6, turn = (move + 1) % 6;
        At here = start;
        std::int64_t reached = point.distance;
        while (step(here, move, reached)) {
          secondary(here, turn, reached);
          if (forcedAt(here, move, left)) [[unlikely]] {
            pushJumpPoint(reached, here.tile, (1u << move) | (1u << left));
            break;
          }
        }
      }
    });
  };
  // (A body's hex step also needs the tiles beside it: see the constructor.)
  const bool ownBits = m_doorBlocked.empty() && !(m_costs.bodyTiles() > 0.0);
  return ownBits ? scan(forcedByOwnBits) : scan(forcedByNeighbour);
}

bool CrowdField::Impl::tooHigh(std::size_t tile, const std::ptrdiff_t* offset, std::int64_t straight, std::int64_t diagonal) const noexcept {
  const std::int64_t here = m_distance[tile];
  const unsigned bits = m_half[tile] != 0 ? m_open[tile] : 0u;
  // (here - step never overflows: distances lie in [0, kUnreachable].)
  bool high = false;
  for (std::size_t k = 0; k < 8; ++k) {
    const std::int64_t step = k < 4 ? straight : diagonal;
    high |= ((bits >> k) & 1u) != 0 && m_distance[std::size_t(std::ptrdiff_t(tile) + offset[k])] < here - step;
  }
  return high;
}

std::int64_t CrowdField::Impl::settleChecking(std::int64_t straight, std::int64_t diagonal) {
  std::ptrdiff_t offset[8];
  for (std::size_t k = 0; k < 8; ++k) offset[k] = m_moves[0][k].offset;
  const SettleArrays arrays = settleArrays();
  std::int64_t reachable = 0;
  m_seeds.clear();
  m_diagnostics.work.tiles += std::int64_t(m_costs.width()) * m_costs.height();  // every tile looked at, as settleRange()
#if RPGNAV_FIELD_AVX2
  static const bool avx2 = detail::cpuHasAvx2();
#endif
  const auto width = std::size_t(m_costs.width());
  for (std::int32_t y = 0; y < m_costs.height(); ++y) {
    const std::size_t row = padded({0, y});
    std::size_t x = 0;
#if RPGNAV_FIELD_AVX2
    if (avx2) {
      x = detail::directionRowAvx2<true>(arrays.distance, arrays.half, arrays.halfDiagonal, arrays.open, arrays.direction, row, width, offset, reachable,
                                 straight, diagonal, &m_seeds);
    }
#endif
    for (std::size_t tile = row + x; tile < row + width; ++tile) {
      settleWith<8>(arrays, tile, offset);
      reachable += arrays.distance[tile] != kUnreachable;
      if (tooHigh(tile, offset, straight, diagonal)) m_seeds.push_back(std::uint32_t(tile));
    }
  }
  return reachable;
}

std::int64_t CrowdField::Impl::settleCheckingHex(std::int64_t straight) {
  std::ptrdiff_t offsets[4][6];
  for (std::size_t parity = 0; parity < 4; ++parity) {
    for (std::size_t k = 0; k < 6; ++k) offsets[parity][k] = m_moves[parity][k].offset;
  }
  const SettleArrays arrays = settleArrays();
  std::int64_t reachable = 0;
  m_seeds.clear();
  m_diagnostics.work.tiles += std::int64_t(m_costs.width()) * m_costs.height();  // every tile looked at, as settleRange()
  const auto width = std::size_t(m_costs.width());
#if RPGNAV_FIELD_AVX2
  static const bool avx2 = detail::cpuHasAvx2();
#endif
  for (std::int32_t y = 0; y < m_costs.height(); ++y) {
    const std::size_t row = padded({0, y});
    std::size_t x = 0;
#if RPGNAV_FIELD_AVX2
    if (avx2) {
      x = checkHexRowAvx2(arrays.distance, arrays.half, arrays.open, arrays.direction, row, width, offsets, kParityShift,
                          arrays.openMask, reachable, straight, m_seeds);
    }
#endif
    for (std::size_t tile = row + x; tile < row + width; ++tile) {
      if (arrays.half[tile] == 0) {  // a wall: no direction, and nothing can lower it
        arrays.direction[tile] = kNoDirection;
        continue;
      }
      // The direction (settleWith's: the first open move whose neighbour lies exactly a step
      // nearer; every passable tile weighs the same) and the check (an open neighbour more than
      // a step nearer: a tile the scan missed, or reached the long way) from one look at each
      // neighbour.
      const std::ptrdiff_t* offset = offsets[arrays.open[tile] >> kParityShift];
      const std::int64_t here = arrays.distance[tile];
      const unsigned bits = arrays.open[tile] & arrays.openMask;
      unsigned exact = 0, high = 0;
      for (std::size_t k = 0; k < 6; ++k) {
        const std::int64_t fall = here - arrays.distance[std::size_t(std::ptrdiff_t(tile) + offset[k])];
        exact |= unsigned(fall == straight) << k;
        high |= unsigned(fall > straight) << k;
      }
      exact &= bits;
      reachable += here != kUnreachable;
      arrays.direction[tile] = exact != 0 && here != kUnreachable ? std::uint8_t(std::countr_zero(exact)) : kNoDirection;
      if ((high & bits) != 0) m_seeds.push_back(std::uint32_t(tile));
    }
  }
  return reachable;
}

}  // namespace rpgnav
