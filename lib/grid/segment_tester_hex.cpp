// SPDX-License-Identifier: MIT
// SegmentTester on hex maps: the tiles near a segment, one range of a line at a time.
//
// The frame: u runs along the layout's lines of tiles (x along the rows of pointy hexes, y along
// the columns of flat ones), v across them. Line i has its centres at v = R + i·pitch (R = 1/√3,
// the circumradius; pitch = √3/2), tile k of it at u = k + ½ + ½·shifted(i). A hex spans ½ either
// side of its centre in u (its flat sides) and R in v (its points); between v = ±R/2 it fills the
// whole width, so the rectangle [k, k+1] × [centre - R/2, centre + R/2] (shifted) lies inside it.
//
// Near: every tile the segment (grown by `pad`) can reach is a tile of a line whose band
// centre ± R (grown by pad) it meets, and whose hexagon, grown by pad, the segment's part in that
// band meets on each axis a hexagon is cut by (three strips) and on the segment's normal
// (HexSweep::centresNear): the ranges hold every tile near, and a few more at the corners.
// Surely crossed: the segment's part within the middle rectangles' band, shrunk by the rounding
// slack at both ends of its u-range, crosses the inside of every tile it spans (at any radius: a
// segment inside an impassable tile is blocked).
//
// Axes: the same walk runs along the two other axes of the grid (lines at ±60° to the layout's),
// each in a frame turned so that its lines run along u (SegmentTester::HexAxis), whichever
// crosses the fewest lines; ground of several costs is priced in the layout's own frame, hexagon
// by hexagon along the segment (hexHexagonsCost).
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

std::pair<double, double> SegmentTester::HexSweep::centresNearEnd(double centre, const Reach& reach) const noexcept {
  constexpr std::pair<double, double> kNone{1.0, 0.0};
  constexpr double kSqrt3 = 1.7320508075688772;
  const double from = std::max(centre - reach.band, vLow), to = std::min(centre + reach.band, vHigh);
  if (!(from <= to)) return kNone;
  double ua = uLow, ub = uHigh, wa = vLow - centre, wb = vLow - centre;  // (along a line)
  if (vLow != vHigh) {
    ua = from == vLow ? uLow : uLow + (from - vLow) * slope;
    ub = to == vHigh ? uHigh : uLow + (to - vLow) * slope;
    wa = from - centre, wb = to - centre;
  }
  const double r = reach.reach;
  const double sa = ua + kSqrt3 * wa, sb = ub + kSqrt3 * wb;  // along the slanted axes
  const double da = ua - kSqrt3 * wa, db = ub - kSqrt3 * wb;
  double low = std::max(std::min(ua, ub) - 0.5 - r, std::max(std::min(sa, sb), std::min(da, db)) - 1.0 - 2.0 * r);
  double high = std::min(std::max(ua, ub) + 0.5 + r, std::min(std::max(sa, sb), std::max(da, db)) + 1.0 + 2.0 * r);
  if (inverseNu != 0.0) {
    // |nu·u + nv·centre - offset| ≤ support + reach, solved for the centre's u.
    const double middle = (offset - nv * centre) * inverseNu, half = std::abs((support + r) * inverseNu);
    low = std::max(low, middle - half);
    high = std::min(high, middle + half);
  }
  return {low, high};
}

void SegmentTester::readHexLine(std::int32_t line) {
  const std::size_t base = std::size_t(line) * std::size_t(m_hexLength);
  for (std::int32_t k = 0; k < m_hexLength; ++k) m_hexCosts[base + std::size_t(k)] = m_map->cost(hexCell(line, k), m_mobility);
  // Runs from the line's end back: a tile's run is one more than its successor's when they
  // share a cost.
  std::int32_t run = 0;
  for (std::int32_t k = m_hexLength - 1; k >= 0; --k) {
    const std::size_t i = base + std::size_t(k);
    run = k + 1 < m_hexLength && m_hexCosts[i] == m_hexCosts[i + 1] ? run + 1 : 1;
    m_hexRuns[i] = std::uint16_t(std::min(run, kLongestHexRun));
  }
}

