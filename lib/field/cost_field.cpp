// SPDX-License-Identifier: MIT
#include "rpgnav/field/cost_field.hpp"

#include "grid/clearance.hpp"
#include "rpgnav/core/limits.hpp"
#include "rpgnav/grid/tile_map.hpp"

#include <algorithm>
#include <cmath>

namespace rpgnav {
namespace {

// A tile's cost as a cost field takes it: finite and above 0 (as TerrainTable::setCost), or
// impassable.
bool validTileCost(float cost) noexcept {
  return cost > 0.0f && (std::isfinite(cost) || cost == TerrainTable::kImpassable);
}

}  // namespace

std::uint8_t CostField::byteFor(float cost) noexcept {
  if (!(cost < TerrainTable::kImpassable) || !std::isfinite(cost)) return kImpassable;
  return std::uint8_t(std::clamp<long>(std::lround(cost), 1, 254));
}

Result<CostField> CostField::build(const TileMap& map, MobilityId mobility) {
  if (!map.terrain().valid(mobility)) return Error{Status::InvalidArgument, "unknown mobility"};
  CostField field;
  field.m_layout = map.layout();
  field.m_mobility = mobility;
  field.m_width = map.width();
  field.m_height = map.height();
  field.m_costs.resize(std::size_t(map.tileCount()));
  for (std::int32_t i = 0; i < map.tileCount(); ++i) field.m_costs[std::size_t(i)] = map.cost(map.cellAt(i), mobility);
  return field;
}

Result<CostField> CostField::fromCosts(const Layout& layout, std::int32_t width, std::int32_t height,
                                       std::span<const float> costs, MobilityId mobility) {
  if (width < 1 || height < 1 || width > kMaxMapSide || height > kMaxMapSide ||
      std::int64_t(width) * std::int64_t(height) > kMaxMapTiles) {
    return Error{Status::InvalidArgument, "a cost field's size must lie in [1, kMaxMapSide] per side, kMaxMapTiles in all"};
  }
  if (costs.size() != std::size_t(width) * std::size_t(height)) {
    return Error{Status::InvalidArgument, "a cost field needs one cost per tile"};
  }
  for (const float cost : costs) {
    if (!validTileCost(cost)) {
      return Error{Status::InvalidArgument, "a tile's cost must be finite and above 0, or impassable"};
    }
  }
  CostField field;
  field.m_layout = layout;
  field.m_mobility = mobility;
  field.m_width = width;
  field.m_height = height;
  field.m_costs.assign(costs.begin(), costs.end());
  return field;
}

Result<CostField> CostField::build(const TileMap& map, MobilityId mobility, const Clearance& clearance, double bodyTiles) {
  if (!map.terrain().valid(mobility)) return Error{Status::InvalidArgument, "unknown mobility"};
  if (clearance.mobility() != mobility || clearance.width() != map.width() || clearance.height() != map.height() ||
      clearance.scale() != (map.layout().isHex() ? 12 : 4)) {
    return Error{Status::InvalidArgument, "the clearance is for another map or mobility"};
  }
  if (!std::isfinite(bodyTiles) || bodyTiles < 0.0 || bodyTiles > 3.0) return Error{Status::InvalidArgument, "body radius must lie in [0, 3] tiles"};
  auto field = build(map, mobility);
  if (!field) return field;
  field->m_bodyTiles = bodyTiles;
  if (bodyTiles > 0.0) {
    for (std::int32_t i = 0; i < map.tileCount(); ++i) field->m_costs[std::size_t(i)] = field->costOf(map, &clearance, i);
  }
  return field;
}

float CostField::costOf(const TileMap& map, const Clearance* clearance, std::int32_t index) const noexcept {
  const Cell cell = map.cellAt(index);
  if (clearance != nullptr && m_bodyTiles > 0.0 && !clearance->fits(cell, m_bodyTiles)) return TerrainTable::kImpassable;
  return map.cost(cell, m_mobility);
}

Status CostField::refresh(const TileMap& map, const Clearance& clearance, std::vector<Cell>& changed) {
  if (map.width() != m_width || map.height() != m_height || !(map.layout() == m_layout) || m_bodyTiles <= 0.0 ||
      clearance.mobility() != m_mobility || clearance.width() != m_width || clearance.height() != m_height) {
    return Status::InvalidArgument;
  }
  for (std::int32_t i = 0; i < map.tileCount(); ++i) {
    const float now = costOf(map, &clearance, i);
    if (now != m_costs[std::size_t(i)]) {
      m_costs[std::size_t(i)] = now;
      changed.push_back(map.cellAt(i));
    }
  }
  return Status::Ok;
}

Status CostField::refresh(const TileMap& map, std::vector<Cell>& changed) {
  if (map.width() != m_width || map.height() != m_height || !(map.layout() == m_layout) || m_bodyTiles > 0.0) {
    return Status::InvalidArgument;
  }
  for (std::int32_t i = 0; i < map.tileCount(); ++i) {
    const float now = costOf(map, nullptr, i);
    if (now != m_costs[std::size_t(i)]) {
      m_costs[std::size_t(i)] = now;
      changed.push_back(map.cellAt(i));
    }
  }
  return Status::Ok;
}

Status CostField::refresh(const TileMap& map, std::span<const std::pair<Cell, Cell>> rects, bool all,
                          std::vector<Cell>& changed) {
  if (all) return refresh(map, changed);
  if (map.width() != m_width || map.height() != m_height || !(map.layout() == m_layout) || m_bodyTiles > 0.0) {
    return Status::InvalidArgument;
  }
  for (const auto& [low, high] : rects) {
    for (std::int32_t y = std::max(low.y, 0); y <= std::min(high.y, m_height - 1); ++y) {
      for (std::int32_t x = std::max(low.x, 0); x <= std::min(high.x, m_width - 1); ++x) {
        float& cost = m_costs[std::size_t(y) * std::size_t(m_width) + std::size_t(x)];
        const float now = map.cost({x, y}, m_mobility);
        if (now == cost) continue;
        cost = now;
        changed.push_back({x, y});
      }
    }
  }
  return Status::Ok;
}

CostField CostField::crop(Cell origin, std::int32_t width, std::int32_t height) const {
  CostField out;
  out.m_layout = m_layout;
  out.m_mobility = m_mobility;
  out.m_width = std::max(width, 1);
  out.m_height = std::max(height, 1);
  out.m_costs.assign(std::size_t(out.m_width) * std::size_t(out.m_height), TerrainTable::kImpassable);
  for (std::int32_t y = 0; y < out.m_height; ++y) {
    for (std::int32_t x = 0; x < out.m_width; ++x) {
      out.m_costs[std::size_t(y) * std::size_t(out.m_width) + std::size_t(x)] = cost({origin.x + x, origin.y + y});
    }
  }
  return out;
}

Status CostField::set(Cell cell, std::uint8_t cost) {
  if (cost == 0) return Status::InvalidArgument;
  return setCost(cell, cost == kImpassable ? TerrainTable::kImpassable : float(cost));
}

Status CostField::setCost(Cell cell, float cost) {
  if (!contains(cell) || !validTileCost(cost)) return Status::InvalidArgument;
  m_costs[std::size_t(cell.y) * std::size_t(m_width) + std::size_t(cell.x)] = cost;
  return Status::Ok;
}

}  // namespace rpgnav
