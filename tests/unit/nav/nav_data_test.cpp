// SPDX-License-Identifier: MIT
// NavData: built explicitly, shared, and following a living world's edits in place — after every
// edit the data equals data built afresh, and so do the planners' answers, bit for bit.
#include <catch2/catch.hpp>

#include "nav/nav_layer.hpp"
#include "search/search_context.hpp"
#include "rpgnav/nav/nav_data.hpp"
#include "rpgnav/path/planner.hpp"
#include "rpgnav/schedule/replan_scheduler.hpp"
#include "support/allocation_counter.hpp"
#include "support/nav_compare.hpp"
#include "support/reference_search.hpp"
#include "support/result_hash.hpp"
#include "support/test_maps.hpp"

#include <map>
#include <random>
#include <set>
#include <tuple>

using namespace rpgnav;

namespace {

// The layers a test prepares: walkers narrow and (on hex maps) wide, and fliers.
struct LayerKey {
  MobilityId mobility;
  float radius;
};
constexpr LayerKey kLayers[] = {{TerrainTable::kWalk, 0.0f}, {TerrainTable::kWalk, 0.35f}, {TerrainTable::kFly, 0.1f}};
// A query filter's terrain costs for walkers (QueryFilter::costs): swamp cheap, hills forbidden.
constexpr TerrainCost kFilterCosts[] = {{TerrainId{3}, 0.75f}, {TerrainId{4}, 0.0f}};

// One random edit of the world: a tile, a rectangle or a list of tiles to some terrain, a
// terrain's cost, a door added, taken away or opened and closed. Returns what it was.
std::string randomEdit(std::mt19937& random, TileMap& map, World& world) {
  const int w = map.width(), h = map.height();
  auto anyCell = [&] {
    return Cell{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
  };
  const TerrainId terrain{std::uint8_t(std::uniform_int_distribution<int>(0, 4)(random))};
  switch (std::uniform_int_distribution<int>(0, 9)(random)) {
    case 0:
    case 1:
    case 2: {
      const Cell cell = anyCell();
      REQUIRE(map.setTerrain(cell, terrain) == Status::Ok);
      return "tile";
    }
    case 3:
    case 4: {
      const Cell low = anyCell();
      const Cell high{std::min(w - 1, low.x + std::uniform_int_distribution<int>(0, 4)(random)),
                      std::min(h - 1, low.y + std::uniform_int_distribution<int>(0, 4)(random))};
      REQUIRE(map.setTerrain(low, high, terrain) == Status::Ok);
      return "rectangle";
    }
    case 5: {
      std::vector<Cell> cells;
      for (int k = 0; k < 5; ++k) cells.push_back(anyCell());
      REQUIRE(map.setTerrain(cells, terrain) == Status::Ok);
      return "list";
    }
    case 6: {
      // floor, swamp or hills for walkers or fliers: cheaper, dearer, or closed.
      const TerrainId which{std::uint8_t(std::array<int, 3>{0, 3, 4}[std::size_t(std::uniform_int_distribution<int>(0, 2)(random))])};
      const MobilityId mobility = random() % 2 == 0 ? TerrainTable::kWalk : TerrainTable::kFly;
      const float cost = std::array<float, 5>{0.5f, 1.0f, 2.0f, 3.0f, TerrainTable::kImpassable}[std::size_t(random() % 5)];
      REQUIRE(map.setTerrainCost(which, mobility, cost) == Status::Ok);
      return "cost";
    }
    case 7: {
      const Cell a = anyCell();
      const auto moves = map.layout().moves(a);
      const NeighbourStep& step = moves[std::size_t(random() % moves.size())];
      const Cell b{a.x + step.dx, a.y + step.dy};
      if (!step.sharesEdge || !map.contains(b)) return "none";
      return world.addDoor({"", a, b, DoorState(random() % 3)}) ? "door added" : "none";  // (an edge with a door already)
    }
    case 8: {
      if (world.doors().empty()) return "none";
      const Door& door = world.doors()[std::size_t(random() % world.doors().size())];
      if (door.removed) return "none";
      REQUIRE(world.removeDoor(door.id) == Status::Ok);
      return "door removed";
    }
    default: {
      if (world.doors().empty()) return "none";
      const Door& door = world.doors()[std::size_t(random() % world.doors().size())];
      if (!door.removed) REQUIRE(world.setDoorState(door.id, DoorState(random() % 3)) == Status::Ok);
      return "door state";
    }
  }
}

}  // namespace

TEST_CASE("navigation data follows random edits in place, equal to data built afresh, and so do the paths "
          "(query filters' layers too)",
          "[nav][edits][property]") {
  std::mt19937 random(24);
  int edits = 0, paths = 0, filtered = 0;
  for (const Layout& layout : {Layout::square(), Layout::square(1.0f, 4), Layout::hexPointy(), Layout::hexFlat(),
                                Layout::hexPointy(1.0f, Vec2(0.0f, 0.0f), HexStagger::Even),
                                Layout::hexFlat(0.5f, Vec2(3.0f, 1.0f), HexStagger::Even)}) {
    for (int trial = 0; trial < 6; ++trial) {
      const int w = std::uniform_int_distribution<int>(3, 26)(random), h = std::uniform_int_distribution<int>(3, 26)(random);
      TileMap map = test::randomMap(random, layout, w, h, 0.2);
      World world(map);
      for (int d = 0; d < w * h / 25; ++d) randomEdit(random, map, world);  // a few doors and changes first
      NavData data(world);
      for (const LayerKey& key : kLayers) REQUIRE(data.prepare(key.mobility, key.radius * layout.tileSize()) == Status::Ok);
      // A character a tile and a half in radius: the walkers' clearance is kept too.
      REQUIRE(data.prepare(TerrainTable::kWalk, 1.5f * layout.tileSize()) == Status::Ok);
      REQUIRE(data.clearance(TerrainTable::kWalk) != nullptr);
      // Layers for a query filter's costs (their own copy of the map), narrow, wide and with a
      // clearance: patched by update() like the plain ones.
      for (const float radius : {0.0f, 0.35f, 1.5f}) {
        REQUIRE(data.prepare(TerrainTable::kWalk, radius * layout.tileSize(), kFilterCosts) == Status::Ok);
      }
      CHECK(data.clearance(TerrainTable::kFly) == nullptr);
      for (int e = 0; e < 40; ++e) {
        const std::string what = randomEdit(random, map, world);
        INFO(toString(layout.kind()) << " trial " << trial << " edit " << e << ": " << what);
        const bool unchangedData = what == "none" || what == "door state";
        if (!unchangedData) CHECK_FALSE(data.current());
        const NavUpdate update = data.update();
        REQUIRE(update.status == Status::Ok);
        REQUIRE(data.current());
        CHECK_FALSE(update.rebuilt);
        NavData fresh(world);
        for (const LayerKey& key : kLayers) {
          REQUIRE(fresh.prepare(key.mobility, key.radius * layout.tileSize()) == Status::Ok);
          const NavLayer* patched = data.layer(key.mobility, key.radius * layout.tileSize());
          REQUIRE(patched != nullptr);
          const std::string difference =
              test::layerDifference(*patched, *fresh.layer(key.mobility, key.radius * layout.tileSize()), false);
          INFO("layer " << int(key.mobility.value) << " radius " << key.radius << ": " << difference);
          REQUIRE(difference.empty());
        }
        REQUIRE(fresh.prepare(TerrainTable::kWalk, 1.5f * layout.tileSize()) == Status::Ok);
        for (const float radius : {0.0f, 0.35f, 1.5f}) {
          REQUIRE(fresh.prepare(TerrainTable::kWalk, radius * layout.tileSize(), kFilterCosts) == Status::Ok);
          const NavLayer* patched = data.layer(TerrainTable::kWalk, radius * layout.tileSize(), kFilterCosts);
          REQUIRE(patched != nullptr);
          const std::string difference = test::layerDifference(
              *patched, *fresh.layer(TerrainTable::kWalk, radius * layout.tileSize(), kFilterCosts), false);
          INFO("filtered layer, radius " << radius << ": " << difference);
          REQUIRE(difference.empty());
        }
        for (std::int32_t i = 0; i < map.tileCount(); ++i) {
          INFO("clearance at " << map.cellAt(i).x << "," << map.cellAt(i).y);
          REQUIRE(data.clearance(TerrainTable::kWalk)->code(map.cellAt(i)) == fresh.clearance(TerrainTable::kWalk)->code(map.cellAt(i)));
          REQUIRE(data.clearance(TerrainTable::kWalk, kFilterCosts)->code(map.cellAt(i)) ==
                  fresh.clearance(TerrainTable::kWalk, kFilterCosts)->code(map.cellAt(i)));
        }
        // The planners' answers: bit for bit those on fresh data.
        Planner onPatched(data), onFresh(fresh);
        PathResult a, b;
        for (int q = 0; q < 4; ++q) {
          const Cell s{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
          const Cell g{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
          const LayerKey& key = kLayers[std::size_t(q % 3)];
          PathRequest request{layout.tileCenter(s), layout.tileCenter(g), key.mobility, key.radius * layout.tileSize()};
          onPatched.plan(request, a);
          onFresh.plan(request, b);
          CHECK(test::digestOf(a) == test::digestOf(b));
          paths += isSuccess(a.status) ? 1 : 0;
          if (key.mobility == TerrainTable::kWalk) {  // and through the filtered layers
            QueryFilter filter;
            filter.costs = kFilterCosts;
            request.filter = &filter;
            onPatched.plan(request, a);
            onFresh.plan(request, b);
            CHECK(test::digestOf(a) == test::digestOf(b));
            filtered += isSuccess(a.status) ? 1 : 0;
          }
        }
        ++edits;
      }
    }
  }
  CHECK(edits == 6 * 6 * 40);
  CHECK(paths > 1000);
  CHECK(filtered > 400);
}

namespace {

// What a game may have prepared, and the contract's own statement of what that makes ready: a
// plan for (mobility, radius, cost list) is ready when that size class's layer was prepared for
// the mobility and list and, for a radius of half a tile or more, some radius of half a tile or
// more was prepared for them too (the clearance every wide radius shares).
class PreparedModel {
 public:
  void prepared(const Layout& layout, MobilityId mobility, float radius, int costList) {
    m_layers.insert({mobility.value, int(sizeClassOf(layout, radius)), costList});
    if (radius >= 0.5f * layout.tileSize()) m_clearances.insert({mobility.value, costList});
  }
  bool ready(const Layout& layout, MobilityId mobility, float radius, int costList) const {
    if (!(radius >= 0.0f && radius <= kMaxRadiusTiles * layout.tileSize())) return false;
    const bool layer = m_layers.count({mobility.value, int(sizeClassOf(layout, radius)), costList}) > 0;
    const bool clearance = radius < 0.5f * layout.tileSize() || m_clearances.count({mobility.value, costList}) > 0;
    return layer && clearance;
  }

 private:
  std::set<std::tuple<int, int, int>> m_layers;
  std::set<std::pair<int, int>> m_clearances;
};

// A radius for a random plan: anywhere from 0 to 3 tiles, often right at a size class's edge.
float randomRadius(std::mt19937& random, const Layout& layout) {
  const float edges[] = {0.0f, kHexHalfEdge, 0.5f, 0.75f, 1.5f, 2.5f, kMaxRadiusTiles};
  const unsigned kind = random() % 3;
  const float tiles = kind == 0   ? edges[random() % std::size(edges)]
                      : kind == 1 ? std::uniform_real_distribution<float>(0.0f, 1.0f)(random)
                                  : std::uniform_real_distribution<float>(0.0f, kMaxRadiusTiles)(random);
  return tiles * layout.tileSize();
}

}  // namespace

TEST_CASE("ready() answers for the mobility, radius and cost list asked: plans of random radii in any order "
          "between random edits, each equal to the plan on data built afresh",
          "[nav][edits][property]") {
  // A game that follows the contract asks ready() before each plan and prepares what is not; a
  // narrow character prepared first must not make a wide one look ready.
  constexpr TerrainCost kCheapSwamp[] = {{TerrainId{3}, 0.75f}, {TerrainId{4}, 0.0f}};
  constexpr TerrainCost kNoWater[] = {{TerrainId{2}, TerrainTable::kImpassable}, {TerrainId{0}, 2.0f}};
  const std::span<const TerrainCost> costLists[] = {{}, kCheapSwamp, kNoWater};
  const MobilityId mobilities[] = {TerrainTable::kWalk, TerrainTable::kSwim, TerrainTable::kFly};
  std::mt19937 random(49);
  int plans = 0, prepared = 0, succeeded = 0, wideAfterNarrow = 0, refusedForData = 0;
  std::map<std::string, int> statuses;
  for (const Layout& layout : {Layout::square(), Layout::square(0.5f), Layout::hexPointy(), Layout::hexFlat(),
                                Layout::hexPointy(2.0f, Vec2(1.0f, 0.0f), HexStagger::Even),
                                Layout::hexFlat(0.5f, Vec2(3.0f, 1.0f), HexStagger::Even)}) {
    for (int trial = 0; trial < 8; ++trial) {
      const int w = std::uniform_int_distribution<int>(10, 32)(random), h = std::uniform_int_distribution<int>(10, 32)(random);
      TileMap map = test::randomMap(random, layout, w, h, 0.04);
      World world(map);
      NavData data(world);
      PreparedModel model;
      Planner shared(data);
      PathResult got, expected;
      for (int step = 0; step < 40; ++step) {
        if (random() % 2 == 0) {
          randomEdit(random, map, world);
          continue;
        }
        REQUIRE(data.update().status == Status::Ok);
        const MobilityId mobility = mobilities[random() % std::size(mobilities)];
        const float radius = randomRadius(random, layout);
        const int costList = int(random() % std::size(costLists));
        const std::span<const TerrainCost> costs = costLists[costList];
        INFO(toString(layout.kind()) << " trial " << trial << " step " << step << ": mobility " << int(mobility.value)
                                       << " radius " << radius << " cost list " << costList);
        QueryFilter filter;
        filter.costs = costs;
        // Ends mostly on tiles the mobility may enter (so that plans get past the ends' checks).
        auto anEnd = [&] {
          Cell cell{int(random() % w), int(random() % h)};
          for (int tries = 0; tries < 20 && !map.passable(cell, mobility); ++tries) cell = {int(random() % w), int(random() % h)};
          return layout.tileCenter(cell);
        };
        PathRequest request{anEnd(), anEnd(), mobility, radius};
        if (!costs.empty()) request.filter = &filter;

        // The answer is exactly the model's, for this key and for others asked in passing.
        REQUIRE(data.ready(mobility, radius, costs) == model.ready(layout, mobility, radius, costList));
        const float other = randomRadius(random, layout);
        CHECK(data.ready(mobility, other, costs) == model.ready(layout, mobility, other, costList));
        if (!data.ready(mobility, radius, costs)) {
          // Not ready: a plan says so clearly, whatever was prepared before (the ends' tiles are
          // looked at first, before the data: an end the mobility cannot enter may answer instead).
          const Status refused = shared.plan(request, got);
          const bool endFirst = refused == Status::StartBlocked || refused == Status::GoalBlocked;
          refusedForData += refused == Status::InvalidArgument ? 1 : 0;
          INFO("refused: " << toString(refused) << " " << got.reason);
          CHECK((endFirst || (refused == Status::InvalidArgument && got.reason.find("prepare()") != std::string::npos)));
          CHECK(data.layer(mobility, radius, costs) == nullptr);
          // (A narrow radius of the wide one's size class, on either layout: 0.45 tiles.)
          wideAfterNarrow += data.ready(mobility, 0.45f * layout.tileSize(), costs) && widerThanHalfTile(layout, radius) ? 1 : 0;
          REQUIRE(data.prepare(mobility, radius, costs) == Status::Ok);
          model.prepared(layout, mobility, radius, costList);
          ++prepared;
          REQUIRE(data.ready(mobility, radius, costs));
        }
        shared.plan(request, got);
        CHECK(got.reason.find("prepare()") == std::string::npos);
        Planner onFresh(world);  // its own data, built for the world as it is now
        onFresh.plan(request, expected);
        INFO("shared: " << toString(got.status) << " " << got.reason << "; fresh: " << toString(expected.status) << " "
                        << expected.reason);
        CHECK(test::digestOf(got) == test::digestOf(expected));
        ++plans;
        succeeded += isSuccess(got.status) ? 1 : 0;
        statuses[std::string(toString(got.status)) + " " + got.reason]++;  // shown with the counts below
      }
      // Data older than the map is not ready for anything, prepared or not.
      REQUIRE(map.setTerrain({0, 0}, TerrainId{std::uint8_t(map.terrainAt({0, 0}).value == 1 ? 0 : 1)}) == Status::Ok);
      CHECK_FALSE(data.ready(TerrainTable::kWalk, 0.0f));
    }
  }
  for (const auto& [status, count] : statuses) UNSCOPED_INFO(status << ": " << count);
  CHECK(plans > 700);
  CHECK(prepared > 300);
  CHECK(succeeded > 100);
  CHECK(refusedForData > 200);
  CHECK(wideAfterNarrow > 20);  // a narrow character prepared before a wide one, met many times
}

TEST_CASE("the exact any-angle search on patched navigation data: bit for bit its answers on data built afresh",
          "[nav][edits][property][anya]") {
  // It keeps no data of its own: it reads the grid's tiles and the sight lines' row bits, which
  // the edits patch in place. Maps of one cost (where it runs), walls put up and knocked down.
  std::mt19937 random(27);
  PlannerSettings exact;
  exact.search = SearchMode::ExactAnyAngle;
  int compared = 0, searched = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const int w = std::uniform_int_distribution<int>(4, 30)(random), h = std::uniform_int_distribution<int>(4, 30)(random);
    TileMap map = test::randomMap(random, Layout::square(), w, h, 0.2, false);
    const World world(map);
    NavData data(world);
    REQUIRE(data.prepare(TerrainTable::kWalk, 0.0f) == Status::Ok);
    for (int e = 0; e < 30; ++e) {
      const Cell low{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
      const Cell high{std::min(w - 1, low.x + std::uniform_int_distribution<int>(0, 3)(random)),
                      std::min(h - 1, low.y + std::uniform_int_distribution<int>(0, 3)(random))};
      const TerrainId terrain{std::uint8_t(random() % 3 == 0 ? 1 : 0)};  // wall or floor
      REQUIRE(map.setTerrain(low, high, terrain) == Status::Ok);
      REQUIRE(data.update().status == Status::Ok);
      NavData fresh(world);
      REQUIRE(fresh.prepare(TerrainTable::kWalk, 0.0f) == Status::Ok);
      Planner onPatched(data, exact), onFresh(fresh, exact);
      PathResult a, b;
      for (int q = 0; q < 4; ++q) {
        const Cell s{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
        const Cell g{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
        PathRequest request{Layout::square().tileCenter(s), Layout::square().tileCenter(g)};
        request.radius = q % 2 == 0 ? 0.0f : 0.3f;
        request.comfort = q < 2 ? 0.0f : 0.25f;
        onPatched.plan(request, a);
        onFresh.plan(request, b);
        CHECK(test::digestOf(a) == test::digestOf(b));
        ++compared;
        searched += onPatched.diagnostics().stats(PathStage::Search).ran && isSuccess(a.status) ? 1 : 0;
      }
    }
  }
  CHECK(compared == 12 * 30 * 4);
  CHECK(searched > 300);
}

TEST_CASE("navigation data: the contract with queries, the journal's reach and bad costs", "[nav][edits]") {
  TileMap map = test::mapFromAscii(Layout::square(), {
                                                         "..........",
                                                         "..........",
                                                         "..........",
                                                     });
  World world(map);
  NavData data(world);
  // Not prepared: ready() says so, and so does a planner on it.
  CHECK_FALSE(data.ready(TerrainTable::kWalk, 0.0f));
  Planner planner(data);
  PathResult result;
  const PathRequest request{Vec2(0.5f, 1.5f), Vec2(9.5f, 1.5f)};
  CHECK(planner.plan(request, result) == Status::InvalidArgument);
  CHECK(std::string(result.reason).find("prepare") != std::string::npos);
  REQUIRE(data.prepare(TerrainTable::kWalk) == Status::Ok);
  REQUIRE(planner.plan(request, result) == Status::Ok);
  // An edit not yet applied: the planner refuses rather than read data older than the map.
  REQUIRE(map.setTerrain({5, 0}, {5, 2}, TerrainId{1}) == Status::Ok);
  CHECK_FALSE(data.current());
  CHECK(planner.plan(request, result) == Status::InvalidArgument);
  CHECK(std::string(result.reason).find("update") != std::string::npos);
  const NavUpdate update = data.update();
  CHECK(update.tilesChanged == 3);
  CHECK(update.tileEdits == 1);
  CHECK(planner.plan(request, result) == Status::NoPath);  // the wall cuts the map in two
  // A door added without an update: refused too; door states need none.
  const DoorId door = world.addDoor({"gate", {5, 1}, {6, 1}, DoorState::Open}).value();
  CHECK(planner.plan(request, result) == Status::InvalidArgument);
  CHECK(data.update().doorsChanged);
  REQUIRE(map.setTerrain({5, 1}, TerrainId{0}) == Status::Ok);
  data.update();
  REQUIRE(planner.plan(request, result) == Status::Ok);
  REQUIRE(world.setDoorState(door, DoorState::Closed) == Status::Ok);
  CHECK(data.current());
  CHECK(planner.plan(request, result) == Status::StoppedAtDoor);

  // More edits than the journal keeps: the data is built afresh, and equal to fresh data.
  for (std::size_t i = 0; i <= TileMap::kJournalLimit; ++i) {
    REQUIRE(map.setTerrain({int(i % 10), int(i % 3)}, TerrainId{std::uint8_t(i % 7 == 0 ? 1 : 0)}) == Status::Ok);
  }
  const NavUpdate rebuilt = data.update();
  CHECK(rebuilt.rebuilt);
  NavData fresh(world);
  REQUIRE(fresh.prepare(TerrainTable::kWalk) == Status::Ok);
  CHECK(test::layerDifference(*data.layer(TerrainTable::kWalk, 0.0f), *fresh.layer(TerrainTable::kWalk, 0.0f), true).empty());

  // A cost the search cannot take: the update says so and the layer is gone until prepared again.
  REQUIRE(map.setTerrainCost(TerrainId{0}, TerrainTable::kWalk, 5000.0f) == Status::Ok);
  const NavUpdate bad = data.update();
  CHECK(bad.status == Status::InvalidArgument);
  CHECK(bad.reason.find("floor") != std::string::npos);
  CHECK(data.layer(TerrainTable::kWalk, 0.0f) == nullptr);
  CHECK_FALSE(data.ready(TerrainTable::kWalk, 0.0f));  // its last update failed
  CHECK(planner.plan(request, result) == Status::InvalidArgument);
  REQUIRE(map.setTerrainCost(TerrainId{0}, TerrainTable::kWalk, 1.0f) == Status::Ok);
  data.update();
  REQUIRE(data.prepare(TerrainTable::kWalk) == Status::Ok);
  CHECK(isSuccess(planner.plan(request, result)));
  // Bad preparations.
  CHECK(data.prepare(MobilityId{7}) == Status::InvalidArgument);
  CHECK(data.prepare(TerrainTable::kWalk, 3.01f) == Status::InvalidArgument);  // over three tiles
  CHECK(data.prepare(TerrainTable::kWalk, -0.1f) == Status::InvalidArgument);
  CHECK(data.clearance(TerrainTable::kWalk) == nullptr);
  REQUIRE(data.prepare(TerrainTable::kWalk, 3.0f) == Status::Ok);
  CHECK(data.clearance(TerrainTable::kWalk) != nullptr);
  CHECK(data.prepare(TerrainTable::kWalk, std::numeric_limits<float>::quiet_NaN()) == Status::InvalidArgument);
  CHECK(data.ready(TerrainTable::kWalk, 3.0f));
  CHECK(data.ready(TerrainTable::kWalk, 0.2f));  // the same layer: a narrow character needs no clearance
  CHECK_FALSE(data.ready(TerrainTable::kWalk, 3.01f));
  CHECK_FALSE(data.ready(TerrainTable::kWalk, -0.1f));
  CHECK_FALSE(data.ready(TerrainTable::kWalk, std::numeric_limits<float>::quiet_NaN()));
  CHECK_FALSE(data.ready(MobilityId{7}, 0.0f));
  CHECK_FALSE(data.ready(TerrainTable::kFly, 0.0f));
}

TEST_CASE("ready(): a narrow character prepared does not make a wide one ready", "[nav]") {
  // The shared case: on the town, radius 0.4 planned and then 1.5 on the same data.
  TileMap map = test::mapFromAscii(Layout::square(), {
                                                         "..........",
                                                         "..........",
                                                         "..........",
                                                         "..........",
                                                     });
  World world(map);
  NavData data(world);
  constexpr TerrainCost kCosts[] = {{TerrainId{0}, 2.0f}};
  REQUIRE(data.prepare(TerrainTable::kWalk, 0.4f) == Status::Ok);
  REQUIRE(data.prepare(TerrainTable::kWalk, 0.4f, kCosts) == Status::Ok);
  CHECK(data.ready(TerrainTable::kWalk, 0.4f));
  CHECK(data.ready(TerrainTable::kWalk, 0.4f, kCosts));
  CHECK_FALSE(data.ready(TerrainTable::kWalk, 0.5f));  // half a tile: the clearance is read
  CHECK_FALSE(data.ready(TerrainTable::kWalk, 1.5f));
  CHECK_FALSE(data.ready(TerrainTable::kWalk, 1.5f, kCosts));
  CHECK(data.layer(TerrainTable::kWalk, 1.5f) == nullptr);
  Planner planner(data);
  PathResult result;
  const PathRequest wide{Vec2(2.0f, 2.0f), Vec2(8.0f, 2.0f), TerrainTable::kWalk, 1.5f};
  CHECK(planner.plan(wide, result) == Status::InvalidArgument);
  CHECK(result.reason.find("prepare() it first") != std::string::npos);
  REQUIRE(data.prepare(TerrainTable::kWalk, 1.5f) == Status::Ok);
  CHECK(data.ready(TerrainTable::kWalk, 1.5f));
  CHECK(data.ready(TerrainTable::kWalk, 0.5f));  // every wide radius shares the clearance
  CHECK_FALSE(data.ready(TerrainTable::kWalk, 1.5f, kCosts));  // another cost list: its own data
  CHECK(planner.plan(wide, result) == Status::Ok);
  Planner onFresh(world);
  PathResult expected;
  onFresh.plan(wide, expected);
  CHECK(test::digestOf(result) == test::digestOf(expected));
  // On hex maps: narrow, then wide of its own size class, then wider than half a tile.
  TileMap hex = test::mapFromAscii(Layout::hexPointy(), {
                                                            "........",
                                                            "........",
                                                            "........",
                                                            "........",
                                                        });
  World hexWorld(hex);
  NavData hexData(hexWorld);
  REQUIRE(hexData.prepare(TerrainTable::kWalk, 0.2f) == Status::Ok);
  CHECK_FALSE(hexData.ready(TerrainTable::kWalk, 0.3f));  // at least half a hex edge: another layer
  REQUIRE(hexData.prepare(TerrainTable::kWalk, 0.3f) == Status::Ok);
  CHECK(hexData.ready(TerrainTable::kWalk, 0.4f));
  CHECK_FALSE(hexData.ready(TerrainTable::kWalk, 0.75f));
  REQUIRE(hexData.prepare(TerrainTable::kWalk, 0.75f) == Status::Ok);
  CHECK(hexData.ready(TerrainTable::kWalk, 2.5f));
}

TEST_CASE("landmarks after edits: never a wrong search, and refreshed in steps to what a fresh build has",
          "[nav][edits][landmarks]") {
  std::mt19937 random(7);
  int checked = 0, offWhileStale = 0;
  for (const Layout& layout : {Layout::square(), Layout::hexFlat()}) {
    TileMap map = test::randomMap(random, layout, 30, 24, 0.15);
    World world(map);
    NavDataSettings settings;
    settings.landmarks = 4;
    NavData data(world, settings);
    REQUIRE(data.prepare(TerrainTable::kWalk) == Status::Ok);
    const NavLayer& layer = *data.layer(TerrainTable::kWalk, 0.0f);
    REQUIRE(layer.grid().landmarksUsable());
    for (int round = 0; round < 12; ++round) {
      randomEdit(random, map, world);
      data.update();
      offWhileStale += layer.grid().landmarksUsable() ? 0 : 1;
      // Whatever state the landmarks are in, every search is optimal: its cost is a plain
      // Dijkstra's (with the landmarks' rounding as the only slack it is allowed: none).
      for (int q = 0; q < 20; ++q) {
        const Cell s{std::uniform_int_distribution<int>(0, 29)(random), std::uniform_int_distribution<int>(0, 23)(random)};
        const Cell g{std::uniform_int_distribution<int>(0, 29)(random), std::uniform_int_distribution<int>(0, 23)(random)};
        SearchContext context;
        SearchResult result;
        SearchRequest request{s, g};
        context.findPath(layer.grid(), request, result);
        const std::vector<std::int64_t> reference = test::dijkstraCosts(map, TerrainTable::kWalk, s);
        if (!map.passable(s, TerrainTable::kWalk) || !map.passable(g, TerrainTable::kWalk)) continue;
        const std::int64_t expected = reference[std::size_t(map.index(g))];
        INFO(toString(layout.kind()) << " round " << round << " query " << q);
        if (expected < 0) {
          CHECK(result.status == Status::NoPath);
        } else {
          REQUIRE(result.status == Status::Ok);
          CHECK(result.costUnits == expected);
          ++checked;
        }
      }
      // Refreshed a sweep at a time: in use again once done, and then the same as a fresh build.
      int calls = 0;
      while (!data.refreshLandmarks(1)) ++calls;
      CHECK(calls <= 5);
      CHECK(layer.grid().landmarksUsable());
      NavData fresh(world, settings);
      REQUIRE(fresh.prepare(TerrainTable::kWalk) == Status::Ok);
      CHECK(test::gridDifference(layer.grid(), fresh.layer(TerrainTable::kWalk, 0.0f)->grid(), true).empty());
    }
  }
  CHECK(checked > 200);
  CHECK(offWhileStale > 0);
}

TEST_CASE("landmarks of data a planner or a scheduler owns: off after an opening, refreshed through the owner",
          "[nav][edits][landmarks]") {
  std::mt19937 random(11);
  TileMap map = test::randomMap(random, Layout::square(), 32, 32, 0.25);
  World world(map);
  NavDataSettings settings;
  settings.landmarks = 3;
  Planner planner(world, {}, settings);
  ReplanScheduler scheduler(world, {}, {}, settings);
  Planner onShared(scheduler.navData());
  CHECK(onShared.ownNavData() == nullptr);
  REQUIRE(planner.ownNavData() != nullptr);
  NavData& schedulerData = scheduler.navData();
  REQUIRE(schedulerData.prepare(TerrainTable::kWalk) == Status::Ok);

  std::vector<Cell> open, walls;
  for (std::int32_t y = 0; y < 32; ++y) {
    for (std::int32_t x = 0; x < 32; ++x) (map.passable({x, y}, TerrainTable::kWalk) ? open : walls).push_back({x, y});
  }
  REQUIRE(open.size() > 2);
  REQUIRE(!walls.empty());
  const PathRequest request{map.layout().tileCenter(open.front()), map.layout().tileCenter(open.back()), TerrainTable::kWalk, 0.0f};
  PathResult result;
  planner.plan(request, result);  // prepares the planner's own walk layer
  const NavLayer* own = planner.navData().layer(TerrainTable::kWalk, 0.0f);
  REQUIRE(own != nullptr);
  REQUIRE(own->grid().landmarksUsable());

  REQUIRE(map.setTerrain(walls.front(), map.terrainAt(open.front())) == Status::Ok);  // a wall smashed
  planner.plan(request, result);  // the planner updates its own data: landmarks off, search exact
  CHECK(planner.navData().current());
  CHECK_FALSE(own->grid().landmarksUsable());
  CHECK(schedulerData.update().tilesChanged == 1);
  CHECK_FALSE(schedulerData.layer(TerrainTable::kWalk, 0.0f)->grid().landmarksUsable());

  // Refreshed through each owner, both equal what a fresh build has.
  CHECK(planner.ownNavData()->refreshLandmarks(100));
  CHECK(schedulerData.refreshLandmarks(100));
  NavData fresh(world, settings);
  REQUIRE(fresh.prepare(TerrainTable::kWalk) == Status::Ok);
  const SearchGrid& expected = fresh.layer(TerrainTable::kWalk, 0.0f)->grid();
  CHECK(own->grid().landmarksUsable());
  CHECK(test::gridDifference(own->grid(), expected, true).empty());
  CHECK(test::gridDifference(schedulerData.layer(TerrainTable::kWalk, 0.0f)->grid(), expected, true).empty());
}

TEST_CASE("planners on shared navigation data allocate nothing once warm", "[nav][memory]") {
  // With terrain costs (the 8-way search), and on a map of one cost with the exact any-angle
  // search.
  for (const bool exact : {false, true}) {
    std::mt19937 random(3);
    const TileMap map = test::randomMap(random, Layout::square(), 40, 40, 0.2, !exact);
    World world(map);
    NavData data(world);
    REQUIRE(data.prepare(TerrainTable::kWalk, 0.2f) == Status::Ok);
    PlannerSettings settings;
    settings.search = exact ? SearchMode::ExactAnyAngle : SearchMode::Tiles;
    Planner planner(data, settings);
    PathResult result;
    std::vector<PathRequest> requests;
    for (int q = 0; q < 30; ++q) {
      const Cell s{std::uniform_int_distribution<int>(0, 39)(random), std::uniform_int_distribution<int>(0, 39)(random)};
      const Cell g{std::uniform_int_distribution<int>(0, 39)(random), std::uniform_int_distribution<int>(0, 39)(random)};
      requests.push_back({map.layout().tileCenter(s), map.layout().tileCenter(g), TerrainTable::kWalk, 0.2f});
    }
    for (int warm = 0; warm < 2; ++warm) {
      for (const PathRequest& request : requests) planner.plan(request, result);
    }
    INFO("exact " << exact);  // (before the count: a message allocates)
    const std::size_t before = test::allocationCount();
    int searched = 0;
    for (const PathRequest& request : requests) {
      planner.plan(request, result);
      searched += planner.diagnostics().stats(PathStage::Search).ran ? 1 : 0;
    }
    CHECK(test::allocationCount() == before);
    CHECK(searched >= 5);
  }
}
