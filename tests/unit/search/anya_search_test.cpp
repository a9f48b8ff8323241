// SPDX-License-Identifier: MIT
// The exact any-angle search (AnyaSearch) against brute force: Dijkstra over the visibility graph
// of every tile corner, the start and the goal, its edges the library's zero-radius line of
// sight (hasLineOfSight, written independently of Anya). A shortest route bends only at tile
// corners, so that graph holds it. Corners where two blocked tiles touch only diagonally are left
// out of the graph: a route through one squeezes.
#include <catch2/catch.hpp>

#include "rpgnav/grid/line_of_sight.hpp"
#include "grid/segment_tester.hpp"
#include "rpgnav/path/planner.hpp"
#include "search/anya_search.hpp"
#include "search/search_context.hpp"
#include "search/search_grid.hpp"
#include "support/reference_search.hpp"
#include "support/test_maps.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <random>
#include <sstream>
#include <string>
#include <string_view>

using namespace rpgnav;

namespace {

using Point = Eigen::Vector2d;

bool blocked(const TileMap& map, std::int32_t x, std::int32_t y) {
  return !map.passable({x, y}, TerrainTable::kWalk);
}

bool pinchCorner(const TileMap& map, std::int32_t x, std::int32_t y) {
  const bool a = blocked(map, x - 1, y - 1), b = blocked(map, x, y - 1), c = blocked(map, x - 1, y),
             d = blocked(map, x, y);
  return (a && d && !b && !c) || (b && c && !a && !d);
}

// Shortest route length by brute force, or infinity.
double bruteForce(const TileMap& map, const Point& start, const Point& goal) {
  if (start == goal) return 0.0;  // (a zero-length probe asks about the tile at the point)
  std::vector<Point> points{start, goal};
  for (std::int32_t y = 0; y <= map.height(); ++y) {
    for (std::int32_t x = 0; x <= map.width(); ++x) {
      const int blockedAround = int(blocked(map, x - 1, y - 1)) + int(blocked(map, x, y - 1)) +
                                int(blocked(map, x - 1, y)) + int(blocked(map, x, y));
      if (blockedAround > 0 && blockedAround < 4 && !pinchCorner(map, x, y)) points.emplace_back(x, y);
    }
  }
  auto world = [](const Point& p) { return Vec2(float(p.x()), float(p.y())); };
  const std::size_t n = points.size();
  std::vector<double> best(n, std::numeric_limits<double>::infinity());
  std::vector<bool> done(n, false);
  best[0] = 0;
  for (;;) {
    std::size_t u = n;
    for (std::size_t i = 0; i < n; ++i) {
      if (!done[i] && std::isfinite(best[i]) && (u == n || best[i] < best[u])) u = i;
    }
    if (u == n || u == 1) break;
    done[u] = true;
    for (std::size_t v = 0; v < n; ++v) {
      if (done[v]) continue;
      const double through = best[u] + (points[v] - points[u]).norm();
      if (through < best[v] && hasLineOfSight(map, TerrainTable::kWalk, world(points[u]), world(points[v]))) {
        best[v] = through;
      }
    }
  }
  return best[1];
}

// A point the search may start or end at: a tile corner, a tile centre, or anywhere in a tile.
Point randomPoint(std::mt19937& random, const TileMap& map) {
  for (;;) {
    std::uniform_int_distribution<int> x(0, map.width() - 1), y(0, map.height() - 1), kind(0, 2);
    const Cell cell{x(random), y(random)};
    if (blocked(map, cell.x, cell.y)) continue;
    std::uniform_real_distribution<double> unit(0.05, 0.95);
    switch (kind(random)) {
      case 0: {
        const Point corner{cell.x + std::uniform_int_distribution<int>(0, 1)(random),
                           cell.y + std::uniform_int_distribution<int>(0, 1)(random)};
        if (pinchCorner(map, std::int32_t(corner.x()), std::int32_t(corner.y()))) continue;
        return corner;
      }
      case 1: return {cell.x + 0.5, cell.y + 0.5};
      default: return {cell.x + unit(random), cell.y + unit(random)};
    }
  }
}

std::string picture(const TileMap& map) {
  std::string out;
  for (std::int32_t y = 0; y < map.height(); ++y) {
    for (std::int32_t x = 0; x < map.width(); ++x) out += blocked(map, x, y) ? '#' : '.';
    out += '\n';
  }
  return out;
}

// A map with its search grid and sight lines, as the searches take them (the lines point at the
// map: a Prepared stays where it is made).
struct Prepared {
  explicit Prepared(TileMap tiles)
      : map(std::move(tiles)), grid(std::move(*SearchGrid::build(map, TerrainTable::kWalk))), lines(map, TerrainTable::kWalk) {}
  Prepared(const Prepared&) = delete;
  Prepared& operator=(const Prepared&) = delete;
  Status find(AnyaSearch& search, const Point& from, const Point& to) const {
    return search.findPath(grid, lines.cheapLines(false), from, to);
  }
  TileMap map;
  SearchGrid grid;
  SegmentTester lines;
};

struct Found {
  Status status;
  double length;
  std::vector<Point> route;
};

Found anya(AnyaSearch& search, const TileMap& map, const Point& start, const Point& goal) {
  const Prepared prepared(map);
  Found found;
  found.status = prepared.find(search, start, goal);
  found.route = search.route();
  found.length = search.length();
  return found;
}

}  // namespace

