// SPDX-License-Identifier: MIT
// Each stage on its own, with hand-made maps, and the whole pipeline against an independent
// optimal any-angle reference (visibility graph over blocked-tile corners, Dijkstra).
#include <catch2/catch.hpp>

#include "rpgnav/grid/line_of_sight.hpp"
#include "rpgnav/path/planner.hpp"
#include "path/stages.hpp"
#include "support/path_checks.hpp"
#include "support/test_maps.hpp"

#include <array>
#include <cmath>
#include <queue>
#include <random>

using namespace rpgnav;

namespace {

// The map's indexes for one mobility, as the Planner keeps them.
struct Indexed {
  SegmentTester lines;
  ConvexCorners corners;
  Indexed(const TileMap& map, MobilityId mobility) : lines(map, mobility), corners(map, mobility) {}
  StageContext context(const TileMap& map, MobilityId mobility, float radius) const {
    return {map, mobility, radius, lines, corners};
  }
};

// Shortest any-angle path for a zero-radius walker on a uniform-cost square map: Dijkstra over
// start, goal and every corner of every blocked tile, joined where hasLineOfSight allows. Corners
// where two blocked tiles touch only diagonally are left out: a path may not squeeze through
// them (hasLineOfSight does not check a segment's own ends for that).
double optimalAnyAngle(const TileMap& map, Vec2 start, Vec2 goal) {
  std::vector<Vec2> nodes{start, goal};
  for (int y = 0; y < map.height(); ++y) {
    for (int x = 0; x < map.width(); ++x) {
      if (map.passable({x, y}, TerrainTable::kWalk)) continue;
      for (const Vec2& corner : {Vec2(x, y), Vec2(x + 1, y), Vec2(x, y + 1), Vec2(x + 1, y + 1)}) {
        auto blocked = [&](float dx, float dy) {
          return !map.passable(map.layout().tileAt(corner + Vec2(dx, dy)), TerrainTable::kWalk);
        };
        const bool pinch = (blocked(-0.5f, -0.5f) && blocked(0.5f, 0.5f)) || (blocked(0.5f, -0.5f) && blocked(-0.5f, 0.5f));
        if (!pinch && std::find(nodes.begin(), nodes.end(), corner) == nodes.end()) nodes.push_back(corner);
      }
    }
  }
  std::vector<double> best(nodes.size(), HUGE_VAL);
  using Entry = std::pair<double, std::size_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
  best[0] = 0;
  open.push({0.0, 0});
  while (!open.empty()) {
    const auto [distance, node] = open.top();
    open.pop();
    if (distance > best[node]) continue;
    if (node == 1) return distance;
    for (std::size_t next = 0; next < nodes.size(); ++next) {
      const double step = double((nodes[next] - nodes[node]).norm());
      if (distance + step >= best[next] || !hasLineOfSight(map, TerrainTable::kWalk, nodes[node], nodes[next])) continue;
      best[next] = distance + step;
      open.push({best[next], next});
    }
  }
  return HUGE_VAL;
}

}  // namespace

