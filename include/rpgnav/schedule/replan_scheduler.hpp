// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// ReplanScheduler: keeps the paths of many characters fresh at a flat, predictable cost per frame.
///
/// The game registers characters (id, mobility, radius, speed, goal) and calls update() once per
/// frame with the time and a budget. Each character is planned again about once per `interval`,
/// at its own phase (phases are spread evenly, so a thousand characters registered in one frame
/// do not all come due in the same later frame), and sooner when something makes its path stale:
/// its goal was changed or moved far, a door on its path changed state, the map's tiles under its
/// path changed, an entity stepped into the path ahead of it, or it has made little progress for a
/// while. Work stops when the budget is spent: a long search is suspended and continued in the
/// next frame (Planner::beginPlan / continuePlan), and the characters waiting longest go first,
/// so nobody starves. A character keeps walking its current path until a new one is accepted, and
/// a periodic replan replaces a still valid path only when the new one is cheaper by more than
/// `stickiness` (no flipping between two equal routes).
///
/// A periodic replan (or one for an entity on the path ahead) of a character whose goal is
/// unchanged and whose route no door or tile change has touched since its last full plan, made
/// less than `fullReplanInterval` ago, plans along the current route (Planner::replanAlong: new detours round the entities where they are
/// now, a new curve) instead of searching again: the search would find the same route. Anything
/// else runs the whole pipeline. Paths are led round entities only `detourHorizon` tiles ahead.
///
/// Results are events, read after update() in a deterministic order (and handed to an optional
/// listener at the end of update()). Batches: collectDue() hands the due plans of a frame to the
/// game's job system (one Planner per worker thread) and acceptJobs() takes the results back.
///
/// Thread-safety: a scheduler is used from one thread. It reads the World (map, doors, entities)
/// during update(), collectDue() and acceptJobs(); the game must not edit the world during these
/// calls, nor between collectDue() and the workers finishing. Determinism: with expansion budgets
/// (or none), the same calls with the same times give the same paths and events.

#include "rpgnav/core/export.hpp"
#include "rpgnav/core/limits.hpp"
#include "rpgnav/avoid/local_avoidance.hpp"
#include "rpgnav/path/planner.hpp"
#include "rpgnav/world/world.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace rpgnav {

/// Where a character heads: a point, or an entity it follows (another registered character, or an
/// entity of the world's EntityRegistry) wherever it goes.
struct Goal {
  Vec2 point = Vec2(0.0f, 0.0f);
  EntityId follow{0};  ///< Non-zero: follow this entity; `point` is ignored.
  static Goal at(Vec2 point) { return Goal{point, EntityId{0}}; }
  static Goal following(EntityId entity) { return Goal{Vec2(0.0f, 0.0f), entity}; }
};

/// A character as registered.
struct CharacterSpec {
  EntityId id{0};  ///< Non-zero and unique in the scheduler; also the path's PathRequest::character.
  MobilityId mobility = MobilityId{0};
  float radius = 0.0f;  ///< World units, 0 <= radius <= 3 tiles (kMaxRadiusTiles).
  float speed = 1.0f;   ///< World units per second (> 0): move() and the "stuck" test use it.
  Vec2 position = Vec2(0.0f, 0.0f);
  Goal goal;
  AvoidanceSettings avoidance;  ///< How move() makes it avoid the others (priority and all).
  /// Its plans' QueryFilter (its own door policy, terrain costs, ignored entities; nullptr: the
  /// world's). Kept by pointer: it must outlive the character, and be left unchanged while it is
  /// registered (jobs handed out read it on worker threads). add() prepares the navigation data
  /// for its terrain costs. A followed entity is ignored besides the filter's.
  const QueryFilter* filter = nullptr;
  /// Its plans' PathRequest::dangerFactor (unset: the world's, World::dangerFactor, read at each
  /// plan; 0: danger ignored). add() prepares its data.
  std::optional<std::uint8_t> dangerFactor;
  /// Its plans' PathRequest::goalFallback: a goal it cannot stand on or reach (a click on water)
  /// leads to the nearest reachable tile's centre (event NewPath, status PartialPath) instead of
  /// GoalUnreachable.
  bool goalFallback = false;
};

/// What move() did with one character.
struct MoveStep {
  EntityId character{0};
  Vec2 position = Vec2::Zero();
  Vec2 velocity = Vec2::Zero();  ///< World units per second.
  /// Along its path: control points reached, `arrived` (once, the frame it gets there) and how
  /// the path ends; `heading` is the curve's.
  PathFollower::Step path;
  YieldKind yield = YieldKind::None;
  EntityId yieldingTo{0};
};

