// SPDX-License-Identifier: MIT
// Private to lib/search: small arithmetic the search's files share.
#pragma once

#include "grid/step_cost.hpp"
#include "rpgnav/grid/layout.hpp"

#include <cmath>
#include <cstdint>

namespace rpgnav::detail {

constexpr int sign(std::int32_t v) { return (v > 0) - (v < 0); }

// World-unit weighted cost (length × terrain cost) to fixed-point units.
inline std::int64_t toCostUnits(double cost, const Layout& layout) {
  return std::llround(cost / double(layout.tileSize()) * double(kCostScale));
}

}  // namespace rpgnav::detail
