// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// Doors on tile edges, and the two hooks through which the game decides what a door means to a
/// character (DoorPolicy, asked while planning) and hears about door stops (DoorListener).

#include "rpgnav/core/types.hpp"
#include "rpgnav/grid/map_features.hpp"
#include "rpgnav/world/entities.hpp"

#include <array>
#include <cstdint>
#include <string>

namespace rpgnav {

struct DoorTag {};
/// A door's number in its World: 1, 2, ... in the order doors were added; DoorId{0} means no door.
using DoorId = StrongId<DoorTag, std::uint32_t>;

/// A door on the edge between two neighbouring tiles.
struct Door {
  DoorId id;
  std::string name;
  Cell a;
  Cell b;
  DoorState state = DoorState::Closed;
  std::string key;               ///< Name of the key that unlocks it; empty for none.
  std::uint64_t gameData = 0;    ///< Anything the game attaches (an index into its own tables).
  std::array<Vec2, 2> edge{Vec2::Zero(), Vec2::Zero()};  ///< The edge's two corners, world units.
  /// Taken away (World::removeDoor): its id stays taken, its edge is free, and it counts as open.
  bool removed = false;
};

/// The character a question is about.
struct Traveller {
  EntityId character;  ///< EntityId{0} when the query names no character.
  MobilityId mobility;
  float radius = 0.0f;  ///< World units.
};

/// What a door means to one character.
enum class DoorAction : std::uint8_t {
  Pass,   ///< Treat it as open: plan through it.
  Stop,   ///< Plan through it, but the path ends in front of it (StoppedAtDoor).
  Avoid,  ///< Treat it as a wall: look for another way.
};

struct DoorDecision {
  DoorAction action = DoorAction::Pass;
  /// Extra travel cost of going through (Pass or Stop), in tile steps on cost-1 terrain: a door
  /// that takes time to open makes an open way round worth a few tiles more. [Limit: 0..1000]
  float cost = 0.0f;
};

/// The game's rule for doors, asked by the planner at most once per door and query, for every
/// door the search reaches.
///
/// Thread and lifetime: called from the thread running Planner::plan (several planners on several
/// threads may call it at once), only during that call; keep it const and cheap. It must not
/// change doors or entities.
class DoorPolicy {
 public:
  virtual ~DoorPolicy() = default;
  virtual DoorDecision decide(const Door& door, const Traveller& traveller) const = 0;
};

/// The default rule: open doors pass; closed and locked doors stop the character (the game then
/// decides what to do: open, kick, unlock, pick the lock...), at a cost that makes an open way
/// round of similar length preferred.
class DefaultDoorPolicy final : public DoorPolicy {
 public:
  float closedCost = 2.0f;  ///< Tile steps. [Limit: 0..1000]
  float lockedCost = 4.0f;  ///< Tile steps. [Limit: 0..1000]
  DoorDecision decide(const Door& door, const Traveller& traveller) const override;
};

/// A path that ends in front of a door.
struct DoorStop {
  EntityId character;
  DoorId door;
  Vec2 point = Vec2(0.0f, 0.0f);  ///< Where the character stops, world units.
};

/// Told when a planned path stops at a door, so the game can offer its options (kick it in, use
/// a key, pick the lock, cast a spell, set it on fire). Once per plan that stops.
///
/// Thread and lifetime: called from the thread running Planner::plan, at the end of the call; the
/// listener may read the World but must not edit it from inside the call (edit after plan()
/// returns; the next plan sees the change).
class DoorListener {
 public:
  virtual ~DoorListener() = default;
  virtual void stoppedAtDoor(const DoorStop& stop) { (void)stop; }
};

}  // namespace rpgnav
