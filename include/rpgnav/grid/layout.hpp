// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// Layout: the geometry of a tile grid as data. Square and hex maps differ only in the numbers a
/// Layout holds (tile centres, tile polygons, neighbour tables); every algorithm above works on
/// both through this one type.

#include "rpgnav/core/export.hpp"
#include "rpgnav/core/types.hpp"

#include <Eigen/Core>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string_view>

namespace rpgnav {

enum class LayoutKind : std::uint8_t {
  Square,     ///< Square tiles; 8 or 4 movement neighbours.
  HexPointy,  ///< Pointy-top hexagons in offset rows, every other row shifted half a tile right.
  HexFlat,    ///< Flat-top hexagons in offset columns, every other column shifted half a tile down.
};

/// Which rows (pointy hexes) or columns (flat hexes) sit half a tile further along: the odd ones
/// ("odd-r"/"odd-q", the default) or the even ones ("even-r"/"even-q", Tiled's Stagger Index
/// Even). Square layouts ignore it.
enum class HexStagger : std::uint8_t { Odd, Even };

/// One entry of a neighbour table: the offset to a neighbouring tile and what a step there means.
struct NeighbourStep {
  std::int8_t dx = 0;
  std::int8_t dy = 0;
  /// Distance between the two tile centres, in tiles: 1, or √2 for square diagonals.
  float length = 1.0f;
  /// For square diagonals: indices, in the same table, of the two orthogonal steps whose tiles
  /// must both be passable (no corner cutting). -1 when the step has no such condition.
  std::int8_t requiresA = -1;
  std::int8_t requiresB = -1;
  /// True when the two tiles share an edge (doors sit on such edges); false for square diagonals.
  bool sharesEdge = true;
};

/// Axial hex coordinates (q, r); the third cube coordinate is s = -q - r.
struct Axial {
  std::int32_t q = 0;
  std::int32_t r = 0;
  friend constexpr bool operator==(Axial, Axial) = default;
};

/// The corners of a tile in world units, clockwise on screen (y down). 4 for squares, 6 for hexes.
struct TilePolygon {
  std::array<Vec2, 6> corners{};
  int count = 0;
};

/// Hexagons with neighbouring centres 1 apart (layout space): the circumradius, centre to point
/// (1/√3), and the pitch, the distance between two rows' (pointy) or columns' (flat) centre
/// lines (√3/2).
inline constexpr double kHexCircumradius = 0.57735026918962584;
inline constexpr double kHexPitch = 0.86602540378443865;

/// Tile geometry and adjacency. A value type: cheap to copy, immutable once made.
///
/// Layout space is world space with the map's top-left corner at (0,0) and one unit per tile
/// step: square tile (x, y) covers [x, x+1) × [y, y+1); hex tiles are regular hexagons whose
/// neighbouring centres are exactly 1 apart, and the bounding box of the unshifted rows (pointy)
/// or columns (flat) touches (0,0).
/// World = origin + tileSize × layout space.
///
/// Border rule (tileAt): a point belongs to the tile with the nearest centre (tiles are the
/// Voronoi cells of their centres, for squares and hexes alike); on an exact tie it goes to the
/// tile with the larger row, then the larger column. For squares this is the half-open rule
/// above: x = 3.0 lies in column 3, not 2.
class RPGNAV_API Layout {
 public:
  /// Square tiles. connectivity is 8 (diagonal steps of length √2, no corner cutting) or 4.
  static Layout square(float tileSize = 1.0f, int connectivity = 8, Vec2 origin = Vec2(0.0f, 0.0f));
  static Layout hexPointy(float tileSize = 1.0f, Vec2 origin = Vec2(0.0f, 0.0f), HexStagger stagger = HexStagger::Odd);
  static Layout hexFlat(float tileSize = 1.0f, Vec2 origin = Vec2(0.0f, 0.0f), HexStagger stagger = HexStagger::Odd);

  /// Default: square, 8-connected, tile size 1, origin (0,0).
  Layout() : Layout(square()) {}

