// SPDX-License-Identifier: MIT
// Directions and flow: each tile's direction (the first move its distance comes from), set by
// sweeps after a build or a repair, and the flow vector read from the neighbours' distances.
#include "field/crowd_field_impl.hpp"

#include "field/settle_kernels.hpp"
#include "grid/step_cost.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace rpgnav {

CrowdField::Impl::SettleArrays CrowdField::Impl::settleArrays() noexcept {
  return {m_distance.data(), m_half.data(), m_halfDiagonal.data(), m_open.data(), m_direction.data(), m_parityMatters ? (1u << kParityShift) - 1 : 0xffu};
}

void CrowdField::Impl::settle(std::size_t tile) noexcept {
  if (!m_doorSide.empty() && m_doorSide[tile] != 0) {
    settleWithCrossings(tile);
    return;
  }
  const SettleArrays arrays = settleArrays();
  std::ptrdiff_t offset[8];
  const std::vector<Move>& moves = movesOf(tile);
  for (std::size_t k = 0; k < moves.size(); ++k) offset[k] = moves[k].offset;
  if (m_parityMatters) {
    settleWith<6>(arrays, tile, offset);
  } else if (moves.size() == 4) {
    settleWith<4>(arrays, tile, offset);
  } else {
    settleWith<8>(arrays, tile, offset);
  }
}

std::int64_t CrowdField::Impl::settleAll() noexcept {
  const std::int64_t reachable = settleRange({0, 0}, {m_costs.width() - 1, m_costs.height() - 1});
  for (const Crossing& crossing : m_crossings) settleWithCrossings(crossing.tile);  // (a few tiles)
  return reachable;
}

std::int64_t CrowdField::Impl::settleRange(Cell low, Cell high) noexcept {
  m_diagnostics.work.tiles += std::int64_t(high.x - low.x + 1) * (high.y - low.y + 1);
  const SettleArrays arrays = settleArrays();
  const auto width = std::size_t(high.x - low.x + 1);
  std::int64_t reachable = 0;
#if RPGNAV_FIELD_AVX2
  static const bool avx2 = detail::cpuHasAvx2();
#endif
  auto sweep = [&]<std::size_t kMoves>() {
    // The move tables' offsets as a local array (the byte stores of the directions may alias
    // anything else: the tables would be read again for every tile).
    std::ptrdiff_t offsets[4][kMoves];
    for (std::size_t parity = 0; parity < 4; ++parity) {
      for (std::size_t k = 0; k < kMoves; ++k) offsets[parity][k] = m_moves[parity][k].offset;
    }
    for (std::int32_t y = low.y; y <= high.y; ++y) {
      const std::size_t row = padded({low.x, y});
      std::size_t x = 0;
#if RPGNAV_FIELD_AVX2
      // Square 8-connected maps: four tiles at a time where the processor can (a third of the
      // sweep's time on cities/Berlin_0_1024); the same integers, the same directions.
      if constexpr (kMoves == 8) {
        if (avx2) {
          x = detail::directionRowAvx2<false>(arrays.distance, arrays.half, arrays.halfDiagonal, arrays.open, arrays.direction, row, width, offsets[0],
                                      reachable, 0, 0, nullptr);
        }
      }
#endif
      for (std::size_t tile = row + x; tile < row + width; ++tile) {
        if constexpr (kMoves == 6) {
          // Hex maps: an unreachable tile (walls, and ground the goals cannot reach: most of a
          // map of rooms or caves) has no direction, without its six neighbours' looks.
          if (arrays.distance[tile] == kUnreachable) {
            arrays.direction[tile] = kNoDirection;
            continue;
          }
        }
        settleWith<kMoves>(arrays, tile, offsets[kMoves == 6 ? arrays.open[tile] >> kParityShift : 0]);
        reachable += arrays.distance[tile] != kUnreachable;
      }
    }
  };
  if (m_parityMatters) {
    sweep.template operator()<6>();
  } else if (m_moves[0].size() == 4) {
    sweep.template operator()<4>();
  } else {
    sweep.template operator()<8>();
  }
  return reachable;
}

