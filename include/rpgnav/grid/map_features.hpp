// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// Doors, entities and danger layers as authored in a map file: plain data that the world module turns into
/// live doors and entities.

#include "rpgnav/core/export.hpp"
#include "rpgnav/core/types.hpp"
#include "rpgnav/grid/danger_map.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rpgnav {

enum class DoorState : std::uint8_t { Open, Closed, Locked };

/// "open", "closed", "locked".
RPGNAV_API const char* doorStateName(DoorState state) noexcept;

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
  /// At most this many layers per map.
  static constexpr int kMaxLayers = DangerMap::kMaxLayers;
  std::string name;
  std::vector<std::uint8_t> values;
  friend bool operator==(const DangerLayerSpec&, const DangerLayerSpec&) = default;
};

}  // namespace rpgnav
