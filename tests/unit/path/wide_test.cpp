// SPDX-License-Identifier: MIT
// Characters wider than a tile through the whole pipeline, judged independently
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
// With `doorways`, a wall across the map (a row) with three one-tile openings, whose tiles are
// added to `doorways`: the places for doors a body of half a tile passes.
TileMap blocksMap(std::mt19937& random, const Layout& layout, int w, int h, int blocks, bool varyTerrain,
                  std::vector<Cell>* doorways = nullptr) {
  TileMap map = test::randomMap(random, layout, w, h, 0.0, varyTerrain);
  const TerrainId wall = *map.terrain().findTerrainBySymbol('#');
  if (doorways != nullptr) {
    const int row = std::uniform_int_distribution<int>(h / 3, 2 * h / 3)(random);
    REQUIRE(map.setTerrain(Cell{0, row}, Cell{w - 1, row}, wall) == Status::Ok);
    for (int opening = 0; opening < 3; ++opening) {
      const Cell cell{std::uniform_int_distribution<int>(1, w - 2)(random), row};
      REQUIRE(map.setTerrain(cell, *map.terrain().findTerrainBySymbol('.')) == Status::Ok);
      doorways->push_back(cell);
    }
  }
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
  int planned = 0, searched = 0, straight = 0, noPath = 0, refused = 0, entered = 0, curves = 0, doorStops = 0,
      nearDoors = 0, skipped = 0, detoured = 0, blocked = 0;
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
      // Half a tile (the one width that passes a doorway: a door is one tile edge) on every
      // fourth map, the round widths on every fourth, random widths on the rest.
      const double radiusTiles = trial % 4 == 0   ? 0.5
                                 : trial % 4 == 2 ? fixedRadii[std::size_t(trial / 4) % std::size(fixedRadii)]
                                                  : std::uniform_real_distribution<double>(0.5, 3.0)(random);
      // Wider bodies get bigger maps with fewer blocks, so that many routes stay open to them.
      const int w = std::uniform_int_distribution<int>(16, 28)(random) + int(6 * radiusTiles);
      const int h = std::uniform_int_distribution<int>(14, 24)(random) + int(6 * radiusTiles);
      std::vector<Cell> doorways;
      const TileMap map = blocksMap(random, layout, w, h, int(w * h / (30 * (1.0 + radiusTiles))), trial % 3 == 1,
                                    trial % 3 != 0 ? &doorways : nullptr);
      const double radius = radiusTiles * tile;
      World world(map);
      // Doors on two maps in three.
      if (trial % 3 != 0) {
        test::addRandomDoors(random, world, 1);
        // Closed or locked doors in the wall's openings (on the edge to the row above).
        for (const Cell cell : doorways) {
          for (const NeighbourStep& step : layout.moves(cell)) {
            if (step.dy != -1 || !step.sharesEdge) continue;
            (void)world.addDoor({"gate" + std::to_string(cell.x), cell, Cell{cell.x + step.dx, cell.y - 1},
                                 std::uniform_int_distribution<int>(0, 1)(random) == 0 ? DoorState::Closed : DoorState::Locked});
            break;
          }
        }
      }
      const std::vector<const Door*> walls = test::wallDoors(world.doors());
      const test::BodyFitRule rule(map, TerrainTable::kWalk, radiusTiles, walls);
      // Entities (barrels, guards, a stall) on every fourth map: stage 7 leads the body round
      // them at their radius plus its own.
      const bool entities = trial % 4 == 1;
      if (entities) {
        for (std::uint32_t e = 1; e <= 8; ++e) {
          const Vec2 at = layout.tileCenter({std::uniform_int_distribution<int>(0, w - 1)(random),
                                             std::uniform_int_distribution<int>(0, h - 1)(random)});
          const float size = std::uniform_real_distribution<float>(0.2f, 0.8f)(random) * layout.tileSize();
          REQUIRE(world.entities().add({EntityId{e}, at, size, kEntityStatic}) == Status::Ok);
        }
      }
      PlannerSettings settings;
      settings.recordStages = true;
      Planner planner(world, settings);
      INFO(toString(layout.kind()) << " " << layout.connectivity() << "-way, tile " << tile << ", trial " << trial
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
            bool clearOfDoors = true;
            for (const Door* door : walls) {
              clearOfDoors = clearOfDoors && test::segmentsDistance(p, p, door->edge[0], door->edge[1]) >= radius + 0.01 * tile;
            }
            if (clearOfDoors && map.tileAt(p) && map.passable(*map.tileAt(p), TerrainTable::kWalk) &&
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
        // The leg from an end to its entry tile's centre comes within the radius of a closed door:
        // a goal there is refused; a start there is led out as from a door closed on it (the
        // step back exempt), which the checks below do not model.
        auto legMeetsDoor = [&](Vec2 point, const std::optional<Cell>& entry) {
          if (!entry) return false;
          for (const Door* door : walls) {
            if (test::segmentsDistance(point, layout.tileCenter(*entry), door->edge[0], door->edge[1]) < radius) return true;
          }
          return false;
        };
        if (status == Status::GoalBlocked && goalEntry && legMeetsDoor(*goal, goalEntry)) {
          CHECK(std::string(result.reason).find("door") != std::string::npos);
          ++counts.refused;
          continue;
        }
        if (legMeetsDoor(*start, startEntry)) {
          ++counts.skipped;
          continue;
        }
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
          case Status::StoppedAtDoor: {
            // In front of the door, at the radius and the approach gap from it (unless the start
            // stands closer already: then there).
            const Door& door = *world.door(result.door);
            const double distance = test::segmentsDistance(result.stopPoint, result.stopPoint, door.edge[0], door.edge[1]);
            const double wanted = radius + double(PlannerSettings{}.doorApproachGap) * tile;
            if (result.stopPoint != *start) CHECK(distance >= wanted - 1e-4 * tile);
            ++counts.doorStops;
            break;
          }
          case Status::BlockedByEntity: ++counts.blocked; break;
          case Status::Ok: break;
          default: FAIL("unexpected status");
        }
        ++counts.planned;
        counts.detoured += result.detours.empty() ? 0 : 1;
        bool nearDoor = false;
        for (const Door* door : walls) {
          for (std::size_t i = 1; i < result.controlPoints.size() && !nearDoor; ++i) {
            nearDoor = test::segmentsDistance(result.controlPoints[i - 1], result.controlPoints[i], door->edge[0], door->edge[1]) <
                       radius + tile;
          }
        }
        counts.nearDoors += nearDoor ? 1 : 0;
        const std::string violation = test::costInvariantViolation(map, request, result, planner.diagnostics(), walls, false, entities);
        INFO(violation);
        REQUIRE(violation.empty());
        if (result.tilePath.empty()) {
          ++counts.straight;
        } else {
          // On the entry tiles, by steps the body fits through.
          ++counts.searched;
          REQUIRE((startEntry && goalEntry));
          CHECK(result.tilePath.front() == *startEntry);
          if (status == Status::Ok) CHECK(result.tilePath.back() == *goalEntry);
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
                              std::to_string(counts.noPath) + ", refused " + std::to_string(counts.refused) +
                              ", door stops " + std::to_string(counts.doorStops) + ", detours " + std::to_string(counts.detoured) +
                              ", blocked by entities " + std::to_string(counts.blocked) + ", passing within a tile of a closed door " +
                              std::to_string(counts.nearDoors) + ", starts by a door skipped " + std::to_string(counts.skipped);
  WARN(summary);
  CHECK(counts.searched > 800);
  CHECK(counts.straight > 100);
  CHECK(counts.entered > 20);
  CHECK(counts.noPath > 30);
  CHECK(counts.refused > 5);
  CHECK(counts.doorStops > 30);
  CHECK(counts.detoured > 50);
  CHECK(counts.nearDoors > 200);
}

TEST_CASE("a wide body stops in front of a closed door it fits through and keeps its radius from one beside its way",
          "[path][wide]") {
  // A hall (rows 1-5) and a room below it (rows 7-9), joined by a doorway one tile wide at
  // column 6 of the wall on row 6, with a closed door on its upper edge; a second closed door
  // stands in the hall, between tiles (14,1) and (14,2), beside the way along row 3.
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "####################",
                                                               "#..................#",
                                                               "#..................#",
                                                               "#..................#",
                                                               "#..................#",
                                                               "#..................#",
                                                               "######.#############",
                                                               "#..................#",
                                                               "#..................#",
                                                               "#..................#",
                                                               "####################",
                                                           });
  World world(map);
  const DoorId doorway = world.addDoor({"doorway", {6, 6}, {6, 5}, DoorState::Closed}).value();
  const DoorId beside = world.addDoor({"beside", {14, 1}, {14, 2}, DoorState::Closed}).value();
  Planner planner(world);
  PathResult result;
  SECTION("radius half a tile: through the doorway's door, stopped in front of it") {
    const PathRequest request{Vec2(3.5f, 3.5f), Vec2(15.5f, 8.5f), TerrainTable::kWalk, 0.5f};
    REQUIRE(planner.plan(request, result) == Status::StoppedAtDoor);
    CHECK(result.door == doorway);
    // The door's edge is y = 6 from x = 6 to 7: the stop keeps the radius and the approach gap.
    const double gap = double(PlannerSettings{}.doorApproachGap);
    CHECK(test::segmentsDistance(result.stopPoint, result.stopPoint, Vec2(6.0f, 6.0f), Vec2(7.0f, 6.0f)) ==
          Approx(0.5 + gap).margin(1e-4));
    CHECK(result.controlPoints.back() == result.stopPoint);
  }
  SECTION("radius 1.5 along the hall past the door beside its way: at 1.5 from it, not NoPath") {
    // From the hall's west end to its east end: row 3 is the only row a body of 1.5 fits on.
    const PathRequest request{Vec2(2.5f, 3.5f), Vec2(17.5f, 3.5f), TerrainTable::kWalk, 1.5f};
    REQUIRE(planner.plan(request, result) == Status::Ok);
    double nearest = 1e9;
    for (std::size_t i = 1; i < result.controlPoints.size(); ++i) {
      nearest = std::min(nearest, test::segmentsDistance(result.controlPoints[i - 1], result.controlPoints[i], Vec2(14.0f, 2.0f),
                                                         Vec2(15.0f, 2.0f)));
    }
    CHECK(nearest >= 1.5 - 1e-5);
    (void)beside;
  }
  SECTION("radius 1: the doorway is a wall for it") {
    const PathRequest request{Vec2(3.5f, 3.5f), Vec2(15.5f, 8.5f), TerrainTable::kWalk, 1.0f};
    // The room below is only 3 rows high: radius 1 fits on row 8.
    REQUIRE(planner.plan(request, result) == Status::NoPath);
    CHECK(std::string(result.reason) == "no route is wide enough for the character");
  }
}