TEST_CASE("stage 3: control points leave each tile toward the goal, or sit at its centre", "[path][stage]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "......",
                                                               "......",
                                                               "......",
                                                           });
  const Indexed indexed(map, TerrainTable::kWalk);
  const StageContext context = indexed.context(map, TerrainTable::kWalk, 0.0f);
  const std::vector<Cell> tiles{{0, 1}, {1, 1}, {2, 1}, {3, 1}, {4, 1}, {5, 1}};
  std::vector<Vec2> points;
  StageStats stats;
  controlPointStage(context, {}, tiles, {}, {}, {}, Vec2(0.2f, 1.5f), Vec2(5.7f, 1.5f), points, stats);
  // start, start tile centre, one point per inner tile, goal tile centre, goal.
  REQUIRE(points.size() == 8);
  for (int k = 1; k <= 4; ++k) {
    // Where the line from the previous point toward the goal leaves tile k: its right edge.
    CHECK(points[std::size_t(k) + 1] == Vec2(k + 1.0f, 1.5f));
  }
  // The line toward a goal off to the side leaves tile 1 upward, out of the path: the centre
  // stays; and an exit point that would make the way longer than through the centre is refused.
  controlPointStage(context, {}, tiles, {}, {}, {}, Vec2(0.5f, 1.5f), Vec2(5.5f, 0.2f), points, stats);
  CHECK(points[2] == Vec2(1.5f, 1.5f));
  CHECK(stats.pointsIn == 6);
  CHECK(stats.pointsOut == 8);
  // Switched off: tile centres.
  controlPointStage(context, {false}, tiles, {}, {}, {}, Vec2(0.5f, 1.5f), Vec2(5.5f, 1.2f), points, stats);
  for (int k = 1; k <= 4; ++k) CHECK(points[std::size_t(k) + 1] == Vec2(k + 0.5f, 1.5f));
}

TEST_CASE("stage 3 on hex maps of one cost: the shortest way through the corridor of the path's tiles",
          "[path][stage][hex]") {
  const TileMap map = test::mapFromAscii(Layout::hexPointy(), {
                                                                  ".......",
                                                                  ".......",
                                                                  ".......",
                                                                  "...#...",
                                                                  ".......",
                                                              });
  const Layout& layout = map.layout();
  const Indexed indexed(map, TerrainTable::kWalk);
  const StageContext context = indexed.context(map, TerrainTable::kWalk, 0.0f);
  Planner planner(map);
  PathResult result;
  std::vector<Vec2> points;
  StageStats stats;
  // Along a row: one segment, where exit points gave a point on every edge.
  const Vec2 west = layout.tileCenter({0, 0}), east = layout.tileCenter({6, 0});
  REQUIRE(planner.plan({west, east}, result) == Status::Ok);
  controlPointStage(context, {}, result.tilePath, {}, {}, {}, west, east, points, stats);
  CHECK(points == std::vector<Vec2>{west, east});
  CHECK(stats.probes == 0);  // radius 0 inside the tiles, no door: clear by construction
  // Round the wall (odd rows are shifted half a tile right), by the search's canonical route:
  // up, along row 2, down. Its corridor bends round the corners of the open tile (2,3), which are
  // taken as they are, and round the wall's tip, which is kept 0.2 tiles of slack beyond the
  // clearance (here 0) plus the rounding margin out along the edge between the tiles above it:
  // room for stage 4 to merge such bends along a jagged wall. (Stage 4 then cuts over (2,3).)
  const std::vector<Cell> round{{1, 3}, {2, 2}, {3, 2}, {4, 2}, {5, 2}, {5, 3}};
  const Vec2 start = layout.tileCenter({1, 3}), goal = layout.tileCenter({5, 3});
  auto corner = [&](Cell a, Cell b, Cell c) {
    return Vec2((layout.tileCenter(a) + layout.tileCenter(b) + layout.tileCenter(c)) / 3.0f);
  };
  const Vec2 wall = layout.tileCenter({3, 3}), tip = corner({3, 2}, {4, 2}, {3, 3});
  const Vec2 bend = tip + (tip - wall).normalized() * float(0.2 + 1e-4 + 4e-7 * 5.0);
  const std::vector<Vec2> expected{start,
                                   corner({1, 3}, {2, 2}, {2, 3}),
                                   corner({2, 2}, {3, 2}, {2, 3}),
                                   bend,
                                   corner({4, 2}, {5, 2}, {4, 3}),
                                   corner({5, 2}, {5, 3}, {4, 3}),
                                   goal};
  controlPointStage(context, {}, round, {}, {}, {}, start, goal, points, stats);
  REQUIRE(points.size() == expected.size());
  for (std::size_t i = 0; i < points.size(); ++i) CHECK((points[i] - expected[i]).norm() < 1e-5f);
  CHECK(stats.probes == 0);
  // With a radius the segments that cross a tile with a wall beside it are probed (such a wall
  // may come nearer than the bends): the four from (2,2)'s corner to (5,2)'s; all are clear.
  StageContext wider = context;
  wider.radius = 0.1f;
  controlPointStage(wider, {}, round, {}, {}, {}, start, goal, points, stats);
  CHECK(points.size() == expected.size());
  CHECK(stats.probes == 4);
  // Radius and comfort a quarter tile each: the wall's end of the edge above the tip is kept
  // their sum plus the slack away, more than the edge is long, so the bend sits just short of
  // the other end (whose third tile is open), not at the edge's middle.
  wider.radius = 0.25f;
  wider.comfort = 0.25f;
  controlPointStage(wider, {}, round, {}, {}, {}, start, goal, points, stats);
  REQUIRE(points.size() == expected.size());
  CHECK((points[3] - tip).norm() == Approx(1.0 / std::sqrt(3.0) - 1e-3).margin(1e-5));
  CHECK(points[3].x() == Approx(tip.x()).margin(1e-5));
  // Switched off: a point in every tile.
  controlPointStage(context, {false}, round, {}, {}, {}, start, goal, points, stats);
  CHECK(points.size() == round.size() + 2);
}

