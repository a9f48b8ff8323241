// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// NavData: a world's navigation data — what every query reads, built once, shared by every
/// thread, and kept up to date with the world's edits in place.

#include "rpgnav/core/export.hpp"
#include "rpgnav/core/limits.hpp"
#include "rpgnav/core/status.hpp"
#include "rpgnav/world/world.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace rpgnav {

/// Characters that need data of their own. On hex maps a character at least half a hex edge
/// wide (widerThanHalfHexEdge) cannot pass a gap one edge wide: its search grid closes such gaps.
enum class SizeClass : std::uint8_t { Narrow, WideHex };
RPGNAV_API SizeClass sizeClassOf(const Layout& layout, float radius) noexcept;

/// What shapes navigation data. It is given when the data is built; other settings mean other
/// data (build a new NavData).
struct NavDataSettings {
  /// Landmarks for the ALT heuristic on every layer: exact distances to far-apart tiles, which
  /// make long searches expand fewer nodes for 4 bytes a tile each (see the README's Search, and
  /// NavData::refreshLandmarks for how they follow edits). [Limit: 0..kMaxLandmarks]
  int landmarks = 0;
};

/// The data for one mobility and size class (search grid, line bitmaps, corners, the crowd
/// fields' cost bytes): the library's own (see NavData::layer).
class NavLayer;
/// How wide a body fits on each tile, for one mobility (see NavData::clearance).
class Clearance;
struct SearchGate;

/// What NavData::update() did.
struct NavUpdate {
  Status status = Status::Ok;  ///< InvalidArgument when a terrain's cost left the search's range.
  std::string reason;
  std::size_t tileEdits = 0;   ///< Journal entries applied (rectangles, tiles listed, cost edits).
  std::size_t tilesChanged = 0;  ///< Tiles whose terrain the edits named.
  bool doorsChanged = false;   ///< Doors were added or taken away.
  bool rebuilt = false;        ///< The journal no longer reached back: the layers were built afresh.
  /// The tiles the edits named (rectangles' corners low..high), for the game's own caches (crowd
  /// fields: CrowdField::syncWithMap).
  std::vector<std::pair<Cell, Cell>> rects;
  double micros = 0.0;         ///< Wall time of the call.
};

/// A world's navigation data: built explicitly per mobility and size class (prepare), read by any
/// number of threads at once (Planner, ReplanScheduler jobs, crowd fields), and patched in place
/// where the world changed (update) — never rebuilt for an edit (unless the map's journal no
/// longer reaches back, TileMap::kJournalLimit edits ago).
///
/// The contract. Edits go to the TileMap (setTerrain on a tile, a rectangle or a list,
/// setTerrainCost) and the World (addDoor, removeDoor); then update() brings the data up to date.
/// update(), prepare() and refreshLandmarks() change the data: they must not overlap with
/// queries — call them between frames, on one thread, when no planner is running. Queries read
/// only. A query on data older than the map or the doors (current() false: an edit made and
/// update() not yet called) does not read a torn state: the Planner refuses it (InvalidArgument)
/// and a sliced plan starts again. Door states (open, closed, locked) are no part of the data:
/// they change at any time between queries, without update(). Results after update() equal, bit
/// for bit, those on data built afresh for the edited world (landmarks: once refreshed).
class RPGNAV_API NavData {
 public:
  /// Keeps the world (and its map) by reference: they must outlive the data. Builds nothing yet.
  explicit NavData(const World& world, NavDataSettings settings = {});
  ~NavData();
  NavData(const NavData&) = delete;
  NavData& operator=(const NavData&) = delete;

