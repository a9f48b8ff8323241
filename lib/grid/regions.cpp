// SPDX-License-Identifier: MIT
#include "rpgnav/grid/regions.hpp"

namespace rpgnav {

RegionMap RegionMap::compute(const TileMap& map, MobilityId mobility) {
  RegionMap regions;
  regions.m_width = map.width();
  regions.m_height = map.height();
  regions.m_mobility = mobility;
  regions.m_mapVersion = map.version();
  regions.m_labels.assign(std::size_t(map.tileCount()), kNoRegion);

  // Flood fill with an explicit stack (no recursion: maps can have millions of tiles). Movement
  // steps are symmetric (a diagonal needs the same two orthogonal tiles both ways), so a fill
  // from any tile finds exactly its region.
  std::vector<std::int32_t> stack;
  for (std::int32_t seed = 0; seed < map.tileCount(); ++seed) {
    if (regions.m_labels[std::size_t(seed)] != kNoRegion) continue;
    const Cell seedCell = map.cellAt(seed);
    if (!map.passable(seedCell, mobility)) continue;
    const auto label = std::uint32_t(regions.m_sizes.size());
    std::uint32_t size = 0;
    regions.m_labels[std::size_t(seed)] = label;
    stack.push_back(seed);
    while (!stack.empty()) {
      const Cell cell = map.cellAt(stack.back());
      stack.pop_back();
      ++size;
      for (const NeighbourStep& step : map.layout().moves(cell)) {
        const Cell next{cell.x + step.dx, cell.y + step.dy};
        if (!map.canStep(cell, step, mobility)) continue;
        std::uint32_t& slot = regions.m_labels[std::size_t(map.index(next))];
        if (slot != kNoRegion) continue;
        slot = label;
        stack.push_back(map.index(next));
      }
    }
    regions.m_sizes.push_back(size);
  }
  return regions;
}

}  // namespace rpgnav
