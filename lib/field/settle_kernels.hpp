// SPDX-License-Identifier: MIT
// Private to lib/field: the settle rule (a tile's direction from its neighbours' distances) and
// the AVX2 row kernels that the field's sweeps share (the directions after a build, the canonical
// scan's check, the bounded field's rows).
#pragma once

#include "field/crowd_field_impl.hpp"

#include "core/intrinsics.hpp"

#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

#if defined(__x86_64__) && defined(__GNUC__)
#define RPGNAV_FIELD_AVX2 1
#include <immintrin.h>
#else
#define RPGNAV_FIELD_AVX2 0
#endif

namespace rpgnav {

struct CrowdField::Impl::SettleArrays {
  const std::int64_t* distance;
  const std::int64_t* half;          // m_half
  const std::int64_t* halfDiagonal;  // m_halfDiagonal
  const std::uint8_t* open;
  std::uint8_t* direction;
  unsigned openMask;  // the move bits of m_open (hex tiles keep their parity above them)
};

template <std::size_t kMoves>
[[gnu::always_inline]] inline void CrowdField::Impl::settleWith(const SettleArrays& arrays, std::size_t tile,
                                                          const std::ptrdiff_t* offset) noexcept {
  // The direction: the first move (in the layout's fixed order) the distance comes from, i.e.
  // whose neighbour's distance plus the step to it equals this tile's. Without branches per
  // move. (An open move's step costs more than 0, so an exact fall is above 0.)
  const std::int64_t here = arrays.distance[tile];
  const std::uint64_t open = arrays.open[tile] & arrays.openMask;
  std::uint64_t exact = 0;
  for (std::size_t k = 0; k < kMoves; ++k) {
    const std::size_t next = std::size_t(std::ptrdiff_t(tile) + offset[k]);
    // Square tables: 4 straight steps, then 4 diagonals; hex steps are all straight.
    const std::int64_t* half = kMoves == 8 && k >= 4 ? arrays.halfDiagonal : arrays.half;
    const std::int64_t fall = here - arrays.distance[next];  // no overflow: both in [0, kUnreachable]
    exact |= std::uint64_t(fall == half[tile] + half[next]) << k;
  }
  exact &= open;
  // An unreachable tile has no direction.
  arrays.direction[tile] = exact != 0 && here != kUnreachable ? std::uint8_t(std::countr_zero(exact)) : kNoDirection;
}

#if RPGNAV_FIELD_AVX2
namespace detail {
// The four 64-bit lanes' low bytes (each 0-255), packed into one word.
__attribute__((target("avx2"))) inline std::int32_t lowBytes(__m256i lanes) {
  const __m128i low = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(lanes, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6)));
  return _mm_cvtsi128_si32(_mm_packus_epi16(_mm_packus_epi32(low, low), _mm_setzero_si128()));
}

