// SPDX-License-Identifier: MIT
// Stage 7's ways round a group of entities: the group, its polygon's hull, the two sides round it
// from anchors on the segment, and the shortest side clear of walls, dearer terrain and other entities.
#include "path/detour_finder.hpp"

#include <limits>

namespace rpgnav::detours {

void DetourFinder::addToGroup(const Entity& seed) {
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

std::optional<Entity> DetourFinder::tryDetour(Vec2 a, Vec2 b) {
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

bool DetourFinder::validWay(Vec2 a, Vec2 b, const StageContext& wayContext, double limit, std::optional<Entity>& inTheWay) {
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

void DetourFinder::addSides(const Point& pa, const Point& pb, const Point& p, const Point& q) {
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

std::ptrdiff_t DetourFinder::findOnHull(const Point& x, double tolerance) const {
  for (std::size_t i = 0; i < m_hull.size(); ++i) {
    if ((m_hull[i] - x).norm() <= tolerance) return std::ptrdiff_t(i);
  }
  return -1;
}

Point DetourFinder::outOfHull(const Point& x) const {
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

}  // namespace rpgnav::detours
