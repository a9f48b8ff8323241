// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// TerrainTable: what each terrain costs each kind of mobility.

#include "rpgnav/core/export.hpp"
#include "rpgnav/core/limits.hpp"
#include "rpgnav/core/status.hpp"
#include "rpgnav/core/types.hpp"

#include <array>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rpgnav {

/// A terrain's cost for one query instead of the table's (see QueryFilter): > 0 and finite, the
/// multiplier; <= 0 or +infinity, forbidden. [Limit: not NaN; a multiplier the search can take,
/// as TerrainTable::setCost]
struct TerrainCost {
  TerrainId terrain;
  float cost = 1.0f;
};

/// Terrain types (floor, swamp, water...) with a travel cost per mobility (walk, swim, fly and up
/// to five user-named ones). A cost multiplies the length travelled through a tile of that
/// terrain; a missing cost means the mobility cannot enter the terrain at all.
///
/// Thread-safety: const member functions may be called concurrently; changes must not overlap
/// with any other use.
class RPGNAV_API TerrainTable {
 public:
  static constexpr MobilityId kWalk{0};
  static constexpr MobilityId kSwim{1};
  static constexpr MobilityId kFly{2};
  /// The cost reported for a terrain a mobility cannot enter.
  static constexpr float kImpassable = std::numeric_limits<float>::infinity();

  /// A table with the built-in mobilities walk, swim and fly and no terrains.
  TerrainTable();

  /// Adds a mobility. Fails with InvalidArgument on a bad or duplicate name or when 8 exist.
  Result<MobilityId> addMobility(std::string_view name);
  /// Adds a terrain that no mobility can enter yet. `symbol` is its one-character glyph in text
  /// maps (0 for none). Fails on a bad or duplicate name or symbol, or when 255 exist.
  Result<TerrainId> addTerrain(std::string_view name, char symbol = 0);
  /// Sets the cost of `terrain` for `mobility`. The cost must be positive and finite.
  Status setCost(TerrainId terrain, MobilityId mobility, float cost);
  /// Makes `terrain` impassable for `mobility`.
  Status clearCost(TerrainId terrain, MobilityId mobility);

  /// The cost, or kImpassable. Unknown ids are impassable.
  float cost(TerrainId terrain, MobilityId mobility) const noexcept {
    return terrain.value < m_costs.size() && mobility.value < kMaxMobilities
               ? m_costs[terrain.value][mobility.value]
               : kImpassable;
  }
  bool passable(TerrainId terrain, MobilityId mobility) const noexcept {
    return cost(terrain, mobility) != kImpassable;
  }
  /// The cheapest cost any terrain has for `mobility` (kImpassable if none): the factor that keeps
  /// distance heuristics admissible.
  float minCost(MobilityId mobility) const noexcept;
  /// The dearest cost a terrain the mobility may enter has (0 if none).
  float maxCost(MobilityId mobility) const noexcept;

  int terrainCount() const noexcept { return int(m_costs.size()); }
  int mobilityCount() const noexcept { return int(m_mobilityNames.size()); }
  bool valid(TerrainId terrain) const noexcept { return terrain.value < m_costs.size(); }
  bool valid(MobilityId mobility) const noexcept { return mobility.value < m_mobilityNames.size(); }
  const std::string& terrainName(TerrainId terrain) const { return m_terrainNames.at(terrain.value); }
  char terrainSymbol(TerrainId terrain) const { return m_symbols.at(terrain.value); }
  const std::string& mobilityName(MobilityId mobility) const { return m_mobilityNames.at(mobility.value); }
  std::optional<TerrainId> findTerrain(std::string_view name) const noexcept;
  std::optional<TerrainId> findTerrainBySymbol(char symbol) const noexcept;
  std::optional<MobilityId> findMobility(std::string_view name) const noexcept;

  /// Names are 1..64 characters of letters, digits, '_', '-' and '.'.
  static bool isValidName(std::string_view name) noexcept;

  friend bool operator==(const TerrainTable&, const TerrainTable&) = default;

 private:
  std::vector<std::string> m_mobilityNames;
  std::vector<std::string> m_terrainNames;
  std::vector<char> m_symbols;
  std::vector<std::array<float, kMaxMobilities>> m_costs;
};

}  // namespace rpgnav
