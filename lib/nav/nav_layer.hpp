// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// NavLayer: NavData's data for one mobility and size class.

#include "grid/clearance.hpp"
#include "grid/convex_corners.hpp"
#include "grid/segment_tester.hpp"
#include "rpgnav/field/crowd_field.hpp"
#include "rpgnav/nav/nav_data.hpp"
#include "search/search_grid.hpp"

namespace rpgnav {

/// The data for one mobility and size class: the search grid (cost classes, jump tables, region
/// labels, door gates, landmarks), the line bitmaps (SegmentTester), the convex corners, and the
/// cost bytes crowd fields are built from.
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
  /// The cost bytes for crowd fields (CrowdField and SectorFields copy them).
  const CostField& costs() const noexcept { return m_costs; }
  /// Bytes the layer holds (its arrays' capacities; the index rows' headers included).
  std::size_t memoryBytes() const noexcept;

 private:
  friend class NavData;
  NavLayer(const TileMap& map, SearchGrid grid, SegmentTester lines, ConvexCorners corners, CostField costs,
           SizeClass size)
      : m_map(&map), m_grid(std::move(grid)), m_lines(std::move(lines)), m_corners(std::move(corners)),
        m_costs(std::move(costs)), m_size(size) {}
  const TileMap* m_map;
  SearchGrid m_grid;
  SegmentTester m_lines;
  ConvexCorners m_corners;
  CostField m_costs;
  SizeClass m_size;
};

}  // namespace rpgnav
