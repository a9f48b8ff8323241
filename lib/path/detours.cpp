// SPDX-License-Identifier: MIT
// Stage 7: lead the path round other entities' personal spaces.
#include "path/stages.hpp"

#include "path/legs.hpp"


#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numbers>

namespace rpgnav {
namespace {

int polygonSides(const DetourSettings& settings) { return std::clamp(settings.polygonSides, 4, 64); }

// The distance from an entity's centre to the corners of the regular polygon circumscribed
// about its disc grown by the body's radius and the margin (world units).
double cornerDistance(const DetourSettings& settings, float entityRadius, float bodyRadius, float margin) {
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
           std::chrono::steady_clock::time_point deadline) {
    m_start = points.front();
    // Built in the scratch and copied back (neither buffer changes hands): nothing is allocated
    // once warm.
    std::vector<Vec2>& out = m_buffers.out;
    if (!progress.begun) {
      out.assign(1, points.front());
      m_dips.clear();
      progress = {true, 1, 0.0, 0};
    }
    const double horizon = double(m_settings.horizon) * double(m_context.map.layout().tileSize());
    double along = progress.along;  // of the input path, to the start of the segment
    const std::size_t first = progress.next;
    for (std::size_t i = first; i < points.size(); ++i) {
      if (i > first && std::chrono::steady_clock::now() >= deadline) {
        progress.next = i;
        progress.along = along;
        return false;
      }
      ++progress.routed;
      const Vec2 a = out.back(), b = points[i];
      if (horizon > 0.0 && along > horizon) {
        out.insert(out.end(), points.begin() + std::ptrdiff_t(i), points.end());
        break;
      }
      const double reach = horizon > 0.0 ? std::max(horizon - along, 1e-9) : 0.0;
      const std::size_t kept = out.size(), keptDetours = detours.size(), keptDips = m_dips.size();
      if (routeSegment(a, b, reach, out, detours, outcome)) {
        along += double((b - a).norm());
        continue;
      }
      // A point within something's grown space (the centre of a tile a barrel stands on) has no
      // way round to it: go round to where the path leaves that space instead (beyond it on the
      // next segment, or a later one), every piece checked for walls. If there is no such way
      // the path stops in front as before. (Looked at only once the segment is blocked: a
      // segment to a point within a blocker always is.)
      std::size_t last = i;
      std::optional<Vec2> leaving;
      while (last + 1 < points.size() && withinBlocker(points[last])) {
        leaving = whereFree(points[last], points[last + 1]);
        if (leaving) break;
        ++last;
      }
      if (!leaving) break;
      out.resize(kept);
      detours.resize(keptDetours);
      m_dips.resize(keptDips);
      outcome = {};
      // Straight on to the point after (the shorter way when walls allow), else to where the
      // path leaves.
      if (routePast(a, points, i, last, points[last + 1], false, reach, out, detours, outcome)) {
        for (std::size_t k = i; k <= last + 1; ++k) along += double((points[k] - points[k - 1]).norm());
        i = last + 1;
        continue;
      }
      if (routePast(a, points, i, last, *leaving, true, reach, out, detours, outcome)) {
        for (std::size_t k = i; k <= last; ++k) along += double((points[k] - points[k - 1]).norm());
        along += double((*leaving - points[last]).norm());
        i = last;  // on from the point it leaves at, to points[last + 1]
        continue;
      }
      // Blocked after all: stop as the segment's routing did (the same call, the same answer).
      routeSegment(a, b, reach, out, detours, outcome);
      break;
    }
    cutLoops(detours);
    points.assign(out.begin(), out.end());
    return true;
  }

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
                    DetourOutcome& outcome) {
    const Vec2 segmentStart = a;
    // Bounded: every pass goes round at least one entity and moves `a` past it for good.
    while (a != b) {
      const Entity* first = firstBlocker(a, b);
      if (first == nullptr) break;
      // Beyond the horizon the segment is kept as it is (from the second blocker on: the first
      // one of a segment that begins within the horizon is always gone round).
      if (reach > 0.0 && a != segmentStart && double((a - segmentStart).norm()) + entryDistance(*first, a, b) > reach) break;
      const Entity blocker = *first;
      m_group.clear();
      addToGroup(blocker);
      // Bounded: every retry adds at least one entity to the group.
      while (true) {
        const std::optional<Entity> inTheWay = tryDetour(a, b);
        if (m_best) break;
        if (!inTheWay || std::int32_t(m_group.size()) >= m_settings.maxGroup || inGroup(inTheWay->id)) break;
        addToGroup(*inTheWay);
      }
      if (!m_best && !m_passAvoiding && groupHasAvoiding()) {
        // Characters under local avoidance make way for each other (LocalAvoidance): a crowd of
        // them never ends a path. Route this segment again through them, round the rest.
        m_passAvoiding = true;
        const bool routed = routeSegment(a, b, reach > 0.0 ? std::max(reach - double((a - segmentStart).norm()), 1e-9) : 0.0,
                                         out, detours, outcome);
        m_passAvoiding = false;
        return routed;
      }
      if (!m_best) {
        // No way round: stop in front of the blocker's grown space.
        const double entry = entryDistance(blocker, a, b);
        const Vec2 direction = (b - a).normalized();
        const Vec2 stop = a + direction * float(std::max(0.0, entry - double(m_stopGap)));
        if ((stop - a).norm() > 0.0f) out.push_back(stop);
        outcome.blocked = true;
        outcome.blocker = blocker.id;
        outcome.stop = out.back();
        return false;
      }
      const std::int32_t firstIndex = std::int32_t(out.size());
      // A dip: the segment's start, when the way leaves from it (stepping out of the hull, or
      // turning back round a polygon the way in passed). Not round characters (notFurniture).
      if (m_best->fromStart && !groupHasAvoiding()) m_dips.push_back(out.size() - 1);
      const std::span<const Vec2> way = pointsOf(*m_best);
      out.insert(out.end(), way.begin(), way.end());
      detours.push_back({blocker.id, std::int32_t(m_group.size()), firstIndex, std::int32_t(way.size())});
      if (m_best->toEnd) {
        if (m_best->endsInside) m_dips.push_back(out.size());
        out.push_back(b);
        return true;
      }
      a = out.back();  // the anchor after the group, on a→b
    }
    if (!directPieceClear(a, b)) return false;
    out.push_back(b);
    return true;
  }

