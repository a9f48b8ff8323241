// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// CostField: each tile's travel cost for one mobility, the ground a crowd field (CrowdField,
/// SectorFields) is built on.

#include "rpgnav/core/export.hpp"
#include "rpgnav/core/status.hpp"
#include "rpgnav/core/types.hpp"
#include "rpgnav/grid/layout.hpp"
#include "rpgnav/grid/terrain_table.hpp"

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace rpgnav {

class TileMap;
/// How wide a body fits on each tile, for one mobility (NavData::clearance gives it).
class Clearance;

/// Each tile's travel cost for one mobility (TerrainTable::kImpassable where it cannot go), with a
/// byte view of it for pictures and quick tests. Thread-safety: read from any number of threads
/// at once; edits must not overlap with reads.
class RPGNAV_API CostField {
 public:
  static constexpr std::uint8_t kImpassable = 255;
  /// The byte for a terrain cost: kImpassable for impassable, else the cost rounded, 1 to 254.
  static std::uint8_t byteFor(float cost) noexcept;

  /// InvalidArgument for a mobility the map's terrain table does not know.
  static Result<CostField> build(const TileMap& map, MobilityId mobility);
  /// A size class: the field for bodies `bodyTiles` tiles in radius (0-3). Tiles the
  /// body does not fit on (Clearance::fits; `clearance` is the map's for `mobility`) are
  /// impassable, and a CrowdField built on it steps between two tiles only where the tiles beside
  /// the step fit too (square diagonals, as always; hex steps: the two tiles next to both ends),
  /// as the search does for such a body. A body pays the terrain under its centre.
  /// InvalidArgument for an unknown mobility, a clearance of another map or mobility, or a radius
  /// out of [0, 3].
  static Result<CostField> build(const TileMap& map, MobilityId mobility, const Clearance& clearance, double bodyTiles);
  /// A field over costs of the caller's own (row-major, width × height, each finite and above 0
  /// or TerrainTable::kImpassable), on `layout`, for `mobility` (a label: nothing is looked up).
  /// InvalidArgument for a size out of [1, kMaxMapSide] or above kMaxMapTiles, another number of
  /// costs, or another cost.
  static Result<CostField> fromCosts(const Layout& layout, std::int32_t width, std::int32_t height,
                                     std::span<const float> costs, MobilityId mobility = {});
  /// The body's radius in tiles (0: a point, build() without a clearance).
  double bodyTiles() const noexcept { return m_bodyTiles; }

  std::int32_t width() const noexcept { return m_width; }
  std::int32_t height() const noexcept { return m_height; }
  const Layout& layout() const noexcept { return m_layout; }
  MobilityId mobility() const noexcept { return m_mobility; }
  bool contains(Cell cell) const noexcept {
    return cell.x >= 0 && cell.y >= 0 && cell.x < m_width && cell.y < m_height;
  }
  /// A tile's travel cost (TerrainTable::kImpassable where it cannot go, and outside the map).
  float cost(Cell cell) const noexcept {
    return contains(cell) ? m_costs[std::size_t(cell.y) * std::size_t(m_width) + std::size_t(cell.x)] : TerrainTable::kImpassable;
  }
  /// The tile's cost as a byte (byteFor): kImpassable where it cannot go and outside the map.
  std::uint8_t at(Cell cell) const noexcept { return byteFor(cost(cell)); }
  /// The tiles origin .. origin + (width, height) - 1 of this field (impassable where they lie
  /// outside it), as a field of their own with the same layout.
  CostField crop(Cell origin, std::int32_t width, std::int32_t height) const;
  /// Reads the map's tiles again (after edits); appends the tiles whose cost changed.
  /// InvalidArgument when the map's size or layout is not this field's, or for a body's field
  /// (it reads the clearance too: the overload below).
  Status refresh(const TileMap& map, std::vector<Cell>& changed);
  /// A body's field after edits, from the map and its clearance brought up to date (by
  /// NavData::update). InvalidArgument as above, or for a point's field.
  Status refresh(const TileMap& map, const Clearance& clearance, std::vector<Cell>& changed);
  /// The same for the tiles of the rectangles low..high only (the tiles an edit named), or for
  /// every tile when `all` (a terrain's cost changed).
  Status refresh(const TileMap& map, std::span<const std::pair<Cell, Cell>> rects, bool all, std::vector<Cell>& changed);
  /// Bytes held.
  std::size_t memoryBytes() const noexcept { return sizeof(*this) + m_costs.capacity() * sizeof(float); }
  /// Sets one tile's cost from a byte (a barricade the game puts up): 1-254 costs that much,
  /// kImpassable walls it up. InvalidArgument off the map or for 0.
  Status set(Cell cell, std::uint8_t cost);
  /// Sets one tile's cost: finite and above 0 (as TerrainTable::setCost), or
  /// TerrainTable::kImpassable. InvalidArgument off the map or for another value.
  Status setCost(Cell cell, float cost);

 private:
  // The cost of tile `index` of `map` (a body's: impassable where it does not fit).
  float costOf(const TileMap& map, const Clearance* clearance, std::int32_t index) const noexcept;
  Layout m_layout;
  MobilityId m_mobility;
  std::int32_t m_width = 0;
  std::int32_t m_height = 0;
  double m_bodyTiles = 0.0;
  std::vector<float> m_costs;
};

}  // namespace rpgnav
