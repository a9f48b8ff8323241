// SPDX-License-Identifier: MIT
// The search grid: a map's tiles as the search sees them for one mobility and body (cost classes,
// gates), built and patched in place after edits. The jump table is in jump_table.cpp, canonical
// successors in canonical_successors.cpp, landmarks in landmarks.cpp.
#include "search/search_grid.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <limits>
#include <queue>
#include <unordered_map>
#include <utility>
#include <string>

namespace rpgnav {

std::optional<Error> SearchGrid::readCosts(const TerrainTable& terrain) {
  // One cost class per distinct cost, in terrain order (terrains with equal costs share a class,
  // so a road and a floor of the same cost form one uniform area for jump points).
  m_classOfTerrain.fill(0);
  std::vector<float> classCost{0.0f};
  for (int t = 0; t < terrain.terrainCount(); ++t) {
    const float cost = terrain.cost(TerrainId{std::uint8_t(t)}, m_mobility);
    if (cost == TerrainTable::kImpassable) continue;
    if (cost < kMinSearchCost || cost > kMaxSearchCost) {
      return Error{Status::InvalidArgument, "terrain '" + terrain.terrainName(TerrainId{std::uint8_t(t)}) +
                                                "' costs " + std::to_string(cost) + " for " +
                                                terrain.mobilityName(m_mobility) + "; the search accepts 1/1024..1000"};
    }
    std::size_t c = 1;
    while (c < classCost.size() && classCost[c] != cost) ++c;
    if (c == classCost.size()) classCost.push_back(cost);
    m_classOfTerrain[std::size_t(t)] = std::uint8_t(c);
  }
  m_successorCache.clear();  // (its masks were for the old costs)
  m_halfStraight.fill(0);
  m_halfDiagonal.fill(0);
  m_classCost.fill(0.0f);
  m_minHalfStraight = m_minHalfDiagonal = 0;
  for (std::size_t c = 1; c < classCost.size(); ++c) {
    m_classCost[c] = classCost[c];
    m_halfStraight[c] = halfStraightCost(double(classCost[c]));
    m_halfDiagonal[c] = halfDiagonalCost(double(classCost[c]));
    if (c == 1 || m_halfStraight[c] < m_minHalfStraight) m_minHalfStraight = m_halfStraight[c];
    if (c == 1 || m_halfDiagonal[c] < m_minHalfDiagonal) m_minHalfDiagonal = m_halfDiagonal[c];
  }
  return std::nullopt;
}

void SearchGrid::setClass(std::size_t paddedIndex, std::uint8_t costClass) {
  std::uint8_t& slot = m_class[paddedIndex];
  --m_tilesOfClass[slot];
  ++m_tilesOfClass[costClass];
  slot = costClass;
}

void SearchGrid::countClasses() {
  m_costClasses = 0;
  for (std::size_t c = 1; c < m_tilesOfClass.size(); ++c) m_costClasses += m_tilesOfClass[c] > 0 ? 1 : 0;
}

bool SearchGrid::touchesGate(Cell cell) const noexcept {
  // An end of a gate, or a tile touching one.
  auto isEnd = [&](Cell c) {
    if (!contains(c)) return false;
    const GateEnd key{padded(c), std::numeric_limits<std::int32_t>::min(), 0};
    const auto it = std::lower_bound(m_gateEnds.begin(), m_gateEnds.end(), key);
    return it != m_gateEnds.end() && it->from == key.from;
  };
  if (isEnd(cell)) return true;
  for (const NeighbourStep& step : m_layout.touching(cell)) {
    if (isEnd({cell.x + step.dx, cell.y + step.dy})) return true;
  }
  return false;
}

void SearchGrid::refreshTile(Cell cell) {
  // Gates: both ends and every tile touching them are searched step by step (not uniform), so
  // that no jump crosses a gate or passes its corners without asking the query about it.
  const std::size_t index = std::size_t(padded(cell));
  const bool nearGate = touchesGate(cell);
  m_nearGate[index] = nearGate ? 1 : 0;
  const std::uint8_t own = m_class[index];
  bool uniform = own != 0 && !nearGate;
  for (const NeighbourStep& step : m_layout.touching(cell)) {
    if (!uniform) break;
    const std::uint8_t other = m_class[std::size_t(padded({cell.x + step.dx, cell.y + step.dy}))];
    uniform = other == 0 || other == own;
  }
  m_uniform[index] = uniform ? 1 : 0;
  if (!m_successors.empty()) refreshSuccessors(index);
}

std::optional<Error> SearchGrid::readGates(const TileMap& map, std::span<const SearchGate> gates) {
  std::vector<GateEnd> ends;
  for (std::size_t i = 0; i < gates.size(); ++i) {
    const SearchGate& gate = gates[i];
    if (gate.removed) continue;
    if (!map.contains(gate.a) || !map.contains(gate.b) || !map.layout().sharedEdge(gate.a, gate.b)) {
      return Error{Status::InvalidArgument, "gate " + std::to_string(i) + " is not an edge between two map tiles"};
    }
    const std::int32_t a = padded(gate.a), b = padded(gate.b);
    ends.push_back({a, b, std::int32_t(i)});
    ends.push_back({b, a, std::int32_t(i)});
  }
  std::sort(ends.begin(), ends.end());
  m_gateEnds = std::move(ends);
  m_gates.assign(gates.begin(), gates.end());
  // Buckets for gatesNear(): each gate in every bucket within kGateReach of its tiles.
  m_gateBucketStart.clear();
  m_gateBucketList.clear();
  if (m_gateEnds.empty()) return std::nullopt;
  m_gateBucketsWide = (m_width + kGateBucket - 1) / kGateBucket;
  const std::int32_t bucketsHigh = (m_height + kGateBucket - 1) / kGateBucket;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> entries;  // (bucket, gate)
  for (std::size_t i = 0; i < gates.size(); ++i) {
    if (gates[i].removed) continue;
    const Cell low{std::min(gates[i].a.x, gates[i].b.x) - kGateReach, std::min(gates[i].a.y, gates[i].b.y) - kGateReach};
    const Cell high{std::max(gates[i].a.x, gates[i].b.x) + kGateReach, std::max(gates[i].a.y, gates[i].b.y) + kGateReach};
    for (std::int32_t by = std::max(0, low.y) / kGateBucket; by <= std::min(m_height - 1, high.y) / kGateBucket; ++by) {
      for (std::int32_t bx = std::max(0, low.x) / kGateBucket; bx <= std::min(m_width - 1, high.x) / kGateBucket; ++bx) {
        entries.push_back({std::uint32_t(by * m_gateBucketsWide + bx), std::uint32_t(i)});
      }
    }
  }
  std::sort(entries.begin(), entries.end());
  m_gateBucketStart.assign(std::size_t(m_gateBucketsWide) * std::size_t(bucketsHigh) + 1, 0);
  for (const auto& [bucket, gate] : entries) ++m_gateBucketStart[bucket + 1];
  for (std::size_t b = 1; b < m_gateBucketStart.size(); ++b) m_gateBucketStart[b] += m_gateBucketStart[b - 1];
  for (const auto& entry : entries) m_gateBucketList.push_back(entry.second);
  return std::nullopt;
}

Result<SearchGrid> SearchGrid::build(const TileMap& map, MobilityId mobility, const SearchGridSettings& settings,
                                     std::span<const SearchGate> gates) {
  const TerrainTable& terrain = map.terrain();
  if (!terrain.valid(mobility)) return Error{Status::InvalidArgument, "unknown mobility"};
  if (settings.landmarks < 0 || settings.landmarks > kMaxLandmarks) {
    return Error{Status::InvalidArgument, "landmarks must be 0.." + std::to_string(kMaxLandmarks)};
  }
  if (!(settings.clearance >= 0.0f && settings.clearance < 0.5f)) {
    return Error{Status::InvalidArgument, "clearance must be at least 0 and under half a tile"};
  }
  SearchGrid grid;
  grid.m_layout = map.layout();
  grid.m_width = map.width();
  grid.m_height = map.height();
  grid.m_mobility = mobility;
  grid.m_mapVersion = map.version();
  grid.m_settings = settings;
  grid.m_closesNarrowGaps = map.layout().isHex() && settings.clearance >= kHexHalfEdge;
  if (auto error = grid.readCosts(terrain)) return *error;
  if (auto error = grid.readGates(map, gates)) return *error;

  const std::int32_t pw = grid.paddedWidth();
  grid.m_class.assign(std::size_t(grid.paddedCount()), 0);
  grid.m_tilesOfClass.fill(0);
  grid.m_tilesOfClass[0] = std::uint32_t(grid.paddedCount());
  for (std::int32_t y = 0; y < map.height(); ++y) {
    for (std::int32_t x = 0; x < map.width(); ++x) {
      grid.setClass(std::size_t((y + 1) * pw + x + 1), grid.m_classOfTerrain[map.terrainAt({x, y}).value]);
    }
  }
  grid.countClasses();
  grid.m_uniform.assign(std::size_t(grid.paddedCount()), 0);
  grid.m_nearGate.assign(std::size_t(grid.paddedCount()), 0);
  for (std::int32_t y = 0; y < map.height(); ++y) {
    for (std::int32_t x = 0; x < map.width(); ++x) grid.refreshTile({x, y});
  }
  grid.m_regions = RegionMap::compute(map, mobility);
  if (grid.m_layout.isHex()) grid.m_hex = HexDirections(grid.m_layout, grid.paddedWidth());
  if (grid.keepsSuccessors() && grid.m_costClasses > 1) grid.fillSuccessors();
  if (grid.hasJumps()) {
    grid.m_jumps.assign(std::size_t(grid.paddedCount()) * kJumpRecord, -1);
    for (int d = 0; d < kJumpDirections; ++d) {
      const std::int32_t lines = d < 2 ? grid.m_height : grid.m_width;
      for (std::int32_t line = 0; line < lines; ++line) grid.buildJumpLine(d, line);
    }
    grid.buildDiagonalBits();
  }
  if (grid.m_layout.isHex()) {
    grid.buildHexJumps();
    grid.buildHexStopBits();
  }
  if (settings.landmarks > 0) grid.buildLandmarks();
  return grid;
}

std::optional<Error> SearchGrid::update(const TileMap& map, std::span<const TileRect> rects, bool costsChanged) {
  if (map.width() != m_width || map.height() != m_height || !(map.layout() == m_layout)) {
    return Error{Status::InvalidArgument, "the map's size or layout is not the grid's"};
  }
  // The tiles whose class changed, and what that means: passability flips go to the regions, and
  // a tile that became cheaper or passable makes the landmark distances overestimate.
  std::vector<Cell> changed, flipped;
  bool cheaper = false;
  if (costsChanged) {
    // Class numbering follows the terrain table; read it again and every tile with it, noting the
    // tiles whose cost (not merely class number) changed.
    const std::array<float, 256> oldClassCost = m_classCost;
    if (auto error = readCosts(map.terrain())) return error;
    for (std::int32_t y = 0; y < m_height; ++y) {
      for (std::int32_t x = 0; x < m_width; ++x) {
        const std::size_t index = std::size_t(padded({x, y}));
        const std::uint8_t before = m_class[index], after = m_classOfTerrain[map.terrainAt({x, y}).value];
        if (before == after && oldClassCost[before] == m_classCost[after]) continue;
        const float was = oldClassCost[before], now = m_classCost[after];
        setClass(index, after);
        if (was == now) continue;  // renumbered only
        changed.push_back({x, y});
        if ((before == 0) != (after == 0)) flipped.push_back({x, y});
        cheaper = cheaper || before == 0 || (after != 0 && now < was);
      }
    }
  }
  for (const TileRect& rect : rects) {
    for (std::int32_t y = std::max(rect.low.y, 0); y <= std::min(rect.high.y, m_height - 1); ++y) {
      for (std::int32_t x = std::max(rect.low.x, 0); x <= std::min(rect.high.x, m_width - 1); ++x) {
        const std::size_t index = std::size_t(padded({x, y}));
        const std::uint8_t before = m_class[index], after = m_classOfTerrain[map.terrainAt({x, y}).value];
        if (before == after) continue;
        setClass(index, after);
        changed.push_back({x, y});
        if ((before == 0) != (after == 0)) flipped.push_back({x, y});
        cheaper = cheaper || before == 0 || (after != 0 && m_classCost[after] < m_classCost[before]);
      }
    }
  }
  countClasses();
  // A refreshed tile's masks follow its neighbours' (refreshTile); the first edit that gives the
  // map a second cost makes them all.
  if (keepsSuccessors() && m_costClasses > 1 && m_successors.empty()) fillSuccessors();
  refreshAround(changed);
  m_regions.update(map, flipped);
  if (cheaper) m_landmarksStale = true;
  m_mapVersion = map.version();
  return std::nullopt;
}

void SearchGrid::refreshAround(std::span<const Cell> cells) {
  if (cells.empty()) return;
  // Each changed tile's uniform flag depends on its neighbours, and theirs on it; jumps along a
  // line depend on the flags and classes of that line and the two beside it.
  // Per row and column, the span of positions whose tiles or flags changed (the changed tiles and
  // their neighbours): the jump entries there and before them along each direction may change.
  constexpr std::int32_t kNone = std::numeric_limits<std::int32_t>::max();
  std::vector<std::pair<std::int32_t, std::int32_t>> rows(std::size_t(m_height), {kNone, -1}),
      columns(std::size_t(m_width), {kNone, -1});
  auto widen = [](std::pair<std::int32_t, std::int32_t>& span, std::int32_t low, std::int32_t high) {
    span.first = std::min(span.first, low);
    span.second = std::max(span.second, high);
  };
  for (const Cell cell : cells) {
    refreshTile(cell);
    for (const NeighbourStep& step : m_layout.touching(cell)) {
      const Cell next{cell.x + step.dx, cell.y + step.dy};
      if (contains(next)) refreshTile(next);
    }
    for (std::int32_t d = -1; d <= 1; ++d) {
      if (cell.y + d >= 0 && cell.y + d < m_height) widen(rows[std::size_t(cell.y + d)], cell.x - 1, cell.x + 1);
      if (cell.x + d >= 0 && cell.x + d < m_width) widen(columns[std::size_t(cell.x + d)], cell.y - 1, cell.y + 1);
    }
  }
  if (m_layout.isHex()) refreshHexJumps(cells);
  if (!hasJumps()) return;
  std::vector<std::int32_t> stopFlips;
  for (std::int32_t y = 0; y < m_height; ++y) {
    const auto [first, last] = rows[std::size_t(y)];
    if (first > last) continue;
    buildJumpLine(0, y, first, last, &stopFlips);
    buildJumpLine(1, y, first, last, &stopFlips);
  }
  for (std::int32_t x = 0; x < m_width; ++x) {
    const auto [first, last] = columns[std::size_t(x)];
    if (first > last) continue;
    buildJumpLine(2, x, first, last, &stopFlips);
    buildJumpLine(3, x, first, last, &stopFlips);
  }
  // A tile's diagonal bits read its class and uniform flag, the classes of the tiles west or
  // east and north or south of it, and its straight entries: the bits within a tile of a changed
  // one (the neighbours' uniform flags are their own) change, and where a straight entry flipped.
  // (When that is most of the map, every tile once is less work.)
  if (cells.size() * 9 + stopFlips.size() >= std::size_t(m_width) * std::size_t(m_height)) {
    refreshAllDiagonalBits();
    return;
  }
  // Then the near diagonal stops before each tile whose bits changed (all bits first: a stop
  // reads the bits ahead of it).
  std::vector<std::pair<Cell, unsigned>> changed;
  auto refreshBits = [&](Cell cell) {
    if (const unsigned directions = refreshDiagonalBits(cell); directions != 0) changed.emplace_back(cell, directions);
  };
  for (const Cell cell : cells) {
    for (std::int32_t dy = -1; dy <= 1; ++dy) {
      for (std::int32_t dx = -1; dx <= 1; ++dx) {
        const Cell near{cell.x + dx, cell.y + dy};
        if (contains(near)) refreshBits(near);
      }
    }
  }
  for (const std::int32_t tile : stopFlips) refreshBits(cellOf(tile));
  for (const auto& [cell, directions] : changed) {
    for (int direction = 0; direction < 4; ++direction) {
      if ((directions >> direction) & 1u) refreshNearDiagonalStopsBefore(cell, direction);
    }
  }
}

std::optional<Error> SearchGrid::setGates(const TileMap& map, std::span<const SearchGate> gates) {
  // The tiles at the ends of gates that came, went or moved, and those touching them.
  std::vector<Cell> ends;
  for (std::size_t i = 0; i < std::max(gates.size(), m_gates.size()); ++i) {
    const SearchGate none{{0, 0}, {0, 0}, true};
    const SearchGate& before = i < m_gates.size() ? m_gates[i] : none;
    const SearchGate& after = i < gates.size() ? gates[i] : none;
    if (before.removed == after.removed && (before.removed || (before.a == after.a && before.b == after.b))) continue;
    for (const SearchGate* gate : {&before, &after}) {
      if (gate->removed) continue;
      for (const Cell end : {gate->a, gate->b}) {
        if (contains(end)) ends.push_back(end);
      }
    }
  }
  if (auto error = readGates(map, gates)) return error;
  refreshAround(ends);
  return std::nullopt;
}

std::int32_t SearchGrid::gateBetween(std::int32_t fromPadded, std::int32_t toPadded) const noexcept {
  const GateEnd key{fromPadded, toPadded, 0};
  const auto it = std::lower_bound(m_gateEnds.begin(), m_gateEnds.end(), key);
  return it != m_gateEnds.end() && it->from == fromPadded && it->to == toPadded ? it->gate : -1;
}

std::size_t SearchGrid::memoryBytes() const noexcept {
  auto bytes = [](const auto& v) { return v.capacity() * sizeof(v[0]); };
  return sizeof(*this) + bytes(m_class) + bytes(m_uniform) + bytes(m_nearGate) + bytes(m_gates) + bytes(m_gateEnds) + bytes(m_gateBucketStart) + bytes(m_gateBucketList) +
         bytes(m_jumps) + bytes(m_diagonalBits[0]) + bytes(m_diagonalBits[1]) + bytes(m_diagonalBits[2]) +
         bytes(m_diagonalBits[3]) + bytes(m_diagonalStart[0]) + bytes(m_diagonalStart[1]) + bytes(m_landmarks) + bytes(m_landmarkDistances) + bytes(m_successors) +
         m_successorCache.bucket_count() * sizeof(void*) + m_successorCache.size() * 4 * sizeof(std::uint64_t) + m_regions.memoryBytes() +
         bytes(m_refresh.nearest) + bytes(m_refresh.distance) + bytes(m_refresh.staged);
}

}  // namespace rpgnav