  // Routes a→target (on points[last]→points[last + 1], its end included), past the points
  // i..last that lie within blockers: true when every piece is clear of walls and no dearer than
  // the terrain the path it replaces crosses (`tidy`: a target short of points[last + 1], see
  // tidyLeaving). On failure `out`, `detours`, the dips and `outcome` are as they were.
  bool routePast(Vec2 a, const std::vector<Vec2>& points, std::size_t i, std::size_t last, Vec2 target, bool tidy,
                 double reach, std::vector<Vec2>& out, std::vector<PathDetour>& detours, DetourOutcome& outcome) {
    const std::size_t kept = out.size(), keptDetours = detours.size(), keptDips = m_dips.size();
    double limit = m_context.lines.cheapestCost();
    if (!m_uniformCost) {
      Vec2 from = a;
      for (std::size_t k = i; k <= last + 1; ++k) {
        const Vec2 to = k <= last ? points[k] : target;
        ++m_stats.probes;
        limit = std::max(limit, m_context.dearestTerrain(from, to, m_context.probe(from, to)));
        from = to;
      }
    }
    m_skipLimit = limit;
    const bool routed = routeSegment(a, target, reach, out, detours, outcome);
    if (routed && tidy) tidyLeaving(points[last + 1], detours);
    m_skipLimit.reset();
    if (routed) return true;
    out.resize(kept);
    detours.resize(keptDetours);
    m_dips.resize(keptDips);
    outcome = {};
    return false;
  }

