// SPDX-License-Identifier: MIT
#include "support/reference_search.hpp"

#include "search/search_grid.hpp"

#include <cmath>
#include <functional>
#include <queue>
#include <utility>

namespace rpgnav::test {

std::int64_t referenceStepCost(const TileMap& map, Cell from, Cell to, MobilityId mobility, bool diagonal,
                               const TileCost& tileCost) {
  auto half = [&](Cell cell) {
    const double cost = tileCost ? tileCost(cell) : map.cost(cell, mobility);
    return std::llround(0.5 * cost * (diagonal ? std::sqrt(2.0) : 1.0) * double(kCostScale));
  };
  return half(from) + half(to);
}

std::vector<std::int64_t> dijkstraCosts(const TileMap& map, MobilityId mobility, Cell start, const StepRule& rule,
                                        const TileCost& tileCost) {
  std::vector<std::int64_t> best(std::size_t(map.tileCount()), -1);
  using Item = std::pair<std::int64_t, std::int32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
  if (!map.passable(start, mobility)) return best;
  best[std::size_t(map.index(start))] = 0;
  open.push({0, map.index(start)});
  while (!open.empty()) {
    const auto [g, index] = open.top();
    open.pop();
    if (g != best[std::size_t(index)]) continue;
    const Cell cell = map.cellAt(index);
    for (const NeighbourStep& step : map.layout().moves(cell)) {
      if (!map.canStep(cell, step, mobility)) continue;
      const Cell next{cell.x + step.dx, cell.y + step.dy};
      std::int64_t extra = 0;
      if (rule) {
        const auto allowed = rule(cell, next);
        if (!allowed) continue;
        extra = *allowed;
      }
      const std::int64_t cost = g + referenceStepCost(map, cell, next, mobility, !step.sharesEdge, tileCost) + extra;
      std::int64_t& slot = best[std::size_t(map.index(next))];
      if (slot < 0 || cost < slot) {
        slot = cost;
        open.push({cost, map.index(next)});
      }
    }
  }
  return best;
}

std::optional<std::int64_t> pathCost(const TileMap& map, MobilityId mobility, const std::vector<Cell>& path,
                                     const StepRule& rule) {
  if (path.empty() || !map.passable(path.front(), mobility)) return std::nullopt;
  std::int64_t total = 0;
  for (std::size_t i = 1; i < path.size(); ++i) {
    const Cell from = path[i - 1], to = path[i];
    bool legal = false;
    for (const NeighbourStep& step : map.layout().moves(from)) {
      if (Cell{from.x + step.dx, from.y + step.dy} != to) continue;
      legal = map.canStep(from, step, mobility);
      if (legal && rule) {
        const auto allowed = rule(from, to);
        legal = allowed.has_value();
        if (legal) total += *allowed;
      }
      if (legal) total += referenceStepCost(map, from, to, mobility, !step.sharesEdge);
    }
    if (!legal) return std::nullopt;
  }
  return total;
}

}  // namespace rpgnav::test
