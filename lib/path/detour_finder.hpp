// SPDX-License-Identifier: MIT
#pragma once
// Stage 7's finder: it routes each segment of the path round the entities in its way
// (detours.cpp: segments, blockers, loops) by the shorter valid way round their group's polygon
// (detour_ways.cpp). Private to lib/path.

#include "path/stages.hpp"

#include "path/legs.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numbers>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace rpgnav::detours {

inline int polygonSides(const DetourSettings& settings) { return std::clamp(settings.polygonSides, 4, 64); }

// The distance from an entity's centre to the corners of the regular polygon circumscribed
// about its disc grown by the body's radius and the margin (world units).
inline double cornerDistance(const DetourSettings& settings, float entityRadius, float bodyRadius, float margin) {
  const double step = 2.0 * std::numbers::pi / double(polygonSides(settings));
  return (double(entityRadius) + double(bodyRadius) + double(margin)) / std::cos(step / 2.0);
}

using Point = Eigen::Vector2d;

using detail::convexHull;

// One way round a group: the points between the segment's two kept ends (the anchors included
// when they are new), a run of the finder's shared point list (so a warm query allocates
// nothing). A way from an anchor just before the group to one just after it ends there
// (`toEnd` false): the rest of the segment is routed on its own, past whatever stands there.
struct Candidate {
  std::size_t first = 0, count = 0;
  double length = 0.0;
  bool toEnd = true;
  // The way leaves from the segment's start (not from an anchor before the group): that start is
  // a dip in the path (see cutLoops).
  bool fromStart = false;
  // The way's last point steps out of the group's hull, which holds the segment's end: that end
  // is a dip too.
  bool endsInside = false;
};

// The stage's scratch (see StageScratch): a warm query allocates nothing.
struct Buffers : detail::ScratchSlot {
  std::vector<Entity> found, near, group, local;
  std::vector<Point> corners, points, hull;
  std::vector<Candidate> candidates;
  std::vector<Vec2> candidatePoints, out;
  std::vector<Barrier> barriers;
  std::vector<std::size_t> dips;
};

class DetourFinder {
 public:
  DetourFinder(const StageContext& context, const DetourSettings& settings, const EntityQuery& entities,
               StageStats& stats, Buffers& buffers)
      : m_context(context), m_settings(settings), m_entities(entities), m_stats(stats), m_buffers(buffers) {
    const float tile = context.map.layout().tileSize();
    m_margin = settings.margin * tile;
    m_stopGap = settings.stopGap * tile;
    // On a map where every tile the mobility may enter costs the same, no way round can cross
    // dearer terrain: no need to measure it.
    m_uniformCost = context.uniformCost();
  }

  // Routes the segments from where `progress` stands: true when the stage is done (`points` then
  // holds the path), false when `deadline` passed after a segment (call again with the same
  // points; the way so far waits in the scratch). At least one segment per call.
  bool run(std::vector<Vec2>& points, std::vector<PathDetour>& detours, DetourOutcome& outcome, DetourProgress& progress,
           std::chrono::steady_clock::time_point deadline);

 private:
  // Appends the way from a (already in `out`) to b: b itself, or detours and b. Each blocker met
  // along a→b is gone round in turn (the group it belongs to), from the segment's ends or from
  // anchors just before and after the group; in the second case the rest of the segment, from
  // the anchor after the group, is routed the same way, so something further on that cannot be
  // gone round stops the path there, in front of it, not in front of what could be. False when
  // the way is blocked: then `out` ends at the stop point and `outcome` says why.
  // `reach` (> 0) is how far along the segment the horizon lies: the rest of the segment is
  // routed from an anchor only up to there.
  bool routeSegment(Vec2 a, Vec2 b, double reach, std::vector<Vec2>& out, std::vector<PathDetour>& detours,
                    DetourOutcome& outcome);

  // Routes a→target (on points[last]→points[last + 1], its end included), past the points
  // i..last that lie within blockers: true when every piece is clear of walls and no dearer than
  // the terrain the path it replaces crosses (`tidy`: a target short of points[last + 1], see
  // tidyLeaving). On failure `out`, `detours`, the dips and `outcome` are as they were.
  bool routePast(Vec2 a, const std::vector<Vec2>& points, std::size_t i, std::size_t last, Vec2 target, bool tidy,
                 double reach, std::vector<Vec2>& out, std::vector<PathDetour>& detours, DetourOutcome& outcome);

  // After routing to where the path leaves a blocker's space: the way round ends with a step
  // out of the group's hull and that point, often just short of the way's last corner (a
  // backtrack of a hair). Drops them while the point before sees `next` directly.
  void tidyLeaving(Vec2 next, std::vector<PathDetour>& detours);

  // Dips: segment ends where a way round leaves from, or that one steps out of a hull to reach.
  // Ways in and out round the same polygon on opposite sides make a loop there: the path comes
  // back to a point it has passed (out of the hull, in to the end, and out again to the very same
  // point: a spike). Each loop is cut where it closes. (What turns back without closing a loop is
  // left to stage 8, which keeps the spans beside a sharp turn straight.)
  void cutLoops(std::vector<PathDetour>& detours);

  // The widest loop out[j] == out[m], j < k < m, within `window` of k, if any: cut there, it
  // takes the narrower ones inside it too.
  std::optional<std::pair<std::size_t, std::size_t>> loopThrough(std::size_t k, std::size_t window) const;

  // Removes out[k], keeping every detour's run of points right.
  void eraseOut(std::size_t k, std::vector<PathDetour>& detours);