  LayoutKind kind() const noexcept { return m_kind; }
  bool isHex() const noexcept { return m_kind != LayoutKind::Square; }
  /// Which hex rows or columns are shifted (Odd on square layouts).
  HexStagger hexStagger() const noexcept { return m_evenShifted ? HexStagger::Even : HexStagger::Odd; }
  /// World units per tile step (square side; hex centre-to-centre distance).
  float tileSize() const noexcept { return m_tileSize; }
  /// World position of layout-space (0,0), the map's top-left corner.
  Vec2 origin() const noexcept { return m_origin; }
  /// Movement neighbours per tile: 8 or 4 for squares, 6 for hexes.
  int connectivity() const noexcept { return m_connectivity; }

  /// Movement steps from `cell`, in a fixed order (hex tables depend on the row/column parity).
  std::span<const NeighbourStep> moves(Cell cell) const noexcept;
  /// Every tile touching `cell` (edge or corner), whatever the connectivity: 8 for squares, 6 for
  /// hexes. Geometry (line of sight, point location) uses this table.
  std::span<const NeighbourStep> touching(Cell cell) const noexcept;

  /// Tile centre in world units.
  Vec2 tileCenter(Cell cell) const noexcept;
  /// Tile corners in world units.
  TilePolygon tilePolygon(Cell cell) const noexcept;
  /// The tile containing a world point (see the border rule above). May lie outside any map.
  /// NaN or infinite input is a caller bug; check with std::isfinite first (TileMap does).
  /// (Square tiles: inline, the arithmetic of toLocal() and a floor; crowds look up a tile per
  /// character per frame.)
  Cell tileAt(Vec2 world) const noexcept {
    if (m_kind != LayoutKind::Square) return hexTileAt(world);
    return {floorToIndex((double(world.x()) - double(m_origin.x())) / double(m_tileSize)),
            floorToIndex((double(world.y()) - double(m_origin.y())) / double(m_tileSize))};
  }
  /// floor(v) as a tile index, saturated (and NaN to the lowest) so that points far off any map
  /// stay off it instead of overflowing.
  static std::int32_t floorToIndex(double v) noexcept {
    const double f = std::floor(v);
    if (!(f >= -2147483648.0)) return std::numeric_limits<std::int32_t>::min();
    return f >= 2147483647.0 ? std::numeric_limits<std::int32_t>::max() : std::int32_t(f);
  }

  /// Layout-space conversions, in double precision (used by geometry code).
  Eigen::Vector2d toLocal(Vec2 world) const noexcept;
  Vec2 toWorld(const Eigen::Vector2d& local) const noexcept;
  Eigen::Vector2d localCenter(Cell cell) const noexcept {
    // (Inline: hex point location and probes ask for centres in their inner loops.)
    switch (m_kind) {
      case LayoutKind::Square: return {cell.x + 0.5, cell.y + 0.5};
      case LayoutKind::HexPointy: return {cell.x + 0.5 + 0.5 * shifted(cell.y), kHexCircumradius + cell.y * kHexPitch};
      case LayoutKind::HexFlat: return {kHexCircumradius + cell.x * kHexPitch, cell.y + 0.5 + 0.5 * shifted(cell.x)};
    }
    return {0, 0};
  }
  /// Corners in layout space; returns the corner count.
  int localCorners(Cell cell, std::array<Eigen::Vector2d, 6>& out) const noexcept;
  Cell tileAtLocal(const Eigen::Vector2d& local) const noexcept;
  /// The edge two tiles share (world units, its two corners), when they share one: the place a
  /// door sits. Nothing for tiles that only touch at a corner or do not touch.
  std::optional<std::array<Vec2, 2>> sharedEdge(Cell a, Cell b) const noexcept;
  /// The same edge in layout space, exact (no rounding to world floats).
  std::optional<std::array<Eigen::Vector2d, 2>> localSharedEdge(Cell a, Cell b) const noexcept;
  /// Where the segment from `from` to `to` (layout space) leaves tile `cell`, if it crosses the
  /// tile's inside and leaves before reaching `to`.
  std::optional<Eigen::Vector2d> segmentExit(Cell cell, const Eigen::Vector2d& from,
                                             const Eigen::Vector2d& to) const noexcept;

