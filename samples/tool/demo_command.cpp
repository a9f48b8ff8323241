// SPDX-License-Identifier: MIT
// rpgnav demo: a tour of the bundled sample dungeon: the map, its doors and entities, walk
// regions, line of sight from the entrance, the A* tile path to the stairs down, and a character
// crossing the dungeon with the whole pipeline: opening closed doors on its way, going round a
// guard who stands in its way, stopping at a locked door until the game picks the lock, and
// walking over rugs.
#include "commands.hpp"
#include "options.hpp"

#include "rpgnav/debug/svg.hpp"
#include "rpgnav/grid/line_of_sight.hpp"
#include "rpgnav/grid/regions.hpp"
#include "rpgnav/io/rpgmap.hpp"
#include "rpgnav/path/planner.hpp"
#include "simulation.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace rpgnav::tool {
namespace {

// First tile with the given terrain symbol, scanning rows.
std::optional<Cell> findSymbol(const TileMap& map, char symbol) {
  const auto terrain = map.terrain().findTerrainBySymbol(symbol);
  if (!terrain) return std::nullopt;
  for (std::int32_t i = 0; i < map.tileCount(); ++i) {
    if (map.tiles()[std::size_t(i)] == *terrain) return map.cellAt(i);
  }
  return std::nullopt;
}

// The demo character's view of doors: it opens closed doors itself (a second or two: worth two
// tiles of walking), but a locked door stops it and the game decides.
class OpensClosedDoors final : public DoorPolicy {
 public:
  DoorDecision decide(const Door& door, const Traveller&) const override {
    switch (door.state) {
      case DoorState::Open: return {DoorAction::Pass, 0.0f};
      case DoorState::Closed: return {DoorAction::Pass, 2.0f};
      case DoorState::Locked: return {DoorAction::Stop, 4.0f};
    }
    return {DoorAction::Avoid, 0.0f};
  }
};

// What the game would do when a character stops at a door: here, offer the options.
class OfferOptions final : public DoorListener {
 public:
  explicit OfferOptions(const World& world) : m_world(world) {}
  void stoppedAtDoor(const DoorStop& stop) override {
    const Door& door = *m_world.door(stop.door);
    std::printf("    door listener: character %u stands at the %s door '%s' (key: %s) at (%.2f, %.2f):\n"
                "      the game offers: use the key, pick the lock, kick it in, cast knock, set it on fire\n",
                stop.character.value, std::string(toString(door.state)).c_str(), door.name.c_str(),
                door.key.empty() ? "none" : door.key.c_str(), double(stop.point.x()), double(stop.point.y()));
  }

 private:
  const World& m_world;
};

void printLeg(const char* title, const PathResult& leg, const World& world, const std::vector<EntitySpec>& specs) {
  std::printf("  %s: %s, %zu control points, length %.2f, cost %.2f\n", title, std::string(toString(leg.status)).c_str(),
              leg.controlPoints.size(), leg.length, leg.cost);
  for (const Vec2& point : leg.controlPoints) std::printf("    (%.2f, %.2f)\n", double(point.x()), double(point.y()));
  for (const PathDetour& detour : leg.detours) {
    const Entity* entity = world.entities().find(detour.around);
    std::printf("    detour round entity %u (%s) at (%.2f, %.2f): %d control points added\n", detour.around.value,
                detour.around.value <= specs.size() ? specs[detour.around.value - 1].name.c_str() : "the guard",
                double(entity->position.x()), double(entity->position.y()), detour.count);
  }
  // Flat entities the path walks over (they never cause a detour).
  for (const Entity& entity : world.entities().all()) {
    if (!entity.flat()) continue;
    for (std::size_t i = 1; i < leg.controlPoints.size(); ++i) {
      if (entityTouchesSegment(entity, leg.controlPoints[i - 1], leg.controlPoints[i], 0.0f)) {
        std::printf("    walks over %s (flat)\n", specs[entity.id.value - 1].name.c_str());
        break;
      }
    }
  }
}

}  // namespace