template <std::size_t kMoves>
Vec2 CrowdField::Impl::flowWith(std::size_t tile, const Move* moves) const noexcept {
  // The downhill neighbours blended by how fast they descend (drop / step length); where two
  // equally good ways cancel out, the direction's alone. Without branches per move: a closed,
  // uphill, level or unreachable neighbour drops by 0. (The rule settle() once stored per tile:
  // the same operations in the same order, so the same bits.)
  const std::uint8_t best = m_direction[tile];
  if (best == kNoDirection) return Vec2::Zero();  // a goal tile, or no goal reachable
  const std::int64_t here = m_distance[tile];
  const std::uint64_t open = openMoves(tile);
  std::int64_t drop[kMoves];
  for (std::size_t k = 0; k < kMoves; ++k) {
    const std::int64_t fall = here - m_distance[std::size_t(std::ptrdiff_t(tile) + moves[k].offset)];
    drop[k] = fall & -std::int64_t((open >> k) & std::uint64_t(fall > 0));
  }
  float fastest = 0.0f;
  Vec2 sum = Vec2::Zero();
  if constexpr (kMoves == 8) {
    // Square tiles, 8 moves (east, south, west, north, then the diagonals south-east,
    // south-west, north-west, north-east): the blend in integers along the east and south axes.
    constexpr double kStraight = 1.0 / double(kStep), kDiagonal = 1.0 / (double(kDiagonalStep) * std::numbers::sqrt2);
    const double east = double(drop[0] - drop[2]) * kStraight + double(drop[4] - drop[5] - drop[6] + drop[7]) * kDiagonal;
    const double south = double(drop[1] - drop[3]) * kStraight + double(drop[4] + drop[5] - drop[6] - drop[7]) * kDiagonal;
    sum = float(east) * moves[0].unit + float(south) * moves[1].unit;
    const std::int64_t steepStraight = std::max(std::max(drop[0], drop[1]), std::max(drop[2], drop[3]));
    const std::int64_t steepDiagonal = std::max(std::max(drop[4], drop[5]), std::max(drop[6], drop[7]));
    fastest = float(std::max(double(steepStraight) * kStraight, double(steepDiagonal) / double(kDiagonalStep)));
    return pickFlow(sum, fastest, moves[best].unit);
  } else {
    return blendFlow(drop, moves, kMoves, best);
  }
}

Vec2 CrowdField::Impl::blendFlow(const std::int64_t* drop, const Move* moves, std::size_t count, std::uint8_t best) noexcept {
  float fastest = 0.0f;
  Vec2 sum = Vec2::Zero();
  for (std::size_t k = 0; k < count; ++k) {
    const float rate = float(double(drop[k]) * moves[k].perLength);
    fastest = std::max(fastest, rate);
    sum += rate * moves[k].unit;
  }
  return pickFlow(sum, fastest, moves[best].unit);
}

Vec2 CrowdField::Impl::pickFlow(Vec2 sum, float fastest, Vec2 chosen) noexcept {
  // The blend, unless it is too weak to trust (ways that cancel out) or strays more than 60°
  // from the step the direction takes: then that step's own way.
  const float length = sum.norm();
  return !(fastest > 0.0f) || length < 1e-3f * fastest || sum.dot(chosen) < 0.5f * length ? chosen : Vec2(sum / length);
}

Vec2 CrowdField::Impl::flow(Cell cell) const noexcept {
  if (!m_costs.contains(cell)) return Vec2::Zero();
  const std::size_t tile = padded(cell);
  if (m_direction[tile] == kNoDirection) return Vec2::Zero();  // a goal, no goal reachable, or not settled
  if (!m_doorSide.empty() && m_doorSide[tile] != 0) return flowWithCrossings(tile);
  if (m_parityMatters) return flowWith<6>(tile, movesOf(tile).data());
  return m_moves[0].size() == 4 ? flowWith<4>(tile, m_moves[0].data()) : flowWith<8>(tile, m_moves[0].data());
}

