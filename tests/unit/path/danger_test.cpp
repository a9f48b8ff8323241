// SPDX-License-Identifier: MIT
// Danger for characters: PathRequest::dangerFactor weighs the world's DangerMap into every
// stage through the tile costs (NavData's danger layers), exactly, patched in place by edits.
#include <catch2/catch.hpp>

#include "nav/nav_layer.hpp"
#include "rpgnav/nav/nav_data.hpp"
#include "rpgnav/path/planner.hpp"
#include "rpgnav/schedule/replan_scheduler.hpp"
#include "search/search_context.hpp"
#include "support/crowd_run.hpp"
#include "support/reference_search.hpp"
#include "support/result_hash.hpp"
#include "support/test_maps.hpp"

#include <algorithm>
#include <limits>
#include <random>
#include <vector>

using namespace rpgnav;

namespace {

constexpr MobilityId kWalk = TerrainTable::kWalk;

std::uint64_t digestOf(const PathResult& result) {
  test::Digest digest;
  test::addResult(digest, result);
  return digest.value();
}

// The cost model written out independently of DangerMap::weightedCost: c + f·d/(256 − f), capped.
float expectedCost(float cost, int danger, int factor) {
  if (cost == TerrainTable::kImpassable || factor == 0 || danger == 0) return cost;
  return std::min(cost + float(factor) * float(danger) / float(256 - factor), 1000.0f);
}

// Random danger: a layer of a few values on random blobs and a stamp.
void addRandomDanger(std::mt19937& random, World& world) {
  const std::uint8_t values[] = {0, 0, 10, 40, 200};
  const test::RandomDanger danger = test::randomDanger(random, world.map(), values, 60);
  REQUIRE(world.danger().setLayer(0, danger.layer) == Status::Ok);
  REQUIRE(world.danger().addStamp(danger.stamp).ok());
}

// The points of a path's control polyline, every 1/200 of each segment.
std::vector<Vec2> samples(const PathResult& path) {
  std::vector<Vec2> points;
  for (std::size_t i = 1; i < path.controlPoints.size(); ++i) {
    const Vec2 a = path.controlPoints[i - 1], b = path.controlPoints[i];
    for (int k = 0; k <= 200; ++k) points.push_back(a + (b - a) * (float(k) / 200.0f));
  }
  return points;
}

// A meadow of 10 × 5 tiles, with a wolves' den in the middle: rows 1-3 of columns 3-6.
TileMap meadow() { return test::mapFromAscii(Layout::square(), {"..........", "..........", "..........", "..........", ".........."}); }
void setDen(World& world, std::uint8_t danger) {
  for (int y = 1; y <= 3; ++y) {
    for (int x = 3; x <= 6; ++x) REQUIRE(world.danger().setDanger(0, {x, y}, danger) == Status::Ok);
  }
}

// True when the control polyline enters the wolves' den of the tests below (x 3-7, y 1-4).
bool crossesDen(const PathResult& path) {
  const std::vector<Vec2> points = samples(path);
  return std::any_of(points.begin(), points.end(),
                     [](const Vec2& p) { return p.x() > 3.0f && p.x() < 7.0f && p.y() > 1.0f && p.y() < 4.0f; });
}

SearchResult searchOn(const NavLayer& layer, Cell start, Cell goal) {
  SearchContext context;
  SearchResult result;
  SearchRequest request;
  request.start = start;
  request.goal = goal;
  context.findPath(layer.grid(), request, result);
  return result;
}

}  // namespace