TEST_CASE("stage 3 on random hex maps of one cost: clear, never longer than the tiles' centres, a point per turn",
          "[path][stage][hex][property]") {
  std::mt19937 random(50);
  std::size_t tiles = 0, points = 0, paths = 0;
  std::vector<Layout> layouts;
  for (const Layout& layout : test::allLayouts()) {
    if (layout.isHex()) layouts.push_back(layout);
  }
  // Far from the world's origin, where float points round coarsely: the corridor must still keep
  // clear of dearer tiles' edges (a segment along one is priced at the dearer cost).
  layouts.push_back(Layout::hexPointy(1.0f, Vec2(3000.0f, 3000.0f)));
  layouts.push_back(Layout::hexFlat(32.0f, Vec2(96000.0f, 64000.0f), HexStagger::Even));
  for (const Layout& layout : layouts) {
    for (int trial = 0; trial < 40; ++trial) {
      // Half the maps of one terrain; on the others the corridor serves paths over the cheapest
      // tiles only, and must not run along dearer ones.
      const TileMap map = test::randomMap(random, layout, 18, 15, std::uniform_real_distribution<double>(0.05, 0.3)(random),
                                          trial % 2 == 1);
      const Indexed indexed(map, TerrainTable::kWalk);
      Planner planner(map);
      PathResult result;
      std::uniform_int_distribution<int> x(0, map.width() - 1), y(0, map.height() - 1);
      for (int q = 0; q < 8; ++q) {
        const Cell from{x(random), y(random)}, to{x(random), y(random)};
        const float tile = layout.tileSize();
        // Somewhere near the tiles' centres (the stage starts from the request's points).
        std::uniform_real_distribution<float> nudge(-0.1f * tile, 0.1f * tile);
        const Vec2 start = layout.tileCenter(from) + Vec2(nudge(random), nudge(random));
        const Vec2 goal = layout.tileCenter(to) + Vec2(nudge(random), nudge(random));
        if (!map.passable(from, TerrainTable::kWalk) || !map.passable(to, TerrainTable::kWalk) ||
            planner.plan({start, goal}, result) != Status::Ok || result.tilePath.size() < 2) {
          continue;
        }
        std::vector<Vec2> centres{start};
        for (const Cell& cell : result.tilePath) centres.push_back(layout.tileCenter(cell));
        centres.push_back(goal);
        double centresLength = 0.0;
        for (std::size_t i = 1; i < centres.size(); ++i) centresLength += double((centres[i] - centres[i - 1]).norm());
        for (const float radius : {0.0f, 0.12f, 0.27f}) {
          for (const float comfort : {0.0f, 0.25f}) {
            StageContext context = indexed.context(map, TerrainTable::kWalk, radius * tile);
            context.comfort = comfort * tile;
            std::vector<Vec2> out;
            StageStats stats;
            controlPointStage(context, {}, result.tilePath, {}, {}, {}, start, goal, out, stats);
            INFO(toString(layout.kind()) << " trial " << trial << " radius " << radius << " comfort " << comfort);
            const test::PolylineJudgement judged = test::judgePolyline(map, TerrainTable::kWalk, out, radius * tile);
            INFO(judged.why);
            REQUIRE(judged.clear);
            double length = 0.0;
            for (std::size_t i = 1; i < out.size(); ++i) length += double((out[i] - out[i - 1]).norm());
            if (trial % 2 == 0) CHECK(length <= centresLength * (1.0 + 1e-6));
            const double centresCost = test::judgePolyline(map, TerrainTable::kWalk, centres, radius * tile).cost;
            CHECK(judged.cost <= centresCost * (1.0 + 1e-6));
            CHECK(out.front() == start);
            CHECK(out.back() == goal);
            if (trial % 2 == 0) {
              tiles += result.tilePath.size();
              points += out.size();
            }
            ++paths;
          }
        }
      }
    }
  }
  INFO(paths << " paths, " << tiles << " tiles, " << points << " points");
  CHECK(paths > 1000);
  // On the maps of one terrain: exit points kept a point in every tile (and the start and goal);
  // the corridor's way bends only where the corridor does, on these small maps crowded with
  // walls still at most 4 points in 5 tiles. (When written: 19,446 tiles, 14,640 points.)
  CHECK(points * 5 < tiles * 4);
}

