// SPDX-License-Identifier: MIT
#include "rpgnav/path/planner.hpp"

#include "path/legs.hpp"
#include "path/query_doors.hpp"
#include "path/stages.hpp"
#include "nav/nav_layer.hpp"
#include "search/search_context.hpp"
#include "rpgnav/core/running_estimate.hpp"
#include "rpgnav/grid/line_of_sight.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <utility>

namespace rpgnav {

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

 private:
  // The layer for a request (preparing and updating the planner's own data); nullptr with the
  // failure in `out`.
  const NavLayer* layerFor(MobilityId mobility, float radius, std::span<const TerrainCost> costs, std::uint8_t dangerFactor,
                           PathResult& out);
  // The entities the request ignores: its own list and its filter's (merged into m_ignored when
  // both have some).
  std::span<const EntityId> ignored(const PathRequest& request);
  Status fail(PathResult& out, Status status, std::string_view reason);
  // The checks and set-up every plan starts with; nullptr (out holds the failure) or the layer.
  const NavLayer* prepare(const PathRequest& request, PathResult& out);
  // Stage 2 (one slice) and, once it is done, the stages after it (runTail).
  Status searchAndFinish(const PlanSlice& slice, bool resume, PathResult& out);
  // Keeps the request (with its own copy of the ignore list) for the calls to come.
  void keepRequest(const PathRequest& request, Vec2 askedStart);
  // Whether the exact any-angle search may run on this world's map (the settings, the layout, no
  // doors), and whether it is stage 2 for a narrow character on `grid` (see
  // PlannerSettings::exactAnyAngle).
  bool exactSearchMayRun() const noexcept;
  bool exactSearchOn(const SearchGrid& grid) const noexcept;
  // The search's memory made now, for the walking layer when the data has it: the exact search's
  // when that is what runs there, else the tile search's.
  void reserveSearch();
  // With PlannerSettings::recordStages: the control points after a stage (and their cost).
  void record(PathResult& out, PathStage stage) const;
  void record(PathResult& out, PathStage stage, const StageContext& context) const;
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

namespace {

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


// With comfort a path's price per unit length (cost / length) may exceed that of the path without
// comfort by this share (see refine): enough for a bend pushed off a corner onto a sliver of the
// neighbouring terrain, never a way over dearer ground.
constexpr double kComfortTerrainShare = 0.01;
// replanAlong's answer when the earlier route is blocked now.
constexpr const char* kRouteGone = "the earlier route is no longer clear from here";

}  // namespace

Planner::Impl::Impl(const NavData& data, PlannerSettings settings)
    : m_world(&data.world()),
      m_data(&data),
      m_settings(settings),
      m_search(SearchContext::Scratch::None),
      m_doors(std::make_unique<detail::QueryDoors>()) {
  reserveSearch();
}

Planner::Impl::Impl(const World& world, PlannerSettings settings, NavDataSettings data)
    : m_world(&world),
      m_ownData(std::make_unique<NavData>(world, data)),
      m_data(m_ownData.get()),
      m_settings(settings),
      m_search(SearchContext::Scratch::None),
      m_doors(std::make_unique<detail::QueryDoors>()) {
  reserveSearch();
}

Planner::Impl::Impl(const TileMap& map, PlannerSettings settings, NavDataSettings data)
    : m_ownWorld(std::make_unique<World>(map)),
      m_world(m_ownWorld.get()),
      m_ownData(std::make_unique<NavData>(*m_ownWorld, data)),
      m_data(m_ownData.get()),
      m_settings(settings),
      m_search(SearchContext::Scratch::None),
      m_doors(std::make_unique<detail::QueryDoors>()) {
  reserveSearch();
}

bool Planner::Impl::exactSearchMayRun() const noexcept {
  const Layout& layout = m_world->map().layout();
  return m_settings.exactAnyAngle && !m_settings.anyAngleSearch && m_world->doors().empty() &&
         layout.kind() == LayoutKind::Square && layout.connectivity() == 8;
}

bool Planner::Impl::exactSearchOn(const SearchGrid& grid) const noexcept {
  return exactSearchMayRun() && grid.uniformCost() && grid.gateCount() == 0;
}

void Planner::Impl::reserveSearch() {
  // Made now rather than in the first plan (every layer of a map has the same size; walking is
  // the layer most games prepare). A planner whose plans there run the exact search holds no
  // tile search table (it is made on the first tile search: a wide body's, another layer's).
  const NavLayer* walk = m_data->layer(TerrainTable::kWalk, 0.0f);
  if (walk != nullptr && exactSearchOn(walk->grid())) {
    m_search.reserveExact();
    return;
  }
  if (walk != nullptr) {
    m_search.reserveFor(walk->grid());
  } else {
    m_search.reserveTiles();
  }
  // Own data whose layers come with the first plan: the exact search's too where it may run.
  if (walk == nullptr && exactSearchMayRun()) m_search.reserveExact();
}

void Planner::Impl::record(PathResult& out, PathStage stage) const {
  if (m_settings.recordStages && out.stats(stage).ran) out.stagePoints[std::size_t(stage)] = out.controlPoints;
}

void Planner::Impl::record(PathResult& out, PathStage stage, const StageContext& context) const {
  if (!m_settings.recordStages || !out.stats(stage).ran) return;
  out.stagePoints[std::size_t(stage)] = out.controlPoints;
  out.stageCosts[std::size_t(stage)] = polylineCost(context, out.controlPoints);
}

Status Planner::Impl::fail(PathResult& out, Status status, std::string_view reason) {
  out.status = status;
  out.reason.assign(reason);
  out.controlPoints.clear();
  out.tilePath.clear();
  out.anyAngleRoute = false;
  out.detours.clear();
  out.smoothed.clear();
  out.searchLength = out.length = out.cost = 0.0;
  return status;
}

namespace {

// A wide body's radius in tiles, as the search and the entry tiles fit it. The radius and the tile
// size are floats: their quotient is off by up to 1.2·10⁻⁷ of itself either way, so a body meant
// to be exactly as wide as a clearance (1.75 tiles of 0.7) could come out a hair wider and fit
// nowhere such a clearance is. A body 4·10⁻⁷ of its radius narrower fits there; the probes,
// which keep the radius less 5·10⁻⁷ × at least the radius (detail::wideTolerance), agree.
double bodyTilesOf(float radius, const Layout& layout) {
  return double(radius) / double(layout.tileSize()) * (1.0 - 4e-7);
}

}  // namespace

Planner::Impl::EntryTile Planner::Impl::entryTile(Vec2 point, Cell own, const PathRequest& request) const {
  const TileMap& map = *m_map;
  const Layout& layout = map.layout();
  EntryTile entry;
  if (!widerThanHalfTile(layout, request.radius)) {
    entry.tile = own;
    entry.clear = probeSegment(map, request.mobility, point, layout.tileCenter(own), request.radius).clear;
    entry.roomy = false;
    return entry;
  }
  // Wide: the search moves the body's centre between tile centres where it fits (Clearance), so
  // the path begins at such a centre. The own tile first, then the touching ones in the layout's
  // order (deterministic).
  entry.roomy = probeSegment(map, request.mobility, point, point, request.radius).clear;
  if (!entry.roomy) return entry;
  const Clearance& clearance = *m_clearance;
  const double bodyTiles = bodyTilesOf(request.radius, layout);
  auto tryTile = [&](Cell cell) {
    if (!clearance.fits(cell, bodyTiles)) return false;
    if (!probeSegment(map, request.mobility, point, layout.tileCenter(cell), request.radius).clear) return false;
    entry.tile = cell;
    entry.clear = true;
    return true;
  };
  if (tryTile(own)) return entry;
  for (const NeighbourStep& step : layout.touching(own)) {
    if (tryTile({own.x + step.dx, own.y + step.dy})) return entry;
  }
  return entry;
}

Planner::Impl::EntryTile Planner::Impl::stepOutTile(Vec2 point, Cell own, const PathRequest& request) const {
  const TileMap& map = *m_map;
  const Layout& layout = map.layout();
  EntryTile entry;
  entry.pressed = true;
  const bool wide = widerThanHalfTile(layout, request.radius);
  const double bodyTiles = wide ? bodyTilesOf(request.radius, layout) : 0.0;
  double best = std::numeric_limits<double>::infinity();
  auto tryTile = [&](Cell cell) {
    if (!map.contains(cell) || !map.passable(cell, request.mobility)) return;
    const Vec2 centre = layout.tileCenter(cell);
    const bool fits = wide ? m_clearance->fits(cell, bodyTiles) : probeSegment(map, request.mobility, centre, centre, request.radius).clear;
    const double distance = double((centre - point).norm());
    if (!fits || !(distance < best)) return;  // (the own tile, then the layout's order, on ties)
    best = distance;
    entry.tile = cell;
    entry.clear = true;
  };
  tryTile(own);
  for (const NeighbourStep& step : layout.touching(own)) tryTile({own.x + step.dx, own.y + step.dy});
  return entry;
}

std::optional<Cell> Planner::Impl::wideEscapeTile(const PathRequest& request) {
  const TileMap& map = *m_map;
  const Layout& layout = map.layout();
  const Clearance& clearance = *m_clearance;
  const double bodyTiles = bodyTilesOf(request.radius, layout);
  const Cell own = *map.tileAt(request.start);
  const auto reach = std::int32_t(std::ceil(bodyTiles)) + 1;
  // The doors round the tiles looked at (within reach steps and the body's radius of them).
  const Vec2 span = Vec2::Constant(float(reach + 1) * layout.tileSize());
  m_doors->barriersNear(request.start - span, request.start + span, request.radius, false, m_barriers);
  std::optional<Cell> best;
  double bestDistance = std::numeric_limits<double>::infinity();
  for (std::int32_t dy = -reach; dy <= reach; ++dy) {
    for (std::int32_t dx = -reach; dx <= reach; ++dx) {
      const Cell cell{own.x + dx, own.y + dy};
      if (!clearance.fits(cell, bodyTiles)) continue;
      const Vec2 centre = layout.tileCenter(cell);
      const double distance = double((centre - request.start).norm());
      if (distance >= bestDistance) continue;  // (row-major order breaks ties)
      // The centre keeps the radius from the doors, and the step back crosses none of them (it
      // may pass within the radius of the door that holds the character: that one is exempt).
      const bool clearOfDoors = std::none_of(m_barriers.begin(), m_barriers.end(), [&](const Barrier& barrier) {
        return meetsBarrier(barrier, centre, centre, request.radius, barrierSlack(layout, request.radius, centre, centre)) ||
               meetsBarrier(barrier, request.start, centre, 0.0f);
      });
      if (!clearOfDoors || (!m_entry.pressed && !probeSegment(map, request.mobility, request.start, centre, request.radius).clear)) continue;
      best = cell;
      bestDistance = distance;
    }
  }
  return best;
}

Vec2 Planner::Impl::wideDoorStop(const Door& door, float keep, Vec2 start, std::vector<Cell>& tiles) const {
  const Layout& layout = m_world->map().layout();
  const Eigen::Vector2d edge0 = door.edge[0].cast<double>(), edge1 = door.edge[1].cast<double>();
  auto distance = [&](const Eigen::Vector2d& p) { return detail::pointToSegment(p, edge0, edge1); };
  // The search's centre polyline (start, then the tiles' centres) walked back from the door to
  // its last point at least `keep` from it; the stop lies on the step that comes closer, where
  // the distance reaches `keep` (found by halving: the distance along a segment is convex).
  std::size_t last = tiles.size() - 1;
  auto point = [&](std::size_t k) -> Eigen::Vector2d { return layout.tileCenter(tiles[k]).cast<double>(); };
  while (last > 0 && distance(point(last)) < double(keep)) --last;
  Eigen::Vector2d far = point(last), near;
  if (distance(far) >= double(keep)) {
    if (last + 1 == tiles.size()) return far.cast<float>();
    near = point(last + 1);
  } else {
    // Even the first tile's centre is closer: stop between the start and it, or where it stands.
    near = far;
    far = start.cast<double>();
    if (distance(far) < double(keep)) {
      tiles.resize(1);
      return start;
    }
  }
  tiles.resize(last + 1);
  double low = 0.0, high = 1.0;  // far + (near - far) × t keeps `keep` at low, not at high
  for (int i = 0; i < 40; ++i) {
    const double middle = 0.5 * (low + high);
    (distance(far + (near - far) * middle) >= double(keep) ? low : high) = middle;
  }
  return (far + (near - far) * low).cast<float>();
}


const NavLayer* Planner::Impl::layerFor(MobilityId mobility, float radius, std::span<const TerrainCost> costs,
                                        std::uint8_t dangerFactor, PathResult& out) {
  if (m_ownData) {
    // Its own data: prepare() brings it up to date after edits and builds the layer on first use.
    if (const Status status = m_ownData->prepare(mobility, radius, costs, dangerFactor); status != Status::Ok) {
      fail(out, status,
           status == Status::LimitExceeded
               ? "cannot weigh the danger in: the map has more (terrain, danger) pairs than a terrain table holds"
           : costs.empty() ? "cannot build the navigation data for this mobility (a terrain cost outside the search's range?)"
                           : "cannot build the navigation data for this mobility and the filter's terrain costs (an "
                             "unknown terrain, or a cost outside the search's range?)");
      return nullptr;
    }
    return m_ownData->layer(mobility, radius, costs, dangerFactor);
  }
  if (!m_data->current()) {
    fail(out, Status::InvalidArgument,
         "the navigation data is older than the map or its doors: call NavData::update() between frames");
    return nullptr;
  }
  const NavLayer* layer = m_data->layer(mobility, radius, costs, dangerFactor);  // null unless ready() for this radius
  if (layer == nullptr) {
    fail(out, Status::InvalidArgument,
         costs.empty() && dangerFactor == 0
             ? "no navigation data for this mobility and size: NavData::prepare() it first"
             : "no navigation data for this mobility, size, the filter's terrain costs and the danger factor: "
               "NavData::prepare() them first");
    return nullptr;
  }
  return layer;
}

namespace {

// The map's tile whose centre is nearest to a point off the map (ties: the first in row-major
// order). It lies in the map's outer two rows or columns on the point's side (a row's or column's
// centres come nearer the further out they are, give or take a hex's half-tile shift), so only
// those are measured: O(width + height).
Cell nearestMapTile(const TileMap& map, Vec2 point) {
  const Layout& layout = map.layout();
  const Eigen::Vector2d target = layout.toLocal(point);
  Cell best{0, 0};
  double bestDistance = std::numeric_limits<double>::infinity();
  auto consider = [&](std::int32_t x, std::int32_t y) {
    const double d = (layout.localCenter({x, y}) - target).squaredNorm();
    if (d < bestDistance) {
      best = {x, y};
      bestDistance = d;
    }
  };
  const std::int32_t w = map.width(), h = map.height();
  for (std::int32_t y = 0; y < h; ++y) {
    if (y < 2 || y >= h - 2) {
      for (std::int32_t x = 0; x < w; ++x) consider(x, y);
    } else {
      for (const std::int32_t x : {0, 1, w - 2, w - 1}) {
        if (x >= 0 && x < w) consider(x, y);  // (narrow maps measure a tile twice: harmless)
      }
    }
  }
  return best;
}

}  // namespace

Status Planner::Impl::plan(const PathRequest& request, PathResult& out) { return beginPlan(request, out, PlanSlice{}); }

const NavLayer* Planner::Impl::prepare(const PathRequest& request, PathResult& out) {
  out.stages = {};
  for (auto& snapshot : out.stagePoints) snapshot.clear();
  out.stageCosts.fill(std::numeric_limits<double>::quiet_NaN());
  out.searchCost = std::numeric_limits<double>::quiet_NaN();
  out.tilePath.clear();
  out.anyAngleRoute = false;
  out.controlPoints.clear();
  out.route.clear();
  out.detours.clear();
  out.smoothed.clear();
  out.searchLength = out.length = out.cost = 0.0;
  out.reason.clear();
  out.door = DoorId{0};
  out.blocker = EntityId{0};
  out.stopPoint = Vec2::Zero();
  out.fallbackGoal.reset();
  m_goalRefused = false;
  m_map = &m_world->map();
  const Layout& layout = m_map->layout();
  auto failed = [&](Status status, const char* reason) {
    fail(out, status, reason);
    return nullptr;
  };
  if (!finite(request.start) || !finite(request.goal)) return failed(Status::InvalidArgument, "start or goal is not finite");
  if (!m_map->terrain().valid(request.mobility)) return failed(Status::InvalidArgument, "unknown mobility");
  if (!std::isfinite(request.radius) || request.radius < 0.0f ||
      request.radius > NavData::kMaxRadiusTiles * layout.tileSize()) {
    return failed(Status::InvalidArgument, "radius must be at least 0 and at most 3 tiles");
  }
  m_plan = designedSettings(m_settings, m_world->designSettings());
  const float comfort = request.comfort.value_or(m_plan.comfort * layout.tileSize());
  if (!std::isfinite(comfort) || comfort < 0.0f) {
    return failed(Status::InvalidArgument, "comfort must be a finite distance of at least 0 (world units)");
  }
  // A filter's terrain costs are its layer's: every question about terrain from here on goes to
  // that layer's map (so the layer comes first; without them, narrow characters are checked
  // before the data is looked at, as always).
  const std::span<const TerrainCost> costs = request.filter != nullptr ? request.filter->costs : std::span<const TerrainCost>();
  const std::uint8_t dangerFactor = request.dangerFactor.value_or(m_world->dangerFactor());
  const NavLayer* data = nullptr;
  if (!costs.empty() || dangerFactor != 0) {
    data = layerFor(request.mobility, request.radius, costs, dangerFactor, out);
    if (data == nullptr) return nullptr;
    m_map = &data->map();
  }
  const TileMap& map = *m_map;
  const auto startTile = map.tileAt(request.start);
  auto goalTile = map.tileAt(request.goal);
  if (!startTile) return failed(Status::OutOfBounds, "start lies outside the map");
  // With goalFallback a goal that is no place to stand is not refused: the search looks for the
  // nearest reachable tile round the map tile nearest to it (see PathRequest::goalFallback).
  if (!goalTile) {
    if (!request.goalFallback) return failed(Status::OutOfBounds, "goal lies outside the map");
    goalTile = nearestMapTile(map, request.goal);
    m_goalRefused = true;
  }
  if (!map.passable(*startTile, request.mobility)) return failed(Status::StartBlocked, "start tile cannot be entered by this mobility");
  if (!map.passable(*goalTile, request.mobility)) {
    if (!request.goalFallback) return failed(Status::GoalBlocked, "goal tile cannot be entered by this mobility");
    m_goalRefused = true;
  }
  // A character must have room where it stands and be able to step to the centre of the tile its
  // path begins on (on hexes a blocked neighbour's corner can come within the radius of that
  // short segment even when both ends have room); the same for the goal. Stage 3 relies on both
  // segments. Narrow characters use the tile they stand on (checked before the navigation data
  // is looked at, as always); a wide one the first of that tile and those touching it where its
  // body fits on the centre (see entryTile), which needs the data's clearance.
  const bool wide = widerThanHalfTile(layout, request.radius);
  auto endsRefused = [&]() -> bool {
    m_entry = entryTile(request.start, *startTile, request);
    if (!m_entry.clear) m_entry = stepOutTile(request.start, *startTile, request);
    if (!m_entry.clear) {
      fail(out, Status::StartBlocked, "the character is too wide for the tiles round the start: none beside it fits its body");
      return true;
    }
    if (m_goalRefused) {
      m_exit = EntryTile{*goalTile};
      return false;
    }
    m_exit = entryTile(request.goal, *goalTile, request);
    if (!m_exit.clear) {
      if (request.goalFallback) {
        m_exit = EntryTile{*goalTile};
        m_goalRefused = true;
        return false;
      }
      fail(out, Status::GoalBlocked, m_exit.roomy ? "the character is too wide for the tiles round the goal: none beside it fits its body"
                                                  : "goal is closer than the radius to a blocked tile");
      return true;
    }
    return false;
  };
  if (!wide && endsRefused()) return nullptr;
  if (data == nullptr) data = layerFor(request.mobility, request.radius, costs, dangerFactor, out);
  if (data == nullptr) return nullptr;
  m_clearance = wide ? navData().clearance(request.mobility, costs, dangerFactor) : nullptr;
  if (wide && endsRefused()) return nullptr;
  m_doors->begin(*m_world, Traveller{request.character, request.mobility, request.radius},
                 request.filter != nullptr ? request.filter->doorPolicy : nullptr);
  return data;
}

void Planner::Impl::keepRequest(const PathRequest& request, Vec2 askedStart) {
  m_pending.ignore.assign(request.ignore.begin(), request.ignore.end());
  m_pending.request = request;
  m_pending.request.ignore = m_pending.ignore;
  m_pending.askedStart = askedStart;
}

PlannerSettings designedSettings(PlannerSettings settings, const DesignSettings& design) noexcept {
  settings.comfort = design.comfort.value_or(settings.comfort);
  settings.smoothing.maxDeviation = design.smoothing.value_or(settings.smoothing.maxDeviation);
  settings.detours.margin = design.detourMargin.value_or(settings.detours.margin);
  return settings;
}

Status Planner::Impl::beginPlan(const PathRequest& asked, PathResult& out, const PlanSlice& slice) {
  cancelPlan();
  m_escapeFrom.reset();
  const NavLayer* data = prepare(asked, out);
  if (data == nullptr) return out.status;
  const TileMap& map = m_world->map();
  const bool doors = !m_world->doors().empty();
  // A door that was closed on the character (it stands within its radius of a door that is a
  // wall for it now): like an entity holding the start, it does not trap it. The plan runs from
  // the start tile's centre, half a tile from every edge of it, and the path begins with the
  // step back there.
  // A goal that touches such a door (or comes within its radius, on the way to its tile's
  // centre as well) cannot be reached without touching it: GoalBlocked.
  PathRequest request = asked;
  request.ignore = ignored(asked);
  if (m_entry.pressed) {
    // Pressed against a wall: the plan runs from the tile centre found, the path begins with
    // the step out there (exempt from the radius, as the step back from a door).
    m_escapeFrom = asked.start;
    request.start = map.layout().tileCenter(m_entry.tile);
  }
  if (doors) {
    const Layout& layout = map.layout();
    auto meetsAny = [&](Vec2 point, Cell entry) {
      const Vec2 centre = layout.tileCenter(entry);
      m_doors->barriersNear(point.cwiseMin(centre), point.cwiseMax(centre), asked.radius + layout.tileSize(), false,
                            m_barriers);
      return std::any_of(m_barriers.begin(), m_barriers.end(),
                         [&](const Barrier& barrier) { return meetsBarrier(barrier, point, centre, asked.radius, barrierSlack(layout, asked.radius, point, centre)); });
    };
    if (!m_goalRefused && meetsAny(asked.goal, m_exit.tile)) {
      if (!asked.goalFallback) return fail(out, Status::GoalBlocked, "goal is closer than the radius to a closed door, or touches one");
      m_goalRefused = true;
    }
    if (meetsAny(asked.start, m_entry.tile)) {
      m_escapeFrom = asked.start;
      if (widerThanHalfTile(layout, asked.radius)) {
        // A wide body: its entry tile's centre may lie within its radius of the door too; it
        // steps back to the nearest centre that fits it and keeps the radius from the doors.
        const auto escape = wideEscapeTile(asked);
        if (!escape) return fail(out, Status::NoPath, "a closed door holds the character: no tile beside it keeps the radius from it");
        m_entry.tile = *escape;
      }
      request.start = layout.tileCenter(m_entry.tile);
    }
  }
  StageContext context = stageContext(request, *data);
  m_lap = std::chrono::steady_clock::now();
  m_straight = SegmentProbe{};
  if (m_settings.enabledStage(PathStage::StraightLine) && !m_goalRefused) {
    bool straight = false;
    {
      StageStats& stats = out.stats(PathStage::StraightLine);
      StageTimer timer(stats, m_lap);
      // A door with a price is a wall here too: a way round it might be cheaper.
      if (doors) {
        m_doors->barriersNear(request.start.cwiseMin(request.goal), request.start.cwiseMax(request.goal),
                              request.radius, true, m_barriers);
        context.barriers = m_barriers;
      }
      straight = straightLineStage(context, m_settings.straightLine, request.start, request.goal, out.controlPoints,
                                   m_straight, stats);
    }
    if (straight) {
      out.searchLength = double((request.goal - request.start).norm());
      record(out, PathStage::StraightLine);
      if (m_settings.recordStages) out.stageCosts[std::size_t(PathStage::StraightLine)] = m_straight.cost;
      out.route = out.controlPoints;
      keepRequest(request, asked.start);
      return startTail(context, request.goal, PathStage::Detours, false, slice, out);
    }
  }
  // The request is kept for the slices to come.
  keepRequest(request, asked.start);
  m_pending.active = true;
  m_pending.startTile = m_entry.tile;
  m_pending.goalTile = m_exit.tile;
  m_pending.goalRefused = m_goalRefused;
  m_pending.data = data;
  m_pending.mapVersion = m_world->map().version();
  m_pending.doorLayoutVersion = m_world->doorLayoutVersion();
  return searchAndFinish(slice, false, out);
}

Status Planner::Impl::continuePlan(PathResult& out, const PlanSlice& slice) {
  if (!planInProgress()) return fail(out, Status::InvalidArgument, "no plan in progress");
  out.reason.clear();  // (why the last call stopped)
  auto startAgain = [&] {
    const std::vector<EntityId> ignore = m_pending.ignore;
    PathRequest again = m_pending.request;
    again.start = m_pending.askedStart;
    again.ignore = ignore;
    return beginPlan(again, out, slice);
  };
  if (m_tail.active) {
    // The stages work on the world as it was when they began (its doors' barriers, the tiles
    // their memo has seen): any change, and they start again.
    if (m_tail.mapVersion != m_world->mapVersion() || m_tail.doorLayoutVersion != m_world->doorLayoutVersion()) {
      if (!m_tail.along) return startAgain();
      cancelPlan();
      return fail(out, Status::NoPath, "the tiles or doors changed under the plan along the route: plan afresh");
    }
    m_lap = std::chrono::steady_clock::now();
    return runTail(slice, false, out);
  }
  // New tiles or doors change the grid itself; a door the search has already asked about that
  // changed state changes its answers. Other doors may change freely (they are asked when met).
  if (m_pending.mapVersion != m_world->map().version() || m_pending.doorLayoutVersion != m_world->doorLayoutVersion() ||
      m_doors->consultedDoorChanged() ||
      !m_search.suspended()) {
    // The world changed under the suspended search (or another search ran): start again.
    return startAgain();
  }
  m_lap = std::chrono::steady_clock::now();
  return searchAndFinish(slice, true, out);
}

Status Planner::Impl::searchAndFinish(const PlanSlice& slice, bool resume, PathResult& out) {
  const PathRequest& request = m_pending.request;
  const NavLayer* data = m_pending.data;
  const TileMap& map = m_world->map();
  const Layout& layout = map.layout();
  const bool doors = !m_world->doors().empty();
  const bool wide = widerThanHalfTile(layout, request.radius);
  StageContext context = stageContext(request, *data);
  {
    StageStats& stats = out.stats(PathStage::Search);
    StageTimer timer(stats, m_lap);
    stats.ran = true;
    Status status = Status::Ok;
    if (resume) {
      status = m_search.resume(SearchLimit{slice.maxExpansions, slice.deadline}, m_searchResult);
    } else {
      SearchRequest search;
      search.start = m_pending.startTile;
      search.goal = m_pending.goalTile;
      search.maxExpansions = slice.maxExpansions;
      search.deadline = slice.deadline;
      if (doors) search.gates = m_doors.get();
      search.nearestIfUnreachable = request.goalFallback;
      search.nearestTo = request.goal;
      if (widerThanHalfTile(layout, request.radius)) {
        // A wide body: only tiles where it fits, steps its swept body fits (no any-angle search).
        search.clearance = m_clearance;
        search.bodyTiles = bodyTilesOf(request.radius, layout);
      } else if ((m_settings.anyAngleSearch && !widerThanHalfHexEdge(layout, request.radius)) || exactSearchOn(data->grid())) {
        search.sightLines = &data->lines();
        search.radius = request.radius;
        search.startPoint = request.start;
        // (A refused goal point is no end for a route: the search ends at a tile's centre.)
        if (!m_pending.goalRefused) search.goalPoint = request.goal;
        search.exactAnyAngle = !m_settings.anyAngleSearch;
      }
      m_searchExact = search.exactAnyAngle;
      status = m_search.findPath(data->grid(), search, m_searchResult);
    }
    stats.expansions = m_searchResult.expanded;
    if (status == Status::InProgress) {
      out.status = Status::InProgress;
      out.reason = "the search ran out of its budget: continuePlan goes on";
      return Status::InProgress;
    }
    m_pending.active = false;
    if (status != Status::Ok && status != Status::PartialPath) return fail(out, status, m_searchResult.reason);
    // The nearest reachable tile and the flood run as the tile search (no route of vertices).
    m_searchExact = m_searchExact && !m_searchResult.vertices.empty();
    if (status == Status::PartialPath || m_pending.goalRefused) out.fallbackGoal = layout.tileCenter(m_searchResult.reached);
    out.tilePath = m_searchResult.path;
    out.searchLength = m_searchResult.length * double(layout.tileSize());
    stats.pointsOut = std::int32_t(out.tilePath.size());
  }

  // A door that stops the character: the path ends in front of it, on the near side.
  Vec2 goal = out.fallbackGoal.value_or(request.goal);
  const auto stop = doors ? m_doors->firstStop(out.tilePath) : std::nullopt;
  if (stop) out.tilePath.resize(stop->lastTile + 1);
  if (doors) {
    // Every later segment up to stage 7 lies in the convex hull of points in the path's tiles
    // (stage 7 asks the doors about its own detours, see DetourSettings).
    Vec2 low = request.start.cwiseMin(goal), high = request.start.cwiseMax(goal);
    for (const Cell tile : out.tilePath) {
      low = low.cwiseMin(layout.tileCenter(tile));
      high = high.cwiseMax(layout.tileCenter(tile));
    }
    // A wide body's bends stand up to √2 × its clearance from the corner they pass (2/√3 on
    // hexes), further out than the tiles' hull: the reach covers their segments too.
    const float reach = wide ? layout.tileSize() + 2.5f * (request.radius + context.comfort)
                             : layout.tileSize() + request.radius;
    m_doors->barriersNear(low, high, reach, false, m_barriers);
    context.barriers = m_barriers;
  }
  if (stop) {
    const float gap = m_settings.doorApproachGap * layout.tileSize();
    const Cell side = out.tilePath[stop->lastTile];
    goal = m_doors->approachPoint(stop->door, side, request.radius, gap);
    if (wide) {
      goal = wideDoorStop(*m_world->door(stop->door), request.radius + gap, request.start, out.tilePath);
    } else if (!context.probe(goal, layout.tileCenter(side)).clear) {
      goal = layout.tileCenter(side);
    }
    out.door = stop->door;
    out.stopPoint = goal;
  }
  return startTail(context, goal, PathStage::ControlPoints, false, slice, out);
}

Status Planner::Impl::replanAlong(const PathRequest& asked, const PathResult& previous, PathResult& out,
                                  const PlanSlice& slice) {
  cancelPlan();
  m_escapeFrom.reset();
  const NavLayer* data = prepare(asked, out);
  if (data == nullptr) return out.status;
  PathRequest request = asked;
  request.ignore = ignored(asked);
  const std::vector<Vec2>& route = previous.route;
  if (!isSuccess(previous.status) || route.size() < 2) {
    return fail(out, Status::InvalidArgument, "replanAlong needs an earlier successful plan with a route");
  }
  // The rest of the route: from the segment nearest to where the character stands.
  std::size_t nearest = 0;
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i + 1 < route.size(); ++i) {
    const double d = detail::pointToSegment(request.start.cast<double>(), route[i].cast<double>(), route[i + 1].cast<double>());
    if (d < best) {
      best = d;
      nearest = i;
    }
  }
  std::vector<Vec2>& points = out.controlPoints;
  points.assign(1, request.start);
  for (std::size_t i = nearest + 1; i < route.size(); ++i) {
    if (route[i] != points.back()) points.push_back(route[i]);
  }
  StageContext context = stageContext(request, *data);
  if (!m_world->doors().empty()) {
    Vec2 low = request.start, high = request.start;
    for (const Vec2& p : points) {
      low = low.cwiseMin(p);
      high = high.cwiseMax(p);
    }
    m_doors->barriersNear(low, high, request.radius, false, m_barriers);
    context.barriers = m_barriers;
  }
  // The route was clear when it was planned: with map and doors unchanged since, only the new
  // first segment needs a look; otherwise the rest is probed too, as the tail's first step (it
  // may be long: it stops at the deadline like stage 8).
  const bool unchanged = previous.mapVersion == m_world->mapVersion() && previous.doorLayoutVersion == m_world->doorLayoutVersion();
  if (points.size() >= 2 && !context.probe(points[0], points[1]).clear) {
    return fail(out, Status::NoPath, kRouteGone);
  }
  out.route = points;
  out.searchLength = previous.searchLength;
  if (previous.status == Status::StoppedAtDoor) {  // a blocked end is found again by stage 7
    out.door = previous.door;
    out.stopPoint = previous.stopPoint;
  }
  out.fallbackGoal = previous.fallbackGoal;  // (the route leads there)
  m_lap = std::chrono::steady_clock::now();
  keepRequest(request, asked.start);
  return startTail(context, out.fallbackGoal.value_or(request.goal), PathStage::Detours, true, slice, out, unchanged ? 0 : 1);
}

