// SPDX-License-Identifier: MIT
// Private to lib/path: the planner's implementation class, whose members live in planner.cpp (a
// plan's request, layer and search), plan_entry.cpp (wide bodies' entry and door stops) and
// plan_tail.cpp (the stages after the search, in slices).
#pragma once

#include "rpgnav/path/planner.hpp"

#include "path/legs.hpp"
#include "path/query_doors.hpp"
#include "path/stages.hpp"
#include "nav/nav_layer.hpp"
#include "search/search_context.hpp"
#include "core/running_estimate.hpp"
#include "rpgnav/grid/line_of_sight.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace rpgnav {

namespace detail {

// Times one stage into its stats with one clock read: a stage begins where the previous one
// ended (`lap`, set when a plan, a resumed search or a replan begins), so the few steps between
// two stages count to the later one and the stages' times add up to the plan's. steady_clock:
// monotonic and the same on every platform (a read costs about 20 ns, once per stage).
class StageTimer {
 public:
  StageTimer(StageStats& stats, std::chrono::steady_clock::time_point& lap) : m_stats(stats), m_lap(lap) {}
  ~StageTimer() {
    const auto now = std::chrono::steady_clock::now();
    m_stats.micros += std::chrono::duration<double, std::micro>(now - m_lap).count();
    m_lap = now;
  }
  StageTimer(const StageTimer&) = delete;
  StageTimer& operator=(const StageTimer&) = delete;

 private:
  StageStats& m_stats;
  std::chrono::steady_clock::time_point& m_lap;
};

// A wide body's radius in tiles, as the search and the entry tiles fit it. The radius and the tile
// size are floats: their quotient is off by up to 1.2·10⁻⁷ of itself either way, so a body meant
// to be exactly as wide as a clearance (1.75 tiles of 0.7) could come out a hair wider and fit
// nowhere such a clearance is. A body 4·10⁻⁷ of its radius narrower fits there; the probes,
// which keep the radius less 5·10⁻⁷ × at least the radius (detail::wideTolerance), agree.
inline double bodyTilesOf(float radius, const Layout& layout) {
  return double(radius) / double(layout.tileSize()) * (1.0 - 4e-7);
}

// replanAlong's answer when the earlier route is blocked now.
inline constexpr const char* kRouteGone = "the earlier route is no longer clear from here";

}  // namespace detail

class RPGNAV_HIDDEN Planner::Impl {
 public:
  Impl(const NavData& data, PlannerSettings settings);
  Impl(const World& world, PlannerSettings settings, NavDataSettings data);
  Impl(const TileMap& map, PlannerSettings settings, NavDataSettings data);

  Status plan(const PathRequest& request, PathResult& out);

  Status beginPlan(const PathRequest& request, PathResult& out, const PlanSlice& slice);
  Status continuePlan(PathResult& out, const PlanSlice& slice);
  bool planInProgress() const noexcept { return m_pending.active || m_tail.active; }
  void cancelPlan() noexcept {
    m_pending.active = false;
    m_tail.active = false;
  }

  Status replanAlong(const PathRequest& request, const PathResult& previous, PathResult& out, const PlanSlice& slice);

  const PlannerSettings& settings() const noexcept { return m_settings; }
  PlannerSettings& settings() noexcept { return m_settings; }
  const World& world() const noexcept { return *m_world; }
  const NavData& navData() const noexcept { return *m_data; }
  NavData* ownNavData() noexcept { return m_ownData.get(); }

  const PlanDiagnostics& diagnostics() const noexcept { return m_diagnostics; }

