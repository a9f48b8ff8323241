// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// DangerMap: how dangerous each tile is (0-255), from named layers and stamps, and the one cost
/// model that turns danger into travel cost for characters and crowd fields alike.

#include "rpgnav/core/export.hpp"
#include "rpgnav/core/limits.hpp"
#include "rpgnav/core/status.hpp"
#include "rpgnav/core/types.hpp"
#include "rpgnav/grid/layout.hpp"

#include <cstdint>
#include <string>
#include <span>
#include <utility>
#include <vector>

namespace rpgnav {

class TileMap;

/// Danger per tile: up to kMaxDangerLayers layers of one value 0-255 per tile (a wolves' forest, a
/// pickpockets' market) plus stamps (a disc round a point: a turret's range, a fire, a queue at a
/// bridge), added up and clamped to 255.
///
/// The cost model (weightedCost): with a danger factor f (0-255), a tile of travel cost c and
/// danger d costs c + f·d / (256 − f), capped at kMaxSearchCost. Characters' plans and crowd
/// fields both weigh tiles with it and price steps alike (grid/step_cost.hpp), so a character and
/// a horde of the same factor agree about every route's cost. Factor 0 is the terrain cost itself,
/// bit for bit.
///
/// Every edit bumps version() and is journalled (the rectangle of tiles it touched), so data built
/// from the danger (NavData's layers for a danger factor) follows it in place.
/// Thread-safety: const members may be called concurrently; edits must not overlap with reads.
class RPGNAV_API DangerMap {
 public:
  /// A disc of danger round a point. Every tile whose centre lies within `radius` (world units) of
  /// `centre`, and the tile holding the centre, gets peak × (1 − falloff × d / radius) rounded
  /// (d: the tile centre's distance to `centre`): falloff 0 is a flat disc, 1 falls to 0 at the rim.
  struct Stamp {
    Vec2 centre = Vec2::Zero();
    float radius = 0.0f;
    std::uint8_t peak = 0;
    float falloff = 1.0f;
  };

  /// An empty map of no tiles.
  DangerMap() = default;
  /// No danger anywhere on a map of this layout and size.
  DangerMap(const Layout& layout, std::int32_t width, std::int32_t height);
  explicit DangerMap(const TileMap& map);

  /// One tile of a layer (layer 0..kMaxDangerLayers-1). InvalidArgument for another layer or a tile off the map.
  Status setDanger(int layer, Cell cell, std::uint8_t danger);
  /// A whole layer at once (row-major, one value per tile), as one edit. InvalidArgument for
  /// another layer or another number of values.
  Status setLayer(int layer, std::span<const std::uint8_t> values);
  /// Adds a stamp in one edit (work proportional to the disc): its id, for removeStamp.
  /// InvalidArgument for a NaN or infinite centre or radius, a negative radius or a falloff
  /// outside [0, 1]. A stamp wholly off the map changes nothing but still gets an id.
  Result<std::uint32_t> addStamp(const Stamp& stamp);
  /// Takes a stamp away again in one edit. InvalidArgument for an id not in use.
  Status removeStamp(std::uint32_t id);
  std::size_t stampCount() const noexcept { return m_stamps.size(); }

  /// A tile's danger: every layer's value and stamp added up, clamped to 255 (0 off the map).
  std::uint8_t danger(Cell cell) const noexcept {
    return cell.x >= 0 && cell.y >= 0 && cell.x < m_width && cell.y < m_height
               ? m_sum[std::size_t(cell.y) * std::size_t(m_width) + std::size_t(cell.x)]
               : 0;
  }
  /// True while no tile has any danger.
  bool clear() const noexcept { return m_dangerousTiles == 0; }
  std::int32_t width() const noexcept { return m_width; }
  std::int32_t height() const noexcept { return m_height; }

  /// The tiles the last edit touched (whose danger may have changed), in no particular order.
  std::span<const Cell> lastTouched() const noexcept { return m_touched; }

  /// Incremented by every successful edit.
  std::uint64_t version() const noexcept { return m_version; }
  /// One edit's box of touched tiles (inclusive); an edit that touched none is not journalled.
  struct Change {
    std::uint64_t version = 0;
    Cell low;
    Cell high;
  };
  /// The journal keeps this many recent edits.
  static constexpr std::size_t kJournalLimit = 4096;
  /// Appends the edits after `version`, oldest first. False when the journal no longer reaches
  /// back that far: rebuild from scratch then.
  bool changesSince(std::uint64_t version, std::vector<Change>& out) const;

  /// The cost of a tile of travel cost `cost` and danger `danger` for danger factor `factor` (see
  /// the class comment). kImpassable, and any cost of kMaxSearchCost or more, stays as it is.
  static float weightedCost(float cost, std::uint8_t danger, std::uint8_t factor) noexcept;

 private:
  Layout m_layout;
  std::int32_t m_width = 0;
  std::int32_t m_height = 0;
  std::vector<std::vector<std::uint8_t>> m_layers;  // per layer (empty until used), row-major
  std::vector<std::int32_t> m_stamped;              // the stamps' sum per tile (empty until used)
  std::vector<std::uint8_t> m_sum;                  // clamped sum of layers and stamps
  std::size_t m_dangerousTiles = 0;                 // tiles of m_sum above 0
  std::vector<std::pair<std::uint32_t, Stamp>> m_stamps;
  std::uint32_t m_nextStampId = 1;
  std::vector<Cell> m_touched;
  std::uint64_t m_version = 0;
  std::vector<Change> m_journal;  // oldest first, at most kJournalLimit
  std::uint64_t m_forgotten = 0;  // the newest version dropped from the journal

  void recount(std::size_t tile) noexcept;
  void applyStamp(const Stamp& stamp, int sign);
  void journalTouched();
};

/// A named danger layer as authored in a map file: one value 0-255 per tile, row-major
/// (width × height), for the danger layer of the same position (DangerMap::setLayer, CrowdField::setDanger).
struct DangerLayerSpec {
  std::string name;
  std::vector<std::uint8_t> values;
  friend bool operator==(const DangerLayerSpec&, const DangerLayerSpec&) = default;
};

}  // namespace rpgnav