TEST_CASE("a wide body's path begins on a touching tile where its own does not fit, steps out when pressed against a wall; the lattice limit is StartBlocked",
          "[path][wide]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "############",
                                                               "#..........#",
                                                               "#..........#",
                                                               "#..........#",
                                                               "############",
                                                               "#..........#",
                                                               "#..........#",
                                                               "############",
                                                           });
  Planner planner(map);
  PathResult result;
  // Three rows (1-3): radius 1 fits on row 2 only. A start on the line between rows 2 and 3 keeps
  // 1 from the wall but lies in row 3: the path begins on the tile above.
  const PathRequest request{Vec2(2.5f, 3.0f), Vec2(9.5f, 2.5f), TerrainTable::kWalk, 1.0f};
  REQUIRE(planner.plan(request, result) == Status::Ok);
  CHECK(result.controlPoints.front() == request.start);
  CHECK(result.controlPoints.back() == request.goal);
  // (The straight line keeps 1 from the walls: no search; from further, a search's first tile.)
  const PathRequest around{Vec2(2.5f, 3.0f), Vec2(9.5f, 2.0f), TerrainTable::kWalk, 1.0f};
  REQUIRE(planner.plan(around, result) == Status::Ok);
  // Two rows (5-6): a body of radius 1 would fit on the line between them, but no tile centre
  // there keeps it: StartBlocked, saying why.
  REQUIRE(planner.plan({Vec2(5.5f, 6.0f), Vec2(9.5f, 6.0f), TerrainTable::kWalk, 1.0f}, result) == Status::StartBlocked);
  CHECK(std::string(result.reason).find("too wide") != std::string::npos);
  // Closer than the radius to a wall (pressed against it): the path steps out to the nearest
  // centre beside it that fits the body, on row 2, then goes on.
  REQUIRE(planner.plan({Vec2(2.5f, 1.5f), Vec2(9.5f, 2.5f), TerrainTable::kWalk, 1.0f}, result) == Status::Ok);
  REQUIRE(result.controlPoints.size() >= 3);
  CHECK(result.controlPoints[1] == Vec2(2.5f, 2.5f));
  CHECK(result.cost == Approx(1.0 + 7.0));
  // Two rows (5-6) pressed against a wall: no centre beside it fits the body either.
  REQUIRE(planner.plan({Vec2(5.5f, 5.5f), Vec2(9.5f, 6.0f), TerrainTable::kWalk, 1.0f}, result) == Status::StartBlocked);
  REQUIRE(planner.plan({Vec2(2.5f, 2.5f), Vec2(9.5f, 3.5f), TerrainTable::kWalk, 1.0f}, result) == Status::GoalBlocked);
}