// settleWith<8>() for the tiles row .. row + width - 1, four at a time (AVX2): the tiles done
// (a multiple of four; the caller does the rest); adds the reachable ones to `reachable`. With
// kCheck (the canonical integration's sweep, where every passable tile weighs the same: its
// steps are `straight` and `diagonal`, not read from the weights), also appends to `found` the
// tiles a neighbour offers a shorter distance than they hold. `half` and `halfDiagonal`: the
// tiles' half steps (0 on walls).
template <bool kCheck>
__attribute__((target("avx2"))) std::size_t directionRowAvx2(const std::int64_t* distance, const std::int64_t* half,
                                                             const std::int64_t* halfDiagonal,
                                                             const std::uint8_t* openBits, std::uint8_t* direction,
                                                             std::size_t row, std::size_t width, const std::ptrdiff_t* offset,
                                                             std::int64_t& reachable, std::int64_t straight, std::int64_t diagonal,
                                                             std::vector<std::uint32_t>* found) {
  constexpr std::int64_t kNone = CrowdField::kNoDirection;
  const __m256i unreachable = _mm256_set1_epi64x(CrowdField::kUnreachable);
  std::size_t x = 0;
  for (; x + 4 <= width; x += 4) {
    const std::size_t tile = row + x;
    // Runs of four tiles with no direction: walls, and for the directions alone any unreachable
    // ones (the check still looks at those that are not walls: a neighbour may offer them a
    // distance). Walls are told by their weights before their distances are loaded.
    const __m256i weights = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(half + tile));
    if (kCheck && _mm256_testz_si256(weights, weights)) {
      std::memset(direction + tile, CrowdField::kNoDirection, 4);
      continue;
    }
    const __m256i here = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(distance + tile));
    const __m256i none = _mm256_cmpeq_epi64(here, unreachable);
    const int unreached = _mm256_movemask_pd(_mm256_castsi256_pd(none));
    reachable += 4 - std::popcount(unsigned(unreached));
    if (!kCheck && unreached == 0xf) {
      std::memset(direction + tile, CrowdField::kNoDirection, 4);
      continue;
    }
    std::int32_t packed;
    std::memcpy(&packed, openBits + tile, sizeof packed);
    // Walls hold no distance to check: no moves.
    const __m256i wall = _mm256_cmpeq_epi64(weights, _mm256_setzero_si256());
    const __m256i open = _mm256_andnot_si256(wall, _mm256_cvtepu8_epi64(_mm_cvtsi32_si128(packed)));
    __m256i best = _mm256_set1_epi64x(kNone), high = _mm256_setzero_si256();
    // From the last move to the first, so the first exact one is kept. Four tiles away from
    // walls (every move open: no move bits to apply) are the most common case of the check.
    if (kCheck && packed == -1 && _mm256_testz_si256(wall, wall)) {
      for (int m = 7; m >= 0; --m) {
        const __m256i there = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(distance + std::ptrdiff_t(tile) + offset[m]));
        const __m256i step = _mm256_set1_epi64x(m >= 4 ? diagonal : straight);
        const __m256i fall = _mm256_sub_epi64(here, there);
        best = _mm256_blendv_epi8(best, _mm256_set1_epi64x(m), _mm256_cmpeq_epi64(fall, step));
        high = _mm256_or_si256(high, _mm256_cmpgt_epi64(fall, step));
      }
    } else {
    for (int m = 7; m >= 0; --m) {
      const std::size_t next = std::size_t(std::ptrdiff_t(tile) + offset[m]);
      const __m256i there = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(distance + next));
      __m256i step;
      if constexpr (kCheck) {
        step = _mm256_set1_epi64x(m >= 4 ? diagonal : straight);
      } else {
        // The step costs half of it on each tile (settleWith's rule).
        const std::int64_t* halves = m >= 4 ? halfDiagonal : half;
        step = _mm256_add_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(halves + tile)),
                                _mm256_loadu_si256(reinterpret_cast<const __m256i*>(halves + next)));
      }
      const __m256i bit = _mm256_set1_epi64x(std::int64_t(1) << m);
      const __m256i moveOpen = _mm256_cmpeq_epi64(_mm256_and_si256(open, bit), bit);
      // (here - there never overflows: both lie in [0, kUnreachable].)
      const __m256i fall = _mm256_sub_epi64(here, there);
      best = _mm256_blendv_epi8(best, _mm256_set1_epi64x(m), _mm256_and_si256(_mm256_cmpeq_epi64(fall, step), moveOpen));
      if constexpr (kCheck) high = _mm256_or_si256(high, _mm256_and_si256(_mm256_cmpgt_epi64(fall, step), moveOpen));
    }
    }
    if constexpr (kCheck) {
      for (unsigned lanes = unsigned(_mm256_movemask_pd(_mm256_castsi256_pd(high))); lanes != 0; lanes &= lanes - 1) {
        found->push_back(std::uint32_t(tile + std::size_t(std::countr_zero(lanes))));
      }
    }
    best = _mm256_blendv_epi8(best, _mm256_set1_epi64x(kNone), none);
    const std::int32_t bytes = lowBytes(best);  // the four directions stored at once
    std::memcpy(direction + tile, &bytes, sizeof bytes);
  }
  return x;
}
}  // namespace detail
#endif

}  // namespace rpgnav