  /// Hex axial coordinates of an offset cell and back (square maps: q = x, r = y).
  Axial toAxial(Cell cell) const noexcept {
    // (Inline: hex searches convert a tile per jump point.)
    switch (m_kind) {
      case LayoutKind::Square: return {cell.x, cell.y};
      case LayoutKind::HexPointy: return {cell.x - alongShift(cell.y, m_evenShifted), cell.y};
      case LayoutKind::HexFlat: return {cell.x, cell.y - alongShift(cell.x, m_evenShifted)};
    }
    return {};
  }
  Cell fromAxial(Axial axial) const noexcept;
  /// Steps between two tiles ignoring obstacles: hex distance, Chebyshev (8-way) or Manhattan
  /// (4-way) on squares.
  std::int32_t stepDistance(Cell a, Cell b) const noexcept;

  /// The families of parallel lines that carry every tile edge: a tile edge lies on a line
  /// {p : normal·p = offset + k·spacing} for some family and integer k. 2 families for squares,
  /// 3 for hexes. Line-of-sight traversal walks these lines.
  struct EdgeLineFamily {
    Eigen::Vector2d normal;
    double offset;
    double spacing;
  };
  std::span<const EdgeLineFamily> edgeLineFamilies() const noexcept {
    return {m_families.data(), std::size_t(m_familyCount)};
  }

  friend bool operator==(const Layout& a, const Layout& b) noexcept {
    return a.m_kind == b.m_kind && a.m_tileSize == b.m_tileSize && a.m_origin == b.m_origin &&
           a.m_connectivity == b.m_connectivity && a.m_evenShifted == b.m_evenShifted;
  }

 private:
  Cell hexTileAt(Vec2 world) const noexcept;
  Layout(LayoutKind kind, float tileSize, int connectivity, Vec2 origin, HexStagger stagger = HexStagger::Odd);
  /// 1 when the hex row (pointy) or column (flat) with this index is shifted half a tile.
  int shifted(std::int32_t index) const noexcept { return (index & 1) ^ m_evenShifted; }  // & 1: right for negatives too
  // Axial q (pointy) or r (flat) drifts half a step per offset row (or column): how far, in
  // whole steps, tile 0 of row i sits from axial 0, so that tile (0,0) is axial (0,0) for either
  // stagger. (i - (i & 1)) / 2 is floor(i / 2), negatives included.
  static constexpr std::int32_t alongShift(std::int32_t i, int evenShifted) noexcept {
    return (i - (i & 1)) / 2 + (i & 1) * evenShifted;
  }

  LayoutKind m_kind = LayoutKind::Square;
  int m_evenShifted = 0;
  float m_tileSize = 1.0f;
  int m_connectivity = 8;
  Vec2 m_origin = Vec2(0.0f, 0.0f);
  std::array<EdgeLineFamily, 3> m_families{};
  int m_familyCount = 0;
};

/// Half the edge of a hex tile, in tiles (1/(2√3)): the room either side of the middle of a hex
/// edge. Characters at least this wide need the edge's far end clear to pass.
inline constexpr float kHexHalfEdge = 0.28867513f;

/// True on hex layouts for a character whose radius (world units) is at least half a hex edge:
/// it cannot pass a gap one edge wide, nor always between two neighbours' centres.
inline bool widerThanHalfHexEdge(const Layout& layout, float radius) noexcept {
  // In tiles, the way SearchGridSettings::clearance compares, so every caller agrees at the edge.
  return layout.isHex() && radius / layout.tileSize() >= kHexHalfEdge;
}

/// True for a character whose radius (world units) is at least half a tile: its body reaches
/// over the tiles round the one it stands on, so where it fits is the mobility's clearance (how
/// wide a body fits on each tile), which navigation data keeps for such characters only.
inline bool widerThanHalfTile(const Layout& layout, float radius) noexcept {
  // Written as every caller compared before this helper, so all agree at the edge.
  return radius >= 0.5f * layout.tileSize();
}

/// Short name used by the file formats and the tool: "square", "hex-pointy", "hex-flat".
RPGNAV_API std::string_view toString(LayoutKind kind) noexcept;

}  // namespace rpgnav
