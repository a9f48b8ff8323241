// SPDX-License-Identifier: MIT
// Fields bounded by their followers (CrowdField::setFollowers): the integration stops once every
// follower is settled, grows when one walks out, and rescans near goals that moved a little.
#include "field/crowd_field_impl.hpp"

#include "field/settle_kernels.hpp"
#include "grid/step_cost.hpp"

#include <algorithm>

namespace rpgnav {

void CrowdField::Impl::setFollowers(std::span<const Cell> followers, std::int32_t marginTiles) {
  m_diagnostics.work = {};
  leaveTracking();  // (a bounded field is built exactly from here on)
  m_marginTiles = std::max(marginTiles, 0);
  m_followers.clear();
  for (const Cell cell : followers) {
    if (m_costs.contains(cell) && m_half[padded(cell)] != 0) m_followers.push_back(std::uint32_t(padded(cell)));
  }
  if (!m_bounded) {
    // The whole map's distances are dropped once; from now on resets cost the settled area.
    m_bounded = true;
    m_followerMark.assign(m_distance.size(), 0);
    std::fill(m_distance.begin(), m_distance.end(), kUnreachable);
    std::fill(m_direction.begin(), m_direction.end(), kNoDirection);
    m_region.clear();
    m_rows.assign(std::size_t(m_costs.height()), RowSpan{});
    m_lostFollowers.clear();
    buildBounded();
    return;
  }
  growBounded();
}

void CrowdField::Impl::clearFollowers() {
  if (!m_bounded) return;
  m_bounded = false;
  m_limit = kUnreachable;
  m_followers.clear();
  m_lostFollowers.clear();
  m_region.clear();
  m_rows.clear();
  m_frontier.clear();
  m_followerMark.clear();
  rebuild();
}

bool CrowdField::Impl::beyondBound(std::uint32_t tile) const noexcept {
  if (m_distance[tile] < m_limit) return false;
  for (const Move& move : movesOf(tile)) {
    if (m_distance[std::size_t(std::ptrdiff_t(tile) + move.offset)] < m_limit) return false;
  }
  return true;
}

void CrowdField::Impl::seedGoals(std::vector<std::uint32_t>& seeds) {
  for (const Cell goal : m_goals) {
    m_distance[padded(goal)] = 0;
    seeds.push_back(std::uint32_t(padded(goal)));
  }
  for (const auto& [tile, cost] : m_sources) {
    if (cost < m_distance[tile]) {
      m_distance[tile] = cost;
      seeds.push_back(tile);
    }
  }
}

std::pair<Cell, Cell> CrowdField::Impl::settledBox() const noexcept {
  const Cell whole{m_costs.width() - 1, m_costs.height() - 1};
  if (m_limit == kUnreachable || !m_sources.empty()) return {{0, 0}, whole};
  // A settled tile's distance is below the limit, and every step costs at least the lightest
  // step: it lies within that many steps of a goal, and a step (square or hex, in tile
  // coordinates) changes x and y by at most one each.
  const std::int64_t reach = m_limit / lightestStep() + 1;
  Cell low = whole, high{0, 0};
  for (const Cell goal : m_goals) {
    low = {std::int32_t(std::max<std::int64_t>(0, std::min<std::int64_t>(low.x, goal.x - reach))),
           std::int32_t(std::max<std::int64_t>(0, std::min<std::int64_t>(low.y, goal.y - reach)))};
    high = {std::int32_t(std::min<std::int64_t>(whole.x, std::max<std::int64_t>(high.x, goal.x + reach))),
            std::int32_t(std::min<std::int64_t>(whole.y, std::max<std::int64_t>(high.y, goal.y + reach)))};
  }
  if (low.x > high.x || low.y > high.y) return {{0, 0}, {0, 0}};
  return {low, high};
}

void CrowdField::Impl::buildBounded() {
  m_diagnostics.work.rebuilt = true;
  m_diagnostics.build = {};
  const bool canonical = buildBoundedCanonical();
  m_diagnostics.build.canonical = canonical;
  m_boundedEdits = m_mapEdits;
  if (canonical) return;
  // Everything the last bounded field wrote goes back to unreached.
  resetWritten();
  m_settledTiles = 0;
  m_frontier.clear();
  seedGoals(m_frontier);
  m_region.insert(m_region.end(), m_frontier.begin(), m_frontier.end());
  m_limit = 0;  // nothing settled yet
  growBounded();
}

void CrowdField::Impl::growBounded() {
  // The followers still to reach: not settled, not known to be cut off.
  m_farthestFollower = 0;
  m_pendingFollowers = 0;
  for (const std::uint32_t tile : m_followers) {
    if (m_distance[tile] < m_limit) {
      m_farthestFollower = std::max(m_farthestFollower, m_distance[tile]);
    } else if (m_followerMark[tile] == 0 &&
               std::find(m_lostFollowers.begin(), m_lostFollowers.end(), tile) == m_lostFollowers.end()) {
      m_followerMark[tile] = 1;
      ++m_pendingFollowers;
    }
  }
  m_margin = std::int64_t(m_marginTiles) * lightestStep();
  const bool covered = m_pendingFollowers == 0 && m_limit > m_farthestFollower + m_margin;
  if (!covered && m_limit != kUnreachable) {
    m_seeds.swap(m_frontier);
    m_frontier.clear();
    m_settled.clear();
    m_limit = kUnreachable;  // propagate() sets it where it stops; unchanged when the queue ran dry
    m_stopEarly = true;
    m_recording = true;
    m_sweepDirections = false;
    m_sweepAbove = std::numeric_limits<std::size_t>::max();
    propagate();
    m_recording = false;
    m_stopEarly = false;
    // The new tiles get their directions (those settled before keep theirs: a direction reads
    // only the nearer neighbours, all settled already): one by one, or, when they fill much of
    // the box every settled tile lies in, by sweeping the box (the same rule, in memory order).
    const std::uint32_t seen = freshStamp();
    std::int64_t fresh = 0;
    for (const std::uint32_t tile : m_settled) {
      if (m_stamp[tile] == seen) continue;
      m_stamp[tile] = seen;
      m_region.push_back(tile);
      ++fresh;
    }
    m_settledTiles += fresh;
    m_diagnostics.work.tiles += std::int64_t(m_settled.size());
    const auto [low, high] = settledBox();
    const std::int64_t box = std::int64_t(high.x - low.x + 1) * (high.y - low.y + 1);
    if (fresh * kSweepShare > box) {
      settleRange(low, high);
      for (const std::uint32_t tile : m_frontier) m_direction[tile] = kNoDirection;  // not settled
      for (const Crossing& crossing : m_crossings) {
        if (m_distance[crossing.tile] < m_limit) settleWithCrossings(crossing.tile);
      }
    } else {
      for (std::size_t i = m_region.size() - std::size_t(fresh); i < m_region.size(); ++i) settle(m_region[i]);
      m_diagnostics.work.tiles += fresh;
    }
    m_settled.clear();
    m_region.insert(m_region.end(), m_frontier.begin(), m_frontier.end());
  }
  // Followers the integration did not reach although it ran dry are cut off from every goal.
  for (const std::uint32_t tile : m_followers) {
    if (m_followerMark[tile] == 0) continue;
    m_followerMark[tile] = 0;
    if (m_distance[tile] >= m_limit) m_lostFollowers.push_back(tile);
  }
  m_pendingFollowers = 0;
}

void CrowdField::Impl::resetWritten() {
  for (const std::uint32_t tile : m_region) {
    m_distance[tile] = kUnreachable;
    m_direction[tile] = kNoDirection;
  }
  m_diagnostics.work.tiles += std::int64_t(m_region.size());
  m_region.clear();
  clearRows(true);
}

void CrowdField::Impl::clearRows(bool directions) {
  for (std::size_t y = 0; y < m_rows.size(); ++y) {
    RowSpan& span = m_rows[y];
    if (span.low > span.high) continue;
    const std::size_t first = padded({span.low, std::int32_t(y)}), count = std::size_t(span.high - span.low + 1);
    std::fill_n(m_distance.begin() + std::ptrdiff_t(first), count, kUnreachable);
    if (directions) std::fill_n(m_direction.begin() + std::ptrdiff_t(first), count, kNoDirection);
    m_diagnostics.work.tiles += std::int64_t(count);
    span = {};
  }
}

void CrowdField::Impl::rowsFromRegion() {
  // Padded tile -> row and column by a multiplication (a division per tile would cost more than
  // the rest of a canonical build), corrected where rounding put it one row off.
  const auto stride = std::uint64_t(m_stride);
  const double perRow = 1.0 / double(stride);
  for (const std::uint32_t tile : m_region) {
    std::uint64_t row = std::uint64_t(double(tile) * perRow);
    if (row * stride > tile) --row;
    if ((row + 1) * stride <= tile) ++row;
    const auto x = std::int32_t(tile - row * stride) - 1, y = std::int32_t(row) - 1;
    RowSpan& span = m_rows[std::size_t(y)];
    if (span.low > span.high) {
      span = {x, x};
    } else {
      span.low = std::min(span.low, x);
      span.high = std::max(span.high, x);
    }
  }
  m_diagnostics.work.tiles += std::int64_t(m_region.size());
  m_region.clear();
}

bool CrowdField::Impl::buildBoundedCanonical() {
  // The last bounded field must be this map's and must have stopped short of the whole
  // component (its limit bounds where the new one lies), and every new goal must lie in it.
  if (!oneWeightSquare() || !m_boundsExact || m_boundedEdits != m_mapEdits || m_limit == kUnreachable || m_limit <= 0 ||
      m_goals.empty() || m_rows.empty()) {
    return false;
  }
  // After an attempt that was given up (the scan's routes needed a repair, or it met walls
  // scattered thickly), the next few builds go straight to Dial's algorithm: near the same goals
  // the next attempt would likely fail too, and a failed one costs as much as a success.
  if (m_scanPause > 0) {
    --m_scanPause;
    return false;
  }
  const std::int64_t straight = 2 * halfStraightCost(m_lightest), diagonal = 2 * halfDiagonalCost(m_lightest);
  // `moved`: the farthest a new goal lies from the old ones. A tile's old distance is at most its
  // new one plus that (through the nearest new goal), so the tiles below a distance D now lay
  // below D + moved before: within (D + moved - m_limit) / straight + 1 tiles of an old settled
  // tile (a route out of the settled area costs at least the limit, and a step at least straight).
  std::int64_t moved = 0;
  for (const Cell goal : m_goals) {
    const std::int64_t was = m_distance[padded(goal)];
    if (was >= m_limit) return false;
    moved = std::max(moved, was);
  }
  // The scan writes below `cap`: the old limit, the goals' move and a bucket more, which holds
  // the new stop (the end of the bucket past the farthest follower and the margin, each now at
  // most `moved` further) unless the followers moved away meanwhile (then Dial's algorithm does it).
  const int shift = bucketShape().first;
  const std::int64_t cap = m_limit + moved + (std::int64_t(1) << shift);
  // The old written rows hold the settled tiles and the frontier beside them (where a route out
  // of the settled area steps first); the new field's tiles below the cap, and its frontier,
  // lie within `reach` tiles of those.
  const std::int32_t reach = std::int32_t((cap + moved - m_limit) / straight) + 1;
  rowsFromRegion();
  // The area the new field can write: the old written rows widened by `reach` every way.
  const std::int32_t height = m_costs.height(), width = m_costs.width();
  m_area.assign(std::size_t(height), RowSpan{});
  for (std::int32_t y = 0; y < height; ++y) {
    const RowSpan span = m_rows[std::size_t(y)];
    if (span.low > span.high) continue;
    const RowSpan wide{std::max(0, span.low - reach), std::min(width - 1, span.high + reach)};
    for (std::int32_t row = std::max(0, y - reach); row <= std::min(height - 1, y + reach); ++row) {
      RowSpan& area = m_area[std::size_t(row)];
      area = area.low > area.high ? wide : RowSpan{std::min(area.low, wide.low), std::max(area.high, wide.high)};
    }
  }
  // The old distances go (the directions are all written by the last sweep: the area covers them).
  clearRows(false);
  const auto giveUp = [this]() {
    m_rows.swap(m_area);  // everything the scan may have written: resetWritten() clears it
    m_scanPause = kScanPause;
    return false;
  };
  m_seeds.clear();
  seedGoals(m_seeds);
  if (!scanCanonical(straight, diagonal, cap)) return giveUp();
  // Where Dial's bounded build stops: the end of the first bucket past the farthest follower
  // looked for (not those known cut off) and the margin. Every follower must lie below the cap.
  m_margin = std::int64_t(m_marginTiles) * lightestStep();
  std::int64_t farthest = 0;
  for (const std::uint32_t tile : m_followers) {
    if (std::find(m_lostFollowers.begin(), m_lostFollowers.end(), tile) != m_lostFollowers.end()) continue;
    if (m_distance[tile] >= cap) return giveUp();
    farthest = std::max(farthest, m_distance[tile]);
  }
  const std::int64_t stop = (((farthest + m_margin) >> shift) + 1) << shift;
  if (stop > cap) return giveUp();
  m_frontier.clear();
  m_settledTiles = 0;
  if (!finishBoundedRows(stop, straight, diagonal)) return giveUp();
  // Nothing beside the settled tiles: the goals' whole component is settled (Dial's queue ran dry).
  m_limit = m_frontier.empty() ? kUnreachable : stop;
  m_farthestFollower = farthest;
  m_pendingFollowers = 0;
  return true;
}

#if RPGNAV_FIELD_AVX2
namespace {
// finishBoundedRows() for the tiles row .. row + width - 1, four at a time (AVX2; every passable
// tile weighs the same: `straight` and `diagonal` are its steps). Returns the tiles done (a
// multiple of four; the caller does the rest), or width + 1 when a kept neighbour offers some
// tile less than it holds and than `stop`. `first` and `last`: the first and last tile written
// (kept or frontier), updated.
__attribute__((target("avx2"))) std::size_t finishRowAvx2(std::int64_t* distance, const std::int64_t* half,
                                                          const std::uint8_t* openBits, std::uint8_t* direction, std::size_t row,
                                                          std::size_t width, const std::ptrdiff_t* offsets, std::int64_t straight,
                                                          std::int64_t diagonal, std::int64_t stop, std::int64_t& settledTiles,
                                                          std::vector<std::uint32_t>& frontier, std::size_t& firstTile,
                                                          std::size_t& lastTile) {
  // (Locals, not the callers' memory: the byte stores into `direction` could alias those, and
  // the compiler would load them again after every one.)
  std::ptrdiff_t offset[8];
  for (int m = 0; m < 8; ++m) offset[m] = offsets[m];
  std::int64_t settled = 0;
  std::size_t first = firstTile, last = lastTile;
  // A direction is the first move (settleWith's order) whose neighbour lies exactly a step
  // nearer: 255 - the largest of (255 - m) over the exact moves m (255 - 0 = kNoDirection when
  // none), in single-cycle operations (a chain of byte blends is slower).
  static_assert(CrowdField::kNoDirection == 255);
  const __m256i unreachable = _mm256_set1_epi64x(CrowdField::kUnreachable), below = _mm256_set1_epi64x(stop);
  const __m256i none = _mm256_set1_epi64x(255);
  std::size_t x = 0;
  for (; x + 4 <= width; x += 4) {
    const std::size_t tile = row + x;
    const __m256i weights = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(half + tile));
    if (_mm256_testz_si256(weights, weights)) {  // four walls: unreached already
      std::memset(direction + tile, CrowdField::kNoDirection, 4);
      continue;
    }
    const __m256i here = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(distance + tile));
    const __m256i kept = _mm256_cmpgt_epi64(below, here);
    const auto keptLanes = unsigned(_mm256_movemask_pd(_mm256_castsi256_pd(kept)));
    std::int32_t packed;
    std::memcpy(&packed, openBits + tile, sizeof packed);
    const __m256i wall = _mm256_cmpeq_epi64(weights, _mm256_setzero_si256());
    const __m256i open = _mm256_andnot_si256(wall, _mm256_cvtepu8_epi64(_mm_cvtsi32_si128(packed)));
    __m256i rank = _mm256_setzero_si256();  // the largest 255 - m over the exact moves
    if (keptLanes == 0xf) {
      // Four settled tiles (most of the area): their directions, and the check alone (a
      // neighbour that offers one of them less lies below it, so is kept: no offers to gather).
      // Away from walls every move is open (most of those): no move bits to apply.
      __m256i high = _mm256_setzero_si256();
      if (packed == -1) {
        for (int m = 7; m >= 0; --m) {
          const __m256i there = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(distance + std::ptrdiff_t(tile) + offset[m]));
          const __m256i step = _mm256_set1_epi64x(m >= 4 ? diagonal : straight);
          const __m256i fall = _mm256_sub_epi64(here, there);
          rank = _mm256_max_epu32(rank, _mm256_and_si256(_mm256_cmpeq_epi64(fall, step), _mm256_set1_epi64x(255 - m)));
          high = _mm256_or_si256(high, _mm256_cmpgt_epi64(fall, step));
        }
      } else {
        for (int m = 7; m >= 0; --m) {
          const __m256i there = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(distance + std::ptrdiff_t(tile) + offset[m]));
          const __m256i step = _mm256_set1_epi64x(m >= 4 ? diagonal : straight);
          const __m256i bit = _mm256_set1_epi64x(std::int64_t(1) << m);
          const __m256i moveOpen = _mm256_cmpeq_epi64(_mm256_and_si256(open, bit), bit);
          const __m256i fall = _mm256_sub_epi64(here, there);
          const __m256i exact = _mm256_and_si256(_mm256_cmpeq_epi64(fall, step), moveOpen);
          rank = _mm256_max_epu32(rank, _mm256_and_si256(exact, _mm256_set1_epi64x(255 - m)));
          high = _mm256_or_si256(high, _mm256_and_si256(_mm256_cmpgt_epi64(fall, step), moveOpen));
        }
      }
      if (!_mm256_testz_si256(high, high)) return width + 1;
      const std::int32_t bytes = detail::lowBytes(_mm256_sub_epi64(none, rank));
      std::memcpy(direction + tile, &bytes, sizeof bytes);
      settled += 4;
      if (first == std::size_t(-1)) first = tile;
      last = tile + 3;
      continue;
    }
    __m256i offered = unreachable;
    for (int m = 7; m >= 0; --m) {
      const __m256i there = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(distance + std::ptrdiff_t(tile) + offset[m]));
      const __m256i step = _mm256_set1_epi64x(m >= 4 ? diagonal : straight);
      const __m256i bit = _mm256_set1_epi64x(std::int64_t(1) << m);
      const __m256i moveOpen = _mm256_cmpeq_epi64(_mm256_and_si256(open, bit), bit);
      const __m256i exact = _mm256_and_si256(_mm256_cmpeq_epi64(_mm256_sub_epi64(here, there), step), moveOpen);
      rank = _mm256_max_epu32(rank, _mm256_and_si256(exact, _mm256_set1_epi64x(255 - m)));
      // (A neighbour at kUnreachable wraps round here, but is never below the stop.)
      const __m256i candidate = _mm256_add_epi64(there, step);
      const __m256i better = _mm256_and_si256(_mm256_and_si256(_mm256_cmpgt_epi64(below, there), moveOpen),
                                              _mm256_cmpgt_epi64(offered, candidate));
      offered = _mm256_blendv_epi8(offered, candidate, better);
    }
    // A kept neighbour offering less than a tile holds and than the stop: a route the scan missed.
    const __m256i ceiling = _mm256_blendv_epi8(below, here, kept);
    const __m256i missed = _mm256_cmpgt_epi64(ceiling, offered);
    if (!_mm256_testz_si256(missed, missed)) return width + 1;
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(distance + tile), _mm256_blendv_epi8(offered, here, kept));
    const std::int32_t bytes = detail::lowBytes(_mm256_blendv_epi8(none, _mm256_sub_epi64(none, rank), kept));
    std::memcpy(direction + tile, &bytes, sizeof bytes);
    const unsigned reachedLanes =
        unsigned(_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(unreachable, offered)))) & ~keptLanes;
    settled += std::popcount(keptLanes);
    if ((keptLanes | reachedLanes) != 0) {
      if (first == std::size_t(-1)) first = tile + std::size_t(std::countr_zero(keptLanes | reachedLanes));
      last = tile + 31 - std::size_t(std::countl_zero(keptLanes | reachedLanes));
    }
    for (unsigned lanes = reachedLanes; lanes != 0; lanes &= lanes - 1) {
      frontier.push_back(std::uint32_t(tile + std::size_t(std::countr_zero(lanes))));
    }
  }
  settledTiles += settled;
  firstTile = first;
  lastTile = last;
  return x;
}
}  // namespace
#endif

