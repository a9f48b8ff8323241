// SPDX-License-Identifier: MIT
// A crowd field that follows a walking goal: CrowdField::trackGoal costs what
// changes near the goal, the directions always reach the goal, a distance exceeds the exact one
// by at most twice the goal's walk since the last exact refresh, and the refresh, run in slices,
// lands the exact field bit for bit.
#include <catch2/catch.hpp>

#include "grid/step_cost.hpp"
#include "rpgnav/field/crowd_field.hpp"
#include "support/test_maps.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

using namespace rpgnav;

namespace {

// A step's cost between neighbouring tiles `a` and `b` (the move `step` from a), from the
// field's inputs: each tile's cost weighed with its danger, half the step's length at each.
std::int64_t stepCost(const CrowdField& field, Cell a, Cell b, const NeighbourStep& step) {
  const auto half = [&](Cell cell) {
    const double rate = DangerMap::weightedCost(field.costs().cost(cell), field.danger(cell), field.dangerFactor());
    return step.sharesEdge ? halfStraightCost(rate) : halfDiagonalCost(rate);
  };
  return half(a) + half(b);
}

// Checks the tracked field against the exact field of the same goal: the same tiles reachable;
// from each, the directions go downhill by at least each step's cost and end at the goal; a
// distance lies between the exact one and the exact one plus twice the travel. Returns the
// number of tiles compared.
// (An edit that makes routes cheaper is spread by a wave and by the next refresh: until one
// lands, `bound` false, the travel bound is not checked.)
std::int64_t checkTracked(const CrowdField& tracked, const CrowdField& exact, bool bound) {
  const Layout& layout = tracked.costs().layout();
  const std::int64_t slack = 2 * tracked.trackedTravel();
  const std::int64_t tiles = std::int64_t(tracked.costs().width()) * tracked.costs().height();
  std::int64_t compared = 0;
  for (std::int32_t y = 0; y < tracked.costs().height(); ++y) {
    for (std::int32_t x = 0; x < tracked.costs().width(); ++x) {
      const Cell cell{x, y};
      const std::int64_t d = tracked.distance(cell), e = exact.distance(cell);
      REQUIRE(tracked.reachable(cell) == exact.reachable(cell));
      if (!exact.reachable(cell)) continue;
      ++compared;
      REQUIRE(d >= e);
      if (bound) REQUIRE(d - e <= slack);
      // Downhill along the directions to the goal, each step open (a neighbour the exact field
      // reaches, the same cost rule).
      Cell at = cell;
      for (std::int64_t walked = 0;; ++walked) {
        REQUIRE(walked <= tiles);
        const std::uint8_t direction = tracked.direction(at);
        if (direction == CrowdField::kNoDirection) break;
        const NeighbourStep& step = layout.moves(at)[direction];
        const Cell next{at.x + step.dx, at.y + step.dy};
        REQUIRE(exact.reachable(next));
        REQUIRE(tracked.distance(at) >= tracked.distance(next) + stepCost(tracked, at, next, step));
        at = next;
      }
      REQUIRE(tracked.distance(at) == 0);
      REQUIRE(at == tracked.goals().front());
    }
  }
  return compared;
}

// The tracked field equals a field built for its goal, tile for tile.
void requireExact(const CrowdField& tracked, const CrowdField& exact) {
  for (std::int32_t y = 0; y < tracked.costs().height(); ++y) {
    for (std::int32_t x = 0; x < tracked.costs().width(); ++x) {
      REQUIRE(tracked.distance({x, y}) == exact.distance({x, y}));
      REQUIRE(tracked.direction({x, y}) == exact.direction({x, y}));
    }
  }
}

std::vector<Layout> trackingLayouts() {
  std::vector<Layout> layouts = test::allLayouts();
  layouts.push_back(Layout::square(1.0f, 4));
  return layouts;
}

// The goal's next tile: a random enterable neighbour (now and then a tile a few steps off, or
// anywhere: the far ones take moveGoal's exact way).
Cell nextGoal(std::mt19937& random, const CrowdField& field, Cell goal) {
  const Layout& layout = field.costs().layout();
  const int roll = std::uniform_int_distribution<int>(0, 99)(random);
  if (roll < 3) {
    return {std::uniform_int_distribution<int>(0, field.costs().width() - 1)(random),
            std::uniform_int_distribution<int>(0, field.costs().height() - 1)(random)};
  }
  Cell at = goal;
  const int hops = roll < 10 ? 3 : 1;
  for (int hop = 0; hop < hops; ++hop) {
    const auto moves = layout.moves(at);
    const NeighbourStep& step = moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(random)];
    const Cell next{at.x + step.dx, at.y + step.dy};
    if (field.reachable(next)) at = next;
  }
  return at;
}

}  // namespace