/// Why a character was planned.
enum class ReplanReason : std::uint8_t {
  First,             ///< Newly registered, or its path was lost.
  Periodic,          ///< Its turn came (about once per interval).
  GoalChanged,       ///< setGoal().
  GoalMoved,         ///< The entity it follows moved farther than goalMoveThreshold.
  DoorChanged,       ///< A door its path crosses or stops at changed state.
  MapChanged,        ///< Tiles under its path changed (the path is no longer clear).
  EntityInCorridor,  ///< A blocking entity stands on its path ahead.
  Stuck,             ///< It made little progress for stuckTime seconds.
};
RPGNAV_API std::string_view toString(ReplanReason reason) noexcept;

enum class ReplanEventKind : std::uint8_t {
  NewPath,          ///< A new path was accepted (status Ok, or PartialPath: see CharacterSpec::goalFallback).
  StoppedAtDoor,    ///< A new path was accepted that ends in front of a door (see `door`).
  BlockedByEntity,  ///< A new path was accepted that ends in front of an entity (see `blocker`).
  GoalUnreachable,  ///< Planning failed (see `status`): the character has no path now.
};
RPGNAV_API std::string_view toString(ReplanEventKind kind) noexcept;

struct ReplanEvent {
  EntityId character{0};
  ReplanEventKind kind = ReplanEventKind::NewPath;
  ReplanReason reason = ReplanReason::First;
  Status status = Status::Ok;  ///< The planner's status.
  DoorId door{0};
  EntityId blocker{0};
  double time = 0.0;  ///< The update's time.
};

/// Told about every event at the end of update() (and acceptJobs(), and collectDue() for what it
/// noticed), in the events() order, on the scheduler's thread (the one calling those), never
/// concurrently, never from a worker running a PlanJob. It may read the scheduler but not add,
/// remove or re-goal characters.
class RPGNAV_API ReplanListener {
 public:
  virtual ~ReplanListener() = default;
  virtual void onReplanEvent(const ReplanEvent& event) = 0;
};

/// Work allowed per update(): wall-clock microseconds, or search node expansions (deterministic:
/// each plan is charged its expansions plus SchedulerSettings::expansionsPerPlan). Both 0: no
/// limit (every due character is planned); a negative (or NaN) budget: the least work, one piece. Every update() does at least one piece of work (a
/// plan, or a slice of a suspended search), so a budget too small for anything still moves on.
/// Time budgets slice searches by a learnt cost per expansion and start no plan whose unsliced
/// part (learnt averages) no longer fits; a plan dearer than its average can still overrun.
struct ReplanBudget {
  double micros = 0.0;
  std::int64_t expansions = 0;
  static ReplanBudget time(double micros) { return {micros, 0}; }
  static ReplanBudget work(std::int64_t expansions) { return {0.0, expansions}; }
};

/// The code's settings of a scheduler. A map's designer settings (World::designSettings, its
/// `[settings]`) take the place of interval and stickiness where they set a value.
struct SchedulerSettings {
  /// Seconds between periodic replans of a character. [Limit: > 0]
  double interval = 1.0;
  /// A periodic replan replaces a still valid path only when its cost is lower than the rest of
  /// the current path's by more than this fraction. [Limit: >= 0]
  double stickiness = 0.1;
  /// A followed entity that moved farther than this from where the path leads triggers a
  /// replan. [Units: tiles]
  float goalMoveThreshold = 1.0f;
  /// Seconds between two checks of a character's path ahead for entities standing on it.
  double corridorCheckInterval = 0.5;
  /// How much of the path ahead that check looks at. [Units: tiles]
  float corridorLookahead = 3.0f;
  /// A character that moved less than stuckFraction × speed × stuckTime in stuckTime seconds
  /// while it had somewhere to go is stuck.
  double stuckTime = 2.0;
  double stuckFraction = 0.2;
  /// Periodic replans search afresh at least this often (seconds); in between, they plan along
  /// the current route (Planner::replanAlong) unless the goal changed or a door or tile on the
  /// route did (those search afresh at once). A door opened or a wall removed elsewhere, which
  /// might offer a shorter way, is seen within this time.
  double fullReplanInterval = 10.0;
  /// Expansion budgets: the work charged for each plan besides its search's expansions.
  std::int64_t expansionsPerPlan = 64;
  /// The planner's DetourSettings::horizon when the PlannerSettings given leave it 0: paths are
  /// led round entities only this far ahead, as the replans keep coming. [Units: tiles]
  float detourHorizon = 8.0f;
  /// move(): a character has arrived when its body is this close to the end of its path.
  /// [Units: tiles]
  float arriveDistance = 0.1f;
  /// move(): characters head for the point of their path this far ahead of where they are on it
  /// (at least their radius). [Units: tiles]
  float lead = 0.5f;
};

