// SPDX-License-Identifier: MIT
#include "rpgnav/grid/tile_map.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace rpgnav {

namespace {

std::optional<Error> checkShape(const Layout& layout, std::int32_t width, std::int32_t height) {
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  if (width < 1 || height < 1) return Error{Status::InvalidArgument, "map size " + size + ": each side must be at least 1"};
  if (width > kMaxMapSide || height > kMaxMapSide || std::int64_t(width) * height > kMaxMapTiles) {
    return Error{Status::LimitExceeded, "map size " + size + " is over the limits of 32768 per side and 2^26 tiles"};
  }
  if (!std::isfinite(layout.tileSize()) || !(layout.tileSize() > 0.0f) || !std::isfinite(layout.origin().x()) ||
      !std::isfinite(layout.origin().y())) {
    return Error{Status::InvalidArgument, "tile size must be positive and finite, origin finite"};
  }
  return std::nullopt;
}

}  // namespace

Result<TileMap> TileMap::create(const Layout& layout, std::int32_t width, std::int32_t height,
                                TerrainTable terrain, TerrainId fill) {
  if (auto error = checkShape(layout, width, height)) return *error;
  if (!terrain.valid(fill)) return Error{Status::InvalidArgument, "fill terrain is not in the terrain table"};
  return create(layout, width, height, std::move(terrain),
                std::vector<TerrainId>(std::size_t(width) * std::size_t(height), fill));
}

Result<TileMap> TileMap::create(const Layout& layout, std::int32_t width, std::int32_t height,
                                TerrainTable terrain, std::vector<TerrainId> tiles) {
  if (auto error = checkShape(layout, width, height)) return *error;
  if (tiles.size() != std::size_t(width) * std::size_t(height)) {
    return Error{Status::InvalidArgument, "expected " + std::to_string(std::int64_t(width) * height) + " tiles, got " +
                                              std::to_string(tiles.size())};
  }
  for (TerrainId id : tiles) {
    if (!terrain.valid(id)) return Error{Status::InvalidArgument, "a tile names a terrain not in the terrain table"};
  }
  TileMap map;
  map.m_layout = layout;
  map.m_width = width;
  map.m_height = height;
  map.m_terrain = std::move(terrain);
  map.m_tiles = std::move(tiles);
  return map;
}

bool TileMap::canStep(Cell from, const NeighbourStep& step, MobilityId mobility) const noexcept {
  if (!passable({from.x + step.dx, from.y + step.dy}, mobility)) return false;
  if (step.requiresA < 0) return true;
  const auto table = m_layout.moves(from);
  const NeighbourStep& a = table[std::size_t(step.requiresA)];
  const NeighbourStep& b = table[std::size_t(step.requiresB)];
  return passable({from.x + a.dx, from.y + a.dy}, mobility) && passable({from.x + b.dx, from.y + b.dy}, mobility);
}

TileMap::WorldBox TileMap::worldBox() const noexcept {
  // The outermost corners belong to the first and last two rows and columns' end tiles (on hex
  // layouts one of each pair is shifted half a tile), whatever the map's size.
  WorldBox box{Vec2::Constant(std::numeric_limits<float>::max()), Vec2::Constant(std::numeric_limits<float>::lowest())};
  const std::int32_t right = m_width - 1, bottom = m_height - 1;
  for (const Cell cell : {Cell{0, 0}, Cell{right, 0}, Cell{0, bottom}, Cell{right, bottom}, Cell{0, std::min(1, bottom)},
                          Cell{std::min(1, right), 0}, Cell{right, std::max(0, bottom - 1)}, Cell{std::max(0, right - 1), bottom}}) {
    const TilePolygon polygon = m_layout.tilePolygon(cell);
    for (int i = 0; i < polygon.count; ++i) {
      box.min = box.min.cwiseMin(polygon.corners[std::size_t(i)]);
      box.max = box.max.cwiseMax(polygon.corners[std::size_t(i)]);
    }
  }
  return box;
}

std::optional<Cell> TileMap::tileAt(Vec2 world) const noexcept {
  if (!std::isfinite(world.x()) || !std::isfinite(world.y())) return std::nullopt;
  const Eigen::Vector2d local = m_layout.toLocal(world);
  // Reject far-away points before converting to int32 (which would overflow).
  if (std::abs(local.x()) > 4.0 * kMaxMapSide || std::abs(local.y()) > 4.0 * kMaxMapSide) return std::nullopt;
  const Cell cell = m_layout.tileAtLocal(local);
  if (!contains(cell)) return std::nullopt;
  return cell;
}

void TileMap::journal(const TileEdit& edit) {
  if (m_journal.size() < kJournalLimit) {
    m_journal.push_back(edit);
  } else {
    m_forgotten = std::max(m_forgotten, m_journal[m_journalStart].version);
    m_journal[m_journalStart] = edit;
    m_journalStart = (m_journalStart + 1) % kJournalLimit;
  }
}

bool TileMap::editsSince(std::uint64_t version, std::vector<TileEdit>& out) const {
  if (version >= m_version) return true;
  // Entries of the versions up to m_forgotten may have been overwritten (a list edit's entries
  // share one version).
  if (version < m_forgotten) return false;
  const std::size_t size = m_journal.size();
  auto at = [&](std::size_t i) -> const TileEdit& { return m_journal[(m_journalStart + i) % size]; };
  std::size_t first = 0, last = size;  // the first entry newer than `version`
  while (first < last) {
    const std::size_t middle = first + (last - first) / 2;
    if (at(middle).version <= version) {
      first = middle + 1;
    } else {
      last = middle;
    }
  }
  for (std::size_t i = first; i < size; ++i) out.push_back(at(i));
  return true;
}

Status TileMap::setTerrain(Cell cell, TerrainId terrain) { return setTerrain(cell, cell, terrain); }

Status TileMap::setTerrain(Cell low, Cell high, TerrainId terrain) {
  if (!contains(low) || !contains(high)) return Status::OutOfBounds;
  if (!m_terrain.valid(terrain) || low.x > high.x || low.y > high.y) return Status::InvalidArgument;
  for (std::int32_t y = low.y; y <= high.y; ++y) {
    std::fill_n(m_tiles.begin() + std::ptrdiff_t(index({low.x, y})), high.x - low.x + 1, terrain);
  }
  journal({++m_version, low, high, false, terrain});
  return Status::Ok;
}

Status TileMap::setTerrain(std::span<const Cell> cells, TerrainId terrain) {
  if (!m_terrain.valid(terrain)) return Status::InvalidArgument;
  for (const Cell cell : cells) {
    if (!contains(cell)) return Status::OutOfBounds;
  }
  if (cells.empty()) return Status::Ok;
  ++m_version;
  for (const Cell cell : cells) {
    m_tiles[std::size_t(index(cell))] = terrain;
    journal({m_version, cell, cell, false, terrain});
  }
  return Status::Ok;
}

Status TileMap::setTerrainCost(TerrainId terrain, MobilityId mobility, float cost) {
  const Status status = cost == TerrainTable::kImpassable ? m_terrain.clearCost(terrain, mobility)
                                                          : m_terrain.setCost(terrain, mobility, cost);
  if (status == Status::Ok) journal({++m_version, Cell{0, 0}, Cell{0, 0}, true, terrain});
  return status;
}

}  // namespace rpgnav
