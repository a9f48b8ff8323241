// SPDX-License-Identifier: MIT
// The stages after the search (control points, straightening, corner routing, detours, smoothing),
// run in slices under a deadline, with the costs each stage has learnt.
#include "path/planner_impl.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <utility>

namespace rpgnav {

namespace {

// With comfort a path's price per unit length (cost / length) may exceed that of the path without
// comfort by this share (see refine): enough for a bend pushed off a corner onto a sliver of the
// neighbouring terrain, never a way over dearer ground.
constexpr double kComfortTerrainShare = 0.01;

}  // namespace

// Stage 3 after the exact search for a radius or comfort above 0: the route's points, each corner
// it turns on replaced by a point off that corner, radius and comfort (and a margin) away from
// both edges of the blocked tile there, diagonally out. When every segment of that polyline keeps
// the radius, stages 4-6 start from it (a point per turn, not per tile); otherwise false, and
// stage 3 works from the route's tiles.
bool Planner::Impl::exactRouteOffCorners(const StageContext& context, Vec2 start, Vec2 goal, std::vector<Vec2>& points,
                                         StageStats& stats, std::size_t tiles) {
  const std::vector<Vec2>& route = m_searchResult.vertices;
  if (route.size() < 2 || route.back() != goal || route.front() != start) return false;
  detail::StageTimer timer(stats, m_lap);
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
        return fail(out, Status::NoPath, detail::kRouteGone);
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
      tail.counted = m_diagnostics.stages;
      tail.run = Tail::Run::Taut;
      return std::nullopt;
    }
    case Tail::Run::Taut: {
      const auto [cost, length] = tail.comfortable;
      if (!result) return cost;
      if (!tail.straightCheaper && cost * result->second <= share * result->first * length) {
        // The point counts describe the path returned (probes and times count both runs).
        for (std::size_t s = 0; s < tail.counted.size(); ++s) {
          m_diagnostics.stages[s].pointsIn = tail.counted[s].pointsIn;
          m_diagnostics.stages[s].pointsOut = tail.counted[s].pointsOut;
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
        m_diagnostics.anyAngleRoute = false;
        out.searchLength = double((request.goal - request.start).norm());
        if (m_settings.recordStages) {
          for (int stage = int(PathStage::Search); stage <= int(PathStage::StraightenBackward); ++stage) {
            m_diagnostics.stagePoints[std::size_t(stage)].clear();
            m_diagnostics.stageCosts[std::size_t(stage)] = std::numeric_limits<double>::quiet_NaN();
          }
          m_diagnostics.searchCost = std::numeric_limits<double>::quiet_NaN();
        }
        record(out, PathStage::StraightLine);
        if (m_settings.recordStages) m_diagnostics.stageCosts[std::size_t(PathStage::StraightLine)] = m_straight.cost;
      } else if (m_settings.recordStages) {
        m_diagnostics.stagePoints[std::size_t(PathStage::StraightenBackward)] = out.controlPoints;
        m_diagnostics.stageCosts[std::size_t(PathStage::StraightenBackward)] = m_straight.cost;
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
        StageStats& stats = m_diagnostics.stats(PathStage::ControlPoints);
        detail::StageTimer timer(stats, m_lap);
        stats.ran = true;
        stats.pointsIn = std::int32_t(out.tilePath.size());
        points.assign(m_searchResult.vertices.begin(), m_searchResult.vertices.end());
        stats.pointsOut = std::int32_t(points.size());
        if (const auto measured = measurePolyline(context, points, stats.probes)) {
          if (records) {
            m_diagnostics.stagePoints[std::size_t(PathStage::Search)] = points;
            m_diagnostics.searchCost = polylineCost(context, points);
            m_diagnostics.stageCosts[std::size_t(PathStage::Search)] = m_diagnostics.searchCost;
            m_diagnostics.anyAngleRoute = true;
            record(out, PathStage::ControlPoints, context);
          }
          result = measured;
          return true;
        }
      }
      if (m_searchExact &&
          exactRouteOffCorners(context, request.start, goal, points, m_diagnostics.stats(PathStage::ControlPoints), out.tilePath.size())) {
        if (records) {
          m_diagnostics.stagePoints[std::size_t(PathStage::Search)] = points;
          m_diagnostics.anyAngleRoute = true;
        }
      } else {
        StageStats& stats = m_diagnostics.stats(PathStage::ControlPoints);
        detail::StageTimer timer(stats, m_lap);
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
                          records ? &m_diagnostics.stagePoints[std::size_t(PathStage::Search)] : nullptr);
        if (records) m_diagnostics.anyAngleRoute = !route.empty();
      }
      if (records) {
        m_diagnostics.searchCost = polylineCost(context, m_diagnostics.stagePoints[std::size_t(PathStage::Search)]);
        m_diagnostics.stageCosts[std::size_t(PathStage::Search)] = m_diagnostics.searchCost;
        record(out, PathStage::ControlPoints, context);
      }
      return false;
    }
    case PathStage::StraightenForward:
      if (m_settings.enabledStage(PathStage::StraightenForward)) {
        StageStats& stats = m_diagnostics.stats(PathStage::StraightenForward);
        detail::StageTimer timer(stats, m_lap);
        straightenStage(context, m_settings.straighten, false, points, stats);
      }
      if (records) record(out, PathStage::StraightenForward, context);
      return false;
    case PathStage::CornerRouting:
      if (m_settings.enabledStage(PathStage::CornerRouting)) {
        StageStats& stats = m_diagnostics.stats(PathStage::CornerRouting);
        detail::StageTimer timer(stats, m_lap);
        cornerRoutingStage(context, m_settings.cornerRouting, points, stats);
      }
      if (records) record(out, PathStage::CornerRouting, context);
      return false;
    default: break;
  }
  if (m_settings.enabledStage(PathStage::StraightenBackward)) {
    StageStats& stats = m_diagnostics.stats(PathStage::StraightenBackward);
    detail::StageTimer timer(stats, m_lap);
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
    StageStats& stats = m_diagnostics.stats(PathStage::Detours);
    detail::StageTimer timer(stats, m_lap);
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
    StageStats& stats = m_diagnostics.stats(PathStage::Smoothing);
    detail::StageTimer timer(stats, m_lap);
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
