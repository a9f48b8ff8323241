// SPDX-License-Identifier: MIT
// rpgnav demo: a tour of the bundled sample dungeon. It grows as the pipeline lands; today it
// shows the map, its doors and entities, walk regions, line of sight from the entrance, the A*
// tile path from the entrance to the stairs down and the pipeline's control points for it.
#include "commands.hpp"

#include "rpgnav/grid/line_of_sight.hpp"
#include "rpgnav/grid/regions.hpp"
#include "rpgnav/io/rpgmap.hpp"
#include "rpgnav/path/planner.hpp"
#include "rpgnav/search/search_context.hpp"

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

}  // namespace

int demoCommand(Arguments args) {
  std::string mapsDir = RPGNAV_SAMPLE_MAPS_DIR;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--maps" && i + 1 < args.size()) {
      mapsDir = std::string(args[++i]);
    } else {
      std::fputs("usage: rpgnav demo [--maps DIR]\n", stderr);
      return 2;
    }
  }
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
              map.width(), map.height(), layoutName(map.layout().kind()), document->doors.size(),
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

  // A* from the entrance to the stairs down (doors do not stop anyone yet).
  const Cell stairs = findSymbol(map, '>').value_or(Cell{map.width() - 2, map.height() - 2});
  auto grid = SearchGrid::build(map, walk);
  if (!grid) {
    std::fprintf(stderr, "rpgnav demo: %s\n", grid.error().message.c_str());
    return 1;
  }
  SearchContext search;
  SearchResult route;
  SearchRequest request;
  request.start = eye;
  request.goal = stairs;
  search.findPath(*grid, request, route);
  for (const Cell& cell : route.path) rows[std::size_t(cell.y)][std::size_t(cell.x)] = '*';
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
  std::printf("* A* to the stairs down > (%d,%d): %s, %zu tiles, length %.2f, cost %.2f, %lld nodes expanded\n",
              stairs.x, stairs.y, std::string(toString(route.status)).c_str(), route.path.size(), route.length,
              route.cost, static_cast<long long>(route.expanded));
  // The character pipeline for the same trip, for a character of radius 0.3 tiles.
  Planner planner(map);
  PathResult trip;
  planner.plan(PathRequest{map.layout().tileCenter(eye), map.layout().tileCenter(stairs), walk, 0.3f}, trip);
  std::printf("  pipeline (radius 0.3): %s, %zu control points, length %.2f (A* %.2f), cost %.2f\n",
              std::string(toString(trip.status)).c_str(), trip.controlPoints.size(), trip.length, trip.searchLength,
              trip.cost);
  for (const Vec2& point : trip.controlPoints) std::printf("    (%.2f, %.2f)\n", double(point.x()), double(point.y()));
  return route.status == Status::Ok && trip.status == Status::Ok ? 0 : 1;
}

}  // namespace rpgnav::tool