TEST_CASE("Anya finds the shortest any-angle route on random maps", "[search][anya]") {
  std::mt19937 random(20261127);
  AnyaSearch search;
  int compared = 0, unreachable = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int width = 4 + trial % 13, height = 3 + (trial * 7) % 11;
    const double walls = 0.1 + 0.05 * (trial % 6);
    const TileMap map = test::randomMap(random, Layout::square(), width, height, walls, false);
    const Point start = randomPoint(random, map), goal = randomPoint(random, map);
    const double expected = bruteForce(map, start, goal);
    const Found found = anya(search, map, start, goal);
    INFO(picture(map));
    INFO("trial " << trial << " start " << start.transpose() << " goal " << goal.transpose());
    if (!std::isfinite(expected)) {
      std::ostringstream shown;
      for (const Point& p : found.route) shown << "(" << p.x() << "," << p.y() << ") ";
      INFO("route " << shown.str());
      CHECK(found.status == Status::NoPath);
      ++unreachable;
      continue;
    }
    REQUIRE(found.status == Status::Ok);
    CHECK(found.length == Approx(expected).margin(1e-7));
    // The route is what it claims: clear segments from the start to the goal, of that length.
    REQUIRE(found.route.size() >= 2);
    CHECK(found.route.front() == start);
    CHECK(found.route.back() == goal);
    double length = 0;
    for (std::size_t i = 1; i < found.route.size(); ++i) {
      length += (found.route[i] - found.route[i - 1]).norm();
      if (found.route[i] == found.route[i - 1]) continue;
      CHECK(hasLineOfSight(map, TerrainTable::kWalk,
                           Vec2(float(found.route[i - 1].x()), float(found.route[i - 1].y())),
                           Vec2(float(found.route[i].x()), float(found.route[i].y()))));
    }
    CHECK(length == Approx(found.length).margin(1e-9));
    ++compared;
  }
  CHECK(compared > 300);
  CHECK(unreachable > 5);
}

TEST_CASE("Anya answers bad input with a status", "[search][anya]") {
  const Prepared wall(test::mapFromAscii(Layout::square(), {"....", ".##.", "...."}));
  AnyaSearch search;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const Point& bad : {Point(nan, 1.0), Point(1.0, std::numeric_limits<double>::infinity()), Point(-0.5, 1.0),
                           Point(4.5, 1.0), Point(2.0, 1.5), Point(1.5, 1.5)}) {
    INFO(bad.transpose());
    CHECK(wall.find(search, bad, Point(0.5, 0.5)) == Status::InvalidArgument);
    CHECK(wall.find(search, Point(0.5, 0.5), bad) == Status::InvalidArgument);
  }
  // Rows of another map, a map of two costs, hexes.
  const TileMap other = test::mapFromAscii(Layout::square(), {"...", "..."});
  const SegmentTester otherLines(other, TerrainTable::kWalk);
  CHECK(search.findPath(wall.grid, otherLines.cheapLines(false), Point(0.5, 0.5), Point(3.5, 2.5)) ==
        Status::InvalidArgument);
  const Prepared swamp(test::mapFromAscii(Layout::square(), {"..,,", "...."}));
  CHECK(swamp.find(search, Point(0.5, 0.5), Point(3.5, 1.5)) == Status::InvalidArgument);
  const TileMap hex = test::mapFromAscii(Layout::hexPointy(), {"....", "...."});
  auto hexGrid = SearchGrid::build(hex, TerrainTable::kWalk);
  CHECK(search.findPath(*hexGrid, wall.lines.cheapLines(false), Point(0.5, 0.5), Point(1.5, 1.5)) ==
        Status::InvalidArgument);
  CHECK(search.resume() == Status::InvalidArgument);
  // Edge points of free tiles are on the map; the same point as start and goal is a route of 0.
  REQUIRE(wall.find(search, Point(4.0, 3.0), Point(0.0, 0.0)) == Status::Ok);
  // Round either end of the wall, (3,1) or (1,2): the same length.
  CHECK(search.length() == Approx(std::sqrt(5.0) + std::sqrt(10.0)).margin(1e-9));
  REQUIRE(wall.find(search, Point(2.0, 1.0), Point(2.0, 1.0)) == Status::Ok);
  CHECK(search.length() == 0.0);
  CHECK(search.route().size() == 2);
}