TEST_CASE("A tracked goal: directions reach the goal, distances within twice the walk, refreshes land the exact field",
          "[field][tracking]") {
  std::mt19937 random(5301);
  std::int64_t compared = 0, landed = 0, fallbacks = 0, trackedEdits = 0;
  for (const Layout& layout : trackingLayouts()) {
    for (int trial = 0; trial < 12; ++trial) {
      const int width = std::uniform_int_distribution<int>(6, 34)(random);
      const int height = std::uniform_int_distribution<int>(6, 30)(random);
      const double walls = std::uniform_real_distribution<double>(0.0, 0.35)(random);
      const TileMap map = test::randomMap(random, layout, width, height, walls, trial % 3 != 0);
      const CostField costs = CostField::build(map, TerrainTable::kWalk).value();
      CrowdField tracked(costs), exact(costs);
      if (trial % 2 == 1) {  // danger weighed in (fractional rates)
        const std::uint8_t values[] = {0, 20, 120};
        const test::RandomDanger danger = test::randomDanger(random, map, values, 60);
        for (std::int32_t i = 0; i < map.tileCount(); ++i) {
          if (danger.layer[std::size_t(i)] == 0) continue;
          REQUIRE(tracked.setDanger(0, map.cellAt(i), danger.layer[std::size_t(i)]) == Status::Ok);
          REQUIRE(exact.setDanger(0, map.cellAt(i), danger.layer[std::size_t(i)]) == Status::Ok);
        }
        const auto factor = std::uint8_t(std::uniform_int_distribution<int>(1, 255)(random));
        tracked.setDangerFactor(factor);
        exact.setDangerFactor(factor);
      }
      const std::int64_t waves[] = {0, 1, 5, 60, CrowdField::kTrackingWave};
      tracked.setTrackingWave(waves[trial % 5]);
      Cell goal{-1, -1};
      for (int attempt = 0; attempt < 50 && !(costs.contains(goal) && costs.at(goal) != CostField::kImpassable); ++attempt) {
        goal = {std::uniform_int_distribution<int>(0, width - 1)(random), std::uniform_int_distribution<int>(0, height - 1)(random)};
      }
      if (!costs.contains(goal) || costs.at(goal) == CostField::kImpassable) continue;
      tracked.setGoals(std::span(&goal, 1));
      bool boundHolds = true;  // no edit since the field's exact basis
      const std::int64_t budgets[] = {0, 1, 9, 40, 300, 1 << 30};
      for (int step = 0; step < 40; ++step) {
        const Cell to = nextGoal(random, tracked, goal);
        REQUIRE(tracked.trackGoal(to) == Status::Ok);
        // (Where the cheap step does not apply the goal moves the exact way: the field is exact.)
        if (!tracked.tracking()) ++fallbacks;
        if (tracked.goals().empty()) break;  // an impassable tile: no goal left (as moveGoal)
        goal = tracked.goals().front();
        if (step % 5 == 4) {  // an edit: repaired in place (or rebuilt, exact again)
          const Cell cell{std::uniform_int_distribution<int>(0, width - 1)(random), std::uniform_int_distribution<int>(0, height - 1)(random)};
          const int kind = std::uniform_int_distribution<int>(0, 3)(random);
          boundHolds = false;
          if (kind <= 1) {  // a tile's cost, walled up now and then
            const auto cost = std::uint8_t(cell == goal ? 2 : std::uniform_int_distribution<int>(1, 255)(random));
            REQUIRE(tracked.setCost(cell, cost) == Status::Ok);
            REQUIRE(exact.setCost(cell, cost) == Status::Ok);
          } else if (kind == 2) {  // a door beside the tile closed, opened or taken away (blocking)
            const NeighbourStep& move = layout.moves(cell)[std::uniform_int_distribution<std::size_t>(0, layout.moves(cell).size() - 1)(random)];
            const Cell other{cell.x + move.dx, cell.y + move.dy};
            if (costs.contains(other) && move.sharesEdge) {
              const int state = std::uniform_int_distribution<int>(0, 2)(random);
              if (state == 2) {
                (void)tracked.removeDoor(cell, other);
                (void)exact.removeDoor(cell, other);
              } else {
                const DoorState door = state == 0 ? DoorState::Closed : DoorState::Open;
                REQUIRE(tracked.setDoor(cell, other, door) == Status::Ok);
                REQUIRE(exact.setDoor(cell, other, door) == Status::Ok);
              }
            }
          } else {  // a danger stamp (weighed in where the factor is above 0)
            const CrowdField::DangerStamp stamp{layout.tileCenter(cell), 2.5f, 200, 0.5f};
            REQUIRE(tracked.addDangerStamp(stamp).ok());
            REQUIRE(exact.addDangerStamp(stamp).ok());
          }
          if (tracked.goals().empty()) break;
          if (tracked.tracking()) ++trackedEdits;
        }
        const bool wasRefreshing = tracked.refreshing();
        tracked.refreshTracking(budgets[std::uniform_int_distribution<std::size_t>(0, std::size(budgets) - 1)(random)]);
        if ((wasRefreshing && !tracked.refreshing()) || !tracked.tracking()) boundHolds = true;  // exact basis again
        exact.setGoals(std::span(&goal, 1));
        compared += checkTracked(tracked, exact, boundHolds);
        if (tracked.exact()) requireExact(tracked, exact);
      }
      if (tracked.goals().empty()) continue;
      // No walk since: a refresh lands the exact field, distances and directions bit for bit.
      while (!tracked.exact()) tracked.refreshTracking(1 << 30);
      CHECK(tracked.trackedTravel() == 0);
      exact.setGoals(tracked.goals());
      requireExact(tracked, exact);
      ++landed;
    }
  }
  CHECK(compared > 30000);
  CHECK(landed > 40);
  CHECK(fallbacks > 0);
  CHECK(trackedEdits > 50);
}

