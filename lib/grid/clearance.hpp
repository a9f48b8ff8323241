// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// Clearance: how far each tile's centre lies from the nearest tile a mobility cannot enter (or
/// the map's edge) — one byte per tile, exact, for characters wider than a tile.

#include "rpgnav/grid/tile_map.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace rpgnav {

/// The clearance of every tile for one mobility: the exact Euclidean distance from the tile's
/// centre to the nearest tile the mobility cannot enter or to the map's edge (the tiles beyond
/// it count as such), in tiles, up to kFarTiles.
///
/// Stored as an exact integer code, one byte per tile (and a one-tile border, as the search
/// grid has: 1.01 bytes a tile on a 481×530 map): scale × d², where scale is 4 on square
/// maps and 12 on hex maps — the squared distance from a tile's centre to another tile is a
/// multiple of 1/4 (squares) or 1/12 (hexes), so the code loses nothing. Clearances of
/// kFarTiles or more read kFar. A tile the mobility cannot enter has clearance 0.
///
/// A body of radius r (tiles) centred on a tile fits there when r ≤ d (it may touch a forbidden
/// tile's boundary, never enter it): `fits` compares codes with scale × r², exactly.
///
/// Thread-safety: reads from any number of threads; `update` must not overlap with reads.
class Clearance {
 public:
  /// Distances of this many tiles or more are stored as kFar: enough for radii up to 3 tiles
  /// plus the most a segment's piece inside a tile lies from its centre (0.71 tiles).
  static constexpr int kFarTiles = 4;
  static constexpr std::uint8_t kFar = 255;

  /// Builds the clearance of every tile of `map` for `mobility`.
  static Clearance build(const TileMap& map, MobilityId mobility);
  /// Brings the clearance up to date after the tiles low..high (inclusive, clamped to the map)
  /// changed terrain or cost: looks again at every tile within kFarTiles of them, no more.
  void update(const TileMap& map, Cell low, Cell high);

  std::int32_t width() const noexcept { return m_width; }
  std::int32_t height() const noexcept { return m_height; }
  MobilityId mobility() const noexcept { return m_mobility; }
  /// 4 on square maps, 12 on hex maps: code = scale × d².
  std::int32_t scale() const noexcept { return m_scale; }
  /// The tile's code (kFar beyond kFarTiles); 0 off the map. O(1).
  std::uint8_t code(Cell cell) const noexcept {
    return contains(cell) ? m_codes[padded(cell)] : 0;
  }
  /// The tile's clearance in tiles (kFarTiles when it is at least that).
  double tiles(Cell cell) const noexcept;
  /// The least code a tile needs for a body of radius `radiusTiles` to fit on its centre (may
  /// exceed kFar: then no tile fits). NaN and negative radii need nothing beyond an enterable tile.
  std::int64_t codeFor(double radiusTiles) const noexcept;
  /// True when a body of radius `radiusTiles` centred on the tile keeps out of every tile the
  /// mobility cannot enter and stays inside the map.
  bool fits(Cell cell, double radiusTiles) const noexcept { return code(cell) >= codeFor(radiusTiles); }
  /// The search's step rule for a body of radius `radiusTiles` (SearchRequest::clearance): the
  /// step layout.moves(from)[move] is open when the body fits on both its tiles and on the tiles
  /// its swept body passes between: a square diagonal's two side tiles, a hex step's two tiles
  /// next to both ends. For tools and tests that label what such a body can reach.
  bool stepFits(const Layout& layout, Cell from, std::size_t move, double radiusTiles) const noexcept;
  /// The codes with a border of 0 round the map, row-major, width + 2 per row: the search's
  /// padded layout (SearchGrid::padded), so a tile's code is read at its search index.
  const std::uint8_t* paddedCodes() const noexcept { return m_codes.data(); }
  /// Bytes held (one per tile, and the border).
  std::size_t memoryBytes() const noexcept { return m_codes.capacity(); }

  /// The code of the distance from a tile's centre to another tile `offset` steps away (offset
  /// coordinates from a tile of the given parity: x % 2 + 2 × (y % 2)), for tests and tools:
  /// computed from the layout's geometry.
  static std::int64_t offsetCode(const Layout& layout, int parity, Cell offset);

 private:
  bool contains(Cell cell) const noexcept { return cell.x >= 0 && cell.y >= 0 && cell.x < m_width && cell.y < m_height; }
  // Looks again at the tiles low..high (inclusive, inside the map).
  void measure(const TileMap& map, MobilityId mobility, Cell low, Cell high);

  // A tile `offset` away and its code; per parity, in increasing code order up to kFar.
  struct Probe {
    Cell offset;
    std::uint8_t code;
  };
  std::int32_t m_width = 0, m_height = 0, m_scale = 4;
  MobilityId m_mobility{};
  std::int32_t m_reach = 0;  // the largest |dx| or |dy| of any probe
  std::array<std::vector<Probe>, 4> m_probes;
  std::size_t padded(Cell cell) const noexcept {
    return std::size_t(cell.y + 1) * std::size_t(m_width + 2) + std::size_t(cell.x + 1);
  }
  std::vector<std::uint8_t> m_codes;  // padded: see paddedCodes()
};

}  // namespace rpgnav
