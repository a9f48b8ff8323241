// SPDX-License-Identifier: MIT
#pragma once
// A plan as one JSON object, as `rpgnav path --json` and `rpgnav replay` print it.

#include "rpgnav/path/planner.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace rpgnav::tool {

// Names for the entities of a run: the map's own by id (1, 2, ...), then those a command adds.
using EntityNames = std::vector<std::string>;

// The shortest text that reads back to the same value, so equal text means equal bits; JSON has
// no NaN, so non-finite -> null.
std::string jsonNumber(double value);
std::string jsonNumber(float value);
// A JSON string literal (quotes, backslashes and control characters escaped).
std::string jsonString(std::string_view text);
std::string jsonPoint(Vec2 p);

// The object's fields, without the closing brace, so that a command can add its own. Without
// `withTimes` the stages' timings are left out: what remains is the same text for the same plan.
// `diagnostics` is the planner's for this plan (Planner::diagnostics, with recordStages for the
// costs).
std::string pathJsonFields(const PathResult& result, const PlanDiagnostics& diagnostics, const World& world,
                           const EntityNames& names, bool withTimes = true);
inline std::string pathJson(const PathResult& result, const PlanDiagnostics& diagnostics, const World& world,
                            const EntityNames& names) {
  return pathJsonFields(result, diagnostics, world, names) + "}";
}

}  // namespace rpgnav::tool