TEST_CASE("A tracked goal's step costs what changes near the goal, not the map", "[field][tracking]") {
  std::mt19937 random(77);
  const TileMap map = test::randomMap(random, Layout::square(), 300, 300, 0.05, true);
  CrowdField field(CostField::build(map, TerrainTable::kWalk).value());
  Cell goal{100, 100};
  while (field.costs().at(goal) == CostField::kImpassable) ++goal.x;
  field.setGoals(std::span(&goal, 1));
  REQUIRE(field.reachable(goal));
  std::int64_t worst = 0, steps = 0;
  for (int step = 0; step < 60; ++step) {
    const Cell to = nextGoal(random, field, goal);
    if (to == goal || std::abs(to.x - goal.x) > 1 || std::abs(to.y - goal.y) > 1) continue;
    REQUIRE(field.trackGoal(to) == Status::Ok);
    goal = to;
    REQUIRE(field.tracking());
    if (steps > 0) worst = std::max(worst, field.diagnostics().work.tiles);  // (the first re-bases the map)
    ++steps;
    // A slice of the refresh each frame: bounded by the budget asked for.
    REQUIRE(field.refreshTracking(500) <= 500);
  }
  REQUIRE(steps > 20);
  // The wave's tiles and the chain's, against some 85,000 for a rebuild.
  CHECK(worst <= CrowdField::kTrackingWave + std::int64_t(CrowdField::kTrackingChain) + 1);
  CrowdField exact = field;
  REQUIRE(exact.moveGoal(goal, {goal.x + 1, goal.y}) == Status::Ok);  // the exact way: a rebuild
  CHECK(exact.diagnostics().work.tiles > 20 * worst);
}

