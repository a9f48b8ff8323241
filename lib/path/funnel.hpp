// SPDX-License-Identifier: MIT
#pragma once
// The shortest polyline through a corridor of tiles (the "simple stupid funnel", after Mikko
// Mononen): bends only at the corners of the portals between consecutive tiles.

#include "rpgnav/grid/tile_map.hpp"

#include <vector>

namespace rpgnav::detail {

/// Taut path from `start` (in tiles.front()) to `goal` (in tiles.back()) through the corridor,
/// in world units. Portal ends that touch a blocked tile are pulled in by `radius`; a portal too
/// narrow for that leaves `out` empty.
void funnelPath(const TileMap& map, MobilityId mobility, const std::vector<Cell>& tiles, Vec2 start, Vec2 goal,
                float radius, std::vector<Vec2>& out);

}  // namespace rpgnav::detail