 private:
  // The layer for a request (preparing and updating the planner's own data); nullptr with the
  // failure in `out`.
  const NavLayer* layerFor(MobilityId mobility, float radius, std::span<const TerrainCost> costs, std::uint8_t dangerFactor,
                           PathResult& out);
  Status fail(PathResult& out, Status status, std::string_view reason);
  // The checks and set-up every plan starts with; nullptr (out holds the failure) or the layer.
  const NavLayer* prepare(const PathRequest& request, PathResult& out);
  // Stage 2 (one slice) and, once it is done, the stages after it (runTail).
  Status searchAndFinish(const PlanSlice& slice, bool resume, PathResult& out);
  // Keeps the request (with its own copy of the ignore list) for the calls to come.
  void keepRequest(const PathRequest& request, Vec2 askedStart);
  // Whether the exact any-angle search may run on this world's map (the settings, the layout, no
  // doors), and whether it is stage 2 for a narrow character on `grid` (see
  // SearchMode::ExactAnyAngle).
  bool exactSearchMayRun() const noexcept;
  bool exactSearchOn(const SearchGrid& grid) const noexcept;
  // The search's memory made now, for the walking layer when the data has it: the exact search's
  // when that is what runs there, else the tile search's.
  void reserveSearch();
  // With PlannerSettings::recordStages: the control points after a stage (and their cost).
  void record(const PathResult& out, PathStage stage);
  void record(const PathResult& out, PathStage stage, const StageContext& context);
  // The stages' context for a request (its comfort resolved against the settings).
  StageContext stageContext(const PathRequest& request, const NavLayer& data);
  // What the designer tunes (comfort, smoothing, detour margin), taken from the world once per
  // plan, when it begins (prepare), so that a plan run in slices keeps one set of values:
  // designedSettings(m_settings, the world's DesignSettings). A request's comfort wins over it.
  PlannerSettings m_plan;
  // The stages after the search, one step (one stage) at a time, so that a plan with a deadline
  // stops between two and goes on in the next call (see PlanSlice). Stages 3-6 run on the
  // search's tile path, from start to goal (the goal may be a door's approach point), with
  // comfort and, where comfort would cost terrain (see the README), a second time without
  // ("runs"); then stages 7 and 8 and the final measurements and status. A plan along the route
  // and one that stage 1 answered start at stage 7.
  using RunResult = std::optional<std::pair<double, double>>;  // a run's cost and length; none: no polyline keeps the radius
  struct Tail {
    enum class Run : std::uint8_t { Comfortable, Taut, Recorded };
    bool active = false;
    bool along = false;  // a plan along the route (a changed world ends it, see continuePlan)
    std::size_t probeFrom = 0;  // a plan along a route in a world changed since: its next segment to probe (0: none)
    PathStage stage = PathStage::ControlPoints;  // the next step
    Run run = Run::Comfortable;  // stages 3-6: the comfortable run, the taut one, the taut one recorded
    std::optional<StageContext> context;  // as the plan began its stages (comfort as asked)
    std::optional<StageContext> taut;     // the same without comfort
    std::optional<StageContext> after;    // stages 7 and 8 (doors beyond the route's)
    Vec2 goal = Vec2::Zero();             // where stages 3-6 end
    std::pair<double, double> comfortable{};  // the comfortable run's cost and length
    double tautCost = 0.0;
    bool straightCheaper = false;  // stage 1's clear segment costs no more than the comfortable run
    std::array<StageStats, kPathStageCount> counted{};  // the stages' records before the taut run
    DetourOutcome outcome;
    DetourProgress detours;       // stage 7 goes on from here
    SmoothingProgress smoothing;  // stage 8 goes on from here
    std::uint64_t mapVersion = 0, doorLayoutVersion = 0;  // the world the stages work on
  };
  // (`probeFrom`: see Tail.)
  Status startTail(const StageContext& context, Vec2 goal, PathStage first, bool along, const PlanSlice& slice,
                   PathResult& out, std::size_t probeFrom = 0);
  // Steps until the plan is done (its status) or the next step would not fit the deadline
  // (InProgress); `worked`: the call has made progress already (else one step runs regardless).
  Status runTail(const PlanSlice& slice, bool worked, PathResult& out);
  // One step (stage 8: up to the deadline, see smoothingStageUntil); the plan's status once it
  // is done.
  std::optional<Status> tailStep(PathResult& out, std::chrono::steady_clock::time_point deadline);
  // Stage `stage` (3-6) of a run into `points` (recorded in `out` when `records`); true when the
  // run is over (stage 6, or stage 3 taking the exact search's route whole), its result in `result`.
  bool refineStage(PathStage stage, const StageContext& context, const PathRequest& request, Vec2 goal,
                   std::vector<Vec2>& points, bool records, PathResult& out, RunResult& result);
  // What follows a run: the cost of stages 3-6's answer, or nothing when another run follows.
  std::optional<double> endRun(const RunResult& result, PathResult& out);
  // After stages 3-6: NoPath when nothing keeps the radius; the straight segment where it is
  // cheaper; then on to stage 7.
  std::optional<Status> afterRefine(double cost, PathResult& out);
  // Stage 7 up to the deadline (after a segment); true when it is done.
  bool detoursStep(PathResult& out, std::chrono::steady_clock::time_point deadline);
  std::optional<Status> smoothingStep(PathResult& out, std::chrono::steady_clock::time_point deadline);