int demoCommand(Arguments args) {
  std::string mapsDir = sampleMapsDir(), svgPath;
  CommandLine commandLine("rpgnav demo", "usage: rpgnav demo [--maps DIR] [--svg FILE]\n");
  commandLine.option("--maps", mapsDir);
  commandLine.option("--svg", svgPath);
  if (const auto exit = commandLine.parse(args)) return *exit;
  const std::string path = mapsDir + "/dungeon.rpgmap";
  auto document = readMapFile(path);
  if (!document) {
    std::fprintf(stderr, "rpgnav demo: %s\n", document.error().message.c_str());
    return 1;
  }
  const TileMap& map = document->map;
  const MobilityId walk = TerrainTable::kWalk;
  const RegionMap regions = RegionMap::compute(map, walk);
  std::printf("rpgnav demo: %s, %d x %d %s tiles, %zu doors, %zu entities, %u walk regions\n\n", path.c_str(),
              map.width(), map.height(), std::string(toString(map.layout().kind())).c_str(), document->doors.size(),
              document->entities.size(), regions.regionCount());

  // Line of sight from the entrance: how many tile centres a walker standing there can see.
  const Cell eye = findSymbol(map, '<').value_or(Cell{1, 1});
  const Vec2 eyePosition = map.layout().tileCenter(eye);
  std::vector<std::string> rows(std::size_t(map.height()));
  int visible = 0;
  for (std::int32_t y = 0; y < map.height(); ++y) {
    for (std::int32_t x = 0; x < map.width(); ++x) {
      const Cell cell{x, y};
      if (map.passable(cell, walk) && hasLineOfSight(map, walk, eyePosition, map.layout().tileCenter(cell))) ++visible;
      rows[std::size_t(y)] += map.terrain().terrainSymbol(map.terrainAt(cell));
    }
  }

  // A* from the entrance to the stairs down: the planner's search on its own (the straight-line
  // stage off, so that it always searches; doors and entities are the rest of the pipeline's).
  const Cell stairs = findSymbol(map, '>').value_or(Cell{map.width() - 2, map.height() - 2});
  PlannerSettings searchOnly;
  searchOnly.enabled[std::size_t(PathStage::StraightLine)] = false;
  Planner tilePlanner(map, searchOnly);
  PathResult route;
  tilePlanner.plan({map.layout().tileCenter(eye), map.layout().tileCenter(stairs), walk}, route);
  for (const Cell& cell : route.tilePath) rows[std::size_t(cell.y)][std::size_t(cell.x)] = '*';
  for (const DoorSpec& door : document->doors) {
    rows[std::size_t(door.a.y)][std::size_t(door.a.x)] = door.state == DoorState::Open ? '\'' : '+';
  }
  for (const EntitySpec& entity : document->entities) {
    if (const auto cell = map.tileAt(entity.position)) {
      rows[std::size_t(cell->y)][std::size_t(cell->x)] = entity.flat ? '_' : 'e';
    }
  }
  rows[std::size_t(eye.y)][std::size_t(eye.x)] = '@';
  rows[std::size_t(stairs.y)][std::size_t(stairs.x)] = '>';
  for (const std::string& row : rows) std::printf("  %s\n", row.c_str());
  std::printf("\n@ entrance (%d,%d) sees %d walkable tile centres. Doors: + shut, ' open. "
              "Entities: e blocking, _ flat.\n",
              eye.x, eye.y, visible);
  std::printf("* A* to the stairs down > (%d,%d): %s, %zu tiles, length %.2f, %lld nodes expanded\n", stairs.x,
              stairs.y, std::string(toString(route.status)).c_str(), route.tilePath.size(), route.searchLength,
              static_cast<long long>(tilePlanner.diagnostics().stats(PathStage::Search).expansions));
  // A character crosses the dungeon with the whole pipeline, from the entrance to the library's
  // chest; a guard stands in the corridor.
  World world(map);
  if (world.addFeatures(document->doors, document->entities, document->dangerLayers, document->dangerFactor, document->settings) != Status::Ok) {
    return std::fprintf(stderr, "rpgnav demo: the map's doors or entities are invalid\n"), 1;
  }
  const EntityId guard{std::uint32_t(document->entities.size() + 1)};
  (void)world.entities().add({guard, Vec2(20.5f, 9.6f), 0.45f, kEntityMoving});
  OpensClosedDoors policy;
  OfferOptions listener(world);
  world.setDoorPolicy(&policy);
  world.setDoorListener(&listener);
  PlannerSettings settings;
  settings.recordStages = !svgPath.empty();
  Planner planner(world, settings);
  const EntityId hero{1000};
  const Vec2 chest(51.5f, 3.5f);
  std::printf("\nThe hero (radius 0.3) walks from the entrance to the library's chest (%.1f, %.1f); it opens closed "
              "doors,\na guard (entity %u) stands in the corridor, the library door is locked:\n",
              double(chest.x()), double(chest.y()), guard.value);
  PathResult first, second;
  PathRequest walkRequest{map.layout().tileCenter(eye), chest, walk, 0.3f};
  walkRequest.character = hero;
  planner.plan(walkRequest, first);
  printLeg("leg 1", first, world, document->entities);
  bool ok = first.status == Status::StoppedAtDoor && !first.detours.empty();
  if (first.status == Status::StoppedAtDoor) {
    // The game picks the lock; the next plan, from where the hero stands, goes through.
    std::printf("  the game picks the lock of '%s' and plans again from the door:\n", world.door(first.door)->name.c_str());
    (void)world.setDoorState(first.door, DoorState::Open);
    walkRequest.start = first.stopPoint;
    planner.plan(walkRequest, second);
    printLeg("leg 2", second, world, document->entities);
    ok = ok && second.status == Status::Ok;
  }
  if (!svgPath.empty()) {
    // The curves the hero walks (not their control points) with its body's width, and its body
    // where it sets out, where the lock stops it and at the chest.
    SvgPicture picture(map, walk);
    picture.world(world);
    picture.route(first.smoothed, walkRequest.radius, "#0050ff", "leg 1: to the locked door", first.controlPoints);
    picture.route(second.smoothed, walkRequest.radius, "#00a0a0", "leg 2: after picking the lock", second.controlPoints);
    picture.marker(first.stopPoint, "#8b4513", "stops at the locked door");
    picture.start(map.layout().tileCenter(eye), walkRequest.radius);
    picture.goal(chest, walkRequest.radius);
    if (picture.save(svgPath) != Status::Ok) return std::fprintf(stderr, "rpgnav demo: cannot write %s\n", svgPath.c_str()), 1;
  }

  // The replan scheduler: a crowd in the town, as `rpgnav sim` runs it.
  auto town = readMapFile(mapsDir + "/town.rpgmap");
  bool crowd = false;
  if (town) {
    World townWorld(town->map);
    if (townWorld.addFeatures(town->doors, town->entities, town->dangerLayers, town->dangerFactor, town->settings) == Status::Ok) {
      sample::SimulationOptions options;
      options.characters = 60;
      options.seconds = 10.0;
      auto report = sample::runSimulation(townWorld, options);
      if (report) {
        const sample::Spread cost = sample::spreadOf(report->frameMicros);
        // The cadence depends on the machine (the budget is time): a sanitizer build, several
        // times slower, may not plan every character twice in ten seconds. The tool.demo test
        // judges it on release builds; the demo itself only needs the crowd to have planned.
        char cadence[64] = "no character planned twice";
        if (report->meanInterval > 0.0) std::snprintf(cadence, sizeof cadence, "a plan every %.2f s", report->meanInterval);
        std::printf("\nthe town at market time (rpgnav sim %s/town.rpgmap --characters 60 --seconds 10):\n"
                    "  %d characters wander between random goals, replanned about once a second by the scheduler\n"
                    "  within 400 us per frame: %lld replans (%lld full, %lld along the route), %s per\n"
                    "  character; %lld door stops, %lld times blocked by others; scheduler per frame: median %.1f us,\n"
                    "  p99 %.1f us\n",
                    mapsDir.c_str(), options.characters, (long long)report->plans, (long long)report->fullPlans,
                    (long long)(report->plans - report->fullPlans), cadence, (long long)report->doorStops,
                    (long long)report->blocked, cost.median, cost.p99);
        crowd = report->plans > 0;
      }
    }
  }
  return route.status == Status::Ok && ok && crowd ? 0 : 1;
}

}  // namespace rpgnav::tool
