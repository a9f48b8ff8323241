// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// Designer settings: what a designer tunes per map, with the limits each is checked against.

#include "rpgnav/core/export.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace rpgnav {

/// What a designer tunes per map (a map file's `[settings]`, Tiled map properties): the defaults
/// of the planners and schedulers on the world that holds them (World::setDesignSettings), in
/// place of the code's PlannerSettings and SchedulerSettings; a request that sets its own value
/// (PathRequest::comfort) still overrides them. Unset: the code's value. Each is checked against
/// the limits designSettingKeys() gives (World::setDesignSettings and the readers refuse others).
struct DesignSettings {
  /// PlannerSettings::comfort: how much further than their radius paths keep from walls. [Units: tiles]
  std::optional<float> comfort;
  /// Smoothing strength, SmoothingSettings::maxDeviation: how far the curve may stray from the
  /// control polyline (0: the polyline itself). [Units: tiles]
  std::optional<float> smoothing;
  /// DetourSettings::margin: the gap kept beyond the two radii round other entities. [Units: tiles]
  std::optional<float> detourMargin;
  /// The world's default door rule (DefaultDoorPolicy) costs of passing a door in each state, in
  /// tile steps on cost-1 terrain (closed and locked doors stop the character in front of them).
  std::optional<float> openDoorCost;
  std::optional<float> closedDoorCost;
  std::optional<float> lockedDoorCost;
  /// SchedulerSettings::interval: seconds between a character's periodic replans.
  std::optional<float> replanInterval;
  /// SchedulerSettings::stickiness: a periodic replan replaces a still valid path only when
  /// cheaper by more than this fraction of the rest of it.
  std::optional<float> stickiness;
  friend bool operator==(const DesignSettings&, const DesignSettings&) = default;
};

/// One designer setting as map files name it, in the order writers write them.
struct DesignSettingKey {
  std::string_view key;          ///< `comfort`, `smoothing`, `detour-margin`, ...
  std::optional<float> DesignSettings::*member;
  float low;                     ///< Smallest value allowed (excluded when lowExcluded).
  bool lowExcluded;
  float high;                    ///< Largest value allowed.
  std::string_view unit;         ///< "tiles", "tile steps", "seconds", "fraction"
};
/// Every designer setting: comfort 0..8 tiles, smoothing 0..8 tiles, detour-margin 0..2 tiles,
/// door-cost-open, door-cost-closed, door-cost-locked 0..1000 tile steps, replan-interval over
/// 0 up to 60 seconds, stickiness 0..1.
RPGNAV_API std::span<const DesignSettingKey> designSettingKeys() noexcept;
/// Whether a value is one the setting allows (finite and within its limits).
RPGNAV_API bool allows(const DesignSettingKey& setting, float value) noexcept;
/// "comfort: expected a number of tiles from 0 to 8" for the first value of `settings` its key
/// does not allow; empty when all are allowed.
RPGNAV_API std::string invalidDesignSetting(const DesignSettings& settings);
/// The limits of a setting as readers and errors state them: "a number of tiles from 0 to 8".
RPGNAV_API std::string designSettingLimits(const DesignSettingKey& setting);

}  // namespace rpgnav
