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
#include <span>
#include <utility>
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
  friend bool operator==(const ConvexCorner& a, const ConvexCorner& b) noexcept {
    return a.point == b.point && a.outward == b.outward && a.reach == b.reach;
  }
};

class ConvexCorners {
 public:
  /// Snapshot of `map` for `mobility` (stale after an edit: update() it, like SegmentTester).
  ConvexCorners(const TileMap& map, MobilityId mobility);

  /// Follows edits of the map in place, to equal an index built afresh: the tiles of the
  /// rectangles low..high changed terrain. The corners of the tiles from one above, left, right
  /// and below each rectangle are listed again (a tile's corners depend on its neighbours) and
  /// merged into their rows; the rest of the index stays.
  void update(const TileMap& map, std::span<const std::pair<Cell, Cell>> rects);

  /// Appends to `out` every corner that lies, or whose beside(clearance) point lies, inside the
  /// closed triangle a, b, c (within a rounding tolerance), and with `discs` (a wide body's, half a
  /// tile or more) every corner closer than the clearance to the triangle too (the body's disc
  /// round it crosses the triangle while both points lie outside). Work is proportional to the rows of the
  /// index the triangle covers plus the corners near it.
  void inTriangle(Vec2 a, Vec2 b, Vec2 c, float clearance, std::vector<ConvexCorner>& out, bool discs = false) const;

  /// The corner whose beside(clearance) point is `bend` (to within rounding), if any: tells a
  /// bend the path already makes round a corner from any other point.
  const ConvexCorner* cornerAt(Vec2 bend, float clearance) const;

  std::size_t size() const noexcept;
  /// Bytes held (the rows' capacities).
  std::size_t memoryBytes() const noexcept;
  /// Every corner, row by row of the blocked tiles they belong to, each row by x.
  std::vector<ConvexCorner> all() const;
  std::uint64_t mapVersion() const noexcept { return m_version; }

 private:
  // The corners of the blocked tiles of one tile row (-1 .. height: the ring outside the map
  // counts), sorted by x, and the world y range they lie in.
  struct Row {
    std::vector<ConvexCorner> corners;
    std::vector<std::int32_t> tiles;  // the x of the tile each corner belongs to
    float low = 0.0f, high = 0.0f;
  };
  // A corner and its tile's x, as listed.
  struct Listed {
    ConvexCorner corner;
    std::int32_t tile;
  };
  // The row's order: by x, then by tile (the order tiles are listed in), then as listed.
  static bool before(const Listed& a, const Listed& b) noexcept {
    return a.corner.point.x() < b.corner.point.x() || (a.corner.point.x() == b.corner.point.x() && a.tile < b.tile);
  }
  // Appends the corners of tiles x0..x1 of row y, in the row's order.
  void listTiles(const TileMap& map, std::int32_t y, std::int32_t x0, std::int32_t x1, std::vector<Listed>& out) const;
  void listRow(const TileMap& map, std::int32_t y, Row& row) const;
  // Lists tiles x0..x1 of a row again, keeping the others' corners.
  void relistTiles(const TileMap& map, std::int32_t y, std::int32_t x0, std::int32_t x1, Row& row) const;
  // The rows (indices into m_rows) whose y range meets [low, high].
  std::pair<std::size_t, std::size_t> rowsMeeting(double low, double high) const noexcept;

  MobilityId m_mobility;
  std::uint64_t m_version;
  float m_tileSize;
  std::vector<Row> m_rows;  // tile row y at index y + 1
};

}  // namespace rpgnav