TEST_CASE("Anya: no squeezing through a point where blocked tiles touch diagonally", "[search][anya]") {
  const Prepared pinched(test::mapFromAscii(Layout::square(), {".#..", "#...", "...."}));
  AnyaSearch search;
  // Tile (0,0) touches the rest only at the corner (1,1), between two blocked tiles.
  CHECK(pinched.find(search, Point(0.5, 0.5), Point(3.5, 2.5)) == Status::NoPath);
  CHECK(pinched.find(search, Point(3.5, 2.5), Point(0.5, 0.5)) == Status::NoPath);
  // From one side of the pinch to the other the route goes round: down the blocked tile (1,0)'s
  // edge, across tile (1,1), along the blocked tile (0,1)'s bottom edge.
  REQUIRE(pinched.find(search, Point(2.0, 0.0), Point(0.0, 2.0)) == Status::Ok);
  CHECK(search.length() == Approx(2.0 + std::sqrt(2.0)).margin(1e-9));
  const std::vector<Point> round{{2.0, 0.0}, {2.0, 1.0}, {1.0, 2.0}, {0.0, 2.0}};
  CHECK(search.route() == round);
}

TEST_CASE("search context: the exact any-angle mode gives legal tiles along the shortest route, sliced or not",
          "[search][anya]") {
  std::mt19937 random(11);
  SearchContext context;
  int compared = 0, sliced = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const Prepared prepared(test::randomMap(random, Layout::square(), 6 + trial % 19, 5 + (trial * 5) % 17, 0.22, false));
    const TileMap& map = prepared.map;
    const SearchGrid* grid = &prepared.grid;
    const Point from = randomPoint(random, map), to = randomPoint(random, map);
    SearchRequest request;
    request.start = map.layout().tileAt(Vec2(float(from.x()), float(from.y())));
    request.goal = map.layout().tileAt(Vec2(float(to.x()), float(to.y())));
    if (!map.passable(request.start, TerrainTable::kWalk) || !map.passable(request.goal, TerrainTable::kWalk)) continue;
    request.sightLines = &prepared.lines;
    request.startPoint = Vec2(float(from.x()), float(from.y()));
    request.goalPoint = Vec2(float(to.x()), float(to.y()));
    request.exactAnyAngle = true;
    request.radius = trial % 3 == 0 ? 0.3f : 0.0f;
    SearchResult whole;
    const Status status = context.findPath(*grid, request, whole);
    const double expected = bruteForce(map, from, to);
    INFO(picture(map) << "trial " << trial);
    if (grid->regions().regionOf(request.start) != grid->regions().regionOf(request.goal)) {
      CHECK(status == Status::NoPath);
      continue;
    }
    // The same region by 8-way steps is joined by an any-angle route (8-way steps never pass a
    // pinch).
    REQUIRE(std::isfinite(expected));
    if (status == Status::StartBlocked || status == Status::GoalBlocked) {
      CHECK(request.radius > 0.0f);  // (a point closer than the radius to a blocked tile)
      continue;
    }
    REQUIRE(status == Status::Ok);
    CHECK(whole.length == Approx(expected).margin(1e-6));
    CHECK(whole.cost == Approx(whole.length).margin(1e-6));  // a map of cost 1
    REQUIRE(test::pathCost(map, TerrainTable::kWalk, whole.path).has_value());
    CHECK(whole.path.front() == request.start);
    CHECK(whole.path.back() == request.goal);
    // The route (at radius 0, whatever the request's radius), its points and tiles.
    REQUIRE(whole.vertices.size() >= 2);
    CHECK(whole.vertices.front() == *request.startPoint);
    CHECK(whole.vertices.back() == *request.goalPoint);
    CHECK(whole.through.size() == whole.path.size());
    REQUIRE(whole.vertexTiles.size() == whole.vertices.size());
    CHECK(std::is_sorted(whole.vertexTiles.begin(), whole.vertexTiles.end()));
    CHECK(whole.vertexTiles.back() == std::int32_t(whole.path.size() - 1));
    for (std::size_t v = 0; v < whole.vertices.size(); ++v) {
      // Each vertex lies in (or on the border of) its tile.
      const Cell tile = whole.path[std::size_t(whole.vertexTiles[v])];
      CHECK(std::abs(whole.vertices[v].x() - (float(tile.x) + 0.5f)) <= 0.5f);
      CHECK(std::abs(whole.vertices[v].y() - (float(tile.y) + 0.5f)) <= 0.5f);
    }
    ++compared;
    // One expansion a slice: the same answer in the end.
    request.maxExpansions = 1;
    SearchResult parts;
    Status step = context.findPath(*grid, request, parts);
    int slices = 1;
    while (step == Status::InProgress) {
      step = context.resume(1, parts);
      ++slices;
    }
    REQUIRE(step == Status::Ok);
    CHECK(parts.path == whole.path);
    CHECK(parts.vertices == whole.vertices);
    CHECK(parts.length == whole.length);
    sliced += slices > 2 ? 1 : 0;
  }
  CHECK(compared > 60);
  CHECK(sliced > 20);
  // The mode's limits.
  const Prepared swamp(test::mapFromAscii(Layout::square(), {"..,,", "...."}));
  SearchRequest request;
  request.start = {0, 0};
  request.goal = {3, 1};
  request.exactAnyAngle = true;
  SearchResult result;
  CHECK(context.findPath(swamp.grid, request, result) == Status::InvalidArgument);  // no sight lines
  request.sightLines = &swamp.lines;
  CHECK(context.findPath(swamp.grid, request, result) == Status::InvalidArgument);  // two costs
}