  // After routing to where the path leaves a blocker's space: the way round ends with a step
  // out of the group's hull and that point, often just short of the way's last corner (a
  // backtrack of a hair). Drops them while the point before sees `next` directly.
  void tidyLeaving(Vec2 next, std::vector<PathDetour>& detours) {
    std::vector<Vec2>& out = m_buffers.out;
    while (out.size() >= 3) {
      const Vec2 before = out[out.size() - 2];
      // Only the way's own points: the last detour keeps at least one.
      const bool ownPoint = detours.empty() || std::int32_t(out.size()) - 1 > detours.back().first;
      if (!ownPoint || !straightClear(before, next, *m_skipLimit)) break;
      out.pop_back();
      if (!detours.empty() && detours.back().first + detours.back().count > std::int32_t(out.size())) --detours.back().count;
    }
    // A dip recorded at a dropped point would name whatever comes there next.
    while (!m_dips.empty() && m_dips.back() >= out.size()) m_dips.pop_back();
  }

  // Dips: segment ends where a way round leaves from, or that one steps out of a hull to reach.
  // Ways in and out round the same polygon on opposite sides make a loop there: the path comes
  // back to a point it has passed (out of the hull, in to the end, and out again to the very same
  // point: a spike). Each loop is cut where it closes. (What turns back without closing a loop is
  // left to stage 8, which keeps the spans beside a sharp turn straight.)
  void cutLoops(std::vector<PathDetour>& detours) {
    std::vector<Vec2>& out = m_buffers.out;
    std::sort(m_dips.begin(), m_dips.end());
    m_dips.erase(std::unique(m_dips.begin(), m_dips.end()), m_dips.end());
    // A way round one polygon has at most its corners and two steps out: a loop through a dip
    // comes back within that many points.
    const std::size_t window = std::size_t(polygonSides(m_settings)) + 2;
    std::size_t erased = 0, cutUpTo = 0;  // (cutUpTo: the last original index a cut took)
    for (const std::size_t dip : m_dips) {
      if (dip <= cutUpTo) continue;
      const std::size_t k = dip - erased;
      if (k == 0 || k + 1 >= out.size()) continue;  // the path's own ends stay
      if (const std::optional<std::pair<std::size_t, std::size_t>> loop = loopThrough(k, window)) {
        const auto [from, to] = *loop;
        for (std::size_t n = from; n < to; ++n) eraseOut(from + 1, detours);
        cutUpTo = to + erased;
        erased += to - from;
      }
    }
  }

  // The widest loop out[j] == out[m], j < k < m, within `window` of k, if any: cut there, it
  // takes the narrower ones inside it too.
  std::optional<std::pair<std::size_t, std::size_t>> loopThrough(std::size_t k, std::size_t window) const {
    const std::vector<Vec2>& out = m_buffers.out;
    const std::size_t last = std::min(out.size() - 1, k + window);
    for (std::size_t j = k > window ? k - window : 0; j < k; ++j) {
      for (std::size_t m = last; m > k; --m) {
        if (out[j] == out[m]) return std::pair{j, m};
      }
    }
    return std::nullopt;
  }

  // Removes out[k], keeping every detour's run of points right.
  void eraseOut(std::size_t k, std::vector<PathDetour>& detours) {
    std::vector<Vec2>& out = m_buffers.out;
    out.erase(out.begin() + std::ptrdiff_t(k));
    const auto index = std::int32_t(k);
    for (PathDetour& detour : detours) {
      if (index < detour.first) {
        --detour.first;
      } else if (index < detour.first + detour.count) {
        --detour.count;
      }
    }
    std::erase_if(detours, [](const PathDetour& detour) { return detour.count == 0; });
  }

  // A straight piece clear of every entity in the way, of walls and of doors that are walls,
  // over terrain no dearer than `limit`.
  bool straightClear(Vec2 from, Vec2 to, double limit) {
    blockersOf(from, to);
    return m_near.empty() && piecePasses(contextNear(from, to, 0.0f), from, to, limit);
  }

  // One probe: the piece is clear of walls (and of the context's doors) and crosses no terrain
  // dearer than `limit`.
  bool piecePasses(const StageContext& context, Vec2 from, Vec2 to, double limit) {
    ++m_stats.probes;
    const SegmentProbe piece = context.probe(from, to);
    return piece.clear && (m_uniformCost || m_context.dearestTerrain(from, to, piece) <= limit);
  }