std::span<const EntityId> Planner::Impl::ignored(const PathRequest& request) {
  if (request.filter == nullptr || request.filter->ignore.empty()) return request.ignore;
  if (request.ignore.empty()) return request.filter->ignore;
  m_ignored.assign(request.ignore.begin(), request.ignore.end());
  m_ignored.insert(m_ignored.end(), request.filter->ignore.begin(), request.filter->ignore.end());
  return m_ignored;
}

// Stage 3 after the exact search for a radius or comfort above 0: the route's points, each corner
// it turns on replaced by a point off that corner, radius and comfort (and a margin) away from
// both edges of the blocked tile there, diagonally out. When every segment of that polyline keeps
// the radius, stages 4-6 start from it (a point per turn, not per tile); otherwise false, and
// stage 3 works from the route's tiles.
bool Planner::Impl::exactRouteOffCorners(const StageContext& context, Vec2 start, Vec2 goal, std::vector<Vec2>& points,
                                         StageStats& stats, std::size_t tiles) {
  const std::vector<Vec2>& route = m_searchResult.vertices;
  if (route.size() < 2 || route.back() != goal || route.front() != start) return false;
  StageTimer timer(stats, m_lap);
  stats.ran = true;
  stats.pointsIn = std::int32_t(tiles);
  const Layout& layout = context.map.layout();
  const float away = context.radius + context.comfort + 1e-3f * layout.tileSize();
  points.assign(1, start);
  for (std::size_t v = 1; v + 1 < route.size(); ++v) {
    const Eigen::Vector2d corner = layout.toLocal(route[v]);
    const Cell at{std::int32_t(std::lround(corner.x())), std::int32_t(std::lround(corner.y()))};
    // The one blocked tile of the four round the corner (a route turns round convex corners).
    int blocked = 0;
    Vec2 out(0.0f, 0.0f);
    for (const std::int32_t dy : {-1, 0}) {
      for (const std::int32_t dx : {-1, 0}) {
        if (context.map.passable({at.x + dx, at.y + dy}, context.mobility)) continue;
        ++blocked;
        out = Vec2(dx < 0 ? 1.0f : -1.0f, dy < 0 ? 1.0f : -1.0f);
      }
    }
    if (blocked != 1) return false;
    points.push_back(route[v] + out * away);
  }
  points.push_back(goal);
  for (std::size_t i = 1; i < points.size(); ++i) {
    ++stats.probes;
    if (!context.probe(points[i - 1], points[i]).clear) return false;
  }
  stats.pointsOut = std::int32_t(points.size());
  return true;
}