TEST_CASE("trackGoal's bad inputs and the fields it leaves to moveGoal", "[field][tracking]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {"......", ".####.", "......", "###.##", "......"});
  const CostField costs = CostField::build(map, TerrainTable::kWalk).value();
  CrowdField field(costs);
  CHECK(field.trackGoal({0, 0}) == Status::InvalidArgument);  // no goal
  const Cell two[] = {{0, 0}, {5, 4}};
  field.setGoals(two);
  CHECK(field.trackGoal({1, 0}) == Status::InvalidArgument);  // two goals
  const Cell goal{0, 0};
  field.setGoals(std::span(&goal, 1));
  CHECK(field.trackGoal({-1, 0}) == Status::InvalidArgument);
  CHECK(field.trackGoal({0, 99}) == Status::InvalidArgument);
  CHECK(field.trackGoal({0, 0}) == Status::Ok);
  CHECK_FALSE(field.tracking());
  REQUIRE(field.trackGoal({1, 0}) == Status::Ok);
  CHECK(field.tracking());
  CHECK(field.trackedTravel() == CrowdField::kStep);
  // An impassable tile: moveGoal's answer (no goal left, nothing reachable), exact again.
  REQUIRE(field.trackGoal({1, 1}) == Status::Ok);
  CHECK_FALSE(field.tracking());
  CHECK(field.goals().empty());
  CHECK_FALSE(field.reachable({0, 0}));
  CHECK(field.refreshTracking(1000) == 0);
  // A bounded field moves its goal the exact way.
  field.setGoals(std::span(&goal, 1));
  const Cell followers[] = {{5, 4}};
  field.setFollowers(followers, 2);
  REQUIRE(field.trackGoal({1, 0}) == Status::Ok);
  CHECK_FALSE(field.tracking());
  CrowdField twin(costs);
  const Cell moved{1, 0};
  twin.setGoals(std::span(&moved, 1));
  twin.setFollowers(followers, 2);
  CHECK(field == twin);
}

TEST_CASE("Edits during a tracked field's refresh: the refresh lands the exact field of the edited map",
          "[field][tracking]") {
  // The refresh goes on through edits beyond what it has settled (they take the new weights) and
  // starts again for edits within: either way the field it lands is the edited map's.
  std::mt19937 random(9117);
  int landed = 0;
  for (const Layout& layout : trackingLayouts()) {
    for (int trial = 0; trial < 60; ++trial) {
      const int width = std::uniform_int_distribution<int>(20, 48)(random);
      const int height = std::uniform_int_distribution<int>(20, 48)(random);
      const TileMap map = test::randomMap(random, layout, width, height, 0.15, trial % 2 == 0);
      const CostField costs = CostField::build(map, TerrainTable::kWalk).value();
      CrowdField tracked(costs), exact(costs);
      Cell goal{1, 1};
      while (costs.at(goal) == CostField::kImpassable && goal.x < width - 1) ++goal.x;
      if (costs.at(goal) == CostField::kImpassable) continue;
      tracked.setGoals(std::span(&goal, 1));
      const Cell to = nextGoal(random, tracked, goal);
      if (to == goal || tracked.trackGoal(to) != Status::Ok || !tracked.tracking()) continue;
      goal = to;
      // Part of a refresh (clearing takes the first width × height / 16 visits), then edits,
      // mostly far from the goal, where the refresh has not come yet.
      const auto part = std::int64_t(width * height / 16 + std::uniform_int_distribution<int>(1, width * height / 3)(random));
      tracked.refreshTracking(part);
      if (!tracked.refreshing()) continue;  // (a small region round the goal: done already)
      // The refresh settles tiles in the order of their distance: the tiles about `settled`
      // places down that order lie round its front (clearing took a visit per 16 padded tiles).
      exact.setGoals(std::span(&goal, 1));
      std::vector<std::pair<std::int64_t, Cell>> order;
      for (std::int32_t y = 0; y < height; ++y) {
        for (std::int32_t x = 0; x < width; ++x) {
          if (exact.reachable({x, y})) order.push_back({exact.distance({x, y}), {x, y}});
        }
      }
      std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      const std::int64_t settled = part - std::int64_t((width + 2) * (height + 2) + 15) / 16;
      const auto nearFront = [&] {
        // (Past the front by up to about a ring of tiles: an edit two steps beyond a settled tile
        // changes what a diagonal past its corner offers the tile between.)
        const int ring = 4 * int(std::sqrt(double(std::max<std::int64_t>(settled, 1)))) + 8;
        const std::int64_t rank = std::clamp<std::int64_t>(settled + std::uniform_int_distribution<int>(0, ring)(random), 0,
                                                           std::int64_t(order.size()) - 1);
        return order[std::size_t(rank)].second;
      };
      const int edits = std::uniform_int_distribution<int>(1, 4)(random);
      for (int edit = 0; edit < edits; ++edit) {
        const int kind = std::uniform_int_distribution<int>(0, 5)(random);  // near the front, far, anywhere
        const bool far = kind == 4;
        const Cell cell = kind < 4 ? nearFront()
                          : Cell{far ? std::uniform_int_distribution<int>(width * 2 / 3, width - 1)(random)
                                     : std::uniform_int_distribution<int>(0, width - 1)(random),
                                 far ? std::uniform_int_distribution<int>(height * 2 / 3, height - 1)(random)
                                     : std::uniform_int_distribution<int>(0, height - 1)(random)};
        if (cell == goal) continue;
        const auto cost = std::uint8_t(std::uniform_int_distribution<int>(0, 1)(random) == 0 ? 255 : std::uniform_int_distribution<int>(1, 9)(random));
        REQUIRE(tracked.setCost(cell, cost) == Status::Ok);
        REQUIRE(exact.setCost(cell, cost) == Status::Ok);
        tracked.refreshTracking(std::uniform_int_distribution<int>(1, 40)(random));
      }
      if (!tracked.tracking()) continue;
      const std::uint64_t before = tracked.refreshesLanded();
      const bool rebuilt = tracked.exact();  // (an edit's repair past the allowance rebuilt it)
      while (!tracked.exact()) tracked.refreshTracking(1 << 30);
      CHECK((rebuilt || tracked.refreshesLanded() > before));
      exact.setGoals(std::span(&goal, 1));
      requireExact(tracked, exact);
      ++landed;
    }
  }
  CHECK(landed > 150);  // (of 360 trials; the others landed between the edits)
}

