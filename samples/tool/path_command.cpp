// SPDX-License-Identifier: MIT
// rpgnav path MAP --from X,Y --to X,Y | --queries FILE : runs the character pipeline.
#include "commands.hpp"

#include "rpgnav/debug/svg.hpp"
#include "rpgnav/io/rpgmap.hpp"
#include "rpgnav/path/planner.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

namespace rpgnav::tool {
namespace {

constexpr const char* kUsage =
    "usage: rpgnav path MAP (--from X,Y --to X,Y | --queries FILE|-) [--mobility NAME] [--radius R] [--json]\n"
    "                       [--svg FILE] [--any-angle]\n";

bool parsePoint(std::string_view text, Vec2& out) {
  const std::size_t comma = text.find(',');
  if (comma == std::string_view::npos) return false;
  const std::string x(text.substr(0, comma)), y(text.substr(comma + 1));
  char* endX = nullptr;
  char* endY = nullptr;
  const float fx = std::strtof(x.c_str(), &endX), fy = std::strtof(y.c_str(), &endY);
  if (x.empty() || y.empty() || *endX != '\0' || *endY != '\0') return false;
  out = Vec2(fx, fy);
  return true;
}

// Shortest float text that reads back to the same value; JSON has no NaN, so non-finite -> null.
std::string number(double value) {
  if (!std::isfinite(value)) return "null";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.9g", value);
  return buffer;
}

std::string json(const PathResult& result) {
  std::string out = "{\"status\":\"" + std::string(toString(result.status)) + "\"";
  out += ",\"reason\":\"" + std::string(result.reason) + "\"";
  out += ",\"astar_length\":" + number(result.searchLength);
  out += ",\"length\":" + number(result.length);
  out += ",\"cost\":" + number(result.cost);
  out += ",\"control_points\":[";
  for (std::size_t i = 0; i < result.controlPoints.size(); ++i) {
    out += (i ? ",[" : "[") + number(result.controlPoints[i].x()) + "," + number(result.controlPoints[i].y()) + "]";
  }
  out += "],\"tiles\":" + std::to_string(result.tilePath.size());
  out += ",\"stages\":{";
  for (int s = 0; s < kPathStageCount; ++s) {
    const StageStats& stats = result.stages[std::size_t(s)];
    out += (s ? ",\"" : "\"") + std::string(pathStageName(PathStage(s))) + "\":" + number(stats.ran ? stats.micros : 0.0);
  }
  out += "}}";
  return out;
}

void text(const PathResult& result) {
  std::printf("status %s%s%s\n", std::string(toString(result.status)).c_str(), *result.reason ? ": " : "", result.reason);
  if (!isSuccess(result.status)) return;
  std::printf("A* length %.4f, path length %.4f, cost %.4f, %zu tiles, %zu control points\n", result.searchLength,
              result.length, result.cost, result.tilePath.size(), result.controlPoints.size());
  for (const Vec2& p : result.controlPoints) std::printf("  %.4f,%.4f\n", double(p.x()), double(p.y()));
  for (int s = 0; s < kPathStageCount; ++s) {
    const StageStats& stats = result.stages[std::size_t(s)];
    if (!stats.ran) continue;
    std::printf("  %-20s %8.1f us  %4d -> %4d points  %4d probes\n", std::string(pathStageName(PathStage(s))).c_str(),
                stats.micros, stats.pointsIn, stats.pointsOut, stats.probes);
  }
}

}  // namespace

int pathCommand(Arguments args) {
  std::string mapPath, queries, mobilityName = "walk", svgPath;
  Vec2 from(0.0f, 0.0f), to(0.0f, 0.0f);
  bool haveFrom = false, haveTo = false, asJson = false, anyAngle = false;
  float radius = 0.0f;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    const bool hasValue = i + 1 < args.size();
    if (arg == "--from" && hasValue) {
      haveFrom = parsePoint(args[++i], from);
      if (!haveFrom) return std::fprintf(stderr, "rpgnav path: --from needs X,Y\n"), 2;
    } else if (arg == "--to" && hasValue) {
      haveTo = parsePoint(args[++i], to);
      if (!haveTo) return std::fprintf(stderr, "rpgnav path: --to needs X,Y\n"), 2;
    } else if (arg == "--queries" && hasValue) {
      queries = std::string(args[++i]);
    } else if (arg == "--mobility" && hasValue) {
      mobilityName = std::string(args[++i]);
    } else if (arg == "--radius" && hasValue) {
      const std::string value(args[++i]);
      char* end = nullptr;
      radius = std::strtof(value.c_str(), &end);
      if (value.empty() || *end != '\0') return std::fprintf(stderr, "rpgnav path: --radius needs a number\n"), 2;
    } else if (arg == "--svg" && hasValue) {
      svgPath = std::string(args[++i]);
    } else if (arg == "--json") {
      asJson = true;
    } else if (arg == "--any-angle") {
      anyAngle = true;
    } else if (mapPath.empty() && !arg.empty() && arg[0] != '-') {
      mapPath = std::string(arg);
    } else {
      std::fputs(kUsage, stderr);
      return 2;
    }
  }
  if (mapPath.empty() || (queries.empty() && (!haveFrom || !haveTo))) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  auto document = readMapFile(mapPath);
  if (!document) {
    std::fprintf(stderr, "rpgnav path: %s\n", document.error().message.c_str());
    return 1;
  }
  const auto mobility = document->map.terrain().findMobility(mobilityName);
  if (!mobility) {
    std::fprintf(stderr, "rpgnav path: unknown mobility '%s'\n", mobilityName.c_str());
    return 1;
  }
  PlannerSettings settings;
  settings.recordStages = !svgPath.empty();
  settings.anyAngleSearch = anyAngle;
  Planner planner(document->map, settings);
  PathResult result;
  auto run = [&](Vec2 a, Vec2 b) {
    planner.plan(PathRequest{a, b, *mobility, radius}, result);
    if (asJson || !queries.empty()) {
      std::puts(json(result).c_str());
    } else {
      text(result);
    }
    return isSuccess(result.status);
  };
  if (queries.empty()) {
    const bool found = run(from, to);
    if (!svgPath.empty()) {
      SvgPicture picture(document->map, *mobility);
      picture.doors(document->doors);
      picture.entities(document->entities);
      picture.tiles(result.tilePath, "#1f77b4", "A* tiles");
      picture.polyline(result.stagePoints[std::size_t(PathStage::ControlPoints)], "#7f7f7f", 0.05f, true,
                       "control points (stage 3)");
      picture.polyline(result.stagePoints[std::size_t(PathStage::StraightenForward)], "#17becf", 0.06f, true,
                       "straightened from the start (4)");
      picture.polyline(result.stagePoints[std::size_t(PathStage::CornerRouting)], "#ff7f0e", 0.07f, true,
                       "corner routing (5)");
      picture.polyline(result.controlPoints, "#d62728", 0.09f, false, "final path (6)");
      std::ofstream svg(svgPath);
      svg << picture.str();
      if (!svg) return std::fprintf(stderr, "rpgnav path: cannot write %s\n", svgPath.c_str()), 1;
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
    run(Vec2(sx, sy), Vec2(gx, gy));
  }
  return bad == 0 ? 0 : 1;
}

}  // namespace rpgnav::tool