StageContext Planner::Impl::stageContext(const PathRequest& request, const NavLayer& data) {
  StageContext context{data.map(), request.mobility, request.radius, data.lines(), data.corners()};
  context.scratch = &m_scratch;
  // A new plan (the map may have changed since the last): the memo starts empty.
  context.memo = &m_scratch.probes();
  context.memo->clear();
  context.comfort = request.comfort.value_or(m_plan.comfort * m_world->map().layout().tileSize());
  return context;
}

Status Planner::Impl::startTail(const StageContext& context, Vec2 goal, PathStage first, bool along,
                                const PlanSlice& slice, PathResult& out, std::size_t probeFrom) {
  Tail& tail = m_tail;
  tail.active = true;
  tail.along = along;
  tail.stage = first;
  tail.run = Tail::Run::Comfortable;
  tail.context.emplace(context);
  tail.taut.reset();
  tail.after.reset();
  tail.goal = goal;
  tail.outcome = {};
  tail.detours = {};
  tail.smoothing = {};
  tail.probeFrom = probeFrom;
  tail.mapVersion = m_world->mapVersion();
  tail.doorLayoutVersion = m_world->doorLayoutVersion();
  return runTail(slice, true, out);
}

Status Planner::Impl::runTail(const PlanSlice& slice, bool worked, PathResult& out) {
  using Clock = std::chrono::steady_clock;
  const bool timed = slice.deadline != Clock::time_point::max();
  for (;;) {
    const PathStage stage = m_tail.stage;
    // A stage's cost grows with what it is given: the tiles of the search's path (stage 3) or
    // the points of the run (the others). The guess is its learnt cost per item times the items.
    const double items = double(std::max<std::size_t>(
        1, stage == PathStage::ControlPoints ? out.tilePath.size()
                                             : (m_tail.run == Tail::Run::Taut && stage < PathStage::Detours ? m_tautPoints : out.controlPoints).size()));
    detail::RunningEstimate& estimate = m_stageMicros[std::size_t(stage)];
    // Stage 8 and the probes of a route along which the world changed stop by themselves at the
    // deadline (between two spans, two segments): they start whenever time is left. Stage 7 stops
    // between two segments, when the next one (at its learnt cost per segment, which entities
    // met make dear) would not fit.
    const bool stopsItself = stage == PathStage::Smoothing || m_tail.probeFrom != 0;
    const bool bySegment = stage == PathStage::Detours && m_tail.probeFrom == 0;
    const double guess = stopsItself ? 0.0 : estimate.high() * (bySegment ? 1.0 : items);
    const auto guessed = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double, std::micro>(guess));
    const Clock::time_point begin = timed ? Clock::now() : Clock::time_point{};
    if (timed && worked && begin + guessed > slice.deadline) {
      out.status = Status::InProgress;
      out.reason = "the plan ran out of its time: continuePlan goes on";
      return Status::InProgress;
    }
    const std::size_t routed = m_tail.detours.routed;
    const std::optional<Status> done = tailStep(out, timed && bySegment ? slice.deadline - guessed : slice.deadline);
    worked = true;
    const double per = bySegment ? double(std::max<std::size_t>(1, m_tail.detours.routed - routed)) : items;
    if (timed && !stopsItself) estimate.add(std::chrono::duration<double, std::micro>(Clock::now() - begin).count() / per);
    if (done) {
      m_tail.active = false;
      return *done;
    }
  }
}