  /// Builds the layer for `mobility` and characters of `radius` (world units) when it is not
  /// there yet (after bringing the data up to date), and for a radius of half a tile or more the
  /// mobility's clearance (one byte per tile, shared by every radius). InvalidArgument for an
  /// unknown mobility, a radius out of [0, kMaxRadiusTiles tiles], a terrain cost the search
  /// cannot take, or bad settings.
  /// With the world's danger factor above 0 (World::dangerFactor), the layer of that factor
  /// (the prepare() below with no cost overrides).
  Status prepare(MobilityId mobility, float radius = 0.0f);
  /// prepare() for queries whose filter overrides terrain costs (QueryFilter::costs): a layer of
  /// its own, built on a copy of the map whose terrain table has those costs for `mobility`, so
  /// that such a query reads data exactly like a map with those costs would have (same paths, bit
  /// for bit). Layers are keyed by the mobility, the size class and the list as given (the same
  /// terrains and costs in the same order; another order is another layer). An empty list is
  /// prepare(mobility, radius). Costs: a copy of the map's tiles and a layer's memory per list
  /// and size class, built once; update() patches these layers after tile and door edits as it
  /// patches the plain ones (a change of a terrain's cost in the table builds them afresh).
  /// InvalidArgument also for an unknown terrain or a NaN cost.
  ///
  /// A danger factor above 0 (PathRequest::dangerFactor) weighs the world's danger in the same
  /// way: the copy's terrain table gets a terrain of its own for each (terrain, danger) pair on
  /// the map, costing DangerMap::weightedCost of the terrain's cost, so every stage reads the
  /// danger through the tile costs. Layers are keyed by the factor too; factor 0 is the plain
  /// layer (or the cost list's), bit for bit. update() patches them after danger edits in place,
  /// as after tile edits (a pair the table has not seen yet builds the copy afresh).
  /// LimitExceeded when the map holds more (terrain, danger) pairs than the terrain table has
  /// room for (kMaxTerrains in all); the names "danger.T.D" are taken for them.
  /// The danger factor unset is the world's (World::dangerFactor), here and below.
  Status prepare(MobilityId mobility, float radius, std::span<const TerrainCost> costs,
                 std::optional<std::uint8_t> dangerFactor = std::nullopt);
  /// True when everything a plan for `mobility`, a character of `radius` (world units) and the
  /// cost overrides `costs` reads is built and up to date: the layer of the radius's size class
  /// for that list and, for a radius of half a tile or more (widerThanHalfTile), the mobility's
  /// clearance for that list. It answers for that radius, not for the layer: a narrow character
  /// prepared does not make a wide one ready. False for an unknown mobility, a radius out of
  /// [0, kMaxRadiusTiles tiles] or NaN, a cost list never prepared, after an update that failed
  /// for it, and while the data is older than the map (current() false). The game's question
  /// before a plan on shared data: when false, prepare() (between frames, after update()). A plan
  /// on data that is not ready is refused with InvalidArgument and a reason naming prepare() (or
  /// update(), for data older than the map), unless the checks of its ends, made first, refuse it
  /// (a start or goal the mobility cannot enter); it never plans on other data.
  bool ready(MobilityId mobility, float radius, std::span<const TerrainCost> costs = {},
             std::optional<std::uint8_t> dangerFactor = std::nullopt) const noexcept;
  /// The layer a plan for this mobility, radius and cost overrides reads, or nullptr exactly when
  /// ready() is false but for current() (a query on data older than the map is refused on its
  /// own). The library's modules read it; a game asks ready().
  const NavLayer* layer(MobilityId mobility, float radius, std::span<const TerrainCost> costs = {},
                        std::optional<std::uint8_t> dangerFactor = std::nullopt) const noexcept;
  /// The mobility's clearance (how wide a body fits on each tile; what CostField::build takes for
  /// a wide body's field), or nullptr when no radius of half a tile or more was prepared for it
  /// (for those cost overrides). Kept up to date by update() like the layers.
  const Clearance* clearance(MobilityId mobility, std::span<const TerrainCost> costs = {},
                             std::optional<std::uint8_t> dangerFactor = std::nullopt) const noexcept;

  /// Applies the map's and the world's edits since the last update to every layer, in place.
  NavUpdate update();
  /// True when the data reflects the map's tiles and costs, the world's doors and its danger as
  /// they are.
  bool current() const noexcept;
  /// The map version (TileMap::version) and door layout version the data reflects.
  std::uint64_t mapVersion() const noexcept;
  std::uint64_t doorLayoutVersion() const noexcept;

  /// Landmarks after edits (NavDataSettings::landmarks): the search uses a layer's landmark
  /// distances while they are lower bounds — an edit that makes a tile cheaper or opens one turns
  /// them off (the search is exact without them, only slower) — and this recomputes them as a
  /// fresh build would, at most `sweeps` Dijkstra sweeps per call over all layers (between
  /// frames, or in a job while nothing plans). True when every layer's landmarks are current.
  bool refreshLandmarks(int sweeps);

  const World& world() const noexcept;
  const TileMap& map() const noexcept;
  const NavDataSettings& settings() const noexcept;
  /// Bytes held by every layer.
  std::size_t memoryBytes() const noexcept;

 private:
  // Everything else lives in lib/nav (nav_data_impl.hpp).
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace rpgnav