TEST_CASE("shared navigation data must be prepared for a wide body before a planner plans for it", "[path][wide]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {"........", "........", "........", "........"});
  const World world(map);
  NavData data(world);
  REQUIRE(data.prepare(TerrainTable::kWalk, 0.0f) == Status::Ok);
  Planner planner(data);
  PathResult result;
  const PathRequest request{Vec2(1.5f, 1.5f), Vec2(6.5f, 2.5f), TerrainTable::kWalk, 1.0f};
  CHECK(planner.plan(request, result) == Status::InvalidArgument);
  CHECK(std::string(result.reason).find("prepare") != std::string::npos);
  REQUIRE(data.prepare(TerrainTable::kWalk, 1.0f) == Status::Ok);
  CHECK(planner.plan(request, result) == Status::Ok);
}

TEST_CASE("a wide body a door was closed on steps back to the nearest centre that keeps its radius from it", "[path][wide]") {
  // A hall eight rows high with a closed door on an edge of its floor (between (10,3) and
  // (10,4): the line y = 4 from x = 10 to 11). A body of radius 1 standing on (10.5, 4.5) is
  // half a tile from it; so is its tile's centre. The nearest centre that keeps 1 from the door
  // on this side is (10.5, 5.5).
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "####################",
                                                               "#..................#",
                                                               "#..................#",
                                                               "#..................#",
                                                               "#..................#",
                                                               "#..................#",
                                                               "#..................#",
                                                               "#..................#",
                                                               "#..................#",
                                                               "####################",
                                                           });
  World world(map);
  REQUIRE(world.addDoor({"trapdoor", {10, 3}, {10, 4}, DoorState::Closed}).ok());
  Planner planner(world);
  PathResult result;
  const PathRequest request{Vec2(10.5f, 4.5f), Vec2(3.5f, 6.5f), TerrainTable::kWalk, 1.0f};
  REQUIRE(planner.plan(request, result) == Status::Ok);
  REQUIRE(result.controlPoints.size() >= 2);
  CHECK(result.controlPoints.front() == request.start);
  CHECK(result.controlPoints[1] == Vec2(10.5f, 5.5f));
  // After the step back, every segment keeps the radius from the door.
  for (std::size_t i = 2; i < result.controlPoints.size(); ++i) {
    CHECK(test::segmentsDistance(result.controlPoints[i - 1], result.controlPoints[i], Vec2(10.0f, 4.0f), Vec2(11.0f, 4.0f)) >=
          1.0 - 1e-5);
  }
  // In a corridor three rows high (rows 1-3) the door across it (between (4,2) and (5,2): x = 5):
  // the body steps back to (3.5, 2.5), 1.5 from the door.
  const TileMap corridorMap = test::mapFromAscii(Layout::square(), {
                                                                       "##########",
                                                                       "#........#",
                                                                       "#........#",
                                                                       "#........#",
                                                                       "##########",
                                                                   });
  World corridor(corridorMap);
  REQUIRE(corridor.addDoor({"gate", {4, 2}, {5, 2}, DoorState::Closed}).ok());
  Planner back(corridor);
  const Status status = back.plan({Vec2(4.5f, 2.5f), Vec2(2.5f, 2.5f), TerrainTable::kWalk, 1.0f}, result);
  INFO(toString(status) << ": " << result.reason);
  REQUIRE(status == Status::Ok);
  REQUIRE(result.controlPoints.size() == 3);  // the step back is kept as it is
  CHECK(result.controlPoints[1] == Vec2(3.5f, 2.5f));
  // Hemmed in: the door across the corridor at x = 3, two tiles from its west end: on the
  // body's side no centre both fits it and keeps 1 from the door, and the rest is beyond it.
  const TileMap shortMap = test::mapFromAscii(Layout::square(), {"##########", "#........#", "#........#", "#........#", "##########"});
  World shortCorridor(shortMap);
  REQUIRE(shortCorridor.addDoor({"gate", {2, 2}, {3, 2}, DoorState::Closed}).ok());
  Planner held(shortCorridor);
  REQUIRE(held.plan({Vec2(2.5f, 2.5f), Vec2(6.5f, 2.5f), TerrainTable::kWalk, 1.0f}, result) == Status::NoPath);
  CHECK(std::string(result.reason) == "a closed door holds the character: no tile beside it keeps the radius from it");
  CHECK(result.controlPoints.front() == Vec2(4.5f, 2.5f));
}

