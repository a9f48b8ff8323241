// SPDX-License-Identifier: MIT
#pragma once
// A small game loop around the ReplanScheduler, shared by `rpgnav sim` and the scheduler
// benchmark: characters wander between random goals on a map with doors and moving entities
// (the characters themselves), a door now and then changes state, and a character stopped in
// front of a closed door has it opened after a while (as a game would after a kick, a key or a
// spell). Everything random comes from one seeded generator, so a run with an expansion budget
// is repeatable (a time budget depends on the machine's speed).

#include "rpgnav/field/crowd_field.hpp"
#include "rpgnav/schedule/replan_scheduler.hpp"

#include <cstdint>
#include <vector>

namespace rpgnav::sample {

struct SimulationOptions {
  int characters = 100;
  double seconds = 20.0;
  double fps = 60.0;
  std::uint32_t seed = 1;
  ReplanBudget budget = ReplanBudget::time(400.0);
  SchedulerSettings scheduler;
  float radius = 0.25f;       ///< Tiles.
  float speed = 3.0f;         ///< Tiles per second.
  float wanderMin = 8.0f;     ///< Goals are this far away or more (tiles, straight line)...
  float wanderMax = 60.0f;    ///< ...and at most this far, in the same connected region.
  double doorToggleEvery = 4.0;  ///< Seconds between random door state changes (0: never).
  double doorOpenDelay = 1.0;    ///< Seconds a character waits at a closed door before it opens.
  double giveUpAfter = 3.0;      ///< Seconds blocked by others before a character picks a new goal.
  /// Characters move with local avoidance (ReplanScheduler::move): they pass and make way for
  /// each other, and a path never ends in front of one. False: the old loop (follow(), each on
  /// its curve; paths stop in front of others), as it was.
  bool avoidance = true;
  AvoidanceSettings avoid;
  /// A character slower than this fraction of its speed for more than stuckAfter seconds, while
  /// not at its goal or a door, counts as stuck for the whole spell.
  double stuckSpeed = 0.1;
  double stuckAfter = 1.0;
  double trailEvery = 0.0;       ///< Seconds between trail points (0: no trails).
  /// The horde's field: a whole-map field that tracks the target (CrowdField::trackGoal, its
  /// exact refresh given each frame `fieldMicros` of wall time, or `fieldTiles` tile visits when
  /// that is 0), or a field bounded by the monsters (setFollowers: exact, built again over the
  /// area they cover at each goal step).
  enum class HordeField { tracked, bounded };
  HordeField hordeField = HordeField::tracked;
  double fieldMicros = 400.0;
  std::int64_t fieldTiles = 0;
};

struct SimulationReport {
  std::vector<double> frameMicros;  ///< ReplanScheduler::update() per frame.
  std::int64_t plans = 0, fullPlans = 0, kept = 0;
  std::int64_t newPaths = 0, doorStops = 0, blocked = 0, unreachable = 0;
  std::int64_t goalsReached = 0, doorsOpened = 0, doorToggles = 0, gaveUp = 0;
  double fullMicros = 0.0, alongMicros = 0.0, noticeMicros = 0.0;
  /// Mean seconds between two plans of a character (after the first plan of each).
  double meanInterval = 0.0;
  /// The longest a character waited between two plans (seconds).
  double longestInterval = 0.0;
  /// Plans begun more than the scheduler's interval after their turn came due
  /// (SchedulerStats::lateTurns), and the longest wait past a turn (seconds).
  std::int64_t lateTurns = 0;
  double longestLate = 0.0;
  std::vector<double> moveMicros;   ///< ReplanScheduler::move() per frame (with avoidance).
  double characterSeconds = 0.0;    ///< Characters × seconds simulated.
  double stuckSeconds = 0.0;        ///< Character-seconds stuck (see stuckSpeed).
  std::int64_t stuckSpells = 0;
  std::int64_t overlapPairFrames = 0;  ///< Pair-frames closer than the sum of their radii.
  std::int64_t overlapsOver5 = 0;      ///< ...of which by more than 5% of that sum.
  double worstOverlap = 0.0;           ///< The deepest, as a fraction of the sum of radii.
  std::int64_t yields = 0;             ///< Times a character began to make way for another.
  /// Where characters began to make way (step aside, back off) and to wait their turn at a
  /// passage, when trailEvery > 0 (for pictures).
  std::vector<Vec2> madeWay, waited;
  std::int64_t goalsTaken = 0;         ///< Goals found held by another character (new goal picked).
  std::vector<std::vector<Vec2>> trails;  ///< Per character, when trailEvery > 0.
  std::uint64_t digest = 0;  ///< Hash of every event and final position (repeatability).
};

/// Runs the loop on `world` (its doors change; the characters are added to its EntityRegistry
/// as moving entities with ids after the largest there). InvalidArgument when the map has too
/// few open tiles for the characters or the options are out of range.
Result<SimulationReport> runSimulation(World& world, const SimulationOptions& options);

/// The horde: `characters` monsters chase one target across the map with a shared crowd field
/// (CrowdField + FieldFollower) bounded by the monsters (setFollowers each frame): the target
/// wanders (a step to a random open neighbour tile, `speed` tiles per second), the field follows
/// it (moveGoal), and every `doorToggleEvery` seconds a random open tile is walled up for a while
/// (setCost), then cleared.
struct HordeReport {
  std::vector<double> fieldMicros;   ///< Field updates per frame (goal steps, walls, the monsters' tiles).
  std::vector<double> goalStepMicros;  ///< Each goal step (trackGoal, or moveGoal when bounded) alone.
  std::vector<double> moveMicros;    ///< Moving every monster per frame (flow lookups included).
  std::int64_t goalSteps = 0, wallsRaised = 0, wallsCleared = 0;
  std::int64_t caught = 0;   ///< Monster-frames within one tile of the target.
  std::int64_t refreshes = 0;  ///< Exact refreshes a tracked field landed.
  double buildMicros = 0.0;  ///< The first build, over the whole map.
  double fullRebuildMicros = 0.0;  ///< A rebuild over the whole map at the end (warm).
  std::vector<std::vector<Vec2>> trails;
  std::uint64_t digest = 0;
};
Result<HordeReport> runHorde(const TileMap& map, const SimulationOptions& options);

/// Median, 99th percentile and maximum of a sample (sorted copy).
struct Spread {
  double median = 0.0, p99 = 0.0, max = 0.0;
};
Spread spreadOf(std::vector<double> values);

}  // namespace rpgnav::sample