TEST_CASE("planner with SearchMode::ExactAnyAngle: paths of radius 0 pulled taut are the shortest any-angle routes",
          "[path][anya]") {
  std::mt19937 random(5);
  PlannerSettings settings;
  settings.search = SearchMode::ExactAnyAngle;
  settings.comfort = 0.0f;
  settings.recordStages = true;
  PlannerSettings eightWay = settings;
  eightWay.search = SearchMode::Tiles;
  PlannerSettings comfortable = settings;
  comfortable.comfort = 0.25f;
  int compared = 0, shorter = 0, wider = 0, offCorners = 0;
  for (int trial = 0; trial < 150; ++trial) {
    const TileMap map = test::randomMap(random, Layout::square(), 8 + trial % 17, 6 + (trial * 3) % 15, 0.18, false);
    Planner exact(map, settings), plain(map, eightWay), roomy(map, comfortable);
    const Point from = randomPoint(random, map), to = randomPoint(random, map);
    const PathRequest request{Vec2(float(from.x()), float(from.y())), Vec2(float(to.x()), float(to.y()))};
    // (A point on a tile's border belongs to one of the tiles there, which must be a free one on
    // the map: on the map's right or bottom edge it is off the map.)
    const auto startTile = map.tileAt(request.start), goalTile = map.tileAt(request.goal);
    if (!startTile || !goalTile || !map.passable(*startTile, TerrainTable::kWalk) ||
        !map.passable(*goalTile, TerrainTable::kWalk)) {
      continue;
    }
    PathResult result, plainResult;
    const Status status = exact.plan(request, result);
    const double expected = bruteForce(map, from, to);
    INFO(picture(map) << "trial " << trial << " from " << from.transpose() << " to " << to.transpose());
    if (!std::isfinite(expected)) {
      CHECK(status != Status::Ok);
      continue;
    }
    REQUIRE(status == Status::Ok);
    CHECK(result.length == Approx(expected).epsilon(1e-6).margin(1e-5));
    ++compared;
    if (plain.plan(request, plainResult) == Status::Ok) {
      // The 8-way search's path is never shorter, and sometimes longer (an obstacle's other side).
      CHECK(plainResult.length >= result.length - 1e-4);
      shorter += plainResult.length > result.length + 1e-3 ? 1 : 0;
    }
    // A wider character with comfort: a path that keeps its radius, no shorter than the optimum
    // at radius 0; where the route's corners leave room, stage 3 starts from points off them.
    PathRequest wide = request;
    wide.radius = 0.3f;
    PathResult wideResult;
    if (roomy.plan(wide, wideResult) == Status::Ok) {
      // (From a corner the body is pressed against a wall: the path's first segment steps out to
      // its tile's centre.)
      const Vec2 ownCentre = map.layout().tileCenter(*map.tileAt(wide.start));
      const bool pressed = !probeSegment(map, TerrainTable::kWalk, wide.start, wide.start, 0.3f).clear;
      if (pressed) CHECK(wideResult.controlPoints[1] == ownCentre);
      for (std::size_t i = pressed ? 2 : 1; i < wideResult.controlPoints.size(); ++i) {
        CHECK(probeSegment(map, TerrainTable::kWalk, wideResult.controlPoints[i - 1], wideResult.controlPoints[i], 0.3f).clear);
      }
      CHECK(wideResult.length >= expected - 1e-4);
      ++wider;
      offCorners += roomy.diagnostics().anyAngleRoute && roomy.diagnostics().stats(PathStage::Search).ran ? 1 : 0;
    }
  }
  CHECK(compared > 100);
  CHECK(shorter > 0);
  CHECK(wider > 60);
  CHECK(offCorners > 15);
}

