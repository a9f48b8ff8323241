// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// TileMap: the terrain of every tile of a square or hex map, plus its layout and terrain table.

#include "rpgnav/core/export.hpp"
#include "rpgnav/core/limits.hpp"
#include "rpgnav/core/assert.hpp"
#include "rpgnav/core/status.hpp"
#include "rpgnav/core/types.hpp"
#include "rpgnav/grid/layout.hpp"
#include "rpgnav/grid/terrain_table.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace rpgnav {

/// One entry of a map's edit journal: the tiles low..high (inclusive) were given new terrain, or,
/// for a cost edit, terrain `terrain`'s cost changed for some mobility (every tile of it).
struct TileEdit {
  std::uint64_t version = 0;  ///< The map's version after the edit.
  Cell low;
  Cell high;
  bool costEdit = false;
  TerrainId terrain{0};  ///< The terrain the tiles were given; for a cost edit, the terrain whose cost changed.
};

/// A rectangular block of tiles (width × height, row-major) with a terrain per tile.
///
/// Thread-safety: any number of threads may read a TileMap at once (queries only read it);
/// edits (setTerrain, setTerrainCost) must not overlap with reads. Every edit bumps version(), so
/// caches built from the map (region labels, search data, fields) can tell they are stale.
class RPGNAV_API TileMap {
 public:
  /// A map filled with `fill`. Fails with LimitExceeded when a side exceeds kMaxMapSide or the area
  /// kMaxMapTiles (core/limits.hpp); with InvalidArgument when a side is below 1, the tile size or origin is not finite
  /// and positive, or `fill` is not in `terrain`.
  static Result<TileMap> create(const Layout& layout, std::int32_t width, std::int32_t height,
                                TerrainTable terrain, TerrainId fill);
  /// A map with the given tiles (row-major, width × height of them). Same checks as above, plus
  /// every tile must name a terrain of `terrain`. The new map has version 0.
  static Result<TileMap> create(const Layout& layout, std::int32_t width, std::int32_t height,
                                TerrainTable terrain, std::vector<TerrainId> tiles);

  const Layout& layout() const noexcept { return m_layout; }
  std::int32_t width() const noexcept { return m_width; }
  std::int32_t height() const noexcept { return m_height; }
  std::int32_t tileCount() const noexcept { return m_width * m_height; }
  const TerrainTable& terrain() const noexcept { return m_terrain; }

  /// The box round every tile's polygon, in world units (on hex maps, near the box's rim some
  /// points lie outside every tile).
  struct WorldBox {
    Vec2 min;
    Vec2 max;
  };
  WorldBox worldBox() const noexcept;

  bool contains(Cell cell) const noexcept {
    return cell.x >= 0 && cell.y >= 0 && cell.x < m_width && cell.y < m_height;
  }
  /// Row-major index of a tile inside the map (asserted).
  std::int32_t index(Cell cell) const noexcept {
    RPGNAV_ASSERT(contains(cell), "cell outside the map");
    return cell.y * m_width + cell.x;
  }
  Cell cellAt(std::int32_t index) const noexcept { return {index % m_width, index / m_width}; }

  /// Terrain of a tile inside the map (asserted).
  TerrainId terrainAt(Cell cell) const noexcept { return m_tiles[std::size_t(index(cell))]; }
  std::span<const TerrainId> tiles() const noexcept { return m_tiles; }

  /// Travel cost of a tile for a mobility; TerrainTable::kImpassable outside the map.
  float cost(Cell cell, MobilityId mobility) const noexcept {
    return contains(cell) ? m_terrain.cost(m_tiles[std::size_t(cell.y * m_width + cell.x)], mobility)
                          : TerrainTable::kImpassable;
  }
  /// True when the tile is inside the map and `mobility` may enter it.
  bool passable(Cell cell, MobilityId mobility) const noexcept {
    return cost(cell, mobility) != TerrainTable::kImpassable;
  }
  /// True when a character of `mobility` standing on `from` may take `step`: the target is
  /// passable and, for a square diagonal, so are both orthogonal tiles (no corner cutting).
  bool canStep(Cell from, const NeighbourStep& step, MobilityId mobility) const noexcept;

  /// The tile containing a world point, if the point is finite and inside the map.
  std::optional<Cell> tileAt(Vec2 world) const noexcept;

  /// Changes one tile's terrain. OutOfBounds or InvalidArgument (unknown terrain) otherwise.
  Status setTerrain(Cell cell, TerrainId terrain);
  /// Changes every tile of the rectangle low..high (inclusive; a building, a burnt bridge) in one
  /// edit. OutOfBounds when a corner lies off the map, InvalidArgument for an unknown terrain or
  /// low above or left of high.
  Status setTerrain(Cell low, Cell high, TerrainId terrain);
  /// Changes the listed tiles in one edit (each to `terrain`); checked as a whole first, so either
  /// all change or none.
  Status setTerrain(std::span<const Cell> cells, TerrainId terrain);
  /// Changes a terrain's cost for a mobility (kImpassable forbids it). Bumps the version.
  Status setTerrainCost(TerrainId terrain, MobilityId mobility, float cost);

  /// Incremented by every successful edit.
  std::uint64_t version() const noexcept { return m_version; }

  /// The journal keeps this many recent edits (a rectangle or a list counts once per rectangle,
  /// once per tile listed): what data built from the map reads to follow it in place.
  static constexpr std::size_t kJournalLimit = std::size_t(1) << 16;
  /// Appends to `out` the edits made after `version`, oldest first. False when the journal no
  /// longer reaches back that far (more than kJournalLimit edits since): rebuild from scratch then.
  bool editsSince(std::uint64_t version, std::vector<TileEdit>& out) const;

  /// Same layout, size, terrain table and tiles (the version is not compared).
  friend bool operator==(const TileMap& a, const TileMap& b) {
    return a.m_layout == b.m_layout && a.m_width == b.m_width && a.m_height == b.m_height &&
           a.m_terrain == b.m_terrain && a.m_tiles == b.m_tiles;
  }

 private:
  TileMap() = default;

  Layout m_layout;
  std::int32_t m_width = 0;
  std::int32_t m_height = 0;
  TerrainTable m_terrain;
  std::vector<TerrainId> m_tiles;
  std::uint64_t m_version = 0;
  // The last kJournalLimit edits, a ring: m_journal[(m_journalStart + i) % kJournalLimit] for i
  // below its size; versions increase along it.
  std::vector<TileEdit> m_journal;
  std::size_t m_journalStart = 0;
  std::uint64_t m_forgotten = 0;  // the newest version whose entries may have been overwritten
  void journal(const TileEdit& edit);
};

}  // namespace rpgnav