TEST_CASE("stages 4 and 6: straightening drops points whose neighbours see each other", "[path][stage]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "........",
                                                               "...#....",
                                                               "........",
                                                           });
  const Indexed indexed(map, TerrainTable::kWalk);
  const StageContext context = indexed.context(map, TerrainTable::kWalk, 0.0f);
  StageStats stats;
  // A zig-zag in the open collapses to its ends; one round the wall keeps the point that must stay.
  std::vector<Vec2> open{Vec2(0.5f, 2.5f), Vec2(1.5f, 2.2f), Vec2(2.5f, 2.8f), Vec2(7.5f, 2.5f)};
  straightenStage(context, {}, false, open, stats);
  CHECK(open == std::vector<Vec2>{Vec2(0.5f, 2.5f), Vec2(7.5f, 2.5f)});
  std::vector<Vec2> round{Vec2(0.5f, 1.5f), Vec2(2.5f, 0.5f), Vec2(4.5f, 0.5f), Vec2(7.5f, 1.5f)};
  straightenStage(context, {}, true, round, stats);
  REQUIRE(round.size() == 3);
  CHECK_FALSE(hasLineOfSight(map, TerrainTable::kWalk, round[0], round[2]));
  // Straightening never leads over dearer ground: the swamp row stays unused.
  const TileMap swamp = test::mapFromAscii(Layout::square(), {
                                                                 "........",
                                                                 ",,,,,,,,",
                                                                 "........",
                                                             });
  const Indexed swampIndexed(swamp, TerrainTable::kWalk);
  std::vector<Vec2> around{Vec2(0.5f, 0.5f), Vec2(7.5f, 0.5f), Vec2(7.9f, 2.5f)};
  straightenStage(swampIndexed.context(swamp, TerrainTable::kWalk, 0.0f), {}, false, around, stats);
  CHECK(around.size() == 3);
}

