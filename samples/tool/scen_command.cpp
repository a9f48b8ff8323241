// SPDX-License-Identifier: MIT
// rpgnav scen MAP SCEN: runs Moving AI scenario lines through A* and compares with the optimum;
// with --radius R, for a body R world units in radius (up to 3 tiles), against A* without jump
// points for that body instead (the scenario's optimum is a point's).
#include "commands.hpp"
#include "describe.hpp"
#include "options.hpp"

#include "grid/clearance.hpp"
#include "rpgnav/io/moving_ai.hpp"
#include "rpgnav/io/rpgmap.hpp"
#include "rpgnav/path/planner.hpp"
#include "search/search_context.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace rpgnav::tool {

int scenCommand(Arguments args) {
  constexpr const char* kUsage =
      "usage: rpgnav scen MAP SCEN [--limit N] [--csv] [--mobility NAME] [--no-jump-points] [--pipeline]\n"
      "                            [--any-angle | --8-way] [--radius R] [--jump-points-only]\n";
  std::string mapPath, scenPath;
  long long limit = -1;
  bool csv = false, noJumpPoints = false, pipeline = false, anyAngle = false, eightWay = false, jumpPointsOnly = false;
  double radius = 0.0;
  std::string mobilityName = "walk";
  CommandLine commandLine("rpgnav scen", kUsage);
  commandLine.positional("MAP", mapPath);
  commandLine.positional("SCEN", scenPath);
  commandLine.option("--limit", "a whole number, 0 or more",
                     [&](std::string_view value) { return readNumber(value, limit) && limit >= 0; });
  commandLine.option("--mobility", mobilityName);
  commandLine.flag("--csv", csv);
  commandLine.flag("--no-jump-points", noJumpPoints);
  commandLine.flag("--pipeline", pipeline);
  commandLine.flag("--any-angle", anyAngle);  // the pipeline's search (the scenario's own A* check stays 8-way)
  commandLine.flag("--8-way", eightWay);
  // The timed search returns the route's jump points, not the tiles between (SearchRequest::
  // tilePath): the work a jump point search library's timer covers.
  commandLine.flag("--jump-points-only", jumpPointsOnly);
  commandLine.option("--radius", "a number of world units, 0 to 3 tiles", [&](std::string_view value) {
    return readNumber(value, radius) && std::isfinite(radius) && radius >= 0.0;
  });
  if (const auto exit = commandLine.parse(args)) return *exit;
  if (radius > 0.0 && anyAngle) {
    // (The planner's stages after the search take characters under half a tile for now.)
    std::fprintf(stderr, "rpgnav scen: --radius takes the tile search: not with --any-angle\n");
    return 2;
  }
  auto document = readMapFile(mapPath);
  if (!document) {
    std::fprintf(stderr, "rpgnav scen: %s\n", document.error().message.c_str());
    return 1;
  }
  auto scenario = readScenario(scenPath);
  if (!scenario) {
    std::fprintf(stderr, "rpgnav scen: %s\n", scenario.error().message.c_str());
    return 1;
  }
  const TileMap& map = document->map;
  const auto mobility = map.terrain().findMobility(mobilityName);
  if (!mobility) {
    std::fprintf(stderr, "rpgnav scen: unknown mobility '%s' (the map has %s)\n", mobilityName.c_str(),
                 mobilityList(map.terrain()).c_str());
    return 1;
  }
  auto grid = SearchGrid::build(map, *mobility);
  if (!grid) {
    std::fprintf(stderr, "rpgnav scen: %s\n", grid.error().message.c_str());
    return 1;
  }
  const double bodyTiles = radius / double(map.layout().tileSize());
  if (bodyTiles > 3.0) {
    std::fprintf(stderr, "rpgnav scen: --radius %g is over 3 tiles (%g world units on this map)\n", radius,
                 3.0 * double(map.layout().tileSize()));
    return 2;
  }
  // A wide body: its clearance, and the plain search it is checked against.
  const std::optional<Clearance> clearance =
      bodyTiles > 0.0 ? std::optional<Clearance>(Clearance::build(map, *mobility)) : std::nullopt;
  SearchContext plainContext;
  SearchResult plain;
  long long tooWide = 0;

  SearchContext context;
  SearchResult result;
  std::vector<double> micros;
  long long mismatches = 0, failures = 0;
  double pathCells = 0.0;  // over the queries with a path (every tile, or the jump points)
  PlannerSettings settings;
  settings.search = anyAngle ? SearchMode::AnyAngle : eightWay ? SearchMode::Tiles : SearchMode::ExactAnyAngle;
  Planner planner(map, settings);
  PathResult path;
  std::vector<double> totalMicros, afterSearchMicros;
  if (csv) {
    std::printf("index,start_x,start_y,goal_x,goal_y,optimal,length,expanded,micros%s\n",
                pipeline ? ",final_length,total_micros" : "");
  }
  const std::size_t count = limit < 0 ? scenario->size() : std::min(scenario->size(), std::size_t(limit));
  for (std::size_t i = 0; i < count; ++i) {
    const ScenarioEntry& entry = (*scenario)[i];
    if (entry.mapWidth != map.width() || entry.mapHeight != map.height()) {
      std::fprintf(stderr, "rpgnav scen: %s line %d is for a %dx%d map, this map is %dx%d\n",
                   scenPath.c_str(), entry.lineNumber, entry.mapWidth, entry.mapHeight, map.width(),
                   map.height());
      return 1;
    }
    SearchRequest request;
    request.start = entry.start;
    request.goal = entry.goal;
    request.jumpPoints = !noJumpPoints;
    request.tilePath = !jumpPointsOnly;
    if (clearance) {
      request.clearance = &*clearance;
      request.bodyTiles = bodyTiles;
    }
    const auto begin = std::chrono::steady_clock::now();
    context.findPath(*grid, request, result);
    const auto end = std::chrono::steady_clock::now();
    const double us = std::chrono::duration<double, std::micro>(end - begin).count();
    micros.push_back(us);
    const bool found = result.status == Status::Ok;
    if (clearance) {
      // Too wide to start, to end or to get through: the plain search must say the same; else
      // the same cost.
      request.jumpPoints = false;
      plainContext.findPath(*grid, request, plain);
      const bool mismatch = plain.status != result.status || (found && plain.costUnits != result.costUnits);
      if (mismatch) {
        std::fprintf(stderr, "line %d: (%d,%d)->(%d,%d) %s length %.8f; without jump points %s length %.8f\n", entry.lineNumber,
                     entry.start.x, entry.start.y, entry.goal.x, entry.goal.y, std::string(toString(result.status)).c_str(),
                     result.length, std::string(toString(plain.status)).c_str(), plain.length);
      }
      mismatches += mismatch ? 1 : 0;
      tooWide += found ? 0 : 1;
      double finalLength = -1.0, total = 0.0;
      if (pipeline) {
        // The whole pipeline for the body, tile centre to tile centre: a path exactly where the
        // search found a route, never longer than the search's.
        const Vec2 from = map.layout().tileCenter(entry.start), to = map.layout().tileCenter(entry.goal);
        const auto pipelineBegin = std::chrono::steady_clock::now();
        planner.plan(PathRequest{from, to, *mobility, float(radius)}, path);
        total = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - pipelineBegin).count();
        totalMicros.push_back(total);
        finalLength = isSuccess(path.status) ? path.length / double(map.layout().tileSize()) : -1.0;
        const bool differs = isSuccess(path.status) != found || (found && finalLength > result.length * (1.0 + 1e-6));
        if (differs) {
          std::fprintf(stderr, "line %d: (%d,%d)->(%d,%d) search %s length %.8f; pipeline %s (%s) length %.8f\n",
                       entry.lineNumber, entry.start.x, entry.start.y, entry.goal.x, entry.goal.y,
                       std::string(toString(result.status)).c_str(), result.length, std::string(toString(path.status)).c_str(),
                       path.reason.c_str(), finalLength);
        }
        mismatches += differs ? 1 : 0;
      }
      if (csv) {
        std::printf("%zu,%d,%d,%d,%d,%.8f,%.8f,%lld,%.3f", i, entry.start.x, entry.start.y, entry.goal.x, entry.goal.y,
                    entry.optimalLength, found ? result.length : -1.0, static_cast<long long>(result.expanded), us);
        if (pipeline) std::printf(",%.8f,%.3f", finalLength, total);
        std::puts("");
      }
      continue;
    }
    const bool mismatch = !found || std::abs(result.length - entry.optimalLength) > entry.tolerance();
    if (found) pathCells += double(result.path.size());
    if (!found) {
      ++failures;
      std::fprintf(stderr, "line %d: (%d,%d)->(%d,%d) %s: %s\n", entry.lineNumber, entry.start.x, entry.start.y,
                   entry.goal.x, entry.goal.y, std::string(toString(result.status)).c_str(), result.reason);
    } else if (mismatch) {
      std::fprintf(stderr, "line %d: (%d,%d)->(%d,%d) length %.8f, optimal %.8f\n", entry.lineNumber, entry.start.x,
                   entry.start.y, entry.goal.x, entry.goal.y, result.length, entry.optimalLength);
    }
    mismatches += mismatch ? 1 : 0;
    double finalLength = -1.0, total = 0.0;
    if (pipeline) {
      // The whole pipeline from tile centre to tile centre (its own A* included).
      const Vec2 from = map.layout().tileCenter(entry.start), to = map.layout().tileCenter(entry.goal);
      const auto pipelineBegin = std::chrono::steady_clock::now();
      planner.plan(PathRequest{from, to, *mobility, 0.0f}, path);
      total = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - pipelineBegin).count();
      finalLength = isSuccess(path.status) ? path.length / double(map.layout().tileSize()) : -1.0;
      totalMicros.push_back(total);
      double after = 0.0;
      for (int s = int(PathStage::ControlPoints); s < kPathStageCount; ++s) after += planner.diagnostics().stages[std::size_t(s)].micros;
      afterSearchMicros.push_back(after);
    }
    if (csv) {
      std::printf("%zu,%d,%d,%d,%d,%.8f,%.8f,%lld,%.3f", i, entry.start.x, entry.start.y, entry.goal.x, entry.goal.y,
                  entry.optimalLength, found ? result.length : -1.0, static_cast<long long>(result.expanded), us);
      if (pipeline) std::printf(",%.8f,%.3f", finalLength, total);
      std::puts("");
    }
  }
  auto median = [](std::vector<double> values) {
    if (values.empty()) return 0.0;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
  };
  auto mean = [](const std::vector<double>& values) {
    double total = 0;
    for (double v : values) total += v;
    return values.empty() ? 0.0 : total / double(values.size());
  };
  if (clearance) {
    std::printf("%s: %zu queries for radius %g, %lld mismatches against A* without jump points, %lld too wide "
                "(no route, or a start or goal it does not fit on), mean %.2f us, median %.2f us\n",
                scenPath.c_str(), count, radius, mismatches, tooWide, mean(micros), median(micros));
    if (pipeline) {
      std::printf("pipeline for radius %g: mean %.2f us, median %.2f us per query (a path exactly where the search "
                  "found a route, never longer)\n", radius, mean(totalMicros), median(totalMicros));
    }
    return mismatches == 0 ? 0 : 1;
  }
  std::printf("%s: %zu queries, %lld mismatches (%lld without a path), mean %.2f us, median %.2f us\n",
              scenPath.c_str(), count, mismatches, failures, mean(micros), median(micros));
  const long long withPath = (long long)count - failures;
  std::printf("paths: %.2f cells a query on average (%s)\n", withPath > 0 ? pathCells / double(withPath) : 0.0,
              jumpPointsOnly ? "the jump points only" : "every tile");
  if (pipeline) {
    std::printf("pipeline: mean %.2f us, median %.2f us per query; stages after A*: mean %.2f us, median %.2f us\n",
                mean(totalMicros), median(totalMicros), mean(afterSearchMicros), median(afterSearchMicros));
  }
  return mismatches == 0 ? 0 : 1;
}

}  // namespace rpgnav::tool