std::optional<Status> Planner::Impl::tailStep(PathResult& out, std::chrono::steady_clock::time_point deadline) {
  Tail& tail = m_tail;
  if (tail.probeFrom != 0) {
    const std::vector<Vec2>& route = out.route;
    for (std::size_t i = tail.probeFrom; i + 1 < route.size(); ++i) {
      if (i > tail.probeFrom && std::chrono::steady_clock::now() >= deadline) {
        tail.probeFrom = i;
        return std::nullopt;
      }
      if (!tail.context->probe(route[i], route[i + 1]).clear) {
        out.route.clear();
        return fail(out, Status::NoPath, kRouteGone);
      }
    }
    tail.probeFrom = 0;
    return std::nullopt;
  }
  if (tail.stage == PathStage::Detours) {
    if (detoursStep(out, deadline)) tail.stage = PathStage::Smoothing;
    return std::nullopt;
  }
  if (tail.stage == PathStage::Smoothing) return smoothingStep(out, deadline);
  // Stages 3-6 of a run: the comfortable one into the result's points, the taut one into its
  // own (recorded only when it is the answer: then it runs again into the result's points).
  const bool taut = tail.run != Tail::Run::Comfortable;
  std::vector<Vec2>& points = tail.run == Tail::Run::Taut ? m_tautPoints : out.controlPoints;
  const bool records = m_settings.recordStages && tail.run != Tail::Run::Taut;
  RunResult result;
  if (!refineStage(tail.stage, taut ? *tail.taut : *tail.context, m_pending.request, tail.goal, points, records, out, result)) {
    tail.stage = PathStage(int(tail.stage) + 1);
    return std::nullopt;
  }
  const std::optional<double> cost = endRun(result, out);
  if (!cost) {
    tail.stage = PathStage::ControlPoints;
    return std::nullopt;
  }
  return afterRefine(*cost, out);
}

