// SPDX-License-Identifier: MIT
// Stage 8: a Catmull-Rom curve through the control points that provably keeps every rule.
#include "rpgnav/path/stages.hpp"

#include <algorithm>
#include <cmath>

namespace rpgnav {
namespace {

using Point = Eigen::Vector2d;

// The Bézier form of the Catmull-Rom span p1→p2 with neighbours p0 and p3 and knot spacing
// |Δp|^alpha (Barry-Goldman's pyramid, differentiated at the span's ends and scaled to the
// span's own parameter interval).
CubicSpan catmullRom(const Point& p0, const Point& p1, const Point& p2, const Point& p3, double alpha) {
  const double d0 = std::pow((p1 - p0).norm(), alpha), d1 = std::pow((p2 - p1).norm(), alpha),
               d2 = std::pow((p3 - p2).norm(), alpha);
  const Point m1 = ((p1 - p0) / d0 - (p2 - p0) / (d0 + d1) + (p2 - p1) / d1) * d1;
  const Point m2 = ((p2 - p1) / d1 - (p3 - p1) / (d1 + d2) + (p3 - p2) / d2) * d1;
  CubicSpan span;
  span.p = {p1.cast<float>(), Point(p1 + m1 / 3.0).cast<float>(), Point(p2 - m2 / 3.0).cast<float>(), p2.cast<float>()};
  return span;
}

// The span with its inner handles pulled towards the chord: scale 1 keeps it, 0 gives the
// straight segment (traversed at even speed).
CubicSpan tightened(const CubicSpan& span, double scale) {
  const Point a = span.p[0].cast<double>(), b = span.p[3].cast<double>();
  const Point straight1 = a + (b - a) / 3.0, straight2 = b - (b - a) / 3.0;
  CubicSpan out = span;
  out.p[1] = (straight1 + (span.p[1].cast<double>() - straight1) * scale).cast<float>();
  out.p[2] = (straight2 + (span.p[2].cast<double>() - straight2) * scale).cast<float>();
  return out;
}

class SpanChecker {
 public:
  SpanChecker(const StageContext& context, const EntityQuery& entities, Vec2 start, StageStats& stats)
      : m_context(context), m_entities(entities), m_start(start), m_stats(stats) {
    const double tile = double(context.map.layout().tileSize());
    // A piece is probed as a character wider by its spread, which must stay under half a tile.
    m_maxSpread = std::min(0.25 * tile, 0.499 * tile - double(context.radius));
    m_minSpread = 1e-5 * tile;
    m_uniformCost = context.uniformCost();
  }

  // True when the whole curve of `span` keeps the rules.
  bool valid(const CubicSpan& span) {
    const Vec2 a = span.p[0], b = span.p[3];
    m_limit = m_context.lines.cheapestCost();
    if (!m_uniformCost) {
      ++m_stats.probes;
      m_limit = m_context.dearestTerrain(a, b, m_context.probe(a, b));
    }
    // Every entity the curve could reach: within its spread of the chord.
    m_found.clear();
    m_local.clear();
    const float reach = m_context.radius + float(span.spread()) + 1e-3f;
    m_entities.source.entitiesNear(a, b, reach, m_found);
    for (const Entity& entity : m_found) {
      if (m_entities.blocks(entity, m_start, m_context.radius)) m_local.push_back(entity);
    }
    return pieceValid(span, 0);
  }

 private:
  bool pieceValid(const CubicSpan& piece, int depth) {
    const double spread = piece.spread();
    if (spread <= m_maxSpread && chordValid(piece, spread)) return true;
    if (depth >= 14 || spread <= m_minSpread) return false;
    const auto halves = piece.split();
    return pieceValid(halves[0], depth + 1) && pieceValid(halves[1], depth + 1);
  }

  // The curve of the piece lies within `spread` of its chord: the chord, probed for a character
  // wider by `spread`, vouches for it.
  bool chordValid(const CubicSpan& piece, double spread) {
    const Vec2 a = piece.p[0], b = piece.p[3];
    const float wider = m_context.radius + float(spread);
    for (const Entity& entity : m_local) {
      if (entityTouchesSegment(entity, a, b, wider)) return false;
    }
    ++m_stats.probes;
    const SegmentProbe probe = m_context.probeWith(a, b, wider);
    if (!probe.clear) return false;
    if (m_uniformCost) return true;
    // Tiles within `spread` of the chord are crossed by the chord or by one of its two copies
    // shifted sideways by `spread` (tiles are far wider than the spread).
    Vec2 side = b - a;
    side = side.squaredNorm() > 0.0f ? Vec2(Vec2(-side.y(), side.x()).normalized() * float(spread)) : Vec2::Zero();
    for (const Vec2& offset : {Vec2(Vec2::Zero()), side, Vec2(-side)}) {
      const SegmentProbe shifted = m_context.lines.probe(a + offset, b + offset, 0.0f);
      if (!shifted.clear || m_context.dearestTerrain(a + offset, b + offset, shifted) > m_limit) return false;
    }
    return true;
  }

  const StageContext& m_context;
  const EntityQuery& m_entities;
  Vec2 m_start;
  StageStats& m_stats;
  double m_maxSpread = 0.0;
  double m_minSpread = 0.0;
  double m_limit = 0.0;
  bool m_uniformCost = true;
  std::vector<Entity> m_found, m_local;
};

}  // namespace

void smoothingStage(const StageContext& context, const SmoothingSettings& settings, const EntityQuery& entities,
                    const std::vector<Vec2>& points, SmoothPath& out, StageStats& stats) {
  stats.ran = true;
  stats.pointsIn = std::int32_t(points.size());
  out.clear();
  if (points.empty()) return;
  const double tile = double(context.map.layout().tileSize());
  // Repeated points would give zero knot intervals.
  std::vector<Point> p;
  for (const Vec2& point : points) {
    if (p.empty() || p.back() != point.cast<double>()) p.push_back(point.cast<double>());
  }
  std::vector<CubicSpan> spans;
  if (p.size() == 1) {
    CubicSpan still;
    still.p = {points.front(), points.front(), points.front(), points.front()};
    spans.push_back(still);
  }
  const double alpha = std::clamp(double(settings.alpha), 0.0, 1.0);
  const double maxDeviation = std::max(0.0, double(settings.maxDeviation)) * tile;
  SpanChecker checker(context, entities, points.front(), stats);
  for (std::size_t i = 0; i + 1 < p.size(); ++i) {
    // At the ends the missing neighbour is the next point mirrored: the curve starts (ends) along
    // the first (last) segment.
    const Point before = i > 0 ? p[i - 1] : Point(2.0 * p[i] - p[i + 1]);
    const Point after = i + 2 < p.size() ? p[i + 2] : Point(2.0 * p[i + 1] - p[i]);
    CubicSpan span = catmullRom(before, p[i], p[i + 1], after, alpha);
    const double spread = span.spread();
    if (spread > maxDeviation) span = tightened(span, maxDeviation / spread);
    // Tighten until the checker vouches for the whole curve; the straight segment needs no
    // check (the earlier stages made it valid).
    CubicSpan kept = tightened(span, 0.0);
    if (span.spread() > 0.0) {
      for (const double scale : {1.0, 0.5, 0.25}) {
        const CubicSpan candidate = tightened(span, scale);
        if (checker.valid(candidate)) {
          kept = candidate;
          break;
        }
      }
      if (kept.p != span.p) ++stats.repairs;
    }
    span = kept;
    spans.push_back(span);
  }
  out.assign(std::move(spans), double(settings.tolerance) * tile);
  stats.pointsOut = std::int32_t(out.samples().size());
}

}  // namespace rpgnav
