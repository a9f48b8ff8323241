// SPDX-License-Identifier: MIT
#pragma once
// Walks a segment across the tiles of a layout, reporting the tiles whose interior it crosses and
// the places where it only touches tiles (running along an edge, passing through a vertex).
//
// Why this shape: every tile edge lies on one of the layout's edge-line families (2 for squares,
// 3 for hexes), so between two consecutive crossings of those lines the segment cannot cross a
// tile boundary. Each such interval is classified by locating its midpoint, each crossing point by
// locating the point itself. Point location uses the fact that tiles are the Voronoi cells of
// their centres, so "which tiles contain p" is "which centres are nearest", with one tolerance for
// every decision. One code path serves squares and hexes.

#include "rpgnav/grid/layout.hpp"
#include "rpgnav/grid/line_of_sight.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

namespace rpgnav::detail {

using Vec2d = Eigen::Vector2d;

/// Tiles whose closure contains a point: up to 4 (a square vertex).
struct TileSet {
  std::array<Cell, 4> cells{};
  int count = 0;
  bool contains(Cell c) const {
    for (int i = 0; i < count; ++i) {
      if (cells[i] == c) return true;
    }
    return false;
  }
};

/// Tolerance (in tiles) for "on an edge / at a vertex": the rounding of the double arithmetic
/// that locates crossings (a few units in the last place of the coordinates), scaled with their
/// magnitude, and nothing more. It is far below a float's resolution (about 6·10⁻⁸ × magnitude),
/// so the rule is decided on the float points as given: a segment between two float points that
/// dips into a tile by a float rounding step has entered it.
inline double geometryTolerance(const Vec2d& a, const Vec2d& b) {
  const double magnitude = std::max({1.0, std::abs(a.x()), std::abs(a.y()), std::abs(b.x()), std::abs(b.y())});
  return 1e-12 * magnitude;
}

/// Tolerance (in tiles) for "runs along an edge" when pricing: the float rounding of points meant
/// to lie on an edge line (a float step is up to 1.2·10⁻⁷ × magnitude), scaled with the
/// coordinates' magnitude. A piece inside a tile that keeps this close to an edge along its whole
/// length is priced as running along it (the dearer side counts), as a check computing with any
/// tolerance up to this one would price it; whether it enters a blocked tile is still decided
/// by geometryTolerance.
inline double costTolerance(const Vec2d& a, const Vec2d& b) {
  const double magnitude = std::max({1.0, std::abs(a.x()), std::abs(a.y()), std::abs(b.x()), std::abs(b.y())});
  return 5e-7 * magnitude;
}

/// The float rounding a wide body's distances allow (radius of half a tile or more, the bodies
/// the search fits by Clearance), in tiles: 5·10⁻⁷ × the largest of 1, the points' layout
/// coordinates `a`, `b`, their world coordinates in tiles (`worldTiles`: the floats are rounded
/// there, far from the map's corner when the origin is) and the radius (the planner fits bodies
/// 4·10⁻⁷ of their radius narrower: see bodyTilesOf). The search fits a body that touches at
/// exactly its radius; the float centres of such a fit come out that much closer.
inline double wideTolerance(double radiusTiles, const Vec2d& a, const Vec2d& b, double worldTiles) {
  return 5e-7 * std::max({1.0, std::abs(a.x()), std::abs(a.y()), std::abs(b.x()), std::abs(b.y()), worldTiles, radiusTiles});
}

/// The distance, in tiles, a segment from a to b (layout space) must keep from a forbidden tile:
/// the radius, less wideTolerance for wide bodies (never below 0). Narrow radii keep the exact
/// rule.
inline double keptDistance(double radiusTiles, const Vec2d& a, const Vec2d& b, double worldTiles) {
  return radiusTiles >= 0.5 ? std::max(0.0, radiusTiles - wideTolerance(radiusTiles, a, b, worldTiles)) : radiusTiles;
}

/// The largest world coordinate of two points, in tiles (for wideTolerance).
inline double worldTilesOf(Vec2 from, Vec2 to, float tileSize) {
  return double(std::max(from.cwiseAbs().maxCoeff(), to.cwiseAbs().maxCoeff())) / double(tileSize);
}

/// Wide bodies' probes measure from the lexicographically smaller end, so a segment and its
/// reverse get the same answer at a distance equal to the radius (straightening from the goal
/// probes reversed segments that the planner measures forward).
inline bool measureReversed(const Vec2d& a, const Vec2d& b) {
  return b.x() < a.x() || (b.x() == a.x() && b.y() < a.y());
}

/// The tiles whose closure contains p (within `tolerance`).
inline TileSet locate(const Layout& layout, const Vec2d& p, double tolerance) {
  TileSet set;
  if (layout.kind() == LayoutKind::Square) {
    // Squares: the column and row ranges follow from the fractional parts directly (the hot
    // path of every probe on square maps).
    const double fx = std::floor(p.x()), fy = std::floor(p.y());
    const auto x = std::int32_t(fx), y = std::int32_t(fy);
    const double rx = p.x() - fx, ry = p.y() - fy;
    const std::int32_t x0 = rx <= tolerance ? x - 1 : x, x1 = rx >= 1.0 - tolerance ? x + 1 : x;
    const std::int32_t y0 = ry <= tolerance ? y - 1 : y, y1 = ry >= 1.0 - tolerance ? y + 1 : y;
    for (std::int32_t cy = y0; cy <= y1; ++cy) {
      for (std::int32_t cx = x0; cx <= x1; ++cx) set.cells[std::size_t(set.count++)] = {cx, cy};
    }
    return set;
  }
  const Cell nearest = layout.tileAtLocal(p);
  set.cells[set.count++] = nearest;
  const double nearestDistance = (layout.localCenter(nearest) - p).squaredNorm();
  // A point ρ from its tile's centre is at least 0.5 - ρ beyond every bisector (hex centres are 1
  // apart): well inside the inscribed circle no neighbour is within the tolerance, and the six
  // distances below (the bulk of a hex probe's time) need not be computed. The 1e-6 covers
  // rounding.
  const double inner = 0.5 - tolerance - 1e-6;
  if (inner > 0.0 && nearestDistance < inner * inner) return set;
  for (const NeighbourStep& step : layout.touching(nearest)) {
    const Cell other{nearest.x + step.dx, nearest.y + step.dy};
    // Signed distance of p beyond the bisector of the two centres.
    const double beyond = ((layout.localCenter(other) - p).squaredNorm() - nearestDistance) / (2.0 * step.length);
    if (beyond <= tolerance && set.count < 4) set.cells[set.count++] = other;
  }
  return set;
}

/// True when p lies inside the tile whose centre is `centre` by more than `margin` from each of
/// its edges. Every layout's tile is the set of points within half a tile of its centre along
/// each edge-line family's (unit) normal: two families for squares, three for hexes.
inline bool deepInside(const Layout& layout, const Vec2d& p, const Vec2d& centre, double margin) {
  const Vec2d offset = p - centre;
  for (const auto& family : layout.edgeLineFamilies()) {
    if (std::abs(family.normal.dot(offset)) >= 0.5 - margin) return false;
  }
  return true;
}

/// For a piece p→q of a segment inside `cell`: the tiles other than `cell` that both ends come
/// within `tolerance` of (the piece then runs along their shared edge, within that tolerance).
/// Since the distance to a convex tile is convex along a segment, the whole piece does.
inline TileSet alongsideTiles(const Layout& layout, Cell cell, const Vec2d& p, const Vec2d& q, double tolerance) {
  // By the same convexity the piece's middle would then be within the tolerance of that tile,
  // and so of this tile's edges: a middle deep inside answers at once (most pieces, which cross
  // the tile; the ends, on its edges, would each need the neighbours' distances).
  if (deepInside(layout, 0.5 * (p + q), layout.localCenter(cell), 2.0 * tolerance)) return {};
  const TileSet atP = locate(layout, p, tolerance);
  TileSet out;
  if (atP.count <= 1) return out;
  const TileSet atQ = locate(layout, q, tolerance);
  for (int i = 0; i < atP.count; ++i) {
    if (atP.cells[std::size_t(i)] != cell && atQ.contains(atP.cells[std::size_t(i)])) {
      out.cells[std::size_t(out.count++)] = atP.cells[std::size_t(i)];
    }
  }
  return out;
}

/// Tiles touching the segment without being entered, split by side (right = clockwise on screen
/// from the direction of travel, y down).
struct SideContact {
  TileSet left;
  TileSet right;
  double t0 = 0.0;  // the stretch of the segment in contact: equal for a vertex, t0 < t1 along an edge
  double t1 = 0.0;
};

/// Walks the segment a→b (layout space). Calls
///   onInterior(Cell, double t0, double t1) -> bool  for each interval inside one tile's interior,
///   onContact(const SideContact&) -> bool          where the segment touches tiles it does not enter,
/// in order along the segment. Either returning false stops the walk; walkSegment then returns
/// false. Consecutive intervals may report the same tile. Requires a != b, both finite.
template <class OnInterior, class OnContact>
bool walkSegment(const Layout& layout, const Vec2d& a, const Vec2d& b, OnInterior&& onInterior,
                 OnContact&& onContact) {
  const Vec2d d = b - a;
  const double length = d.norm();
  const double tolerance = geometryTolerance(a, b);
  const double tTolerance = tolerance / length;
  constexpr double kNever = std::numeric_limits<double>::infinity();

  // Per family: the parameter of the next line crossing, from integer line indices (no drift).
  struct Crossings {
    double offset, spacing, start, rate;  // line k at value offset + k·spacing; f(t) = start + t·rate
    double line;                          // index of the next line to cross
    double step;                          // +1 or -1
    double nextT;
  };
  std::array<Crossings, 3> families{};
  int familyCount = 0;
  for (const auto& family : layout.edgeLineFamilies()) {
    Crossings c{};
    c.offset = family.offset;
    c.spacing = family.spacing;
    c.start = family.normal.dot(a);
    c.rate = family.normal.dot(d);
    if (std::abs(c.rate) * 1e12 <= length) {
      c.nextT = kNever;  // parallel to this family: never crosses its lines
    } else {
      const double k = (c.start - c.offset) / c.spacing;
      c.step = c.rate > 0 ? 1.0 : -1.0;
      c.line = c.rate > 0 ? std::floor(k) + 1.0 : std::ceil(k) - 1.0;
      c.nextT = (c.offset + c.line * c.spacing - c.start) / c.rate;
    }
    families[std::size_t(familyCount++)] = c;
  }
  const bool hex = layout.isHex();
  auto advance = [](Crossings& c) {
    c.line += c.step;
    c.nextT = (c.offset + c.line * c.spacing - c.start) / c.rate;
  };

  auto sideOf = [&](const Vec2d& p, Cell cell) {
    const Vec2d v = layout.localCenter(cell) - p;
    const double cross = d.x() * v.y() - d.y() * v.x();
    return cross / length;  // signed distance of the centre from the segment's line
  };

  // Interval classification: an interior tile, or a stretch along an edge.
  struct Interval {
    bool interior = false;
    Cell cell;
  };
  auto classifyInterval = [&](double t0, double t1, SideContact& contact) {
    const Vec2d mid = a + d * (0.5 * (t0 + t1));
    const TileSet set = locate(layout, mid, tolerance);
    Interval interval;
    if (set.count == 1) {
      interval.interior = true;
      interval.cell = set.cells[0];
      return interval;
    }
    for (int i = 0; i < set.count; ++i) {
      const double side = sideOf(mid, set.cells[i]);
      TileSet& group = side > 0 ? contact.right : contact.left;
      group.cells[group.count++] = set.cells[i];
    }
    return interval;
  };

  // Hex maps: p deep inside the tile of centre `centre`, beyond the tolerance (twice over, for
  // rounding) from each of its three pairs of edges (the families' normals are unit vectors,
  // the edges half a tile from the centre).
  auto deep = [&](const Vec2d& p, const Vec2d& centre) { return deepInside(layout, p, centre, 2.0 * tolerance); };
  const double mergeMargin = std::max(tolerance, costTolerance(a, b));
  // Which neighbour (index in the touching table, the same order for every tile) lies across
  // each family's edge on the side its normal points to (0) and on the other (1).
  std::array<std::array<int, 2>, 3> neighbourAcross{};
  if (hex) {
    const Cell home{0, 0};
    const auto steps = layout.touching(home);
    for (int i = 0; i < familyCount; ++i) {
      const Vec2d& normal = layout.edgeLineFamilies()[std::size_t(i)].normal;
      for (int k = 0; k < int(steps.size()); ++k) {
        const double along = normal.dot(layout.localCenter({steps[std::size_t(k)].dx, steps[std::size_t(k)].dy}) - layout.localCenter(home));
        if (along > 0.9) neighbourAcross[std::size_t(i)][0] = k;
        if (along < -0.9) neighbourAcross[std::size_t(i)][1] = k;
      }
    }
  }
  // The tile a walk leaving `cell` at p enters, when p is on one of its edges away from the
  // corners (known: then no third tile comes within the tolerance of p either).
  struct Across {
    bool known = false;
    Cell cell;
  };
  auto leaving = [&](Cell cell, const Vec2d& p) {
    Across out;
    const Vec2d offset = p - layout.localCenter(cell);
    int onEdge = -1, edges = 0;
    for (int i = 0; i < familyCount; ++i) {
      const double s = layout.edgeLineFamilies()[std::size_t(i)].normal.dot(offset);
      if (std::abs(s) >= 0.5 - 2.0 * tolerance) {
        ++edges;
        onEdge = s > 0.0 ? 2 * i : 2 * i + 1;
        if (std::abs(s) > 0.5 + 2.0 * tolerance) return out;  // not on the tile at all (rounding)
      }
    }
    if (edges != 1) return out;
    const NeighbourStep step =
        layout.touching(cell)[std::size_t(neighbourAcross[std::size_t(onEdge / 2)][std::size_t(onEdge % 2)])];
    out.known = true;
    out.cell = {cell.x + step.dx, cell.y + step.dy};
    return out;
  };
  Across across;

  double tPrevious = 0.0;
  Interval previous;
  double pendingT = -1.0;  // breakpoint waiting for the next interval's classification
  while (true) {
    double tNext = kNever;
    for (int i = 0; i < familyCount; ++i) {
      // Crossings at the very start belong to the start point, not to a breakpoint.
      while (families[std::size_t(i)].nextT <= tPrevious + tTolerance) advance(families[std::size_t(i)]);
      tNext = std::min(tNext, families[std::size_t(i)].nextT);
    }
    bool last = tNext >= 1.0 - tTolerance;
    if (last) tNext = 1.0;

    SideContact along;
    along.t0 = tPrevious;
    along.t1 = tNext;
    // Hex maps: the tile across the edge the last interval left by is this interval's when its
    // middle lies deep inside it (no point location needed).
    Interval current;
    const bool guessed = hex && across.known && deep(a + d * (0.5 * (tPrevious + tNext)), layout.localCenter(across.cell));
    if (guessed) {
      current.interior = true;
      current.cell = across.cell;
    } else {
      current = classifyInterval(tPrevious, tNext, along);
    }
    if (hex && current.interior) {
      // Half of a hex map's edge lines run through tiles, not between them: while the next
      // crossing lies deep inside this tile, locating it and the interval after it could only
      // find this tile again. The interval runs on to the last such crossing, or to the next
      // one when the part between is deep inside too. Deep here is beyond costTolerance, the
      // wider of the two, so that the pieces priced are priced as the shorter ones would be
      // (no piece merged runs along an edge: see alongsideTiles).
      const Vec2d centre = layout.localCenter(current.cell);
      auto deepForMerge = [&](const Vec2d& p) { return deepInside(layout, p, centre, 2.0 * mergeMargin); };
      while (!last && deepForMerge(a + d * tNext)) {
        const double tDeep = tNext;
        tNext = kNever;
        for (int i = 0; i < familyCount; ++i) {
          while (families[std::size_t(i)].nextT <= tDeep + tTolerance) advance(families[std::size_t(i)]);
          tNext = std::min(tNext, families[std::size_t(i)].nextT);
        }
        last = tNext >= 1.0 - tTolerance;
        if (last) tNext = 1.0;
        if (!deepForMerge(a + d * (0.5 * (tDeep + tNext)))) {
          // The next interval comes near an edge: it is the walk's to classify.
          tNext = tDeep;
          last = false;
          break;
        }
      }
    }
    // A breakpoint inside the edge between the last interval's tile and this one's, away from
    // its corners, touches no third tile: no contact to look for.
    if (pendingT >= 0.0 && !guessed) {
      const Vec2d p = a + d * pendingT;
      const TileSet set = locate(layout, p, tolerance);
      SideContact contact;
      contact.t0 = contact.t1 = pendingT;
      for (int i = 0; i < set.count; ++i) {
        const Cell cell = set.cells[i];
        if ((previous.interior && previous.cell == cell) || (current.interior && current.cell == cell)) continue;
        const double side = sideOf(p, cell);
        if (std::abs(side) <= tolerance) continue;
        TileSet& group = side > 0 ? contact.right : contact.left;
        group.cells[group.count++] = cell;
      }
      if (contact.left.count + contact.right.count > 0 && !onContact(contact)) return false;
    }
    if (current.interior) {
      if (!onInterior(current.cell, tPrevious, tNext)) return false;
    } else if (!onContact(along)) {
      return false;
    }
    if (last) return true;
    across.known = false;
    if (hex && current.interior) across = leaving(current.cell, a + d * tNext);
    previous = current;
    pendingT = tNext;
    tPrevious = tNext;
  }
}

/// probeSegment, told which tiles have only passable tiles touching them (`passableAround`, by
/// tile index; null: none known): round such a tile no blocked tile can come within the radius,
/// and the look round it is skipped.
SegmentProbe probeSegmentKnowing(const TileMap& map, MobilityId mobility, Vec2 from, Vec2 to, float radius,
                                 const std::vector<bool>* passableAround);

/// Squared distance from point p to segment ab.
inline double pointSegmentDistanceSquared(const Vec2d& p, const Vec2d& a, const Vec2d& b) {
  const Vec2d ab = b - a;
  const double length2 = ab.squaredNorm();
  const double t = length2 > 0 ? std::clamp((p - a).dot(ab) / length2, 0.0, 1.0) : 0.0;
  return (a + ab * t - p).squaredNorm();
}

/// True when segments ab and cd cross properly (each has the other's ends strictly on both sides).
inline bool segmentsCross(const Vec2d& a, const Vec2d& b, const Vec2d& c, const Vec2d& d) {
  auto cross = [](const Vec2d& u, const Vec2d& v) { return u.x() * v.y() - u.y() * v.x(); };
  const double d1 = cross(b - a, c - a), d2 = cross(b - a, d - a), d3 = cross(d - c, a - c), d4 = cross(d - c, b - c);
  return ((d1 > 0) != (d2 > 0)) && ((d3 > 0) != (d4 > 0)) && d1 != 0 && d2 != 0 && d3 != 0 && d4 != 0;
}

/// True when segment ab comes closer than `radius` to the convex polygon `corners` (layout
/// space) by way of its edges: ab crosses one, or an end of one edge and ab come that close. A
/// segment wholly inside the polygon is not seen (the probes' walk has already refused it).
inline bool closerThan(const Vec2d& a, const Vec2d& b, const std::array<Vec2d, 6>& corners, int count, double radius) {
  const double r2 = radius * radius;
  for (int i = 0; i < count; ++i) {
    const Vec2d& c = corners[std::size_t(i)];
    const Vec2d& d = corners[std::size_t((i + 1) % count)];
    if (segmentsCross(a, b, c, d)) return true;
    if (pointSegmentDistanceSquared(c, a, b) < r2 || pointSegmentDistanceSquared(a, c, d) < r2 ||
        pointSegmentDistanceSquared(b, c, d) < r2) {
      return true;
    }
  }
  return false;
}

}  // namespace rpgnav::detail