TEST_CASE("A tracked goal cut off from where the refresh began: the field is built for it, exact, still tracking",
          "[field][tracking]") {
  // A corridor: the refresh begins at x = 21, the goal walks on to x = 30, and a wall at x = 26,
  // beyond what the refresh has read, cuts the two apart. (A review found that the refresh
  // then had no route to lay and rebuilt with tracking ended.)
  const TileMap map = test::mapFromAscii(Layout::square(), {"........................................"});
  const CostField costs = CostField::build(map, TerrainTable::kWalk).value();
  CrowdField tracked(costs), exact(costs);
  const Cell start{20, 0};
  tracked.setGoals(std::span(&start, 1));
  REQUIRE(tracked.startTracking() == Status::Ok);
  REQUIRE(tracked.trackGoal({21, 0}) == Status::Ok);
  tracked.refreshTracking(9);  // clearing (42 × 3 padded tiles) and a tile or two
  REQUIRE(tracked.refreshing());
  for (int x = 22; x <= 30; ++x) REQUIRE(tracked.trackGoal({x, 0}) == Status::Ok);
  REQUIRE(tracked.setCost({26, 0}, CostField::kImpassable) == Status::Ok);
  REQUIRE(exact.setCost({26, 0}, CostField::kImpassable) == Status::Ok);
  REQUIRE(tracked.refreshing());  // (the wall lies beyond what it has read)
  const std::uint64_t landed = tracked.refreshesLanded();
  while (tracked.refreshing()) tracked.refreshTracking(1 << 20);
  CHECK(tracked.refreshesLanded() == landed);  // nothing landed: it was built instead
  CHECK(tracked.tracking());
  CHECK(tracked.exact());
  const Cell goal{30, 0};
  exact.setGoals(std::span(&goal, 1));
  requireExact(tracked, exact);
  CHECK(tracked == exact);  // operator== compares what distance() reports, whatever the base
  CHECK_FALSE(tracked.reachable({10, 0}));
}
