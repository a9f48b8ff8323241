// SPDX-License-Identifier: MIT
#include "rpgnav/grid/terrain_table.hpp"

#include <algorithm>
#include <cmath>

namespace rpgnav {

TerrainTable::TerrainTable() : m_mobilityNames{"walk", "swim", "fly"} {}

bool TerrainTable::isValidName(std::string_view name) noexcept {
  if (name.empty() || name.size() > 64) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.';
  });
}

Result<MobilityId> TerrainTable::addMobility(std::string_view name) {
  if (!isValidName(name)) return Error{Status::InvalidArgument, "invalid mobility name '" + std::string(name) + "'"};
  if (findMobility(name)) return Error{Status::InvalidArgument, "duplicate mobility '" + std::string(name) + "'"};
  if (mobilityCount() >= kMaxMobilities) {
    return Error{Status::InvalidArgument, "too many mobilities (at most 8)"};
  }
  m_mobilityNames.emplace_back(name);
  return MobilityId{std::uint8_t(m_mobilityNames.size() - 1)};
}

Result<TerrainId> TerrainTable::addTerrain(std::string_view name, char symbol) {
  if (!isValidName(name)) return Error{Status::InvalidArgument, "invalid terrain name '" + std::string(name) + "'"};
  if (findTerrain(name)) return Error{Status::InvalidArgument, "duplicate terrain '" + std::string(name) + "'"};
  if (symbol != 0 && (symbol <= ' ' || symbol > '~')) {
    return Error{Status::InvalidArgument, "terrain symbol must be printable ASCII"};
  }
  if (symbol != 0 && findTerrainBySymbol(symbol)) {
    return Error{Status::InvalidArgument, std::string("duplicate terrain symbol '") + symbol + "'"};
  }
  if (terrainCount() >= kMaxTerrains) return Error{Status::InvalidArgument, "too many terrains (at most 255)"};
  m_terrainNames.emplace_back(name);
  m_symbols.push_back(symbol);
  std::array<float, kMaxMobilities> costs;
  costs.fill(kImpassable);
  m_costs.push_back(costs);
  return TerrainId{std::uint8_t(m_costs.size() - 1)};
}

Status TerrainTable::setCost(TerrainId terrain, MobilityId mobility, float cost) {
  if (!valid(terrain) || !valid(mobility)) return Status::InvalidArgument;
  if (!std::isfinite(cost) || !(cost > 0.0f)) return Status::InvalidArgument;
  m_costs[terrain.value][mobility.value] = cost;
  return Status::Ok;
}

Status TerrainTable::clearCost(TerrainId terrain, MobilityId mobility) {
  if (!valid(terrain) || !valid(mobility)) return Status::InvalidArgument;
  m_costs[terrain.value][mobility.value] = kImpassable;
  return Status::Ok;
}

float TerrainTable::minCost(MobilityId mobility) const noexcept {
  float best = kImpassable;
  if (mobility.value >= kMaxMobilities) return best;
  for (const auto& costs : m_costs) best = std::min(best, costs[mobility.value]);
  return best;
}

float TerrainTable::maxCost(MobilityId mobility) const noexcept {
  float worst = 0.0f;
  if (mobility.value >= kMaxMobilities) return worst;
  for (const auto& costs : m_costs) {
    if (costs[mobility.value] != kImpassable) worst = std::max(worst, costs[mobility.value]);
  }
  return worst;
}

std::optional<TerrainId> TerrainTable::findTerrain(std::string_view name) const noexcept {
  for (std::size_t i = 0; i < m_terrainNames.size(); ++i) {
    if (m_terrainNames[i] == name) return TerrainId{std::uint8_t(i)};
  }
  return std::nullopt;
}

std::optional<TerrainId> TerrainTable::findTerrainBySymbol(char symbol) const noexcept {
  for (std::size_t i = 0; i < m_symbols.size(); ++i) {
    if (m_symbols[i] == symbol && symbol != 0) return TerrainId{std::uint8_t(i)};
  }
  return std::nullopt;
}

std::optional<MobilityId> TerrainTable::findMobility(std::string_view name) const noexcept {
  for (std::size_t i = 0; i < m_mobilityNames.size(); ++i) {
    if (m_mobilityNames[i] == name) return MobilityId{std::uint8_t(i)};
  }
  return std::nullopt;
}

}  // namespace rpgnav
