// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// NavLayer: NavData's data for one mobility and size class.

#include "grid/clearance.hpp"
#include "grid/convex_corners.hpp"
#include "grid/segment_tester.hpp"
#include "rpgnav/nav/nav_data.hpp"
#include "search/search_grid.hpp"

namespace rpgnav {

/// The data for one mobility and size class: the search grid (cost classes, jump tables, region
/// labels, door gates, landmarks), the line bitmaps (SegmentTester) and the convex corners.
class NavLayer {
 public:
  /// The map the layer was built on: the world's, or for terrain cost overrides (see
  /// NavData::prepare) the data's copy of it whose terrain table has those costs. Every cost and
  /// passability question of a query on this layer goes to this map.
  const TileMap& map() const noexcept { return *m_map; }
  MobilityId mobility() const noexcept { return m_grid.mobility(); }
  SizeClass sizeClass() const noexcept { return m_size; }
  const SearchGrid& grid() const noexcept { return m_grid; }
  const SegmentTester& lines() const noexcept { return m_lines; }
  const ConvexCorners& corners() const noexcept { return m_corners; }
  /// Bytes the layer holds (its arrays' capacities; the index rows' headers included).
  std::size_t memoryBytes() const noexcept;

  /// (Built and kept up to date by NavData, which alone holds a layer it may change.)
  /// After tile edits on `map`: the tiles of `rects` (`pairs`: the same as corner pairs) changed
  /// terrain, or with `costsChanged` a terrain its cost, so that every tile is looked at again.
  std::optional<Error> patchTiles(const TileMap& map, std::span<const TileRect> rects,
                                  std::span<const std::pair<Cell, Cell>> pairs, bool costsChanged);
  /// After doors were added or taken away: the grid's gates, one per door.
  std::optional<Error> setGates(const TileMap& map, std::span<const SearchGate> gates) {
    return m_grid.setGates(map, gates);
  }
  /// SearchGrid::refreshLandmarks; returns the sweeps made.
  int refreshLandmarks(int sweeps) { return m_grid.refreshLandmarks(sweeps); }
  NavLayer(const TileMap& map, SearchGrid grid, SegmentTester lines, ConvexCorners corners, SizeClass size)
      : m_map(&map), m_grid(std::move(grid)), m_lines(std::move(lines)), m_corners(std::move(corners)), m_size(size) {}

 private:
  const TileMap* m_map;
  SearchGrid m_grid;
  SegmentTester m_lines;
  ConvexCorners m_corners;
  SizeClass m_size;
};

}  // namespace rpgnav
