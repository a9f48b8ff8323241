// SPDX-License-Identifier: MIT
// rpgnav scen MAP SCEN: runs Moving AI scenario lines through A* and compares with the optimum.
#include "commands.hpp"

#include "rpgnav/io/moving_ai.hpp"
#include "rpgnav/io/rpgmap.hpp"
#include "rpgnav/path/planner.hpp"
#include "rpgnav/search/search_context.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace rpgnav::tool {

int scenCommand(Arguments args) {
  constexpr const char* kUsage =
      "usage: rpgnav scen MAP SCEN [--limit N] [--csv] [--mobility NAME] [--no-jump-points] [--pipeline]\n"
      "                            [--any-angle]\n";
  std::vector<std::string_view> positional;
  long long limit = -1;
  bool csv = false, jumpPoints = true, pipeline = false, anyAngle = false;
  std::string mobilityName = "walk";
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--csv") {
      csv = true;
    } else if (args[i] == "--pipeline") {
      pipeline = true;
    } else if (args[i] == "--any-angle") {
      anyAngle = true;  // the pipeline's search (the scenario's own A* check stays 8-way)
    } else if (args[i] == "--no-jump-points") {
      jumpPoints = false;
    } else if (args[i] == "--limit" && i + 1 < args.size()) {
      const std::string value(args[++i]);
      char* end = nullptr;
      limit = std::strtoll(value.c_str(), &end, 10);
      if (end == value.c_str() || *end != '\0' || limit < 0) {
        std::fprintf(stderr, "rpgnav scen: --limit needs a whole number, got '%s'\n", value.c_str());
        return 2;
      }
    } else if (args[i] == "--mobility" && i + 1 < args.size()) {
      mobilityName = std::string(args[++i]);
    } else if (!args[i].empty() && args[i][0] == '-') {
      std::fputs(kUsage, stderr);
      return 2;
    } else {
      positional.push_back(args[i]);
    }
  }
  if (positional.size() != 2) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  auto document = readMapFile(std::string(positional[0]));
  if (!document) {
    std::fprintf(stderr, "rpgnav scen: %s\n", document.error().message.c_str());
    return 1;
  }
  auto scenario = readScenario(std::string(positional[1]));
  if (!scenario) {
    std::fprintf(stderr, "rpgnav scen: %s\n", scenario.error().message.c_str());
    return 1;
  }
  const TileMap& map = document->map;
  const auto mobility = map.terrain().findMobility(mobilityName);
  if (!mobility) {
    std::fprintf(stderr, "rpgnav scen: unknown mobility '%s'\n", mobilityName.c_str());
    return 1;
  }
  auto grid = SearchGrid::build(map, *mobility);
  if (!grid) {
    std::fprintf(stderr, "rpgnav scen: %s\n", grid.error().message.c_str());
    return 1;
  }

  SearchContext context;
  SearchResult result;
  std::vector<double> micros;
  long long mismatches = 0, failures = 0;
  PlannerSettings settings;
  settings.anyAngleSearch = anyAngle;
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
                   std::string(positional[1]).c_str(), entry.lineNumber, entry.mapWidth, entry.mapHeight, map.width(),
                   map.height());
      return 1;
    }
    SearchRequest request;
    request.start = entry.start;
    request.goal = entry.goal;
    request.jumpPoints = jumpPoints;
    const auto begin = std::chrono::steady_clock::now();
    context.findPath(*grid, request, result);
    const auto end = std::chrono::steady_clock::now();
    const double us = std::chrono::duration<double, std::micro>(end - begin).count();
    micros.push_back(us);
    const bool found = result.status == Status::Ok;
    const bool mismatch = !found || std::abs(result.length - entry.optimalLength) > entry.tolerance();
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
      for (int s = int(PathStage::ControlPoints); s < kPathStageCount; ++s) after += path.stages[std::size_t(s)].micros;
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
  std::printf("%s: %zu queries, %lld mismatches (%lld without a path), mean %.2f us, median %.2f us\n",
              std::string(positional[1]).c_str(), count, mismatches, failures, mean(micros), median(micros));
  if (pipeline) {
    std::printf("pipeline: mean %.2f us, median %.2f us per query; stages after A*: mean %.2f us, median %.2f us\n",
                mean(totalMicros), median(totalMicros), mean(afterSearchMicros), median(afterSearchMicros));
  }
  return mismatches == 0 ? 0 : 1;
}

}  // namespace rpgnav::tool
