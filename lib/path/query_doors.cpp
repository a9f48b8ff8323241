// SPDX-License-Identifier: MIT
#include "path/query_doors.hpp"

#include "search/search_grid.hpp"

#include <algorithm>
#include <cmath>

namespace rpgnav::detail {

void QueryDoors::begin(const World& world, const Traveller& traveller, const DoorPolicy* policy) {
  m_world = &world;
  m_policy = policy != nullptr ? policy : &world.doorPolicy();
  m_traveller = traveller;
  const std::size_t doors = world.doors().size();
  if (m_stamp.size() < doors) {
    m_stamp.resize(doors, 0);
    m_decisions.resize(doors);
    m_decidedState.resize(doors);
    m_searchStamp.resize(doors, 0);
  }
  if (++m_query == 0) {  // wrapped: clear the stamps once every 2^32 queries
    std::fill(m_stamp.begin(), m_stamp.end(), 0);
    std::fill(m_searchStamp.begin(), m_searchStamp.end(), 0);
    m_query = 1;
  }
}

DoorDecision QueryDoors::decision(DoorId id) const {
  const std::size_t index = id.value - 1;  // ids count from 1
  if (m_stamp[index] != m_query) {
    DoorDecision decided = m_policy->decide(*m_world->door(id), m_traveller);
    // A cost that is not a number, negative or huge would break the search's sums.
    decided.cost = std::isfinite(decided.cost) ? std::clamp(decided.cost, 0.0f, kMaxDoorCost) : kMaxDoorCost;
    m_decisions[index] = decided;
    m_decidedState[index] = m_world->door(id)->state;
    m_stamp[index] = m_query;
  }
  return m_decisions[index];
}

bool QueryDoors::consultedDoorChanged() const {
  if (m_world == nullptr) return false;
  const std::span<const Door> doors = m_world->doors();
  for (std::size_t i = 0; i < doors.size() && i < m_stamp.size(); ++i) {
    if (m_searchStamp[i] == m_query && doors[i].state != m_decidedState[i]) return true;
  }
  return false;
}

GateCrossing QueryDoors::crossing(std::uint32_t gate) const {
  const DoorDecision decided = decision(DoorId{gate + 1});  // gate i is the world's door i
  m_searchStamp[gate] = m_query;
  const auto cost = std::int64_t(std::llround(double(decided.cost) * double(kCostScale)));
  switch (decided.action) {
    case DoorAction::Pass: return {true, false, cost};
    case DoorAction::Stop: return {true, true, cost};
    case DoorAction::Avoid: return {false, true, 0};
  }
  return {false, true, 0};
}

bool QueryDoors::segmentMeetsGate(Vec2 from, Vec2 to, float radius) const {
  m_scratch.clear();
  m_world->doorsNear(from.cwiseMin(to), from.cwiseMax(to), radius, m_scratch);
  for (const DoorId id : m_scratch) {
    const Door& door = *m_world->door(id);
    if (meetsBarrier({door.edge[0], door.edge[1], door.a, door.b}, from, to, radius)) return true;
  }
  return false;
}

void QueryDoors::barriersNear(Vec2 low, Vec2 high, float reach, bool costlyToo, std::vector<Barrier>& out) const {
  out.clear();
  m_scratch.clear();
  m_world->doorsNear(low, high, reach, m_scratch);
  for (const DoorId id : m_scratch) {
    const DoorDecision decided = decision(id);
    if (decided.action == DoorAction::Pass && !(costlyToo && decided.cost > 0.0f)) continue;
    const Door& door = *m_world->door(id);
    out.push_back({door.edge[0], door.edge[1], door.a, door.b});
  }
}

std::optional<QueryDoors::Stop> QueryDoors::firstStop(const std::vector<Cell>& tiles) const {
  if (m_world->doors().empty()) return std::nullopt;
  for (std::size_t i = 1; i < tiles.size(); ++i) {
    const Door* door = m_world->doorBetween(tiles[i - 1], tiles[i]);
    if (door != nullptr && decision(door->id).action == DoorAction::Stop) return Stop{door->id, i - 1};
  }
  return std::nullopt;
}

Vec2 QueryDoors::approachPoint(DoorId id, Cell side, float radius, float gap) const {
  const Door& door = *m_world->door(id);
  const Vec2 middle = (door.edge[0] + door.edge[1]) * 0.5f;
  const Vec2 centre = m_world->map().layout().tileCenter(side);
  const Vec2 inward = centre - middle;  // perpendicular to the edge on squares and hexes
  const float toCentre = inward.norm();
  const float distance = radius + gap;
  return distance >= toCentre ? centre : Vec2(middle + inward * (distance / toCentre));
}

}  // namespace rpgnav::detail