TEST_CASE("stage 5: corner routing pulls a bend onto the corner it wraps", "[path][stage]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "........",
                                                               "........",
                                                               "..####..",
                                                               "........",
                                                           });
  const Indexed indexed(map, TerrainTable::kWalk);
  StageStats stats;
  for (const float radius : {0.0f, 0.3f}) {
    const StageContext context = indexed.context(map, TerrainTable::kWalk, radius);
    // From above the wall's left end down to below it, via a point far out to the left.
    std::vector<Vec2> points{Vec2(3.5f, 1.5f), Vec2(0.5f, 1.5f), Vec2(0.5f, 3.5f), Vec2(3.5f, 3.5f)};
    cornerRoutingStage(context, {}, points, stats);
    straightenStage(context, {}, true, points, stats);
    cornerRoutingStage(context, {}, points, stats);
    const float clearance = radius + 1e-3f;
    // Tight round the wall's two left corners (2,2) and (2,3), `clearance` out diagonally.
    REQUIRE(points.size() == 4);
    CHECK(points[1].x() == Approx(2.0f - clearance).margin(1e-4));
    CHECK(points[1].y() == Approx(2.0f - clearance).margin(1e-4));
    CHECK(points[2].x() == Approx(2.0f - clearance).margin(1e-4));
    CHECK(points[2].y() == Approx(3.0f + clearance).margin(1e-4));
    for (std::size_t i = 1; i < points.size(); ++i) CHECK(context.probe(points[i - 1], points[i]).clear);
  }
}

TEST_CASE("pipeline: zero-radius paths match the optimal any-angle length on random maps", "[path][property]") {
  // The three searches: 8-way, Theta* and the exact any-angle one (the default on these maps).
  const int search = GENERATE(0, 1, 2);
  const bool anyAngle = search == 1;
  std::mt19937 random(2024);
  int queries = 0, tight = 0;
  double worst = 0;
  for (int trial = 0; trial < 30; ++trial) {
    const TileMap map = test::randomMap(random, Layout::square(), 16, 14, 0.25, false);
    PlannerSettings settings;
    settings.search = std::array{SearchMode::Tiles, SearchMode::AnyAngle, SearchMode::ExactAnyAngle}[search];
    settings.recordStages = true;
    settings.comfort = 0.0f;  // taut paths: the optimum is pulled tight against the corners
    Planner planner(map, settings);
    PathResult result;
    std::uniform_real_distribution<float> x(0.0f, 16.0f), y(0.0f, 14.0f);
    for (int q = 0; q < 12; ++q) {
      const Vec2 start(x(random), y(random)), goal(x(random), y(random));
      if (planner.plan({start, goal}, result) != Status::Ok) continue;
      // The cost invariant, stage by stage (support/path_checks).
      const std::string broken = test::costInvariantViolation(map, {start, goal}, result, planner.diagnostics(), {}, anyAngle || search == 2);
      INFO(broken);
      CHECK(broken.empty());
      const double optimal = optimalAnyAngle(map, start, goal);
      REQUIRE(std::isfinite(optimal));
      INFO("trial " << trial << " from " << start.transpose() << " to " << goal.transpose());
      // Never shorter than optimal (no wall is cut), and within the corner margin of it almost
      // always: the path is pulled taut round the obstacles the A* path passes. (It can pass an
      // obstacle on the other side than the shortest way does: the search measures octile
      // steps, not Euclidean length; Theta* rarely does; the exact search never does.)
      CHECK(result.length >= optimal - 1e-4);
      if (search == 2) CHECK(result.length == Approx(optimal).epsilon(1e-6));
      const double excess = (result.length - optimal) / std::max(optimal, 1.0);
      worst = std::max(worst, excess);
      tight += excess <= 1e-3 ? 1 : 0;
      ++queries;
    }
  }
  INFO(tight << " of " << queries << " within 0.1%, worst " << worst * 100 << "%, search " << search);
  CHECK(queries > 150);
  // When written: 163 of 194 (8-way search), 159 of 194 (any-angle search: Theta* gains little
  // on small maps strewn with single blocked tiles, see the README for real maps); the exact
  // search every one.
  CHECK(tight >= queries * 80 / 100);
  if (search == 2) CHECK(tight == queries);
}