void SegmentTester::layOutHexAxes() {
  // The line frame's centres: tile k of line L at u = a + L/2 + u00, v = R + L·pitch (axial a).
  const double u00 = 0.5 + 0.5 * double(m_hexEvenShifted);
  HexAxis& own = m_hexAxes[0];
  own = HexAxis{};
  own.cu = u00, own.cv = kRadius;
  // Axis 1 runs along (½, pitch), axis 2 along (-½, pitch); across each, the next line lies a
  // pitch further (the frames are mirror images of the line frame, whose hexagons they keep).
  HexAxis& up = m_hexAxes[1];
  up = HexAxis{0.5, kPitch, kPitch, -0.5, 0.5 * u00 + kRadius * kPitch, u00 * kPitch - 0.5 * kRadius};
  HexAxis& down = m_hexAxes[2];
  down = HexAxis{-0.5, kPitch, kPitch, 0.5, kRadius * kPitch - 0.5 * u00, u00 * kPitch + 0.5 * kRadius};
  // Each axis's lines and, per line, the map's tiles on it (one run of j: the map is a rectangle
  // in offset coordinates).
  for (int family = 0; family < 3; ++family) {
    HexAxis& axis = m_hexAxes[std::size_t(family)];
    std::int32_t low = 0, high = -1;
    std::vector<std::int32_t> first, last;
    for (std::int32_t line = 0; line < m_hexLines; ++line) {
      for (const std::int32_t k : {std::int32_t(0), m_hexLength - 1}) {
        // (The ends of the layout's lines bound every axis's lines: i is monotone along them.)
        const std::int32_t i = hexAxisPlace(family, line, k).i;
        low = high < low ? i : std::min(low, i);
        high = std::max(high, i);
      }
    }
    axis.firstLine = low;
    axis.count = std::max(high - low + 1, 0);
    first.assign(std::size_t(axis.count), std::numeric_limits<std::int32_t>::max());
    last.assign(std::size_t(axis.count), std::numeric_limits<std::int32_t>::min());
    for (std::int32_t line = 0; line < m_hexLines; ++line) {
      for (std::int32_t k = 0; k < m_hexLength; ++k) {
        const auto [i, j] = hexAxisPlace(family, line, k);
        first[std::size_t(i - low)] = std::min(first[std::size_t(i - low)], j);
        last[std::size_t(i - low)] = std::max(last[std::size_t(i - low)], j);
      }
    }
    axis.width = 0;
    for (std::size_t n = 0; n < first.size(); ++n) axis.width = std::max(axis.width, last[n] - first[n] + 1);
    axis.words = (axis.width + 63) / 64;
    axis.base = std::move(first);
    axis.cheap.assign(std::size_t(axis.words) * std::size_t(axis.count), 0);
    axis.passable = axis.cheap;
  }
}

void SegmentTester::readHexTileBits(Cell cell) {
  const std::int32_t line = m_hexFlat ? cell.x : cell.y, k = m_hexFlat ? cell.y : cell.x;
  const float cost = m_map->cost(cell, m_mobility);
  const bool passable = cost != TerrainTable::kImpassable, cheap = passable && double(cost) == m_cheapest;
  for (int family = 0; family < 3; ++family) {
    HexAxis& axis = m_hexAxes[std::size_t(family)];
    const HexAxisPlace place = hexAxisPlace(family, line, k);
    const std::int32_t i = place.i - axis.firstLine;
    const std::int32_t bit = place.j - axis.base[std::size_t(i)];
    const std::size_t word = std::size_t(i) * std::size_t(axis.words) + std::size_t(bit >> 6);
    const std::uint64_t mask = std::uint64_t(1) << (bit & 63);
    axis.passable[word] = passable ? axis.passable[word] | mask : axis.passable[word] & ~mask;
    axis.cheap[word] = cheap ? axis.cheap[word] | mask : axis.cheap[word] & ~mask;
  }
}

