// SPDX-License-Identifier: MIT
#pragma once
// Comparing navigation data with data built afresh: what "an edit applied in place equals a fresh
// build" means, field by field, through the public accessors.

#include "nav/nav_layer.hpp"
#include "rpgnav/nav/nav_data.hpp"

#include <string>

namespace rpgnav::test {

/// "" when the two grids hold the same data: cost classes, uniform and gate flags, jump tables,
/// gates, step costs and the same regions (labels may be numbered differently after edits);
/// landmarks too when `landmarks`. Otherwise what differs first.
std::string gridDifference(const SearchGrid& a, const SearchGrid& b, bool landmarks);

/// "" when two layers hold the same data (grids as above, line bitmaps, corners, cost bytes).
std::string layerDifference(const NavLayer& a, const NavLayer& b, bool landmarks);

}  // namespace rpgnav::test
