// SPDX-License-Identifier: MIT
#include "describe.hpp"

#include <algorithm>
#include <cstdio>

namespace rpgnav::tool {
namespace {

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

// "goal (3.5, 4.5) is in tile (3, 4), floor": the start of what is said about a point on the map.
std::string inTileText(std::string_view role, Vec2 point, Cell tile, const TileMap& map) {
  return std::string(role) + " " + pointText(point) + " is in tile (" + std::to_string(tile.x) + ", " +
         std::to_string(tile.y) + "), " + map.terrain().terrainName(map.terrainAt(tile));
}

// What keeps a point that lies on the map from being a plan's start or goal.
std::string explainBlocked(std::string_view role, Vec2 point, const PathResult& result, const PathRequest& request,
                           const TileMap& map) {
  if (std::string unusable = explainUnusablePoint(role, point, map, request.mobility); !unusable.empty()) {
    return unusable;
  }
  // The tile is open: the character's size is the trouble (a blocked tile or a closed door
  // nearer than its radius); the planner's reason says which.
  return inTileText(role, point, *map.tileAt(point), map) + ", which " + map.terrain().mobilityName(request.mobility) +
         " can enter, but a radius of " + number(request.radius) + " does not fit there (" + result.reason + ")";
}

}  // namespace

std::string noun(std::uint64_t count, std::string_view one, std::string_view many) {
  if (count == 1) return std::string(one);
  return many.empty() ? std::string(one) + "s" : std::string(many);
}

std::string countOf(std::uint64_t count, std::string_view one, std::string_view many) {
  return std::to_string(count) + " " + noun(count, one, many);
}

std::string pointText(Vec2 point) { return "(" + number(point.x()) + ", " + number(point.y()) + ")"; }

std::string extentText(const TileMap& map) {
  const TileMap::WorldBox box = map.worldBox();
  std::string text = "world x in [" + number(box.min.x()) + ", " + number(box.max.x()) + "), y in [" +
                     number(box.min.y()) + ", " + number(box.max.y()) + ")";
  if (map.layout().isHex()) text += " (the box round its hex tiles: near its rim some points lie outside every tile)";
  return text;
}

std::string explainUnusablePoint(std::string_view role, Vec2 point, const TileMap& map, MobilityId mobility) {
  const auto tile = map.tileAt(point);
  if (!tile) return std::string(role) + " " + pointText(point) + " is outside the map: " + extentText(map);
  if (map.passable(*tile, mobility)) return {};
  return inTileText(role, point, *tile, map) + ", which " + map.terrain().mobilityName(mobility) + " cannot enter";
}

std::string mobilityList(const TerrainTable& terrain) {
  std::string list;
  for (int m = 0; m < terrain.mobilityCount(); ++m) {
    list += (m == 0 ? "" : ", ") + terrain.mobilityName(MobilityId{std::uint8_t(m)});
  }
  return list;
}

std::string explainPlanFailure(const PathResult& result, const PathRequest& request, const TileMap& map) {
  switch (result.status) {
    case Status::OutOfBounds: {
      // The planner names only the first point off the map; both may be.
      const bool startOff = !map.tileAt(request.start), goalOff = !map.tileAt(request.goal);
      if (!startOff && !goalOff) return {};
      const std::string start = "start " + pointText(request.start), goal = "goal " + pointText(request.goal);
      const std::string which =
          startOff && goalOff ? start + " and " + goal + " are" : (startOff ? start : goal) + " is";
      return which + " outside the map: " + extentText(map);
    }
    case Status::StartBlocked: return explainBlocked("start", request.start, result, request, map);
    case Status::GoalBlocked: return explainBlocked("goal", request.goal, result, request, map);
    default: return {};
  }
}

}  // namespace rpgnav::tool