  // The stage's context with the doors that are walls anywhere within `spread` (and the radius
  // and margin) of from→to, beyond the route's ground which the planner gathered them for.
  const StageContext& contextNear(Vec2 from, Vec2 to, float spread) {
    m_wayContext.emplace(m_context);
    if (m_context.barrierSource != nullptr) {
      m_context.barrierSource->barriersNear(from.cwiseMin(to), from.cwiseMax(to), spread + m_context.radius + m_margin,
                                            m_barriers);
      m_wayContext->barriers = m_barriers;
    }
    return *m_wayContext;
  }

  // The first point of from→to (from within some blocker's grown space) outside every blocker's,
  // a hair beyond the last one it leaves; none when that is not before `to`.
  std::optional<Vec2> whereFree(Vec2 from, Vec2 to) {
    const Point p = from.cast<double>(), d = (to - from).cast<double>();
    const double length2 = d.squaredNorm();
    if (length2 == 0.0) return std::nullopt;
    double t = 0.0;
    // Bounded: every pass moves t past one more entity's space, and there are at most maxGroup.
    for (std::int32_t pass = 0; pass < m_settings.maxGroup; ++pass) {
      const Point x = p + t * d;
      m_found.clear();
      m_entities.source.entitiesNear(x.cast<float>(), x.cast<float>(), m_context.radius, m_found);
      bool moved = false;
      for (const Entity& entity : m_found) {
        if (notFurniture(entity)) continue;
        const double grown = double(entity.radius) + double(m_context.radius);
        const Point c = entity.position.cast<double>();
        if ((x - c).squaredNorm() >= grown * grown) continue;
        // The far root of |p + s d - c| = grown, a hair beyond.
        const double along = (c - p).dot(d) / length2;
        const double offset2 = (p + along * d - c).squaredNorm();
        const double half = std::sqrt(std::max(0.0, grown * grown - offset2) / length2);
        t = along + half + kStepOut * double(m_context.map.layout().tileSize()) / std::sqrt(length2);
        moved = true;
        break;
      }
      if (!moved) return Vec2((p + t * d).cast<float>());
      // Out within a hair of `to`: `to` itself, if it is free.
      if (t >= 1.0) return withinBlocker(to) ? std::nullopt : std::optional<Vec2>(to);
    }
    return std::nullopt;
  }

  // Characters under local avoidance make way themselves: no point is passed by and no way steps
  // out of the polygon for one standing close (the bend would outlast its moving on, and weave
  // the path of a whole crowd in a corridor); with no plain way round them the segment passes
  // through them (see routeSegment).
  bool notFurniture(const Entity& entity) const { return ignored(entity) || (entity.flags & kEntityAvoiding) != 0; }

  bool withinBlocker(Vec2 point) {
    m_found.clear();
    m_entities.source.entitiesNear(point, point, m_context.radius, m_found);
    return std::any_of(m_found.begin(), m_found.end(), [&](const Entity& entity) {
      const float grown = entity.radius + m_context.radius;
      return !notFurniture(entity) && (entity.position - point).squaredNorm() < grown * grown;
    });
  }

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
  void blockersOf(Vec2 a, Vec2 b) {
    m_near.clear();
    m_found.clear();
    m_entities.source.entitiesNear(a, b, m_context.radius, m_found);
    for (const Entity& entity : m_found) {
      if (!ignored(entity) && entityTouchesSegment(entity, a, b, m_context.radius)) m_near.push_back(entity);
    }
  }

  // Distance along a→b at which the segment enters the entity's grown space.
  double entryDistance(const Entity& entity, Vec2 a, Vec2 b) const {
    const Point p = a.cast<double>(), d = (b - a).cast<double>().normalized(), c = entity.position.cast<double>();
    const double grown = double(entity.radius) + double(m_context.radius);
    const double along = (c - p).dot(d);
    const double offset2 = (c - p).squaredNorm() - along * along;
    return std::max(0.0, along - std::sqrt(std::max(0.0, grown * grown - offset2)));
  }

  const Entity* firstBlocker(Vec2 a, Vec2 b) {
    blockersOf(a, b);
    const Entity* first = nullptr;
    double best = 0.0;
    for (const Entity& entity : m_near) {
      const double entry = entryDistance(entity, a, b);
      if (first == nullptr || entry < best || (entry == best && entity.id < first->id)) {
        first = &entity;
        best = entry;
      }
    }
    return first;
  }

