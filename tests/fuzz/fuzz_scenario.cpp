// SPDX-License-Identifier: MIT
// libFuzzer target: the Moving AI .map.scen reader. Any bytes: entries or an error naming the
// place, never a crash; every entry read has sane fields.
#include "rpgnav/io/moving_ai.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto entries = rpgnav::parseScenario(text, "fuzz.scen");
  if (!entries) {
    if (entries.message().rfind("fuzz.scen:", 0) != 0) std::abort();
    return 0;
  }
  for (const rpgnav::ScenarioEntry& entry : *entries) {
    if (entry.start.x < 0 || entry.start.y < 0 || entry.goal.x < 0 || entry.goal.y < 0) std::abort();
    if (!std::isfinite(entry.optimalLength) || entry.optimalLength < 0.0) std::abort();
    if (!std::isfinite(entry.tolerance())) std::abort();
  }
  return 0;
}
