// SPDX-License-Identifier: MIT
#pragma once
// A crowd walked by the ReplanScheduler with local avoidance (move()), measured the way the issue
// measures the town: who arrived and when, stuck time, overlaps, walls and closed doors kept,
// and each frame's step no longer than the speed allows.

#include "rpgnav/schedule/replan_scheduler.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace rpgnav::test {

/// A character to register: walking, at `position`, heading for `goal`.
CharacterSpec characterSpec(std::uint32_t id, Vec2 position, Goal goal, float speed, float radius);

struct CrowdMember {
  Vec2 start = Vec2::Zero();
  Vec2 goal = Vec2::Zero();
  float radius = 0.25f;  ///< World units.
  float speed = 2.5f;    ///< World units per second.
  AvoidanceSettings avoid;
};

struct CrowdOutcome {
  int members = 0;
  int arrived = 0;            ///< Reached their goals (arrival reported by move()).
  double lastArrival = -1.0;  ///< Seconds.
  double characterSeconds = 0.0;
  double stuckSeconds = 0.0;  ///< Below 10% of the speed for over 1 s, not arrived, not at a closed door.
  double worstOverlap = 0.0;  ///< Deepest overlap of two bodies, as a fraction of the sum of radii.
  std::int64_t overlapsOver5 = 0;
  std::int64_t wallsEntered = 0;      ///< Frames a body came closer than its radius to a wall.
  std::int64_t doorsCrossed = 0;      ///< Frames a body crossed or entered a closed door.
  std::int64_t tooFast = 0;           ///< Frames a body moved farther than its speed allows.
  std::int64_t blockedByAvoiding = 0; ///< BlockedByEntity events naming a character.
  std::int64_t yields = 0;            ///< Frames with someone making way.
  std::uint64_t digest = 0;           ///< Of every position, every frame.
  std::string summary() const;
};

struct CrowdRunOptions {
  double seconds = 60.0;
  double fps = 60.0;
  /// Called before each frame's update (open a door at a given time...).
  void (*beforeFrame)(World& world, double now) = nullptr;
};

/// Registers the members as characters (ids 1...) and moving, avoiding entities of `world`, and
/// walks them until all arrived or the time is up.
CrowdOutcome runCrowd(World& world, std::span<const CrowdMember> members, const CrowdRunOptions& options = {});

}  // namespace rpgnav::test