/// Counters of one update() (or acceptJobs()).
struct SchedulerStats {
  std::int32_t plans = 0;        ///< Plans finished (full and along the route).
  std::int32_t fullPlans = 0;    ///< ...of which ran the whole pipeline.
  std::int32_t accepted = 0;     ///< Plans whose path replaced the current one.
  std::int32_t kept = 0;         ///< Periodic plans not taken (stickiness).
  std::int32_t slices = 0;       ///< Search slices run (a plan may take several frames).
  std::int64_t expansions = 0;   ///< Search node expansions.
  std::int32_t triggers = 0;     ///< Characters moved to the front by a trigger.
  /// The cadence: plans begun in this call more than SchedulerSettings::interval after their
  /// turn came due (a trigger's: when it fired). Any at all mean the budget cannot keep every
  /// character planned about once an interval (the game may raise the budget, hand plans to
  /// jobs, lengthen the interval or use crowd fields); see also ReplanScheduler::lateTurns().
  std::int32_t lateTurns = 0;
  double longestWait = 0.0;      ///< The longest a plan begun in this call waited past its turn (seconds).
  double micros = 0.0;           ///< Wall time of the call.
  double noticeMicros = 0.0;     ///< ...of which noticing changes (triggers, corridor checks).
  double fullMicros = 0.0;       ///< ...of which in full plans (search slices included).
  double alongMicros = 0.0;      ///< ...of which in plans along the route.
};

/// One plan handed to a worker thread: run it with run(planner) on any thread with its own
/// Planner on the scheduler's navigation data, made with the scheduler's settings
/// (`Planner(scheduler.navData(), scheduler.planner().settings())`: the scheduler sets the detour
/// horizon; the data is shared, not copied), then give it back with acceptJobs().
struct RPGNAV_API PlanJob {
  EntityId character{0};
  PathRequest request;
  PathResult result;
  ReplanReason reason = ReplanReason::First;
  /// Non-null: plan along this earlier result (Planner::replanAlong); it lives in the scheduler
  /// and stays valid until the job is given back (a character removed meanwhile is kept alive
  /// for it).
  const PathResult* previous = nullptr;
  /// The entity the character follows (no obstacle on the way there); run() points
  /// request.ignore at it.
  EntityId followed{0};
  std::uint32_t generation = 0;  ///< Matches the character's queue state when handed out.
  std::int64_t expansions = 0;   ///< The search's expansions (set by run), for the scheduler's statistics.
  Status run(Planner& planner);
};

class RPGNAV_API ReplanScheduler {
 public:
  /// Keeps the world by reference: it must outlive the scheduler. The scheduler holds the world's
  /// navigation data (made with `data`) and keeps it up to date: update() and collectDue() apply
  /// the world's edits first (NavData::update).
  explicit ReplanScheduler(const World& world, PlannerSettings planner = {}, SchedulerSettings settings = {},
                           NavDataSettings data = {});
  /// On the game's navigation data, shared with its other planners (kept by reference). The
  /// scheduler prepares it for the characters it is given and brings it up to date at the start
  /// of update() and collectDue() (so those run where the game may edit: between frames).
  explicit ReplanScheduler(NavData& data, PlannerSettings planner = {}, SchedulerSettings settings = {});
  ~ReplanScheduler();
  ReplanScheduler(const ReplanScheduler&) = delete;
  ReplanScheduler& operator=(const ReplanScheduler&) = delete;

