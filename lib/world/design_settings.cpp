// SPDX-License-Identifier: MIT
#include "rpgnav/world/design_settings.hpp"

#include "core/format_float.hpp"
#include "rpgnav/core/limits.hpp"

#include <array>
#include <cmath>

namespace rpgnav {

namespace {

// Bounds that catch a slip of the designer's hand (comfort 25 for 0.25) and keep every value
// inside what the planner and scheduler are documented for.
constexpr std::array<DesignSettingKey, 8> kDesignSettingKeys{{
    {"comfort", &DesignSettings::comfort, 0.0f, false, 8.0f, "tiles"},
    {"smoothing", &DesignSettings::smoothing, 0.0f, false, 8.0f, "tiles"},
    {"detour-margin", &DesignSettings::detourMargin, 0.0f, false, 2.0f, "tiles"},
    {"door-cost-open", &DesignSettings::openDoorCost, 0.0f, false, kMaxDoorCost, "tile steps"},
    {"door-cost-closed", &DesignSettings::closedDoorCost, 0.0f, false, kMaxDoorCost, "tile steps"},
    {"door-cost-locked", &DesignSettings::lockedDoorCost, 0.0f, false, kMaxDoorCost, "tile steps"},
    {"replan-interval", &DesignSettings::replanInterval, 0.0f, true, 60.0f, "seconds"},
    {"stickiness", &DesignSettings::stickiness, 0.0f, false, 1.0f, "fraction"},
}};

}  // namespace

std::span<const DesignSettingKey> designSettingKeys() noexcept { return kDesignSettingKeys; }

bool allows(const DesignSettingKey& setting, float value) noexcept {
  return std::isfinite(value) && (setting.lowExcluded ? value > setting.low : value >= setting.low) &&
         value <= setting.high;
}

std::string designSettingLimits(const DesignSettingKey& setting) {
  const std::string low = detail::formatFloat(setting.low), high = detail::formatFloat(setting.high);
  const std::string range = setting.lowExcluded ? "over " + low + " up to " + high : "from " + low + " to " + high;
  return setting.unit == "fraction" ? "a fraction " + range : "a number of " + std::string(setting.unit) + " " + range;
}

std::string invalidDesignSetting(const DesignSettings& settings) {
  for (const DesignSettingKey& setting : kDesignSettingKeys) {
    const std::optional<float>& value = settings.*setting.member;
    if (value && !allows(setting, *value)) {
      return std::string(setting.key) + ": expected " + designSettingLimits(setting) + ", found " +
             detail::formatFloat(*value);
    }
  }
  return {};
}

}  // namespace rpgnav