TEST_CASE("danger: the cost model", "[path][danger]") {
  CHECK(DangerMap::weightedCost(1.0f, 0, 200) == 1.0f);
  CHECK(DangerMap::weightedCost(1.5f, 100, 0) == 1.5f);
  CHECK(DangerMap::weightedCost(1.0f, 100, 128) == 101.0f);  // 1 + 128·100/128
  CHECK(DangerMap::weightedCost(2.0f, 3, 192) == 11.0f);     // 2 + 192·3/64
  CHECK(DangerMap::weightedCost(1.0f, 255, 255) == kMaxSearchCost);  // capped
  CHECK(DangerMap::weightedCost(TerrainTable::kImpassable, 255, 100) == TerrainTable::kImpassable);
  CHECK(DangerMap::weightedCost(2000.0f, 10, 100) == 2000.0f);  // out of the search's range: left to it
  // Proportional to the byte weight crowd fields of earlier versions used, (256 − f)·c + f·d, for
  // whole costs c (so maps tuned against those fields rank routes as before).
  for (int f : {1, 77, 128, 254}) {
    for (int d : {1, 17, 255}) {
      for (int c : {1, 3}) {
        const float weight = float((256 - f) * c + f * d);
        CHECK(DangerMap::weightedCost(float(c), std::uint8_t(d), std::uint8_t(f)) ==
              Approx(std::min(weight / float(256 - f), 1000.0f)).epsilon(1e-6));
      }
    }
  }
}

TEST_CASE("danger: the danger map adds layers and stamps, clamps, journals and refuses bad input", "[path][danger]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {"......", "......", "......"});
  DangerMap danger(map);
  CHECK(danger.clear());
  REQUIRE(danger.setDanger(0, {1, 1}, 200) == Status::Ok);
  REQUIRE(danger.setDanger(3, {1, 1}, 100) == Status::Ok);
  CHECK(danger.danger({1, 1}) == 255);  // clamped
  CHECK(danger.danger({0, 0}) == 0);
  CHECK(danger.danger({-1, 0}) == 0);
  CHECK(danger.danger({6, 0}) == 0);
  CHECK_FALSE(danger.clear());
  DangerMap::Stamp stamp;
  stamp.centre = Vec2(4.5f, 1.5f);
  stamp.radius = 1.0f;
  stamp.peak = 90;
  stamp.falloff = 1.0f;
  const std::uint64_t before = danger.version();
  auto id = danger.addStamp(stamp);
  REQUIRE(id.ok());
  CHECK(danger.danger({4, 1}) == 90);  // the centre's tile: the peak
  CHECK(danger.danger({5, 1}) == 0);   // at the rim: falls to 0
  CHECK(danger.danger({3, 1}) == 0);
  std::vector<DangerMap::Change> changes;
  REQUIRE(danger.changesSince(before, changes));
  REQUIRE(changes.size() == 1);
  CHECK(changes[0].low.x <= 4);
  CHECK(changes[0].high.x >= 4);
  REQUIRE(danger.removeStamp(id.value()) == Status::Ok);
  CHECK(danger.danger({4, 1}) == 0);
  CHECK(danger.removeStamp(id.value()) == Status::InvalidArgument);
  // Bad input.
  CHECK(danger.setDanger(-1, {0, 0}, 1) == Status::InvalidArgument);
  CHECK(danger.setDanger(kMaxDangerLayers, {0, 0}, 1) == Status::InvalidArgument);
  CHECK(danger.setDanger(0, {6, 0}, 1) == Status::InvalidArgument);
  const std::uint8_t few[] = {1, 2, 3};
  CHECK(danger.setLayer(0, few) == Status::InvalidArgument);
  stamp.centre = Vec2(std::numeric_limits<float>::quiet_NaN(), 0.0f);
  CHECK(danger.addStamp(stamp).status() == Status::InvalidArgument);
  stamp.centre = Vec2(1.0f, 1.0f);
  stamp.radius = -1.0f;
  CHECK(danger.addStamp(stamp).status() == Status::InvalidArgument);
  stamp.radius = std::numeric_limits<float>::infinity();
  CHECK(danger.addStamp(stamp).status() == Status::InvalidArgument);
  stamp.radius = 1.0f;
  stamp.falloff = 1.5f;
  CHECK(danger.addStamp(stamp).status() == Status::InvalidArgument);
  // A huge stamp far off the map costs the map at most and changes nothing there.
  stamp.falloff = 0.0f;
  stamp.centre = Vec2(1e30f, -1e30f);
  stamp.radius = 1e20f;
  CHECK(danger.addStamp(stamp).ok());
  // The journal reaches back only so far.
  DangerMap busy(map);
  for (std::size_t i = 0; i <= DangerMap::kJournalLimit; ++i) REQUIRE(busy.setDanger(0, {0, 0}, std::uint8_t(i % 7)) == Status::Ok);
  changes.clear();
  CHECK_FALSE(busy.changesSince(0, changes));
  CHECK(busy.changesSince(busy.version() - 3, changes));
  CHECK(changes.size() == 3);
  // An empty map.
  DangerMap none;
  CHECK(none.setDanger(0, {0, 0}, 1) == Status::InvalidArgument);
  CHECK(none.danger({0, 0}) == 0);
}

