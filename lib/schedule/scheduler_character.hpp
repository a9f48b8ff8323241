// SPDX-License-Identifier: MIT
// Private to lib/schedule: what the replan scheduler keeps for each character.
#pragma once

#include "schedule/scheduler_impl.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace rpgnav {

namespace detail {
inline constexpr double kInfinity = std::numeric_limits<double>::infinity();
}  // namespace detail

struct RPGNAV_HIDDEN ReplanScheduler::Impl::Character {
  CharacterSpec spec;
  Vec2 position = Vec2::Zero();
  std::uint64_t order = 0;  // registration number: the tie-break everywhere
  double phase = 0.0;       // its periodic turns come at phase + k × interval
  // Its one live queue entry.
  std::uint32_t generation = 0;
  bool queued = false;
  double key = 0.0;
  double due = 0.0;  // when its queued turn came due (a trigger: when it was triggered)
  ReplanReason reason = ReplanReason::First;
  bool forceFull = false;  // the next plan searches afresh
  bool retrigger = false;  // triggered while being planned: to the front again afterwards
  ReplanReason retriggerReason = ReplanReason::First;
  bool jobOut = false;     // handed out by collectDue
  std::int32_t droppedSearches = 0;  // searches in a row dropped unfinished for a new goal
  // The path it walks.
  bool hasPath = false;
  PathResult path;
  SmoothPath straight;  // the control polyline as a curve, when the planner does not smooth
  PathFollower follower;
  std::size_t segment = 0;  // control point segment it walks (a hint for the corridor check)
  Vec2 plannedGoal = Vec2::Zero();
  Vec2 requestedGoal = Vec2::Zero();  // of the plan being made
  std::uint32_t goalChanges = 0;      // setGoal() calls so far
  std::uint32_t requestedGoalChanges = 0;  // goalChanges when the plan being made was asked for
  // The outcome of its last event: an event is sent only when the outcome changes (see report()).
  std::optional<ReplanEvent> reported;
  std::uint32_t reportedGoalChanges = 0;
  double lastFullPlan = -detail::kInfinity;
  EntityId lastFullBlocker{0};  // what the last full plan stopped in front of (0: it did not)
  std::int32_t plans = 0;
  double lastPlanned = -1.0;
  ReplanReason lastReason = ReplanReason::First;
  double travelledSinceRequest = 0.0;  // walked by follow() while its plan was made
  bool movedByGame = false;            // setPosition() since the last follow()
  std::vector<DoorId> doorsOnPath;
  // move(): how it moved last frame, whether it makes way, whether its arrival was reported.
  Vec2 velocity = Vec2::Zero();
  YieldKind yield = YieldKind::None;
  bool arrivalReported = false;
  // Checks.
  double nextCorridorCheck = 0.0;
  Vec2 progressAnchor = Vec2::Zero();
  double progressSince = 0.0;
};

}  // namespace rpgnav