std::optional<double> Planner::Impl::endRun(const RunResult& result, PathResult& out) {
  Tail& tail = m_tail;
  // Comfort pays in length, not in terrain: the path's price per unit length may exceed that of
  // the path without comfort by at most kComfortTerrainShare, and comfort never makes the path
  // dearer than a clear straight segment the search was asked to beat (see afterRefine).
  // Otherwise the path without comfort is the answer. A path that runs over the cheapest
  // terrain alone keeps the first rule whatever the other costs, so on maps of one cost the
  // stages never run twice.
  const double share = 1.0 + kComfortTerrainShare;
  switch (tail.run) {
    case Tail::Run::Comfortable: {
      if (!result) return std::numeric_limits<double>::infinity();
      tail.comfortable = *result;
      const auto [cost, length] = *result;
      const StageContext& context = *tail.context;
      if (context.comfort <= 0.0f) return cost;
      tail.straightCheaper = m_straight.clear && out.door.value == 0 && m_straight.cost <= cost;
      if (cost <= share * length * context.lines.cheapestCost() && !tail.straightCheaper) return cost;
      tail.taut.emplace(context);
      tail.taut->comfort = 0.0f;
      tail.counted = out.stages;
      tail.run = Tail::Run::Taut;
      return std::nullopt;
    }
    case Tail::Run::Taut: {
      const auto [cost, length] = tail.comfortable;
      if (!result) return cost;
      if (!tail.straightCheaper && cost * result->second <= share * result->first * length) {
        // The point counts describe the path returned (probes and times count both runs).
        for (std::size_t s = 0; s < tail.counted.size(); ++s) {
          out.stages[s].pointsIn = tail.counted[s].pointsIn;
          out.stages[s].pointsOut = tail.counted[s].pointsOut;
        }
        return cost;
      }
      out.controlPoints.swap(m_tautPoints);
      if (!m_settings.recordStages) return result->first;
      // The recorded stages describe the path returned: the taut run again, recorded.
      tail.tautCost = result->first;
      tail.run = Tail::Run::Recorded;
      return std::nullopt;
    }
    case Tail::Run::Recorded: break;
  }
  return tail.tautCost;
}