TEST_CASE("danger: the search's cost equals an independent Dijkstra's under the danger model", "[path][danger][property]") {
  std::mt19937 random(5151);
  int compared = 0, dearer = 0;
  for (const Layout& layout : test::allLayouts()) {
    for (int trial = 0; trial < 12; ++trial) {
      const int w = std::uniform_int_distribution<int>(5, 24)(random), h = std::uniform_int_distribution<int>(5, 24)(random);
      const TileMap map = test::randomMap(random, layout, w, h, 0.15);
      World world(map);
      addRandomDanger(random, world);
      const int factors[] = {30, 128, 255};
      const int factor = factors[trial % 3];
      NavData data(world);
      REQUIRE(data.prepare(kWalk, 0.0f, {}, std::uint8_t(factor)) == Status::Ok);
      const NavLayer* layer = data.layer(kWalk, 0.0f, {}, std::uint8_t(factor));
      REQUIRE(layer != nullptr);
      REQUIRE(layer != data.layer(kWalk, 0.0f));
      const test::TileCost weighted = [&](Cell cell) {
        return expectedCost(map.cost(cell, kWalk), world.danger().danger(cell), factor);
      };
      for (int q = 0; q < 4; ++q) {
        const Cell start{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
        if (!map.passable(start, kWalk)) continue;
        const std::vector<std::int64_t> best = test::dijkstraCosts(map, kWalk, start, {}, weighted);
        const std::vector<std::int64_t> plain = test::dijkstraCosts(map, kWalk, start);
        for (int g = 0; g < 6; ++g) {
          const Cell goal{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
          const std::int64_t expected = best[std::size_t(map.index(goal))];
          const SearchResult result = searchOn(*layer, start, goal);
          INFO(toString(layout.kind()) << " trial " << trial << " factor " << factor);
          if (expected < 0) {
            CHECK(!isSuccess(result.status));
            continue;
          }
          REQUIRE(result.status == Status::Ok);
          CHECK(result.costUnits == expected);
          ++compared;
          dearer += expected > plain[std::size_t(map.index(goal))] ? 1 : 0;
        }
      }
    }
  }
  CHECK(compared > 500);
  CHECK(dearer > compared / 4);  // the danger mattered
}

TEST_CASE("danger: factor 0 plans bit for bit as a world without danger; a factor plans as a map of those costs",
          "[path][danger][property]") {
  std::mt19937 random(6262);
  int compared = 0, changed = 0;
  for (const Layout& layout : test::allLayouts()) {
    for (int trial = 0; trial < 8; ++trial) {
      const int w = std::uniform_int_distribution<int>(6, 20)(random), h = std::uniform_int_distribution<int>(6, 20)(random);
      const TileMap map = test::randomMap(random, layout, w, h, trial % 2 == 0 ? 0.12 : 0.02);
      World world(map), calm(map);
      addRandomDanger(random, world);
      const int factor = std::uniform_int_distribution<int>(1, 255)(random);
      // The reference: a map whose terrain table has a terrain per (terrain, danger) pair,
      // built here tile by tile.
      TerrainTable table = map.terrain();
      std::vector<TerrainId> tiles(map.tiles().begin(), map.tiles().end());
      std::vector<int> pairOf(256 * 256, -1);
      for (std::int32_t index = 0; index < map.tileCount(); ++index) {
        const int d = world.danger().danger(map.cellAt(index));
        if (d == 0) continue;
        int& pair = pairOf[tiles[std::size_t(index)].value * 256 + d];
        if (pair < 0) {
          auto added = table.addTerrain("t" + std::to_string(index));
          REQUIRE(added.ok());
          for (int m = 0; m < table.mobilityCount(); ++m) {
            const float cost = map.cost(map.cellAt(index), MobilityId{std::uint8_t(m)});
            if (cost != TerrainTable::kImpassable) {
              REQUIRE(table.setCost(added.value(), MobilityId{std::uint8_t(m)}, expectedCost(cost, d, factor)) == Status::Ok);
            }
          }
          pair = added.value().value;
        }
        tiles[std::size_t(index)] = TerrainId{std::uint8_t(pair)};
      }
      auto reference = TileMap::create(layout, w, h, table, tiles);
      REQUIRE(reference.ok());
      World referenceWorld(reference.value());
      Planner onDanger(world), onCalm(calm), onReference(referenceWorld);
      NavData shared(world);
      Planner onShared(shared);
      for (int q = 0; q < 10; ++q) {
        const Cell s{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
        const Cell g{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
        const float radius = (trial % 2 == 1 && q % 3 == 2 ? 0.6f : 0.25f) * layout.tileSize();
        PathRequest request{layout.tileCenter(s), layout.tileCenter(g), kWalk, radius};
        PathResult zero, noDanger, weighted, expected, shared_;
        const Status zeroStatus = onDanger.plan(request, zero);
        CHECK(onCalm.plan(request, noDanger) == zeroStatus);
        CHECK(digestOf(zero) == digestOf(noDanger));
        const Status expectedStatus = onReference.plan(request, expected);
        request.dangerFactor = std::uint8_t(factor);
        INFO(toString(layout.kind()) << " trial " << trial << " query " << q << " factor " << factor);
        CHECK(onDanger.plan(request, weighted) == expectedStatus);
        CHECK(digestOf(weighted) == digestOf(expected));
        REQUIRE(shared.prepare(kWalk, radius, {}, std::uint8_t(factor)) == Status::Ok);
        CHECK(onShared.plan(request, shared_) == expectedStatus);
        CHECK(digestOf(shared_) == digestOf(expected));
        ++compared;
        changed += digestOf(weighted) != digestOf(zero) ? 1 : 0;
      }
    }
  }
  CHECK(compared == 5 * 8 * 10);
  CHECK(changed > compared / 4);
}

TEST_CASE("danger: a character with a danger factor goes round the wolves; without one it does not",
          "[path][danger]") {
  const TileMap map = meadow();
  World world(map);
  setDen(world, 120);
  Planner planner(world);
  PathRequest request{Vec2(0.5f, 2.5f), Vec2(9.5f, 2.5f), kWalk, 0.2f};
  PathResult brave, careful;
  REQUIRE(planner.plan(request, brave) == Status::Ok);
  CHECK(brave.cost == Approx(9.0));  // straight through: danger ignored
  request.dangerFactor = 128;       // a den tile costs 1 + 120
  REQUIRE(planner.plan(request, careful) == Status::Ok);
  // Round the den: no point of the path inside it, and dearer in length than straight through.
  CHECK(crossesDen(brave));
  CHECK_FALSE(crossesDen(careful));
  CHECK(careful.length > brave.length + 1.0);
  // Its cost reads the danger: far below crossing the den (4 tiles × 121), above the bare length.
  CHECK(careful.cost < 4 * 121.0);
  CHECK(careful.cost >= careful.length - 1e-6);
  // A fire on the way round it took: the planner's own data follows the edit, and the path
  // takes the other way round, no cheaper.
  DangerMap::Stamp fire;
  const std::vector<Vec2> way = samples(careful);
  const bool north = std::any_of(way.begin(), way.end(), [](const Vec2& p) { return p.y() < 1.0f; });
  fire.centre = Vec2(5.0f, north ? 0.5f : 4.5f);  // on the way it took
  fire.radius = 1.6f;
  fire.peak = 250;
  fire.falloff = 0.0f;
  REQUIRE(world.danger().addStamp(fire).ok());
  PathResult afterFire;
  REQUIRE(planner.plan(request, afterFire) == Status::Ok);
  CHECK_FALSE(crossesDen(afterFire));
  for (const Vec2& point : samples(afterFire)) CHECK((point - fire.centre).norm() > 1.0f);
  CHECK(afterFire.cost >= careful.cost);
  const std::vector<Vec2> after = samples(afterFire);
  CHECK(std::any_of(after.begin(), after.end(), [&](const Vec2& p) { return north ? p.y() > 4.0f : p.y() < 1.0f; }));
}

TEST_CASE("danger: edits to danger and tiles, then update(), plan as data built afresh", "[path][danger][property]") {
  std::mt19937 random(7373);
  int compared = 0, rebuiltOrPatched = 0;
  for (const Layout& layout : test::allLayouts()) {
    for (int trial = 0; trial < 6; ++trial) {
      const int w = std::uniform_int_distribution<int>(8, 20)(random), h = std::uniform_int_distribution<int>(8, 20)(random);
      TileMap map = test::randomMap(random, layout, w, h, 0.1);
      World world(map);
      if (trial % 3 != 0) addRandomDanger(random, world);  // (a third start with no danger at all)
      const std::uint8_t factor = std::uint8_t(std::uniform_int_distribution<int>(1, 255)(random));
      NavData shared(world);
      const float radius = (trial % 2 == 0 ? 0.25f : 0.6f) * layout.tileSize();
      REQUIRE(shared.prepare(kWalk, radius, {}, factor) == Status::Ok);
      std::vector<std::uint32_t> stamps;
      for (int round = 0; round < 6; ++round) {
        const int kind = std::uniform_int_distribution<int>(0, 3)(random);
        const Cell cell{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
        if (kind == 0) {
          const std::uint8_t values[] = {0, 10, 40, 200};
          REQUIRE(world.danger().setDanger(1, cell, values[random() % 4]) == Status::Ok);
        } else if (kind == 1 || stamps.empty()) {
          DangerMap::Stamp stamp;
          stamp.centre = layout.tileCenter(cell);
          stamp.radius = 2.0f * layout.tileSize();
          stamp.peak = 30;
          stamp.falloff = 0.0f;
          auto id = world.danger().addStamp(stamp);
          REQUIRE(id.ok());
          stamps.push_back(id.value());
        } else if (kind == 2) {
          REQUIRE(world.danger().removeStamp(stamps.back()) == Status::Ok);
          stamps.pop_back();
        } else {
          const char symbols[] = {'.', '#', ',', '~'};
          REQUIRE(map.setTerrain(cell, *map.terrain().findTerrainBySymbol(symbols[random() % 4])) == Status::Ok);
        }
        Planner onShared(shared);
        PathRequest request{layout.tileCenter(cell), layout.tileCenter({w - 1 - cell.x, h - 1 - cell.y}), kWalk, radius};
        request.dangerFactor = factor;
        PathResult stale;
        CHECK(onShared.plan(request, stale) == Status::InvalidArgument);  // older than the danger or the map
        const NavUpdate update = shared.update();
        REQUIRE(update.status == Status::Ok);
        rebuiltOrPatched += update.rebuilt ? 0 : 1;
        NavData fresh(world);
        REQUIRE(fresh.prepare(kWalk, radius, {}, factor) == Status::Ok);
        Planner onFresh(fresh);
        for (int q = 0; q < 4; ++q) {
          const Cell s{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
          const Cell g{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
          request.start = layout.tileCenter(s);
          request.goal = layout.tileCenter(g);
          PathResult patched, built;
          INFO(toString(layout.kind()) << " trial " << trial << " round " << round << " query " << q);
          CHECK(onShared.plan(request, patched) == onFresh.plan(request, built));
          CHECK(digestOf(patched) == digestOf(built));
          ++compared;
        }
      }
    }
  }
  CHECK(compared == 5 * 6 * 6 * 4);
  CHECK(rebuiltOrPatched > 0);
}

TEST_CASE("danger: a factor needs its data prepared; too many (terrain, danger) pairs are refused", "[path][danger]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {"....", ".,,.", "...."});
  World world(map);
  REQUIRE(world.danger().setDanger(0, {1, 1}, 50) == Status::Ok);
  NavData shared(world);
  REQUIRE(shared.prepare(kWalk, 0.2f) == Status::Ok);
  Planner planner(shared);
  PathRequest request{Vec2(0.5f, 0.5f), Vec2(3.5f, 2.5f), kWalk, 0.2f};
  request.dangerFactor = 90;
  PathResult result;
  CHECK(planner.plan(request, result) == Status::InvalidArgument);
  CHECK(result.reason.find("prepare") != std::string::npos);
  CHECK_FALSE(shared.ready(kWalk, 0.2f, {}, 90));
  REQUIRE(shared.prepare(kWalk, 0.2f, {}, 90) == Status::Ok);
  CHECK(shared.ready(kWalk, 0.2f, {}, 90));
  CHECK(planner.plan(request, result) == Status::Ok);
  // A danger edit makes the data older than the world until update().
  REQUIRE(world.danger().setDanger(0, {2, 1}, 50) == Status::Ok);
  CHECK_FALSE(shared.current());
  CHECK(planner.plan(request, result) == Status::InvalidArgument);
  CHECK(shared.update().status == Status::Ok);
  CHECK(planner.plan(request, result) == Status::Ok);
  // Every danger value on every tile of a map of several terrains: more pairs than a terrain
  // table holds.
  std::mt19937 random(3);
  const TileMap wide = test::randomMap(random, Layout::square(), 60, 60, 0.0);
  World crowded(wide);
  std::vector<std::uint8_t> values(std::size_t(wide.tileCount()));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = std::uint8_t(1 + i % 255);
  REQUIRE(crowded.danger().setLayer(0, values) == Status::Ok);
  NavData full(crowded);
  CHECK(full.prepare(kWalk, 0.2f, {}, 50) == Status::LimitExceeded);
  CHECK(full.prepare(kWalk, 0.2f) == Status::Ok);  // factor 0 is unaffected
  Planner own(crowded);
  request.start = request.goal = Vec2(-1.0f, -1.0f);
  for (std::int32_t index = 0; index < wide.tileCount(); ++index) {
    if (!wide.passable(wide.cellAt(index), kWalk)) continue;
    (request.start.x() < 0.0f ? request.start : request.goal) = wide.layout().tileCenter(wide.cellAt(index));
  }
  request.dangerFactor = 50;
  CHECK(own.plan(request, result) == Status::LimitExceeded);
  CHECK(result.reason.find("danger") != std::string::npos);
  request.dangerFactor = 0;
  CHECK(own.plan(request, result) == Status::Ok);
}

TEST_CASE("danger: the scheduler's characters plan at their own factor or the world's, and follow danger edits",
          "[path][danger][schedule]") {
  const TileMap map = meadow();
  World world(map);
  setDen(world, 120);
  world.setDangerFactor(128);  // the designer's: what characters without a factor of their own use
  NavData data(world);
  ReplanScheduler scheduler(data, {}, SchedulerSettings{});
  // (Apart, so that neither is in the other's way.)
  CharacterSpec careful = test::characterSpec(1, Vec2(0.5f, 1.5f), Goal::at(Vec2(9.5f, 1.5f)), 2.0f, 0.2f);
  CharacterSpec brave = test::characterSpec(2, Vec2(0.5f, 3.5f), Goal::at(Vec2(9.5f, 3.5f)), 2.0f, 0.2f);
  brave.dangerFactor = 0;
  REQUIRE(scheduler.add(careful) == Status::Ok);
  REQUIRE(scheduler.add(brave) == Status::Ok);
  CHECK(data.ready(kWalk, 0.2f));          // the world's factor, prepared by add()
  CHECK(data.ready(kWalk, 0.2f, {}, 0));   // and factor 0
  scheduler.update(0.0, ReplanBudget{});
  const PathResult* round = scheduler.path(EntityId{1});
  const PathResult* through = scheduler.path(EntityId{2});
  REQUIRE(round != nullptr);
  REQUIRE(through != nullptr);
  REQUIRE(round->status == Status::Ok);
  REQUIRE(through->status == Status::Ok);
  CHECK_FALSE(crossesDen(*round));
  CHECK(crossesDen(*through));
  // The den is cleared: after the update, the next plans of the careful one go straight.
  setDen(world, 0);
  scheduler.update(5.0, ReplanBudget{});  // (brings the data up to date and replans both)
  CHECK(data.current());
  round = scheduler.path(EntityId{1});
  REQUIRE(round != nullptr);
  CHECK(round->cost == Approx(9.0));
}
