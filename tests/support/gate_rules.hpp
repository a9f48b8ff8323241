// SPDX-License-Identifier: MIT
#pragma once
// Gates for search tests: a rule from a table, gates on random edges, and the reference's reading
// of a rule for the independent Dijkstra (support/reference_search).

#include "search/search_context.hpp"
#include "search/search_grid.hpp"
#include "support/reference_search.hpp"

#include <map>
#include <random>
#include <vector>

namespace rpgnav::test {

/// A rule from a table; counts the questions it is asked.
class TableRule final : public GateRule {
 public:
  std::vector<GateCrossing> crossings;
  GateCrossing crossing(std::uint32_t gate) const override {
    ++asked;
    return crossings.at(gate);
  }
  bool segmentMeetsGate(Vec2, Vec2, float) const override { return false; }
  mutable int asked = 0;
};

/// The reference's reading of the rule, written from the documented meaning: an edge step
/// through a gate needs it open and pays its cost; a square diagonal may not pass a corner where
/// a closed or solid gate ends. Keeps references to its arguments.
inline StepRule referenceRule(const TileMap& map, const std::vector<SearchGate>& gates, const TableRule& rule) {
  return [&map, &gates, &rule](Cell from, Cell to) -> std::optional<std::int64_t> {
    auto gateOn = [&](Cell a, Cell b) -> const GateCrossing* {
      for (std::size_t i = 0; i < gates.size(); ++i) {
        if ((gates[i].a == a && gates[i].b == b) || (gates[i].a == b && gates[i].b == a)) return &rule.crossings[i];
      }
      return nullptr;
    };
    if (map.layout().sharedEdge(from, to)) {
      const GateCrossing* gate = gateOn(from, to);
      if (gate == nullptr) return 0;
      if (!gate->open) return std::nullopt;
      return gate->cost;
    }
    const Cell a{to.x, from.y}, b{from.x, to.y};
    for (const auto& [p, q] : {std::pair{from, a}, std::pair{from, b}, std::pair{a, to}, std::pair{b, to}}) {
      const GateCrossing* gate = gateOn(p, q);
      if (gate != nullptr && (!gate->open || gate->solid)) return std::nullopt;
    }
    return 0;
  };
}

/// Gates on random edges between map tiles (passable or not), each edge at most once: `attempts`
/// random tries, those that miss (no shared edge, off the map, taken) skipped.
inline std::vector<SearchGate> randomGates(std::mt19937& random, const TileMap& map, int attempts) {
  const Layout& layout = map.layout();
  std::vector<SearchGate> gates;
  std::map<std::pair<Cell, Cell>, bool> used;
  for (int i = 0; i < attempts; ++i) {
    const Cell a{std::uniform_int_distribution<int>(0, map.width() - 1)(random),
                 std::uniform_int_distribution<int>(0, map.height() - 1)(random)};
    const auto touching = layout.touching(a);
    const NeighbourStep& step = touching[std::uniform_int_distribution<std::size_t>(0, touching.size() - 1)(random)];
    const Cell b{a.x + step.dx, a.y + step.dy};
    if (!step.sharesEdge || !map.contains(b) || used[{std::min(a, b), std::max(a, b)}]) continue;
    used[{std::min(a, b), std::max(a, b)}] = true;
    gates.push_back({a, b});
  }
  return gates;
}

}  // namespace rpgnav::test
