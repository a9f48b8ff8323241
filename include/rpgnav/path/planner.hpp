// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// Planner: runs the character pipeline for one query at a time.

#include "rpgnav/core/export.hpp"
#include "rpgnav/nav/nav_data.hpp"
#include "rpgnav/path/path.hpp"
#include "rpgnav/path/stage_settings.hpp"
#include "rpgnav/world/world.hpp"

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string_view>

namespace rpgnav {

/// How much of a plan one call of Planner::beginPlan, continuePlan or replanAlong may do, for
/// frame budgets.
struct PlanSlice {
  /// Node expansions the search (stage 2) may make in this call (0: no limit).
  std::int64_t maxExpansions = 0;
  /// When the call should return. The stages after the search run one at a time (stage 6 with
  /// its corner rounds counts as one; stage 7 a segment of the path at a time, stage 8 a span of
  /// its curve); before each, the planner compares the time left with what it has measured that
  /// stage (or one segment of stage 7) to cost on it (mean + 2 sigma of its recent runs) and
  /// returns InProgress when it would not end in time, to go on in continuePlan. A call still
  /// runs one step when it has done nothing else yet, so that every call makes progress: a call
  /// overshoots its deadline by at most one step (or one search slice that took longer than
  /// guessed). The default: no deadline.
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};

/// Which search stage 2 of the pipeline runs (PlannerSettings::search). Whatever the mode,
/// characters of half a tile or more always get the tile search that fits their bodies (see the
/// README, "Large characters").
enum class SearchMode : std::uint8_t {
  /// The tile search everywhere: A* from tile to tile (8-way with jump points on square maps,
  /// hex A* on hex maps). The cheapest plans, for crowds on big open maps. The stages after the
  /// search pull the route tight round the obstacles it passes but never move it to an
  /// obstacle's other side, and the 8-way metric sometimes picks the wrong side (it overrates
  /// some directions by up to 8%).
  Tiles,
  /// An any-angle search (Theta*: straight segments between tiles that see each other) instead
  /// of the tile search; it almost never picks an obstacle's wrong side. The price: searches one
  /// to two orders of magnitude slower, since it expands every neighbour (no jump points) and
  /// probes a segment on most relaxations. For paths that must look right (the player's
  /// character, cut scenes) rather than for crowds. Hex characters as wide as half a hex edge or
  /// wider get the tile search (whose grid closes gaps one hex edge wide).
  AnyAngle,
  /// The exact any-angle search (Anya: intervals of tile corners seen from the last turning
  /// point), the default where it applies: 8-way square maps where every tile the mobility may
  /// enter costs the same, no doors, characters narrower than half a tile; elsewhere the tile
  /// search runs, as with Tiles. It finds the shortest route in straight lines, so it always
  /// passes each obstacle on the shorter side, which the 8-way metric misses on a few queries in
  /// a hundred on open maps (the stages after it then pull taut a route up to several percent
  /// longer). With a radius and comfort of 0 the route is the path; otherwise its corners are
  /// moved out by them (or, where that does not keep the radius, the stages start from its
  /// tiles, on its side of every obstacle). The price: searches several times the 8-way
  /// search's, and more in mazes (a node has a successor for every run of free tiles its rays
  /// cross, and there the walls cut the rows into many), so more of a scheduler's budget per
  /// plan.
  ExactAnyAngle,
};

/// "tiles", "any_angle", "exact_any_angle" ("unknown" for a number that is no mode).
RPGNAV_API std::string_view toString(SearchMode mode) noexcept;

/// Every stage's settings, and which stages run. The search (stage 2) always runs when the
/// straight line does not suffice. A map's designer settings (World::designSettings, its
/// `[settings]`) take the place of comfort, smoothing.maxDeviation and detours.margin where
/// they set a value; clear them (World::setDesignSettings({})) to have these win.
struct PlannerSettings {
  StraightLineSettings straightLine;
  ControlPointSettings controlPoints;
  StraightenSettings straighten;
  CornerRoutingSettings cornerRouting;
  DetourSettings detours;
  SmoothingSettings smoothing;
  /// A path that stops at a door ends this far beyond the character's radius from the door's
  /// edge (at most at the tile's centre; a wide body, half a tile or more, stops on its search's
  /// centre polyline where it is that far). [Units: tiles] [Limit: >= 0]
  float doorApproachGap = 0.1f;
  /// Comfort for requests that do not set PathRequest::comfort: how much further than the radius
  /// paths keep from walls where there is room (see PathRequest::comfort). A quarter tile looks
  /// natural in the sample maps: bends clear a corner by a visible gap, a character crosses a
  /// two-tile bridge well inside its railings, and a one-tile door is still passed down its
  /// middle. 0 gives paths pulled taut at the radius. [Units: tiles] [Limit: finite, >= 0]
  float comfort = 0.25f;
  /// Which search stage 2 runs (see SearchMode).
  SearchMode search = SearchMode::ExactAnyAngle;
  /// Indexed by PathStage; a disabled stage passes the path on unchanged (disabling control
  /// points gives plain tile centres).
  std::array<bool, kPathStageCount> enabled{true, true, true, true, true, true, true, true};
  /// Keep a copy of the control points after every stage in PlanDiagnostics::stagePoints, and
  /// measure the path's cost after each (PlanDiagnostics::stageCosts, searchCost): for
  /// pictures, debugging and checking the cost invariant. Costs a probe per segment per stage.
  bool recordStages = false;
  bool enabledStage(PathStage stage) const noexcept { return enabled[std::size_t(stage)]; }
};

/// The settings a plan on a world runs with: `settings` with the world's designer settings
/// (World::designSettings) in place of comfort, smoothing.maxDeviation and detours.margin where
/// they set a value. Taken once per plan, when it begins.
RPGNAV_API PlannerSettings designedSettings(PlannerSettings settings, const DesignSettings& design) noexcept;

/// Plans paths on one map and its world (doors, entities, the game's hooks): the thin composition
/// of the world's shared navigation data (NavData: search grids, line bitmaps, corners, per
/// mobility and size class) and this planner's own scratch memory (the search's, every stage's),
/// so that a warm query allocates nothing.
///
/// Two ways to make one. On shared data, `Planner(navData)`: one per thread, any number on one
/// NavData, which the game keeps up to date between frames (NavData::update) and prepares for
/// the mobilities and sizes it plans for; a planner on data older than the map refuses to plan
/// (InvalidArgument) rather than read it half-edited. Or on a world alone, `Planner(world)`:
/// the planner owns its NavData, prepares each mobility on first use and updates it itself at
/// the start of a plan after edits (one thread; several such planners each hold a copy).
///
/// Doors: the search asks the door policy (the request's QueryFilter's, else the world's) about
/// each door it reaches (once per door and query): Pass plans through at the policy's cost, Avoid
/// makes the door a wall, Stop plans through but the path ends in front of the door (status
/// StoppedAtDoor; the door listener is told once per such plan, on this planner's thread, unless
/// PathRequest::tellDoorListener is off). Doors not passed are walls for every stage's line of
/// sight. Terrain: the table's costs, or the request's filter's (see QueryFilter).
/// Entities: stage 7 leads the path round the personal spaces of the entities the world's source
/// reports (see DetourSettings).
///
/// Thread-safety: one Planner per thread (it owns scratch memory); several planners may read one
/// world and one NavData at once while nobody edits them.
class RPGNAV_API Planner {
 public:
  /// On shared navigation data (kept by reference: it must outlive the planner).
  explicit Planner(const NavData& data, PlannerSettings settings = {});
  /// On a world, with navigation data of its own made with `data`.
  explicit Planner(const World& world, PlannerSettings settings = {}, NavDataSettings data = {});
  /// A planner for a bare map: no doors, no entities.
  explicit Planner(const TileMap& map, PlannerSettings settings = {}, NavDataSettings data = {});
  ~Planner();
  /// Movable; a moved-from planner may only be destroyed, assigned to, or asked
  /// planInProgress() (false) and cancelPlan().
  Planner(Planner&&) noexcept;
  Planner& operator=(Planner&&) noexcept;

