// SPDX-License-Identifier: MIT
#pragma once
// The one fixed-point cost model of a step between two neighbouring tiles, shared by the tile
// search (SearchGrid) and the crowd fields (CrowdField), so a character's plan and a horde's field
// price a route alike, to the last unit.

#include <cmath>
#include <cstdint>

namespace rpgnav {

/// Fixed-point travel costs: one tile step on cost-1 terrain costs kCostScale units. Integer costs
/// summed in 64 bits keep results exact and deterministic; 2^24 keeps the rounding of √2 below
/// 3·10⁻⁸ tiles per diagonal step.
///
/// A path costs the length it runs inside each tile × that tile's cost. A step between two
/// neighbouring tiles runs centre to centre, half its length in each tile, so it costs half its
/// length at each tile's cost: halfStepCost(cost(from)) + halfStepCost(cost(to)).
inline constexpr std::int64_t kCostScale = std::int64_t(1) << 24;

/// Half a straight (orthogonal or hex) step on a tile of `cost`, in kCostScale units.
inline std::int64_t halfStraightCost(double cost) noexcept { return std::llround(0.5 * cost * double(kCostScale)); }
/// Half a square diagonal step (√2 tiles long) on a tile of `cost`.
inline std::int64_t halfDiagonalCost(double cost) noexcept {
  return std::llround(0.5 * cost * std::sqrt(2.0) * double(kCostScale));
}

}  // namespace rpgnav
