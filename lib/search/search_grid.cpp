// SPDX-License-Identifier: MIT
#include "rpgnav/search/search_grid.hpp"

#include <cmath>
#include <string>

namespace rpgnav {

Result<SearchGrid> SearchGrid::build(const TileMap& map, MobilityId mobility) {
  const TerrainTable& terrain = map.terrain();
  if (!terrain.valid(mobility)) return Error{Status::InvalidArgument, "unknown mobility"};
  SearchGrid grid;
  grid.m_layout = map.layout();
  grid.m_width = map.width();
  grid.m_height = map.height();
  grid.m_mobility = mobility;
  grid.m_mapVersion = map.version();

  // One cost class per distinct cost (terrains with equal costs share a class, so a road and a
  // floor of the same cost form one uniform area for jump points).
  std::array<std::uint8_t, 256> classOfTerrain{};
  std::vector<float> classCost{0.0f};
  for (int t = 0; t < terrain.terrainCount(); ++t) {
    const float cost = terrain.cost(TerrainId{std::uint8_t(t)}, mobility);
    if (cost == TerrainTable::kImpassable) continue;
    if (cost < kMinSearchCost || cost > kMaxSearchCost) {
      return Error{Status::InvalidArgument, "terrain '" + terrain.terrainName(TerrainId{std::uint8_t(t)}) +
                                                "' costs " + std::to_string(cost) + " for " +
                                                terrain.mobilityName(mobility) + "; the search accepts 1/1024..1000"};
    }
    std::size_t c = 1;
    while (c < classCost.size() && classCost[c] != cost) ++c;
    if (c == classCost.size()) classCost.push_back(cost);
    classOfTerrain[std::size_t(t)] = std::uint8_t(c);
  }
  grid.m_costClasses = int(classCost.size()) - 1;
  grid.m_minStraight = grid.m_minDiagonal = 0;
  for (std::size_t c = 1; c < classCost.size(); ++c) {
    grid.m_straight[c] = std::llround(double(classCost[c]) * double(kCostScale));
    grid.m_diagonal[c] = std::llround(double(classCost[c]) * std::sqrt(2.0) * double(kCostScale));
    if (c == 1 || grid.m_straight[c] < grid.m_minStraight) grid.m_minStraight = grid.m_straight[c];
    if (c == 1 || grid.m_diagonal[c] < grid.m_minDiagonal) grid.m_minDiagonal = grid.m_diagonal[c];
  }

  const std::int32_t pw = grid.paddedWidth();
  grid.m_class.assign(std::size_t(grid.paddedCount()), 0);
  grid.m_uniform.assign(std::size_t(grid.paddedCount()), 0);
  for (std::int32_t y = 0; y < map.height(); ++y) {
    for (std::int32_t x = 0; x < map.width(); ++x) {
      grid.m_class[std::size_t((y + 1) * pw + x + 1)] = classOfTerrain[map.terrainAt({x, y}).value];
    }
  }
  for (std::int32_t y = 0; y < map.height(); ++y) {
    for (std::int32_t x = 0; x < map.width(); ++x) {
      const Cell cell{x, y};
      const std::uint8_t own = grid.m_class[std::size_t(grid.padded(cell))];
      if (own == 0) continue;
      bool uniform = true;
      for (const NeighbourStep& step : map.layout().touching(cell)) {
        const std::uint8_t other = grid.m_class[std::size_t(grid.padded({x + step.dx, y + step.dy}))];
        uniform = uniform && (other == 0 || other == own);
      }
      grid.m_uniform[std::size_t(grid.padded(cell))] = uniform ? 1 : 0;
    }
  }
  grid.m_regions = RegionMap::compute(map, mobility);
  return grid;
}

}  // namespace rpgnav
