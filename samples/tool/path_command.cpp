// SPDX-License-Identifier: MIT
// rpgnav path MAP --from X,Y --to X,Y | --queries FILE : runs the character pipeline.
#include "commands.hpp"
#include "describe.hpp"
#include "options.hpp"
#include "path_json.hpp"

#include "rpgnav/debug/svg.hpp"
#include "rpgnav/io/rpgmap.hpp"
#include "rpgnav/path/planner.hpp"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>

namespace rpgnav::tool {
namespace {

constexpr const char* kUsage =
    "usage: rpgnav path MAP (--from X,Y --to X,Y | --queries FILE|-) [--mobility NAME] [--radius R] [--json]\n"
    "                       [--comfort C] [--svg FILE] [--any-angle | --8-way] [--entities FILE]\n"
    "                       [--danger-factor F] [--nearest]\n"
    "  --any-angle: Theta* as the search; --8-way: the 8-way tile search instead of the exact\n"
    "  any-angle search (the default where it applies: 8-way square maps of one cost, no doors)\n"
    "  --comfort C: keep C world units more than the radius from walls where there is room (default:\n"
    "    the map's comfort setting, else a quarter tile; 0: pulled taut at the radius)\n"
    "  --danger-factor F: how much the map's danger layers weigh against distance, 0 (ignored) to 255\n"
    "    (the safest way); default: the map's danger-factor\n"
    "  --nearest: a goal the character cannot stand on or reach (water, a wall, an island, off the map)\n"
    "    leads to the centre of the reachable tile nearest to it (status PartialPath)\n"
    "  --entities FILE: one entity per line, 'x y radius [flat|static|moving ...]' (# starts a comment)\n";

void text(const PathResult& result, const PlanDiagnostics& diagnostics, const World& world, const EntityNames& names) {
  std::printf("status %s%s%s\n", std::string(toString(result.status)).c_str(), result.reason.empty() ? "" : ": ", result.reason.c_str());
  if (!isSuccess(result.status)) return;
  if (result.fallbackGoal) {
    std::printf("the goal cannot be reached: the path leads to the nearest reachable tile's centre %.4f,%.4f\n",
                double(result.fallbackGoal->x()), double(result.fallbackGoal->y()));
  }
  if (result.status == Status::StoppedAtDoor) {
    std::printf("stops at door '%s' at %.4f,%.4f\n", world.door(result.door)->name.c_str(), double(result.stopPoint.x()),
                double(result.stopPoint.y()));
  }
  auto nameOf = [&](EntityId id) { return id.value >= 1 && id.value <= names.size() ? names[id.value - 1] : std::string("?"); };
  if (result.status == Status::BlockedByEntity) {
    std::printf("blocked by entity %u '%s', stops at %.4f,%.4f\n", result.blocker.value, nameOf(result.blocker).c_str(),
                double(result.stopPoint.x()), double(result.stopPoint.y()));
  }
  for (const PathDetour& detour : result.detours) {
    std::printf("detour round entity %u '%s' (group of %d): %d points\n", detour.around.value, nameOf(detour.around).c_str(),
                detour.groupSize, detour.count);
  }
  std::printf("A* length %.4f, path length %.4f, cost %.4f, %zu tiles, %zu control points, smoothed length %.4f\n",
              result.searchLength, result.length, result.cost, result.tilePath.size(), result.controlPoints.size(),
              result.smoothed.length());
  for (const Vec2& p : result.controlPoints) std::printf("  %.4f,%.4f\n", double(p.x()), double(p.y()));
  for (int s = 0; s < kPathStageCount; ++s) {
    const StageStats& stats = diagnostics.stages[std::size_t(s)];
    if (!stats.ran) continue;
    std::printf("  %-20s %8.1f us  %4d -> %4d points  %4d probes\n", std::string(toString(PathStage(s))).c_str(),
                stats.micros, stats.pointsIn, stats.pointsOut, stats.probes);
  }
}

// Reads `x y radius [flags]` lines into the world's registry, ids after the map's entities.
bool readEntities(const std::string& path, World& world, EntityNames& names) {
  std::ifstream file(path);
  if (!file) return std::fprintf(stderr, "rpgnav path: cannot open %s\n", path.c_str()), false;
  std::string line;
  for (int number = 1; std::getline(file, line); ++number) {
    if (const std::size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream fields(line);
    float x = 0, y = 0, radius = 0;
    std::string first;
    if (!(fields >> first)) continue;  // blank or comment
    fields.seekg(0);
    if (!(fields >> x >> y >> radius)) {
      std::fprintf(stderr, "rpgnav path: %s:%d: expected 'x y radius [flat|static|moving ...]'\n", path.c_str(), number);
      return false;
    }
    std::uint8_t flags = 0;
    for (std::string flag; fields >> flag;) {
      if (flag == "flat") {
        flags |= kEntityFlat;
      } else if (flag == "static") {
        flags |= kEntityStatic;
      } else if (flag == "moving") {
        flags |= kEntityMoving;
      } else {
        std::fprintf(stderr, "rpgnav path: %s:%d: expected flat, static or moving, found '%s'\n", path.c_str(), number,
                     flag.c_str());
        return false;
      }
    }
    const EntityId id{std::uint32_t(names.size() + 1)};
    if (world.entities().add({id, Vec2(x, y), radius, flags == 0 ? std::uint8_t(kEntityStatic) : flags}) != Status::Ok ||
        !world.map().tileAt(Vec2(x, y))) {
      std::fprintf(stderr, "rpgnav path: %s:%d: expected a position on the map (%s) and a radius of 0 or more\n",
                   path.c_str(), number, extentText(world.map()).c_str());
      return false;
    }
    names.push_back(path + ":" + std::to_string(number));
  }
  return true;
}

}  // namespace

int pathCommand(Arguments args) {
  std::string mapPath, queries, mobilityName = "walk", svgPath, entitiesPath;
  Vec2 from(0.0f, 0.0f), to(0.0f, 0.0f);
  bool haveFrom = false, haveTo = false, asJson = false, anyAngle = false, eightWay = false, nearest = false;
  float radius = 0.0f;
  std::optional<float> comfort;  // unset: the planner's default
  std::optional<std::uint8_t> dangerFactor;  // unset: the map's
  CommandLine commandLine("rpgnav path", kUsage);
  commandLine.positional("MAP", mapPath);
  commandLine.option("--from", "X,Y in world units",
                     [&](std::string_view value) { return haveFrom = readPoint(value, from); });
  commandLine.option("--to", "X,Y in world units",
                     [&](std::string_view value) { return haveTo = readPoint(value, to); });
  commandLine.option("--queries", queries);
  commandLine.option("--mobility", mobilityName);
  commandLine.option("--radius", "a number of world units",
                     [&](std::string_view value) { return readNumber(value, radius); });
  commandLine.option("--comfort", "a number of world units",
                     [&](std::string_view value) { return readNumber(value, comfort.emplace()); });
  commandLine.option("--danger-factor", "a whole number from 0 to 255",
                     [&](std::string_view value) { return readDangerFactor(value, dangerFactor); });
  commandLine.option("--entities", entitiesPath);
  commandLine.option("--svg", svgPath);
  commandLine.flag("--json", asJson);
  commandLine.flag("--any-angle", anyAngle);
  commandLine.flag("--8-way", eightWay);
  commandLine.flag("--nearest", nearest);
  if (const auto exit = commandLine.parse(args)) return *exit;
  if (!queries.empty() && (haveFrom || haveTo)) {
    return commandLine.usageError("--queries takes its points from the file: leave out --from and --to");
  }
  if (queries.empty() && !haveFrom) return commandLine.usageError("missing --from X,Y (or --queries FILE)");
  if (queries.empty() && !haveTo) return commandLine.usageError("missing --to X,Y");
  auto document = readMapFile(mapPath);
  if (!document) {
    std::fprintf(stderr, "rpgnav path: %s\n", document.error().message.c_str());
    return 1;
  }
  const auto mobility = document->map.terrain().findMobility(mobilityName);
  if (!mobility) {
    std::fprintf(stderr, "rpgnav path: unknown mobility '%s' (the map has %s)\n", mobilityName.c_str(),
                 mobilityList(document->map.terrain()).c_str());
    return 1;
  }
  World world(document->map);
  if (world.addFeatures(document->doors, document->entities, document->dangerLayers, document->dangerFactor, document->settings) != Status::Ok) {
    return std::fprintf(stderr, "rpgnav path: the map's doors or entities are invalid\n"), 1;
  }
  if (dangerFactor) world.setDangerFactor(*dangerFactor);
  EntityNames names;
  for (const EntitySpec& entity : document->entities) names.push_back(entity.name);
  if (!entitiesPath.empty() && !readEntities(entitiesPath, world, names)) return 1;
  PlannerSettings settings;
  settings.recordStages = !svgPath.empty() || asJson || !queries.empty();
  settings.search = anyAngle ? SearchMode::AnyAngle : eightWay ? SearchMode::Tiles : SearchMode::ExactAnyAngle;
  Planner planner(world, settings);
  PathResult result;
  auto run = [&](PathRequest request) {
    request.goalFallback = nearest;
    planner.plan(request, result);
    if (asJson || !queries.empty()) {
      std::puts(pathJson(result, planner.diagnostics(), world, names).c_str());
    } else {
      text(result, planner.diagnostics(), world, names);
    }
    return isSuccess(result.status);
  };
  if (queries.empty()) {
    const PathRequest request{from, to, *mobility, radius, EntityId{0}, {}, comfort};
    const bool found = run(request);
    // One query's failure is the answer the user is waiting for: say where the trouble lies.
    // (A batch's JSON lines carry the status and reason; its stderr is left for bad lines.)
    if (const std::string why = explainPlanFailure(result, request, document->map); !why.empty()) {
      std::fflush(stdout);
      std::fprintf(stderr, "rpgnav path: %s\n", why.c_str());
    }
    if (!svgPath.empty()) {
      SvgPicture picture(document->map, *mobility);
      if (world.dangerFactor() > 0) picture.danger(world.danger(), world.dangerFactor());
      picture.world(world);
      picture.tiles(result.tilePath, "#00ffff", "A* tiles");
      picture.polyline(planner.diagnostics().stagePoints[std::size_t(PathStage::ControlPoints)], "#7f7f7f", 0.05f, true,
                       "control points (stage 3)");
      picture.polyline(planner.diagnostics().stagePoints[std::size_t(PathStage::StraightenForward)], "#17becf", 0.06f, true,
                       "straightened from the start (4)");
      picture.polyline(planner.diagnostics().stagePoints[std::size_t(PathStage::CornerRouting)], "#ff7f0e", 0.07f, true,
                       "corner routing (5)");
      picture.polyline(planner.diagnostics().stagePoints[std::size_t(PathStage::StraightenBackward)], "#2ca02c", 0.08f, true,
                       "straightened from the goal (6)");
      picture.polyline(result.controlPoints, "#d62728", 0.06f, true, "control points (7: detours)");
      picture.route(result.smoothed, radius, "#9400d3", "smoothed path (8)");
      if (result.status == Status::StoppedAtDoor) picture.marker(result.stopPoint, "#e0a010", "stops at a door");
      if (result.status == Status::BlockedByEntity) picture.marker(result.stopPoint, "#e377c2", "blocked by an entity");
      if (result.fallbackGoal) picture.marker(*result.fallbackGoal, "#1f77b4", "nearest reachable tile");
      picture.start(from, radius);
      picture.goal(to, radius);
      if (picture.save(svgPath) != Status::Ok) return std::fprintf(stderr, "rpgnav path: cannot write %s\n", svgPath.c_str()), 1;
    }
    return found ? 0 : 1;
  }

  std::ifstream file;
  std::istream* in = &std::cin;
  if (queries != "-") {
    file.open(queries);
    if (!file) return std::fprintf(stderr, "rpgnav path: cannot open %s\n", queries.c_str()), 1;
    in = &file;
  }
  std::string line;
  int lineNumber = 0, bad = 0;
  while (std::getline(*in, line)) {
    ++lineNumber;
    std::istringstream fields(line);
    float sx, sy, gx, gy;
    std::string extra;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (!(fields >> sx >> sy >> gx >> gy) || (fields >> extra)) {
      std::fprintf(stderr, "rpgnav path: %s:%d: expected 'sx sy gx gy'\n", queries.c_str(), lineNumber);
      ++bad;
      continue;
    }
    run(PathRequest{Vec2(sx, sy), Vec2(gx, gy), *mobility, radius, EntityId{0}, {}, comfort});
  }
  return bad == 0 ? 0 : 1;
}

}  // namespace rpgnav::tool
