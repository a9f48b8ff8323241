// SPDX-License-Identifier: MIT
// The promises every path keeps, judged independently (support/path_checks) on thousands of random
// hex and square maps with terrain costs, doors in every state and characters of every radius:
// the touching rule, clearance from walls and closed doors, the one cost model stage by stage,
// the straight-line rule, and no NoPath where the movement rule says the goal can be reached.
#include <catch2/catch.hpp>

#include "rpgnav/grid/line_of_sight.hpp"
#include "rpgnav/path/planner.hpp"
#include "support/path_checks.hpp"
#include "support/test_maps.hpp"

#include <algorithm>
#include <cmath>
#include <random>

using namespace rpgnav;

namespace {

struct Counts {
  int maps = 0, planned = 0, searched = 0, straight = 0, straightAfterSearch = 0, doorStops = 0, noPath = 0;
  int wideHex = 0, wideHexNearDoors = 0, portals = 0, alongEdges = 0, refused = 0;
};

// A random point in a random passable tile that keeps `room` from blocked tiles and wall doors,
// or nothing. With `corners`, a tile corner or the middle of a tile edge (square maps, radius 0:
// the segments between such points run along edges and through corners).
std::optional<Vec2> standingPoint(std::mt19937& random, const World& world, MobilityId mobility, double room,
                                  bool corners, std::span<const Door* const> walls) {
  const TileMap& map = world.map();
  const Layout& layout = map.layout();
  for (int attempt = 0; attempt < 60; ++attempt) {
    const Cell cell{std::uniform_int_distribution<int>(0, map.width() - 1)(random),
                    std::uniform_int_distribution<int>(0, map.height() - 1)(random)};
    if (!map.passable(cell, mobility)) continue;
    Vec2 p;
    if (corners) {
      const int kind = std::uniform_int_distribution<int>(0, 2)(random);
      p = layout.origin() + layout.tileSize() * Vec2(float(cell.x) + (kind == 1 ? 0.5f : 0.0f),
                                                     float(cell.y) + (kind == 2 ? 0.5f : 0.0f));
      if (layout.tileAt(p) != cell) continue;
    } else {
      const Vec2 jitter(std::uniform_real_distribution<float>(-0.35f, 0.35f)(random),
                        std::uniform_real_distribution<float>(-0.35f, 0.35f)(random));
      p = layout.tileCenter(cell) + jitter * layout.tileSize();
    }
    if (!test::judgeSegment(map, mobility, p, p, room).clear) continue;
    bool clearOfDoors = true;
    for (const Door* door : walls) clearOfDoors = clearOfDoors && test::segmentsDistance(p, p, door->edge[0], door->edge[1]) >= room;
    if (clearOfDoors) return p;
  }
  return std::nullopt;
}

void checkQuery(Planner& planner, const World& world, const PathRequest& request, bool anyAngle, Counts& counts) {
  const TileMap& map = world.map();
  const Layout& layout = map.layout();
  const std::vector<const Door*> walls = test::wallDoors(world.doors());
  PathResult result;
  const Status status = planner.plan(request, result);
  INFO(toString(layout.kind()) << (layout.hexStagger() == HexStagger::Even ? " even" : "") << " tile "
       << layout.tileSize() << " radius " << request.radius << " from " << request.start.transpose() << " to "
       << request.goal.transpose() << " any-angle " << anyAngle << " status " << toString(status) << " ("
       << result.reason << ")");
  const Cell startTile = *map.tileAt(request.start), goalTile = *map.tileAt(request.goal);
  const std::array<Vec2, 2> startLeg{request.start, layout.tileCenter(startTile)}, goalLeg{request.goal, layout.tileCenter(goalTile)};
  const bool legsClear = test::judgePolyline(map, request.mobility, startLeg, request.radius).clear &&
                         test::judgePolyline(map, request.mobility, goalLeg, request.radius, walls, 2e-3 * layout.tileSize()).clear;
  const bool wide = widerThanHalfHexEdge(layout, request.radius);
  switch (status) {
    case Status::StartBlocked:
    case Status::GoalBlocked:
      // Only when a leg to the tile's centre does not keep the radius (from a closed door too, at
      // the goal; a start that close to one is led out of the doorway first).
      REQUIRE_FALSE(legsClear);
      ++counts.refused;
      return;
    case Status::NoPath:
      // Never for want of a polyline, never where the movement rule reaches the goal.
      CHECK(std::string(result.reason).find("radius") == std::string::npos);
      REQUIRE_FALSE(test::reachable(map, request.mobility, world.doors(), startTile, goalTile, request.radius));
      ++counts.noPath;
      return;
    case Status::Ok:
    case Status::StoppedAtDoor: break;
    default: FAIL("unexpected status " << toString(status));
  }
  ++counts.planned;
  const std::string violation = test::costInvariantViolation(map, request, result, planner.diagnostics(), walls, anyAngle);
  INFO(violation);
  REQUIRE(violation.empty());
  counts.doorStops += status == Status::StoppedAtDoor ? 1 : 0;
  if (wide) {
    ++counts.wideHex;
    bool nearDoor = false;
    for (const Door* door : walls) {
      for (std::size_t i = 1; i < result.controlPoints.size() && !nearDoor; ++i) {
        nearDoor = test::segmentsDistance(result.controlPoints[i - 1], result.controlPoints[i], door->edge[0], door->edge[1]) <
                   double(layout.tileSize());
      }
    }
    counts.wideHexNearDoors += nearDoor ? 1 : 0;
    const std::size_t centresAndEnds = result.tilePath.size() + 2;
    counts.portals += !result.tilePath.empty() &&
                              planner.diagnostics().stagePoints[std::size_t(PathStage::Search)].size() > centresAndEnds
                          ? 1
                          : 0;
  }
  // Radius-0 segments along tile edges (square maps): counted where a final segment is axis-aligned
  // on a grid line.
  if (request.radius == 0.0f && !layout.isHex()) {
    for (std::size_t i = 1; i < result.controlPoints.size(); ++i) {
      const Vec2 a = layout.toLocal(result.controlPoints[i - 1]).cast<float>(), b = layout.toLocal(result.controlPoints[i]).cast<float>();
      const bool alongColumn = a.x() == b.x() && a.x() == std::floor(a.x());
      const bool alongRow = a.y() == b.y() && a.y() == std::floor(a.y());
      counts.alongEdges += alongColumn || alongRow ? 1 : 0;
    }
  }
  // The straight line: never dearer than a clear straight segment; taken when it crosses no
  // terrain dearer than its ends' tiles. "Clear" with a margin, so that the judge and the planner
  // agree on it however they round.
  const std::array<Vec2, 2> line{request.start, request.goal};
  const test::PolylineJudgement roomy = test::judgePolyline(map, request.mobility, line, double(request.radius) + 0.01 * double(layout.tileSize()), walls, 0.01);
  if (result.tilePath.empty()) {
    ++counts.straight;
    REQUIRE(result.controlPoints.size() == 2);
  } else {
    ++counts.searched;
  }
  if (roomy.clear) {
    const test::SegmentJudgement straight = test::judgeSegment(map, request.mobility, request.start, request.goal, request.radius);
    const double ends = std::max(map.cost(startTile, request.mobility), map.cost(goalTile, request.mobility));
    if (straight.dearest <= ends) {
      REQUIRE(status == Status::Ok);
      CHECK(result.controlPoints.size() == 2);
      CHECK_FALSE(planner.diagnostics().stats(PathStage::Search).ran);
    } else if (status == Status::Ok) {
      CHECK(result.cost <= straight.cost * (1 + 1e-7) + 1e-7);
      counts.straightAfterSearch += result.controlPoints.size() == 2 ? 1 : 0;
    }
    // (A path that stops at a door was cheaper through that door, by the search's measure, than
    // the straight segment over dearer terrain.)
  }
}

}  // namespace

