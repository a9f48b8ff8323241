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
  std::array<bool, 256> present{};
  for (std::int32_t y = 0; y < map.height(); ++y) {
    for (std::int32_t x = 0; x < map.width(); ++x) {
      const std::uint8_t costClass = classOfTerrain[map.terrainAt({x, y}).value];
      grid.m_class[std::size_t((y + 1) * pw + x + 1)] = costClass;
      present[costClass] = true;
    }
  }
  for (std::size_t c = 1; c < present.size(); ++c) grid.m_costClasses += present[c] ? 1 : 0;
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

  const std::int32_t ph = map.height() + 2;
  grid.m_rowWords = (pw + 63) / 64 + 1;
  grid.m_columnWords = (ph + 63) / 64 + 1;
  grid.m_rowPassable.assign(std::size_t(ph) * std::size_t(grid.m_rowWords), 0);
  grid.m_rowJumpable.assign(grid.m_rowPassable.size(), 0);
  grid.m_columnPassable.assign(std::size_t(pw) * std::size_t(grid.m_columnWords), 0);
  grid.m_columnJumpable.assign(grid.m_columnPassable.size(), 0);
  for (std::int32_t y = 0; y < ph; ++y) {
    for (std::int32_t x = 0; x < pw; ++x) {
      const std::size_t i = std::size_t(y) * std::size_t(pw) + std::size_t(x);
      const std::uint64_t rowBit = std::uint64_t(1) << (x & 63), columnBit = std::uint64_t(1) << (y & 63);
      const std::size_t row = std::size_t(y) * std::size_t(grid.m_rowWords) + std::size_t(x >> 6);
      const std::size_t column = std::size_t(x) * std::size_t(grid.m_columnWords) + std::size_t(y >> 6);
      if (grid.m_class[i] != 0) {
        grid.m_rowPassable[row] |= rowBit;
        grid.m_columnPassable[column] |= columnBit;
      }
      if (grid.m_uniform[i] != 0) {
        grid.m_rowJumpable[row] |= rowBit;
        grid.m_columnJumpable[column] |= columnBit;
      }
    }
  }
  return grid;
}

}  // namespace rpgnav