  bool inGroup(EntityId id) const {
    return std::any_of(m_group.begin(), m_group.end(), [&](const Entity& e) { return e.id == id; });
  }

  // Adds an entity and, transitively, every entity too close to it to pass between.
  void addToGroup(const Entity& seed) {
    std::size_t next = m_group.size();
    m_group.push_back(seed);
    const float gap = 2.0f * (m_context.radius + m_margin);
    while (next < m_group.size() && std::int32_t(m_group.size()) < m_settings.maxGroup) {
      const Entity member = m_group[next++];
      m_found.clear();
      m_entities.source.entitiesNear(member.position, member.position, member.radius + gap, m_found);
      for (const Entity& other : m_found) {
        if (ignored(other) || inGroup(other.id)) continue;
        const float limit = member.radius + other.radius + gap;
        if ((other.position - member.position).squaredNorm() < limit * limit &&
            std::int32_t(m_group.size()) < m_settings.maxGroup) {
          m_group.push_back(other);
        }
      }
    }
  }

  // Finds the shortest valid way round the group into m_best; otherwise returns an entity that
  // stood in the way of some side (to join the group), if any.
  std::optional<Entity> tryDetour(Vec2 a, Vec2 b) {
    m_best.reset();
    // The group's polygon corners: each grown disc by a circumscribed regular polygon.
    const int sides = polygonSides(m_settings);
    const double step = 2.0 * std::numbers::pi / double(sides);
    m_corners.clear();
    for (const Entity& entity : m_group) {
      const double grown = cornerDistance(m_settings, entity.radius, m_context.radius, m_margin);
      for (int k = 0; k < sides; ++k) {
        m_corners.push_back(entity.position.cast<double>() + grown * Point(std::cos(step * k), std::sin(step * k)));
      }
    }
    // Anchors: the segment's ends, and points just before and after the group along it.
    const Point pa = a.cast<double>(), pb = b.cast<double>();
    const double length = (pb - pa).norm();
    const Point u = (pb - pa) / length;
    double low = length, high = 0.0;
    for (const Point& c : m_corners) {
      low = std::min(low, (c - pa).dot(u));
      high = std::max(high, (c - pa).dot(u));
    }
    // Every side lies within the hull of a, b and the corners, so within `spread` of a→b: one
    // query finds every entity a side could run into.
    double spread = 0.0;
    for (const Point& c : m_corners) {
      const double along = std::clamp((c - pa).dot(u), 0.0, length);
      spread = std::max(spread, (pa + u * along - c).norm());
    }
    m_found.clear();
    m_entities.source.entitiesNear(a, b, float(spread) + m_context.radius + m_margin, m_found);
    // The doors that are walls anywhere a side could run.
    const StageContext& wayContext = contextNear(a, b, float(spread));
    m_local.clear();
    for (const Entity& entity : m_found) {
      if (!ignored(entity)) m_local.push_back(entity);
    }
    const double lead = 0.5 * double(m_context.map.layout().tileSize());
    m_candidates.clear();
    m_candidatePoints.clear();
    addSides(pa, pb, pa, pb);
    const double from = low - lead, to = high + lead;
    if (from > 0.0 && to < length) addSides(pa, pb, pa + u * from, pa + u * to);
    // No side may lead over terrain dearer than the dearest the segment crosses.
    double limit = m_context.lines.cheapestCost();
    if (m_skipLimit) {
      limit = *m_skipLimit;
    } else if (!m_uniformCost) {
      ++m_stats.probes;
      limit = m_context.dearestTerrain(a, b, m_context.probe(a, b));
    }
    std::optional<Entity> inTheWay;
    if (validWay(a, b, wayContext, limit, inTheWay)) return std::nullopt;
    // The segment starts (or ends) within a lead of the group, so there was no anchor on that
    // side: round the group alone, from the start to the anchor after it (or from the anchor
    // before it to the end), before the group grows by what those ways met (something further
    // along that the rest of the segment goes round on its own: an S round two pieces of
    // furniture in a narrow room).
    if ((from <= 0.0) != (to >= length) && !groupHasAvoiding()) {  // see notFurniture
      m_candidates.clear();
      m_candidatePoints.clear();
      addSides(pa, pb, from > 0.0 ? Point(pa + u * from) : pa, to < length ? Point(pa + u * to) : pb);
      std::optional<Entity> metToo;
      if (validWay(a, b, wayContext, limit, metToo)) return std::nullopt;
      if (!inTheWay) inTheWay = metToo;
    }
    return inTheWay;
  }