  std::unique_ptr<World> m_ownWorld;  // for the bare-map constructor
  const World* m_world;
  std::unique_ptr<NavData> m_ownData;  // for the world and map constructors
  const NavData* m_data;
  PlannerSettings m_settings;
  SearchContext m_search;
  PlanDiagnostics m_diagnostics;  // of the plan under way or the last one (see Planner::diagnostics)
  // The query's map for every terrain question: the world's, or its filter's layer's (see
  // NavLayer::map); and a wide body's clearance on it.
  const TileMap* m_map = nullptr;
  const Clearance* m_clearance = nullptr;
  SearchResult m_searchResult;
  std::unique_ptr<detail::QueryDoors> m_doors;
  std::vector<Barrier> m_barriers;
  std::vector<Barrier> m_finalBarriers;  // the doors near the path after detours (stages 7-8)
  std::chrono::steady_clock::time_point m_lap;  // where the next stage's time begins (see StageTimer)
  std::vector<Vec2> m_roundStart;  // refine's copy of the points before a corner round (reused)
  std::vector<Vec2> m_tautPoints;  // the taut run's path, when it needs one (reused)
  Tail m_tail;
  // What each stage has cost on this planner per item it was given (learnt under deadlines):
  // what may still start.
  // (A microsecond per item to begin with: about what the stages cost on the sample maps.)
  std::array<detail::RunningEstimate, kPathStageCount> m_stageMicros = [] {
    std::array<detail::RunningEstimate, kPathStageCount> guesses;
    guesses.fill(detail::RunningEstimate(1.0));
    return guesses;
  }();
  StageScratch m_scratch;  // every stage's buffers
  SegmentProbe m_straight;  // stage 1's probe of the straight segment (clear = false when none)
  // Where the character stands when a door was closed on it (see beginPlan); the plan runs from
  // its tile's centre and the path begins with the step back there.
  std::optional<Vec2> m_escapeFrom;
  // The plan in progress (beginPlan / continuePlan): its request, and the search's state.
  struct Pending {
    bool active = false;  // the search is in progress
    PathRequest request;           // as planned (from the tile centre when escaping a door)
    Vec2 askedStart = Vec2::Zero();  // as asked
    Cell startTile, goalTile;      // where the search begins and ends (see entryTile)
    // PathRequest::goalFallback and the asked goal is no place to stand (refused by the checks
    // that would otherwise fail the plan): the path ends at a tile centre the search chooses.
    bool goalRefused = false;
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
  // centre beside it fits the body). `pressed` (starts only): the point is closer than the
  // radius to a blocked tile, or cannot reach a tile centre keeping it (a body pushed against a
  // wall by a crowd, a physics engine or the game): `tile` is the nearest of its own and the
  // touching tiles whose centre fits the body, and the path begins with the step out to it.
  struct EntryTile {
    Cell tile;
    bool clear = false;
    bool roomy = false;
    bool pressed = false;
  };
  EntryTile entryTile(Vec2 point, Cell own, const PathRequest& request) const;
  EntryTile stepOutTile(Vec2 point, Cell own, const PathRequest& request) const;
  EntryTile m_entry, m_exit;  // of the plan being prepared
  bool m_searchExact = false;  // the last search was the exact any-angle one
  bool m_goalRefused = false;  // see Pending::goalRefused (for the plan being begun)
  bool exactRouteOffCorners(const StageContext& context, Vec2 start, Vec2 goal, std::vector<Vec2>& points,
                            StageStats& stats, std::size_t tiles);
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
