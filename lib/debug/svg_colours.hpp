// SPDX-License-Identifier: MIT
// Private to lib/debug: the colour helpers svg.cpp shares with svg_colours.cpp.
#pragma once

#include "rpgnav/grid/terrain_table.hpp"

#include <array>
#include <string>
#include <string_view>

namespace rpgnav::detail {

// A colour a reader recognises for common terrain names; neutral tones otherwise (see
// svg_colours.cpp).
std::string terrainColour(const TerrainTable& table, TerrainId id, MobilityId mobility);
// The channels of a #rrggbb colour; false for anything else.
bool toRgb(std::string_view colour, std::array<int, 3>& out);

}  // namespace rpgnav::detail
