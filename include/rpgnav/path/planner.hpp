// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// Planner: runs the character pipeline for one query at a time.

#include "rpgnav/core/export.hpp"
#include "rpgnav/nav/nav_data.hpp"
#include "rpgnav/path/path.hpp"
#include "rpgnav/path/stages.hpp"
#include "rpgnav/search/search_context.hpp"
#include "rpgnav/world/world.hpp"

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rpgnav {
namespace detail {
class QueryDoors;
}

/// Every stage's settings, and which stages run. The search (stage 2) always runs when the
/// straight line does not suffice.
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
  /// Stage 2 as an any-angle search (Theta*, see SearchRequest::sightLines) instead of 8-way
  /// A* with jump points. The stages after the search pull the route tight round the obstacles
  /// it passes but never move it to an obstacle's other side; the 8-way metric sometimes picks
  /// the wrong side (it overrates some directions by up to 8%), Theta* almost never does. The
  /// price: searches one to two orders of magnitude slower (see the README's figures). For
  /// paths that must look right (the player's character, cut scenes) rather than for crowds.
  /// Hex characters as wide as half a hex edge or wider always get the tile search (see
  /// SearchRequest::radius); characters of half a tile or more always get the tile search that
  /// fits their bodies (SearchRequest::clearance).
  bool anyAngleSearch = false;
  /// Indexed by PathStage; a disabled stage passes the path on unchanged (disabling control
  /// points gives plain tile centres).
  std::array<bool, kPathStageCount> enabled{true, true, true, true, true, true, true, true};
  /// Keep a copy of the control points after every stage in PathResult::stagePoints, and
  /// measure the path's cost after each (PathResult::stageCosts, PathResult::searchCost): for
  /// pictures, debugging and checking the cost invariant. Costs a probe per segment per stage.
  bool recordStages = false;
  bool enabledStage(PathStage stage) const noexcept { return enabled[std::size_t(stage)]; }
};

