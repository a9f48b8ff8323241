// SPDX-License-Identifier: MIT
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

namespace {

// Steps of a layout as padded index offsets are not uniform on hex maps (they depend on the row
// or column parity), so per-tile work goes through the layout's tables.
constexpr std::int32_t kJumpDirections = 4;

// A straight entry that stops a diagonal jump at its tile: a jump point ahead, or maybe one
// beyond 32767 tiles.
constexpr bool stopsOnJumpPoint(std::int16_t entry) noexcept { return entry > 0 || entry == SearchGrid::kJumpFar; }

}  // namespace

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

namespace {

// The masks of SearchGrid::canonicalSuccessors for a 3 × 3 window of cost classes (numbered
// 3 × (dy + 1) + dx + 1 round the centre 4; 0 closed; the centre open), one byte per way in.
std::uint64_t canonicalMasks(const std::uint8_t (&window)[9], const SearchGrid& grid) {
  std::uint64_t masks = 0;
  for (int arrival = 0; arrival < 8; ++arrival) {
    const int from = 3 * (1 - SearchGrid::kCodeDy[arrival]) + 1 - SearchGrid::kCodeDx[arrival];
    std::uint64_t mask = 0xff;  // (no route comes in from a closed tile: never read)
    if (window[from] != 0) {
      // Dijkstra over the window from `from`: per tile the cost, whether the last step is
      // straight, and whether it comes from the centre; ties as canonicalSuccessors() says.
      constexpr std::int64_t kUnreached = std::numeric_limits<std::int64_t>::max();
      std::int64_t cost[9];
      bool straightLast[9] = {}, viaCentre[9] = {}, done[9] = {};
      std::fill(cost, cost + 9, kUnreached);
      cost[from] = 0;
      for (int round = 0; round < 9; ++round) {
        int u = -1;
        for (int t = 0; t < 9; ++t) {
          if (!done[t] && cost[t] != kUnreached && (u < 0 || cost[t] < cost[u])) u = t;
        }
        if (u < 0) break;
        done[u] = true;
        const int ux = u % 3, uy = u / 3;
        for (int v = 0; v < 9; ++v) {
          const int vx = v % 3, vy = v / 3;
          if (done[v] || window[v] == 0 || std::abs(vx - ux) > 1 || std::abs(vy - uy) > 1) continue;
          const bool diagonal = vx != ux && vy != uy;
          // No corner cutting: both tiles beside a diagonal step open.
          if (diagonal && (window[3 * uy + vx] == 0 || window[3 * vy + ux] == 0)) continue;
          const std::int64_t through = cost[u] + grid.stepCost(window[u], window[v], diagonal);
          const bool better = through < cost[v] ||
                              (through == cost[v] && ((!diagonal && !straightLast[v]) ||
                                                      (!diagonal == straightLast[v] && u == 4 && !viaCentre[v])));
          if (!better) continue;
          cost[v] = through;
          straightLast[v] = !diagonal;
          viaCentre[v] = u == 4;
        }
      }
      mask = 0;
      for (int code = 0; code < 8; ++code) {
        if (viaCentre[3 * (1 + SearchGrid::kCodeDy[code]) + 1 + SearchGrid::kCodeDx[code]]) mask |= 1u << code;
      }
    }
    masks |= mask << (8 * arrival);
  }
  return masks;
}

// The masks of SearchGrid::canonicalSuccessors on hex maps for a tile's window: the classes of
// its six neighbours in the direction table's order, then its own (open), one byte per way in
// (bytes 6 and 7 unused: every bit set). A route that entered the tile c by a step of direction e
// came from p = c + D(e+3), whose neighbours in the window are c and the ring tiles e+2 and e-2.
// A neighbour n = c + D(f) is a canonical successor when the way p → c → n, 2h(c) beyond p's and
// n's halves, is cheaper than both ways round c's ring (the ring tiles in between, 2h each), or
// as cheap and preferred: the way through c is, except that for f = e-1 the two steps [e-1, e]
// by way of ring tile e-2 are preferred to [e, e-1] — the order the uniform runs follow (a run
// turns by +1 sixth, never back; hex_jumps.cpp). f = e±2 are neighbours of p (the direct step is
// strictly cheaper) and f = e+3 is p itself: never successors.
std::uint64_t canonicalHexMasks(const std::uint8_t (&window)[7], const SearchGrid& grid) {
  constexpr std::int64_t kClosed = std::numeric_limits<std::int64_t>::max() / 4;
  auto twice = [&](int ring) {  // 2h of ring tile `ring`, or "closed"
    const std::uint8_t c = window[ring];
    return c == 0 ? kClosed : 2 * grid.halfStraight(c);
  };
  auto roundAbout = [&](std::initializer_list<int> rings) {  // 2h summed over ring tiles in between
    std::int64_t sum = 0;
    for (const int ring : rings) sum += twice(ring);
    return std::min(sum, kClosed);
  };
  const std::int64_t through = 2 * grid.halfStraight(window[6]);
  std::uint64_t masks = ~std::uint64_t(0);
  for (int e = 0; e < 6; ++e) {
    auto at = [e](int by) { return HexDirections::turn(e, by); };
    std::uint64_t mask = 0xff;  // (no route comes in from a closed tile: never read)
    if (window[at(3)] != 0) {
      mask = 0;
      for (const int by : {-1, 0, 1}) {
        if (window[at(by)] == 0) continue;
        const std::int64_t right = by == 1   ? roundAbout({at(2)})
                                   : by == 0 ? roundAbout({at(2), at(1)})
                                             : roundAbout({at(2), at(1), at(0)});
        const std::int64_t left = by == 1   ? roundAbout({at(-2), at(-1), at(0)})
                                  : by == 0 ? roundAbout({at(-2), at(-1)})
                                            : roundAbout({at(-2)});
        const bool canonical = through < std::min(left, right) || (through == std::min(left, right) && !(by == -1 && left == through));
        if (canonical) mask |= 1u << at(by);
      }
    }
    masks = (masks & ~(std::uint64_t(0xff) << (8 * e))) | (mask << (8 * e));
  }
  return masks;
}

}  // namespace

