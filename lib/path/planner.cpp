// SPDX-License-Identifier: MIT
// The planner: a plan's request checked, its layer chosen, the search run (in slices) and
// the stages after it started (plan_tail.cpp); the public Planner over its Impl.
#include "path/planner_impl.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <utility>

namespace rpgnav {

std::string_view toString(SearchMode mode) noexcept {
  switch (mode) {
    case SearchMode::Tiles: return "tiles";
    case SearchMode::AnyAngle: return "any_angle";
    case SearchMode::ExactAnyAngle: return "exact_any_angle";
  }
  return "unknown";
}

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
  return m_settings.search == SearchMode::ExactAnyAngle && m_world->doors().empty() &&
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

void Planner::Impl::record(const PathResult& out, PathStage stage) {
  if (m_settings.recordStages && m_diagnostics.stats(stage).ran) m_diagnostics.stagePoints[std::size_t(stage)] = out.controlPoints;
}

void Planner::Impl::record(const PathResult& out, PathStage stage, const StageContext& context) {
  if (!m_settings.recordStages || !m_diagnostics.stats(stage).ran) return;
  m_diagnostics.stagePoints[std::size_t(stage)] = out.controlPoints;
  m_diagnostics.stageCosts[std::size_t(stage)] = polylineCost(context, out.controlPoints);
}

Status Planner::Impl::fail(PathResult& out, Status status, std::string_view reason) {
  out.status = status;
  out.reason.assign(reason);
  out.controlPoints.clear();
  out.tilePath.clear();
  m_diagnostics.anyAngleRoute = false;
  out.detours.clear();
  out.smoothed.clear();
  out.searchLength = out.length = out.cost = 0.0;
  return status;
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
  m_diagnostics.stages = {};
  for (auto& snapshot : m_diagnostics.stagePoints) snapshot.clear();
  m_diagnostics.stageCosts.fill(std::numeric_limits<double>::quiet_NaN());
  m_diagnostics.searchCost = std::numeric_limits<double>::quiet_NaN();
  out.tilePath.clear();
  m_diagnostics.anyAngleRoute = false;
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
      request.radius > kMaxRadiusTiles * layout.tileSize()) {
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
      StageStats& stats = m_diagnostics.stats(PathStage::StraightLine);
      detail::StageTimer timer(stats, m_lap);
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
      if (m_settings.recordStages) m_diagnostics.stageCosts[std::size_t(PathStage::StraightLine)] = m_straight.cost;
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
    StageStats& stats = m_diagnostics.stats(PathStage::Search);
    detail::StageTimer timer(stats, m_lap);
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
        search.bodyTiles = detail::bodyTilesOf(request.radius, layout);
      } else if ((m_settings.search == SearchMode::AnyAngle && !widerThanHalfHexEdge(layout, request.radius)) ||
                 exactSearchOn(data->grid())) {
        search.sightLines = &data->lines();
        search.radius = request.radius;
        search.startPoint = request.start;
        // (A refused goal point is no end for a route: the search ends at a tile's centre.)
        if (!m_pending.goalRefused) search.goalPoint = request.goal;
        search.exactAnyAngle = m_settings.search != SearchMode::AnyAngle;
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
    return fail(out, Status::NoPath, detail::kRouteGone);
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
const PlanDiagnostics& Planner::diagnostics() const noexcept { return m_impl->diagnostics(); }
const PlannerSettings& Planner::settings() const noexcept { return std::as_const(*m_impl).settings(); }
PlannerSettings& Planner::settings() noexcept { return m_impl->settings(); }
const World& Planner::world() const noexcept { return std::as_const(*m_impl).world(); }
const NavData& Planner::navData() const noexcept { return std::as_const(*m_impl).navData(); }
NavData* Planner::ownNavData() noexcept { return m_impl->ownNavData(); }

}  // namespace rpgnav
