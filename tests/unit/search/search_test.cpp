// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "search/search_context.hpp"
#include "search/search_grid.hpp"
#include "rpgnav/grid/line_of_sight.hpp"
#include "support/allocation_counter.hpp"
#include "support/nav_compare.hpp"
#include "support/reference_search.hpp"
#include "support/test_maps.hpp"

#include <algorithm>
#include <cmath>
#include <random>

using namespace rpgnav;

namespace {

SearchGrid gridFor(const TileMap& map, MobilityId mobility = TerrainTable::kWalk) {
  auto grid = SearchGrid::build(map, mobility);
  REQUIRE(grid.ok());
  return std::move(grid.value());
}

SearchResult search(const SearchGrid& grid, Cell start, Cell goal, bool jumpPoints = true) {
  SearchContext context;
  SearchResult result;
  SearchRequest request;
  request.start = start;
  request.goal = goal;
  request.jumpPoints = jumpPoints;
  context.findPath(grid, request, result);
  return result;
}

// Floor with rectangles of other terrain and walls: large uniform areas with cost borders, the
// case jump points must get right on weighted maps.
TileMap blobMap(std::mt19937& random, const Layout& layout, int width, int height) {
  TileMap map = test::randomMap(random, layout, width, height, 0.0, false);
  std::uniform_int_distribution<int> terrain(1, 4);  // wall, water, swamp, hills
  for (int blob = 0; blob < width * height / 40 + 1; ++blob) {
    const int w = std::uniform_int_distribution<int>(1, std::max(1, width / 3))(random);
    const int h = std::uniform_int_distribution<int>(1, std::max(1, height / 3))(random);
    const int x0 = std::uniform_int_distribution<int>(0, width - 1)(random);
    const int y0 = std::uniform_int_distribution<int>(0, height - 1)(random);
    const TerrainId id{std::uint8_t(terrain(random))};
    for (int y = y0; y < std::min(height, y0 + h); ++y) {
      for (int x = x0; x < std::min(width, x0 + w); ++x) REQUIRE(map.setTerrain({x, y}, id) == Status::Ok);
    }
  }
  return map;
}

}  // namespace

TEST_CASE("A* finds the straight route and its exact cost", "[search]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               ".....",
                                                               ".###.",
                                                               ".....",
                                                           });
  const SearchGrid grid = gridFor(map);
  const SearchResult result = search(grid, {0, 0}, {4, 0});
  REQUIRE(result.status == Status::Ok);
  CHECK(result.path == std::vector<Cell>{{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}});
  CHECK(result.costUnits == 4 * kCostScale);
  CHECK(result.cost == 4.0);
  CHECK(result.length == 4.0);
  CHECK(result.reached == Cell{4, 0});
  // Around the wall: every diagonal would cut one of its corners, so 6 straight steps.
  const SearchResult around = search(grid, {0, 0}, {4, 2});
  REQUIRE(around.status == Status::Ok);
  CHECK(test::pathCost(map, TerrainTable::kWalk, around.path) == around.costUnits);
  CHECK(around.length == 6.0);
}

TEST_CASE("A* never cuts a blocked corner", "[search]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "..",
                                                               "#.",
                                                           });
  const SearchGrid grid = gridFor(map);
  for (bool jumps : {true, false}) {
    const SearchResult result = search(grid, {0, 0}, {1, 1}, jumps);
    REQUIRE(result.status == Status::Ok);
    CHECK(result.path == std::vector<Cell>{{0, 0}, {1, 0}, {1, 1}});
    CHECK(result.length == 2.0);
  }
}

TEST_CASE("costly terrain is avoided en route but a costly goal is still reached", "[search]") {
  const TileMap map = test::mapFromAscii(Layout::square(1.0f, 4), {
                                                                      ".,,,.",
                                                                      ".....",
                                                                  });
  const SearchGrid grid = gridFor(map);
  const SearchResult detour = search(grid, {0, 0}, {4, 0});
  REQUIRE(detour.status == Status::Ok);
  // A step costs half its length at each of its two tiles' costs. Through the swamp: 2 + 3 + 3 +
  // 2 = 10; around: 6 floor steps.
  CHECK(detour.cost == 6.0);
  CHECK(detour.path == std::vector<Cell>{{0, 0}, {0, 1}, {1, 1}, {2, 1}, {3, 1}, {4, 1}, {4, 0}});
  const SearchResult into = search(grid, {0, 1}, {2, 0});
  REQUIRE(into.status == Status::Ok);
  CHECK(into.cost == 2.0 + 0.5 + 1.5);  // two floor steps, then one half on floor, half in the swamp goal
}

TEST_CASE("one cost model: the search's cost of a tile path is what the geometry charges its centre polyline",
          "[search][property]") {
  // A step costs half its length at each of its two tiles' costs, which is what the segment
  // between their centres costs by probeSegment (length inside each tile × its cost): the two
  // agree to the fixed point's rounding, also when the start tile is dearer than the goal tile.
  std::mt19937 random(4);
  int paths = 0, mixed = 0;
  const Vec2 offset(3.0f, -2.0f);
  for (const Layout& layout : {Layout::square(), Layout::square(1.0f, 4), Layout::square(0.5f, 8, offset), Layout::hexPointy(),
                                Layout::hexFlat(2.0f, offset, HexStagger::Even)}) {
    for (int trial = 0; trial < 30; ++trial) {
      const int w = std::uniform_int_distribution<int>(2, 18)(random), h = std::uniform_int_distribution<int>(2, 18)(random);
      const TileMap map = trial % 2 == 0 ? test::randomMap(random, layout, w, h, 0.2) : blobMap(random, layout, w, h);
      const SearchGrid grid = gridFor(map);
      for (int q = 0; q < 10; ++q) {
        const Cell a{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
        const Cell b{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
        const SearchResult result = search(grid, a, b, q % 2 == 0);
        if (result.status != Status::Ok) continue;
        ++paths;
        double geometric = 0.0;
        for (std::size_t i = 1; i < result.path.size(); ++i) {
          const SegmentProbe step = probeSegment(map, TerrainTable::kWalk, layout.tileCenter(result.path[i - 1]),
                                                 layout.tileCenter(result.path[i]), 0.0f);
          REQUIRE(step.clear);
          geometric += step.cost;
        }
        INFO(toString(layout.kind()) << " from " << a.x << "," << a.y << " to " << b.x << "," << b.y);
        CHECK(result.cost * double(layout.tileSize()) == Approx(geometric).epsilon(1e-6).margin(1e-6));
        mixed += map.cost(a, TerrainTable::kWalk) != map.cost(b, TerrainTable::kWalk) ? 1 : 0;
      }
    }
  }
  CHECK(paths > 800);
  CHECK(mixed > 200);
}

TEST_CASE("statuses for bad and impossible queries", "[search]") {
  const TileMap map = test::mapFromAscii(Layout::hexFlat(), {
                                                                "..#..",
                                                                "..#..",
                                                                "..#.#",
                                                            });
  const SearchGrid grid = gridFor(map);
  CHECK(search(grid, {-1, 0}, {0, 0}).status == Status::OutOfBounds);
  CHECK(search(grid, {0, 0}, {5, 0}).status == Status::OutOfBounds);
  CHECK(search(grid, {0, 0}, {0, 99999}).status == Status::OutOfBounds);
  CHECK(search(grid, {2, 0}, {0, 0}).status == Status::StartBlocked);
  CHECK(search(grid, {0, 0}, {2, 1}).status == Status::GoalBlocked);
  // The right side is another region: answered from the labels, without expanding anything.
  const SearchResult unreachable = search(grid, {0, 0}, {4, 0});
  CHECK(unreachable.status == Status::NoPath);
  CHECK(unreachable.expanded == 0);
  CHECK(std::string(unreachable.reason).find("region") != std::string::npos);
  const SearchResult same = search(grid, {1, 1}, {1, 1});
  CHECK(same.status == Status::Ok);
  CHECK(same.path == std::vector<Cell>{{1, 1}});
  CHECK(same.cost == 0.0);
  SearchContext context;
  SearchResult result;
  CHECK(context.resume(10, result) == Status::InvalidArgument);

  auto bad = SearchGrid::build(map, MobilityId{7});
  CHECK(bad.status() == Status::InvalidArgument);
  TileMap expensive = map;
  REQUIRE(expensive.setTerrainCost(TerrainId{0}, TerrainTable::kWalk, 5000.0f) == Status::Ok);
  CHECK(SearchGrid::build(expensive, TerrainTable::kWalk).status() == Status::InvalidArgument);
  REQUIRE(expensive.setTerrainCost(TerrainId{0}, TerrainTable::kWalk, 0.0001f) == Status::Ok);
  CHECK(SearchGrid::build(expensive, TerrainTable::kWalk).status() == Status::InvalidArgument);
}

TEST_CASE("nearest reachable tile when the goal is blocked or cut off", "[search]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "....#...",
                                                               "....#.#.",
                                                               "....#...",
                                                           });
  const SearchGrid grid = gridFor(map);
  SearchContext context;
  SearchResult result;
  SearchRequest request;
  request.start = {0, 1};
  request.goal = {6, 1};  // a wall in the other region
  request.nearestIfUnreachable = true;
  REQUIRE(context.findPath(grid, request, result) == Status::PartialPath);
  CHECK(result.reached == Cell{3, 1});
  CHECK(result.path.back() == Cell{3, 1});
  CHECK(result.cost == 3.0);
  request.goal = {4, 0};  // the wall itself, right beside the region: nearest centres tie at 1
  REQUIRE(context.findPath(grid, request, result) == Status::PartialPath);
  CHECK(result.reached == Cell{3, 0});  // ties go to the earlier tile in row order
  request.goal = {2, 2};  // reachable: an ordinary path
  CHECK(context.findPath(grid, request, result) == Status::Ok);
}