void SearchGrid::refreshSuccessors(std::size_t index) {
  // Every way (0xff) on a closed tile, a uniform one and one near a gate (expanded step by step):
  // a jump that ends there leads on, which the search then learns from this one byte.
  if (m_class[index] == 0 || m_uniform[index] != 0 || m_nearGate[index] != 0) {
    std::fill_n(m_successors.begin() + std::ptrdiff_t(index * 8), 8, std::uint8_t(0xff));
    return;
  }
  const std::int32_t pw = paddedWidth();
  // Windows repeat (a few costs, patches of each): their masks are kept per window while the
  // classes' costs stay (readCosts forgets them), keyed by the window's classes when each fits
  // in 7 bits (nine on squares; seven on hexes, marked by bit 63).
  std::uint64_t key = 0;
  bool keyed = true;
  const bool hex = m_layout.isHex();
  std::uint8_t window[9];
  std::uint8_t hexWindow[7];
  if (hex) {
    const auto& around = m_hex.padded[m_hex.shifted(cellOf(std::int32_t(index)))];
    for (int k = 0; k < 7; ++k) {
      hexWindow[k] = m_class[k < 6 ? std::size_t(std::int32_t(index) + around[std::size_t(k)]) : index];
      keyed = keyed && hexWindow[k] < 128;
      key |= std::uint64_t(hexWindow[k] & 127) << (7 * k);
    }
    key |= std::uint64_t(1) << 63;
  } else {
    for (std::int32_t dy = -1; dy <= 1; ++dy) {
      for (std::int32_t dx = -1; dx <= 1; ++dx) {
        const int k = 3 * (dy + 1) + dx + 1;
        window[k] = m_class[index + std::size_t(dy * pw + dx)];
        keyed = keyed && window[k] < 128;
        key |= std::uint64_t(window[k] & 127) << (7 * k);
      }
    }
  }
  std::uint64_t masks;
  if (const auto known = keyed ? m_successorCache.find(key) : m_successorCache.end(); known != m_successorCache.end()) {
    masks = known->second;
  } else {
    masks = hex ? canonicalHexMasks(hexWindow, *this) : canonicalMasks(window, *this);
    // (A cache: bounded, so a map of many costs in many mixes holds no more than about 2 MB.)
    if (m_successorCache.size() >= kSuccessorCacheLimit) m_successorCache.clear();
    if (keyed) m_successorCache.emplace(key, masks);
  }
  for (int arrival = 0; arrival < 8; ++arrival) m_successors[index * 8 + std::size_t(arrival)] = std::uint8_t(masks >> (8 * arrival));
}