std::int32_t SegmentTester::hexRunEnd(std::int32_t line, std::int32_t k) const noexcept {
  const std::size_t base = std::size_t(line) * std::size_t(m_hexLength);
  const std::int32_t run = m_hexRuns[base + std::size_t(k)];
  if (run < kLongestHexRun) return k + run;
  // A saturated run goes on while the cost holds.
  const float cost = m_hexCosts[base + std::size_t(k)];
  std::int32_t end = k + run;
  while (end < m_hexLength && m_hexCosts[base + std::size_t(end)] == cost) end += m_hexRuns[base + std::size_t(end)];
  return end;
}

SegmentTester::HexTouch SegmentTester::hexTouch(double u0, double v0, double u1, double v1, double margin) noexcept {
  // The segment's stretch inside each of the hexagon's strips (kHexStripNormals), grown or shrunk
  // by the margin, is cut from t in [0, 1] (Cyrus-Beck).
  const double du = u1 - u0, dv = v1 - v0;
  auto stretch = [&](double half, double& t0, double& t1) {
    t0 = 0.0, t1 = 1.0;
    for (const auto& [nu, nv] : kHexStripNormals) {
      const double at = nu * u0 + nv * v0, rate = nu * du + nv * dv;
      if (rate == 0.0) {
        if (std::abs(at) > half) return false;
        continue;
      }
      const double a = (-half - at) / rate, b = (half - at) / rate;
      t0 = std::max(t0, std::min(a, b));
      t1 = std::min(t1, std::max(a, b));
    }
    return t0 <= t1;
  };
  double t0 = 0.0, t1 = 0.0;
  // Inside the hexagon shrunk by the margin: the segment enters the tile that deep (the exact
  // walk, whose tolerance is far below the margin, sees it enter). Outside the grown one: it
  // does not come near.
  if (stretch(0.5 - margin, t0, t1)) return HexTouch::Enters;
  if (!stretch(0.5 + margin, t0, t1)) return HexTouch::Apart;
  return HexTouch::Grazes;
}

SegmentTester::Verdict SegmentTester::classifyHex(const Eigen::Vector2d& a, const Eigen::Vector2d& b, double pad,
                                                  double slack, bool clearOnly, float onlyCost, double& cost,
                                                  Cell& blocker) const {
  // Along the axis nearest the segment's direction: the fewest lines.
  const int along = m_hexFlat ? 1 : 0, across = 1 - along;
  const int family = nearestHexAxis(b[along] - a[along], b[across] - a[across]);
  return classifyHexAxis(family, a, b, pad, slack, clearOnly, onlyCost, cost, blocker);
}

