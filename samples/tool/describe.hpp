// SPDX-License-Identifier: MIT
#pragma once
// The tool's words for maps and plans: counts with their nouns, points, a map's world extent,
// and why a plan could not start or end where it was asked to.

#include "rpgnav/grid/tile_map.hpp"
#include "rpgnav/path/path.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace rpgnav::tool {

// The noun for `count` things: `one`, or `many` (by default `one` + "s").
std::string noun(std::uint64_t count, std::string_view one, std::string_view many = {});
// "1 tile", "3 tiles".
std::string countOf(std::uint64_t count, std::string_view one, std::string_view many = {});

// "(3.5, 4.5)", in the shortest form printf's %g gives.
std::string pointText(Vec2 point);

// "world x in [0, 56), y in [0, 44)": where points lie on the map. On hex maps the box's rim
// cuts through the zigzag of the outer hexes, and the text says so.
std::string extentText(const TileMap& map);

// "walk, swim, fly": the mobilities a map's legend names, for "unknown mobility" messages.
std::string mobilityList(const TerrainTable& terrain);

// Why a point cannot be where a character starts or ends with `mobility` (`role`: "goal",
// "start"): it lies outside the map (or is not a number), or in a tile the mobility cannot enter.
//   goal (500, 500) is outside the map: world x in [0, 56), y in [0, 44)
//   goal (3.5, 4.5) is in tile (3, 4), wall, which walk cannot enter
// Empty when the point's tile is one the mobility can enter.
std::string explainUnusablePoint(std::string_view role, Vec2 point, const TileMap& map, MobilityId mobility);

// Why a plan with OutOfBounds, StartBlocked or GoalBlocked failed, naming the point and the
// map's extent, or the point's tile, its terrain and the mobility:
//   goal (500, 500) is outside the map: world x in [0, 56), y in [0, 44)
//   goal (3.5, 4.5) is in tile (3, 4), wall, which walk cannot enter
// Empty for any other status (the result's reason says enough).
std::string explainPlanFailure(const PathResult& result, const PathRequest& request, const TileMap& map);

}  // namespace rpgnav::tool
