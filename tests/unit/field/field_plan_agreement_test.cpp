// SPDX-License-Identifier: MIT
// Crowd fields and characters price routes alike: one cost model for a step
// (grid/step_cost.hpp), fractional terrain costs and danger included, so a horde following a
// field and a character planned by the pipeline agree about the cheapest route to the last unit.
#include <catch2/catch.hpp>

#include "nav/nav_layer.hpp"
#include "grid/step_cost.hpp"
#include "rpgnav/field/crowd_field.hpp"
#include "rpgnav/nav/nav_data.hpp"
#include "rpgnav/path/planner.hpp"
#include "search/search_context.hpp"
#include "support/test_maps.hpp"

#include <cmath>
#include <random>
#include <vector>

using namespace rpgnav;

namespace {

constexpr MobilityId kWalk = TerrainTable::kWalk;

// testTerrain() with fractional walking costs (a road of 0.8, marsh of 1.3, hills of 2.7): the
// costs a byte-per-tile field used to round to whole numbers.
TileMap withFractionalCosts(const TileMap& map) {
  TerrainTable table = map.terrain();
  const auto set = [&](char symbol, float cost) {
    REQUIRE(table.setCost(table.findTerrainBySymbol(symbol).value(), kWalk, cost) == Status::Ok);
  };
  set('.', 0.8f);
  set(',', 1.3f);
  set('h', 2.7f);
  return TileMap::create(map.layout(), map.width(), map.height(), table,
                         std::vector<TerrainId>(map.tiles().begin(), map.tiles().end()))
      .value();
}

// The same random danger into the world (for characters) and the field.
void addRandomDanger(std::mt19937& random, World& world, CrowdField& field) {
  const TileMap& map = world.map();
  const std::uint8_t values[] = {0, 7, 30, 90, 250};
  const test::RandomDanger danger = test::randomDanger(random, map, values, 45);
  REQUIRE(world.danger().setLayer(0, danger.layer) == Status::Ok);
  REQUIRE(world.danger().addStamp(danger.stamp).ok());
  for (std::int32_t i = 0; i < map.tileCount(); ++i) {
    const std::uint8_t value = danger.layer[std::size_t(i)];
    if (value != 0) REQUIRE(field.setDanger(0, map.cellAt(i), value) == Status::Ok);
  }
  REQUIRE(field.addDangerStamp(danger.stamp).ok());
  for (std::int32_t i = 0; i < map.tileCount(); ++i) REQUIRE(field.danger(map.cellAt(i)) == world.danger().danger(map.cellAt(i)));
}

// A random tile of the map (a passable one when asked).
Cell randomTile(std::mt19937& random, const TileMap& map, bool passable) {
  for (;;) {
    const Cell cell{std::uniform_int_distribution<int>(0, map.width() - 1)(random),
                    std::uniform_int_distribution<int>(0, map.height() - 1)(random)};
    if (!passable || map.passable(cell, kWalk)) return cell;
  }
}

// A tile's rate: its terrain cost weighed with its danger.
double rateAt(const TileMap& map, const World& world, std::uint8_t factor, Cell cell) {
  return DangerMap::weightedCost(map.cost(cell, kWalk), world.danger().danger(cell), factor);
}

// Half a step's cost in one of its tiles: half the step's length at the tile's rate.
std::int64_t halfCost(const TileMap& map, const World& world, std::uint8_t factor, Cell cell, const NeighbourStep& step) {
  const double rate = rateAt(map, world, factor, cell);
  return step.sharesEdge ? halfStraightCost(rate) : halfDiagonalCost(rate);
}

// A straight step's length in world units (a tile's size on squares, the centres' spacing on hex).
double stepLength(const Layout& layout) {
  const Vec2 a = layout.tileCenter({2, 2});
  const NeighbourStep& step = layout.moves({2, 2})[0];
  return double((layout.tileCenter({2 + step.dx, 2 + step.dy}) - a).norm());
}

}  // namespace