SegmentTester::Verdict SegmentTester::classifyHexAxis(int family, const Eigen::Vector2d& a, const Eigen::Vector2d& b,
                                                      double pad, double slack, bool clearOnly, float onlyCost,
                                                      double& cost, Cell& blocker) const {
  const HexAxis& axis = m_hexAxes[std::size_t(family)];
  const int along = m_hexFlat ? 1 : 0, across = 1 - along;
  const double u0 = axis.u(a[along], a[across]), v0 = axis.v(a[along], a[across]);
  const double u1 = axis.u(b[along], b[across]), v1 = axis.v(b[along], b[across]);
  const HexSweep sweep(u0, v0, u1, v1);
  // Lines whose band (centre ± R) comes within pad of the segment.
  const double firstLine = std::ceil((std::min(v0, v1) - pad - kRadius - axis.cv) / kPitch);
  const double lastLine = std::floor((std::max(v0, v1) + pad + kRadius - axis.cv) / kPitch);
  if (firstLine < double(axis.firstLine) || lastLine >= double(axis.firstLine + axis.count)) {
    return Verdict::Unsure;  // tiles off the map are near
  }
  Verdict verdict = Verdict::Clear;
  bool costKnown = !std::isnan(onlyCost), severalCosts = false;
  cost = onlyCost;
  // The bits of a line's tiles that may come within `reach` of the segment (a range that holds
  // every one that does). Off the stored bits: -1 or the width, enough to fail the bounds.
  const HexSweep::Reach padded = sweep.reach(pad), touched = sweep.reach(slack);
  const double beyond = double(axis.width) + 1.0;
  auto near = [&](double centre, double shift, const HexSweep::Reach& reach, std::int32_t& first, std::int32_t& last) {
    const auto [low, high] = sweep.centresNear(centre, reach);
    if (!(low <= high)) return false;  // (no tile of the line is near)
    const std::int32_t f = detail::ceilToInt(std::clamp(low - shift, -2.0, beyond));
    const std::int32_t l = detail::floorToInt(std::clamp(high - shift, -2.0, beyond));
    if (f > l) return false;
    // (Tiles off the stored bits only: both ends at -1, or both at the width.)
    first = std::clamp(f, -1, axis.width);
    last = std::clamp(l, -1, axis.width);
    return true;
  };
  for (auto line = std::int32_t(firstLine); line <= std::int32_t(lastLine); ++line) {
    const std::int32_t stored = line - axis.firstLine;
    const double centre = axis.cv + line * kPitch;
    const std::int32_t base = axis.base[std::size_t(stored)];
    const double shift = axis.cu + 0.5 * line + double(base);  // bit k of the line: its centre's u - k
    std::int32_t first = 0, last = 0;
    if (verdict == Verdict::Clear && near(centre, shift, padded, first, last)) {
      // Every tile within the radius passable; those the segment touches, of one cost: the
      // cheapest (the bits), or another (the runs, along the layout's own lines).
      const std::size_t words = std::size_t(stored) * std::size_t(axis.words);
      bool clear = first >= 0 && last < axis.width && allBitsSet(axis.passable.data() + words, first, last);
      const std::int32_t paddedFirst = first, paddedLast = last;
      if (clear && (pad == slack || near(centre, shift, touched, first, last)) &&
          std::max(first, paddedFirst) <= std::min(last, paddedLast)) {
        // (Radius 0: the same range. The touched tiles lie within the padded ones, which are on
        // the stored bits; the clamp only guards against rounding.)
        first = std::max(first, paddedFirst), last = std::min(last, paddedLast);
        const bool allCheap = allBitsSet(axis.cheap.data() + words, first, last);
        // (Runs of one cost are known along the layout's own lines only: on the other axes,
        // tiles dearer than the cheapest are priced hexagon by hexagon.)
        const double here = allCheap ? m_cheapest : family == 0 ? double(hexCost(line, first)) : HUGE_VAL;
        if ((costKnown && here != cost) || !(allCheap || (family == 0 && hexRunEnd(line, first) > last))) {
          // Passable ground of several costs: priced hexagon by hexagon at the end (not when
          // only a Clear at one cost will do).
          clear = !clearOnly;
          severalCosts = true;
        } else {
          cost = here;
          costKnown = true;
        }
      }
      if (clear) continue;  // so nothing on this line blocks either
      if (pad == slack && first >= 0 && last < axis.width) {
        // Radius 0: the impassable tiles near the segment, each settled by its own hexagon where
        // it can be (most of them are corners that segments between tile centres pass within
        // float rounding of).
        const BitLines passable = axis.passableLines();
        HexTouch touch = HexTouch::Apart;
        for (std::int32_t k = passable.nextNotCheapest(stored, first, last); k <= last && touch == HexTouch::Apart;
             k = passable.nextNotCheapest(stored, k + 1, last)) {
          touch = hexTouch(u0 - (shift + k), v0 - centre, u1 - (shift + k), v1 - centre, 1e-3 * slack);
          if (touch == HexTouch::Enters) {
            blocker = hexAxisCell(family, line, base + k);
            return Verdict::Blocked;
          }
        }
        // Clear of them all, over ground of the cheapest cost: as the bits' answer above.
        const std::size_t words = std::size_t(stored) * std::size_t(axis.words);
        if (touch == HexTouch::Apart && (!costKnown || cost == m_cheapest) &&
            onlyCheapOrWalls(axis.passable.data() + words, axis.cheap.data() + words, first, last)) {
          cost = m_cheapest;
          costKnown = true;
          continue;
        }
      }
      verdict = Verdict::Unsure;
      if (clearOnly) return verdict;
    }
    // The part inside the middle rectangles' band (by the rounding slack): every tile it spans
    // is entered, and a segment that enters an impassable tile is blocked whatever the radius.
    // (A tile's rectangle spans its centre's u ± ½.)
    const auto [low, high] = sweep.within(centre - 0.5 * kRadius + slack, centre + 0.5 * kRadius - slack);
    if (!(low + slack < high - slack)) continue;
    const std::int32_t firstEntered = detail::floorToInt(std::clamp(low + slack - shift + 0.5, 0.0, beyond));
    const std::int32_t lastEntered = detail::ceilToInt(std::clamp(high - slack - shift + 0.5, -1.0, beyond)) - 1;
    const std::int32_t to = std::min(lastEntered, axis.width - 1);
    if (firstEntered > to) continue;
    const std::int32_t k = axis.passableLines().nextNotCheapest(stored, firstEntered, to);
    if (k > to) continue;
    blocker = hexAxisCell(family, line, base + k);
    // (A stored tile off the map: the exact probe names the blocker.)
    if (!m_map->contains(blocker)) return Verdict::Unsure;
    return Verdict::Blocked;
  }
  if (verdict == Verdict::Clear && severalCosts) {
    // (Priced in the layout's own frame, where the costs are kept.)
    const HexAxis& own = m_hexAxes[0];
    cost = hexHexagonsCost(family == 0 ? sweep
                                       : HexSweep(own.u(a[along], a[across]), own.v(a[along], a[across]),
                                                  own.u(b[along], b[across]), own.v(b[along], b[across])),
                           slack);
    if (std::isnan(cost)) return Verdict::Unsure;
  }
  return verdict;
}

