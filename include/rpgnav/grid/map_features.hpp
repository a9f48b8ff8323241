// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// Doors, entities, danger layers and designer settings as authored in a map file: plain data that
/// the world module turns into live doors and entities and the defaults its planners and
/// schedulers use.

#include "rpgnav/core/export.hpp"
#include "rpgnav/core/types.hpp"
#include "rpgnav/grid/danger_map.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rpgnav {

enum class DoorState : std::uint8_t { Open, Closed, Locked };

/// "open", "closed", "locked".
RPGNAV_API std::string_view toString(DoorState state) noexcept;

/// A door on the edge shared by two neighbouring tiles.
struct DoorSpec {
  std::string name;
  Cell a;
  Cell b;
  DoorState state = DoorState::Closed;
  std::string key;  ///< Name of the key that unlocks it; empty for none.
  friend bool operator==(const DoorSpec&, const DoorSpec&) = default;
};

/// Something standing on the map. Non-flat entities have a personal space that paths avoid;
/// flat ones (rugs, corpses) never block.
struct EntitySpec {
  std::string name;
  Vec2 position = Vec2(0.0f, 0.0f);  ///< World units.
  float radius = 0.0f;               ///< Personal-space radius, world units.
  bool flat = false;
  friend bool operator==(const EntitySpec& a, const EntitySpec& b) {
    return a.name == b.name && a.position == b.position && a.radius == b.radius && a.flat == b.flat;
  }
};

/// A named danger layer as authored in a map file: one value 0-255 per tile, row-major
/// (width × height), for the danger layer of the same position (DangerMap::setLayer, CrowdField::setDanger).
struct DangerLayerSpec {
  std::string name;
  std::vector<std::uint8_t> values;
  friend bool operator==(const DangerLayerSpec&, const DangerLayerSpec&) = default;
};

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