/// Plans paths on one map and its world (doors, entities, the game's hooks): the thin composition
/// of the world's shared navigation data (NavData: search grids, line bitmaps, corners, per
/// mobility and size class) and this planner's own scratch memory (the search's, every stage's:
/// StageScratch), so that a warm query allocates nothing.
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
/// reports (see detourStage).
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
  Planner(Planner&&) noexcept;
  Planner& operator=(Planner&&) noexcept;

  /// Plans a path; the status is also in out.status. Bad input gets InvalidArgument (NaN, radius
  /// out of range, unknown mobility, shared data not prepared for the mobility and size, or for
  /// the request filter's terrain costs, or costs the data cannot be built with),
  /// OutOfBounds (a point off the map), StartBlocked / GoalBlocked (in a forbidden tile, closer
  /// than the radius to a blocked one, or, for a wide body, no tile centre beside the point that
  /// fits it: "too wide") or NoPath ("no route is wide enough for the character" when only the
  /// body's width stands in the way).
  /// Successes: Ok, StoppedAtDoor, BlockedByEntity (see PathResult).
  Status plan(const PathRequest& request, PathResult& out);

  /// plan() in slices, for frame budgets: the search (stage 2) expands at most `maxExpansions`
  /// nodes in this call (0: no limit). Returns InProgress when the search ran out: call
  /// continuePlan with the same `out` (in later frames) until another status comes. Only one
  /// plan is in progress per planner: plan(), beginPlan() and replanAlong() abandon it. The
  /// request's `ignore` list is copied. If the map's tiles change, doors are added, or a door the
  /// search has already met changes state in between, the plan starts again; other doors may
  /// change freely (the policy is asked about a door when the search first meets it).
  Status beginPlan(const PathRequest& request, PathResult& out, std::int64_t maxExpansions);
  /// Continues the plan in progress with a fresh budget (0: no limit); InvalidArgument when none
  /// is in progress.
  Status continuePlan(PathResult& out, std::int64_t maxExpansions);
  /// True while a plan waits for continuePlan.
  bool planInProgress() const noexcept { return m_pending.active; }
  /// Forgets the plan in progress.
  void cancelPlan() noexcept { m_pending.active = false; }

  /// Plans again along an earlier plan's route (stages 7 and 8 only): for a character that has
  /// walked part of `previous` (a successful plan to the same goal) while entities moved and the
  /// map and doors stayed as they were. The route is taken from the point of previous.route
  /// nearest to request.start onwards, joined to request.start; detours round the entities where
  /// they are now and a new curve follow. NoPath when a piece of it is no longer clear (plan
  /// afresh then); the door stop of `previous` is kept. Costs a few microseconds where plan()
  /// costs a search. `previous` and `out` must be different objects.
  Status replanAlong(const PathRequest& request, const PathResult& previous, PathResult& out);

  const PlannerSettings& settings() const noexcept { return m_settings; }
  PlannerSettings& settings() noexcept { return m_settings; }
  const World& world() const noexcept { return *m_world; }
  /// The navigation data the planner reads (its own, or the shared one it was made with).
  const NavData& navData() const noexcept { return *m_data; }
  /// The planner's own data (made by the world and map constructors), to refresh its landmarks
  /// after edits (NavData::refreshLandmarks) between plans; nullptr on shared data.
  NavData* ownNavData() noexcept { return m_ownData.get(); }

 private:
  // The layer for a request (preparing and updating the planner's own data); nullptr with the
  // failure in `out`.
  const NavLayer* layerFor(MobilityId mobility, float radius, std::span<const TerrainCost> costs, PathResult& out);
  // The entities the request ignores: its own list and its filter's (merged into m_ignored when
  // both have some).
  std::span<const EntityId> ignored(const PathRequest& request);
  Status fail(PathResult& out, Status status, std::string_view reason);
  // The checks and set-up every plan starts with; nullptr (out holds the failure) or the layer.
  const NavLayer* prepare(const PathRequest& request, PathResult& out);
  // Stage 2 (one slice) and everything after it.
  Status searchAndFinish(std::int64_t maxExpansions, bool resume, PathResult& out);
  // With PlannerSettings::recordStages: the control points after a stage (and their cost).
  void record(PathResult& out, PathStage stage) const;
  void record(PathResult& out, PathStage stage, const StageContext& context) const;
  // The stages' context for a request (its comfort resolved against the settings).
  StageContext stageContext(const PathRequest& request, const NavLayer& data);
  // Stages 3-6 on the search's tile path, from start to goal (the goal may be a door's approach
  // point), with comfort and, where comfort would cost terrain (see the README), without;
  // returns the cost of the result, infinity when no polyline keeps the radius.
  double refine(const StageContext& context, const PathRequest& request, Vec2 goal, PathResult& out);
  // Stages 3-6 once, into `points` (recorded in `out` when `record`); the cost and length of the
  // result, nothing when a segment does not keep the radius.
  std::optional<std::pair<double, double>> refineOnce(const StageContext& context, const PathRequest& request, Vec2 goal,
                                                      std::vector<Vec2>& points, bool records, PathResult& out);
  // Stage 7 and the final measurements and status.
  Status finish(const StageContext& context, const PathRequest& request, PathResult& out);

  std::unique_ptr<World> m_ownWorld;  // for the bare-map constructor
  const World* m_world;
  std::unique_ptr<NavData> m_ownData;  // for the world and map constructors
  const NavData* m_data;
  PlannerSettings m_settings;
  SearchContext m_search;
  // The query's map for every terrain question: the world's, or its filter's layer's (see
  // NavLayer::map); and a wide body's clearance on it.
  const TileMap* m_map = nullptr;
  const Clearance* m_clearance = nullptr;
  std::vector<EntityId> m_ignored;  // see ignored()
  SearchResult m_searchResult;
  std::unique_ptr<detail::QueryDoors> m_doors;
  std::vector<Barrier> m_barriers;
  std::vector<Barrier> m_finalBarriers;  // the doors near the path after detours (stages 7-8)
  std::chrono::steady_clock::time_point m_lap;  // where the next stage's time begins (see StageTimer)
  std::vector<Vec2> m_roundStart;  // refine's copy of the points before a corner round (reused)
  std::vector<Vec2> m_tautPoints;  // refine's path without comfort, when it needs one (reused)
  StageScratch m_scratch;  // every stage's buffers
  SegmentProbe m_straight;  // stage 1's probe of the straight segment (clear = false when none)
  // Where the character stands when a door was closed on it (see beginPlan); the plan runs from
  // its tile's centre and the path begins with the step back there.
  std::optional<Vec2> m_escapeFrom;
  // The plan in progress (beginPlan / continuePlan).
  struct Pending {
    bool active = false;
    PathRequest request;           // as planned (from the tile centre when escaping a door)
    Vec2 askedStart = Vec2::Zero();  // as asked
    Cell startTile, goalTile;      // where the search begins and ends (see entryTile)
    std::vector<EntityId> ignore;  // request.ignore points here
    const NavLayer* data = nullptr;
    std::uint64_t mapVersion = 0;  // the tiles' (TileMap::version)
    std::uint64_t doorLayoutVersion = 0;
  };
  Pending m_pending;
  // The tile a path begins or ends on: the one the point lies in for a narrow character; for a
  // wide one (half a tile or more) the first of that tile and those touching it whose centre
  // fits the body and is reached from the point by a segment that keeps the radius. `clear`:
  // found; `roomy`: the point itself keeps the radius (so a failure means only that no tile
  // centre beside it fits the body).
  struct EntryTile {
    Cell tile;
    bool clear = false;
    bool roomy = false;
  };
  EntryTile entryTile(Vec2 point, Cell own, const PathRequest& request) const;
  EntryTile m_entry, m_exit;  // of the plan being prepared
  // Where a wide body stops in front of a door that stops it: the last point of the search's
  // centre polyline (`start`, then the centres of `tiles`) at least `keep` (radius and gap) from
  // the door. `tiles` is cut after the last tile whose centre keeps that much (the stop may lie
  // on the step beyond it, short of the next centre: stage 3 runs from that centre to the stop).
  Vec2 wideDoorStop(const Door& door, float keep, Vec2 start, std::vector<Cell>& tiles) const;
  // A wide body held by a door closed on it: the tile within ceil(radius) + 1 steps whose centre
  // is nearest the start, fits the body, keeps the radius from the doors that are walls, and is
  // reached from the start by a segment that keeps the radius from tiles and crosses no such door.
  std::optional<Cell> wideEscapeTile(const PathRequest& request);
};

}  // namespace rpgnav