TEST_CASE("a crowd field's distances equal the characters' tile search costs, fractional costs and danger included",
          "[field][danger][property]") {
  std::mt19937 random(5353);
  int compared = 0, unreachable = 0, weighed = 0;
  std::vector<Layout> layouts = test::allLayouts();
  layouts.push_back(Layout::square(1.0f, 4));
  for (const Layout& layout : layouts) {
    for (int trial = 0; trial < 8; ++trial) {
      const int w = std::uniform_int_distribution<int>(6, 22)(random), h = std::uniform_int_distribution<int>(6, 22)(random);
      const TileMap map = withFractionalCosts(test::randomMap(random, layout, w, h, 0.12));
      World world(map);
      CrowdField field(CostField::build(map, kWalk).value());
      addRandomDanger(random, world, field);
      const std::uint8_t factors[] = {0, 1, 64, 200, 255};
      const std::uint8_t factor = factors[trial % 5];
      field.setDangerFactor(factor);
      NavData data(world);
      REQUIRE(data.prepare(kWalk, 0.0f, {}, factor) == Status::Ok);
      const NavLayer* layer = data.layer(kWalk, 0.0f, {}, factor);
      REQUIRE(layer != nullptr);
      const Cell goal = randomTile(random, map, true);
      field.setGoals(std::vector<Cell>{goal});
      SearchContext context;
      SearchResult result;
      for (std::int32_t i = 0; i < map.tileCount(); ++i) {
        const Cell cell = map.cellAt(i);
        INFO(toString(layout.kind()) << " " << layout.connectivity() << "-way, trial " << trial << ", factor "
                                       << int(factor) << ", tile " << cell.x << "," << cell.y);
        SearchRequest request;
        request.start = cell;
        request.goal = goal;
        context.findPath(layer->grid(), request, result);
        REQUIRE(field.reachable(cell) == (result.status == Status::Ok));
        if (result.status != Status::Ok) {
          ++unreachable;
          continue;
        }
        // Bit for bit: both sum the same fixed-point halves of the same weighted costs.
        REQUIRE(field.distance(cell) == result.costUnits);
        ++compared;
        weighed += factor != 0 && world.danger().danger(cell) != 0 ? 1 : 0;
      }
    }
  }
  CHECK(compared > 4000);
  CHECK(unreachable > 100);
  CHECK(weighed > 300);
}

TEST_CASE("a character's plan and a crowd field's route agree on cost at the same danger factor",
          "[field][danger][path][property]") {
  std::mt19937 random(5454);
  int compared = 0, straight = 0;
  for (const Layout& layout : test::allLayouts()) {
    for (int trial = 0; trial < 6; ++trial) {
      const int w = std::uniform_int_distribution<int>(8, 20)(random), h = std::uniform_int_distribution<int>(8, 20)(random);
      const TileMap map = withFractionalCosts(test::randomMap(random, layout, w, h, 0.08));
      World world(map);
      CrowdField field(CostField::build(map, kWalk).value());
      addRandomDanger(random, world, field);
      const std::uint8_t factor = std::uint8_t(std::uniform_int_distribution<int>(1, 255)(random));
      field.setDangerFactor(factor);
      const Cell goal = randomTile(random, map, true);
      field.setGoals(std::vector<Cell>{goal});
      // The tile search's polyline, measured by the planner's own probes (recordStages; with the
      // straight-line stage off, so every plan searches), and the default pipeline's path.
      PlannerSettings tileSearch;
      tileSearch.search = SearchMode::Tiles;
      tileSearch.recordStages = true;
      tileSearch.enabled[std::size_t(PathStage::StraightLine)] = false;
      PlannerSettings defaults;
      defaults.recordStages = true;
      Planner byTiles(world, tileSearch), byDefault(world, defaults);
      const double unit = double(CrowdField::kStep) / stepLength(layout);
      for (int q = 0; q < 12; ++q) {
        const Cell start = randomTile(random, map, false);
        if (!field.reachable(start) || start == goal) continue;
        INFO(toString(layout.kind()) << " trial " << trial << " factor " << int(factor) << " from " << start.x << ","
                                       << start.y << " to " << goal.x << "," << goal.y);
        PathRequest request{layout.tileCenter(start), layout.tileCenter(goal), kWalk, 0.0f};
        request.dangerFactor = factor;
        PathResult tiles, path;
        REQUIRE(byTiles.plan(request, tiles) == Status::Ok);
        REQUIRE(byDefault.plan(request, path) == Status::Ok);
        // The field's route, followed tile by tile and priced step by step from the cost model's
        // parts, costs its distance; the character's tile route costs the same, and the finished
        // path never more.
        const double fieldCost = double(field.distance(start)) / unit;
        std::int64_t routeCost = 0;
        int steps = 0;
        for (Cell at = start; at != goal && steps <= map.tileCount(); ++steps) {
          const std::uint8_t move = field.direction(at);
          REQUIRE(move != CrowdField::kNoDirection);
          const NeighbourStep& step = layout.moves(at)[move];
          const Cell next{at.x + step.dx, at.y + step.dy};
          routeCost += halfCost(map, world, factor, at, step) + halfCost(map, world, factor, next, step);
          at = next;
        }
        CHECK(routeCost == field.distance(start));
        REQUIRE_FALSE(std::isnan(byTiles.diagnostics().searchCost));
        CHECK(byTiles.diagnostics().searchCost == Approx(fieldCost).epsilon(1e-5));
        CHECK(tiles.cost <= fieldCost * (1.0 + 1e-5) + 1e-5);
        // The default pipeline: never dearer than the field's route, unless the straight-line rule
        // answered (a clear segment crossing nothing dearer than its ends' tiles, taken unsearched).
        if (std::isnan(byDefault.diagnostics().searchCost)) {
          const double ends = std::max(rateAt(map, world, factor, start), rateAt(map, world, factor, goal));
          CHECK(path.cost <= path.length * ends * (1.0 + 1e-5) + 1e-5);
          ++straight;
        } else {
          CHECK(path.cost <= fieldCost * (1.0 + 1e-5) + 1e-5);
        }
        ++compared;
      }
    }
  }
  CHECK(compared > 200);
  CHECK(straight > 10);
  CHECK(straight < compared / 2);
}
