// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// Segment traversal and line of sight on square and hex maps.
///
/// The rule, for a character of zero radius: a segment may touch the boundary of a blocked tile
/// (run along its edge, graze its corner) but may not cross its interior, and may not squeeze
/// between blocked tiles — at no point of the segment may blocked tiles lie on both its sides.
/// So a segment along the edge between two blocked tiles is blocked, and so is one passing
/// through a vertex where two blocked squares touch only diagonally; one passing a corner with
/// blocked tiles on one side only is clear. Tiles outside the map count as blocked. The segment's
/// own end points are not checked for squeezing (a character standing in a corner may leave it).
///
/// Geometry is computed in double precision in layout space. Points within a tolerance of
/// 5·10⁻⁷ × max(1, |coordinate|) tiles of an edge or vertex count as on it, so segments built
/// from float coordinates of a vertex are treated as passing exactly through that vertex.

#include "rpgnav/core/export.hpp"
#include "rpgnav/core/types.hpp"
#include "rpgnav/grid/layout.hpp"
#include "rpgnav/grid/tile_map.hpp"

#include <vector>

namespace rpgnav {

/// A stretch of a segment through one tile's interior; enter/exit are segment parameters in [0,1].
struct TileCrossing {
  Cell cell;
  float enter = 0.0f;
  float exit = 0.0f;
  friend bool operator==(const TileCrossing&, const TileCrossing&) = default;
};

/// Appends to `out`, in order from `from` to `to`, every tile whose interior the segment crosses
/// (tiles it only touches are left out). A zero-length segment yields the tile containing it.
/// Non-finite input yields nothing. Tiles need not be inside any map; the work is proportional to
/// the number of tiles crossed, so keep segments to map scale.
RPGNAV_API void traverseSegment(const Layout& layout, Vec2 from, Vec2 to, std::vector<TileCrossing>& out);

/// Convenience form of traverseSegment returning only the cells.
RPGNAV_API std::vector<Cell> tilesCrossed(const Layout& layout, Vec2 from, Vec2 to);

/// True when a zero-radius character of `mobility` can move straight from `from` to `to` under
/// the rule above. False for non-finite points. Stops at the first blocking tile, so the cost is
/// bounded by the map size.
RPGNAV_API bool hasLineOfSight(const TileMap& map, MobilityId mobility, Vec2 from, Vec2 to);

/// What walking a segment costs a character, and whether it can.
struct SegmentProbe {
  /// The segment stays in tiles the mobility may enter and keeps `radius` from every blocked
  /// tile (with radius 0: the zero-radius rule above).
  bool clear = false;
  /// Weighted cost, valid when clear: Σ over tiles of (length inside the tile × its cost), in
  /// world units. Where the segment runs along an edge between two passable tiles, the dearer of
  /// the two counts (the character brushes both).
  double cost = 0.0;
  /// Length in world units.
  double length = 0.0;
  /// When not clear: the first blocked tile found in the way or too close (along the segment),
  /// if the segment got that far; hasBlocker is false for bad input.
  Cell blocker;
  bool hasBlocker = false;
};

/// Probes the segment for a character of `mobility` and `radius` (world units, 0 or more; the
/// pipeline uses up to 3 tiles). Non-finite input, or a negative or non-finite radius, gives
/// clear = false. A zero-length segment probes a standing position: its tile passable, blocked
/// tiles at least `radius` away.
/// Up to the reach of the tiles touching those the segment visits (1 tile on squares, 1/√3 on
/// hexes) those are all it looks at; a wider radius sweeps, row by row, every tile within the
/// radius of the segment (the map's edge a border of forbidden tiles). Wide bodies (half a tile
/// or more) keep the radius up to the float rounding of the points (5·10⁻⁷ tiles × the largest
/// of the coordinates in tiles from the map's corner and from the world's origin, and the
/// radius: the search fits them touching at exactly their radius, and tile centres come out
/// that much closer in float), and the answer does not depend on the segment's direction.
/// Stops at the first violation, so a blocked probe is cheap.
RPGNAV_API SegmentProbe probeSegment(const TileMap& map, MobilityId mobility, Vec2 from, Vec2 to, float radius);

}  // namespace rpgnav
