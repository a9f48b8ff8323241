// SPDX-License-Identifier: MIT
#pragma once
// Word-at-a-time scans over bit rows for block-based jump point search.
//
// A row (or a transposed column) is an array of 64-bit words, bit i of word w standing for
// position 64·w + i, with one spare zero word at the end. `jumpable` marks tiles a jump may pass;
// `sideA`/`sideB` mark the passable tiles of the two neighbouring lines. A jump stops at the
// first position that is not jumpable or where a side tile is passable while the side tile one
// step back is not (a forced neighbour).

#include <bit>
#include <cstdint>

namespace rpgnav::detail {

/// First stopping position >= start, scanning towards higher positions. The caller guarantees a
/// non-jumpable position before the end of the row (the blocked border).
inline std::int32_t scanForward(const std::uint64_t* jumpable, const std::uint64_t* sideA, const std::uint64_t* sideB,
                                std::int32_t start) noexcept {
  std::int32_t w = start >> 6;
  std::uint64_t mask = ~std::uint64_t(0) << (start & 63);
  while (true) {
    const std::uint64_t a = sideA[w], b = sideB[w];
    const std::uint64_t carryA = w > 0 ? sideA[w - 1] >> 63 : 0, carryB = w > 0 ? sideB[w - 1] >> 63 : 0;
    const std::uint64_t behindA = (a << 1) | carryA, behindB = (b << 1) | carryB;  // bit i = position i-1
    const std::uint64_t stop = (~jumpable[w] | (~behindA & a) | (~behindB & b)) & mask;
    if (stop != 0) return (w << 6) + std::countr_zero(stop);
    mask = ~std::uint64_t(0);
    ++w;
  }
}

/// First stopping position <= start, scanning towards lower positions (position 0 is border).
inline std::int32_t scanBackward(const std::uint64_t* jumpable, const std::uint64_t* sideA, const std::uint64_t* sideB,
                                 std::int32_t start) noexcept {
  std::int32_t w = start >> 6;
  std::uint64_t mask = ~std::uint64_t(0) >> (63 - (start & 63));
  while (true) {
    const std::uint64_t a = sideA[w], b = sideB[w];
    const std::uint64_t behindA = (a >> 1) | (sideA[w + 1] << 63), behindB = (b >> 1) | (sideB[w + 1] << 63);
    const std::uint64_t stop = (~jumpable[w] | (~behindA & a) | (~behindB & b)) & mask;
    if (stop != 0) return (w << 6) + 63 - std::countl_zero(stop);
    mask = ~std::uint64_t(0);
    --w;
  }
}

}  // namespace rpgnav::detail