TEST_CASE("a wide body's plan does not depend on where the map sits in the world", "[path][wide]") {
  // Two rooms joined by a corridor exactly 3 tiles wide (rows 4-6), tiles of 0.7: a body of 1.5
  // tiles fits the corridor touching both walls. Far from the world's origin the float tile
  // centres come out closer to the walls than near it; the probes allow for that as the search's
  // exact fit needs.
  const std::initializer_list<std::string_view> rows = {
      "##############################", "#.........####...............#", "#.........####...............#",
      "#.........####...............#", "#............................#", "#............................#",
      "#............................#", "#.........####...............#", "#.........####...............#",
      "#.........####...............#", "##############################"};
  for (const Vec2& origin : {Vec2(0.0f, 0.0f), Vec2(0.0f, 1000.3f), Vec2(-733.1f, 2049.9f)}) {
    const TileMap map = test::mapFromAscii(Layout::square(0.7f, 8, origin), rows);
    Planner planner(map);
    PathResult result;
    const Vec2 start = map.layout().tileCenter({5, 5}), goal = map.layout().tileCenter({22, 5});
    INFO("origin " << origin.transpose());
    CHECK(planner.plan({start, map.layout().tileCenter({22, 2}), TerrainTable::kWalk, 1.05f}, result) == Status::Ok);
    CHECK(planner.plan({start, goal, TerrainTable::kWalk, 1.05f}, result) == Status::Ok);
  }
  // A map round the world's origin with a closed door 2.5 tiles from the row the search takes
  // for a body of 2.5 tiles (a hair more): the doors' allowance covers the body's own.
  for (const Vec2& origin : {Vec2(0.0f, 0.0f), Vec2(-10.0f, -10.0f)}) {
    const TileMap map = test::randomMap(*std::make_unique<std::mt19937>(1), Layout::square(1.0f, 8, origin), 20, 20, 0.0, false);
    World world(map);
    REQUIRE(world.addDoor({"door", {10, 13}, {10, 14}, DoorState::Closed}).ok());
    Planner planner(world);
    PathResult result;
    const Vec2 start = origin + Vec2(8.5f, 11.5f), goal = origin + Vec2(11.5f, 11.5f);
    INFO("origin " << origin.transpose());
    CHECK(planner.plan({start, goal, TerrainTable::kWalk, 2.50000095f}, result) == Status::Ok);
  }
}
