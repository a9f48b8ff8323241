// SPDX-License-Identifier: MIT
// Stage 7: lead the path round other entities' personal spaces.
#include "rpgnav/path/stages.hpp"

#include "path/legs.hpp"


#include <algorithm>
#include <cmath>
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
};

// The stage's scratch (see StageScratch): a warm query allocates nothing.
struct Buffers : detail::ScratchSlot {
  std::vector<Entity> found, near, group, local;
  std::vector<Point> corners, points, hull;
  std::vector<Candidate> candidates;
  std::vector<Vec2> candidatePoints, out;
  std::vector<Barrier> barriers;
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

  void run(std::vector<Vec2>& points, std::vector<PathDetour>& detours, DetourOutcome& outcome) {
    m_start = points.front();
    // Built in the scratch and copied back (neither buffer changes hands): nothing is allocated
    // once warm.
    std::vector<Vec2>& out = m_buffers.out;
    out.assign(1, points.front());
    const double horizon = double(m_settings.horizon) * double(m_context.map.layout().tileSize());
    double along = 0.0;  // of the input path, to the start of the segment
    for (std::size_t i = 1; i < points.size(); ++i) {
      const Vec2 a = out.back(), b = points[i];
      if (horizon > 0.0 && along > horizon) {
        out.insert(out.end(), points.begin() + std::ptrdiff_t(i), points.end());
        break;
      }
      if (!routeSegment(a, b, horizon > 0.0 ? std::max(horizon - along, 1e-9) : 0.0, out, detours, outcome)) break;
      along += double((points[i] - points[i - 1]).norm());
    }
    points.assign(out.begin(), out.end());
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
      const std::span<const Vec2> way = pointsOf(*m_best);
      out.insert(out.end(), way.begin(), way.end());
      detours.push_back({blocker.id, std::int32_t(m_group.size()), firstIndex, std::int32_t(way.size())});
      if (m_best->toEnd) break;
      a = out.back();  // the anchor after the group, on a→b
    }
    out.push_back(b);
    return true;
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
    // The doors that are walls anywhere a side could run (beyond the route's ground, which the
    // planner gathered them for).
    StageContext wayContext = m_context;
    if (m_context.barrierSource != nullptr) {
      m_context.barrierSource->barriersNear(a.cwiseMin(b), a.cwiseMax(b), float(spread) + m_context.radius + m_margin,
                                            m_barriers);
      wayContext.barriers = m_barriers;
    }
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
    std::sort(m_candidates.begin(), m_candidates.end(),
              [](const Candidate& p, const Candidate& q) { return p.length < q.length; });
    // No side may lead over terrain dearer than the dearest the segment crosses.
    double limit = m_context.lines.cheapestCost();
    if (!m_uniformCost) {
      ++m_stats.probes;
      limit = m_context.dearestTerrain(a, b, m_context.probe(a, b));
    }
    std::optional<Entity> inTheWay;
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
        ++m_stats.probes;
        const SegmentProbe piece = wayContext.probe(from, to);
        valid = piece.clear && (m_uniformCost || m_context.dearestTerrain(from, to, piece) <= limit);
        from = to;
      }
      if (valid) {
        m_best = candidate;
        return std::nullopt;
      }
    }
    return inTheWay;
  }

  std::span<const Vec2> pointsOf(const Candidate& candidate) const {
    return std::span<const Vec2>(m_candidatePoints).subspan(candidate.first, candidate.count);
  }

  // The two ways round the group's corners from p to q (on line a→b), as candidates that start
  // at a and end at b.
  void addSides(const Point& pa, const Point& pb, const Point& p, const Point& q) {
    m_points = m_corners;
    m_points.push_back(p);
    m_points.push_back(q);
    convexHull(m_points, m_hull);
    const double tolerance = 1e-9 * std::max(1.0, std::max(p.cwiseAbs().maxCoeff(), q.cwiseAbs().maxCoeff()));
    auto find = [&](const Point& x) {
      for (std::size_t i = 0; i < m_hull.size(); ++i) {
        if ((m_hull[i] - x).norm() <= tolerance) return std::ptrdiff_t(i);
      }
      return std::ptrdiff_t(-1);
    };
    const std::ptrdiff_t ip = find(p), iq = find(q);
    if (ip < 0 || iq < 0) return;  // an anchor inside the group's hull: no way round from it
    const auto n = std::ptrdiff_t(m_hull.size());
    for (const std::ptrdiff_t direction : {std::ptrdiff_t(1), n - 1}) {
      Candidate candidate;
      candidate.first = m_candidatePoints.size();
      if ((p - pa).norm() > tolerance) m_candidatePoints.push_back(p.cast<float>());
      Point previous = p;
      candidate.length = (p - pa).norm();
      for (std::ptrdiff_t i = (ip + direction) % n; i != iq; i = (i + direction) % n) {
        m_candidatePoints.push_back(m_hull[std::size_t(i)].cast<float>());
        candidate.length += (m_hull[std::size_t(i)] - previous).norm();
        previous = m_hull[std::size_t(i)];
      }
      candidate.length += (q - previous).norm();
      if ((pb - q).norm() > tolerance) {
        m_candidatePoints.push_back(q.cast<float>());
        candidate.length += (pb - q).norm();
        candidate.toEnd = false;
      }
      candidate.count = m_candidatePoints.size() - candidate.first;
      m_candidates.push_back(candidate);
    }
  }

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
  stats.ran = true;
  stats.pointsIn = std::int32_t(points.size());
  detours.clear();
  outcome = {};
  StageScratch fallback;
  Buffers& buffers = context.buffers<Buffers>(detail::ScratchUse::Detours, fallback);
  if (!points.empty()) DetourFinder(context, settings, entities, stats, buffers).run(points, detours, outcome);
  stats.pointsOut = std::int32_t(points.size());
}

}  // namespace rpgnav