std::optional<Status> Planner::Impl::afterRefine(double cost, PathResult& out) {
  if (!std::isfinite(cost)) {
    // The tile path has no polyline that keeps the radius (a gap narrower than the character).
    return fail(out, Status::NoPath, "no route keeps the radius from blocked tiles");
  }
  const PathRequest& request = m_pending.request;
  // Never dearer than a clear straight segment (see straightLineStage): one that stage 1 left
  // for crossing dearer terrain replaces the path where it is cheaper (as the last straightening
  // of stage 6), and a path that stops at a door where the search's cost through that door is
  // dearer (then the straight line is the answer, as if stage 1 had taken it: the search's tiles
  // led only to the door).
  if (m_straight.clear) {
    const bool stops = out.door.value != 0;
    const double searched = stops ? m_searchResult.cost * double(m_world->map().layout().tileSize()) : cost;
    if (m_straight.cost <= searched) {
      out.controlPoints.assign({request.start, request.goal});
      if (stops) {
        out.door = DoorId{0};
        out.stopPoint = Vec2::Zero();
        out.tilePath.clear();
        out.anyAngleRoute = false;
        out.searchLength = double((request.goal - request.start).norm());
        if (m_settings.recordStages) {
          for (int stage = int(PathStage::Search); stage <= int(PathStage::StraightenBackward); ++stage) {
            out.stagePoints[std::size_t(stage)].clear();
            out.stageCosts[std::size_t(stage)] = std::numeric_limits<double>::quiet_NaN();
          }
          out.searchCost = std::numeric_limits<double>::quiet_NaN();
        }
        record(out, PathStage::StraightLine);
        if (m_settings.recordStages) out.stageCosts[std::size_t(PathStage::StraightLine)] = m_straight.cost;
      } else if (m_settings.recordStages) {
        out.stagePoints[std::size_t(PathStage::StraightenBackward)] = out.controlPoints;
        out.stageCosts[std::size_t(PathStage::StraightenBackward)] = m_straight.cost;
      }
    }
  }
  out.route = out.controlPoints;
  m_tail.stage = PathStage::Detours;
  return std::nullopt;
}