  // A straight piece clear of every entity in the way, of walls and of doors that are walls,
  // over terrain no dearer than `limit`.
  bool straightClear(Vec2 from, Vec2 to, double limit) {
    blockersOf(from, to);
    return m_near.empty() && piecePasses(contextNear(from, to, 0.0f), from, to, limit);
  }

  // One probe: the piece is clear of walls (and of the context's doors) and crosses no terrain
  // dearer than `limit`.
  bool piecePasses(const StageContext& context, Vec2 from, Vec2 to, double limit);

  // The stage's context with the doors that are walls anywhere within `spread` (and the radius
  // and margin) of from→to, beyond the route's ground which the planner gathered them for.
  const StageContext& contextNear(Vec2 from, Vec2 to, float spread);

  // The first point of from→to (from within some blocker's grown space) outside every blocker's,
  // a hair beyond the last one it leaves; none when that is not before `to`.
  std::optional<Vec2> whereFree(Vec2 from, Vec2 to);

  // Characters under local avoidance make way themselves: no point is passed by and no way steps
  // out of the polygon for one standing close (the bend would outlast its moving on, and weave
  // the path of a whole crowd in a corridor); with no plain way round them the segment passes
  // through them (see routeSegment).
  bool notFurniture(const Entity& entity) const { return ignored(entity) || (entity.flags & kEntityAvoiding) != 0; }

  bool withinBlocker(Vec2 point);

  // A straight piece a→b left as it is: on a segment that skips points it was never checked.
  bool directPieceClear(Vec2 a, Vec2 b) {
    return !m_skipLimit || a == b || piecePasses(contextNear(a, b, 0.0f), a, b, *m_skipLimit);
  }

  bool ignored(const Entity& entity) const {
    return (m_passAvoiding && (entity.flags & kEntityAvoiding) != 0) || !m_entities.blocks(entity, m_start, m_context.radius);
  }
  bool groupHasAvoiding() const {
    return std::any_of(m_group.begin(), m_group.end(), [](const Entity& e) { return (e.flags & kEntityAvoiding) != 0; });
  }

  // Entities (not ignored) whose grown space the segment enters, into m_near.
  void blockersOf(Vec2 a, Vec2 b);

  // Distance along a→b at which the segment enters the entity's grown space.
  double entryDistance(const Entity& entity, Vec2 a, Vec2 b) const;

  const Entity* firstBlocker(Vec2 a, Vec2 b);

  bool inGroup(EntityId id) const {
    return std::any_of(m_group.begin(), m_group.end(), [&](const Entity& e) { return e.id == id; });
  }

  // Adds an entity and, transitively, every entity too close to it to pass between.
  void addToGroup(const Entity& seed);

  // Finds the shortest valid way round the group into m_best; otherwise returns an entity that
  // stood in the way of some side (to join the group), if any.
  std::optional<Entity> tryDetour(Vec2 a, Vec2 b);

  // The shortest valid way of m_candidates into m_best; false when none is valid (`inTheWay`:
  // an entity outside the group that some way ran into, if any).
  bool validWay(Vec2 a, Vec2 b, const StageContext& wayContext, double limit, std::optional<Entity>& inTheWay);

  std::span<const Vec2> pointsOf(const Candidate& candidate) const {
    return std::span<const Vec2>(m_candidatePoints).subspan(candidate.first, candidate.count);
  }

  // The two ways round the group's corners from p to q (on line a→b), as candidates that start
  // at a and end at b. An end within the corners' hull (a character standing by furniture, nearer
  // than the polygon's corners though outside its disc) first steps out of it, to just beyond
  // the nearest hull edge: otherwise it would have no way round at all.
  void addSides(const Point& pa, const Point& pb, const Point& p, const Point& q);

  std::ptrdiff_t findOnHull(const Point& x, double tolerance) const;

  // x itself when it is not inside m_hull (counter-clockwise, y up); otherwise x moved across
  // the nearest hull edge to a hair beyond it.
  Point outOfHull(const Point& x) const;

  // How far beyond a hull edge, or a grown space, a point moved out of it lands (tiles): enough
  // to be outside for sure, no more.
  static constexpr double kStepOut = 1e-3;

  const StageContext& m_context;
  const DetourSettings& m_settings;
  const EntityQuery& m_entities;
  StageStats& m_stats;
  float m_margin = 0.0f;
  float m_stopGap = 0.0f;
  bool m_uniformCost = true;
  Vec2 m_start = Vec2::Zero();
  Buffers& m_buffers;
  std::vector<Entity>& m_found = m_buffers.found;
  std::vector<Entity>& m_near = m_buffers.near;
  std::vector<Entity>& m_group = m_buffers.group;
  std::vector<Entity>& m_local = m_buffers.local;
  std::vector<Point>& m_corners = m_buffers.corners;
  std::vector<Point>& m_points = m_buffers.points;
  std::vector<Point>& m_hull = m_buffers.hull;
  std::vector<Candidate>& m_candidates = m_buffers.candidates;
  std::vector<Vec2>& m_candidatePoints = m_buffers.candidatePoints;  // every candidate's points
  std::vector<Barrier>& m_barriers = m_buffers.barriers;
  std::optional<Candidate> m_best;
  bool m_passAvoiding = false;  // routing a segment through characters under local avoidance
  // Routing a segment that skips points within blockers: the dearest terrain its ways may cross,
  // and its straight pieces are checked for walls too.
  std::optional<double> m_skipLimit;
  std::optional<StageContext> m_wayContext;  // see contextNear
  std::vector<std::size_t>& m_dips = m_buffers.dips;  // indices into out, see cutLoops
};

}  // namespace rpgnav::detours