  // The shortest valid way of m_candidates into m_best; false when none is valid (`inTheWay`:
  // an entity outside the group that some way ran into, if any).
  bool validWay(Vec2 a, Vec2 b, const StageContext& wayContext, double limit, std::optional<Entity>& inTheWay) {
    std::sort(m_candidates.begin(), m_candidates.end(),
              [](const Candidate& p, const Candidate& q) { return p.length < q.length; });
    for (const Candidate& candidate : m_candidates) {
      const std::span<const Vec2> way = pointsOf(candidate);
      // Entities first (a look at the local list), then walls and terrain (probes); the way's
      // points, then b.
      auto point = [&](std::size_t i) { return i < way.size() ? way[i] : b; };
      // A way to the anchor after the group is checked up to that anchor (its last point).
      const std::size_t pieces = candidate.toEnd ? way.size() + 1 : way.size();
      bool valid = true;
      Vec2 from = a;
      for (std::size_t i = 0; i < pieces; ++i) {
        const Vec2 to = point(i);
        const auto hit = std::find_if(m_local.begin(), m_local.end(), [&](const Entity& entity) {
          return entityTouchesSegment(entity, from, to, m_context.radius);
        });
        if (hit != m_local.end()) {
          valid = false;
          if (!inGroup(hit->id) && !inTheWay) inTheWay = *hit;
          break;
        }
        from = to;
      }
      from = a;
      for (std::size_t i = 0; valid && i < pieces; ++i) {
        const Vec2 to = point(i);
        valid = piecePasses(wayContext, from, to, limit);
        from = to;
      }
      if (valid) {
        m_best = candidate;
        return true;
      }
    }
    return false;
  }

  std::span<const Vec2> pointsOf(const Candidate& candidate) const {
    return std::span<const Vec2>(m_candidatePoints).subspan(candidate.first, candidate.count);
  }

  // The two ways round the group's corners from p to q (on line a→b), as candidates that start
  // at a and end at b. An end within the corners' hull (a character standing by furniture, nearer
  // than the polygon's corners though outside its disc) first steps out of it, to just beyond
  // the nearest hull edge: otherwise it would have no way round at all.
  void addSides(const Point& pa, const Point& pb, const Point& p, const Point& q) {
    const double tolerance = 1e-9 * std::max(1.0, std::max(p.cwiseAbs().maxCoeff(), q.cwiseAbs().maxCoeff()));
    Point pOut = p, qOut = q;
    std::ptrdiff_t ip = -1, iq = -1;
    const int attempts = groupHasAvoiding() ? 1 : 2;  // see notFurniture
    for (int attempt = 0; attempt < attempts && (ip < 0 || iq < 0); ++attempt) {
      if (attempt == 1) {
        m_points = m_corners;
        convexHull(m_points, m_hull);
        if (ip < 0) pOut = outOfHull(p);
        if (iq < 0) qOut = outOfHull(q);
      }
      m_points = m_corners;
      m_points.push_back(pOut);
      m_points.push_back(qOut);
      convexHull(m_points, m_hull);
      ip = findOnHull(pOut, tolerance);
      iq = findOnHull(qOut, tolerance);
    }
    if (ip < 0 || iq < 0) return;  // no way out of the hull
    const auto n = std::ptrdiff_t(m_hull.size());
    for (const std::ptrdiff_t direction : {std::ptrdiff_t(1), n - 1}) {
      Candidate candidate;
      candidate.first = m_candidatePoints.size();
      Point previous = pa;
      auto add = [&](const Point& x) {
        m_candidatePoints.push_back(x.cast<float>());
        candidate.length += (x - previous).norm();
        previous = x;
      };
      if ((p - pa).norm() > tolerance) add(p);
      if (pOut != p) add(pOut);
      candidate.fromStart = (p - pa).norm() <= tolerance;
      candidate.endsInside = qOut != q && (pb - q).norm() <= tolerance;
      for (std::ptrdiff_t i = (ip + direction) % n; i != iq; i = (i + direction) % n) add(m_hull[std::size_t(i)]);
      if (qOut != q) add(qOut);
      if ((pb - q).norm() > tolerance) {
        add(q);
        candidate.toEnd = false;
      }
      candidate.length += (pb - previous).norm();
      candidate.count = m_candidatePoints.size() - candidate.first;
      m_candidates.push_back(candidate);
    }
  }