bool Planner::Impl::refineStage(PathStage stage, const StageContext& context, const PathRequest& request, Vec2 goal,
                                std::vector<Vec2>& points, bool records, PathResult& out, RunResult& result) {
  // Records are of out.controlPoints: only a run into them records.
  records = records && &points == &out.controlPoints;
  switch (stage) {
    case PathStage::ControlPoints: {
      if (m_searchExact && context.comfort <= 0.0f && context.radius <= 0.0f && !m_searchResult.vertices.empty() &&
          m_searchResult.vertices.back() == goal) {
        // The exact search's route is the shortest path of radius 0 (on a map of one cost, no
        // doors): stages 4 to 6 could only keep it. Stage 3 takes it for the control points,
        // unless the float rounding of its corners (world points off the tile grid's lattice)
        // put one inside a blocked tile: then stage 3 works from its tiles.
        StageStats& stats = out.stats(PathStage::ControlPoints);
        StageTimer timer(stats, m_lap);
        stats.ran = true;
        stats.pointsIn = std::int32_t(out.tilePath.size());
        points.assign(m_searchResult.vertices.begin(), m_searchResult.vertices.end());
        stats.pointsOut = std::int32_t(points.size());
        if (const auto measured = measurePolyline(context, points, stats.probes)) {
          if (records) {
            out.stagePoints[std::size_t(PathStage::Search)] = points;
            out.searchCost = polylineCost(context, points);
            out.stageCosts[std::size_t(PathStage::Search)] = out.searchCost;
            out.anyAngleRoute = true;
            record(out, PathStage::ControlPoints, context);
          }
          result = measured;
          return true;
        }
      }
      if (m_searchExact &&
          exactRouteOffCorners(context, request.start, goal, points, out.stats(PathStage::ControlPoints), out.tilePath.size())) {
        if (records) {
          out.stagePoints[std::size_t(PathStage::Search)] = points;
          out.anyAngleRoute = true;
        }
      } else {
        StageStats& stats = out.stats(PathStage::ControlPoints);
        StageTimer timer(stats, m_lap);
        ControlPointSettings settings = m_settings.controlPoints;
        settings.exitPoints = settings.exitPoints && m_settings.enabledStage(PathStage::ControlPoints);
        // The exact search's route turns on blocked tiles' corners (taken whole above, or moved
        // off them by exactRouteOffCorners): otherwise stage 3 starts from its tiles' centres.
        const bool fromRoute = !m_searchExact;
        const std::span<const Vec2> through = fromRoute ? std::span<const Vec2>(m_searchResult.through) : std::span<const Vec2>();
        const std::span<const Vec2> route = fromRoute ? std::span<const Vec2>(m_searchResult.vertices) : std::span<const Vec2>();
        const std::span<const std::int32_t> routeTiles =
            fromRoute ? std::span<const std::int32_t>(m_searchResult.vertexTiles) : std::span<const std::int32_t>();
        controlPointStage(context, settings, out.tilePath, through, route, routeTiles, request.start, goal, points, stats,
                          records ? &out.stagePoints[std::size_t(PathStage::Search)] : nullptr);
        if (records) out.anyAngleRoute = !route.empty();
      }
      if (records) {
        out.searchCost = polylineCost(context, out.stagePoints[std::size_t(PathStage::Search)]);
        out.stageCosts[std::size_t(PathStage::Search)] = out.searchCost;
        record(out, PathStage::ControlPoints, context);
      }
      return false;
    }
    case PathStage::StraightenForward:
      if (m_settings.enabledStage(PathStage::StraightenForward)) {
        StageStats& stats = out.stats(PathStage::StraightenForward);
        StageTimer timer(stats, m_lap);
        straightenStage(context, m_settings.straighten, false, points, stats);
      }
      if (records) record(out, PathStage::StraightenForward, context);
      return false;
    case PathStage::CornerRouting:
      if (m_settings.enabledStage(PathStage::CornerRouting)) {
        StageStats& stats = out.stats(PathStage::CornerRouting);
        StageTimer timer(stats, m_lap);
        cornerRoutingStage(context, m_settings.cornerRouting, points, stats);
      }
      if (records) record(out, PathStage::CornerRouting, context);
      return false;
    default: break;
  }
  if (m_settings.enabledStage(PathStage::StraightenBackward)) {
    StageStats& stats = out.stats(PathStage::StraightenBackward);
    StageTimer timer(stats, m_lap);
    straightenStage(context, m_settings.straighten, true, points, stats);
    if (m_settings.enabledStage(PathStage::CornerRouting)) {
      // Corners routed from one end can let the other end's corners be routed in turn (a bend
      // whose two corners must move together): alternate directions until nothing changes.
      for (int round = 0; round < m_settings.cornerRouting.maxRounds; ++round) {
        m_roundStart.assign(points.begin(), points.end());
        const bool backwards = round % 2 == 0;
        if (backwards) std::reverse(points.begin(), points.end());
        cornerRoutingStage(context, m_settings.cornerRouting, points, stats);
        if (backwards) std::reverse(points.begin(), points.end());
        straightenStage(context, m_settings.straighten, backwards, points, stats);
        if (points == m_roundStart) break;
      }
    }
  }
  if (records) record(out, PathStage::StraightenBackward, context);
  std::int32_t probes = 0;
  result = measurePolyline(context, points, probes);
  return true;
}