TEST_CASE("expansion budgets suspend and resume to the same answer", "[search]") {
  std::mt19937 random(5);
  for (const Layout& layout : test::allLayouts()) {
    const TileMap map = test::randomMap(random, layout, 60, 60, 0.2);
    const SearchGrid grid = gridFor(map);
    const RegionMap& regions = grid.regions();
    int checked = 0;
    for (int attempt = 0; attempt < 200 && checked < 10; ++attempt) {
      const Cell start{std::uniform_int_distribution<int>(0, 59)(random), std::uniform_int_distribution<int>(0, 59)(random)};
      const Cell goal{std::uniform_int_distribution<int>(0, 59)(random), std::uniform_int_distribution<int>(0, 59)(random)};
      if (!regions.connected(start, goal) || start == goal) continue;
      const SearchResult whole = search(grid, start, goal);
      REQUIRE(whole.status == Status::Ok);
      SearchContext context;
      SearchResult sliced;
      SearchRequest request;
      request.start = start;
      request.goal = goal;
      request.maxExpansions = 3;
      Status status = context.findPath(grid, request, sliced);
      int slices = 1;
      while (status == Status::InProgress) {
        CHECK(context.suspended());
        status = context.resume(3, sliced);
        ++slices;
      }
      REQUIRE(status == Status::Ok);
      CHECK_FALSE(context.suspended());
      CHECK(sliced.path == whole.path);
      CHECK(sliced.costUnits == whole.costUnits);
      CHECK(sliced.expanded == whole.expanded);
      if (whole.expanded > 3) CHECK(slices > 1);
      ++checked;
    }
    CHECK(checked == 10);
  }
}

