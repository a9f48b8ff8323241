// SPDX-License-Identifier: MIT
// Private to lib/nav: the navigation data's layers and the work behind NavData's public calls
// (NavData forwards each call to its Impl, so the public header shows none of this).
#pragma once

#include "rpgnav/nav/nav_data.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace rpgnav {

struct RPGNAV_HIDDEN NavData::Impl {
  Impl(const World& world, NavDataSettings settings);
  ~Impl();

  // The public calls (see nav_data.hpp).
  Status prepare(MobilityId mobility, float radius);
  Status prepare(MobilityId mobility, float radius, std::span<const TerrainCost> costs,
                 std::optional<std::uint8_t> dangerFactor = std::nullopt);
  bool ready(MobilityId mobility, float radius, std::span<const TerrainCost> costs = {},
             std::optional<std::uint8_t> dangerFactor = std::nullopt) const noexcept;
  const NavLayer* layer(MobilityId mobility, float radius, std::span<const TerrainCost> costs = {},
                        std::optional<std::uint8_t> dangerFactor = std::nullopt) const noexcept;
  const Clearance* clearance(MobilityId mobility, std::span<const TerrainCost> costs = {},
                             std::optional<std::uint8_t> dangerFactor = std::nullopt) const noexcept;
  NavUpdate update();
  bool current() const noexcept;
  bool refreshLandmarks(int sweeps);
  std::size_t memoryBytes() const noexcept;

  static std::size_t slot(MobilityId mobility, SizeClass size) noexcept {
    return std::size_t(mobility.value) * 2 + std::size_t(size);
  }
  std::vector<SearchGate> gates() const;
  std::uint8_t factorOf(std::optional<std::uint8_t> dangerFactor) const noexcept {
    return dangerFactor.value_or(m_world->dangerFactor());
  }
  // prepare() for no cost overrides and danger factor 0: the plain layers.
  Status preparePlain(MobilityId mobility, float radius);
  Result<std::unique_ptr<NavLayer>> build(const TileMap& map, MobilityId mobility, SizeClass size) const;
  // The layers of one list of terrain cost overrides for one mobility, on their own map.
  struct Filtered {
    MobilityId mobility;
    std::vector<TerrainCost> costs;
    std::uint8_t dangerFactor = 0;
    std::unique_ptr<TileMap> map;  // the world's map with those costs (kept at a stable address)
    std::array<std::unique_ptr<NavLayer>, 2> layers;  // by SizeClass
    std::unique_ptr<Clearance> clearance;
    // For a danger factor: the copy's terrain of each (world terrain, danger) pair, at
    // terrain × 256 + danger (0xFF where the map has none yet; empty while the map has no danger).
    std::vector<std::uint8_t> pairTerrain;
  };
  const Filtered* filtered(MobilityId mobility, std::span<const TerrainCost> costs, std::uint8_t dangerFactor) const noexcept;
  // The world's map with the overrides applied, or the failure.
  Result<std::unique_ptr<TileMap>> filteredMap(MobilityId mobility, std::span<const TerrainCost> costs,
                                               std::uint8_t dangerFactor, std::vector<std::uint8_t>& pairTerrain) const;
  // Builds an entry's map and its layers afresh; false, with the failure in `result`, when it failed.
  bool rebuild(Filtered& entry, NavUpdate& result);
  // update() for the filtered layers when a terrain's cost changed or the journal no longer
  // reaches back: rebuilt on a fresh copy of the map.
  void rebuildFiltered(NavUpdate& result);
  // What one update() brings to every layer (nav_data.cpp).
  struct Patch;
  // Brings one layer up to date on `map` (the world's, or a filtered copy); false, with the
  // failure in `result`, when the layer became unusable.
  static bool patchLayer(NavLayer& layer, const TileMap& map, const Patch& patch, NavUpdate& result);
  // update() for the filtered layers after tile and door edits: their maps replay the edits and
  // the layers are patched in place, as the plain ones are.
  void patchFiltered(const Patch& patch, NavUpdate& result);

  const World* m_world;
  NavDataSettings m_settings;
  std::vector<std::unique_ptr<NavLayer>> m_layers;  // by slot()
  std::vector<std::unique_ptr<Clearance>> m_clearances;  // by mobility
  std::vector<Filtered> m_filtered;  // in the order first prepared
  std::uint64_t m_mapVersion;
  std::uint64_t m_doorLayoutVersion;
  std::uint64_t m_dangerVersion;
  std::vector<TileEdit> m_edits;  // update()'s scratch
  std::vector<std::pair<Cell, Cell>> m_dangerPairs;  // patchFiltered()'s scratch
};

}  // namespace rpgnav
