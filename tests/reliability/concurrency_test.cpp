// SPDX-License-Identifier: MIT
// Thread-safety as the README states it: shared maps, worlds, search grids, fields and prepared
// sector fields read from several threads at once, each thread with its own planner or search
// context, give bit for bit the answers of one thread. Run under ThreadSanitizer in CI (.ci/run).
#include <catch2/catch.hpp>

#include "rpgnav/field/crowd_field.hpp"
#include "rpgnav/grid/line_of_sight.hpp"
#include "rpgnav/grid/regions.hpp"
#include "rpgnav/nav/nav_data.hpp"
#include "rpgnav/path/planner.hpp"
#include "search/search_context.hpp"
#include "support/result_hash.hpp"
#include "support/test_maps.hpp"

#include <algorithm>
#include <functional>
#include <random>
#include <thread>
#include <vector>

using namespace rpgnav;

namespace {

constexpr int kThreads = 4;

// Runs work(thread, order) on kThreads threads at once; each thread gets its own order of the
// indices 0..count-1 (shuffled differently), so threads hit different items at the same time.
void onThreads(std::size_t count, const std::function<void(int, const std::vector<std::size_t>&)>& work) {
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::vector<std::size_t> order(count);
      for (std::size_t i = 0; i < count; ++i) order[i] = i;
      std::shuffle(order.begin(), order.end(), std::mt19937(std::uint32_t(100 + t)));
      work(t, order);
    });
  }
  for (std::thread& thread : threads) thread.join();
}

// A random map with entities and doors, as a game world would have.
struct Scene {
  TileMap map;
  World world;
  std::vector<PathRequest> requests;
  Scene(std::mt19937& random, const Layout& layout, int width, int height) : map(test::randomMap(random, layout, width, height, 0.2)), world(map) {
    for (std::uint32_t i = 1; i <= std::uint32_t(width * height / 15); ++i) {
      const Vec2 p(std::uniform_real_distribution<float>(0.0f, float(width))(random), std::uniform_real_distribution<float>(0.0f, float(height))(random));
      (void)world.entities().add({EntityId{i}, p, 0.3f, std::uint8_t(i % 5 == 0 ? kEntityFlat : kEntityMoving)});
    }
    for (int d = 0; d < width * height / 30; ++d) {
      const Cell a{std::uniform_int_distribution<int>(0, width - 2)(random), std::uniform_int_distribution<int>(0, height - 1)(random)};
      (void)world.addDoor({"", a, {a.x + 1, a.y}, DoorState(d % 3)});
    }
    for (int q = 0; q < 120; ++q) {
      const Cell s{std::uniform_int_distribution<int>(0, width - 1)(random), std::uniform_int_distribution<int>(0, height - 1)(random)};
      const Cell g{std::uniform_int_distribution<int>(0, width - 1)(random), std::uniform_int_distribution<int>(0, height - 1)(random)};
      requests.push_back({layout.tileCenter(s), layout.tileCenter(g), TerrainTable::kWalk, std::uniform_real_distribution<float>(0.0f, 0.3f)(random),
                          EntityId{std::uint32_t(q % 7)}});
    }
  }
};

}  // namespace

TEST_CASE("threads: planners on one shared world and navigation data give the answers of one thread",
          "[reliability][threads]") {
  // Four planners share one NavData (one copy of the navigation data for every thread); between
  // rounds the world is edited and the data updated in place (between frames: no planner runs),
  // and the threads' answers are again those of one thread, and of data built afresh.
  std::mt19937 random(41);
  for (const Layout& layout : {Layout::square(), Layout::hexPointy()}) {
    Scene scene(random, layout, 48, 40);
    NavData data(scene.world);
    for (const float radius : {0.0f, 0.3f}) REQUIRE(data.prepare(TerrainTable::kWalk, radius) == Status::Ok);
    for (int round = 0; round < 3; ++round) {
      if (round > 0) {
        // A building goes up, a wall comes down, a door is taken away.
        const Cell low{std::uniform_int_distribution<int>(0, 40)(random), std::uniform_int_distribution<int>(0, 32)(random)};
        REQUIRE(scene.map.setTerrain(low, {low.x + 6, low.y + 5}, TerrainId{1}) == Status::Ok);
        REQUIRE(scene.map.setTerrain({std::uniform_int_distribution<int>(0, 47)(random), 3}, TerrainId{0}) == Status::Ok);
        if (!scene.world.doors().empty() && !scene.world.doors()[std::size_t(round)].removed) {
          REQUIRE(scene.world.removeDoor(scene.world.doors()[std::size_t(round)].id) == Status::Ok);
        }
        REQUIRE(data.update().status == Status::Ok);
      }
      for (const bool anyAngle : {false, true}) {
        PlannerSettings settings;
        settings.search = anyAngle ? SearchMode::AnyAngle : SearchMode::ExactAnyAngle;
        // One thread first, on data built afresh: the expected digests.
        std::vector<std::uint64_t> expected;
        {
          Planner planner(scene.world, settings);
          PathResult result;
          for (const PathRequest& request : scene.requests) {
            (void)planner.plan(request, result);
            expected.push_back(test::digestOf(result));
          }
        }
        std::vector<std::vector<std::uint64_t>> got(kThreads, std::vector<std::uint64_t>(expected.size()));
        onThreads(scene.requests.size(), [&](int t, const std::vector<std::size_t>& order) {
          Planner planner(data, settings);  // each thread its own planner and result, one shared data
          PathResult result;
          for (const std::size_t i : order) {
            (void)planner.plan(scene.requests[i], result);
            got[std::size_t(t)][i] = test::digestOf(result);
          }
        });
        for (int t = 0; t < kThreads; ++t) {
          INFO(toString(layout.kind()) << (anyAngle ? " Theta*" : " default search") << " round " << round << " thread " << t);
          CHECK(got[std::size_t(t)] == expected);
        }
      }
    }
  }
}