TEST_CASE("Anya on a grid of pillars (many routes of equal length) stays small", "[search][anya]") {
  // Every tile with both coordinates odd blocked: the routes between two far points tie in
  // their thousands. Corners reached again at the same cost must not become roots again.
  auto pillars = [](int n) {
    std::vector<std::string> rows(std::size_t(n), std::string(std::size_t(n), '.'));
    for (int y = 1; y < n; y += 2) {
      for (int x = 1; x < n; x += 2) rows[std::size_t(y)][std::size_t(x)] = '#';
    }
    const std::vector<std::string_view> views(rows.begin(), rows.end());
    return test::mapFromRows(Layout::square(), views);
  };
  AnyaSearch search;
  {
    const TileMap small = pillars(16);
    const Prepared prepared(small);
    REQUIRE(prepared.find(search, Point(0, 0), Point(16, 8)) == Status::Ok);
    CHECK(search.length() == Approx(bruteForce(small, Point(0, 0), Point(16, 8))).margin(1e-7));
  }
  const Prepared large(pillars(100));
  REQUIRE(large.find(search, Point(0, 0), Point(100, 50)) == Status::Ok);
  CHECK(search.expanded() < 20000);
  CHECK(search.memoryBytes() < (std::size_t(8) << 20));
}

TEST_CASE("a reused Anya search answers as a fresh one: after other maps, abandoned searches and a grown table",
          "[search][anya]") {
  // One search object goes through maps of many widths, searches left suspended half way, and
  // searches that reach thousands of corners (its corner table grows, its node slots are reused);
  // each answer must equal, bit for bit, what a search made for that query alone gives.
  std::mt19937 random(1127);
  AnyaSearch reused;
  int grown = 0, abandoned = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const bool large = trial % 4 == 0;
    const int width = large ? 150 + trial : 5 + trial % 23, height = large ? 120 : 4 + trial % 17;
    const double walls = large ? 0.3 : 0.2 + 0.02 * (trial % 5);
    const Prepared prepared(test::randomMap(random, Layout::square(), width, height, walls, false));
    Point start = randomPoint(random, prepared.map), goal = randomPoint(random, prepared.map);
    while (large && std::abs(goal.x() - start.x()) < 0.6 * width) {
      start = randomPoint(random, prepared.map);
      goal = randomPoint(random, prepared.map);
    }
    if (trial % 3 == 1) {
      // Started and left: the next search must not see its corners.
      abandoned += reused.findPath(prepared.grid, prepared.lines.cheapLines(false), start, goal, SearchLimit{5}) == Status::InProgress ? 1 : 0;
      continue;
    }
    AnyaSearch fresh;
    const Status expected = prepared.find(fresh, start, goal);
    INFO("trial " << trial);
    REQUIRE(prepared.find(reused, start, goal) == expected);
    CHECK(reused.route() == fresh.route());
    CHECK(reused.length() == fresh.length());
    CHECK(reused.expanded() == fresh.expanded());
    CHECK(reused.generated() == fresh.generated());
    grown += fresh.memoryBytes() > AnyaSearch().memoryBytes() + 65536 ? 1 : 0;
  }
  CHECK(abandoned > 10);
  CHECK(grown > 5);  // searches that needed more than the first table and vectors
}

