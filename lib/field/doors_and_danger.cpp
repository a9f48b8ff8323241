// SPDX-License-Identifier: MIT
// Doors (blocking moves, or crossings that cost extra under the door costs) and danger (layers,
// stamps and the factor that weighs them into the tiles' rates).
#include "field/crowd_field_impl.hpp"

#include "grid/step_cost.hpp"

#include <algorithm>

namespace rpgnav {

Status CrowdField::Impl::setDoor(Cell a, Cell b, DoorState state) {
  if (!m_costs.contains(a) || !m_costs.contains(b)) return Status::InvalidArgument;
  const auto tileA = std::uint32_t(padded(a)), tileB = std::uint32_t(padded(b));
  const std::vector<Move>& moves = movesOf(tileA);
  const bool neighbours = std::any_of(moves.begin(), moves.end(), [&](const Move& move) {
    return move.cornerA == 0 && std::ptrdiff_t(tileA) + move.offset == std::ptrdiff_t(tileB);
  });
  if (!neighbours) return Status::InvalidArgument;
  const auto found = std::find_if(m_doors.begin(), m_doors.end(), [&](const FieldDoor& door) {
    return (door.a == tileA && door.b == tileB) || (door.a == tileB && door.b == tileA);
  });
  if (found != m_doors.end() && found->state == state) {
    m_diagnostics.work = {};
    return Status::Ok;
  }
  if (found != m_doors.end()) {
    found->state = state;
  } else {
    m_doors.push_back({tileA, tileB, state});
  }
  applyDoors();
  const std::uint32_t reshaped[2] = {tileA, tileB};
  update({}, {}, {}, reshaped);
  return Status::Ok;
}

Status CrowdField::Impl::removeDoor(Cell a, Cell b) {
  if (!m_costs.contains(a) || !m_costs.contains(b)) return Status::InvalidArgument;
  const auto tileA = std::uint32_t(padded(a)), tileB = std::uint32_t(padded(b));
  const auto found = std::find_if(m_doors.begin(), m_doors.end(), [&](const FieldDoor& door) {
    return (door.a == tileA && door.b == tileB) || (door.a == tileB && door.b == tileA);
  });
  if (found == m_doors.end()) return Status::InvalidArgument;
  m_doors.erase(found);
  applyDoors();
  const std::uint32_t reshaped[2] = {tileA, tileB};
  update({}, {}, {}, reshaped);
  return Status::Ok;
}

Status CrowdField::Impl::setDoorCosts(const DoorCosts& costs) {
  const auto valid = [](float cost) { return cost == DoorCosts::kBlocks || (cost >= 0.0f && cost <= kMaxDoorCost); };
  if (!valid(costs.closedCost) || !valid(costs.lockedCost)) return Status::InvalidArgument;
  m_doorCosts = costs;
  applyDoors();
  rebuild();
  return Status::Ok;
}

std::int64_t CrowdField::Impl::crossingExtra(DoorState state) const noexcept {
  const float cost = state == DoorState::Open ? 0.0f : state == DoorState::Closed ? m_doorCosts.closedCost : m_doorCosts.lockedCost;
  if (cost == DoorCosts::kBlocks) return -1;
  // Tile steps on cost-1 ground (as the planner prices a door: lib/path/query_doors.cpp).
  return std::llround(double(cost) * double(kStep));
}

std::span<const CrowdField::Impl::Crossing> CrowdField::Impl::crossingsOf(std::size_t tile) const noexcept {
  const Crossing key{std::uint32_t(tile), 0, 0};
  const auto [first, last] = std::equal_range(m_crossings.begin(), m_crossings.end(), key);
  return {first, last};
}

void CrowdField::Impl::applyDoors() {
  ++m_mapEdits;
  // The tiles whose bits change: those the doors marked before and those they mark now.
  std::vector<std::uint32_t> before;
  before.swap(m_doorMarked);
  for (const std::uint32_t tile : before) {
    m_doorBlocked[tile] = 0;
    m_doorSide[tile] = 0;
  }
  m_crossings.clear();
  m_largestExtra = 0;
  if (!m_doors.empty() && m_doorBlocked.empty()) {
    m_doorBlocked.assign(m_distance.size(), 0);
    m_doorSide.assign(m_distance.size(), 0);
  }
  const auto moveBetween = [this](std::uint32_t from, std::uint32_t to) {
    const std::vector<Move>& moves = movesOf(from);
    for (std::size_t k = 0; k < moves.size(); ++k) {
      if (std::ptrdiff_t(from) + moves[k].offset == std::ptrdiff_t(to)) return std::uint8_t(k);
    }
    return std::uint8_t(0);  // (setDoor checked they are neighbours)
  };
  const auto block = [this](std::uint32_t tile, std::size_t move) {
    m_doorBlocked[tile] = std::uint8_t(m_doorBlocked[tile] | (1u << move));
    m_doorMarked.push_back(tile);
  };
  for (const FieldDoor& door : m_doors) {
    const std::int64_t extra = crossingExtra(door.state);
    if (extra == 0) continue;  // open (or free to pass): an ordinary edge
    const std::uint8_t forward = moveBetween(door.a, door.b), backward = moveBetween(door.b, door.a);
    // The crossing leaves the ordinary moves (which all cost the same per step) ...
    block(door.a, forward);
    block(door.b, backward);
    if (extra > 0) {
      // ... and costs extra as a crossing of its own.
      m_crossings.push_back({door.a, forward, extra});
      m_crossings.push_back({door.b, backward, extra});
      m_doorSide[door.a] = m_doorSide[door.b] = 1;
      m_largestExtra = std::max(m_largestExtra, extra);
      continue;
    }
    // A blocking door: square diagonals past its ends go too (the four tiles round the corner a
    // diagonal passes include both of the door's tiles).
    for (const std::uint32_t end : {door.a, door.b}) {
      for (const Move& around : movesOf(end)) {
        const auto tile = std::uint32_t(std::ptrdiff_t(end) + around.offset);
        if (!inside(tile)) continue;
        const std::vector<Move>& moves = movesOf(tile);
        for (std::size_t k = 0; k < moves.size(); ++k) {
          if (moves[k].cornerA == 0) continue;
          const std::uint32_t corner[4] = {tile, std::uint32_t(std::ptrdiff_t(tile) + moves[k].offset),
                                           std::uint32_t(std::ptrdiff_t(tile) + moves[k].cornerA),
                                           std::uint32_t(std::ptrdiff_t(tile) + moves[k].cornerB)};
          const auto has = [&](std::uint32_t each) { return std::find(corner, corner + 4, each) != corner + 4; };
          if (has(door.a) && has(door.b)) block(tile, k);
        }
      }
    }
  }
  std::sort(m_crossings.begin(), m_crossings.end());
  for (const std::uint32_t tile : before) refreshOpen(tile);
  for (const std::uint32_t tile : m_doorMarked) refreshOpen(tile);
}

Status CrowdField::Impl::setDanger(int layer, Cell cell, std::uint8_t danger) {
  if (const Status status = m_danger.setDanger(layer, cell, danger); status != Status::Ok) return status;
  applyDangerEdit();
  return Status::Ok;
}

Result<std::uint32_t> CrowdField::Impl::addDangerStamp(const DangerStamp& stamp) {
  auto id = m_danger.addStamp(stamp);
  if (id) applyDangerEdit();
  return id;
}

Status CrowdField::Impl::removeDangerStamp(std::uint32_t id) {
  if (const Status status = m_danger.removeStamp(id); status != Status::Ok) return status;
  applyDangerEdit();
  return Status::Ok;
}

void CrowdField::Impl::applyDangerEdit() {
  m_weightChanges.clear();
  for (const Cell cell : m_danger.lastTouched()) m_weightChanges.push_back({std::uint32_t(padded(cell)), rateFor(cell)});
  update(m_weightChanges, {}, {});
}

void CrowdField::Impl::setDangerFactor(std::uint8_t factor) {
  if (factor == m_factor) return;
  m_factor = factor;
  applyDoors();  // crossings cost tile steps of cost-1 ground, whose weight the factor sets
  for (std::int32_t y = 0; y < m_costs.height(); ++y) {
    for (std::int32_t x = 0; x < m_costs.width(); ++x) refreshWeight({x, y});
  }
  refreshOpenAround();  // (danger never walls a tile up: nothing to refresh, but the list is emptied)
  rebuild();
}

}  // namespace rpgnav