TEST_CASE("threads: exact any-angle planners on one shared navigation data give the answers of one thread",
          "[reliability][threads][anya]") {
  std::mt19937 random(43);
  const TileMap map = test::randomMap(random, Layout::square(), 48, 40, 0.25, false);  // one cost, no doors
  const World world(map);
  NavData data(world);
  for (const float radius : {0.0f, 0.3f}) REQUIRE(data.prepare(TerrainTable::kWalk, radius) == Status::Ok);
  std::vector<PathRequest> requests;
  for (int q = 0; q < 200; ++q) {
    const Cell s{std::uniform_int_distribution<int>(0, 47)(random), std::uniform_int_distribution<int>(0, 39)(random)};
    const Cell g{std::uniform_int_distribution<int>(0, 47)(random), std::uniform_int_distribution<int>(0, 39)(random)};
    PathRequest request{map.layout().tileCenter(s), map.layout().tileCenter(g), TerrainTable::kWalk, q % 2 == 0 ? 0.0f : 0.3f};
    if (q % 3 == 0) request.comfort = 0.0f;
    requests.push_back(request);
  }
  PlannerSettings settings;
  settings.search = SearchMode::ExactAnyAngle;
  std::vector<std::uint64_t> expected;
  {
    Planner planner(world, settings);
    PathResult result;
    for (const PathRequest& request : requests) {
      (void)planner.plan(request, result);
      expected.push_back(test::digestOf(result));
    }
  }
  std::vector<std::vector<std::uint64_t>> got(kThreads, std::vector<std::uint64_t>(expected.size()));
  onThreads(requests.size(), [&](int t, const std::vector<std::size_t>& order) {
    Planner planner(data, settings);
    PathResult result;
    for (const std::size_t i : order) {
      (void)planner.plan(requests[i], result);
      got[std::size_t(t)][i] = test::digestOf(result);
    }
  });
  for (int t = 0; t < kThreads; ++t) {
    INFO("thread " << t);
    CHECK(got[std::size_t(t)] == expected);
  }
}