bool Planner::Impl::detoursStep(PathResult& out, std::chrono::steady_clock::time_point deadline) {
  const PathRequest& request = m_pending.request;
  const StageContext& context = *m_tail.context;
  std::vector<Vec2>& points = out.controlPoints;
  const bool doors = !m_world->doors().empty();
  if (!m_tail.detours.begun) {
    out.mapVersion = m_world->mapVersion();
    out.doorLayoutVersion = m_world->doorLayoutVersion();
    if (m_escapeFrom && (points.empty() || points.front() != *m_escapeFrom)) {
      points.insert(points.begin(), *m_escapeFrom);
      out.route.insert(out.route.begin(), *m_escapeFrom);
    }
    // Stages 7 and 8 leave the route: detours ask the doors about the ground they cover, and the
    // curve and the final measure see every door near the final points.
    m_tail.after.emplace(context);
    if (doors) m_tail.after->barrierSource = m_doors.get();
  }
  StageContext& after = *m_tail.after;
  if (m_settings.enabledStage(PathStage::Detours)) {
    StageStats& stats = out.stats(PathStage::Detours);
    StageTimer timer(stats, m_lap);
    const EntityQuery entities{m_world->entitySource(), request.character, request.ignore};
    if (!detourStageUntil(after, m_plan.detours, entities, points, out.detours, m_tail.outcome, stats, m_tail.detours,
                          deadline)) {
      return false;
    }
  }
  if (doors && !out.detours.empty()) {
    Vec2 low = points.front(), high = points.front();
    for (const Vec2& p : points) {
      low = low.cwiseMin(p);
      high = high.cwiseMax(p);
    }
    const float bulge = m_plan.smoothing.maxDeviation * m_world->map().layout().tileSize();
    m_doors->barriersNear(low, high, context.radius + bulge, false, m_finalBarriers);
    after.barriers = m_finalBarriers;
  }
  record(out, PathStage::Detours, after);
  return true;
}

std::optional<Status> Planner::Impl::smoothingStep(PathResult& out, std::chrono::steady_clock::time_point deadline) {
  const PathRequest& request = m_pending.request;
  const StageContext& context = *m_tail.context;
  const StageContext& after = *m_tail.after;
  const DetourOutcome& outcome = m_tail.outcome;
  std::vector<Vec2>& points = out.controlPoints;
  if (m_settings.enabledStage(PathStage::Smoothing)) {
    StageStats& stats = out.stats(PathStage::Smoothing);
    StageTimer timer(stats, m_lap);
    const EntityQuery entities{m_world->entitySource(), request.character, request.ignore};
    SmoothingSettings smoothing = m_plan.smoothing;
    smoothing.entityHorizon = m_settings.detours.horizon;
    if (!smoothingStageUntil(after, smoothing, entities, points, out.smoothed, stats, m_tail.smoothing, deadline)) {
      return std::nullopt;
    }
  }
  if (m_escapeFrom && points.size() >= 2) {
    // The step back from a door or out from a wall is exempt from the radius (see beginPlan):
    // priced as the line it is.
    out.cost = polylineCost(after, std::span<const Vec2>(points).subspan(1)) +
               probeSegment(context.map, context.mobility, points[0], points[1], 0.0f).cost;
  } else {
    out.cost = polylineCost(after, points);
  }
  m_escapeFrom.reset();
  out.length = 0.0;
  for (std::size_t i = 1; i < points.size(); ++i) out.length += double((points[i] - points[i - 1]).norm());
  out.status = out.door.value != 0 ? Status::StoppedAtDoor : out.fallbackGoal ? Status::PartialPath : Status::Ok;
  if (outcome.blocked) {
    out.status = Status::BlockedByEntity;
    out.blocker = outcome.blocker;
    out.stopPoint = outcome.stop;
    out.door = DoorId{0};
  }
  if (out.status == Status::StoppedAtDoor && request.tellDoorListener) {
    if (DoorListener* listener = m_world->doorListener()) listener->stoppedAtDoor({request.character, out.door, out.stopPoint});
  }
  return out.status;
}

}  // namespace rpgnav

namespace rpgnav {

Planner::Planner(const NavData& data, PlannerSettings settings)
    : m_impl(std::make_unique<Impl>(data, std::move(settings))) {}
Planner::Planner(const World& world, PlannerSettings settings, NavDataSettings data)
    : m_impl(std::make_unique<Impl>(world, std::move(settings), data)) {}
Planner::Planner(const TileMap& map, PlannerSettings settings, NavDataSettings data)
    : m_impl(std::make_unique<Impl>(map, std::move(settings), data)) {}
Planner::~Planner() = default;
Planner::Planner(Planner&&) noexcept = default;
Planner& Planner::operator=(Planner&&) noexcept = default;

// A moved-from planner has no Impl: it may be destroyed or assigned to; planInProgress() and
// cancelPlan() answer for it too, the rest assume a planner (as for any moved-from object).
Status Planner::plan(const PathRequest& request, PathResult& out) { return m_impl->plan(request, out); }
Status Planner::beginPlan(const PathRequest& request, PathResult& out, PlanSlice slice) {
  return m_impl->beginPlan(request, out, slice);
}
Status Planner::continuePlan(PathResult& out, PlanSlice slice) { return m_impl->continuePlan(out, slice); }
bool Planner::planInProgress() const noexcept { return m_impl != nullptr && m_impl->planInProgress(); }
void Planner::cancelPlan() noexcept {
  if (m_impl != nullptr) m_impl->cancelPlan();
}
Status Planner::replanAlong(const PathRequest& request, const PathResult& previous, PathResult& out, PlanSlice slice) {
  return m_impl->replanAlong(request, previous, out, slice);
}
const PlannerSettings& Planner::settings() const noexcept { return std::as_const(*m_impl).settings(); }
PlannerSettings& Planner::settings() noexcept { return m_impl->settings(); }
const World& Planner::world() const noexcept { return std::as_const(*m_impl).world(); }
const NavData& Planner::navData() const noexcept { return std::as_const(*m_impl).navData(); }
NavData* Planner::ownNavData() noexcept { return m_impl->ownNavData(); }

}  // namespace rpgnav
