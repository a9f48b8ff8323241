// SPDX-License-Identifier: MIT
// Stage 8: a Catmull-Rom curve through the control points that provably keeps every rule.
#include "rpgnav/path/stages.hpp"

#include "path/legs.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace rpgnav {
namespace {

using Point = Eigen::Vector2d;

// The Bézier form of the Catmull-Rom span p1→p2 with neighbours p0 and p3 and knot spacing
// |Δp|^alpha (Barry-Goldman's pyramid, differentiated at the span's ends and scaled to the
// span's own parameter interval).
CubicSpan catmullRom(const Point& p0, const Point& p1, const Point& p2, const Point& p3, double alpha) {
  // |Δp|^alpha, without pow for the usual exponents (pow is slow).
  auto spacing = [alpha](const Point& delta) {
    return alpha == 0.5 ? std::sqrt(delta.norm()) : alpha == 1.0 ? delta.norm() : std::pow(delta.norm(), alpha);
  };
  const double d0 = spacing(p1 - p0), d1 = spacing(p2 - p1), d2 = spacing(p3 - p2);
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

// Convex polygons as point lists (1 point, 2 for a segment, or a counter-clockwise or clockwise
// ring), with the distance between two of them: 0 when they touch or overlap.
using Ring = std::vector<Point>;


using detail::pointToSegment;

// True when some edge normal of `a` separates the two (separating axis test, one direction).
bool separated(const Ring& a, const Ring& b) {
  const std::size_t n = a.size();
  if (n < 2) return false;
  for (std::size_t i = 0; i < n; ++i) {
    const Point edge = a[(i + 1) % n] - a[i];
    if (edge.squaredNorm() == 0.0) continue;
    const Point normal(-edge.y(), edge.x());
    double minA = 1e300, maxA = -1e300, minB = 1e300, maxB = -1e300;
    for (const Point& p : a) {
      minA = std::min(minA, normal.dot(p));
      maxA = std::max(maxA, normal.dot(p));
    }
    for (const Point& p : b) {
      minB = std::min(minB, normal.dot(p));
      maxB = std::max(maxB, normal.dot(p));
    }
    if (maxA < minB || maxB < minA) return true;
  }
  return false;
}

double ringDistance(const Ring& a, const Ring& b) {
  if (!separated(a, b) && !separated(b, a)) return 0.0;
  double best = 1e300;
  auto vertexToEdges = [&](const Ring& points, const Ring& edges) {
    if (edges.size() == 1) {
      for (const Point& p : points) best = std::min(best, (p - edges[0]).norm());
      return;
    }
    for (const Point& p : points) {
      for (std::size_t i = 0; i < edges.size(); ++i) best = std::min(best, pointToSegment(p, edges[i], edges[(i + 1) % edges.size()]));
    }
  };
  vertexToEdges(a, b);
  vertexToEdges(b, a);
  return best;
}

// The convex hull of a piece's four control points: the curve lies inside it.
void hullOf(const CubicSpan& piece, Ring& corners, Ring& hull) {
  corners.resize(4);
  for (std::size_t i = 0; i < 4; ++i) corners[i] = piece.p[i].cast<double>();
  detail::convexHull(corners, hull);
}

// Vouches for a span's curve exactly: a piece is valid when the convex hull of its control
// points (which holds the curve) keeps the radius from every blocked tile, barrier and blocking
// entity, and overlaps no tile dearer than the segment's dearest; otherwise its halves are
// checked (their hulls hug the curve ever closer).
class SpanChecker {
 public:
  SpanChecker(const StageContext& context, const EntityQuery& entities, Vec2 start, StageStats& stats)
      : m_context(context), m_entities(entities), m_start(start), m_stats(stats) {
    const double tile = double(context.map.layout().tileSize());
    m_touch = 1e-7 * tile;
    m_minSize = 1e-4 * tile;
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
    if (hullValid(piece)) return true;
    if (depth >= 12 || (piece.p[3] - piece.p[0]).norm() + piece.spread() <= m_minSize) return false;
    const auto halves = piece.split();
    return pieceValid(halves[0], depth + 1) && pieceValid(halves[1], depth + 1);
  }

  bool hullValid(const CubicSpan& piece) {
    ++m_stats.probes;
    hullOf(piece, m_corners, m_hull);
    const double radius = double(m_context.radius);
    const double keep = std::max(radius, m_touch);
    for (const Entity& entity : m_local) {
      m_other.assign(1, entity.position.cast<double>());
      if (ringDistance(m_hull, m_other) < double(entity.radius) + keep) return false;
    }
    for (const Barrier& barrier : m_context.barriers) {
      m_other = {barrier.a.cast<double>(), barrier.b.cast<double>()};
      if (ringDistance(m_hull, m_other) < keep) return false;
    }
    // Fast path: the hull lies within `spread` of the chord, so a chord that the bitmap test
    // finds clear at the cheapest cost for a character wider by `spread` vouches for it.
    const double chordSpread = piece.spread();
    const double tileSize = double(m_context.map.layout().tileSize());
    if (radius + chordSpread < 0.499 * tileSize &&
        m_context.lines.cheaplyClear(piece.p[0], piece.p[3], float(radius + chordSpread))) {
      return true;
    }
    // The tiles the hull, grown by the radius, may reach.
    Point low = m_hull[0], high = m_hull[0];
    for (const Point& p : m_hull) {
      low = low.cwiseMin(p);
      high = high.cwiseMax(p);
    }
    const Layout& layout = m_context.map.layout();
    const Vec2 lo = (low.array() - keep).matrix().cast<float>(), hi = (high.array() + keep).matrix().cast<float>();
    Cell first = layout.tileAt(lo), last = layout.tileAt(hi);
    if (layout.isHex()) {  // offset rows or columns zig-zag: look one tile further
      const Cell a = layout.tileAt(Vec2(lo.x(), hi.y())), b = layout.tileAt(Vec2(hi.x(), lo.y()));
      first = {std::min({first.x, a.x, b.x}) - 1, std::min({first.y, a.y, b.y}) - 1};
      last = {std::max({last.x, a.x, b.x}) + 1, std::max({last.y, a.y, b.y}) + 1};
    }
    const TileMap& map = m_context.map;
    // Cheap first test per tile: the hull lies within `spread` of the chord, the tile within its
    // circumradius of its centre. On squares only the band of each row near the chord is visited.
    const Point a = piece.p[0].cast<double>(), b = piece.p[3].cast<double>();
    const double spread = piece.spread();
    const double circumradius = (layout.isHex() ? 0.5774 : 0.7072) * double(layout.tileSize());
    const double tile = double(layout.tileSize());
    const Point origin = layout.origin().cast<double>();
    const double band = spread + keep;
    for (std::int32_t y = first.y; y <= last.y; ++y) {
      std::int32_t fromX = first.x, toX = last.x;
      if (!layout.isHex()) {
        // The chord's x extent within the row's strip widened by `band`, widened by `band`.
        const double top = origin.y() + double(y) * tile - band, bottom = top + tile + 2.0 * band;
        double t0 = 0.0, t1 = 1.0;
        const double dy = b.y() - a.y();
        if (dy != 0.0) {
          const double ta = (top - a.y()) / dy, tb = (bottom - a.y()) / dy;
          t0 = std::max(t0, std::min(ta, tb));
          t1 = std::min(t1, std::max(ta, tb));
        } else if (a.y() < top || a.y() > bottom) {
          continue;
        }
        if (t0 > t1) continue;
        const double x0 = a.x() + (b.x() - a.x()) * t0, x1 = a.x() + (b.x() - a.x()) * t1;
        fromX = std::max(fromX, std::int32_t(std::floor((std::min(x0, x1) - band - origin.x()) / tile)));
        toX = std::min(toX, std::int32_t(std::floor((std::max(x0, x1) + band - origin.x()) / tile)));
        if (m_context.lines.rowCheapest(y, fromX, toX)) continue;  // nothing in this row to look at
      }
      for (std::int32_t x = fromX; x <= toX; ++x) {
        const float cost = map.cost({x, y}, m_context.mobility);
        const bool blocked = cost == TerrainTable::kImpassable;
        if (!blocked && (m_uniformCost || double(cost) <= m_limit)) continue;
        if (pointToSegment(layout.tileCenter({x, y}).cast<double>(), a, b) - spread - circumradius >= keep) continue;
        const TilePolygon polygon = layout.tilePolygon({x, y});
        m_other.clear();
        for (int i = 0; i < polygon.count; ++i) m_other.push_back(polygon.corners[std::size_t(i)].cast<double>());
        if (ringDistance(m_hull, m_other) < (blocked ? keep : m_touch)) return false;
      }
    }
    return true;
  }

  const StageContext& m_context;
  const EntityQuery& m_entities;
  Vec2 m_start;
  StageStats& m_stats;
  double m_touch = 0.0;
  double m_minSize = 0.0;
  double m_limit = 0.0;
  bool m_uniformCost = true;
  // Scratch kept per thread (no allocation once warm).
  struct Scratch {
    std::vector<Entity> found, local;
    Ring corners, hull, other;
  };
  static Scratch& scratch() {
    thread_local Scratch instance;
    return instance;
  }
  std::vector<Entity>& m_found = scratch().found;
  std::vector<Entity>& m_local = scratch().local;
  Ring& m_corners = scratch().corners;
  Ring& m_hull = scratch().hull;
  Ring& m_other = scratch().other;
};

}  // namespace

void smoothingStage(const StageContext& context, const SmoothingSettings& settings, const EntityQuery& entities,
                    const std::vector<Vec2>& points, SmoothPath& out, StageStats& stats) {
  stats.ran = true;
  stats.pointsIn = std::int32_t(points.size());
  out.clear();
  if (points.empty()) return;
  const double tile = double(context.map.layout().tileSize());
  // Repeated points would give zero knot intervals. Scratch kept per thread: no allocation once
  // warm.
  thread_local std::vector<Point> p;
  thread_local std::vector<CubicSpan> spans;
  p.clear();
  spans.clear();
  for (const Vec2& point : points) {
    if (p.empty() || p.back() != point.cast<double>()) p.push_back(point.cast<double>());
  }
  if (p.size() == 1) {
    CubicSpan still;
    still.p = {points.front(), points.front(), points.front(), points.front()};
    spans.push_back(still);
  }
  const double alpha = std::clamp(double(settings.alpha), 0.0, 1.0);
  const double maxDeviation = std::max(0.0, double(settings.maxDeviation)) * tile;
  std::optional<SpanChecker> checker;  // made on the first curved span (straight paths need none)
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
    // A span bulging less than float rounding (three points in a line) is the segment itself.
    CubicSpan kept = tightened(span, 0.0);
    if (std::min(spread, maxDeviation) > 1e-6 * (p[i + 1] - p[i]).norm()) {
      for (const double scale : {1.0, 0.5, 0.25}) {
        const CubicSpan candidate = tightened(span, scale);
        if (!checker) checker.emplace(context, entities, points.front(), stats);
        if (checker->valid(candidate)) {
          kept = candidate;
          break;
        }
      }
      if (kept.p != span.p) ++stats.repairs;
    }
    span = kept;
    spans.push_back(span);
  }
  out.assign(spans, double(settings.tolerance) * tile);
  stats.pointsOut = std::int32_t(out.samples().size());
}

}  // namespace rpgnav
