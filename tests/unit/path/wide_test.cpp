// SPDX-License-Identifier: MIT
// Characters wider than a tile (issue 27) through the whole pipeline, judged independently
// (support/path_checks) on random square and hex maps of rooms and blocks, for radii from half a
// tile to 3 tiles: every segment and the smoothed curve keep the radius from every forbidden tile
// and the map's edge, the one cost model holds stage by stage, the path begins and ends on the
// tiles the README names, and NoPath comes only where no route is wide enough.
#include <catch2/catch.hpp>

#include "rpgnav/path/planner.hpp"
#include "support/path_checks.hpp"
#include "support/test_maps.hpp"

#include <algorithm>
#include <cmath>
#include <random>

using namespace rpgnav;

namespace {

// An open random map with rectangular blocks of wall (1-5 tiles a side), and now and then
// varied terrain.
TileMap blocksMap(std::mt19937& random, const Layout& layout, int w, int h, int blocks, bool varyTerrain) {
  TileMap map = test::randomMap(random, layout, w, h, 0.0, varyTerrain);
  const TerrainId wall = *map.terrain().findTerrainBySymbol('#');
  for (int b = 0; b < blocks; ++b) {
    const int bw = std::uniform_int_distribution<int>(1, 5)(random), bh = std::uniform_int_distribution<int>(1, 5)(random);
    const Cell low{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
    REQUIRE(map.setTerrain(low, Cell{std::min(w - 1, low.x + bw - 1), std::min(h - 1, low.y + bh - 1)}, wall) == Status::Ok);
  }
  return map;
}

// The tile the README says a wide body's path begins or ends on: the point's own tile if the
// body fits on its centre and the segment there keeps the radius, else the first touching tile
// (in the layout's order) that does; nothing when none does.
std::optional<Cell> entryTile(const TileMap& map, const test::BodyFitRule& rule, Vec2 point, double radius) {
  const Layout& layout = map.layout();
  const Cell own = *map.tileAt(point);
  std::vector<Cell> candidates{own};
  for (const NeighbourStep& step : layout.touching(own)) candidates.push_back({own.x + step.dx, own.y + step.dy});
  for (const Cell cell : candidates) {
    if (!rule.fits(cell)) continue;
    const std::array<Vec2, 2> leg{point, layout.tileCenter(cell)};
    if (test::judgePolyline(map, rule.mobility, leg, radius).clear) return cell;
  }
  return std::nullopt;
}

struct Counts {
  int planned = 0, searched = 0, straight = 0, noPath = 0, refused = 0, entered = 0, curves = 0;
};

}  // namespace

TEST_CASE("wide characters (half a tile to 3 tiles) keep their radius through every stage on random square and hex maps",
          "[path][property][wide]") {
  std::mt19937 random(2727);
  Counts counts;
  const Vec2 offset(3.3f, 1.7f);
  const std::vector<Layout> layouts{Layout::square(),          Layout::square(1.0f, 4),
                                    Layout::square(0.7f, 8, offset), Layout::hexPointy(),
                                    Layout::hexFlat(1.0f, offset, HexStagger::Even), Layout::hexPointy(2.0f, offset)};
  const double fixedRadii[] = {0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0};
  for (const Layout& layout : layouts) {
    const double tile = double(layout.tileSize());
    for (int trial = 0; trial < 40; ++trial) {
      const double radiusTiles = trial % 2 == 0 ? fixedRadii[std::size_t(trial / 2) % std::size(fixedRadii)]
                                                : std::uniform_real_distribution<double>(0.5, 3.0)(random);
      // Wider bodies get bigger maps with fewer blocks, so that many routes stay open to them.
      const int w = std::uniform_int_distribution<int>(16, 28)(random) + int(6 * radiusTiles);
      const int h = std::uniform_int_distribution<int>(14, 24)(random) + int(6 * radiusTiles);
      const TileMap map = blocksMap(random, layout, w, h, int(w * h / (30 * (1.0 + radiusTiles))), trial % 3 == 1);
      const double radius = radiusTiles * tile;
      const test::BodyFitRule rule(map, TerrainTable::kWalk, radiusTiles);
      World world(map);
      PlannerSettings settings;
      settings.recordStages = true;
      Planner planner(world, settings);
      INFO(layoutName(layout.kind()) << " " << layout.connectivity() << "-way, tile " << tile << ", trial " << trial
                                     << ", radius " << radius);
      for (int q = 0; q < 15; ++q) {
        // Points that keep the radius (and a little more), half the time on a tile's centre; every
        // third query's ends close to a wall (within 0.6 tiles more than the radius), where the
        // path often begins on a touching tile.
        const bool tight = q % 3 == 2;
        auto point = [&]() -> std::optional<Vec2> {
          for (int attempt = 0; attempt < 200; ++attempt) {
            const Cell cell{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
            Vec2 p = layout.tileCenter(cell);
            if (attempt % 2 == 1) {
              p += Vec2(std::uniform_real_distribution<float>(-0.45f, 0.45f)(random),
                        std::uniform_real_distribution<float>(-0.45f, 0.45f)(random)) * layout.tileSize();
            }
            if (map.tileAt(p) && map.passable(*map.tileAt(p), TerrainTable::kWalk) &&
                test::judgeSegment(map, TerrainTable::kWalk, p, p, radius + 0.01 * tile).clear &&
                (!tight || !test::judgeSegment(map, TerrainTable::kWalk, p, p, radius + 0.6 * tile).clear)) {
              return p;
            }
          }
          return std::nullopt;
        };
        const auto start = point(), goal = point();
        if (!start || !goal) continue;
        const PathRequest request{*start, *goal, TerrainTable::kWalk, float(radius)};
        PathResult result;
        const Status status = planner.plan(request, result);
        INFO("from " << start->transpose() << " to " << goal->transpose() << ": " << toString(status) << " ("
                     << result.reason << ")");
        const auto startEntry = entryTile(map, rule, *start, radius), goalEntry = entryTile(map, rule, *goal, radius);
        switch (status) {
          case Status::StartBlocked:
            REQUIRE_FALSE(startEntry);
            CHECK(std::string(result.reason).find("too wide") != std::string::npos);
            ++counts.refused;
            continue;
          case Status::GoalBlocked:
            REQUIRE(startEntry);
            REQUIRE_FALSE(goalEntry);
            CHECK(std::string(result.reason).find("too wide") != std::string::npos);
            ++counts.refused;
            continue;
          case Status::NoPath:
            // Only where no route is wide enough, and saying so (or, where not even a point could
            // pass, that the goal lies in another region).
            REQUIRE((startEntry && goalEntry));
            REQUIRE_FALSE(rule.reaches(*startEntry, *goalEntry));
            if (test::reachable(map, TerrainTable::kWalk, {}, *startEntry, *goalEntry, 0.0)) {
              CHECK(std::string(result.reason) == "no route is wide enough for the character");
            } else {
              CHECK(std::string(result.reason) == "goal lies in another region than the start");
            }
            ++counts.noPath;
            continue;
          case Status::Ok: break;
          default: FAIL("unexpected status");
        }
        ++counts.planned;
        const std::string violation = test::costInvariantViolation(map, request, result, {}, false);
        INFO(violation);
        REQUIRE(violation.empty());
        if (result.tilePath.empty()) {
          ++counts.straight;
        } else {
          // On the entry tiles, by steps the body fits through.
          ++counts.searched;
          REQUIRE((startEntry && goalEntry));
          CHECK(result.tilePath.front() == *startEntry);
          CHECK(result.tilePath.back() == *goalEntry);
          counts.entered += result.tilePath.front() != *map.tileAt(*start) || result.tilePath.back() != *map.tileAt(*goal) ? 1 : 0;
          for (std::size_t i = 1; i < result.tilePath.size(); ++i) REQUIRE(rule.step(result.tilePath[i - 1], result.tilePath[i]));
        }
        if (!result.smoothed.empty()) {
          ++counts.curves;
          const std::string curve = test::curveViolation(world, request, result.smoothed, 1e-4 * tile);
          INFO(curve);
          REQUIRE(curve.empty());
        }
      }
    }
  }
  const std::string summary = "planned " + std::to_string(counts.planned) + " (searched " + std::to_string(counts.searched) +
                              ", straight " + std::to_string(counts.straight) + ", from or to a touching tile " +
                              std::to_string(counts.entered) + ", curves " + std::to_string(counts.curves) + "), NoPath " +
                              std::to_string(counts.noPath) + ", refused " + std::to_string(counts.refused);
  WARN(summary);
  CHECK(counts.searched > 800);
  CHECK(counts.straight > 100);
  CHECK(counts.entered > 20);
  CHECK(counts.noPath > 30);
  CHECK(counts.refused > 5);
}
