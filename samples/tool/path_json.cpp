// SPDX-License-Identifier: MIT
#include "path_json.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace rpgnav::tool {

namespace {
// The shortest text that reads back to the same value (std::to_chars' guarantee).
template <class Number>
std::string shortest(Number value) {
  if (!std::isfinite(value)) return "null";
  char buffer[40];
  const auto written = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, written.ptr);
}
}  // namespace

std::string jsonNumber(double value) { return shortest(value); }
std::string jsonNumber(float value) { return shortest(value); }

std::string jsonString(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", unsigned(static_cast<unsigned char>(c)));
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string jsonPoint(Vec2 p) { return "[" + jsonNumber(p.x()) + "," + jsonNumber(p.y()) + "]"; }

std::string pathJsonFields(const PathResult& result, const PlanDiagnostics& diagnostics, const World& world,
                           const EntityNames& names, bool withTimes) {
  std::string out = "{\"status\":\"" + std::string(toString(result.status)) + "\"";
  out += ",\"reason\":" + jsonString(result.reason);
  if (result.status == Status::StoppedAtDoor) {
    out += ",\"door\":" + jsonString(world.door(result.door)->name) + ",\"stop_point\":" + jsonPoint(result.stopPoint);
  }
  if (result.fallbackGoal) out += ",\"fallback_goal\":" + jsonPoint(*result.fallbackGoal);
  if (result.status == Status::BlockedByEntity) {
    const std::uint32_t id = result.blocker.value;
    out += ",\"blocker\":{\"id\":" + std::to_string(id) +
           ",\"name\":" + jsonString(id >= 1 && id <= names.size() ? names[id - 1] : "") + "}";
    out += ",\"stop_point\":" + jsonPoint(result.stopPoint);
  }
  out += ",\"detours\":[";
  for (std::size_t i = 0; i < result.detours.size(); ++i) {
    const PathDetour& detour = result.detours[i];
    const std::uint32_t id = detour.around.value;
    out += (i ? ",{" : "{") + std::string("\"around\":") + std::to_string(id) +
           ",\"name\":" + jsonString(id >= 1 && id <= names.size() ? names[id - 1] : "") +
           ",\"group\":" + std::to_string(detour.groupSize) + ",\"points\":[";
    for (std::int32_t k = 0; k < detour.count; ++k) {
      out += (k ? "," : "") + jsonPoint(result.controlPoints[std::size_t(detour.first + k)]);
    }
    out += "]}";
  }
  out += "]";
  out += ",\"astar_length\":" + jsonNumber(result.searchLength);
  // The invariants, checkable by anyone (README, "One cost model"): the search's tiles, the cost
  // of the polyline through their centres with the start and goal legs, and the path's cost
  // after each stage that ran; null where nothing was measured.
  out += ",\"astar_tiles\":[";
  for (std::size_t i = 0; i < result.tilePath.size(); ++i) {
    out += (i ? ",[" : "[") + std::to_string(result.tilePath[i].x) + "," + std::to_string(result.tilePath[i].y) + "]";
  }
  out += "],\"astar_cost\":" + jsonNumber(diagnostics.searchCost);
  out += ",\"stage_costs\":{";
  bool firstCost = true;
  for (int s = 0; s < kPathStageCount; ++s) {
    const double cost = diagnostics.stageCosts[std::size_t(s)];
    if (!diagnostics.stages[std::size_t(s)].ran || std::isnan(cost)) continue;
    out += (firstCost ? "\"" : ",\"") + std::string(toString(PathStage(s))) + "\":" + jsonNumber(cost);
    firstCost = false;
  }
  out += "}";
  out += ",\"length\":" + jsonNumber(result.length);
  out += ",\"cost\":" + jsonNumber(result.cost);
  out += ",\"control_points\":[";
  for (std::size_t i = 0; i < result.controlPoints.size(); ++i) {
    out += (i ? ",[" : "[") + jsonNumber(result.controlPoints[i].x()) + "," + jsonNumber(result.controlPoints[i].y()) + "]";
  }
  out += "],\"smoothed_length\":" + jsonNumber(result.smoothed.length()) + ",\"smoothed\":[";
  std::vector<Vec2> smoothed;
  result.smoothed.sample(0.01 * double(world.map().layout().tileSize()), smoothed);
  for (std::size_t i = 0; i < smoothed.size(); ++i) out += (i ? "," : "") + jsonPoint(smoothed[i]);
  out += "],\"tiles\":" + std::to_string(result.tilePath.size());
  if (!withTimes) return out;
  out += ",\"stages\":{";
  for (int s = 0; s < kPathStageCount; ++s) {
    const StageStats& stats = diagnostics.stages[std::size_t(s)];
    out += (s ? ",\"" : "\"") + std::string(toString(PathStage(s))) + "\":" + jsonNumber(stats.ran ? stats.micros : 0.0);
  }
  out += "}";
  return out;
}

}  // namespace rpgnav::tool