void SearchGrid::fillSuccessors() {
  // Worked out only where costs change away from gates (every other tile keeps 0xff, which
  // refreshTile writes back when a tile's flags turn): on a map of one cost that just got a
  // second one, a few tiles.
  m_successors.assign(std::size_t(paddedCount()) * 8, 0xff);
  for (std::int32_t y = 0; y < m_height; ++y) {
    for (std::int32_t x = 0; x < m_width; ++x) {
      const std::size_t index = std::size_t(padded({x, y}));
      if (m_uniform[index] == 0) refreshSuccessors(index);
    }
  }
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

void SearchGrid::buildDiagonalBits() {
  const std::int32_t lines = m_width + m_height - 1;
  // Diagonal `line` of a family: its first tile's y and its length.
  auto span = [&](int family, std::int32_t line) {
    const std::int32_t c = family == 0 ? line - (m_height - 1) : line;  // x - y, or x + y
    const std::int32_t firstY = family == 0 ? std::max(0, -c) : std::max(0, c - (m_width - 1));
    const std::int32_t lastY = family == 0 ? std::min(m_height - 1, m_width - 1 - c) : std::min(m_height - 1, c);
    return std::pair{firstY, lastY - firstY + 1};
  };
  for (int family = 0; family < 2; ++family) {
    std::vector<std::uint32_t>& start = m_diagonalStart[std::size_t(family)];
    start.assign(std::size_t(lines) + 1, 0);
    for (std::int32_t line = 0; line < lines; ++line) {
      start[std::size_t(line) + 1] = start[std::size_t(line)] + 2 * std::uint32_t((span(family, line).second + 2 + 63) / 64);
    }
    // Family 0 serves directions 0 and 3, family 1 directions 1 and 2; the ends of every
    // diagonal (bits 0 and length + 1) are blocked.
    for (const int direction : {family == 0 ? 0 : 1, family == 0 ? 3 : 2}) {
      std::vector<std::uint64_t>& bits = m_diagonalBits[std::size_t(direction)];
      bits.assign(start.back(), 0);
      for (std::int32_t line = 0; line < lines; ++line) {
        std::uint64_t* words = bits.data() + start[std::size_t(line)];
        const std::int32_t end = span(family, line).second + 1;
        words[1] |= 1;
        words[2 * (end >> 6) + 1] |= std::uint64_t(1) << (end & 63);
      }
    }
  }
  refreshAllDiagonalBits();
}

void SearchGrid::refreshAllDiagonalBits() {
  for (std::int32_t y = 0; y < m_height; ++y) {
    for (std::int32_t x = 0; x < m_width; ++x) refreshDiagonalBits({x, y});
  }
  // Each tile's near stop follows from the next tile's along the diagonal: rows in the order
  // that has that tile done first.
  for (int direction = 0; direction < 4; ++direction) {
    const std::int32_t dx = diagonalDx(direction), dy = diagonalDy(direction);
    for (std::int32_t row = 0; row < m_height; ++row) {
      const std::int32_t y = dy > 0 ? m_height - 1 - row : row;
      for (std::int32_t x = 0; x < m_width; ++x) {
        const Cell next{x + dx, y + dy};
        std::int16_t near = -1;  // (past the map's edge: blocked)
        if (contains(next)) {
          const int bits = diagonalBits(next, dx, dy);
          const std::int16_t after = m_jumps[nearStopIndex(padded(next), direction)];
          near = bits != 0                                   ? std::int16_t((bits & 2) != 0 ? -1 : 1)
                 : after == 0 || std::abs(after) == kNearDiagonalReach ? std::int16_t(0)
                 : after > 0                                 ? std::int16_t(after + 1)
                                                             : std::int16_t(after - 1);
        }
        m_jumps[nearStopIndex(padded({x, y}), direction)] = near;
      }
    }
  }
}

void SearchGrid::refreshNearDiagonalStopsBefore(Cell cell, int direction) {
  const std::int32_t dx = diagonalDx(direction), dy = diagonalDy(direction);
  // The first tile with a bit set from `cell` on (itself included), then one step more for each
  // tile back: each tile's stop follows from the one ahead of it. Where a stop comes out as it
  // was, those behind it are as they were too (they follow from it, and the bits between are
  // unchanged, or walked from their own tile); behind a tile with a bit set nothing depends on
  // `cell`.
  std::int32_t bit = 0;
  const std::uint64_t* words = m_diagonalBits[std::size_t(direction)].data() + diagonalOffset(cell, dx, dy, bit);
  auto anyBit = [&](std::int32_t b) { return (((words[2 * (b >> 6)] | words[2 * (b >> 6) + 1]) >> (b & 63)) & 1u) != 0; };
  std::int32_t steps = 0;
  bool blocked = ((words[2 * (bit >> 6) + 1] >> (bit & 63)) & 1u) != 0;
  if (!anyBit(bit)) {
    const DiagonalStop stop = diagonalStop(cell, dx, dy);
    steps = stop.steps;
    blocked = stop.blocked;
  }
  // Back along the diagonal the bit index falls by dy; the bits past the map's ends are set.
  const std::int32_t back = dx + dy * paddedWidth();
  std::int32_t p = padded(cell);
  for (std::int32_t k = 1;; ++k) {
    bit -= dy;
    p -= back;
    ++steps;
    if (!contains({cell.x - k * dx, cell.y - k * dy})) return;
    const std::int16_t near = steps > kNearDiagonalReach ? std::int16_t(0) : std::int16_t(blocked ? -steps : steps);
    std::int16_t& entry = m_jumps[nearStopIndex(p, direction)];
    if (entry == near) return;
    entry = near;
    if (anyBit(bit)) return;
  }
}

unsigned SearchGrid::refreshDiagonalBits(Cell cell) {
  const std::int32_t pw = paddedWidth();
  const std::int32_t p = padded(cell);
  const std::uint8_t* cls = m_class.data();
  const std::int16_t* entries = m_jumps.data() + std::size_t(p) * kJumpRecord;
  unsigned changed = 0;
  for (int direction = 0; direction < 4; ++direction) {
    const std::int32_t dx = diagonalDx(direction), dy = diagonalDy(direction);
    // The step into the tile comes from (-dx, -dy): the tiles beside it are west or east of the
    // tile and north or south of it.
    const bool enterable = cls[p] != 0 && cls[p - dx] != 0 && cls[p - dy * pw] != 0;
    const bool stops = enterable && (m_uniform[std::size_t(p)] == 0 || stopsOnJumpPoint(entries[dx > 0 ? kEast : kWest]) ||
                                     stopsOnJumpPoint(entries[dy > 0 ? kSouth : kNorth]));
    std::int32_t bit = 0;
    std::uint64_t* words =
        m_diagonalBits[std::size_t(direction)].data() + diagonalOffset(cell, dx, dy, bit) + 2 * std::size_t(bit >> 6);
    const std::uint64_t mask = std::uint64_t(1) << (bit & 63);
    const std::uint64_t stopWord = stops ? words[0] | mask : words[0] & ~mask;
    const std::uint64_t blockedWord = enterable ? words[1] & ~mask : words[1] | mask;
    if (stopWord != words[0] || blockedWord != words[1]) changed |= 1u << direction;
    words[0] = stopWord;
    words[1] = blockedWord;
  }
  return changed;
}

int SearchGrid::diagonalBits(Cell cell, std::int32_t dx, std::int32_t dy) const noexcept {
  std::int32_t bit = 0;
  const std::uint64_t* words =
      m_diagonalBits[std::size_t(diagonalIndex(dx, dy))].data() + diagonalOffset(cell, dx, dy, bit) + 2 * std::size_t(bit >> 6);
  return int((words[0] >> (bit & 63)) & 1u) | int(((words[1] >> (bit & 63)) & 1u) << 1);
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

bool SearchGrid::hasJumps() const noexcept {
  return m_layout.kind() == LayoutKind::Square && m_layout.connectivity() == 8;
}

bool SearchGrid::keepsSuccessors() const noexcept { return hasJumps() || m_layout.isHex(); }

void SearchGrid::buildJumpLine(int direction, std::int32_t line, std::int32_t first, std::int32_t last,
                               std::vector<std::int32_t>* stopFlips) {
  // One pass along the line, against the direction, so each tile's entry follows from its
  // neighbour's: stops(p) says whether a jump arriving at p must stop there (not uniform,
  // blocked, or a forced neighbour beside it). Directions: east, west, south, north.
  const std::int32_t pw = paddedWidth(), ph = m_height + 2;
  const std::uint8_t* cls = m_class.data();
  const std::uint8_t* uniform = m_uniform.data();
  const std::int32_t steps[kJumpDirections] = {1, -1, pw, -pw};
  const std::int32_t sides[kJumpDirections] = {pw, pw, 1, 1};
  const std::int32_t step = steps[direction], side = sides[direction];
  auto stops = [&](std::int32_t p) {
    return uniform[p] == 0 || (cls[p + side] != 0 && cls[p - step + side] == 0) ||
           (cls[p - side] != 0 && cls[p - step - side] == 0);
  };
  const bool horizontal = direction < 2;
  const std::int32_t length = horizontal ? pw : ph;
  const std::int32_t paddedLine = line + 1;
  // k runs against the direction (each entry follows from the one ahead of it). An entry reads the
  // tile ahead and the tiles beside itself and ahead, so the changed span [first, last] (padded:
  // +1) reaches the entries from one before it to its end; earlier ones change only through the
  // chain, which stops changing where an entry comes out as it was.
  std::int32_t top = length - 2, bottom = 1;
  if (first != std::numeric_limits<std::int32_t>::min()) {
    const std::int32_t a = first + 1 - 1, b = last + 1;  // padded, one before the span
    top = std::min(top, step > 0 ? b : length - 1 - a);
    bottom = std::max(bottom, step > 0 ? a : length - 1 - b);
  }
  for (std::int32_t k = top; k >= 1; --k) {
    const std::int32_t along = step > 0 ? k : length - 1 - k;
    const std::int32_t t = horizontal ? paddedLine * pw + along : along * pw + paddedLine;
    const std::int32_t next = t + step;
    std::int16_t& entry = m_jumps[std::size_t(t) * kJumpRecord + std::size_t(direction)];
    const std::int16_t was = entry;
    if (cls[next] == 0) {
      entry = -1;
    } else if (stops(next)) {
      entry = 1;
    } else {
      const std::int16_t after = m_jumps[std::size_t(next) * kJumpRecord + std::size_t(direction)];
      // Saturate: beyond 32767 tiles store kJumpFar ("no stop within 32767, look again").
      entry = after == kJumpFar || after == 32767 || after == -32767 ? kJumpFar
              : after > 0                                            ? std::int16_t(after + 1)
                                                                     : std::int16_t(after - 1);
    }
    if (stopFlips != nullptr && stopsOnJumpPoint(entry) != stopsOnJumpPoint(was)) {
      stopFlips->push_back(t);
    }
    if (k < bottom && entry == was) break;
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

void SearchGrid::buildLandmarks() { refreshLandmarks(std::numeric_limits<int>::max()); }

std::size_t SearchGrid::memoryBytes() const noexcept {
  auto bytes = [](const auto& v) { return v.capacity() * sizeof(v[0]); };
  return sizeof(*this) + bytes(m_class) + bytes(m_uniform) + bytes(m_nearGate) + bytes(m_gates) + bytes(m_gateEnds) + bytes(m_gateBucketStart) + bytes(m_gateBucketList) +
         bytes(m_jumps) + bytes(m_diagonalBits[0]) + bytes(m_diagonalBits[1]) + bytes(m_diagonalBits[2]) +
         bytes(m_diagonalBits[3]) + bytes(m_diagonalStart[0]) + bytes(m_diagonalStart[1]) + bytes(m_landmarks) + bytes(m_landmarkDistances) + bytes(m_successors) +
         m_successorCache.bucket_count() * sizeof(void*) + m_successorCache.size() * 4 * sizeof(std::uint64_t) + m_regions.memoryBytes() +
         bytes(m_refresh.nearest) + bytes(m_refresh.distance) + bytes(m_refresh.staged);
}

int SearchGrid::refreshLandmarks(int sweeps) {
  if (landmarksCurrent()) return 0;
  const int budget = sweeps;
  LandmarkRefresh& r = m_refresh;
  if (!r.active || r.version != m_mapVersion) {
    // Start over: landmarks go into the largest region (they bound nothing elsewhere), ties to
    // the region whose first tile comes first in row order, as a fresh build labels them; the
    // first is the tile farthest from that region's first tile, each next one the tile farthest
    // from all chosen so far (farthest-point selection spreads them to the map's extremities,
    // where they work best).
    r = LandmarkRefresh{};
    r.active = true;
    r.version = m_mapVersion;
    std::vector<std::uint8_t> seen(m_regions.labelCount(), 0);
    std::uint32_t bestSize = 0;
    for (std::int32_t y = 0; y < m_height; ++y) {
      for (std::int32_t x = 0; x < m_width; ++x) {
        const std::uint32_t label = m_regions.regionOf({x, y});
        if (label == RegionMap::kNoRegion || seen[label]) continue;
        seen[label] = 1;
        if (m_regions.regionSize(label) > bestSize) {
          bestSize = m_regions.regionSize(label);
          r.seed = padded({x, y});
        }
      }
    }
    if (r.seed < 0) {  // nothing passable: no landmarks
      r.active = false;
      m_landmarkCount = 0;
      m_landmarks.clear();
      m_landmarkDistances.clear();
      m_landmarksStale = false;
      m_landmarkVersion = m_mapVersion;
      return 0;
    }
    r.staged.assign(std::size_t(paddedCount()) * std::size_t(m_settings.landmarks), kLandmarkUnknown);
    r.nearest.assign(std::size_t(paddedCount()), std::numeric_limits<std::int64_t>::max());
  }
  const int count = m_settings.landmarks;
  for (; sweeps > 0 && r.active; --sweeps) {
    if (r.picked.empty() && r.distance.empty()) {
      sweep(r.seed, r.distance);
      continue;
    }
    // Pick the tile maximising the distance to the nearest chosen landmark (ties: lowest index).
    const std::size_t k = r.picked.size();
    std::int32_t pick = r.seed;
    std::int64_t best = -1;
    for (std::int32_t i = 0; i < paddedCount(); ++i) {
      const std::int64_t d = k == 0 ? r.distance[std::size_t(i)] : r.nearest[std::size_t(i)];
      if (r.distance[std::size_t(i)] >= 0 && d > best) {
        best = d;
        pick = i;
      }
    }
    r.picked.push_back(cellOf(pick));
    sweep(pick, r.distance);
    for (std::int32_t i = 0; i < paddedCount(); ++i) {
      const std::int64_t d = r.distance[std::size_t(i)];
      const std::int64_t q = d / kLandmarkQuantum;
      r.staged[std::size_t(i) * std::size_t(count) + k] =
          d < 0 || q >= std::int64_t(kLandmarkUnknown) ? kLandmarkUnknown : std::uint32_t(q);
      if (d >= 0) r.nearest[std::size_t(i)] = std::min(r.nearest[std::size_t(i)], d);
    }
    if (int(r.picked.size()) == count) {
      m_landmarkCount = count;
      m_landmarks = std::move(r.picked);
      m_landmarkDistances = std::move(r.staged);
      m_landmarksStale = false;
      m_landmarkVersion = r.version;
      r = LandmarkRefresh{};
    }
  }
  return budget - sweeps;
}

}  // namespace rpgnav