TEST_CASE("every path keeps its promises on random hex and square maps with costs, doors and radii",
          "[path][property][invariants]") {
  std::mt19937 random(23);
  Counts counts;
  const Vec2 offset(10.0f, 3.0f);
  const std::vector<Layout> layouts{Layout::hexPointy(),
                                    Layout::hexPointy(1.0f, offset, HexStagger::Even),
                                    Layout::hexFlat(),
                                    Layout::hexFlat(0.5f, offset, HexStagger::Even),
                                    Layout::hexPointy(0.5f, offset),
                                    Layout::square(),
                                    Layout::square(2.0f, 8, offset),
                                    Layout::square(1.0f, 4)};
  for (std::size_t l = 0; l < layouts.size(); ++l) {
    const Layout& layout = layouts[l];
    const float tile = layout.tileSize();
    for (int trial = 0; trial < 250; ++trial) {
      const int w = std::uniform_int_distribution<int>(3, 22)(random), h = std::uniform_int_distribution<int>(3, 22)(random);
      // A third of the maps of one cost (stage 3 takes the corridor's shortest way on hex there).
      const TileMap map = test::randomMap(random, layout, w, h, std::uniform_real_distribution<double>(0.03, 0.25)(random),
                                          trial % 3 != 0);
      World world(map);
      test::addRandomDoors(random, world, 10);
      ++counts.maps;
      const std::vector<const Door*> walls = test::wallDoors(world.doors());
      PlannerSettings settings;
      settings.recordStages = true;
      // Now and then the any-angle search, for characters it serves (narrower than half a hex edge).
      const bool anyAngle = trial % 7 == 3;
      settings.search = anyAngle ? SearchMode::AnyAngle : SearchMode::ExactAnyAngle;
      Planner planner(world, settings);
      for (int q = 0; q < 6; ++q) {
        float radius = 0.0f;
        const int kind = (trial + q) % 4;
        if (layout.isHex()) {
          // Wide (at least half a hex edge) half the time, unless the any-angle search runs.
          radius = kind < 2 && !anyAngle ? std::uniform_real_distribution<float>(0.29f, 0.49f)(random)
                                         : std::uniform_real_distribution<float>(0.0f, 0.28f)(random);
          if (kind == 3) radius = 0.0f;
        } else {
          radius = kind < 2 ? 0.0f : std::uniform_real_distribution<float>(0.0f, 0.49f)(random);
        }
        radius *= tile;
        // Square maps, radius 0: half the time from tile corners and edge middles to others.
        const bool corners = !layout.isHex() && kind == 0;
        const double room = double(radius) + 0.01 * double(tile);
        const auto start = standingPoint(random, world, TerrainTable::kWalk, room, corners, walls);
        auto goal = standingPoint(random, world, TerrainTable::kWalk, room, corners, walls);
        if (corners && start && q % 3 == 0) {
          // On the same grid line as the start: the straight line, or pieces of the path, run
          // along tile edges.
          for (int attempt = 0; attempt < 20; ++attempt) {
            const auto other = standingPoint(random, world, TerrainTable::kWalk, room, corners, walls);
            if (!other) break;
            const Vec2 aligned = attempt % 2 == 0 ? Vec2(other->x(), start->y()) : Vec2(start->x(), other->y());
            // (Now and then on a closed door's edge: the planner must refuse that goal.)
            if (map.tileAt(aligned) && map.passable(*map.tileAt(aligned), TerrainTable::kWalk) &&
                test::judgeSegment(map, TerrainTable::kWalk, aligned, aligned, room).clear) {
              goal = aligned;
              break;
            }
          }
        }
        if (!start || !goal) continue;
        checkQuery(planner, world, PathRequest{*start, *goal, TerrainTable::kWalk, radius}, anyAngle, counts);
      }
    }
  }
  const std::string summary = "maps " + std::to_string(counts.maps) + ", planned " + std::to_string(counts.planned) +
                              " (searched " + std::to_string(counts.searched) + ", straight " +
                              std::to_string(counts.straight) + ", straight after a search " +
                              std::to_string(counts.straightAfterSearch) + ", door stops " +
                              std::to_string(counts.doorStops) + "), NoPath " + std::to_string(counts.noPath) +
                              "; wide hex " + std::to_string(counts.wideHex) + " (near doors " +
                              std::to_string(counts.wideHexNearDoors) + ", with portals " +
                              std::to_string(counts.portals) + "); radius-0 segments along edges " +
                              std::to_string(counts.alongEdges) + "; refused starts or goals " +
                              std::to_string(counts.refused);
  INFO(summary);
  // The generator must exercise every case in quantity.
  CHECK(counts.maps >= 2000);
  CHECK(counts.planned > 6000);
  CHECK(counts.wideHex > 800);
  CHECK(counts.wideHexNearDoors > 100);
  CHECK(counts.portals > 100);
  CHECK(counts.doorStops > 300);
  CHECK(counts.straight > 500);
  CHECK(counts.alongEdges > 120);
  WARN(summary);
  CHECK(counts.noPath > 50);
}