std::pair<std::int32_t, std::int32_t> SegmentTester::hexNeighbour(std::int32_t line, std::int32_t k, int family,
                                                                  int side) const noexcept {
  // Across family 0 (normal (1, 0)): the next tile on the line. Across 1 ((½, pitch)) and 2
  // ((-½, pitch)): the line after (side +1) or before, half a tile on along or back.
  if (family == 0) return {line, k + side};
  const std::int32_t axial = k - ((line + m_hexEvenShifted) >> 1), next = line + side;
  const std::int32_t nextAxial = family == 1 ? axial : axial - side;
  return {next, nextAxial + ((next + m_hexEvenShifted) >> 1)};
}

bool SegmentTester::keepsHex(Eigen::Vector2d a, Eigen::Vector2d b, double radius, double pad) const {
  if (radius >= 0.5 && detail::measureReversed(a, b)) std::swap(a, b);  // as probeSegment measures
  const Layout& layout = m_map->layout();
  // A forbidden tile is near when it comes closer than pad (probeSegment's rule); a segment
  // inside the tile is at distance 0. The hexagon holds the disc of radius ½ round its centre
  // and lies in the disc of radius R, so the centre's distance d settles most tiles at once:
  // near when d < pad + ½, not when d >= pad + R (each by a margin for rounding); the polygon
  // is measured only in between.
  const double margin = 1e-9 * std::max({1.0, a.cwiseAbs().maxCoeff(), b.cwiseAbs().maxCoeff()});
  const double surelyNear = pad + 0.5 - margin, surelyFar = pad + kRadius + margin;
  auto near = [&](Cell cell) {
    const double d2 = detail::pointSegmentDistanceSquared(layout.localCenter(cell), a, b);
    if (pad > 0.0 && surelyNear > 0.0 && d2 < surelyNear * surelyNear) return true;
    if (d2 >= surelyFar * surelyFar) return false;
    std::array<Eigen::Vector2d, 6> corners;
    const int count = layout.localCorners(cell, corners);
    return detail::closerThan(a, b, corners, count, pad) || (pad > 0.0 && detail::insideConvex(a, std::span(corners.data(), std::size_t(count))));
  };
  return forHexTilesNear(a, b, pad, std::numeric_limits<float>::infinity(), [&](Cell cell) { return !near(cell); });
}

}  // namespace rpgnav