TEST_CASE("the exact search from or to a corner where blocked tiles touch diagonally leaves through its own tile",
          "[search][anya]") {
  const Prepared pinched(test::mapFromAscii(Layout::square(), {"....", "..#.", ".#..", "...."}));
  SearchContext context;
  SearchRequest request;
  request.start = {0, 0};
  request.goal = {2, 2};  // the corner (2,2) belongs to tile (2,2) (the lower right one)
  request.sightLines = &pinched.lines;
  request.startPoint = Vec2(0.5f, 0.5f);
  request.goalPoint = Vec2(2.0f, 2.0f);
  request.exactAnyAngle = true;
  SearchResult result;
  REQUIRE(context.findPath(pinched.grid, request, result) == Status::Ok);
  CHECK(test::pathCost(pinched.map, TerrainTable::kWalk, result.path).has_value());
  CHECK(result.path.back() == Cell{2, 2});
  // Reached through tile (2,2): round the blocked tile (2,1) or (1,2), not through the pinch,
  // by the exact search's own route (not the tile search it falls back on).
  CHECK(result.length > std::sqrt(2.0) * 1.5 + 0.5);
  CHECK(result.vertices.size() >= 3);
  // And from there.
  std::swap(request.start, request.goal);
  std::swap(request.startPoint, request.goalPoint);
  REQUIRE(context.findPath(pinched.grid, request, result) == Status::Ok);
  CHECK(test::pathCost(pinched.map, TerrainTable::kWalk, result.path).has_value());
  CHECK(result.length > std::sqrt(2.0) * 1.5 + 0.5);
  CHECK(result.vertices.size() >= 3);
}

TEST_CASE("planner with SearchMode::ExactAnyAngle on tiles of other sizes and origins: never a failure the 8-way planner has not",
          "[path][anya]") {
  // The route's corners become float world points off the lattice: rounded into a blocked tile,
  // the route is not taken as it is (the stages work from its tiles).
  std::mt19937 random(8);
  int planned = 0;
  for (const Layout& layout : {Layout::square(1.0f, 8, Vec2(0.1f, 0.7f)), Layout::square(0.3f, 8, Vec2(-3.3f, 1.7f)),
                               Layout::square(0.1f, 8, Vec2(0.05f, 0.0f))}) {
    for (int trial = 0; trial < 40; ++trial) {
      const TileMap map = test::randomMap(random, layout, 6 + trial % 15, 5 + trial % 13, 0.2, false);
      PlannerSettings exact;
      exact.search = SearchMode::ExactAnyAngle;
      exact.comfort = trial % 2 == 0 ? 0.0f : 0.25f;
      PlannerSettings eightWay = exact;
      eightWay.search = SearchMode::Tiles;
      Planner a(map, exact), b(map, eightWay);
      for (int q = 0; q < 5; ++q) {
        const Cell s{std::uniform_int_distribution<int>(0, map.width() - 1)(random),
                     std::uniform_int_distribution<int>(0, map.height() - 1)(random)};
        const Cell g{std::uniform_int_distribution<int>(0, map.width() - 1)(random),
                     std::uniform_int_distribution<int>(0, map.height() - 1)(random)};
        const PathRequest request{layout.tileCenter(s), layout.tileCenter(g)};
        PathResult x, y;
        const Status plain = b.plan(request, y);
        INFO(picture(map) << "tile " << layout.tileSize() << " trial " << trial);
        CHECK(a.plan(request, x) == plain);
        if (plain == Status::Ok && exact.comfort == 0.0f) {
          // (From the tiles the stages pull the path taut to within their margins: a few 10⁻⁵.)
          CHECK(x.length <= y.length * (1.0 + 2e-4) + 1e-4 * layout.tileSize());
          ++planned;
        }
      }
    }
  }
  CHECK(planned > 100);
}