  /// Plans a path; the status is also in out.status. Bad input gets InvalidArgument (NaN, radius
  /// out of range, unknown mobility, shared data not prepared for the mobility and size, or for
  /// the request filter's terrain costs, or costs the data cannot be built with),
  /// OutOfBounds (a point off the map), StartBlocked / GoalBlocked (in a forbidden tile, a goal
  /// closer than the radius to a blocked one, or, for a wide body, no tile centre beside the point
  /// that fits it: "too wide"; a start closer than the radius to a wall steps out to such a
  /// centre first, see the README's pipeline) or NoPath ("no route is wide enough for the
  /// character" when only the body's width stands in the way).
  /// Successes: Ok, StoppedAtDoor, BlockedByEntity (see PathResult).
  Status plan(const PathRequest& request, PathResult& out);

  /// plan() in slices, for frame budgets: the search (stage 2) expands at most
  /// `slice.maxExpansions` nodes in this call, and the stages after it stop between two steps
  /// at `slice.deadline` (see PlanSlice). Returns InProgress when the plan is not done: call
  /// continuePlan with the same `out` (in later frames) until another status comes; the result
  /// is then the one plan() gives, bit for bit, when the world stayed as it was. Only one plan is
  /// in progress per planner: plan(), beginPlan() and replanAlong() abandon it. The request's
  /// `ignore` list is copied. If the map's tiles change, doors are added, or a door the search
  /// has already met changes state while the search runs, the plan starts again; other doors may
  /// change freely then (the policy is asked about a door when the search first meets it). Once
  /// the search is done, any change of the tiles or doors (World::mapVersion,
  /// doorLayoutVersion) starts the plan again: the stages after it work on the world as it was.
  Status beginPlan(const PathRequest& request, PathResult& out, PlanSlice slice);
  /// beginPlan with only an expansion limit (0: none).
  Status beginPlan(const PathRequest& request, PathResult& out, std::int64_t maxExpansions) {
    return beginPlan(request, out, PlanSlice{maxExpansions});
  }
  /// Continues the plan in progress with a fresh slice; InvalidArgument when none is in
  /// progress.
  Status continuePlan(PathResult& out, PlanSlice slice);
  Status continuePlan(PathResult& out, std::int64_t maxExpansions) { return continuePlan(out, PlanSlice{maxExpansions}); }
  /// True while a plan waits for continuePlan.
  bool planInProgress() const noexcept;
  /// Forgets the plan in progress.
  void cancelPlan() noexcept;

