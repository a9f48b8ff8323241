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
#include <memory>
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

  /// No tiles (every regionOf() is kNoRegion).
  RegionMap();
  RegionMap(const RegionMap& other);
  RegionMap& operator=(const RegionMap& other);
  RegionMap(RegionMap&&) noexcept;
  RegionMap& operator=(RegionMap&&) noexcept;
  ~RegionMap();

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
  std::uint32_t regionOf(Cell cell) const noexcept;
  /// True when both tiles are passable and in the same region.
  bool connected(Cell a, Cell b) const noexcept;
  /// How many regions there are.
  std::uint32_t regionCount() const noexcept;
  /// Labels in use are below this (after update(), some below it may be unused: size 0).
  std::uint32_t labelCount() const noexcept;
  /// Number of tiles in a region (0 for a label not in use).
  std::uint32_t regionSize(std::uint32_t region) const noexcept;
  MobilityId mobility() const noexcept;
  /// Bytes held (arrays' capacities).
  std::size_t memoryBytes() const noexcept;
  /// The map version this snapshot was computed from.
  std::uint64_t mapVersion() const noexcept;

 private:
  // The labels and region sizes (lib/grid/regions.cpp).
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace rpgnav
