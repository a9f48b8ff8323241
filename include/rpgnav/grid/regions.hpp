// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// Connected regions of a map for one mobility: answers "can this tile reach that one at all?"
/// in O(1), so unreachable goals need no search.

#include "rpgnav/core/types.hpp"
#include "rpgnav/grid/tile_map.hpp"

#include <cstdint>
#include <limits>
#include <vector>

namespace rpgnav {

/// Region labels: two tiles share a label exactly when a character of the mobility can walk from
/// one to the other using the layout's movement steps (so the no-corner-cutting rule applies).
/// Labels are numbered 0.. in row-major order of each region's first tile (deterministic).
///
/// A RegionMap is a snapshot: after the map is edited (its version changes) compute a new one.
/// Thread-safety: immutable once computed; share freely between threads.
class RegionMap {
 public:
  static constexpr std::uint32_t kNoRegion = std::numeric_limits<std::uint32_t>::max();

  /// Labels every tile of `map` for `mobility`. O(tiles).
  static RegionMap compute(const TileMap& map, MobilityId mobility);

  /// The region of a tile, or kNoRegion for tiles outside the map or impassable to the mobility.
  std::uint32_t regionOf(Cell cell) const noexcept {
    if (cell.x < 0 || cell.y < 0 || cell.x >= m_width || cell.y >= m_height) return kNoRegion;
    return m_labels[std::size_t(cell.y) * std::size_t(m_width) + std::size_t(cell.x)];
  }
  /// True when both tiles are passable and in the same region.
  bool connected(Cell a, Cell b) const noexcept {
    const std::uint32_t r = regionOf(a);
    return r != kNoRegion && r == regionOf(b);
  }
  std::uint32_t regionCount() const noexcept { return std::uint32_t(m_sizes.size()); }
  /// Number of tiles in a region.
  std::uint32_t regionSize(std::uint32_t region) const noexcept {
    return region < m_sizes.size() ? m_sizes[region] : 0;
  }
  MobilityId mobility() const noexcept { return m_mobility; }
  /// The map version this snapshot was computed from.
  std::uint64_t mapVersion() const noexcept { return m_mapVersion; }

 private:
  std::int32_t m_width = 0;
  std::int32_t m_height = 0;
  MobilityId m_mobility;
  std::uint64_t m_mapVersion = 0;
  std::vector<std::uint32_t> m_labels;
  std::vector<std::uint32_t> m_sizes;
};

}  // namespace rpgnav
