// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// Connected regions of a map for one mobility: answers "can this tile reach that one at all?"
/// in O(1), so unreachable goals need no search.

#include "rpgnav/core/export.hpp"
#include "rpgnav/core/types.hpp"
#include "rpgnav/grid/tile_map.hpp"

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace rpgnav {

/// Region labels: two tiles share a label exactly when a character of the mobility can walk from
/// one to the other using the layout's movement steps (so the no-corner-cutting rule applies).
/// As computed, labels are numbered 0.. in row-major order of each region's first tile
/// (deterministic). update() follows edits in place: the labels then still tell regions apart
/// (deterministically), but are no longer in that order, and labels of regions that merged or
/// vanished stay unused (regionSize 0) until a new region takes them.
///
/// Thread-safety: any number of threads may read one RegionMap at once; update() must not
/// overlap with reads.
class RPGNAV_API RegionMap {
 public:
  static constexpr std::uint32_t kNoRegion = std::numeric_limits<std::uint32_t>::max();

  /// Labels every tile of `map` for `mobility`. O(tiles).
  static RegionMap compute(const TileMap& map, MobilityId mobility);

  /// Follows edits of the map (now at its new version) in place: `changed` holds every tile whose
  /// terrain changed (any order, repeats allowed); those whose passability for the mobility
  /// flipped matter. A tile closed can split its region: the parts are explored from the closed
  /// tiles' neighbours at once, and exploring stops when at most one part is still growing, so
  /// the work is the smaller parts plus the ground up to where the searches meet. A tile opened
  /// joins the regions around it: the smaller ones are relabelled. Same connectivity as
  /// compute() on the edited map.
  void update(const TileMap& map, std::span<const Cell> changed);

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
  /// How many regions there are.
  std::uint32_t regionCount() const noexcept { return m_regionCount; }
  /// Labels in use are below this (after update(), some below it may be unused: size 0).
  std::uint32_t labelCount() const noexcept { return std::uint32_t(m_sizes.size()); }
  /// Number of tiles in a region (0 for a label not in use).
  std::uint32_t regionSize(std::uint32_t region) const noexcept {
    return region < m_sizes.size() ? m_sizes[region] : 0;
  }
  MobilityId mobility() const noexcept { return m_mobility; }
  /// Bytes held (arrays' capacities).
  std::size_t memoryBytes() const noexcept {
    return sizeof(*this) + (m_labels.capacity() + m_sizes.capacity() + m_freeLabels.capacity()) * sizeof(std::uint32_t);
  }
  /// The map version this snapshot was computed from.
  std::uint64_t mapVersion() const noexcept { return m_mapVersion; }

 private:
  std::int32_t m_width = 0;
  std::int32_t m_height = 0;
  MobilityId m_mobility;
  std::uint64_t m_mapVersion = 0;
  std::vector<std::uint32_t> m_labels;
  std::vector<std::uint32_t> m_sizes;
  std::uint32_t m_regionCount = 0;
  std::vector<std::uint32_t> m_freeLabels;  // labels of size 0 below labelCount(), to reuse

  std::uint32_t& labelAt(const TileMap& map, Cell cell) { return m_labels[std::size_t(map.index(cell))]; }
  std::uint32_t newLabel();
  void dropLabel(std::uint32_t label);
  // After `closed` tiles of region `label` closed: finds its parts and labels all but one anew.
  void splitIfNeeded(const TileMap& map, std::uint32_t label, std::span<const Cell> closed);
  // Relabels every tile of region `from` (connected, holding `seed`) as `to`.
  void relabel(const TileMap& map, Cell seed, std::uint32_t from, std::uint32_t to);
};

}  // namespace rpgnav