TEST_CASE("A* equals Dijkstra on random weighted square and hex maps", "[search][property]") {
  std::mt19937 random(42);
  int queries = 0;
  for (const Layout& layout : {Layout::square(), Layout::square(1.0f, 4), Layout::hexPointy(), Layout::hexFlat()}) {
    for (int trial = 0; trial < 120; ++trial) {
      const int w = std::uniform_int_distribution<int>(1, 28)(random);
      const int h = std::uniform_int_distribution<int>(1, 28)(random);
      const TileMap map = trial % 2 == 0 ? test::randomMap(random, layout, w, h, 0.3) : blobMap(random, layout, w, h);
      for (MobilityId mobility : {TerrainTable::kWalk, TerrainTable::kSwim, TerrainTable::kFly}) {
        const SearchGrid grid = gridFor(map, mobility);
        for (int q = 0; q < 3; ++q) {
          const Cell start{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
          if (!map.passable(start, mobility)) continue;
          const std::vector<std::int64_t> best = test::dijkstraCosts(map, mobility, start);
          for (int g = 0; g < 6; ++g) {
            const Cell goal{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
            const std::int64_t expected = best[std::size_t(map.index(goal))];
            for (bool jumps : {true, false}) {
              const SearchResult result = search(grid, start, goal, jumps);
              INFO(toString(layout.kind()) << " " << layout.connectivity() << "-way, trial " << trial << ", jumps " << jumps);
              if (expected < 0) {
                REQUIRE(!isSuccess(result.status));
                continue;
              }
              REQUIRE(result.status == Status::Ok);
              REQUIRE(result.costUnits == expected);
              REQUIRE(result.path.front() == start);
              REQUIRE(result.path.back() == goal);
              REQUIRE(test::pathCost(map, mobility, result.path) == expected);
              double length = 0;
              for (std::size_t i = 1; i < result.path.size(); ++i) {
                length += (layout.localCenter(result.path[i]) - layout.localCenter(result.path[i - 1])).norm();
              }
              REQUIRE(result.length == Approx(length).epsilon(1e-12));
              ++queries;
            }
          }
        }
      }
    }
  }
  CHECK(queries > 5000);
}

TEST_CASE("searches that outgrow the compact node table go on in the node array, exact and reusable",
          "[search][property]") {
  // Jump point searches on maps of one cost start in a table of a few thousand nodes and move to
  // the node array when they fill half of it (2,048 nodes); other searches use the array from
  // the start. One context runs small and large searches of both kinds in turn, whole and in
  // slices whose budget runs out on either side of the move; all must be what Dijkstra says.
  std::mt19937 random(31);
  int moved = 0, small = 0, weighted = 0;
  for (const Layout& layout : test::allLayouts()) {
    const int w = 240, h = 200;
    const TileMap uniform = test::randomMap(random, layout, w, h, 0.3, false);
    const TileMap costly = blobMap(random, layout, w / 2, h / 2);
    const bool jumpsHere = layout.kind() == LayoutKind::Square && layout.connectivity() == 8;
    SearchContext context;
    SearchResult result;
    for (int q = 0; q < (jumpsHere ? 80 : 25); ++q) {
      const TileMap& map = q % 5 == 4 ? costly : uniform;
      const SearchGrid grid = gridFor(map);
      Cell start, goal;
      do {
        start = {std::uniform_int_distribution<int>(0, map.width() - 1)(random),
                 std::uniform_int_distribution<int>(0, map.height() - 1)(random)};
      } while (!map.passable(start, TerrainTable::kWalk));
      const int reach = q % 3 == 0 ? 5 : map.width();  // near goals stay in the table
      goal = {std::clamp(start.x + std::uniform_int_distribution<int>(-reach, reach)(random), 0, map.width() - 1),
              std::clamp(start.y + std::uniform_int_distribution<int>(-reach, reach)(random), 0, map.height() - 1)};
      const std::int64_t expected = test::dijkstraCosts(map, TerrainTable::kWalk, start)[std::size_t(map.index(goal))];
      SearchRequest request;
      request.start = start;
      request.goal = goal;
      request.jumpPoints = q % 7 != 6;
      request.maxExpansions = q % 4 == 1 ? 1500 : 0;
      Status status = context.findPath(grid, request, result);
      while (status == Status::InProgress) status = context.resume(1500, result);
      INFO(toString(layout.kind()) << " " << layout.connectivity() << "-way, query " << q);
      if (expected < 0) {
        CHECK_FALSE(isSuccess(status));
        continue;
      }
      REQUIRE(status == Status::Ok);
      CHECK(result.costUnits == expected);
      CHECK(test::pathCost(map, TerrainTable::kWalk, result.path) == expected);
      CHECK(result.path.front() == start);
      CHECK(result.path.back() == goal);
      if (&map == &costly) {
        ++weighted;
        CHECK_FALSE(context.nodesInTable());
      } else if (jumpsHere && request.jumpPoints) {
        (context.nodesInTable() ? small : moved) += 1;
      } else {
        CHECK_FALSE(context.nodesInTable());
      }
    }
  }
  CHECK(moved >= 5);
  CHECK(small >= 5);
  CHECK(weighted >= 10);
}

TEST_CASE("a search context holds a node per tile only once a search needs it", "[search]") {
  // A 1000 x 1000 map, open but for a wall across it with a gap at one end: the node array takes
  // 16 MB, the compact table 80 KB.
  TileMap map = TileMap::create(Layout::square(), 1000, 1000, test::testTerrain(), TerrainId{0}).value();
  map.setTerrain(Cell{500, 0}, Cell{500, 980}, TerrainId{1});
  const SearchGrid grid = gridFor(map);
  SearchContext context;
  SearchResult result;
  SearchRequest request;
  request.start = {3, 5};
  request.goal = {990, 970};
  REQUIRE(context.findPath(grid, request, result) == Status::Ok);  // jump points: a handful of nodes
  CHECK(context.nodesInTable());
  CHECK(context.memoryBytes() < 120'000);
  request.goal = {990, 5};  // round the wall with every neighbour: a large area
  request.jumpPoints = false;
  REQUIRE(context.findPath(grid, request, result) == Status::Ok);
  CHECK_FALSE(context.nodesInTable());
  CHECK(result.expanded > 10'000);
  CHECK(context.memoryBytes() >= 1002u * 1002u * 16u);  // a node per padded tile
}

TEST_CASE("a search context is ready when made, and a moved one searches as before", "[search]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {"..........", "....##....", "....#.....", ".........."});
  const SearchGrid grid = gridFor(map);
  SearchContext made;
  // The node table is there before the first query (no cold first query).
  CHECK(made.memoryBytes() >= 4096u * 20u);
  SearchRequest request;
  request.start = {0, 0};
  request.goal = {9, 3};
  SearchResult first, again;
  // A search of every neighbour first: it leaves entries in the open list's buckets of f, which
  // the move takes along (the context moved from must not look for them).
  TileMap open = TileMap::create(Layout::square(), 20, 20, test::testTerrain(), TerrainId{0}).value();
  const SearchGrid openGrid = gridFor(open);
  SearchRequest everyNeighbour;
  everyNeighbour.start = {10, 10};
  everyNeighbour.goal = {12, 10};
  everyNeighbour.jumpPoints = false;
  REQUIRE(made.findPath(openGrid, everyNeighbour, again) == Status::Ok);
  REQUIRE(made.findPath(grid, request, first) == Status::Ok);
  REQUIRE(made.findPath(openGrid, everyNeighbour, again) == Status::Ok);
  SearchContext moved = std::move(made);
  REQUIRE(moved.findPath(grid, request, again) == Status::Ok);
  CHECK(again.path == first.path);
  // The context moved from makes its scratch again when it searches.
  REQUIRE(made.findPath(grid, request, again) == Status::Ok);  // NOLINT(bugprone-use-after-move)
  CHECK(again.path == first.path);
  request.jumpPoints = false;  // the node array
  REQUIRE(made.findPath(grid, request, again) == Status::Ok);
  CHECK(again.costUnits == first.costUnits);
}

TEST_CASE("a search context made without scratch makes each part when asked or first used", "[search]") {
  // A planner whose plans run the exact any-angle search holds no tile search table: a thread's
  // memory is what its searches use.
  const TileMap map = test::mapFromAscii(Layout::square(), {"..........", "....##....", "....#.....", ".........."});
  const SearchGrid grid = gridFor(map);
  const SearchContext tiles;
  SearchContext none(SearchContext::Scratch::None);
  const std::size_t bare = none.memoryBytes();  // (a few small members)
  CHECK(bare * 50 < tiles.memoryBytes());
  none.reserveExact();
  const std::size_t exactOnly = none.memoryBytes();
  CHECK(exactOnly > bare);
  CHECK(exactOnly < tiles.memoryBytes());  // the exact search's part is the smaller
  SearchRequest request;
  request.start = {0, 0};
  request.goal = {9, 3};
  SearchResult lazy, made;
  REQUIRE(none.findPath(grid, request, lazy) == Status::Ok);  // the table comes with the first tile search
  CHECK(none.memoryBytes() >= tiles.memoryBytes() + (exactOnly - bare));
  SearchContext fresh;
  REQUIRE(fresh.findPath(grid, request, made) == Status::Ok);
  CHECK(lazy.path == made.path);
  CHECK(lazy.costUnits == made.costUnits);
  SearchContext reserved(SearchContext::Scratch::None);
  reserved.reserveTiles();
  CHECK(reserved.memoryBytes() == tiles.memoryBytes());
}

TEST_CASE("a search context made for a grid holds what its searches will use before the first", "[search]") {
  // 200 x 100 tiles, with a 40 x 60 patch of swamp on the weighted ones. Weighted and hex maps
  // keep their nodes in the array (a node per padded tile, 16 bytes), so a context made for them
  // has it, resident; a map of one cost on 8-way squares searches in the table, so its context
  // stays small.
  const std::size_t arrayBytes = 202u * 102u * 16u;
  const SearchContext empty;
  for (const bool weighted : {true, false}) {
    for (const Layout& layout : {Layout::square(), Layout::hexPointy()}) {
      TileMap map = TileMap::create(layout, 200, 100, test::testTerrain(), TerrainId{0}).value();
      if (weighted) map.setTerrain(Cell{60, 20}, Cell{99, 79}, TerrainId{3});  // swamp
      const SearchGrid grid = gridFor(map);
      REQUIRE(grid.uniformCost() == !weighted);
      SearchContext sized(grid);
      const bool usesArray = weighted || layout.kind() != LayoutKind::Square;
      CHECK((sized.memoryBytes() >= empty.memoryBytes() + arrayBytes) == usesArray);
      if (!usesArray) CHECK(sized.memoryBytes() == empty.memoryBytes());
      // It searches as a context made bare does.
      SearchContext bare;
      SearchRequest request;
      request.start = {2, 3};
      request.goal = {190, 90};
      SearchResult fromSized, fromBare;
      REQUIRE(sized.findPath(grid, request, fromSized) == Status::Ok);
      REQUIRE(bare.findPath(grid, request, fromBare) == Status::Ok);
      CHECK(fromSized.path == fromBare.path);
      CHECK(fromSized.costUnits == fromBare.costUnits);
    }
  }
}

TEST_CASE("jump points prune open areas and give the same paths", "[search]") {
  const TileMap map = TileMap::create(Layout::square(), 300, 300, test::testTerrain(), TerrainId{0}).value();
  const SearchGrid grid = gridFor(map);
  CHECK(grid.uniformCost());
  const SearchResult jumping = search(grid, {5, 7}, {290, 250}, true);
  const SearchResult plain = search(grid, {5, 7}, {290, 250}, false);
  REQUIRE(jumping.status == Status::Ok);
  REQUIRE(plain.status == Status::Ok);
  CHECK(jumping.costUnits == plain.costUnits);
  CHECK(jumping.length == Approx(243 * std::sqrt(2.0) + 42));
  CHECK(jumping.expanded < 10);
  CHECK(plain.expanded > 200);
}

TEST_CASE("searches are deterministic", "[search][determinism]") {
  std::mt19937 random(7);
  const TileMap map = test::randomMap(random, Layout::square(), 80, 80, 0.25);
  const SearchGrid grid = gridFor(map);
  SearchContext a, b;
  SearchResult ra, rb;
  SearchRequest request;
  request.start = {1, 1};
  for (int i = 0; i < 50; ++i) {
    request.goal = {std::uniform_int_distribution<int>(0, 79)(random), std::uniform_int_distribution<int>(0, 79)(random)};
    a.findPath(grid, request, ra);
    b.findPath(grid, request, rb);
    a.findPath(grid, request, rb);  // the same context again, after other queries
    CHECK(ra.status == rb.status);
    CHECK(ra.path == rb.path);
  }
}

TEST_CASE("a warm SearchContext allocates nothing per query", "[search]") {
  std::mt19937 random(11);
  for (const Layout& layout : test::allLayouts()) {
    const TileMap map = test::randomMap(random, layout, 120, 120, 0.2);
    const SearchGrid grid = gridFor(map);
    std::vector<SearchRequest> requests;
    for (int i = 0; i < 40; ++i) {
      SearchRequest request;
      request.start = {std::uniform_int_distribution<int>(0, 119)(random), std::uniform_int_distribution<int>(0, 119)(random)};
      request.goal = {std::uniform_int_distribution<int>(0, 119)(random), std::uniform_int_distribution<int>(0, 119)(random)};
      request.nearestIfUnreachable = i % 3 == 0;
      requests.push_back(request);
    }
    SearchContext context;
    SearchResult result;
    for (const SearchRequest& request : requests) context.findPath(grid, request, result);  // warm-up
    const std::uint64_t before = test::allocationCount();
    int found = 0;
    for (const SearchRequest& request : requests) found += isSuccess(context.findPath(grid, request, result));
    CHECK(test::allocationCount() == before);
    CHECK(found > 10);
  }
}

TEST_CASE("landmarks keep the search exact and cut expansions on weighted maps", "[search][property]") {
  std::mt19937 random(99);
  int queries = 0;
  std::int64_t withLandmarks = 0, without = 0;
  for (const Layout& layout : {Layout::square(), Layout::hexPointy(), Layout::square(1.0f, 4)}) {
    for (int trial = 0; trial < 25; ++trial) {
      const int w = std::uniform_int_distribution<int>(8, 40)(random);
      const int h = std::uniform_int_distribution<int>(8, 40)(random);
      const TileMap map = blobMap(random, layout, w, h);
      SearchGridSettings settings;
      settings.landmarks = std::uniform_int_distribution<int>(1, 16)(random);
      auto built = SearchGrid::build(map, TerrainTable::kWalk, settings);
      REQUIRE(built.ok());
      const SearchGrid& grid = built.value();
      const SearchGrid plainGrid = gridFor(map);
      CHECK(int(grid.landmarks().size()) == (grid.regions().regionCount() > 0 ? settings.landmarks : 0));
      for (int q = 0; q < 10; ++q) {
        const Cell start{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
        if (!map.passable(start, TerrainTable::kWalk)) continue;
        const std::vector<std::int64_t> best = test::dijkstraCosts(map, TerrainTable::kWalk, start);
        const Cell goal{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
        const std::int64_t expected = best[std::size_t(map.index(goal))];
        if (expected < 0) continue;
        for (bool jumps : {true, false}) {
          const SearchResult result = search(grid, start, goal, jumps);
          REQUIRE(result.status == Status::Ok);
          REQUIRE(result.costUnits == expected);
          REQUIRE(test::pathCost(map, TerrainTable::kWalk, result.path) == expected);
          withLandmarks += result.expanded;
          without += search(plainGrid, start, goal, jumps).expanded;
          ++queries;
        }
      }
    }
  }
  CHECK(queries > 300);
  CHECK(withLandmarks < without);
  auto tooMany = SearchGrid::build(test::mapFromAscii(Layout::square(), {"..."}), TerrainTable::kWalk, SearchGridSettings{17});
  CHECK(tooMany.status() == Status::InvalidArgument);
}

TEST_CASE("landmark distances are an independent Dijkstra's from each landmark, quantised down", "[search][landmarks][property]") {
  std::mt19937 random(4242);
  int checked = 0;
  for (const Layout& layout : {Layout::square(), Layout::square(1.0f, 4), Layout::hexPointy(), Layout::hexFlat(1.0f, Vec2::Zero(), HexStagger::Even)}) {
    for (int trial = 0; trial < 12; ++trial) {
      const int w = std::uniform_int_distribution<int>(6, 36)(random);
      const int h = std::uniform_int_distribution<int>(6, 36)(random);
      const TileMap map = blobMap(random, layout, w, h);
      SearchGridSettings settings;
      settings.landmarks = std::uniform_int_distribution<int>(1, 6)(random);
      auto built = SearchGrid::build(map, TerrainTable::kWalk, settings);
      REQUIRE(built.ok());
      const SearchGrid& grid = built.value();
      for (std::size_t k = 0; k < grid.landmarks().size(); ++k) {
        const std::vector<std::int64_t> exact = test::dijkstraCosts(map, TerrainTable::kWalk, grid.landmarks()[k]);
        for (std::int32_t i = 0; i < map.tileCount(); ++i) {
          const Cell cell = map.cellAt(i);
          const std::int64_t d = exact[std::size_t(i)];
          const std::uint32_t stored = grid.landmarkDistances(grid.padded(cell))[k];
          CAPTURE(w, h, k, cell.x, cell.y, d);
          if (d < 0) {
            REQUIRE(stored == SearchGrid::kLandmarkUnknown);
          } else {
            REQUIRE(stored == std::uint32_t(d / SearchGrid::kLandmarkQuantum));
          }
          ++checked;
        }
      }
    }
  }
  CHECK(checked > 10000);
}

TEST_CASE("jumps longer than the jump table's reach are chained", "[search]") {
  // 32768 tiles wide: a straight jump along the corridor exceeds the 32767-tile table entries.
  TileMap map = TileMap::create(Layout::square(), 32768, 3, test::testTerrain(), TerrainId{0}).value();
  for (int x = 0; x < 32768; ++x) {
    REQUIRE(map.setTerrain({x, 0}, TerrainId{1}) == Status::Ok);
    REQUIRE(map.setTerrain({x, 2}, TerrainId{1}) == Status::Ok);
  }
  const SearchGrid grid = gridFor(map);
  const SearchResult far = search(grid, {0, 1}, {32767, 1});
  REQUIRE(far.status == Status::Ok);
  CHECK(far.length == 32767.0);
  CHECK(far.expanded <= 2);
  CHECK(far.path.size() == 32768u);
  // A side opening far along the corridor is still found.
  REQUIRE(map.setTerrain({32766, 2}, TerrainId{0}) == Status::Ok);
  const SearchGrid opened = gridFor(map);
  const SearchResult down = search(opened, {0, 1}, {32766, 2});
  REQUIRE(down.status == Status::Ok);
  CHECK(down.length == 32767.0);  // no diagonal into the opening: its corner is wall
  CHECK(down.costUnits == search(opened, {0, 1}, {32766, 2}, false).costUnits);
  // Two open rows: the eastward jump from (0,1) meets no stop before the far border, 32768
  // tiles on, so its table entry saturates and the lookup is chained.
  TileMap wide = TileMap::create(Layout::square(), 32768, 4, test::testTerrain(), TerrainId{0}).value();
  for (int x = 0; x < 32768; ++x) {
    REQUIRE(wide.setTerrain({x, 0}, TerrainId{1}) == Status::Ok);
    REQUIRE(wide.setTerrain({x, 3}, TerrainId{1}) == Status::Ok);
  }
  const SearchGrid wideGrid = gridFor(wide);
  CHECK(wideGrid.jumpDistances(wideGrid.padded({0, 1}))[0] == SearchGrid::kJumpFar);
  const SearchResult across = search(wideGrid, {0, 1}, {32767, 2});
  REQUIRE(across.status == Status::Ok);
  CHECK(across.length == Approx(32766.0 + std::sqrt(2.0)).epsilon(1e-12));
  CHECK(across.costUnits == search(wideGrid, {0, 1}, {32767, 2}, false).costUnits);
}

TEST_CASE("diagonal jumps skip to the tiles where a straight jump finds a jump point", "[search]") {
  TileMap map = test::mapFromAscii(Layout::square(), {"......", "......", "......", "......", "......", "......"});
  SearchGrid grid = gridFor(map);
  // An empty room: from corner to corner nothing stops a diagonal jump; the first set bit is
  // past the map's edge, six steps on.
  CHECK(grid.diagonalStop({0, 0}, 1, 1).steps == 6);
  CHECK(grid.diagonalStop({2, 2}, 1, 1).steps == 4);
  CHECK(grid.diagonalStop({5, 5}, 1, 1).steps == 1);
  CHECK(grid.diagonalStop({5, 5}, -1, -1).steps == 6);
  CHECK(grid.diagonalStop({5, 0}, -1, 1).steps == 6);
  CHECK(grid.diagonalStop({3, 1}, 1, -1).steps == 2);
  CHECK(grid.diagonalBits({0, 0}, 1, 1) == 2);  // (entered from outside the map)
  CHECK(grid.diagonalBits({1, 1}, 1, 1) == 0);
  CHECK(grid.diagonalStop({5, 5}, 1, 1).blocked);
  // The jump table keeps the same stops beside the straight entries (negative: blocked).
  CHECK(grid.nearDiagonalStop(grid.padded({0, 0}), 1, 1) == -6);
  CHECK(grid.nearDiagonalStop(grid.padded({2, 2}), 1, 1) == -4);
  CHECK(grid.nearDiagonalStop(grid.padded({5, 5}), 1, 1) == -1);
  CHECK(grid.nearDiagonalStop(grid.padded({3, 1}), 1, -1) == -2);
  // A pillar at (4,2): eastward jumps along row 1 stop at (5,1), whose neighbour below opens
  // beside the pillar, and along row 3 at (5,3); so the diagonal from (0,0) stops at (1,1), and
  // from there at (3,3).
  REQUIRE(map.setTerrain({4, 2}, TerrainId{1}) == Status::Ok);
  const std::vector<TileRect> pillar{{{4, 2}, {4, 2}}};
  REQUIRE_FALSE(grid.update(map, pillar, false).has_value());
  CHECK(grid.jumpDistances(grid.padded({1, 1}))[0] == 4);
  CHECK(grid.diagonalStop({0, 0}, 1, 1).steps == 1);
  CHECK(grid.diagonalStop({1, 1}, 1, 1).steps == 2);
  CHECK(grid.diagonalBits({4, 2}, -1, -1) == 2);  // closed
  CHECK(grid.diagonalBits({1, 1}, 1, 1) == 1);
  CHECK_FALSE(grid.diagonalStop({0, 0}, 1, 1).blocked);
  CHECK(grid.nearDiagonalStop(grid.padded({0, 0}), 1, 1) == 1);
  CHECK(grid.nearDiagonalStop(grid.padded({1, 1}), 1, 1) == 2);
  CHECK(grid.nearDiagonalStop(grid.padded({3, 1}), 1, 1) == -1);  // (into the pillar)
  CHECK(test::gridDifference(grid, gridFor(map), false).empty());
  // Searches stay exact across the pillar, and after it is taken away the bits are as before.
  for (const Cell goal : {Cell{5, 5}, Cell{5, 1}, Cell{5, 3}, Cell{3, 5}, Cell{5, 2}}) {
    CHECK(search(grid, {0, 0}, goal).costUnits == search(grid, {0, 0}, goal, false).costUnits);
  }
  REQUIRE(map.setTerrain({4, 2}, TerrainId{0}) == Status::Ok);
  REQUIRE_FALSE(grid.update(map, pillar, false).has_value());
  CHECK(grid.diagonalStop({0, 0}, 1, 1).steps == 6);
  CHECK(test::gridDifference(grid, gridFor(map), false).empty());
}

TEST_CASE("a result reused after a success holds no path when a search fails or runs out of budget", "[search]") {
  // A search writes its path over the last one's memory (no clearing up front), so each way of
  // not finishing must empty it.
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "..........",
                                                               ".########.",
                                                               "..........",
                                                               "#########.",
                                                               "....#.....",
                                                               "....#.....",
                                                           });
  const SearchGrid grid = gridFor(map);
  SearchContext context;
  SearchResult out;
  auto succeed = [&] {
    SearchRequest request;
    request.start = {0, 0};
    request.goal = {9, 5};
    REQUIRE(context.findPath(grid, request, out) == Status::Ok);
    REQUIRE(out.path.size() > 10);
  };
  const std::vector<std::pair<Cell, Status>> failures{
      {{1, 1}, Status::GoalBlocked}, {{0, 5}, Status::NoPath}, {{10, 0}, Status::OutOfBounds}};
  for (const auto& [goal, status] : failures) {
    succeed();
    SearchRequest request;
    request.start = {0, 0};
    request.goal = goal;
    CHECK(context.findPath(grid, request, out) == status);
    CHECK(out.path.empty());
  }
  succeed();
  const std::vector<Cell> whole = out.path;
  SearchRequest request;
  request.start = {0, 0};
  request.goal = {9, 5};
  request.maxExpansions = 1;
  REQUIRE(context.findPath(grid, request, out) == Status::InProgress);
  CHECK(out.path.empty());
  while (context.resume(1, out) == Status::InProgress) CHECK(out.path.empty());
  CHECK(out.status == Status::Ok);
  CHECK(out.path == whole);
}

TEST_CASE("a search asked for its jump points only returns them, and they fill in to the tile path", "[search][property]") {
  // On uniform and weighted 8-way maps and uniform hex maps the path is the jump points (fewer
  // than the tiles on long routes), filling in to exactly the tile path of the same search
  // (fillJumpRoute, fillHexJumpRoute); without jump points, and on weighted hexes, it is every
  // tile anyway. Cost, length and the tile reached never change.
  std::mt19937 random(7);
  int fewer = 0, fewerHex = 0, compared = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const bool hex = trial % 3 == 2;
    const Layout layout = !hex ? Layout::square() : trial % 2 == 0 ? Layout::hexPointy() : Layout::hexFlat();
    const int w = std::uniform_int_distribution<int>(5, 60)(random), h = std::uniform_int_distribution<int>(5, 60)(random);
    const TileMap map = trial % 3 == 1 ? blobMap(random, layout, w, h) : test::randomMap(random, layout, w, h, 0.25, false);
    const SearchGrid grid = gridFor(map);
    SearchContext context;
    for (int q = 0; q < 10; ++q) {
      SearchRequest request;
      request.start = {std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
      request.goal = {std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
      request.jumpPoints = q % 4 != 3;
      request.nearestIfUnreachable = q % 2 == 0;
      SearchResult tiles, corners;
      context.findPath(grid, request, tiles);
      request.tilePath = false;
      context.findPath(grid, request, corners);
      REQUIRE(corners.status == tiles.status);
      if (!isSuccess(tiles.status)) continue;
      CHECK(corners.costUnits == tiles.costUnits);
      CHECK(corners.length == tiles.length);
      CHECK(corners.reached == tiles.reached);
      REQUIRE_FALSE(corners.path.empty());
      CHECK(corners.path.front() == request.start);
      CHECK(corners.path.back() == tiles.reached);
      if (!request.jumpPoints) {
        CHECK(corners.path == tiles.path);
      } else {
        std::vector<Cell> filled;
        hex ? fillHexJumpRoute(layout, corners.path, filled) : fillJumpRoute(corners.path, filled);
        CHECK(filled == tiles.path);
        (hex ? fewerHex : fewer) += corners.path.size() < tiles.path.size() ? 1 : 0;
      }
      ++compared;
    }
  }
  CHECK(compared > 300);
  CHECK(fewer > 50);
  CHECK(fewerHex > 15);
  // A route straight across an empty room: start and goal only.
  const TileMap room = test::mapFromAscii(Layout::square(), {"........", "........", "........"});
  SearchRequest request;
  request.start = {0, 0};
  request.goal = {7, 2};
  request.tilePath = false;
  SearchContext context;
  SearchResult out;
  REQUIRE(context.findPath(gridFor(room), request, out) == Status::Ok);
  CHECK(out.path == std::vector<Cell>{{0, 0}, {7, 2}});
  std::vector<Cell> filled{{9, 9}};
  fillJumpRoute(out.path, filled);
  CHECK(filled == std::vector<Cell>{{0, 0}, {1, 1}, {2, 2}, {3, 2}, {4, 2}, {5, 2}, {6, 2}, {7, 2}});
  fillJumpRoute({}, filled);
  CHECK(filled.empty());
  // In place: the jump points filled into the vector that holds them.
  std::vector<Cell> inPlace = out.path;
  fillJumpRoute(inPlace, inPlace);
  CHECK(inPlace == std::vector<Cell>{{0, 0}, {1, 1}, {2, 2}, {3, 2}, {4, 2}, {5, 2}, {6, 2}, {7, 2}});
}

TEST_CASE("near diagonal stops: the table's within reach, the bits beyond, both patched by edits as a fresh build has them",
          "[search][edits][property]") {
  // Large open maps with walls in one corner only: every wall makes the rows and columns beside
  // it lines of stops, but away from them diagonals run past kNearDiagonalReach without a stop,
  // so the table says "further" (0) there and the search reads the bits; walls put up and taken
  // away change stops far back along the diagonals, up to the reach.
  std::mt19937 random(64);
  constexpr std::int32_t kReach = SearchGrid::kNearDiagonalReach;
  int farEntries = 0, nearEntries = 0, queries = 0;
  for (int trial = 0; trial < 4; ++trial) {
    const int w = std::uniform_int_distribution<int>(2 * kReach, 4 * kReach)(random);
    const int h = std::uniform_int_distribution<int>(2 * kReach, 4 * kReach)(random);
    TileMap map = test::randomMap(random, Layout::square(), w, h, 0.0, false);
    SearchGrid grid = gridFor(map);
    for (int e = 0; e < 12; ++e) {
      const Cell cell{std::uniform_int_distribution<int>(0, 15)(random), std::uniform_int_distribution<int>(0, 15)(random)};
      REQUIRE(map.setTerrain(cell, TerrainId{std::uint8_t(e % 3 == 2 ? 0 : 1)}) == Status::Ok);
      const std::vector<TileRect> changed{{cell, cell}};
      REQUIRE_FALSE(grid.update(map, changed, false).has_value());
      const SearchGrid fresh = gridFor(map);
      const std::string difference = test::gridDifference(grid, fresh, false);
      INFO("trial " << trial << " edit " << e << ": " << difference);
      REQUIRE(difference.empty());
      // Every near stop is the bits' first stop, or 0 when that is beyond the reach.
      for (int k = 0; k < 200; ++k) {
        const Cell at{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
        const std::int32_t dx = k % 2 == 0 ? 1 : -1, dy = k % 4 < 2 ? 1 : -1;
        const SearchGrid::DiagonalStop stop = grid.diagonalStop(at, dx, dy);
        const std::int16_t near = grid.nearDiagonalStop(grid.padded(at), dx, dy);
        if (stop.steps > kReach) {
          CHECK(near == 0);
          ++farEntries;
        } else {
          CHECK(near == (stop.blocked ? -stop.steps : stop.steps));
          ++nearEntries;
        }
      }
      for (int q = 0; q < 4; ++q) {
        const Cell start{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
        const Cell goal{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
        const SearchResult jumped = search(grid, start, goal), plain = search(fresh, start, goal, false);
        REQUIRE(jumped.status == plain.status);
        if (jumped.status != Status::Ok) continue;
        REQUIRE(jumped.costUnits == plain.costUnits);
        ++queries;
      }
    }
  }
  CHECK(farEntries > 500);
  CHECK(nearEntries > 500);
  CHECK(queries > 150);
}

TEST_CASE("where costs change, weighted jumps go on only to the canonical successors (JPSW)", "[search]") {
  // A row of swamp (cost 3) above floor (cost 1). Tile (2,1) touches the swamp, so it is not
  // uniform and keeps a mask per way in.
  TileMap map = test::mapFromAscii(Layout::square(), {",,,,,", ".....", ".....", "....."});
  SearchGrid grid = gridFor(map);
  const std::int32_t tile = grid.padded({2, 1});
  REQUIRE(grid.uniform()[tile] == 0);
  auto bit = [](std::int32_t dx, std::int32_t dy) { return std::uint8_t(1u << SearchGrid::directionCode(dx, dy)); };
  // Entered eastward: on east, and north-east — the swamp above makes "diagonal first" dearer
  // (1 + 2√2 through this tile against 2√2 + 3 through the swamp tile above), a neighbour that a
  // grid of one cost would never force. North is reached more cheaply straight from the tile the
  // route came from (2√2 against 1 + 2), south-east by the tile south of this one (a tie: the
  // way whose last step is straight is taken).
  CHECK(grid.canonicalSuccessors(tile, SearchGrid::directionCode(1, 0)) == (bit(1, 0) | bit(1, -1)));
  CHECK(grid.canonicalSuccessors(tile, SearchGrid::directionCode(-1, 0)) == (bit(-1, 0) | bit(-1, -1)));
  // Entered northward: on north only (the tiles beside the swamp are reached diagonally first).
  CHECK(grid.canonicalSuccessors(tile, SearchGrid::directionCode(0, -1)) == bit(0, -1));
  // Entered diagonally from the south-west: north, east and north-east, as on a grid of one cost.
  CHECK(grid.canonicalSuccessors(tile, SearchGrid::directionCode(1, -1)) == (bit(0, -1) | bit(1, 0) | bit(1, -1)));
  // A map of one cost keeps none, until an edit gives it a second cost.
  TileMap open = test::mapFromAscii(Layout::square(), {".....", ".....", ".....", "....."});
  SearchGrid plain = gridFor(open);
  CHECK(plain.canonicalSuccessors(plain.padded({2, 1}), 0) == 0xff);
  REQUIRE(open.setTerrain(Cell{0, 0}, Cell{4, 0}, TerrainId{3}) == Status::Ok);
  const std::vector<TileRect> firstRow{{{0, 0}, {4, 0}}};
  REQUIRE_FALSE(plain.update(open, firstRow, false).has_value());
  CHECK(plain.canonicalSuccessors(tile, SearchGrid::directionCode(1, 0)) == (bit(1, 0) | bit(1, -1)));
  CHECK(test::gridDifference(plain, gridFor(open), false).empty());
  // The masks follow edits: the swamp drained, the tile is uniform; back, the masks are back.
  REQUIRE(map.setTerrain(Cell{0, 0}, Cell{4, 0}, TerrainId{0}) == Status::Ok);
  const std::vector<TileRect> row{{{0, 0}, {4, 0}}};
  REQUIRE_FALSE(grid.update(map, row, false).has_value());
  CHECK(grid.uniform()[tile] == 1);
  REQUIRE(map.setTerrain(Cell{0, 0}, Cell{4, 0}, TerrainId{3}) == Status::Ok);
  REQUIRE_FALSE(grid.update(map, row, false).has_value());
  CHECK(grid.canonicalSuccessors(tile, SearchGrid::directionCode(1, 0)) == (bit(1, 0) | bit(1, -1)));
  CHECK(test::gridDifference(grid, gridFor(map), false).empty());
}

TEST_CASE("where costs change, the canonical successors keep weighted searches small", "[search]") {
  // Floor crossed by bands of swamp (cost 3) every tenth column and of hills (cost 2) every tenth
  // row, two tiles wide: tiles where costs change are everywhere. Jumping from each of them
  // toward all eight neighbours, as the search did before the masks, put 45,703 entries on the
  // open list over these queries; going on to the canonical successors only, and adding no jump
  // end without a successor, 34,437. (Expansions barely change: the work saved is the entries
  // and the jumps.) Same costs as plain A* throughout.
  std::vector<std::string> rows;
  for (int y = 0; y < 60; ++y) {
    std::string row;
    for (int x = 0; x < 80; ++x) row += x % 10 < 2 ? ',' : y % 10 < 2 ? 'h' : '.';
    rows.push_back(row);
  }
  const std::vector<std::string_view> views(rows.begin(), rows.end());
  const TileMap map = test::mapFromRows(Layout::square(), views);
  const SearchGrid grid = gridFor(map);
  SearchContext context;
  SearchResult result, plain;
  std::int64_t generated = 0;
  std::mt19937 random(8);
  for (int q = 0; q < 40; ++q) {
    SearchRequest request;
    request.start = {std::uniform_int_distribution<int>(0, 79)(random), std::uniform_int_distribution<int>(0, 59)(random)};
    request.goal = {std::uniform_int_distribution<int>(0, 79)(random), std::uniform_int_distribution<int>(0, 59)(random)};
    REQUIRE(context.findPath(grid, request, result) == Status::Ok);
    generated += result.generated;
    request.jumpPoints = false;
    REQUIRE(context.findPath(grid, request, plain) == Status::Ok);
    REQUIRE(plain.costUnits == result.costUnits);
  }
  CHECK(generated <= 38'000);
}

TEST_CASE("weighted jumps equal Dijkstra on maps of cost patches with walls, many cost ratios", "[search][property]") {
  // Patches of a few hundred tiles (each tile joins its nearest of random seeds, in grid steps),
  // of two to five costs, some ratios near the ones where a neighbour turns forced; walls
  // scattered over them. Ties abound (few costs), which the canonical order must break alike.
  const std::vector<std::vector<float>> costLists = {
      {1.0f, 2.0f}, {1.0f, 1.5f, 2.0f, 3.0f, 5.0f}, {1.0f, 4.83f}, {0.5f, 1.0f, 7.0f}, {1.0f, 1.1f}, {1.0f, 3.8284f}};
  std::mt19937 random(2027);
  int queries = 0;
  for (int trial = 0; trial < 48; ++trial) {
    const std::vector<float>& costs = costLists[std::size_t(trial) % costLists.size()];
    const int w = std::uniform_int_distribution<int>(8, 64)(random);
    const int h = std::uniform_int_distribution<int>(8, 64)(random);
    TerrainTable terrain;
    const TerrainId wall = terrain.addTerrain("wall", '#').value();
    std::vector<TerrainId> kinds;
    for (std::size_t c = 0; c < costs.size(); ++c) {
      kinds.push_back(terrain.addTerrain("cost" + std::to_string(c), char('a' + c)).value());
      REQUIRE(terrain.setCost(kinds.back(), TerrainTable::kWalk, costs[c]) == Status::Ok);
    }
    std::vector<int> owner(std::size_t(w * h), -1);
    std::vector<TerrainId> patchKind;
    std::vector<std::int32_t> frontier;
    for (int seed = 0; seed < std::max(2, w * h / 60); ++seed) {
      const std::int32_t index = std::uniform_int_distribution<std::int32_t>(0, w * h - 1)(random);
      if (owner[std::size_t(index)] >= 0) continue;
      owner[std::size_t(index)] = int(patchKind.size());
      patchKind.push_back(kinds[std::uniform_int_distribution<std::size_t>(0, kinds.size() - 1)(random)]);
      frontier.push_back(index);
    }
    for (std::size_t next = 0; next < frontier.size(); ++next) {  // breadth first
      const std::int32_t index = frontier[next];
      const std::int32_t x = index % w, y = index / w;
      for (const auto& [dx, dy] : {std::pair{1, 0}, std::pair{-1, 0}, std::pair{0, 1}, std::pair{0, -1}}) {
        if (x + dx < 0 || y + dy < 0 || x + dx >= w || y + dy >= h) continue;
        const std::int32_t near = (y + dy) * w + x + dx;
        if (owner[std::size_t(near)] >= 0) continue;
        owner[std::size_t(near)] = owner[std::size_t(index)];
        frontier.push_back(near);
      }
    }
    std::vector<TerrainId> tiles(std::size_t(w * h));
    const double wallRate = trial % 3 == 0 ? 0.0 : 0.08;
    for (std::size_t i = 0; i < tiles.size(); ++i) {
      tiles[i] = std::uniform_real_distribution<double>(0.0, 1.0)(random) < wallRate ? wall : patchKind[std::size_t(owner[i])];
    }
    const TileMap map = TileMap::create(Layout::square(), w, h, terrain, std::move(tiles)).value();
    const SearchGrid grid = gridFor(map);
    SearchContext context;
    SearchResult result;
    for (int q = 0; q < 4; ++q) {
      const Cell start{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
      if (!map.passable(start, TerrainTable::kWalk)) continue;
      const std::vector<std::int64_t> best = test::dijkstraCosts(map, TerrainTable::kWalk, start);
      for (int g = 0; g < 12; ++g) {
        const Cell goal{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
        const std::int64_t expected = best[std::size_t(map.index(goal))];
        SearchRequest request;
        request.start = start;
        request.goal = goal;
        context.findPath(grid, request, result);
        INFO("trial " << trial << " from (" << start.x << "," << start.y << ") to (" << goal.x << "," << goal.y << ")");
        if (expected < 0) {
          REQUIRE(!isSuccess(result.status));
          continue;
        }
        REQUIRE(result.status == Status::Ok);
        REQUIRE(result.costUnits == expected);
        REQUIRE(test::pathCost(map, TerrainTable::kWalk, result.path) == expected);
        ++queries;
      }
    }
  }
  CHECK(queries > 1000);
}

TEST_CASE("the open list's buckets of f keep searches exact when costs span the whole range", "[search][property]") {
  // Costs from 1/1024 to 1000 (the search's limits): entries land in buckets far apart (f in
  // steps of half a cost-1 step), the heap is refilled from far buckets, and the landmarks'
  // rounding puts entries below the current bucket. Costs against Dijkstra, on squares (jumps)
  // and hexes (every neighbour), with and without landmarks.
  std::mt19937 random(404);
  int queries = 0;
  for (const Layout& layout : {Layout::square(), Layout::hexFlat()}) {
    for (int trial = 0; trial < 6; ++trial) {
      TerrainTable terrain;
      const float costs[] = {1.0f / 1024.0f, 1.0f, 3.0f, 1000.0f};
      std::vector<TerrainId> kinds;
      for (int c = 0; c < 4; ++c) {
        kinds.push_back(terrain.addTerrain("cost" + std::to_string(c), char('a' + c)).value());
        REQUIRE(terrain.setCost(kinds.back(), TerrainTable::kWalk, costs[c]) == Status::Ok);
      }
      const int w = 70, h = 50;
      std::vector<TerrainId> tiles(std::size_t(w * h), kinds[1]);
      for (int blob = 0; blob < 40; ++blob) {
        const int x0 = std::uniform_int_distribution<int>(0, w - 1)(random), y0 = std::uniform_int_distribution<int>(0, h - 1)(random);
        const int size = std::uniform_int_distribution<int>(2, 12)(random);
        const TerrainId kind = kinds[std::uniform_int_distribution<std::size_t>(0, 3)(random)];
        for (int y = y0; y < std::min(h, y0 + size); ++y) {
          for (int x = x0; x < std::min(w, x0 + size); ++x) tiles[std::size_t(y * w + x)] = kind;
        }
      }
      const TileMap map = TileMap::create(layout, w, h, terrain, std::move(tiles)).value();
      SearchGridSettings settings;
      settings.landmarks = trial % 2 == 0 ? 0 : 4;
      const SearchGrid grid = SearchGrid::build(map, TerrainTable::kWalk, settings).value();
      SearchContext context;
      SearchResult result;
      for (int q = 0; q < 3; ++q) {
        const Cell start{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
        const std::vector<std::int64_t> best = test::dijkstraCosts(map, TerrainTable::kWalk, start);
        for (int g = 0; g < 8; ++g) {
          SearchRequest request;
          request.start = start;
          request.goal = {std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
          REQUIRE(context.findPath(grid, request, result) == Status::Ok);
          REQUIRE(result.costUnits == best[std::size_t(map.index(request.goal))]);
          ++queries;
        }
      }
    }
  }
  CHECK(queries == 2 * 6 * 3 * 8);
  // Bands of cost 1000 across the whole map, of different widths, with patches of cheap ground
  // between: every route crosses them, so the search runs past the last bucket (thousands of
  // steps of cost 1 further) again and again, and must take those entries in order.
  for (const Layout& layout : {Layout::square(), Layout::hexPointy()}) {
    TerrainTable terrain;
    const TerrainId floor = terrain.addTerrain("floor", '.').value();
    const TerrainId bog = terrain.addTerrain("bog", 'b').value();
    const TerrainId road = terrain.addTerrain("road", 'r').value();
    REQUIRE(terrain.setCost(floor, TerrainTable::kWalk, 1.0f) == Status::Ok);
    REQUIRE(terrain.setCost(bog, TerrainTable::kWalk, 1000.0f) == Status::Ok);
    REQUIRE(terrain.setCost(road, TerrainTable::kWalk, 0.5f) == Status::Ok);
    const int w = 64, h = 40;
    std::vector<TerrainId> tiles(std::size_t(w * h), floor);
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        const bool band = (x >= 12 && x < 14) || (x >= 30 && x < 33) || x == 50;
        const bool cheap = (x + 3 * y) % 11 == 0;
        tiles[std::size_t(y * w + x)] = band ? bog : cheap ? road : floor;
      }
    }
    const TileMap map = TileMap::create(layout, w, h, terrain, std::move(tiles)).value();
    const SearchGrid grid = gridFor(map);
    SearchContext context;
    SearchResult result;
    for (const Cell start : {Cell{1, 1}, Cell{5, 30}, Cell{40, 20}}) {
      const std::vector<std::int64_t> best = test::dijkstraCosts(map, TerrainTable::kWalk, start);
      for (const Cell goal : {Cell{62, 38}, Cell{20, 5}, Cell{45, 39}, Cell{0, 0}, Cell{63, 0}}) {
        SearchRequest request;
        request.start = start;
        request.goal = goal;
        REQUIRE(context.findPath(grid, request, result) == Status::Ok);
        REQUIRE(result.costUnits == best[std::size_t(map.index(goal))]);
      }
    }
  }
}

TEST_CASE("jump tables patched through random edits on open maps equal fresh ones, searches exact",
          "[search][edits][property][hex]") {
  // Open maps with few walls: long diagonals and rows, whose entries an edit changes far from it.
  // Two trials in three are floor and walls only (maps of one cost: the searches skip along the
  // diagonals by their bits), the third has patches of other terrain and paints swamp too. Then
  // the same on hex maps of every orientation and stagger (their jump tables, stop bits and
  // canonical successors).
  std::mt19937 random(30);
  int edits = 0, queries = 0, plainQueries = 0;
  const std::array<Layout, 5> layouts{Layout::square(), Layout::hexPointy(), Layout::hexFlat(),
                                      Layout::hexPointy(1.0f, Vec2(0.0f, 0.0f), HexStagger::Even),
                                      Layout::hexFlat(1.0f, Vec2(0.0f, 0.0f), HexStagger::Even)};
  for (int trial = 0; trial < 27; ++trial) {
    const bool weighted = trial % 3 == 2;
    const Layout& layout = trial < 15 ? layouts[0] : layouts[std::size_t(1 + trial % 4)];
    const int w = std::uniform_int_distribution<int>(8, 80)(random), h = std::uniform_int_distribution<int>(8, 80)(random);
    TileMap map = weighted ? blobMap(random, layout, w, h) : test::randomMap(random, layout, w, h, 0.06, false);
    SearchGrid grid = gridFor(map);
    REQUIRE(grid.uniformCost() != weighted);
    for (int e = 0; e < 40; ++e) {
      // One tile, or a rectangle of up to 4x4, walled up, opened, or (weighted maps) made swamp.
      const Cell low{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
      const Cell high = e % 4 == 0 ? Cell{std::min(w - 1, low.x + int(random() % 4)), std::min(h - 1, low.y + int(random() % 4))} : low;
      const TerrainId terrain{std::uint8_t(std::array<int, 3>{0, 1, 3}[std::size_t(random() % (weighted ? 3 : 2))])};
      for (int y = low.y; y <= high.y; ++y) {
        for (int x = low.x; x <= high.x; ++x) REQUIRE(map.setTerrain({x, y}, terrain) == Status::Ok);
      }
      const std::vector<TileRect> changed{{low, high}};
      REQUIRE_FALSE(grid.update(map, changed, false).has_value());
      ++edits;
      const SearchGrid fresh = gridFor(map);
      const std::string difference = test::gridDifference(grid, fresh, false);
      INFO("trial " << trial << " edit " << e << ": " << difference);
      REQUIRE(difference.empty());
      for (int q = 0; q < 6; ++q) {
        const Cell start{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
        // Every other goal on the start's diagonal, where the jumps' stops meet the goal's lines.
        const int k = std::uniform_int_distribution<int>(1, 40)(random);
        const Cell goal = q % 2 == 0 ? Cell{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)}
                                     : Cell{start.x + (q % 4 == 1 ? k : -k), start.y + k};
        if (!map.contains(goal)) continue;
        // The patched grid answers as a fresh one, path for path; the cost is plain A*'s.
        const SearchResult jumped = search(grid, start, goal), onFresh = search(fresh, start, goal),
                           plain = search(fresh, start, goal, false);
        REQUIRE(jumped.status == onFresh.status);
        REQUIRE(jumped.status == plain.status);
        if (jumped.status != Status::Ok) continue;
        REQUIRE(jumped.path == onFresh.path);
        REQUIRE(jumped.costUnits == plain.costUnits);
        ++queries;
        plainQueries += weighted ? 0 : 1;
      }
    }
  }
  CHECK(edits == 27 * 40);
  CHECK(queries > 1800);
  CHECK(plainQueries > 1000);
}

TEST_CASE("wide characters do not squeeze through hex gaps one edge wide", "[search]") {
  for (const Layout& layout : {Layout::hexPointy(), Layout::hexFlat()}) {
    TileMap map = TileMap::create(layout, 7, 7, test::testTerrain(), TerrainId{0}).value();
    const Cell a{3, 3};
    const auto moves = layout.moves(a);
    // Block the two tiles at the ends of the edge between a and its first neighbour b.
    const Cell b{a.x + moves[0].dx, a.y + moves[0].dy};
    const Cell left{a.x + moves[5].dx, a.y + moves[5].dy}, right{a.x + moves[1].dx, a.y + moves[1].dy};
    REQUIRE(map.setTerrain(left, TerrainId{1}) == Status::Ok);
    REQUIRE(map.setTerrain(right, TerrainId{1}) == Status::Ok);
    const SearchGrid narrow = gridFor(map);
    SearchGridSettings settings;
    settings.clearance = 0.3f;
    const SearchGrid wide = SearchGrid::build(map, TerrainTable::kWalk, settings).value();
    CHECK_FALSE(narrow.closesNarrowGaps());
    CHECK(wide.closesNarrowGaps());
    const SearchResult squeeze = search(narrow, a, b);
    REQUIRE(squeeze.status == Status::Ok);
    CHECK(squeeze.path.size() == 2);
    const SearchResult around = search(wide, a, b);
    REQUIRE(around.status == Status::Ok);
    CHECK(around.path.size() > 2);
    for (std::size_t i = 1; i < around.path.size(); ++i) {
      CHECK_FALSE((around.path[i - 1] == a && around.path[i] == b));
    }
    settings.clearance = 0.28f;  // below half an edge: the gap is still wide enough
    CHECK_FALSE(SearchGrid::build(map, TerrainTable::kWalk, settings).value().closesNarrowGaps());
    settings.clearance = 0.5f;
    CHECK(SearchGrid::build(map, TerrainTable::kWalk, settings).status() == Status::InvalidArgument);
  }
}

namespace {

SearchResult anyAngleSearch(const SearchGrid& grid, const SegmentTester& lines, Vec2 start, Vec2 goal, float radius = 0.0f) {
  SearchContext context;
  SearchResult result;
  SearchRequest request;
  request.start = grid.layout().tileAt(start);
  request.goal = grid.layout().tileAt(goal);
  request.sightLines = &lines;
  request.radius = radius;
  request.startPoint = start;
  request.goalPoint = goal;
  context.findPath(grid, request, result);
  return result;
}

// The y of a polyline where it crosses x (the first crossing), or NaN.
double crossingY(const std::vector<Vec2>& points, float x) {
  for (std::size_t i = 1; i < points.size(); ++i) {
    const Vec2 a = points[i - 1], b = points[i];
    if ((a.x() - x) * (b.x() - x) > 0 || a.x() == b.x()) continue;
    return double(a.y() + (b.y() - a.y()) * (x - a.x()) / (b.x() - a.x()));
  }
  return std::nan("");
}

}  // namespace

TEST_CASE("any-angle search passes an obstacle on the side the shortest path takes", "[search][any-angle]") {
  // The shortest way from S to G goes over the block (round its top right corner, 21.19 long);
  // the cheapest 8-way tile path goes under it (8-way lengths overrate this direction).
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "........................",
                                                               "........................",
                                                               "........................",
                                                               "........................",
                                                               "........................",
                                                               "........................",
                                                               "........................",
                                                               "........................",
                                                               "..........###...........",
                                                               "..........###...........",
                                                               "..........###...........",
                                                               "........................",
                                                           });
  const SearchGrid grid = gridFor(map);
  const SegmentTester lines(map, TerrainTable::kWalk);
  const Vec2 start(2.5f, 4.5f), goal(22.5f, 11.5f);
  const SearchResult octile = search(grid, grid.layout().tileAt(start), grid.layout().tileAt(goal));
  REQUIRE(octile.status == Status::Ok);
  CHECK(octile.path[11].y == 11);  // x = 11: under the block
  const SearchResult route = anyAngleSearch(grid, lines, start, goal);
  REQUIRE(route.status == Status::Ok);
  CHECK(crossingY(route.vertices, 11.5f) < 8.0);  // over the block
  REQUIRE(route.vertices.size() >= 3);
  CHECK(route.vertices.front() == start);
  CHECK(route.vertices.back() == goal);
  // Theta* bends at tile centres, not at the corner itself: within 1% of the shortest way.
  const double shortest = (Vec2(13.0f, 8.0f) - start).norm() + (goal - Vec2(13.0f, 8.0f)).norm();
  CHECK(route.length >= shortest - 1e-6);
  CHECK(route.length <= shortest * 1.01);
  CHECK(route.cost == Approx(route.length));
}

TEST_CASE("any-angle routes are clear, priced right and walk legal tile paths on random maps",
          "[search][any-angle][property]") {
  std::mt19937 random(99);
  int routes = 0, shortcuts = 0;
  for (const Layout& layout : {Layout::square(), Layout::square(2.0f, 4), Layout::hexPointy(), Layout::hexFlat(0.5f)}) {
    for (int trial = 0; trial < 60; ++trial) {
      const int w = std::uniform_int_distribution<int>(1, 20)(random);
      const int h = std::uniform_int_distribution<int>(1, 20)(random);
      const TileMap map = trial % 2 == 0 ? test::randomMap(random, layout, w, h, 0.25) : blobMap(random, layout, w, h);
      for (MobilityId mobility : {TerrainTable::kWalk, TerrainTable::kFly}) {
        // Hex characters under half an edge (wider ones are refused, see the next test).
        const float widest = layout.isHex() ? 0.28f : 0.45f;
        const float radius =
            trial % 3 == 0 ? 0.0f : std::uniform_real_distribution<float>(0.0f, widest)(random) * layout.tileSize();
        SearchGridSettings settings;
        settings.clearance = layout.isHex() ? radius / layout.tileSize() : 0.0f;
        auto built = SearchGrid::build(map, mobility, settings);
        REQUIRE(built.ok());
        const SearchGrid& grid = built.value();
        const SegmentTester lines(map, mobility);
        for (int q = 0; q < 6; ++q) {
          auto randomPoint = [&] {
            const float x = std::uniform_real_distribution<float>(0.0f, float(w))(random);
            const float y = std::uniform_real_distribution<float>(0.0f, float(h))(random);
            return Vec2(layout.origin().x() + x * layout.tileSize(), layout.origin().y() + y * layout.tileSize());
          };
          const Vec2 start = randomPoint(), goal = randomPoint();
          const Cell startTile = layout.tileAt(start), goalTile = layout.tileAt(goal);
          if (!map.contains(startTile) || !map.contains(goalTile)) continue;
          const SearchResult result = anyAngleSearch(grid, lines, start, goal, radius);
          INFO(toString(layout.kind()) << " trial " << trial << " query " << q << " radius " << radius);
          if (!map.passable(startTile, mobility) || !map.passable(goalTile, mobility)) {
            CHECK(!isSuccess(result.status));
            continue;
          }
          const bool startRoom = probeSegment(map, mobility, start, layout.tileCenter(startTile), radius).clear;
          const bool goalRoom = probeSegment(map, mobility, goal, layout.tileCenter(goalTile), radius).clear;
          if (!startRoom) {
            CHECK(result.status == Status::StartBlocked);
            continue;
          }
          if (!goalRoom) {
            CHECK(result.status == Status::GoalBlocked);
            continue;
          }
          // Reachable exactly when the 8-way search reaches the goal tile.
          const SearchResult tiles = search(grid, startTile, goalTile);
          REQUIRE(result.status == tiles.status);
          if (result.status != Status::Ok) continue;
          ++routes;
          // The route: start point to goal point, every segment clear; cost and length its own.
          const std::vector<Vec2>& route = result.vertices;
          REQUIRE(route.size() >= 2);
          CHECK(route.front() == start);
          CHECK(route.back() == goal);
          double cost = 0, length = 0;
          for (std::size_t i = 1; i < route.size(); ++i) {
            const SegmentProbe piece = probeSegment(map, mobility, route[i - 1], route[i], radius);
            REQUIRE(piece.clear);
            cost += piece.cost;
            length += piece.length;
          }
          const double unit = double(layout.tileSize());
          CHECK(result.cost * unit == Approx(cost).epsilon(1e-6).margin(1e-6));
          CHECK(result.length * unit == Approx(length).epsilon(1e-6).margin(1e-6));
          // Never dearer than going centre to centre along the cheapest 8-way tile path.
          double viaCentres = 0;
          for (std::size_t k = 0; k <= tiles.path.size(); ++k) {
            const Vec2 a = k == 0 ? start : layout.tileCenter(tiles.path[k - 1]);
            const Vec2 b = k == tiles.path.size() ? goal : layout.tileCenter(tiles.path[k]);
            viaCentres += probeSegment(map, mobility, a, b, radius).cost;
          }
          CHECK(cost <= viaCentres * (1 + 1e-6) + 1e-6);
          shortcuts += cost < viaCentres * (1 - 1e-3) ? 1 : 0;
          // The tile path: legal steps from the start tile to the goal tile; every vertex of the
          // route lies in the tile vertexTiles names, in order along the path.
          REQUIRE(result.path.front() == startTile);
          REQUIRE(result.path.back() == goalTile);
          REQUIRE(test::pathCost(map, mobility, result.path).has_value());
          REQUIRE(result.vertexTiles.size() == route.size());
          CHECK(result.vertexTiles.front() == 0);
          CHECK(std::size_t(result.vertexTiles.back()) + 1 == result.path.size());
          for (std::size_t v = 0; v < route.size(); ++v) {
            REQUIRE(std::size_t(result.vertexTiles[v]) < result.path.size());
            if (v > 0) CHECK(result.vertexTiles[v] >= result.vertexTiles[v - 1]);
            const Cell tile = result.path[std::size_t(result.vertexTiles[v])];
            const Vec2 p = route[v], centre = layout.tileCenter(tile);
            CHECK(layout.tileAt(p + (centre - p) * 1e-3f) == tile);  // in the tile or on its border
          }
          // One route point per tile, in the tile or on its border (a side tile's: the corner the
          // route passes).
          REQUIRE(result.through.size() == result.path.size());
          for (std::size_t k = 0; k < result.path.size(); ++k) {
            const Vec2 p = result.through[k], centre = layout.tileCenter(result.path[k]);
            CHECK(layout.tileAt(p + (centre - p) * 1e-3f) == result.path[k]);
          }
        }
      }
    }
  }
  CHECK(routes > 400);
  CHECK(shortcuts > routes / 4);
}

TEST_CASE("any-angle search refuses bad requests", "[search][any-angle]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "....",
                                                               ".#..",
                                                               "....",
                                                           });
  const SearchGrid grid = gridFor(map);
  const SegmentTester lines(map, TerrainTable::kWalk);
  const SegmentTester flying(map, TerrainTable::kFly);
  SearchContext context;
  SearchResult result;
  SearchRequest request;
  request.start = {0, 0};
  request.goal = {3, 2};
  request.sightLines = &flying;
  CHECK(context.findPath(grid, request, result) == Status::InvalidArgument);  // another mobility's tester
  request.sightLines = &lines;
  request.startPoint = Vec2(2.5f, 0.5f);  // not in the start tile
  CHECK(context.findPath(grid, request, result) == Status::InvalidArgument);
  request.startPoint = Vec2(0.5f, std::nanf(""));
  CHECK(context.findPath(grid, request, result) == Status::InvalidArgument);
  request.startPoint.reset();
  request.radius = std::nanf("");
  CHECK(context.findPath(grid, request, result) == Status::InvalidArgument);
  request.radius = 0.3f;
  request.goalPoint = Vec2(3.1f, 2.5f);  // too close to the map's edge for the radius... the edge is open
  CHECK(context.findPath(grid, request, result) == Status::Ok);
  request.start = {2, 1};
  request.startPoint = Vec2(2.1f, 1.5f);  // 0.1 from the blocked tile (1, 1)
  CHECK(context.findPath(grid, request, result) == Status::StartBlocked);
  request.start = {0, 0};
  request.startPoint.reset();
  request.goal = {1, 1};
  request.goalPoint.reset();
  CHECK(context.findPath(grid, request, result) == Status::GoalBlocked);
  // Hex characters as wide as half an edge do not fit between every pair of neighbours' centres.
  const TileMap hexes = test::mapFromAscii(Layout::hexPointy(), {"....", "....", "...."});
  const SearchGrid hexGrid = gridFor(hexes);
  const SegmentTester hexLines(hexes, TerrainTable::kWalk);
  SearchRequest wide;
  wide.start = {0, 0};
  wide.goal = {3, 2};
  wide.sightLines = &hexLines;
  wide.radius = 0.28f;
  CHECK(context.findPath(hexGrid, wide, result) == Status::Ok);
  wide.radius = kHexHalfEdge;
  CHECK(context.findPath(hexGrid, wide, result) == Status::InvalidArgument);
}

TEST_CASE("hex jump points: the cost of an independent Dijkstra on thousands of random hex maps, of one cost and "
          "weighted, fewer expansions than A*",
          "[search][property][hex]") {
  // Both orientations and staggers, from open ground to mazes of walls, small maps (where the
  // forced-neighbour rules meet every arrangement of walls round a tile) and larger ones; a
  // third of them weighted (rectangles of other terrain, or every tile of random terrain), where
  // runs cross uniform tiles only and tiles where costs change are expanded in full.
  std::mt19937 random(50);
  int compared = 0, fewer = 0, unreachable = 0, weighted = 0;
  std::int64_t jumpExpanded = 0, plainExpanded = 0;
  for (int trial = 0; trial < 15000; ++trial) {
    const Layout layout = trial % 4 == 0   ? Layout::hexPointy()
                          : trial % 4 == 1 ? Layout::hexFlat()
                          : trial % 4 == 2 ? Layout::hexPointy(1.0f, Vec2(0.0f, 0.0f), HexStagger::Even)
                                           : Layout::hexFlat(1.0f, Vec2(0.0f, 0.0f), HexStagger::Even);
    const int most = trial % 10 == 0 ? 40 : 9;
    const int w = std::uniform_int_distribution<int>(1, most)(random), h = std::uniform_int_distribution<int>(1, most)(random);
    const int kind = trial % 3 == 2 ? int(trial / 3 % 2) + 1 : 0;  // one cost, rectangles, mixed terrain
    const TileMap map = kind == 1 ? blobMap(random, layout, w, h)
                                  : test::randomMap(random, layout, w, h, 0.05 * double(trial % 9), kind == 2);
    const Cell start{int(random() % unsigned(w)), int(random() % unsigned(h))}, goal{int(random() % unsigned(w)), int(random() % unsigned(h))};
    if (!map.passable(start, TerrainTable::kWalk)) continue;
    const SearchGrid grid = gridFor(map, TerrainTable::kWalk);
    if (kind == 0) REQUIRE(grid.uniformCost());
    weighted += grid.uniformCost() ? 0 : 1;
    const std::int64_t expected = test::dijkstraCosts(map, TerrainTable::kWalk, start)[std::size_t(map.index(goal))];
    const SearchResult jumps = search(grid, start, goal, true);
    INFO(toString(layout.kind()) << " trial " << trial << " " << w << "x" << h);
    if (expected < 0) {
      CHECK_FALSE(isSuccess(jumps.status));
      ++unreachable;
      continue;
    }
    REQUIRE(jumps.status == Status::Ok);
    REQUIRE(jumps.costUnits == expected);
    // The tiles are a walk of neighbours through open tiles, start to goal, of that cost.
    REQUIRE(jumps.path.front() == start);
    REQUIRE(jumps.path.back() == goal);
    REQUIRE(test::pathCost(map, TerrainTable::kWalk, jumps.path) == expected);
    CHECK(jumps.length == Approx(double(jumps.path.size() - 1)));
    const SearchResult plain = search(grid, start, goal, false);
    jumpExpanded += jumps.expanded;
    plainExpanded += plain.expanded;
    fewer += jumps.expanded < plain.expanded ? 1 : 0;
    ++compared;
  }
  CHECK(compared > 7000);
  CHECK(weighted > 2500);
  CHECK(unreachable > 300);
  CHECK(fewer > 1500);
  CHECK(jumpExpanded * 2 < plainExpanded);
}

TEST_CASE("hex directions: a displacement splits into its one canonical route, as steps of two neighbouring directions",
          "[search][hex]") {
  for (const Layout& layout : {Layout::hexPointy(), Layout::hexFlat(), Layout::hexPointy(1.0f, Vec2::Zero(), HexStagger::Even),
                               Layout::hexFlat(1.0f, Vec2::Zero(), HexStagger::Even)}) {
    const HexDirections hex(layout, 40);
    for (std::int32_t q = -12; q <= 12; ++q) {
      for (std::int32_t r = -12; r <= 12; ++r) {
        const HexDirections::Split split = hex.split({q, r});
        INFO(toString(layout.kind()) << " delta " << q << ", " << r);
        if (q == 0 && r == 0) {
          CHECK(split.primary == 0);
          CHECK(split.secondary == 0);
          continue;
        }
        // Exactly one direction d writes the displacement as a >= 1 steps of d and b >= 0 of d + 1.
        int found = 0, direction = -1;
        const std::int32_t bound = std::abs(q) + std::abs(r) + std::abs(q + r);  // (more steps than either count)
        for (int d = 0; d < 6; ++d) {
          const Axial u = hex.axial[std::size_t(d)], v = hex.axial[std::size_t(HexDirections::turn(d, 1))];
          for (std::int32_t a = 1; a <= bound; ++a) {
            for (std::int32_t b = 0; b <= bound; ++b) {
              if (a * u.q + b * v.q == q && a * u.r + b * v.r == r) {
                ++found;
                direction = d;
                CHECK(split.primary == a);
                CHECK(split.secondary == b);
              }
            }
          }
        }
        REQUIRE(found == 1);
        CHECK(split.direction == direction);
        CHECK(split.primary + split.secondary == layout.stepDistance(layout.fromAxial({0, 0}), layout.fromAxial({q, r})));
      }
    }
  }
}

TEST_CASE("hex jump table: entries equal a walk along each run, and after tile and rectangle edits a fresh build",
          "[search][property][hex][edits]") {
  // Larger maps than the navigation data's edit tests (long lines, many walls crossing them);
  // walls put up and knocked down one tile or a rectangle at a time. The walk is the table's
  // definition: steps to the first tile that is blocked (negative) or has a forced neighbour
  // for a run that way (positive).
  std::mt19937 random(150);
  int compared = 0, edits = 0;
  for (const Layout& layout : test::allLayouts()) {
    if (!layout.isHex()) continue;
    for (int trial = 0; trial < 3; ++trial) {
      const int w = std::uniform_int_distribution<int>(20, 90)(random), h = std::uniform_int_distribution<int>(20, 90)(random);
      TileMap map = test::randomMap(random, layout, w, h, 0.1 * trial, false);
      SearchGrid grid = gridFor(map, TerrainTable::kWalk);
      auto walked = [&](Cell from, int d) {
        Cell at = from;
        for (std::int16_t k = 1;; ++k) {
          const NeighbourStep& step = layout.moves(at)[std::size_t(d)];
          at = {at.x + step.dx, at.y + step.dy};
          if (!map.passable(at, TerrainTable::kWalk)) return std::int16_t(-k);
          for (const int side : {-1, 1}) {
            const NeighbourStep& ahead = layout.moves(at)[std::size_t(HexDirections::turn(d, side))];
            const NeighbourStep& behind = layout.moves(at)[std::size_t(HexDirections::turn(d, 2 * side))];
            if (map.passable({at.x + ahead.dx, at.y + ahead.dy}, TerrainTable::kWalk) &&
                !map.passable({at.x + behind.dx, at.y + behind.dy}, TerrainTable::kWalk)) {
              return k;
            }
          }
        }
      };
      for (int e = 0; e < 40; ++e) {
        for (int probe = 0; probe < 200; ++probe) {
          const Cell cell{int(random() % unsigned(w)), int(random() % unsigned(h))};
          const int d = int(random() % 6);
          INFO(toString(layout.kind()) << " trial " << trial << " edit " << e << " at " << cell.x << "," << cell.y << " direction " << d);
          REQUIRE(grid.jumpDistances(grid.padded(cell))[d] == walked(cell, d));
          ++compared;
        }
        const Cell low{int(random() % unsigned(w)), int(random() % unsigned(h))};
        const Cell high = e % 3 == 0 ? low : Cell{std::min(w - 1, low.x + int(random() % 6)), std::min(h - 1, low.y + int(random() % 6))};
        REQUIRE(map.setTerrain(low, high, TerrainId{std::uint8_t(random() % 3 == 0 ? 0 : 1)}) == Status::Ok);
        const TileRect rect{low, high};
        REQUIRE_FALSE(grid.update(map, {&rect, 1}, false));
        const SearchGrid fresh = gridFor(map, TerrainTable::kWalk);
        const std::string difference = test::gridDifference(grid, fresh, false);
        INFO(difference);
        REQUIRE(difference.empty());
        ++edits;
      }
    }
  }
  CHECK(compared == 4 * 3 * 40 * 200);
  CHECK(edits == 4 * 3 * 40);
}
