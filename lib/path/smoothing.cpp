// SPDX-License-Identifier: MIT
// Stage 8: a Catmull-Rom curve through the control points that provably keeps every rule.
#include "path/stages.hpp"

#include "path/comfort.hpp"
#include "path/legs.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace rpgnav {
namespace {

using Point = Eigen::Vector2d;
constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kThird = 1.0 / 3.0;
// A curve's check asks the summed-area table about blocks of this many lines of its band (when
// its box spans kBlockedFrom lines or more) before walking them one by one: on the dao maps
// blocks of 4 walked the fewest lines for their look-ups, and shorter boxes did better without.
constexpr std::int32_t kBlockLines = 4;
constexpr std::int32_t kBlockedFrom = 9;

// The Bézier form of the Catmull-Rom span p1→p2 with neighbours p0 and p3, given the knot
// spacing d1 of the span (|Δp|^alpha) and the reciprocals of d0, d1, d2 (the three segments')
// and of d0 + d1 and d1 + d2: Barry-Goldman's pyramid, differentiated at the span's ends and
// scaled to the span's own parameter interval.
struct Reciprocals {
  double r0, r1, r2, r01, r12;
};
CubicSpan catmullRom(const Point& p0, const Point& p1, const Point& p2, const Point& p3, double d1, const Reciprocals& r) {
  const Point m1 = ((p1 - p0) * r.r0 - (p2 - p0) * r.r01 + (p2 - p1) * r.r1) * (d1 * kThird);
  const Point m2 = ((p2 - p1) * r.r1 - (p3 - p1) * r.r12 + (p3 - p2) * r.r2) * (d1 * kThird);
  CubicSpan span;
  span.p = {p1.cast<float>(), Point(p1 + m1).cast<float>(), Point(p2 - m2).cast<float>(), p2.cast<float>()};
  return span;
}

// |Δp|^alpha, without pow for the usual exponents (pow is slow).
double knotSpacing(const Point& delta, double alpha) {
  return alpha == 0.5 ? std::sqrt(delta.norm()) : alpha == 1.0 ? delta.norm() : std::pow(delta.norm(), alpha);
}

// The straight segment a→b as a span (traversed at even speed).
CubicSpan straightSpan(const Point& a, const Point& b) {
  CubicSpan span;
  const Point third = (b - a) * kThird;
  span.p = {a.cast<float>(), Point(a + third).cast<float>(), Point(b - third).cast<float>(), b.cast<float>()};
  return span;
}

// The span with its inner handles pulled towards the chord: scale 1 keeps it, 0 gives the
// straight segment.
CubicSpan tightened(const CubicSpan& span, double scale) {
  const Point a = span.p[0].cast<double>(), b = span.p[3].cast<double>();
  const Point third = (b - a) * kThird;
  const Point straight1 = a + third, straight2 = b - third;
  CubicSpan out = span;
  out.p[1] = (straight1 + (span.p[1].cast<double>() - straight1) * scale).cast<float>();
  out.p[2] = (straight2 + (span.p[2].cast<double>() - straight2) * scale).cast<float>();
  return out;
}

// True when the span runs forward along its chord all the way: each of its three hodograph
// vectors (p1 - p0, p2 - p1, p3 - p2, whose blend is its derivative) leads along the chord by at
// least a twentieth of it. A knot where the path all but turns back (a bend of nearly 180
// degrees, or a sharp one between very unequal segments) gets a tangent too short or turned
// away for the span beside it: that curve would stop dead or loop, so the span is made straight.
bool runsForward(const CubicSpan& span) {
  const Point a = span.p[0].cast<double>(), h1 = span.p[1].cast<double>(), h2 = span.p[2].cast<double>(),
              b = span.p[3].cast<double>();
  const Point chord = b - a;
  const double least = 0.05 * chord.squaredNorm();
  return (h1 - a).dot(chord) >= least && (h2 - h1).dot(chord) >= least && (b - h2).dot(chord) >= least;
}

// Convex polygons as point lists (1 point, 2 for a segment, or a counter-clockwise or clockwise
// ring), with the distance between two of them: 0 when they touch or overlap.
using Ring = std::span<const Point>;

// A ring of at most eight points kept on the stack (a hull of four points, a hex tile, a
// segment, a point).
struct SmallRing {
  std::array<Point, 8> points;
  std::size_t count = 0;
  operator Ring() const { return {points.data(), count}; }
};

using detail::pointToSegment;

// True when some edge normal of `a` separates the two (separating axis test, one direction).
bool separated(Ring a, Ring b) {
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

double ringDistance(Ring a, Ring b) {
  if (!separated(a, b) && !separated(b, a)) return 0.0;
  double best = 1e300;
  auto vertexToEdges = [&](Ring points, Ring edges) {
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
SmallRing hullOf(const CubicSpan& piece) {
  std::array<Point, 4> corners;
  for (std::size_t i = 0; i < 4; ++i) corners[i] = piece.p[i].cast<double>();
  // Sorted by a network of five compare-exchanges (a general sort costs several times more
  // here, where it runs for every piece checked).
  auto order = [&corners](std::size_t i, std::size_t j) {
    if (detail::hullOrder(corners[j], corners[i])) std::swap(corners[i], corners[j]);
  };
  order(0, 1);
  order(2, 3);
  order(0, 2);
  order(1, 3);
  order(1, 2);
  SmallRing hull;
  hull.count = detail::convexHullOfSorted(corners, hull.points.data());
  return hull;
}

// True when a convex ring (counter-clockwise, as convexHull makes it) comes closer than `gap`
// (> 0) to the axis-aligned box low..high, touching and overlapping included. The square-tile
// case of ringDistance, cheaper: the box's own axes are the bounding boxes' overlap, distances
// to the box are clamps, and squared distances need no root.
bool ringNearBox(Ring ring, const Point& low, const Point& high, double gap) {
  const double gap2 = gap * gap;
  Point ringLow = ring[0], ringHigh = ring[0];
  for (const Point& p : ring) {
    if ((low - p).cwiseMax(p - high).cwiseMax(0.0).squaredNorm() < gap2) return true;
    ringLow = ringLow.cwiseMin(p);
    ringHigh = ringHigh.cwiseMax(p);
  }
  const std::size_t n = ring.size();
  if (n < 2) return false;
  const std::array<Point, 4> corners{low, Point(high.x(), low.y()), high, Point(low.x(), high.y())};
  // Overlap unless an axis separates them: the boxes' axes, or an edge of the ring with every
  // corner outside it. Then the nearest pair is a box corner and a ring edge.
  bool separated = (ringLow.array() > high.array()).any() || (ringHigh.array() < low.array()).any();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const Point& a = ring[j];
    const Point edge = ring[i] - a;
    const double length2 = edge.squaredNorm();
    if (length2 == 0.0) continue;
    const double perLength2 = 1.0 / length2;
    bool outside = true;
    for (const Point& c : corners) {
      const Point ac = c - a;
      outside = outside && detail::cross(edge, ac) < 0.0;
      const double t = std::clamp(ac.dot(edge) * perLength2, 0.0, 1.0);
      if ((ac - t * edge).squaredNorm() < gap2) return true;
    }
    separated = separated || outside;
  }
  return !separated;
}

// What the stage keeps per segment p[i]→p[i+1]: its knot spacing (shared by the three spans
// around it) and that spacing's reciprocal; the reciprocal of the joint p[i]'s two spacings
// together; and the spread of the segment's span.
struct SegmentFacts {
  double spacing, perSpacing, perJoint, spread;
};

// The stage's scratch (see StageScratch): no allocation once warm, and the facts only ever grow
// (no clearing of room the next path overwrites anyway).
struct Buffers : detail::ScratchSlot {
  std::vector<Point> points;
  std::vector<CubicSpan> spans;
  std::vector<SegmentFacts> segments;
  std::vector<Entity> entitiesFound, entitiesBlocking;  // the span checker's
};

// Vouches for a span's curve exactly: a piece is valid when the convex hull of its control
// points (which holds the curve) keeps the radius from every blocked tile, barrier and blocking
// entity, and overlaps no tile dearer than the segment's dearest; otherwise its halves are
// checked (their hulls hug the curve ever closer).
class SpanChecker {
 public:
  SpanChecker(const StageContext& context, const EntityQuery& entities, Vec2 start, StageStats& stats, Buffers& scratch)
      : m_context(context),
        m_entities(entities),
        m_start(start),
        m_stats(stats),
        m_found(scratch.entitiesFound),
        m_local(scratch.entitiesBlocking) {
    const double tile = double(context.map.layout().tileSize());
    m_touch = 1e-7 * tile;
    m_minSize = 1e-4 * tile;
    m_uniformCost = context.uniformCost();
  }

  // True when the whole curve of `span` keeps the rules (entities only when `withEntities`),
  // keeping `clearance` (the radius, or more with comfort) from walls; `spread` is at least
  // span.spread() (the caller often knows a bound without computing it).
  bool valid(const CubicSpan& span, double spread, bool withEntities, float clearance) {
    const Vec2 a = span.p[0], b = span.p[3];
    m_clearance = clearance;
    m_limit = m_context.lines.cheapestCost();
    if (!m_uniformCost) {
      ++m_stats.probes;
      m_limit = m_context.dearestTerrain(a, b, m_context.probe(a, b));
    }
    // Every entity the curve could reach: within its spread of the chord.
    m_found.clear();
    m_local.clear();
    const float reach = m_context.radius + float(spread) + 1e-3f;
    if (withEntities) m_entities.source.entitiesNear(a, b, reach, m_found);
    for (const Entity& entity : m_found) {
      if (m_entities.blocks(entity, m_start, m_context.radius)) m_local.push_back(entity);
    }
    return pieceValid(span, spread, 0);
  }

 private:
  bool pieceValid(const CubicSpan& piece, double spread, int depth) {
    if (hullValid(piece, spread)) return true;
    if (depth >= 12 || (piece.p[3] - piece.p[0]).norm() + spread <= m_minSize) return false;
    // With comfort, a point of the curve closer to a wall than the clearance fails the span at
    // once (the hull of every piece holding it would): the usual failure, found without
    // splitting the hull a dozen times.
    if (depth == 0 && m_clearance > m_context.radius) {
      for (const double t : {0.5, 0.25, 0.75}) {
        const Vec2 point = piece.at(t);
        if (!m_context.keeps(point, point, m_clearance)) return false;
      }
    }
    const auto halves = piece.split();
    return pieceValid(halves[0], halves[0].spread(), depth + 1) && pieceValid(halves[1], halves[1].spread(), depth + 1);
  }

  // `spread` is the piece's: its hull lies within that distance of its chord.
  bool hullValid(const CubicSpan& piece, double spread) {
    ++m_stats.probes;
    m_piece = &piece;
    m_hullMade = false;
    // Entities' spaces are kept at the radius; walls (blocked tiles, doors) at the clearance.
    const double keepFromEntities = std::max(double(m_context.radius), m_touch);
    const double keep = std::max(double(m_clearance), m_touch);
    for (const Entity& entity : m_local) {
      const Point centre = entity.position.cast<double>();
      if (ringDistance(hull(), Ring(&centre, 1)) < double(entity.radius) + keepFromEntities) return false;
    }
    for (const Barrier& barrier : m_context.barriers) {
      const std::array<Point, 2> wall{barrier.a.cast<double>(), barrier.b.cast<double>()};
      if (ringDistance(hull(), wall) < std::max(keep, barrierClearance(barrier, m_clearance))) return false;
    }
    // The tiles the hull, grown by the radius, may reach: the hull's box is its points' box.
    const Vec2 lowF = piece.p[0].cwiseMin(piece.p[1]).cwiseMin(piece.p[2].cwiseMin(piece.p[3]));
    const Vec2 highF = piece.p[0].cwiseMax(piece.p[1]).cwiseMax(piece.p[2].cwiseMax(piece.p[3]));
    const Point low = lowF.cast<double>(), high = highF.cast<double>();
    const Point a = piece.p[0].cast<double>(), b = piece.p[3].cast<double>();
    return m_context.map.layout().isHex() ? hexTilesValid(a, b, spread, keep)
                                          : squareTilesValid(a, b, spread, low, high, keep);
  }

  // A tile that the hull must keep `keep` from (blocked), must not overlap (dearer than the
  // segment allows: `m_touch`), or 0 when it does not matter.
  double tileGap(Cell cell, double keep) const {
    const float cost = m_context.map.cost(cell, m_context.mobility);
    if (cost == TerrainTable::kImpassable) return keep;
    return m_uniformCost || double(cost) <= m_limit ? 0.0 : m_touch;
  }

  // Square tiles: the hull lies within `spread` of the chord a→b, so on each line of tiles only
  // the band within spread + keep of the chord is looked at, and in it only the tiles the line
  // bitmap says are not open at the cheapest cost. Lines are rows, or columns for a steep chord:
  // few lines, long runs of bits. Before any of that, a summed-area table answers for the whole
  // box of the hull at once, and then, on tall boxes, for blocks of lines of the band.
  bool squareTilesValid(const Point& a, const Point& b, double spread, const Point& low, const Point& high, double keep) {
    const Layout& layout = m_context.map.layout();
    const double tile = double(layout.tileSize());
    const Point origin = layout.origin().cast<double>();
    // Tile coordinates (the tile of x is floor(x)).
    const double perTile = 1.0 / tile;
    const Point localLow = (low - origin) * perTile, localHigh = (high - origin) * perTile;
    const double margin = keep * perTile;
    const double bound = double(std::max(m_context.map.width(), m_context.map.height())) + 2.0;
    // The tile of v, clamped to -2 .. bound: shifted to positive numbers, where truncating
    // rounds down (cheaper than floor, on every line walked).
    auto clampTile = [bound](double v) { return std::int32_t(std::clamp(v, -2.0, bound) + 4.0) - 4; };
    // The box of tiles the hull, grown by `keep`, may reach.
    const Cell boxLow{clampTile(localLow.x() - margin), clampTile(localLow.y() - margin)};
    const Cell boxHigh{clampTile(localHigh.x() + margin), clampTile(localHigh.y() + margin)};
    // The usual case: the whole box lies inside the map (and the bitmap needs no bounds checks).
    const bool inside = boxLow.x >= 0 && boxLow.y >= 0 && boxHigh.x < m_context.map.width() && boxHigh.y < m_context.map.height();
    // Most curves (about 60% on the dao maps) have nothing but open ground in their whole box:
    // one look-up in the summed-area table instead of the walk.
    if (inside && m_context.lines.allCheapest(boxLow, boxHigh)) return true;
    const bool column = std::abs(b.y() - a.y()) > std::abs(b.x() - a.x());
    // u along a line, v across lines.
    const Point local0 = (a - origin) * perTile, local1 = (b - origin) * perTile;
    auto along = [column](const Point& p) { return column ? p.y() : p.x(); };
    auto across = [column](const Point& p) { return column ? p.x() : p.y(); };
    const double band = (spread + keep) * perTile;
    const std::int32_t firstLine = column ? boxLow.x : boxLow.y, lastLine = column ? boxHigh.x : boxHigh.y;
    const std::int32_t firstK = column ? boxLow.y : boxLow.x, lastK = column ? boxHigh.y : boxHigh.x;
    auto cell = [column](std::int32_t line, std::int32_t k) { return column ? Cell{line, k} : Cell{k, line}; };
    const double u0 = along(local0), u1 = along(local1), v0 = across(local0), v1 = across(local1);
    const double vLow = std::min(v0, v1), vHigh = std::max(v0, v1);
    const double slope = v0 != v1 ? (u1 - u0) / (v1 - v0) : 0.0;
    // A chord along the lines (slope 0) covers u0..u1 on its line; otherwise these are no bound.
    const double chordLow = v0 != v1 ? kInfinity : std::min(u0, u1), chordHigh = v0 != v1 ? -kInfinity : std::max(u0, u1);
    const BitLines lines = m_context.lines.cheapLines(column);
    // The tiles first..last along the lines from..to that the band reaches: the chord's extent
    // within those lines' strip widened by `band`, widened by `band` (empty when the band misses).
    auto run = [&](std::int32_t from, std::int32_t to) {
      const double top = double(from) - band, bottom = double(to) + 1.0 + band;
      if (bottom < vLow || top > vHigh) return std::pair<std::int32_t, std::int32_t>(1, 0);
      const double ka = u0 + (std::max(top, vLow) - v0) * slope, kb = u0 + (std::min(bottom, vHigh) - v0) * slope;
      const double k0 = std::min({ka, kb, chordLow}), k1 = std::max({ka, kb, chordHigh});
      return std::pair<std::int32_t, std::int32_t>(std::max(firstK, clampTile(k0 - band)), std::min(lastK, clampTile(k1 + band)));
    };
    // Blocks of lines: inside the map the summed-area table answers for a block's whole run
    // first, and only the lines of a block holding something other than open ground are walked.
    const bool blocks = inside && lastLine - firstLine + 1 >= kBlockedFrom;
    const std::int32_t blockLines = blocks ? kBlockLines : lastLine - firstLine + 1;
    for (std::int32_t block = firstLine; block <= lastLine; block += blockLines) {
      const std::int32_t blockLast = std::min(lastLine, block + blockLines - 1);
      if (blocks) {
        const auto [from, to] = run(block, blockLast);
        if (from > to || m_context.lines.allCheapest(cell(block, from), cell(blockLast, to))) continue;
      }
      for (std::int32_t line = block; line <= blockLast; ++line) {
        const auto [from, to] = run(line, line);
        // Nearly always nothing but open ground.
        if (!(inside ? lines.anyNotCheapestInside(line, from, to) : lines.anyNotCheapest(line, from, to))) continue;
        for (std::int32_t k = lines.nextNotCheapest(line, from, to); k <= to; k = lines.nextNotCheapest(line, k + 1, to)) {
          const Cell tileCell = cell(line, k);
          const double gap = tileGap(tileCell, keep);
          if (gap == 0.0) continue;
          const Point tileLow = origin + Point(double(tileCell.x), double(tileCell.y)) * tile;
          const Point tileHigh = tileLow + Point(tile, tile);
          if ((tileLow.array() >= high.array() + gap).any() || (tileHigh.array() <= low.array() - gap).any()) continue;
          if (ringNearBox(hull(), tileLow, tileHigh, gap)) return false;
        }
      }
    }
    return true;
  }

  // Hex tiles: the hull lies within `spread` of the chord a→b, so only tiles within spread +
  // keep of the chord matter, and of those only the ones that are blocked or dearer than the
  // segment allows: the sight lines' runs of one cost find them a line at a time (open ground
  // costs a look per line). For each, a cheap distance bound first, then the exact polygon
  // distance.
  bool hexTilesValid(const Point& a, const Point& b, double spread, double keep) {
    const Layout& layout = m_context.map.layout();
    const double tile = double(layout.tileSize());
    const Point origin = layout.origin().cast<double>();
    const double circumradius = kHexCircumradius * tile, inradius = 0.5 * tile;
    const float limit = m_uniformCost ? std::numeric_limits<float>::infinity() : float(m_limit);
    return m_context.lines.forHexTilesNear(
        (a - origin) / tile, (b - origin) / tile, (spread + keep) / tile, limit, [&](Cell cell) {
          const double gap = tileGap(cell, keep);
          if (gap == 0.0) return true;
          const Point centre = layout.tileCenter(cell).cast<double>();
          if (pointToSegment(centre, a, b) - spread - circumradius >= gap) return true;
          // The hexagon lies between its inscribed circle and its circumcircle: the hull's
          // distance from the centre settles most tiles (a few point-edge distances instead of
          // the polygons' 48), the exact distance only the ring between the two circles. (By a
          // margin for rounding, so that these answers are the exact distance's.)
          const double toHull = detail::pointToConvex(centre, hull());
          const double margin = 1e-9 * (tile + centre.cwiseAbs().maxCoeff());
          if (toHull - circumradius >= gap + margin) return true;
          if (toHull - inradius < gap - margin) return false;
          const TilePolygon polygon = layout.tilePolygon(cell);
          SmallRing tileRing;
          tileRing.count = std::size_t(polygon.count);
          for (std::size_t i = 0; i < tileRing.count; ++i) tileRing.points[i] = polygon.corners[i].cast<double>();
          return !(ringDistance(hull(), tileRing) < gap);
        });
  }

  const StageContext& m_context;
  const EntityQuery& m_entities;
  Vec2 m_start;
  StageStats& m_stats;
  double m_touch = 0.0;
  double m_minSize = 0.0;
  double m_limit = 0.0;
  float m_clearance = 0.0f;  // kept from walls by the span being checked
  bool m_uniformCost = true;
  // The entities near the chord, and those of them that block (the stage's scratch).
  std::vector<Entity>& m_found;
  std::vector<Entity>& m_local;
  // The piece being checked and its hull, made only when an exact distance is needed (most
  // pieces are vouched for by the bitmap alone).
  const CubicSpan* m_piece = nullptr;
  SmallRing m_hull;
  bool m_hullMade = false;
  const SmallRing& hull() {
    if (!m_hullMade) {
      m_hull = hullOf(*m_piece);
      m_hullMade = true;
    }
    return m_hull;
  }
};

// Stage 8's curves, one span per segment of `points` (repeated points dropped), into the
// scratch: the spans as Catmull-Rom makes them (tightened to the deviation allowed) and each
// segment's facts; nothing is checked yet.
void makeSpans(const std::vector<Vec2>& points, double alpha, double maxDeviation, double tile, Buffers& scratch) {
  std::vector<Point>& p = scratch.points;
  std::vector<CubicSpan>& spans = scratch.spans;
  // Repeated points would give zero knot intervals.
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
  if (scratch.segments.size() < p.size()) scratch.segments.resize(p.size());
  SegmentFacts* const segment = scratch.segments.data();
  // A single segment is its own curve (the mirrored ends make the span straight): the most
  // common path of all, made without the curve's arithmetic.
  const bool single = p.size() == 2;
  if (single) spans.push_back(straightSpan(p[0], p[1]));
  // The spacings' reciprocals, and those of each joint's two spacings together: one division
  // per segment and per joint, shared by the spans around them (not five per span).
  for (std::size_t i = 0; !single && i + 1 < p.size(); ++i) {
    segment[i].spacing = knotSpacing(p[i + 1] - p[i], alpha);
    segment[i].perSpacing = 1.0 / segment[i].spacing;
  }
  for (std::size_t i = 1; !single && i + 1 < p.size(); ++i) segment[i].perJoint = 1.0 / (segment[i - 1].spacing + segment[i].spacing);
  // Every span's curve first, then the checks: the curves' divisions and roots do not wait on
  // one another, nor on the checks' branches.
  for (std::size_t i = 0; !single && i + 1 < p.size(); ++i) {
    // At the ends the missing neighbour is the next point mirrored (so its spacing is the
    // segment's own): the curve starts (ends) along the first (last) segment.
    const Point before = i > 0 ? p[i - 1] : Point(2.0 * p[i] - p[i + 1]);
    const Point after = i + 2 < p.size() ? p[i + 2] : Point(2.0 * p[i + 1] - p[i]);
    // (A mirrored neighbour's spacing is the segment's own: 1 / (d + d) is exactly half 1 / d.)
    const double r1 = segment[i].perSpacing;
    const bool first = i == 0, last = i + 2 == p.size();
    const Reciprocals reciprocals{first ? r1 : segment[i - 1].perSpacing, r1, last ? r1 : segment[i + 1].perSpacing,
                                  first ? 0.5 * r1 : segment[i].perJoint, last ? 0.5 * r1 : segment[i + 1].perJoint};
    CubicSpan span = catmullRom(before, p[i], p[i + 1], after, segment[i].spacing, reciprocals);
    double spread = span.spread();
    if (spread > maxDeviation) {
      span = tightened(span, maxDeviation / spread);
      // A bound, not a measure: the distance to the chord is convex along the pull, plus the
      // rounding of the handles to float.
      spread = maxDeviation + 4.0 * double(std::numeric_limits<float>::epsilon()) *
                                  (span.p[1].cast<double>().cwiseAbs().maxCoeff() + span.p[2].cast<double>().cwiseAbs().maxCoeff() + tile);
    }
    spans.push_back(span);
    segment[i].spread = spread;
  }
}

}  // namespace

void smoothingStage(const StageContext& context, const SmoothingSettings& settings, const EntityQuery& entities,
                    const std::vector<Vec2>& points, SmoothPath& out, StageStats& stats) {
  SmoothingProgress progress;
  smoothingStageUntil(context, settings, entities, points, out, stats, progress, std::chrono::steady_clock::time_point::max());
}

bool smoothingStageUntil(const StageContext& context, const SmoothingSettings& settings, const EntityQuery& entities,
                         const std::vector<Vec2>& points, SmoothPath& out, StageStats& stats, SmoothingProgress& progress,
                         std::chrono::steady_clock::time_point deadline) {
  stats.ran = true;
  stats.pointsIn = std::int32_t(points.size());
  out.clear();
  if (points.empty()) return true;
  const double tile = double(context.map.layout().tileSize());
  // A piece at a time needs the context's scratch (the curves wait there between calls).
  StageScratch fallback;
  if (context.scratch == nullptr) deadline = std::chrono::steady_clock::time_point::max();
  Buffers& scratch = context.buffers<Buffers>(detail::ScratchUse::Smoothing, fallback);
  std::vector<Point>& p = scratch.points;
  std::vector<CubicSpan>& spans = scratch.spans;
  const double alpha = std::clamp(double(settings.alpha), 0.0, 1.0);
  const double maxDeviation = std::max(0.0, double(settings.maxDeviation)) * tile;
  if (!progress.begun) {
    makeSpans(points, alpha, maxDeviation, tile, scratch);
    progress = {true, 0, 0.0};
  }
  SpanChecker checker(context, entities, points.front(), stats, scratch);
  const double entityHorizon = double(settings.entityHorizon) * tile;
  const SegmentFacts* const segment = scratch.segments.data();
  const bool single = p.size() == 2;  // (made straight by makeSpans)
  double along = progress.along;  // from the start to the span's start
  // With comfort, a curve keeps from walls the clearance its straight segment keeps (up to the
  // radius + comfort): it never brings the path closer to a wall than the control points do.
  // Most curves keep the whole comfort; the segment's own clearance is measured only for those
  // that do not.
  const detail::Comfort comfort(context, points.front(), points.back(), false);
  for (std::size_t i = progress.next; !single && i + 1 < p.size(); ++i) {
    if (i > progress.next && std::chrono::steady_clock::now() >= deadline) {
      progress.next = i;
      progress.along = along;
      return false;
    }
    const CubicSpan span = spans[i];
    const double spread = segment[i].spread;
    // Tighten until the checker vouches for the whole curve; the straight segment needs no
    // check (the earlier stages made it valid).
    // A span bulging less than float rounding (three points in a line) is the segment itself.
    bool curved = false;
    if (!runsForward(span)) {
      ++stats.repairs;  // straight, below
    } else if (spread * spread > 1e-12 * (p[i + 1] - p[i]).squaredNorm()) {
      int level = -1;  // the segment's level of comfort, once measured
      for (const double scale : {1.0, 0.5, 0.25}) {
        const CubicSpan candidate = scale == 1.0 ? span : tightened(span, scale);
        const double candidateSpread = scale == 1.0 ? spread : candidate.spread();
        const bool withEntities = entityHorizon <= 0.0 || along <= entityHorizon;
        bool valid = checker.valid(candidate, candidateSpread, withEntities, comfort.clearance(0));
        if (!valid && comfort.active()) {
          if (level < 0) level = comfort.levelOf(spans[i].p[0], spans[i].p[3], stats.probes);
          if (level > 0) valid = checker.valid(candidate, candidateSpread, withEntities, comfort.clearance(level));
        }
        if (valid) {
          if (scale != 1.0) ++stats.repairs;
          spans[i] = candidate;
          curved = true;
          break;
        }
      }
      if (!curved) ++stats.repairs;
    }
    if (!curved) spans[i] = straightSpan(p[i], p[i + 1]);
    if (entityHorizon > 0.0) along += (p[i + 1] - p[i]).norm();
  }
  // Finer than 1e-4 tiles (or NaN) would only grow the table: a few hundred points a span at most.
  const double tolerance = std::isfinite(settings.tolerance) ? std::max(double(settings.tolerance), 1e-4) : 0.01;
  out.assign(spans, tolerance * tile);
  stats.pointsOut = std::int32_t(out.samples().size());
  progress = {};
  return true;
}

}  // namespace rpgnav
