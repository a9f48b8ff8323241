// SPDX-License-Identifier: MIT
#include "rpgnav/grid/regions.hpp"

#include <algorithm>

namespace rpgnav {

struct RPGNAV_HIDDEN RegionMap::Impl {
  static Impl compute(const TileMap& map, MobilityId mobility);
  void update(const TileMap& map, std::span<const Cell> changed);

  std::int32_t m_width = 0;
  std::int32_t m_height = 0;
  MobilityId m_mobility;
  std::uint64_t m_mapVersion = 0;
  std::vector<std::uint32_t> m_labels;
  std::vector<std::uint32_t> m_sizes;
  std::uint32_t m_regionCount = 0;
  std::vector<std::uint32_t> m_freeLabels;  // labels of size 0 below labelCount(), to reuse

  std::uint32_t& labelAt(const TileMap& map, Cell cell) { return m_labels[std::size_t(map.index(cell))]; }
  std::uint32_t newLabel();
  void dropLabel(std::uint32_t label);
  // After `closed` tiles of region `label` closed: finds its parts and labels all but one anew.
  void splitIfNeeded(const TileMap& map, std::uint32_t label, std::span<const Cell> closed);
  // Relabels every tile of region `from` (connected, holding `seed`) as `to`.
  void relabel(const TileMap& map, Cell seed, std::uint32_t from, std::uint32_t to);
};

RegionMap::Impl RegionMap::Impl::compute(const TileMap& map, MobilityId mobility) {
  Impl regions;
  regions.m_width = map.width();
  regions.m_height = map.height();
  regions.m_mobility = mobility;
  regions.m_mapVersion = map.version();
  regions.m_labels.assign(std::size_t(map.tileCount()), kNoRegion);

  // Flood fill with an explicit stack (no recursion: maps can have millions of tiles). Movement
  // steps are symmetric (a diagonal needs the same two orthogonal tiles both ways), so a fill
  // from any tile finds exactly its region.
  std::vector<std::int32_t> stack;
  for (std::int32_t seed = 0; seed < map.tileCount(); ++seed) {
    if (regions.m_labels[std::size_t(seed)] != kNoRegion) continue;
    const Cell seedCell = map.cellAt(seed);
    if (!map.passable(seedCell, mobility)) continue;
    const auto label = std::uint32_t(regions.m_sizes.size());
    std::uint32_t size = 0;
    regions.m_labels[std::size_t(seed)] = label;
    stack.push_back(seed);
    while (!stack.empty()) {
      const Cell cell = map.cellAt(stack.back());
      stack.pop_back();
      ++size;
      for (const NeighbourStep& step : map.layout().moves(cell)) {
        const Cell next{cell.x + step.dx, cell.y + step.dy};
        if (!map.canStep(cell, step, mobility)) continue;
        std::uint32_t& slot = regions.m_labels[std::size_t(map.index(next))];
        if (slot != kNoRegion) continue;
        slot = label;
        stack.push_back(map.index(next));
      }
    }
    regions.m_sizes.push_back(size);
  }
  regions.m_regionCount = std::uint32_t(regions.m_sizes.size());
  return regions;
}

namespace {

// Steps between tiles that share an edge. They decide connectivity alone: a square diagonal is
// taken only when both orthogonal tiles beside it are open, and then the way through either of
// them joins the same two tiles.
template <class Visit>
void forEdgeNeighbours(const TileMap& map, Cell cell, Visit&& visit) {
  for (const NeighbourStep& step : map.layout().touching(cell)) {
    if (!step.sharesEdge) continue;
    const Cell next{cell.x + step.dx, cell.y + step.dy};
    if (map.contains(next)) visit(next);
  }
}

}  // namespace

std::uint32_t RegionMap::Impl::newLabel() {
  ++m_regionCount;
  if (!m_freeLabels.empty()) {
    const std::uint32_t label = m_freeLabels.back();
    m_freeLabels.pop_back();
    return label;
  }
  m_sizes.push_back(0);
  return std::uint32_t(m_sizes.size() - 1);
}

void RegionMap::Impl::dropLabel(std::uint32_t label) {
  m_sizes[label] = 0;
  --m_regionCount;
  m_freeLabels.push_back(label);
}

void RegionMap::Impl::relabel(const TileMap& map, Cell seed, std::uint32_t from, std::uint32_t to) {
  std::vector<Cell> stack{seed};
  labelAt(map, seed) = to;
  while (!stack.empty()) {
    const Cell cell = stack.back();
    stack.pop_back();
    forEdgeNeighbours(map, cell, [&](Cell next) {
      std::uint32_t& slot = labelAt(map, next);
      if (slot != from) return;
      slot = to;
      stack.push_back(next);
    });
  }
}

void RegionMap::Impl::splitIfNeeded(const TileMap& map, std::uint32_t label, std::span<const Cell> closed) {
  // The region's tiles next to the closed ones: each starts a search of its own.
  std::vector<Cell> seeds;
  for (const Cell cell : closed) {
    forEdgeNeighbours(map, cell, [&](Cell next) {
      if (labelAt(map, next) == label && std::find(seeds.begin(), seeds.end(), next) == seeds.end()) seeds.push_back(next);
    });
  }
  if (seeds.size() <= 1) {
    if (m_sizes[label] == 0) dropLabel(label);
    return;
  }
  // Breadth-first searches from every seed at once, one tile each in turn, each marking what it
  // reaches with a label of its own; searches that meet are merged (union-find over those
  // labels). Stop when at most one merged search can still grow: every other one has found a
  // whole part of the region.
  struct Search {
    std::uint32_t mark;
    std::vector<Cell> frontier;  // a queue: [next, size)
    std::size_t next = 0;
    std::uint32_t tiles = 0;
  };
  std::vector<Search> searches;
  std::vector<std::uint32_t> parent;  // union-find over search indices
  std::vector<Cell> explored;
  for (const Cell seed : seeds) {
    const auto index = std::uint32_t(searches.size());
    searches.push_back({newLabel(), {seed}, 0, 0});
    parent.push_back(index);
    labelAt(map, seed) = searches.back().mark;
    explored.push_back(seed);
  }
  std::vector<std::uint32_t> searchOfMark(m_sizes.size(), std::uint32_t(-1));
  for (std::uint32_t i = 0; i < searches.size(); ++i) searchOfMark[searches[i].mark] = i;
  auto find = [&](std::uint32_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  auto growing = [&](std::uint32_t root) { return searches[root].next < searches[root].frontier.size(); };
  std::uint32_t stillGrowing = std::uint32_t(searches.size());
  while (stillGrowing > 1) {
    stillGrowing = 0;
    for (std::uint32_t i = 0; i < searches.size(); ++i) {
      if (find(i) != i || !growing(i)) continue;
      Search& search = searches[i];
      const Cell cell = search.frontier[search.next++];  // (a copy: the queue may grow below)
      forEdgeNeighbours(map, cell, [&](Cell next) {
        std::uint32_t& slot = labelAt(map, next);
        const std::uint32_t self = find(i);  // (this search may have merged into another)
        if (slot == label) {
          slot = searches[i].mark;
          searches[self].frontier.push_back(next);
          explored.push_back(next);
          return;
        }
        if (slot >= searchOfMark.size() || searchOfMark[slot] == std::uint32_t(-1)) return;
        const std::uint32_t other = find(searchOfMark[slot]);
        if (other == self) return;
        // Met: the smaller queue's rest joins the larger's.
        const std::uint32_t keep = searches[self].frontier.size() - searches[self].next >=
                                           searches[other].frontier.size() - searches[other].next
                                       ? self
                                       : other;
        const std::uint32_t gone = keep == self ? other : self;
        Search& into = searches[keep];
        Search& from = searches[gone];
        into.frontier.insert(into.frontier.end(), from.frontier.begin() + std::ptrdiff_t(from.next), from.frontier.end());
        from.frontier.clear();
        from.next = 0;
        parent[gone] = keep;
      });
    }
    stillGrowing = 0;
    for (std::uint32_t i = 0; i < searches.size(); ++i) stillGrowing += find(i) == i && growing(i) ? 1 : 0;
  }
  // The one still growing (or, when every search ended, the first seed's) keeps the old label;
  // every other part takes its search's label.
  std::uint32_t keeper = find(0);
  for (std::uint32_t i = 0; i < searches.size(); ++i) {
    if (find(i) == i && growing(i)) keeper = i;
  }
  std::uint32_t moved = 0;
  for (const Cell cell : explored) {
    std::uint32_t& slot = labelAt(map, cell);
    const std::uint32_t root = find(searchOfMark[slot]);
    if (root == keeper) {
      slot = label;
    } else {
      slot = searches[root].mark;
      ++m_sizes[slot];
      ++moved;
    }
  }
  m_sizes[label] -= moved;
  for (std::uint32_t i = 0; i < searches.size(); ++i) {
    if (find(i) == keeper || find(i) != i) dropLabel(searches[i].mark);
  }
  if (m_sizes[label] == 0) dropLabel(label);
}

void RegionMap::Impl::update(const TileMap& map, std::span<const Cell> changed) {
  m_mapVersion = map.version();
  if (map.width() != m_width || map.height() != m_height) {
    *this = compute(map, m_mobility);
    return;
  }
  // Closed first (each region that lost tiles may split), then opened (joins). The closed tiles
  // are grouped by their old label.
  std::vector<Cell> opened;
  std::vector<std::pair<std::uint32_t, Cell>> byLabel;
  for (const Cell cell : changed) {
    if (!map.contains(cell)) continue;
    const bool open = map.passable(cell, m_mobility);
    std::uint32_t& slot = labelAt(map, cell);
    if (slot != kNoRegion && !open) {
      --m_sizes[slot];
      byLabel.push_back({slot, cell});
      slot = kNoRegion;
    } else if (slot == kNoRegion && open) {
      opened.push_back(cell);
    }
  }
  std::sort(byLabel.begin(), byLabel.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : a.second < b.second;
  });
  std::vector<Cell> group;
  for (std::size_t i = 0; i < byLabel.size();) {
    const std::uint32_t label = byLabel[i].first;
    group.clear();
    for (; i < byLabel.size() && byLabel[i].first == label; ++i) group.push_back(byLabel[i].second);
    splitIfNeeded(map, label, group);
  }
  for (const Cell cell : opened) {
    if (labelAt(map, cell) != kNoRegion) continue;  // listed twice
    // The largest neighbouring region takes this tile and every other one around it.
    std::uint32_t keep = kNoRegion;
    forEdgeNeighbours(map, cell, [&](Cell next) {
      const std::uint32_t label = labelAt(map, next);
      if (label == kNoRegion) return;
      if (keep == kNoRegion || m_sizes[label] > m_sizes[keep] || (m_sizes[label] == m_sizes[keep] && label < keep)) {
        keep = label;
      }
    });
    if (keep == kNoRegion) keep = newLabel();
    labelAt(map, cell) = keep;
    ++m_sizes[keep];
    forEdgeNeighbours(map, cell, [&](Cell next) {
      const std::uint32_t label = labelAt(map, next);
      if (label == kNoRegion || label == keep) return;
      m_sizes[keep] += m_sizes[label];
      dropLabel(label);
      relabel(map, next, label, keep);
    });
  }
}

RegionMap::RegionMap() : m_impl(std::make_unique<Impl>()) {}
RegionMap::RegionMap(const RegionMap& other) : m_impl(std::make_unique<Impl>(*other.m_impl)) {}
RegionMap& RegionMap::operator=(const RegionMap& other) {
  if (this != &other) *m_impl = *other.m_impl;
  return *this;
}
RegionMap::RegionMap(RegionMap&&) noexcept = default;
RegionMap& RegionMap::operator=(RegionMap&&) noexcept = default;
RegionMap::~RegionMap() = default;

RegionMap RegionMap::compute(const TileMap& map, MobilityId mobility) {
  RegionMap regions;
  *regions.m_impl = Impl::compute(map, mobility);
  return regions;
}

void RegionMap::update(const TileMap& map, std::span<const Cell> changed) { m_impl->update(map, changed); }

std::uint32_t RegionMap::regionOf(Cell cell) const noexcept {
  const Impl& impl = *m_impl;
  if (cell.x < 0 || cell.y < 0 || cell.x >= impl.m_width || cell.y >= impl.m_height) return kNoRegion;
  return impl.m_labels[std::size_t(cell.y) * std::size_t(impl.m_width) + std::size_t(cell.x)];
}

bool RegionMap::connected(Cell a, Cell b) const noexcept {
  const std::uint32_t r = regionOf(a);
  return r != kNoRegion && r == regionOf(b);
}

std::uint32_t RegionMap::regionCount() const noexcept { return m_impl->m_regionCount; }
std::uint32_t RegionMap::labelCount() const noexcept { return std::uint32_t(m_impl->m_sizes.size()); }
std::uint32_t RegionMap::regionSize(std::uint32_t region) const noexcept {
  return region < m_impl->m_sizes.size() ? m_impl->m_sizes[region] : 0;
}
MobilityId RegionMap::mobility() const noexcept { return m_impl->m_mobility; }
std::size_t RegionMap::memoryBytes() const noexcept {
  const Impl& impl = *m_impl;
  return sizeof(*this) + sizeof(Impl) +
         (impl.m_labels.capacity() + impl.m_sizes.capacity() + impl.m_freeLabels.capacity()) * sizeof(std::uint32_t);
}
std::uint64_t RegionMap::mapVersion() const noexcept { return m_impl->m_mapVersion; }

}  // namespace rpgnav
