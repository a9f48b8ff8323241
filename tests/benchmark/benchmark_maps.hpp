// SPDX-License-Identifier: MIT
#pragma once
// Maps the benchmarks derive from the Moving AI maps: the same tiles on another layout
// (hex maps beside the square ones), breadth-first optima on them, and random terrain-cost
// patches. Header-only: each benchmark is one translation unit.

#include "rpgnav/grid/tile_map.hpp"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace rpgnav::bench {

// The map's passable tiles recoloured into patches of random cost (1, 1.5, 2, 3 or 5), each
// patch the tiles nearest (in grid steps) to one of tiles/400 random seeds: forests, swamps and
// roads of a few hundred tiles each, as on an RPG overworld.
inline TileMap withCostPatches(const TileMap& map, std::uint32_t seed) {
  const float costs[] = {1.0f, 1.5f, 2.0f, 3.0f, 5.0f};
  TerrainTable terrain;
  const TerrainId wall = terrain.addTerrain("wall", '@').value();
  for (int i = 0; i < 5; ++i) {
    const TerrainId id = terrain.addTerrain("cost" + std::to_string(i), char('1' + i)).value();
    (void)terrain.setCost(id, TerrainTable::kWalk, costs[i]);
  }
  std::mt19937 random(seed);
  std::vector<TerrainId> tiles(std::size_t(map.tileCount()), wall);
  std::vector<int> owner(std::size_t(map.tileCount()), -1);
  std::deque<std::int32_t> frontier;
  std::vector<TerrainId> patchTerrain;
  for (int s = 0; s < std::max(1, map.tileCount() / 400); ++s) {
    const std::int32_t index = std::uniform_int_distribution<std::int32_t>(0, map.tileCount() - 1)(random);
    if (owner[std::size_t(index)] >= 0) continue;
    owner[std::size_t(index)] = int(patchTerrain.size());
    patchTerrain.push_back(TerrainId{std::uint8_t(1 + std::uniform_int_distribution<int>(0, 4)(random))});
    frontier.push_back(index);
  }
  while (!frontier.empty()) {
    const std::int32_t index = frontier.front();
    frontier.pop_front();
    const Cell cell = map.cellAt(index);
    for (const NeighbourStep& step : map.layout().touching(cell)) {
      const Cell next{cell.x + step.dx, cell.y + step.dy};
      if (!map.contains(next) || owner[std::size_t(map.index(next))] >= 0) continue;
      owner[std::size_t(map.index(next))] = owner[std::size_t(index)];
      frontier.push_back(map.index(next));
    }
  }
  for (std::int32_t i = 0; i < map.tileCount(); ++i) {
    if (map.passable(map.cellAt(i), TerrainTable::kWalk)) tiles[std::size_t(i)] = patchTerrain[std::size_t(owner[std::size_t(i)])];
  }
  return TileMap::create(map.layout(), map.width(), map.height(), terrain, std::move(tiles)).value();
}

// The same tiles on another layout (Moving AI maps as hex maps: side by side).
inline TileMap withLayout(const TileMap& map, const Layout& layout) {
  std::vector<TerrainId> tiles(std::size_t(map.tileCount()));
  for (std::int32_t i = 0; i < map.tileCount(); ++i) tiles[std::size_t(i)] = map.terrainAt(map.cellAt(i));
  return TileMap::create(layout, map.width(), map.height(), map.terrain(), std::move(tiles)).value();
}

// A Moving AI map beside its two hex forms (the benchmarks' --only hex-work): the same tiles as
// square, pointy and flat tiles.
struct HexForms {
  TileMap square, pointy, flat;
  explicit HexForms(TileMap map)
      : square(std::move(map)), pointy(withLayout(square, Layout::hexPointy())), flat(withLayout(square, Layout::hexFlat())) {}
  // The form whose layout `name` names (square, hex-pointy or hex-flat), or null.
  const TileMap* named(const std::string& name) const {
    for (const TileMap* form : {&square, &pointy, &flat}) {
      if (toString(form->layout().kind()) == name) return form;
    }
    return nullptr;
  }
};

// Steps from `start` to every tile by breadth-first search over the layout's neighbour table
// (a map of one cost: the optimum in steps, independent of the search), -1 where unreachable.
inline std::vector<std::int32_t> stepsFrom(const TileMap& map, Cell start) {
  std::vector<std::int32_t> steps(std::size_t(map.tileCount()), -1);
  std::vector<std::int32_t> frontier{map.index(start)};
  steps[std::size_t(map.index(start))] = 0;
  for (std::size_t head = 0; head < frontier.size(); ++head) {
    const Cell cell = map.cellAt(frontier[head]);
    for (const NeighbourStep& step : map.layout().moves(cell)) {
      const Cell next{cell.x + step.dx, cell.y + step.dy};
      if (!map.contains(next) || !map.passable(next, TerrainTable::kWalk)) continue;
      if (!step.sharesEdge && (!map.passable({cell.x + step.dx, cell.y}, TerrainTable::kWalk) ||
                               !map.passable({cell.x, cell.y + step.dy}, TerrainTable::kWalk))) {
        continue;  // (square diagonals: no corner cutting)
      }
      std::int32_t& known = steps[std::size_t(map.index(next))];
      if (known >= 0) continue;
      known = steps[std::size_t(frontier[head])] + 1;
      frontier.push_back(map.index(next));
    }
  }
  return steps;
}

}  // namespace rpgnav::bench
