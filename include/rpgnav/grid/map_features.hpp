// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// Doors and entities as authored in a map file: plain data that the world module turns into
/// live doors and entities.

#include "rpgnav/core/types.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace rpgnav {

enum class DoorState : std::uint8_t { Open, Closed, Locked };

/// "open", "closed", "locked".
const char* doorStateName(DoorState state) noexcept;

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

}  // namespace rpgnav
