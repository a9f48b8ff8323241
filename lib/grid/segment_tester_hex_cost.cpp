// SPDX-License-Identifier: MIT
// SegmentTester on hex maps of several costs: a segment's cost priced hexagon by hexagon, in the
// layout's own line frame (see segment_tester_hex.cpp for the frame), and the per-tile flags
// that let it skip the hexagons whose neighbours all share their cost.
#include "grid/segment_tester.hpp"

#include "core/distances.hpp"
#include "grid/segment_walk.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

namespace rpgnav {
namespace {

constexpr double kRadius = kHexCircumradius;
constexpr double kPitch = kHexPitch;

}  // namespace

void SegmentTester::readHexSameAround(std::int32_t line) {
  const std::size_t base = std::size_t(line) * std::size_t(m_hexLength);
  for (std::int32_t k = 0; k < m_hexLength; ++k) m_hexSameAround[base + std::size_t(k)] = costSharedAround(line, k) ? 1 : 0;
}

bool SegmentTester::costSharedAround(std::int32_t line, std::int32_t k) const noexcept {
  const float cost = hexCost(line, k);
  auto same = [&](std::int32_t l, std::int32_t j) {
    const float other = hexCost(l, j);
    return other == cost || other == TerrainTable::kImpassable;
  };
  if (k == 0 || k + 1 >= m_hexLength || line == 0 || line + 1 >= m_hexLines) return false;
  if (!same(line, k - 1) || !same(line, k + 1)) return false;
  // On the lines either side, the tiles at axial offsets (0, +1) before and (-1, 0) after.
  const std::int32_t axial = k - ((line + m_hexEvenShifted) >> 1);
  for (const auto& [dLine, from] : {std::pair{-1, 0}, std::pair{1, -1}}) {
    const std::int32_t next = line + dLine, nextK = axial + from + ((next + m_hexEvenShifted) >> 1);
    if (nextK < 0 || nextK + 1 >= m_hexLength) return false;
    if (!same(next, nextK) || !same(next, nextK + 1)) return false;
  }
  return true;
}

double SegmentTester::hexHexagonsCost(const HexSweep& sweep, double slack) const {
  constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  const HexAxis& axis = m_hexAxes[0];
  const double du = sweep.uHigh - sweep.uLow, dv = sweep.vHigh - sweep.vLow, length = std::sqrt(du * du + dv * dv);
  if (!(length > 0.0)) return kNone;
  // A point of the segment (t from its low end) in the layout's local frame, where the walk's
  // rules are stated.
  const int along = m_hexFlat ? 1 : 0, across = 1 - along;
  auto local = [&](double t) {
    Eigen::Vector2d p;
    p[along] = sweep.uLow + du * t;
    p[across] = sweep.vLow + dv * t;
    return p;
  };
  const double tolerance = detail::costTolerance(local(0.0), local(1.0));
  // The segment's part inside a hexagon is where it is inside all three strips (kHexStripNormals).
  // Along a family of edges (as the walk decides it: its rate of crossing below 10⁻¹² of the
  // length) the segment is inside that family's strip all along or nowhere.
  // The hexagon's corners round its centre, in the line frame.
  constexpr std::array<std::array<double, 2>, 6> kHexCorners{
      {{0.0, kRadius}, {0.0, -kRadius}, {0.5, 0.5 * kRadius}, {0.5, -0.5 * kRadius}, {-0.5, 0.5 * kRadius}, {-0.5, -0.5 * kRadius}}};
  std::array<double, 3> rate{}, inverseRate{};
  std::array<bool, 3> parallel{};
  for (std::size_t n = 0; n < 3; ++n) {
    rate[n] = kHexStripNormals[n][0] * du + kHexStripNormals[n][1] * dv;
    parallel[n] = std::abs(rate[n]) * 1e12 <= length;
    inverseRate[n] = parallel[n] ? 0.0 : 1.0 / rate[n];
  }
  // Tile k of line `line`: its centre (cu = k + the line's shift, cv), and the segment's low end's
  // offsets across the hexagon's three strips from it.
  auto lineShift = [&](std::int32_t line) { return axis.cu + 0.5 * line + double(axis.base[std::size_t(line)]); };
  auto lineCentreV = [&](std::int32_t line) { return axis.cv + line * kPitch; };
  auto stripOffsets = [&](double cu, double cv) {
    std::array<double, 3> at{};
    for (std::size_t n = 0; n < 3; ++n) at[n] = kHexStripNormals[n][0] * (sweep.uLow - cu) + kHexStripNormals[n][1] * (sweep.vLow - cv);
    return at;
  };
  // What the walk charges per unit of length on a tile's piece [t0, t1] whose low end lies at
  // offsets `at` across the three strips: the tile's cost, or a dearer passable tile's the piece
  // runs along (within the walk's cost tolerance of their shared edge all along: alongsideTiles,
  // the walk's own test). NaN when such a tile is off the stored lines.
  auto pieceCost = [&](std::int32_t line, std::int32_t k, const std::array<double, 3>& at, double t0, double t1) {
    float cost = hexCost(line, k);
    // Where the six neighbours share the tile's cost no rule of the walk can price the piece
    // otherwise (most pieces, in the middle of patches of one terrain).
    if (sameCostAround(line, k)) return double(cost);
    for (std::size_t n = 0; n < 3; ++n) {
      const double s0 = at[n] + rate[n] * t0, s1 = at[n] + rate[n] * t1;
      for (const int side : {-1, 1}) {
        if (0.5 - side * s0 > tolerance || 0.5 - side * s1 > tolerance) continue;
        const auto [next, nextK] = hexNeighbour(line, k, int(n), side);
        if (next < 0 || next >= m_hexLines || nextK < 0 || nextK >= m_hexLength) return kNone;
        const float other = hexCost(next, nextK);
        if (other != TerrainTable::kImpassable) cost = std::max(cost, other);
      }
    }
    return double(cost);
  };
  // Whether the point at t of the tile whose low end lies at offsets `at` is within the corner
  // rule's reach of two of the hexagon's edges (see below), `on` (when not -1) being the family
  // of an edge it lies on.
  auto nearCorner = [&](const std::array<double, 3>& at, double t, int on) {
    int edges = on >= 0 ? 1 : 0;
    for (std::size_t n = 0; n < 3; ++n) {
      if (int(n) != on) edges += std::abs(std::abs(at[n] + rate[n] * t) - 0.5) < 10.0 * slack ? 1 : 0;
    }
    return edges >= 2;
  };
  constexpr std::size_t kMostPieces = 128;
  // The common case first: the tiles the segment crosses, walked in order from the one holding
  // its low end, each left through the edge its line meets first (hexagons tile the plane, so the
  // next tile is the neighbour across that edge), and each piece priced as below. Pieces then
  // follow one another with neither overlap nor gap, so the total is their sum. A piece end
  // within the corner rule's reach of two edges (a corner: the next tile is in doubt, and the
  // rule lays a stretch over the pieces there) is left to the general way below, which finds
  // every tile near the segment and sorts their pieces.
  const double crossed = [&]() -> double {
    // The tile holding the low end: the nearest centre (hexagons are the centres' Voronoi cells).
    std::int32_t line = -1, k = -1;
    double nearest = HUGE_VAL;
    const auto middleLine = detail::floorToInt((sweep.vLow - axis.cv) / kPitch + 0.5);
    for (std::int32_t l = middleLine - 1; l <= middleLine + 1; ++l) {
      if (l < 0 || l >= m_hexLines) continue;
      const double shift = lineShift(l);
      const std::int32_t j = detail::floorToInt(sweep.uLow - shift + 0.5);
      const double eu = sweep.uLow - (double(j) + shift), ev = sweep.vLow - lineCentreV(l);
      if (eu * eu + ev * ev < nearest) nearest = eu * eu + ev * ev, line = l, k = j;
    }
    double t = 0.0, total = 0.0;
    for (std::size_t piece = 0; piece < kMostPieces; ++piece) {
      if (line < 0 || line >= m_hexLines || k < 0 || k >= m_hexLength) return kNone;
      const std::array<double, 3> at = stripOffsets(double(k) + lineShift(line), lineCentreV(line));
      double leave = HUGE_VAL;
      int family = -1, side = 0;
      for (std::size_t n = 0; n < 3; ++n) {
        if (parallel[n]) continue;
        const int towards = rate[n] > 0.0 ? 1 : -1;
        const double out = (0.5 * towards - at[n]) * inverseRate[n];
        if (out < leave) leave = out, family = int(n), side = towards;
      }
      if (family < 0) return kNone;  // (a segment of no length across every family)
      const double end = std::min(leave, 1.0);
      if ((piece == 0 && nearCorner(at, 0.0, -1)) || nearCorner(at, end, leave <= 1.0 ? family : -1)) return kNone;
      if (end > t) {
        const double cost = pieceCost(line, k, at, t, end);
        if (std::isnan(cost) || cost == double(TerrainTable::kImpassable)) return kNone;
        total += (end - t) * cost;
        t = end;
      }
      if (leave >= 1.0) return total;
      std::tie(line, k) = hexNeighbour(line, k, family, side);
    }
    return kNone;  // (a long segment: the general way, or the walk, prices it)
  }();
  if (!std::isnan(crossed)) return crossed;

  // The general way: each tile's piece of the segment (its t-range) and what the walk charges
  // per unit of length there.
  struct Piece {
    double t0, t1, cost;
  };
  std::array<Piece, kMostPieces> pieces;
  std::size_t count = 0;
  const HexSweep::Reach touched = sweep.reach(slack);
  const auto firstLine = std::int32_t(std::ceil((sweep.vLow - slack - kRadius - axis.cv) / kPitch));
  const auto lastLine = std::int32_t(std::floor((sweep.vHigh + slack + kRadius - axis.cv) / kPitch));
  // (A line off the map whose band comes near: classifyHexAxis looked along another axis, and
  // no tile of it is touched, but its bits are not stored.)
  if (firstLine < 0 || lastLine >= m_hexLines) return kNone;
  for (std::int32_t line = firstLine; line <= lastLine; ++line) {
    const double centreV = lineCentreV(line);
    const double shift = lineShift(line);
    const auto [low, high] = sweep.centresNear(centreV, touched);
    // (Every tile within slack is on the map and passable: classifyHexAxis looked.)
    const std::int32_t first = std::max(detail::ceilToInt(std::max(low - shift, -1.0)), 0);
    const std::int32_t last = std::min(detail::floorToInt(std::min(high - shift, double(m_hexLength))), m_hexLength - 1);
    for (std::int32_t k = first; k <= last; ++k) {
      const double cu = double(k) + shift, cv = centreV;
      double t0 = 0.0, t1 = 1.0;
      const std::array<double, 3> at = stripOffsets(cu, cv);
      for (std::size_t n = 0; n < 3; ++n) {
        if (parallel[n]) {
          if (std::abs(at[n]) > 0.5) t1 = -1.0;
          continue;
        }
        double enter = (-0.5 - at[n]) * inverseRate[n], leave = (0.5 - at[n]) * inverseRate[n];
        if (enter > leave) std::swap(enter, leave);
        t0 = std::max(t0, enter), t1 = std::min(t1, leave);
      }
      if (!(t1 > t0)) continue;  // missed, or touched at a point
      if (count == pieces.size()) return kNone;  // (a long segment: the walk prices it)
      const float cost = hexCost(line, k);
      if (sameCostAround(line, k)) {
        pieces[count++] = {t0, t1, double(cost)};
        continue;
      }
      // At a corner (within rounding of two edges' lines) the walk splits its pieces where the
      // segment crosses the three lines through the corner, and prices each short piece between
      // those crossings at the dearest passable tile round the corner (all three lie within its
      // tolerance of both ends): that stretch is laid over the pieces here. A crossing a little
      // further out, where the walk's pieces would reach some of the tiles only, is the walk's.
      for (const double t : {t0, t1}) {
        if (!nearCorner(at, t, -1)) continue;
        const double pu = sweep.uLow + du * t - cu, pv = sweep.vLow + dv * t - cv;
        std::size_t nearest = 0;
        for (std::size_t c = 1; c < kHexCorners.size(); ++c) {
          const auto distance = [&](std::size_t i) {
            const double eu = pu - kHexCorners[i][0], ev = pv - kHexCorners[i][1];
            return eu * eu + ev * ev;
          };
          if (distance(c) < distance(nearest)) nearest = c;
        }
        const double vu = kHexCorners[nearest][0], vv = kHexCorners[nearest][1];
        double lowT = HUGE_VAL, highT = -HUGE_VAL;
        float dearest = cost;
        for (std::size_t n = 0; n < 3; ++n) {
          // Across family n the corner lies on an edge (offset ±½: the tile across it is one of
          // the corner's) or on the line through the centre (offset 0).
          const double offset = kHexStripNormals[n][0] * vu + kHexStripNormals[n][1] * vv;
          if (std::abs(offset) > 0.25) {
            const auto [next, nextK] = hexNeighbour(line, k, int(n), offset > 0.0 ? 1 : -1);
            if (next < 0 || next >= m_hexLines || nextK < 0 || nextK >= m_hexLength) return kNone;
            const float other = hexCost(next, nextK);
            if (other != TerrainTable::kImpassable) dearest = std::max(dearest, other);
          }
          if (parallel[n]) continue;
          const double crossing = (offset - at[n]) * inverseRate[n];
          const double eu = sweep.uLow + du * crossing - cu - vu, ev = sweep.vLow + dv * crossing - cv - vv;
          const double away = eu * eu + ev * ev;  // squared
          if (away <= 0.25 * tolerance * tolerance) {
            lowT = std::min(lowT, crossing), highT = std::max(highT, crossing);
          } else if (away <= 64.0 * tolerance * tolerance) {
            return kNone;
          }
        }
        lowT = std::max(lowT, 0.0), highT = std::min(highT, 1.0);
        if (highT > lowT && dearest != cost) {
          if (count == pieces.size()) return kNone;
          pieces[count++] = {lowT, highT, double(dearest)};
        }
      }
      // The walk's alongsideTiles: a neighbour both ends come within its tolerance of (beyond
      // the bisector of the two centres, a unit apart: the edge's line) runs along the piece,
      // and the dearer passable side counts.
      const double alongside = pieceCost(line, k, at, t0, t1);
      if (std::isnan(alongside)) return kNone;
      if (count == pieces.size()) return kNone;
      pieces[count++] = {t0, t1, alongside};
    }
  }
  // The pieces in order along the segment, each stretch at the dearest piece over it. They must
  // cover the segment without a gap (else a tile was missed: the walk prices it). Pieces of two
  // tiles overlap only where the segment runs along their shared edge (within rounding), each
  // then priced at the dearer side: counted once, as the walk's contact along an edge is.
  std::sort(pieces.begin(), pieces.begin() + std::ptrdiff_t(count),
            [](const Piece& p, const Piece& q) { return p.t0 < q.t0; });
  std::array<double, 2 * kMostPieces> bounds;
  for (std::size_t i = 0; i < count; ++i) bounds[2 * i] = pieces[i].t0, bounds[2 * i + 1] = pieces[i].t1;
  std::sort(bounds.begin(), bounds.begin() + std::ptrdiff_t(2 * count));
  const double gap = slack / length;
  if (count == 0 || bounds[0] > gap || bounds[2 * count - 1] < 1.0 - gap) return kNone;
  std::array<std::size_t, 8> active;  // the pieces over the stretch at hand
  std::size_t activeCount = 0, next = 0;
  double total = 0.0, previous = 0.0;  // (previous: the last stretch's cost)
  for (std::size_t i = 0; i + 1 < 2 * count; ++i) {
    const double from = bounds[i], to = bounds[i + 1];
    if (!(to > from)) continue;
    std::size_t kept = 0;
    for (std::size_t j = 0; j < activeCount; ++j) {
      if (pieces[active[j]].t1 > from) active[kept++] = active[j];
    }
    activeCount = kept;
    for (; next < count && pieces[next].t0 <= from; ++next) {
      if (pieces[next].t1 <= from) continue;
      if (activeCount == active.size()) return kNone;
      active[activeCount++] = next;
    }
    if (activeCount == 0) {
      // Between two tiles' pieces, by rounding (their shared edge crossed at a slant, each
      // computing the crossing from its own centre): the dearer side, as the walk's pieces on
      // both sides of it are priced when they run along that edge.
      if (to - from > gap) return kNone;
      total += (to - from) * std::max(previous, next < count ? pieces[next].cost : previous);
      continue;
    }
    double dearest = 0.0;
    for (std::size_t j = 0; j < activeCount; ++j) dearest = std::max(dearest, pieces[active[j]].cost);
    total += (to - from) * dearest;
    previous = dearest;
  }
  return total;
}

}  // namespace rpgnav