  /// Plans again along an earlier plan's route (stages 7 and 8 only): for a character that has
  /// walked part of `previous` (a successful plan to the same goal) while entities moved and the
  /// map and doors stayed as they were. The route is taken from the point of previous.route
  /// nearest to request.start onwards, joined to request.start; detours round the entities where
  /// they are now and a new curve follow. NoPath when a piece of it is no longer clear (plan
  /// afresh then); the door stop of `previous` is kept. Costs a few microseconds where plan()
  /// costs a search. `previous` and `out` must be different objects.
  Status replanAlong(const PathRequest& request, const PathResult& previous, PathResult& out) {
    return replanAlong(request, previous, out, PlanSlice{});
  }
  /// replanAlong in slices: stages 7 and 8 stop at `slice.deadline` as beginPlan's do; InProgress
  /// then, and continuePlan goes on (`previous` is not read after this call). A change of the
  /// tiles or doors in between ends it with NoPath (plan afresh).
  Status replanAlong(const PathRequest& request, const PathResult& previous, PathResult& out, PlanSlice slice);

  /// What the plan under way, or the last plan, did stage by stage (its slices together); the
  /// next plan, replanAlong or validation failure starts it afresh.
  const PlanDiagnostics& diagnostics() const noexcept;

  const PlannerSettings& settings() const noexcept;
  PlannerSettings& settings() noexcept;
  const World& world() const noexcept;
  /// The navigation data the planner reads (its own, or the shared one it was made with).
  const NavData& navData() const noexcept;
  /// The planner's own data (made by the world and map constructors), to refresh its landmarks
  /// after edits (NavData::refreshLandmarks) between plans; nullptr on shared data.
  NavData* ownNavData() noexcept;

 private:
  // Its state and scratch memory, and the stages' plumbing (lib/path/planner.cpp): kept out of
  // this header so that it shows only what a game calls.
  class RPGNAV_HIDDEN Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace rpgnav
