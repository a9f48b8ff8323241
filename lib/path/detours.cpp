// SPDX-License-Identifier: MIT
// Stage 7: lead the path round other entities' personal spaces.
#include "path/detour_finder.hpp"

#include <limits>

namespace rpgnav {
namespace detours {

bool DetourFinder::run(std::vector<Vec2>& points, std::vector<PathDetour>& detours, DetourOutcome& outcome,
                       DetourProgress& progress, std::chrono::steady_clock::time_point deadline) {
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

bool DetourFinder::routeSegment(Vec2 a, Vec2 b, double reach, std::vector<Vec2>& out, std::vector<PathDetour>& detours,
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

bool DetourFinder::routePast(Vec2 a, const std::vector<Vec2>& points, std::size_t i, std::size_t last, Vec2 target,
                             bool tidy, double reach, std::vector<Vec2>& out, std::vector<PathDetour>& detours,
                             DetourOutcome& outcome) {
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

void DetourFinder::tidyLeaving(Vec2 next, std::vector<PathDetour>& detours) {
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

void DetourFinder::cutLoops(std::vector<PathDetour>& detours) {
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

std::optional<std::pair<std::size_t, std::size_t>> DetourFinder::loopThrough(std::size_t k, std::size_t window) const {
  const std::vector<Vec2>& out = m_buffers.out;
  const std::size_t last = std::min(out.size() - 1, k + window);
  for (std::size_t j = k > window ? k - window : 0; j < k; ++j) {
    for (std::size_t m = last; m > k; --m) {
      if (out[j] == out[m]) return std::pair{j, m};
    }
  }
  return std::nullopt;
}

void DetourFinder::eraseOut(std::size_t k, std::vector<PathDetour>& detours) {
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

bool DetourFinder::piecePasses(const StageContext& context, Vec2 from, Vec2 to, double limit) {
  ++m_stats.probes;
  const SegmentProbe piece = context.probe(from, to);
  return piece.clear && (m_uniformCost || m_context.dearestTerrain(from, to, piece) <= limit);
}

const StageContext& DetourFinder::contextNear(Vec2 from, Vec2 to, float spread) {
  m_wayContext.emplace(m_context);
  if (m_context.barrierSource != nullptr) {
    m_context.barrierSource->barriersNear(from.cwiseMin(to), from.cwiseMax(to), spread + m_context.radius + m_margin,
                                          m_barriers);
    m_wayContext->barriers = m_barriers;
  }
  return *m_wayContext;
}

std::optional<Vec2> DetourFinder::whereFree(Vec2 from, Vec2 to) {
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

bool DetourFinder::withinBlocker(Vec2 point) {
  m_found.clear();
  m_entities.source.entitiesNear(point, point, m_context.radius, m_found);
  return std::any_of(m_found.begin(), m_found.end(), [&](const Entity& entity) {
    const float grown = entity.radius + m_context.radius;
    return !notFurniture(entity) && (entity.position - point).squaredNorm() < grown * grown;
  });
}

void DetourFinder::blockersOf(Vec2 a, Vec2 b) {
  m_near.clear();
  m_found.clear();
  m_entities.source.entitiesNear(a, b, m_context.radius, m_found);
  for (const Entity& entity : m_found) {
    if (!ignored(entity) && entityTouchesSegment(entity, a, b, m_context.radius)) m_near.push_back(entity);
  }
}

double DetourFinder::entryDistance(const Entity& entity, Vec2 a, Vec2 b) const {
  const Point p = a.cast<double>(), d = (b - a).cast<double>().normalized(), c = entity.position.cast<double>();
  const double grown = double(entity.radius) + double(m_context.radius);
  const double along = (c - p).dot(d);
  const double offset2 = (c - p).squaredNorm() - along * along;
  return std::max(0.0, along - std::sqrt(std::max(0.0, grown * grown - offset2)));
}

const Entity* DetourFinder::firstBlocker(Vec2 a, Vec2 b) {
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

}  // namespace detours


float detourReach(const DetourSettings& settings, float entityRadius, float bodyRadius, float tileSize) noexcept {
  return float(detours::cornerDistance(settings, entityRadius, bodyRadius, settings.margin * tileSize));
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
  detours::Buffers& buffers = context.buffers<detours::Buffers>(detail::ScratchUse::Detours, fallback);
  if (!points.empty() && !detours::DetourFinder(context, settings, entities, stats, buffers).run(points, detours, outcome, progress, deadline)) {
    return false;
  }
  stats.pointsOut = std::int32_t(points.size());
  return true;
}

}  // namespace rpgnav