  /// InvalidArgument for id 0, an id already registered, a mobility the terrain table does not
  /// know, a radius out of [0, 3 tiles], a speed that is not positive, a non-finite point, or a
  /// filter whose terrain costs the data cannot be built with;
  /// LimitExceeded when kMaxCharacters (core/limits.hpp) are registered already. The character is planned at the
  /// first update (its phase is spread over the interval after).
  Status add(const CharacterSpec& character);
  /// InvalidArgument for an unknown id.
  Status remove(EntityId id);
  /// A new goal: the character is moved to the front. InvalidArgument for an unknown id, a
  /// non-finite point, or following itself.
  Status setGoal(EntityId id, const Goal& goal);
  /// The game moved the character (instead of follow()): the next plan starts where it stands
  /// (follow() would go on from its place on the current path). InvalidArgument for an unknown
  /// id or a non-finite point.
  Status setPosition(EntityId id, Vec2 position);
  /// Moves the character `distance` (world units; negative, NaN and infinite count as 0) along
  /// its current path and returns where it is and which way it faces (a zero step when it has no
  /// path or unknown id).
  PathFollower::Step follow(EntityId id, double distance);
  /// Moves every character for a frame of `dt` seconds with local avoidance (LocalAvoidance):
  /// each walks its path at its speed, passes the others, keeps off walls and closed doors, and
  /// makes way by the yield rule; a character at its goal stands (and steps back onto it when
  /// pushed off). Entities of the world that are not this scheduler's characters count as
  /// obstacles that do not move. A plan accepted later continues from where the character
  /// stands: it never jumps. Returns one step per character (valid until the next call; empty
  /// for a dt that is not positive and finite). Use either move() or follow() for a character:
  /// follow() puts it back on its curve. The game registers such characters in its entities with
  /// kEntityAvoiding (the scheduler does not), so that no path ends in front of one.
  std::span<const MoveStep> move(double dt);
  /// New avoidance settings for a character. InvalidArgument for an unknown id or settings out
  /// of their limits.
  Status setAvoidance(EntityId id, const AvoidanceSettings& settings);
  /// Wall time of the last move() (microseconds).
  double moveMicros() const noexcept;

  /// Once per frame: notices what changed, then plans due characters within the budget. A time
  /// that is not finite does nothing.
  void update(double now, ReplanBudget budget);
  /// The events of the last update() or acceptJobs().
  std::span<const ReplanEvent> events() const noexcept;
  const SchedulerStats& stats() const noexcept;
  /// SchedulerStats::lateTurns summed over every call since the scheduler was made.
  std::int64_t lateTurns() const noexcept;
  void setListener(ReplanListener* listener) noexcept;

  /// Batches: notices what changed (as update() does; events() then holds only what that found,
  /// e.g. followed entities that vanished), then moves up to `maxJobs` due characters' plans
  /// into `jobs` (cleared first). Characters with a job are not planned by update() until
  /// acceptJobs() gives the job back.
  void collectDue(double now, std::size_t maxJobs, std::vector<PlanJob>& jobs);
  /// Takes finished jobs back (stickiness, events), in the order given. A job of a character
  /// removed meanwhile is dropped. Every job handed out must come back here, or be cancelled.
  void acceptJobs(double now, std::span<PlanJob> jobs);
  /// Forgets every job still out (a frame dropped): their characters are planned again first.
  void cancelJobs();

  /// The character's current path (nullptr for an unknown id or none yet).
  const PathResult* path(EntityId id) const noexcept;
  /// Where the character is (its last follow() or setPosition()); NaN for an unknown id.
  Vec2 position(EntityId id) const noexcept;
  /// What the scheduler knows of a character's turns.
  struct CharacterInfo {
    bool known = false;
    std::int32_t plans = 0;          ///< Plans finished for it (kept or not).
    double lastPlanned = -1.0;       ///< Time of the last one (-1: none yet).
    bool queued = false;
    double nextTurn = 0.0;           ///< When it is due (its queue key) while queued.
    ReplanReason reason = ReplanReason::First;  ///< Why it is queued.
    /// Why its last plan was made (with `plans` and `lastPlanned`: what a replan that changed
    /// nothing worth an event still shows).
    ReplanReason lastReason = ReplanReason::First;
  };
  CharacterInfo info(EntityId id) const noexcept;
  std::size_t size() const noexcept;
  const SchedulerSettings& settings() const noexcept;
  Planner& planner() noexcept;
  const Planner& planner() const noexcept;
  /// The navigation data the scheduler's planner and its jobs' planners read.
  const NavData& navData() const noexcept;
  /// The same, to refresh its landmarks after edits (NavData::refreshLandmarks) between updates,
  /// while no job runs.
  NavData& navData() noexcept;

 private:
  // Everything else lives in lib/schedule (scheduler_impl.hpp).
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace rpgnav