  std::ptrdiff_t findOnHull(const Point& x, double tolerance) const {
    for (std::size_t i = 0; i < m_hull.size(); ++i) {
      if ((m_hull[i] - x).norm() <= tolerance) return std::ptrdiff_t(i);
    }
    return -1;
  }

  // x itself when it is not inside m_hull (counter-clockwise, y up); otherwise x moved across
  // the nearest hull edge to a hair beyond it.
  Point outOfHull(const Point& x) const {
    if (m_hull.size() < 3) return x;
    double nearest = std::numeric_limits<double>::infinity();
    Point out = x;
    for (std::size_t i = 0; i < m_hull.size(); ++i) {
      const Point& from = m_hull[i];
      const Point edge = m_hull[(i + 1) % m_hull.size()] - from;
      const double length = edge.norm();
      if (length == 0.0) continue;
      const double inside = detail::cross(edge, x - from) / length;  // > 0: on the inner side
      if (inside <= 0.0) return x;
      if (inside < nearest) {
        nearest = inside;
        out = x + Point(edge.y(), -edge.x()) / length * (inside + kStepOut * double(m_context.map.layout().tileSize()));
      }
    }
    return out;
  }

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

}  // namespace

float detourReach(const DetourSettings& settings, float entityRadius, float bodyRadius, float tileSize) noexcept {
  return float(cornerDistance(settings, entityRadius, bodyRadius, settings.margin * tileSize));
}

bool EntityQuery::blocks(const Entity& entity, Vec2 start, float radius) const {
  if (entity.flat()) return false;
  if (self.value != 0 && entity.id == self) return false;
  if (std::find(ignore.begin(), ignore.end(), entity.id) != ignore.end()) return false;
  // An entity whose space already holds the start: the character stands in it and may leave.
  const float grown = entity.radius + radius;
  return (entity.position - start).squaredNorm() >= grown * grown;
}

void detourStage(const StageContext& context, const DetourSettings& settings, const EntityQuery& entities,
                 std::vector<Vec2>& points, std::vector<PathDetour>& detours, DetourOutcome& outcome,
                 StageStats& stats) {
  DetourProgress progress;
  detourStageUntil(context, settings, entities, points, detours, outcome, stats, progress,
                   std::chrono::steady_clock::time_point::max());
}

bool detourStageUntil(const StageContext& context, const DetourSettings& settings, const EntityQuery& entities,
                      std::vector<Vec2>& points, std::vector<PathDetour>& detours, DetourOutcome& outcome,
                      StageStats& stats, DetourProgress& progress, std::chrono::steady_clock::time_point deadline) {
  if (!progress.begun) {
    stats.ran = true;
    stats.pointsIn = std::int32_t(points.size());
    detours.clear();
    outcome = {};
  }
  // A piece at a time needs the context's scratch (the way so far waits there between calls).
  StageScratch fallback;
  if (context.scratch == nullptr) deadline = std::chrono::steady_clock::time_point::max();
  Buffers& buffers = context.buffers<Buffers>(detail::ScratchUse::Detours, fallback);
  if (!points.empty() && !DetourFinder(context, settings, entities, stats, buffers).run(points, detours, outcome, progress, deadline)) {
    return false;
  }
  stats.pointsOut = std::int32_t(points.size());
  return true;
}

}  // namespace rpgnav