TEST_CASE("the exact any-angle search keeps every promise too, on square maps of one cost", "[path][property][invariants]") {
  std::mt19937 random(31);
  Counts counts;
  for (const Layout& layout : {Layout::square(), Layout::square(2.0f, 8, Vec2(10.0f, 3.0f))}) {
    const float tile = layout.tileSize();
    for (int trial = 0; trial < 150; ++trial) {
      const int w = std::uniform_int_distribution<int>(3, 24)(random), h = std::uniform_int_distribution<int>(3, 24)(random);
      const TileMap map = test::randomMap(random, layout, w, h, std::uniform_real_distribution<double>(0.03, 0.3)(random), false);
      const World world(map);
      ++counts.maps;
      PlannerSettings settings;
      settings.recordStages = true;
      settings.search = SearchMode::ExactAnyAngle;
      if (trial % 2 == 0) settings.comfort = 0.0f;
      Planner planner(world, settings);
      for (int q = 0; q < 6; ++q) {
        const int kind = (trial + q) % 4;
        const float radius = (kind < 2 ? 0.0f : std::uniform_real_distribution<float>(0.0f, 0.49f)(random)) * tile;
        const bool corners = kind == 0;
        const double room = double(radius) + 0.01 * double(tile);
        const auto start = standingPoint(random, world, TerrainTable::kWalk, room, corners, {});
        const auto goal = standingPoint(random, world, TerrainTable::kWalk, room, corners, {});
        if (!start || !goal) continue;
        checkQuery(planner, world, PathRequest{*start, *goal, TerrainTable::kWalk, radius}, false, counts);
      }
    }
  }
  INFO("maps " << counts.maps << ", planned " << counts.planned << ", searched " << counts.searched << ", NoPath "
               << counts.noPath << ", along edges " << counts.alongEdges);
  CHECK(counts.searched > 700);
  CHECK(counts.noPath > 20);
  CHECK(counts.alongEdges > 50);
}
