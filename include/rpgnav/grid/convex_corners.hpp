// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// ConvexCorners: the corners a taut path can bend round, for one map and mobility.
///
/// A shortest path among blocked tiles bends only at convex corners of the blocked area: tile
/// corners where the blocked tile's two edge neighbours at that corner are both passable. This
/// index lists them (with the direction pointing away from the blocked tile) and finds those
/// inside a triangle quickly, so a path can be pulled tight round them (see corner routing).
/// Tiles outside the map count as blocked, so the map border's corners are listed too.

#include "rpgnav/core/types.hpp"
#include "rpgnav/grid/tile_map.hpp"

#include <cstdint>
#include <vector>

namespace rpgnav {

/// One convex corner of the blocked area.
struct ConvexCorner {
  Vec2 point;    ///< World position of the tile corner.
  Vec2 outward;  ///< Unit vector away from the blocked tile, along the corner's bisector.
  /// Distance along `outward` per unit of clearance: a point at point + outward × reach × d lies
  /// d from both blocked edges meeting at the corner (√2 on squares, 2/√3 on hexes).
  float reach;
  /// The point a path of the given clearance (world units) bends at to round this corner.
  Vec2 beside(float clearance) const noexcept { return point + outward * (reach * clearance); }
};

class ConvexCorners {
 public:
  /// Snapshot of `map` for `mobility` (stale after an edit, like SegmentTester).
  ConvexCorners(const TileMap& map, MobilityId mobility);

  /// Appends to `out` every corner that lies, or whose beside(clearance) point lies, inside the
  /// closed triangle a, b, c (within a rounding tolerance). Work is proportional to the rows of the
  /// index the triangle covers plus the corners near it.
  void inTriangle(Vec2 a, Vec2 b, Vec2 c, float clearance, std::vector<ConvexCorner>& out) const;

  /// The corner whose beside(clearance) point is `bend` (to within rounding), if any: tells a
  /// bend the path already makes round a corner from any other point.
  const ConvexCorner* cornerAt(Vec2 bend, float clearance) const;

  std::size_t size() const noexcept { return m_corners.size(); }
  const std::vector<ConvexCorner>& all() const noexcept { return m_corners; }
  std::uint64_t mapVersion() const noexcept { return m_version; }

 private:
  std::uint64_t m_version;
  float m_bucket;  // height of one index row, world units (one tile)
  float m_top;     // world y of the first row
  std::vector<ConvexCorner> m_corners;   // sorted by row, then x
  std::vector<std::uint32_t> m_rowStart;  // corners of row r: [m_rowStart[r], m_rowStart[r+1])
};

}  // namespace rpgnav
