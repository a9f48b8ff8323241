// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// Doors on tile edges, and the two hooks through which the game decides what a door means to a
/// character (DoorPolicy, asked while planning) and hears about door stops (DoorListener).

#include "rpgnav/core/export.hpp"
#include "rpgnav/core/types.hpp"
#include "rpgnav/grid/door_state.hpp"
#include "rpgnav/world/entities.hpp"

#include <array>
#include <cstdint>
#include <string>

namespace rpgnav {

struct DoorTag {};
/// A door's number in its World: 1, 2, ... in the order doors were added; DoorId{0} means no door.
using DoorId = StrongId<DoorTag, std::uint32_t>;

/// A door as authored (a map file, World::addDoor): on the edge shared by two neighbouring tiles.
struct DoorSpec {
  std::string name;
  Cell a;
  Cell b;
  DoorState state = DoorState::Closed;
  std::string key;  ///< Name of the key that unlocks it; empty for none.
  friend bool operator==(const DoorSpec&, const DoorSpec&) = default;
};

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
/// door the search reaches (and the doors near stage 7's detours). The world's policy
/// (World::setDoorPolicy), or a query's own (QueryFilter::doorPolicy): the same rules for both.
///
/// Thread and lifetime: called from the thread running the planner call — Planner::plan,
/// beginPlan, continuePlan, replanAlong — only during that call: the game's thread for its own
/// planners and for the ReplanScheduler's plans in update(), a worker thread for PlanJob::run.
/// It may be called concurrently: several planners on several threads call it at once (one
/// policy object serves them all), so keep it const, thread-safe and cheap. It must not change
/// doors or entities, and must answer the same for a door within one query.
class RPGNAV_API DoorPolicy {
 public:
  virtual ~DoorPolicy() = default;
  virtual DoorDecision decide(const Door& door, const Traveller& traveller) const = 0;
};

/// The default rule: open doors pass; closed and locked doors stop the character (the game then
/// decides what to do: open, kick, unlock, pick the lock...), at a cost that makes an open way
/// round of similar length preferred. The world's (World::doorPolicy when the game set none)
/// takes its costs from the map's designer settings (World::setDesignSettings).
class RPGNAV_API DefaultDoorPolicy final : public DoorPolicy {
 public:
  float openCost = 0.0f;    ///< Tile steps. [Limit: 0..1000]
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
/// a key, pick the lock, cast a spell, set it on fire).
///
/// When and from which thread, exactly:
/// - The game's own planner calls (Planner::plan, the continuePlan that finishes a sliced plan,
///   replanAlong) with PathRequest::tellDoorListener set (the default): once per call whose path
///   stops at a door, at the end of the call, on the thread making it. Several planners on
///   several threads (one per worker) call it concurrently: make it thread-safe then.
/// - The ReplanScheduler's characters: never from the scheduler's plans (its requests turn the
///   flag off, its jobs' too, so PlanJob::run on a worker thread never calls it). The scheduler
///   calls it itself, on its own thread, during update() or acceptJobs() as it takes the plan,
///   once per change: when a character comes to stop at a door it was not already stopped at
///   (the event ReplanEventKind::StoppedAtDoor), not on every replan that stops there again.
///   Never concurrently with itself from the scheduler.
/// The listener may read the World but must not edit it from inside the call (edit after the
/// call returns; the next plan sees the change).
class RPGNAV_API DoorListener {
 public:
  virtual ~DoorListener() = default;
  virtual void stoppedAtDoor(const DoorStop& stop) { (void)stop; }
};

}  // namespace rpgnav
