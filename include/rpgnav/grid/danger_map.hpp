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
#include <memory>
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
  DangerMap();
  /// No danger anywhere on a map of this layout and size.
  DangerMap(const Layout& layout, std::int32_t width, std::int32_t height);
  explicit DangerMap(const TileMap& map);
  DangerMap(const DangerMap& other);
  DangerMap& operator=(const DangerMap& other);
  DangerMap(DangerMap&&) noexcept;
  DangerMap& operator=(DangerMap&&) noexcept;
  ~DangerMap();

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
  std::size_t stampCount() const noexcept;

  /// A tile's danger: every layer's value and stamp added up, clamped to 255 (0 off the map).
  std::uint8_t danger(Cell cell) const noexcept;
  /// Every tile's danger(), row-major (width × height values): for loops over many tiles.
  std::span<const std::uint8_t> values() const noexcept;
  /// True while no tile has any danger.
  bool clear() const noexcept;
  std::int32_t width() const noexcept;
  std::int32_t height() const noexcept;

  /// The tiles the last edit touched (whose danger may have changed), in no particular order.
  std::span<const Cell> lastTouched() const noexcept;

  /// Incremented by every successful edit.
  std::uint64_t version() const noexcept;
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
  // The layers, stamps, their sum per tile and the journal (lib/grid/danger_map.cpp).
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

/// A named danger layer as authored in a map file: one value 0-255 per tile, row-major
/// (width × height), for the danger layer of the same position (DangerMap::setLayer, CrowdField::setDanger).
struct DangerLayerSpec {
  std::string name;
  std::vector<std::uint8_t> values;
  friend bool operator==(const DangerLayerSpec&, const DangerLayerSpec&) = default;
};

}  // namespace rpgnav