bool CrowdField::Impl::finishBoundedRows(std::int64_t stop, std::int64_t straight, std::int64_t diagonal) {
  std::ptrdiff_t offset[8];
  for (std::size_t k = 0; k < 8; ++k) offset[k] = m_moves[0][k].offset;
  const SettleArrays arrays = settleArrays();
#if RPGNAV_FIELD_AVX2
  static const bool avx2 = detail::cpuHasAvx2();
#endif
  for (std::int32_t y = 0; y < m_costs.height(); ++y) {
    const RowSpan area = m_area[std::size_t(y)];
    if (area.low > area.high) continue;
    const std::size_t row = padded({area.low, y}), width = std::size_t(area.high - area.low + 1);
    m_diagnostics.work.tiles += std::int64_t(width);
    std::size_t first = std::size_t(-1), last = 0, x = 0;
#if RPGNAV_FIELD_AVX2
    if (avx2) {
      x = finishRowAvx2(m_distance.data(), m_half.data(), m_open.data(), m_direction.data(), row, width, offset, straight,
                        diagonal, stop, m_settledTiles, m_frontier, first, last);
      if (x > width) return false;
    }
#endif
    for (std::size_t tile = row + x; tile < row + width; ++tile) {
      const std::int64_t here = m_distance[tile];
      const unsigned bits = m_half[tile] != 0 ? m_open[tile] : 0u;
      std::int64_t offered = kUnreachable;
      for (std::size_t k = 0; k < 8; ++k) {
        const std::int64_t there = m_distance[std::size_t(std::ptrdiff_t(tile) + offset[k])];
        if (((bits >> k) & 1u) != 0 && there < stop) offered = std::min(offered, there + (k < 4 ? straight : diagonal));
      }
      if (offered < std::min(here, stop)) return false;  // a route the scan missed
      if (here < stop) {
        settleWith<8>(arrays, tile, offset);
        ++m_settledTiles;
      } else {
        m_distance[tile] = offered;
        m_direction[tile] = kNoDirection;
        if (offered == kUnreachable) continue;
        m_frontier.push_back(std::uint32_t(tile));
      }
      if (first == std::size_t(-1)) first = tile;
      last = tile;
    }
    if (first != std::size_t(-1)) m_rows[std::size_t(y)] = {std::int32_t(first - row) + area.low, std::int32_t(last - row) + area.low};
  }
  return true;
}

}  // namespace rpgnav