// A tile beside doors whose crossings cost extra: its downhill moves, the crossings among them
// (settle()'s and flow()'s rules, written plainly: only such tiles come here). Fills the drop
// of each move (0 for the others) and returns the direction.
std::uint8_t CrowdField::Impl::dropsWithCrossings(std::size_t tile, std::int64_t* drop) const noexcept {
  const std::int64_t here = m_distance[tile];
  const std::vector<Move>& moves = movesOf(tile);
  std::int64_t extra[8] = {};
  bool usable[8] = {};
  for (std::size_t k = 0; k < moves.size(); ++k) usable[k] = (openMoves(tile) >> k) & 1u;
  for (const Crossing& crossing : crossingsOf(tile)) {
    const std::size_t next = std::size_t(std::ptrdiff_t(tile) + moves[crossing.move].offset);
    usable[crossing.move] = m_half[next] != 0;
    extra[crossing.move] = crossing.extra;
  }
  std::uint8_t best = kNoDirection;
  for (std::size_t k = 0; k < moves.size(); ++k) {
    drop[k] = 0;
    const std::size_t next = std::size_t(std::ptrdiff_t(tile) + moves[k].offset);
    if (here == kUnreachable || !usable[k] || m_distance[next] == kUnreachable || m_distance[next] >= here) continue;
    drop[k] = here - m_distance[next];
    if (best == kNoDirection && drop[k] == stepCost(tile, next, moves[k]) + extra[k]) best = std::uint8_t(k);
  }
  return best;
}

void CrowdField::Impl::settleWithCrossings(std::size_t tile) noexcept {
  std::int64_t drop[8];
  m_direction[tile] = dropsWithCrossings(tile, drop);
}

Vec2 CrowdField::Impl::flowWithCrossings(std::size_t tile) const noexcept {
  std::int64_t drop[8];
  const std::uint8_t best = dropsWithCrossings(tile, drop);
  if (best == kNoDirection) return Vec2::Zero();
  const std::vector<Move>& moves = movesOf(tile);
  return blendFlow(drop, moves.data(), moves.size(), best);
}

void CrowdField::Impl::refreshDirections() {
  const std::uint32_t counted = freshStamp(2), looked = counted + 1;
  // The tiles propagate() settled and those an edit touched, and their neighbours (border tiles,
  // the padding, have no direction and no neighbours to look at).
  // The work of the integration: the tiles it settled (a tile improved twice within one bucket
  // is listed twice).
  for (const std::uint32_t tile : m_settled) {
    if (m_stamp[tile] != counted) {
      m_stamp[tile] = counted;
      ++m_diagnostics.work.tiles;
    }
  }
  m_touched.insert(m_touched.end(), m_settled.begin(), m_settled.end());
  m_settled.clear();
  const std::int64_t tiles = std::int64_t(m_costs.width()) * m_costs.height();
  if (m_sweepDirections || std::int64_t(m_touched.size()) * (std::int64_t(m_moves[0].size()) + 1) > tiles) {
    // The lists might look at more tiles than the map has: one sweep instead. (When propagate()
    // stopped listing what it settled, those were reachable tiles: the sweep counts them.)
    m_touched.clear();
    const std::int64_t reachable = settleAll();
    if (m_sweepDirections) m_diagnostics.work.tiles += reachable;
    m_sweepDirections = false;
    return;
  }
  std::int64_t settled = 0;
  for (const std::uint32_t tile : m_touched) {
    if (!inside(tile)) continue;
    if (m_stamp[tile] != looked) {
      m_stamp[tile] = looked;
      settle(tile);
      ++settled;
    }
    for (const Move& move : movesOf(tile)) {
      const std::size_t next = std::size_t(std::ptrdiff_t(tile) + move.offset);
      if (inside(next) && m_stamp[next] != looked) {
        m_stamp[next] = looked;
        settle(next);
        ++settled;
      }
    }
  }
  m_diagnostics.work.tiles += settled;
  m_touched.clear();
}

}  // namespace rpgnav
