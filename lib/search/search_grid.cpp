// SPDX-License-Identifier: MIT
#include "rpgnav/search/search_grid.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <utility>
#include <string>

namespace rpgnav {

Result<SearchGrid> SearchGrid::build(const TileMap& map, MobilityId mobility, const SearchGridSettings& settings,
                                     std::span<const SearchGate> gates) {
  const TerrainTable& terrain = map.terrain();
  if (!terrain.valid(mobility)) return Error{Status::InvalidArgument, "unknown mobility"};
  if (settings.landmarks < 0 || settings.landmarks > 16) {
    return Error{Status::InvalidArgument, "landmarks must be 0..16"};
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
  grid.m_closesNarrowGaps = map.layout().isHex() && settings.clearance >= kHexHalfEdge;

  // One cost class per distinct cost (terrains with equal costs share a class, so a road and a
  // floor of the same cost form one uniform area for jump points).
  std::array<std::uint8_t, 256> classOfTerrain{};
  std::vector<float> classCost{0.0f};
  for (int t = 0; t < terrain.terrainCount(); ++t) {
    const float cost = terrain.cost(TerrainId{std::uint8_t(t)}, mobility);
    if (cost == TerrainTable::kImpassable) continue;
    if (cost < kMinSearchCost || cost > kMaxSearchCost) {
      return Error{Status::InvalidArgument, "terrain '" + terrain.terrainName(TerrainId{std::uint8_t(t)}) +
                                                "' costs " + std::to_string(cost) + " for " +
                                                terrain.mobilityName(mobility) + "; the search accepts 1/1024..1000"};
    }
    std::size_t c = 1;
    while (c < classCost.size() && classCost[c] != cost) ++c;
    if (c == classCost.size()) classCost.push_back(cost);
    classOfTerrain[std::size_t(t)] = std::uint8_t(c);
  }
  grid.m_minHalfStraight = grid.m_minHalfDiagonal = 0;
  for (std::size_t c = 1; c < classCost.size(); ++c) {
    grid.m_halfStraight[c] = std::llround(0.5 * double(classCost[c]) * double(kCostScale));
    grid.m_halfDiagonal[c] = std::llround(0.5 * double(classCost[c]) * std::sqrt(2.0) * double(kCostScale));
    if (c == 1 || grid.m_halfStraight[c] < grid.m_minHalfStraight) grid.m_minHalfStraight = grid.m_halfStraight[c];
    if (c == 1 || grid.m_halfDiagonal[c] < grid.m_minHalfDiagonal) grid.m_minHalfDiagonal = grid.m_halfDiagonal[c];
  }

  const std::int32_t pw = grid.paddedWidth();
  grid.m_class.assign(std::size_t(grid.paddedCount()), 0);
  grid.m_uniform.assign(std::size_t(grid.paddedCount()), 0);
  std::array<bool, 256> present{};
  for (std::int32_t y = 0; y < map.height(); ++y) {
    for (std::int32_t x = 0; x < map.width(); ++x) {
      const std::uint8_t costClass = classOfTerrain[map.terrainAt({x, y}).value];
      grid.m_class[std::size_t((y + 1) * pw + x + 1)] = costClass;
      present[costClass] = true;
    }
  }
  for (std::size_t c = 1; c < present.size(); ++c) grid.m_costClasses += present[c] ? 1 : 0;
  for (std::int32_t y = 0; y < map.height(); ++y) {
    for (std::int32_t x = 0; x < map.width(); ++x) {
      const Cell cell{x, y};
      const std::uint8_t own = grid.m_class[std::size_t(grid.padded(cell))];
      if (own == 0) continue;
      bool uniform = true;
      for (const NeighbourStep& step : map.layout().touching(cell)) {
        const std::uint8_t other = grid.m_class[std::size_t(grid.padded({x + step.dx, y + step.dy}))];
        uniform = uniform && (other == 0 || other == own);
      }
      grid.m_uniform[std::size_t(grid.padded(cell))] = uniform ? 1 : 0;
    }
  }
  // Gates: both ends and every tile touching them are searched step by step (not uniform), so
  // that no jump crosses a gate or passes its corners without asking the query about it.
  grid.m_gateCount = gates.size();
  grid.m_nearGate.assign(std::size_t(grid.paddedCount()), 0);
  for (std::size_t i = 0; i < gates.size(); ++i) {
    const SearchGate& gate = gates[i];
    if (!map.contains(gate.a) || !map.contains(gate.b) || !map.layout().sharedEdge(gate.a, gate.b)) {
      return Error{Status::InvalidArgument, "gate " + std::to_string(i) + " is not an edge between two map tiles"};
    }
    const std::int32_t a = grid.padded(gate.a), b = grid.padded(gate.b);
    grid.m_gateEnds.push_back({a, b, std::int32_t(i)});
    grid.m_gateEnds.push_back({b, a, std::int32_t(i)});
    for (const Cell end : {gate.a, gate.b}) {
      grid.m_nearGate[std::size_t(grid.padded(end))] = 1;
      grid.m_uniform[std::size_t(grid.padded(end))] = 0;
      for (const NeighbourStep& step : map.layout().touching(end)) {
        const std::size_t near = std::size_t(grid.padded({end.x + step.dx, end.y + step.dy}));
        grid.m_nearGate[near] = 1;
        grid.m_uniform[near] = 0;
      }
    }
  }
  std::sort(grid.m_gateEnds.begin(), grid.m_gateEnds.end());
  grid.m_regions = RegionMap::compute(map, mobility);

  if (grid.m_layout.kind() == LayoutKind::Square && grid.m_layout.connectivity() == 8) grid.buildJumps();
  if (settings.landmarks > 0) grid.buildLandmarks(settings.landmarks);
  return grid;
}

std::int32_t SearchGrid::gateBetween(std::int32_t fromPadded, std::int32_t toPadded) const noexcept {
  const GateEnd key{fromPadded, toPadded, 0};
  const auto it = std::lower_bound(m_gateEnds.begin(), m_gateEnds.end(), key);
  return it != m_gateEnds.end() && it->from == fromPadded && it->to == toPadded ? it->gate : -1;
}

void SearchGrid::buildJumps() {
  // One pass per line and direction, walking against the direction so each tile's entry follows
  // from its neighbour's: stop(p) says whether a jump arriving at p must stop there.
  const std::int32_t pw = paddedWidth(), ph = m_height + 2;
  m_jumps.assign(std::size_t(paddedCount()) * 4, -1);
  const std::uint8_t* cls = m_class.data();
  const std::uint8_t* uniform = m_uniform.data();
  struct Direction {
    std::int32_t step, side;  // index offsets: along the line, and to the side lines
  };
  const Direction directions[4] = {{1, pw}, {-1, pw}, {pw, 1}, {-pw, 1}};
  for (int d = 0; d < 4; ++d) {
    const std::int32_t step = directions[d].step, side = directions[d].side;
    auto stops = [&](std::int32_t p) {
      return uniform[p] == 0 || (cls[p + side] != 0 && cls[p - step + side] == 0) ||
             (cls[p - side] != 0 && cls[p - step - side] == 0);
    };
    // Each line is walked from its far end back towards its start.
    const bool horizontal = d < 2;
    const std::int32_t lines = horizontal ? ph : pw, length = horizontal ? pw : ph;
    for (std::int32_t line = 1; line < lines - 1; ++line) {
      for (std::int32_t k = length - 2; k >= 1; --k) {
        const std::int32_t along = step > 0 ? k : length - 1 - k;
        const std::int32_t t = horizontal ? line * pw + along : along * pw + line;
        const std::int32_t next = t + step;
        std::int16_t& entry = m_jumps[std::size_t(t) * 4 + std::size_t(d)];
        if (cls[next] == 0) {
          entry = -1;
        } else if (stops(next)) {
          entry = 1;
        } else {
          const std::int16_t after = m_jumps[std::size_t(next) * 4 + std::size_t(d)];
          // Saturate: beyond 32767 tiles store kJumpFar ("no stop within 32767, look again").
          entry = after == kJumpFar || after == 32767 || after == -32767 ? kJumpFar
                  : after > 0                                            ? std::int16_t(after + 1)
                                                                         : std::int16_t(after - 1);
        }
      }
    }
  }
}

void SearchGrid::sweep(std::int32_t source, std::vector<std::int64_t>& distance) const {
  distance.assign(std::size_t(paddedCount()), -1);
  using Item = std::pair<std::int64_t, std::int32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
  distance[std::size_t(source)] = 0;
  open.push({0, source});
  const std::int32_t pw = paddedWidth();
  while (!open.empty()) {
    const auto [d, v] = open.top();
    open.pop();
    if (d != distance[std::size_t(v)]) continue;
    const auto moves = m_layout.moves(cellOf(v));
    for (const NeighbourStep& step : moves) {
      const std::int32_t u = v + step.dx + step.dy * pw;
      if (m_class[std::size_t(u)] == 0) continue;
      if (!step.sharesEdge) {  // diagonal: the same two orthogonal tiles gate both directions
        const NeighbourStep& a = moves[std::size_t(step.requiresA)];
        const NeighbourStep& b = moves[std::size_t(step.requiresB)];
        if (m_class[std::size_t(v + a.dx + a.dy * pw)] == 0 || m_class[std::size_t(v + b.dx + b.dy * pw)] == 0) continue;
      }
      const std::int64_t next = d + stepCost(m_class[std::size_t(v)], m_class[std::size_t(u)], !step.sharesEdge);
      std::int64_t& slot = distance[std::size_t(u)];
      if (slot < 0 || next < slot) {
        slot = next;
        open.push({next, u});
      }
    }
  }
}

void SearchGrid::buildLandmarks(int count) {
  // Landmarks go into the largest region (they bound nothing elsewhere): the first is the tile
  // farthest from that region's first tile, each next one the tile farthest from all chosen so
  // far (farthest-point selection spreads them to the map's extremities, where they work best).
  std::uint32_t largest = RegionMap::kNoRegion;
  for (std::uint32_t r = 0; r < m_regions.regionCount(); ++r) {
    if (largest == RegionMap::kNoRegion || m_regions.regionSize(r) > m_regions.regionSize(largest)) largest = r;
  }
  if (largest == RegionMap::kNoRegion) return;
  std::int32_t seed = -1;
  for (std::int32_t y = 0; y < m_height && seed < 0; ++y) {
    for (std::int32_t x = 0; x < m_width && seed < 0; ++x) {
      if (m_regions.regionOf({x, y}) == largest) seed = padded({x, y});
    }
  }
  m_landmarkCount = count;
  m_landmarkDistances.assign(std::size_t(paddedCount()) * std::size_t(count), kLandmarkUnknown);
  std::vector<std::int64_t> nearest(std::size_t(paddedCount()), std::numeric_limits<std::int64_t>::max());
  std::vector<std::int64_t> distance;
  sweep(seed, distance);
  for (int k = 0; k < count; ++k) {
    // Pick the tile maximising the distance to the nearest chosen landmark (ties: lowest index).
    std::int32_t pick = seed;
    std::int64_t best = -1;
    for (std::int32_t i = 0; i < paddedCount(); ++i) {
      const std::int64_t d = k == 0 ? distance[std::size_t(i)] : nearest[std::size_t(i)];
      if (distance[std::size_t(i)] >= 0 && d > best) {
        best = d;
        pick = i;
      }
    }
    m_landmarks.push_back(cellOf(pick));
    sweep(pick, distance);
    for (std::int32_t i = 0; i < paddedCount(); ++i) {
      const std::int64_t d = distance[std::size_t(i)];
      const std::int64_t q = d / kLandmarkQuantum;
      m_landmarkDistances[std::size_t(i) * std::size_t(count) + std::size_t(k)] =
          d < 0 || q >= std::int64_t(kLandmarkUnknown) ? kLandmarkUnknown : std::uint32_t(q);
      if (d >= 0) nearest[std::size_t(i)] = std::min(nearest[std::size_t(i)], d);
    }
  }
}

}  // namespace rpgnav
