// SPDX-License-Identifier: MIT
#pragma once
// A plain Dijkstra over a TileMap, written independently of the search module, as ground truth:
// step cost = round(length/2 × cost(from) × kCostScale) + round(length/2 × cost(to) × kCostScale),
// the documented fixed-point rule (half the step in each tile).

#include "rpgnav/grid/tile_map.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace rpgnav::test {

/// A tile's travel cost instead of the map's (danger weighed in, say). Empty: TileMap::cost.
using TileCost = std::function<float(Cell cell)>;

/// The fixed-point cost of one step from `from` to its neighbour `to` (length 1 or √2).
std::int64_t referenceStepCost(const TileMap& map, Cell from, Cell to, MobilityId mobility, bool diagonal,
                               const TileCost& tileCost = {});

/// Extra rules for single steps (gates, doors): the extra fixed-point cost of the step from one
/// tile to a neighbour, or nullopt when the step is forbidden. Empty: no extra rules.
using StepRule = std::function<std::optional<std::int64_t>(Cell from, Cell to)>;

/// Optimal cost from start to every tile (-1 where unreachable), in fixed-point units.
std::vector<std::int64_t> dijkstraCosts(const TileMap& map, MobilityId mobility, Cell start,
                                        const StepRule& rule = {}, const TileCost& tileCost = {});

/// Checks a tile path: starts and ends where asked, every step a legal move. Returns its
/// fixed-point cost, or nullopt when a step is illegal.
std::optional<std::int64_t> pathCost(const TileMap& map, MobilityId mobility, const std::vector<Cell>& path,
                                     const StepRule& rule = {});

}  // namespace rpgnav::test
