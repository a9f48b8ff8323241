// SPDX-License-Identifier: MIT
#include "passages.hpp"

#include <algorithm>
#include <cmath>

namespace rpgnav::avoid {
namespace {

// Runs are counted up to this many tiles each way: classes above it are not offered.
constexpr std::int32_t kMaxClass = 6;
// A passage is explored up to this many tiles (a maze of narrow corridors: the part near).
constexpr std::size_t kMaxTiles = 512;


// True when two tiles touch (share an edge or, on squares, a corner).
bool touches(const Layout& layout, Cell a, Cell b) {
  for (const NeighbourStep& step : layout.touching(a)) {
    if (Cell{a.x + step.dx, a.y + step.dy} == b) return true;
  }
  return false;
}

}  // namespace

bool Passage::contains(std::int32_t tile) const { return std::binary_search(tiles.begin(), tiles.end(), tile); }

bool Passage::isStretch(std::int32_t crowdClass) const {
  // One tile wide: any length (a gap two bodies fill exactly jams at once). Wider: at least twice
  // as long as wide (two lanes over a few tiles sort themselves out).
  const std::size_t shortest = crowdClass == 1 ? 1 : 2 * std::size_t(crowdClass) * std::size_t(crowdClass);
  return sides == 2 && tiles.size() >= shortest && tiles.size() <= PassageMap::kLongestStretch;
}

std::int32_t Passage::nearestSide(double x, double y) const {
  std::int32_t side = -1;
  double best = 0.0;
  for (const Mouth& mouth : mouths) {
    const double dx = mouth.x - x, dy = mouth.y - y;
    const double d = dx * dx + dy * dy;
    if (side < 0 || d < best) best = d, side = mouth.side;
  }
  return side;
}

std::int32_t PassageMap::widthClass(float radiusTiles) noexcept {
  // Two bodies side by side need 4 radii.
  return std::clamp(std::int32_t(std::ceil(4.0f * radiusTiles)) - 1, 0, kMaxClass);
}

std::int32_t PassageMap::crowdClass(float radiusTiles) noexcept {
  // A tile to spare besides: two lanes, which crowds from both ends do not keep.
  return std::clamp(std::int32_t(std::ceil(4.0f * radiusTiles + 1.0f)) - 1, 0, kMaxClass);
}

bool PassageMap::narrow(const TileMap& map, MobilityId mobility, Cell cell, std::int32_t widthClass) const {
  if (!map.passable(cell, mobility)) return false;
  const Layout& layout = map.layout();
  const Axial origin = layout.toAxial(cell);
  // The run of enterable tiles through `cell` along a direction (offset steps on squares, axial
  // steps on hexes), counted up to one more than the class.
  auto run = [&](int dx, int dy) {
    std::int32_t length = 1;
    for (int sign : {-1, 1}) {
      for (std::int32_t k = 1; k <= widthClass && length <= widthClass; ++k) {
        const Cell next = layout.isHex() ? layout.fromAxial({origin.q + sign * k * dx, origin.r + sign * k * dy})
                                         : Cell{cell.x + sign * k * dx, cell.y + sign * k * dy};
        if (!map.passable(next, mobility)) break;
        ++length;
      }
    }
    return length;
  };
  if (layout.isHex()) return std::min({run(1, 0), run(0, 1), run(1, -1)}) <= widthClass;
  return std::min(run(1, 0), run(0, 1)) <= widthClass;
}

// Tiles sharing an edge with `cell`: 4 on squares, 6 on hexes.
template <class Visit>
void forEdgeNeighbours(const Layout& layout, Cell cell, Visit&& visit) {
  if (layout.isHex()) {
    for (const NeighbourStep& step : layout.touching(cell)) visit(Cell{cell.x + step.dx, cell.y + step.dy});
    return;
  }
  for (const Cell n : {Cell{cell.x + 1, cell.y}, Cell{cell.x - 1, cell.y}, Cell{cell.x, cell.y + 1}, Cell{cell.x, cell.y - 1}}) visit(n);
}

// Tiles touching `cell` at all: 8 on squares, 6 on hexes.
template <class Visit>
void forTouching(const Layout& layout, Cell cell, Visit&& visit) {
  for (const NeighbourStep& step : layout.touching(cell)) visit(Cell{cell.x + step.dx, cell.y + step.dy});
}

void PassageMap::follow(const TileMap& map) {
  // Only what the edits can have changed is forgotten: tiles within a class's reach of an edited
  // rectangle, and the passages holding any of them. A cost edit (which may change passability
  // anywhere) or a journal that no longer reaches back forgets everything.
  m_edits.clear();
  const bool patch = m_map == &map && map.editsSince(m_version, m_edits) &&
                     std::none_of(m_edits.begin(), m_edits.end(), [](const TileEdit& e) { return e.costEdit; }) &&
                     m_dead < 2 * m_passages.size() + 64;
  m_map = &map;
  m_version = map.version();
  if (!patch) {
    m_passages.clear();
    m_of.clear();
    m_dead = 0;
    ++m_generation;  // passage numbers start again: who remembers one must forget it
    return;
  }
  for (auto& [key, of] : m_of) {
    for (const TileEdit& edit : m_edits) {
      const std::int32_t x0 = std::max(0, edit.low.x - kMaxClass - 1), x1 = std::min(map.width() - 1, edit.high.x + kMaxClass + 1);
      const std::int32_t y0 = std::max(0, edit.low.y - kMaxClass - 1), y1 = std::min(map.height() - 1, edit.high.y + kMaxClass + 1);
      for (std::int32_t y = y0; y <= y1; ++y) {
        for (std::int32_t x = x0; x <= x1; ++x) {
          const std::size_t tile = std::size_t(map.index({x, y}));
          const std::int32_t held = of[tile];  // a copy: the loop below resets this tile too
          if (held >= 0 && !m_passages[std::size_t(held)].tiles.empty()) {
            // The passage changes: all its tiles are looked at afresh.
            Passage& passage = m_passages[std::size_t(held)];
            for (const std::int32_t t : passage.tiles) of[std::size_t(t)] = -2;
            passage.tiles.clear();
            passage.mouths.clear();
            ++m_dead;
          }
          of[tile] = -2;
        }
      }
    }
  }
}

std::vector<std::int32_t>& PassageMap::tilesOf(MobilityId mobility, std::int32_t widthClass) {
  std::vector<std::int32_t>& tiles = m_of[std::uint32_t(mobility.value) * 256u + std::uint32_t(widthClass)];
  if (tiles.empty()) tiles.assign(std::size_t(m_map->width()) * std::size_t(m_map->height()), -2);
  return tiles;
}

std::int32_t PassageMap::passageAt(const TileMap& map, MobilityId mobility, Cell cell, std::int32_t widthClass) {
  if (widthClass <= 0 || !map.contains(cell)) return -1;
  if (m_map != &map || m_version != map.version()) follow(map);
  std::vector<std::int32_t>& of = tilesOf(mobility, widthClass);
  const std::int32_t tile = map.index(cell);
  if (of[std::size_t(tile)] != -2) return of[std::size_t(tile)];
  if (!narrow(map, mobility, cell, widthClass)) {
    of[std::size_t(tile)] = -1;
    return -1;
  }
  // A new passage: its narrow tiles (4-connected), then its mouths grouped into sides.
  Passage passage;
  passage.widthClass = widthClass;
  std::vector<Cell> stack{cell};
  std::vector<Cell> cells{cell};  // every tile marked as this passage's
  of[std::size_t(tile)] = std::int32_t(m_passages.size());
  while (!stack.empty()) {
    const Cell c = stack.back();
    stack.pop_back();
    forEdgeNeighbours(map.layout(), c, [&](Cell n) {
      if (cells.size() >= kMaxTiles || !map.contains(n) || of[std::size_t(map.index(n))] >= 0) return;
      if (!narrow(map, mobility, n, widthClass)) return;
      of[std::size_t(map.index(n))] = std::int32_t(m_passages.size());
      cells.push_back(n);
      stack.push_back(n);
    });
  }
  for (const Cell c : cells) passage.tiles.push_back(map.index(c));
  std::sort(passage.tiles.begin(), passage.tiles.end());
  std::vector<Cell> mouths;
  for (const Cell c : cells) {
    forTouching(map.layout(), c, [&](Cell n) {
      if (!map.contains(n) || !map.passable(n, mobility) || passage.contains(map.index(n))) return;
      if (narrow(map, mobility, n, widthClass)) return;
      if (std::find(mouths.begin(), mouths.end(), n) == mouths.end()) mouths.push_back(n);
    });
  }
  std::sort(mouths.begin(), mouths.end(), [&](Cell a, Cell b) { return map.index(a) < map.index(b); });
  // Sides: mouth tiles grouped by 8-adjacency (in index order: deterministic).
  std::vector<std::int32_t> side(mouths.size(), -1);
  for (std::size_t i = 0; i < mouths.size(); ++i) {
    if (side[i] >= 0) continue;
    side[i] = passage.sides++;
    std::vector<std::size_t> queue{i};
    while (!queue.empty()) {
      const std::size_t k = queue.back();
      queue.pop_back();
      for (std::size_t j = 0; j < mouths.size(); ++j) {
        if (side[j] < 0 && touches(map.layout(), mouths[j], mouths[k])) {
          side[j] = side[i];
          queue.push_back(j);
        }
      }
    }
  }
  for (std::size_t i = 0; i < mouths.size(); ++i) {
    const Eigen::Vector2d centre = map.layout().localCenter(mouths[i]);
    passage.mouths.push_back({mouths[i], centre.x(), centre.y(), side[i]});
  }
  m_passages.push_back(std::move(passage));
  return std::int32_t(m_passages.size() - 1);
}

}  // namespace rpgnav::avoid