TEST_CASE("threads: searches, sight lines, probes and regions on one shared map", "[reliability][threads]") {
  std::mt19937 random(42);
  for (const Layout& layout : test::allLayouts()) {
    const TileMap map = test::randomMap(random, layout, 60, 50, 0.25);
    const SearchGrid grid = SearchGrid::build(map, TerrainTable::kWalk).value();
    const SegmentTester tester(map, TerrainTable::kWalk);
    std::vector<SearchRequest> searches;
    std::vector<std::pair<Vec2, Vec2>> segments;
    for (int i = 0; i < 150; ++i) {
      const Cell a{std::uniform_int_distribution<int>(0, 59)(random), std::uniform_int_distribution<int>(0, 49)(random)};
      const Cell b{std::uniform_int_distribution<int>(0, 59)(random), std::uniform_int_distribution<int>(0, 49)(random)};
      SearchRequest request{a, b};
      request.nearestIfUnreachable = i % 2 == 0;
      if (i % 5 == 0) request.sightLines = &tester;
      searches.push_back(request);
      segments.emplace_back(layout.tileCenter(a), layout.tileCenter(b));
    }
    auto digestOf = [&](std::size_t i, SearchContext& context, SearchResult& result) {
      test::Digest digest;
      digest.add(context.findPath(grid, searches[i], result));
      digest.addAll(std::span<const Cell>(result.path));
      digest.add(hasLineOfSight(map, TerrainTable::kWalk, segments[i].first, segments[i].second));
      const SegmentProbe probe = probeSegment(map, TerrainTable::kWalk, segments[i].first, segments[i].second, 0.2f);
      digest.add(probe.clear);
      digest.add(probe.cost);
      const SegmentProbe fast = tester.probe(segments[i].first, segments[i].second, 0.2f);
      digest.add(fast.clear);
      digest.add(fast.cost);
      return digest.value();
    };
    std::vector<std::uint64_t> expected;
    {
      SearchContext context;
      SearchResult result;
      for (std::size_t i = 0; i < searches.size(); ++i) expected.push_back(digestOf(i, context, result));
    }
    const RegionMap regions = RegionMap::compute(map, TerrainTable::kWalk);
    std::vector<std::vector<std::uint64_t>> got(kThreads, std::vector<std::uint64_t>(expected.size()));
    std::vector<std::uint64_t> regionDigests(kThreads);
    onThreads(searches.size(), [&](int t, const std::vector<std::size_t>& order) {
      SearchContext context;  // each thread its own context and result
      SearchResult result;
      for (const std::size_t i : order) got[std::size_t(t)][i] = digestOf(i, context, result);
      // Regions computed on every thread from the shared map agree with the shared labels.
      const RegionMap own = RegionMap::compute(map, TerrainTable::kWalk);
      test::Digest digest;
      for (int y = 0; y < 50; ++y) {
        for (int x = 0; x < 60; ++x) digest.add(own.regionOf({x, y}) == regions.regionOf({x, y}));
      }
      regionDigests[std::size_t(t)] = digest.value();
    });
    test::Digest same;
    for (int i = 0; i < 60 * 50; ++i) same.add(true);
    for (int t = 0; t < kThreads; ++t) {
      INFO(toString(layout.kind()) << " thread " << t);
      CHECK(got[std::size_t(t)] == expected);
      CHECK(regionDigests[std::size_t(t)] == same.value());
    }
  }
}

TEST_CASE("threads: crowd field lookups and followers, and prepared sector fields, from many threads", "[reliability][threads]") {
  std::mt19937 random(43);
  for (const Layout& layout : test::allLayouts()) {
    const TileMap map = test::randomMap(random, layout, 70, 60, 0.2);
    const CostField costs = CostField::build(map, TerrainTable::kWalk).value();
    CrowdField field(costs);
    const Cell goals[] = {{35, 30}, {3, 4}};
    field.setGoals(goals);
    SectorFields sectors(costs, 16);
    REQUIRE(sectors.setGoal({35, 30}) == Status::Ok);
    std::vector<Cell> cells;
    for (int y = 0; y < 60; ++y) {
      for (int x = 0; x < 70; ++x) cells.push_back({x, y});
    }
    for (const Cell cell : cells) sectors.prepare(cell);  // built once, then shared read-only
    auto digestOf = [&](std::size_t i) {
      const Cell cell = cells[i];
      test::Digest digest;
      digest.add(field.distance(cell));
      digest.add(field.direction(cell));
      digest.add(field.flow(cell));
      const Vec2 at = layout.tileCenter(cell) + Vec2(0.13f, -0.21f) * layout.tileSize();
      digest.add(field.flowAt(at));
      const FieldFollower::Step step = FieldFollower::advance(field, at, 0.7 * double(layout.tileSize()));
      digest.add(step.position);
      digest.add(step.heading);
      digest.add(step.arrived);
      digest.add(sectors.distance(cell));
      digest.add(sectors.direction(cell));
      digest.add(sectors.flow(cell));
      return digest.value();
    };
    std::vector<std::uint64_t> expected;
    for (std::size_t i = 0; i < cells.size(); ++i) expected.push_back(digestOf(i));
    const int builtBefore = sectors.sectorsBuilt();
    std::vector<std::vector<std::uint64_t>> got(kThreads, std::vector<std::uint64_t>(expected.size()));
    onThreads(cells.size(), [&](int t, const std::vector<std::size_t>& order) {
      for (const std::size_t i : order) got[std::size_t(t)][i] = digestOf(i);
    });
    CHECK(sectors.sectorsBuilt() == builtBefore);  // lookups after prepare() build nothing
    for (int t = 0; t < kThreads; ++t) {
      INFO(toString(layout.kind()) << " thread " << t);
      CHECK(got[std::size_t(t)] == expected);
    }
  }
}
