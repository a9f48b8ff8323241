// SPDX-License-Identifier: MIT
#include "grid/segment_tester.hpp"

#include "grid/segment_walk.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rpgnav {
SegmentTester::SegmentTester(const TileMap& map, MobilityId mobility)
    : m_map(&map), m_mobility(mobility), m_version(map.version()), m_cheapest(std::numeric_limits<double>::infinity()) {
  readCosts();
  const std::int32_t width = map.width(), height = map.height();
  if (!map.layout().isHex()) {
    m_rowWords = (width + 63) / 64;
    m_columnWords = (height + 63) / 64;
    m_rows.assign(std::size_t(m_rowWords) * std::size_t(height), 0);
    m_columns.assign(std::size_t(m_columnWords) * std::size_t(width), 0);
    m_passableRows = m_rows;
    m_passableColumns = m_columns;
    for (std::int32_t y = 0; y < height; ++y) {
      for (std::int32_t x = 0; x < width; ++x) readTile({x, y});
    }
  }
  if (map.layout().isHex()) {
    m_hexFlat = map.layout().kind() == LayoutKind::HexFlat;
    m_hexEvenShifted = map.layout().hexStagger() == HexStagger::Even ? 1 : 0;
    m_hexLines = m_hexFlat ? width : height;
    m_hexLength = m_hexFlat ? height : width;
    m_hexCosts.assign(std::size_t(map.tileCount()), 0.0f);
    m_hexRuns.assign(std::size_t(map.tileCount()), 0);
    m_hexSameAround.assign(std::size_t(map.tileCount()), 0);
    layOutHexAxes();
    for (std::int32_t line = 0; line < m_hexLines; ++line) readHexLine(line);
    for (std::int32_t line = 0; line < m_hexLines; ++line) readHexSameAround(line);
    for (std::int32_t i = 0; i < map.tileCount(); ++i) readHexTileBits(map.cellAt(i));
  }
  m_openAround.assign(std::size_t(map.tileCount()), false);
  m_passableAround.assign(std::size_t(map.tileCount()), false);
  for (std::int32_t i = 0; i < map.tileCount(); ++i) readOpenAround(map.cellAt(i));
}

void SegmentTester::readCosts() {
  // The cheapest cost any terrain of the table has (not only those on the map now: so that tile
  // edits never change it, and with it every tile's bit).
  const TerrainTable& terrain = m_map->terrain();
  m_cheapest = double(terrain.minCost(m_mobility));
  m_uniformCost = true;
  for (int t = 0; t < terrain.terrainCount(); ++t) {
    const float cost = terrain.cost(TerrainId{std::uint8_t(t)}, m_mobility);
    if (cost != TerrainTable::kImpassable && double(cost) != m_cheapest) m_uniformCost = false;
  }
}

namespace {

void setBit(std::vector<std::uint64_t>& words, std::size_t word, std::int32_t bit, bool on) {
  const std::uint64_t mask = std::uint64_t(1) << (bit & 63);
  words[word] = on ? words[word] | mask : words[word] & ~mask;
}

}  // namespace

void SegmentTester::readTile(Cell cell) {
  const TileMap& map = *m_map;
  const std::size_t rowWord = std::size_t(cell.y) * std::size_t(m_rowWords) + std::size_t(cell.x >> 6);
  const std::size_t columnWord = std::size_t(cell.x) * std::size_t(m_columnWords) + std::size_t(cell.y >> 6);
  const bool passable = map.passable(cell, m_mobility);
  const bool cheap = passable && double(map.cost(cell, m_mobility)) == m_cheapest;
  setBit(m_passableRows, rowWord, cell.x, passable);
  setBit(m_passableColumns, columnWord, cell.y, passable);
  setBit(m_rows, rowWord, cell.x, cheap);
  setBit(m_columns, columnWord, cell.y, cheap);
}

void SegmentTester::readOpenAround(Cell cell) {
  const TileMap& map = *m_map;
  auto cheap = [&](Cell c) {
    return map.contains(c) && double(map.cost(c, m_mobility)) == m_cheapest && std::isfinite(m_cheapest);
  };
  bool open = cheap(cell), passableAround = true;
  for (const NeighbourStep& step : map.layout().touching(cell)) {
    const Cell next{cell.x + step.dx, cell.y + step.dy};
    open = open && cheap(next);
    passableAround = passableAround && map.passable(next, m_mobility);
  }
  m_openAround[std::size_t(map.index(cell))] = open;
  m_passableAround[std::size_t(map.index(cell))] = passableAround;
}

void SegmentTester::update(const TileMap& map, std::span<const std::pair<Cell, Cell>> rects, bool costsChanged) {
  m_map = &map;
  m_version = map.version();
  if (costsChanged) {
    *this = SegmentTester(map, m_mobility);
    return;
  }
  for (const auto& [low, high] : rects) {
    if (!m_hexCosts.empty()) {
      const std::int32_t lineLow = m_hexFlat ? low.x : low.y, lineHigh = m_hexFlat ? high.x : high.y;
      for (std::int32_t line = std::max(lineLow, 0); line <= std::min(lineHigh, m_hexLines - 1); ++line) readHexLine(line);
      for (std::int32_t line = std::max(lineLow - 1, 0); line <= std::min(lineHigh + 1, m_hexLines - 1); ++line) {
        readHexSameAround(line);
      }
    }
    for (std::int32_t y = std::max(low.y, 0); y <= std::min(high.y, map.height() - 1); ++y) {
      for (std::int32_t x = std::max(low.x, 0); x <= std::min(high.x, map.width() - 1); ++x) {
        if (!m_rows.empty()) readTile({x, y});
        if (!m_hexCosts.empty()) readHexTileBits({x, y});
      }
    }
    // Open-around flags: the tiles and every tile touching them (one tile further on either side
    // covers both layouts' touching tiles).
    for (std::int32_t y = std::max(low.y - 1, 0); y <= std::min(high.y + 1, map.height() - 1); ++y) {
      for (std::int32_t x = std::max(low.x - 1, 0); x <= std::min(high.x + 1, map.width() - 1); ++x) {
        readOpenAround({x, y});
      }
    }
  }
}

bool SegmentTester::openAround(Cell cell) const noexcept {
  return m_map->contains(cell) && m_openAround[std::size_t(m_map->index(cell))];
}

// Walks the lines (rows, or columns when transposed) the segment comes within `pad` of. On each,
// the tiles from where the padded segment enters the line's band to where it leaves, widened by
// `pad`, must all be cheapest-passable for "clear"; and the tiles whose inside the segment surely
// crosses (the part of it well inside the band, shrunk by `pad` at both ends) must all be
// passable, or it is "blocked". u runs along a line, v across lines; tile k covers [k, k+1).
SegmentTester::Verdict SegmentTester::scan(const Lines& lines, double u0, double v0, double u1, double v1, double pad,
                                           bool clearOnly, Cell& blocker) {
  const double vLow = std::min(v0, v1) - pad, vHigh = std::max(v0, v1) + pad;
  const double firstLine = std::floor(vLow), lastLine = std::floor(vHigh);
  if (firstLine < 0.0 || lastLine >= double(lines.count)) return Verdict::Unsure;
  const double du = u1 - u0, dv = v1 - v0, inverse = dv != 0.0 ? 1.0 / dv : 0.0;
  // The u-range of the segment's points with v in [low, high] (empty when first > second).
  auto range = [&](double low, double high) {
    double t0 = 0.0, t1 = 1.0;
    if (dv != 0.0) {
      t0 = (low - v0) * inverse;
      t1 = (high - v0) * inverse;
      if (t0 > t1) std::swap(t0, t1);
      t0 = std::max(t0, 0.0);
      t1 = std::min(t1, 1.0);
    } else if (v0 < low || v0 > high) {
      return std::pair(1.0, 0.0);
    }
    if (t0 > t1) return std::pair(1.0, 0.0);
    const double a = u0 + du * t0, b = u0 + du * t1;
    return std::pair(std::min(a, b), std::max(a, b));
  };
  Verdict verdict = Verdict::Clear;
  for (std::int32_t line = std::int32_t(firstLine); line <= std::int32_t(lastLine); ++line) {
    const std::size_t offset = std::size_t(line) * std::size_t(lines.wordsPerLine);
    if (verdict == Verdict::Clear) {
      const auto [low, high] = range(double(line) - pad, double(line) + 1.0 + pad);
      const double first = std::floor(low - pad), last = std::floor(high + pad);
      if (first >= 0.0 && last < double(lines.length) &&
          allBitsSet(lines.cheap + offset, std::int32_t(first), std::int32_t(last))) {
        continue;  // all cheapest-passable, so nothing on this line blocks either
      }
      verdict = Verdict::Unsure;
      if (clearOnly) return verdict;
    }
    const auto [low, high] = range(double(line) + pad, double(line) + 1.0 - pad);
    const double first = std::max(std::floor(low + pad), 0.0);
    const double last = std::min(std::ceil(high - pad) - 1.0, double(lines.length) - 1.0);
    if (low + pad < high - pad && first <= last &&
        !allBitsSet(lines.passable + offset, std::int32_t(first), std::int32_t(last))) {
      for (std::int32_t k = std::int32_t(first); k <= std::int32_t(last); ++k) {
        if (!(lines.passable[offset + std::size_t(k >> 6)] >> (k & 63) & 1)) {
          blocker = {k, line};
          break;
        }
      }
      return Verdict::Blocked;
    }
  }
  return verdict;
}

SegmentTester::Verdict SegmentTester::classify(Vec2 from, Vec2 to, float radius, bool clearOnly, Cell& blocker,
                                               double& cost) const {
  if (!std::isfinite(radius) || radius < 0.0f) return Verdict::Unsure;
  const Layout& layout = m_map->layout();
  const Eigen::Vector2d a = layout.toLocal(from), b = layout.toLocal(to);
  if (!a.allFinite() || !b.allFinite()) return Verdict::Unsure;
  // Room for rounding: the exact probe counts points within 5e-7 × magnitude as on an edge, so
  // everything that close must be looked at too.
  const double magnitude = std::max({1.0, std::abs(a.x()), std::abs(a.y()), std::abs(b.x()), std::abs(b.y())});
  const double slack = 1e-6 * magnitude;
  const double pad = double(radius) / double(layout.tileSize()) + slack;
  if (!m_hexCosts.empty()) {
    // (Far beyond any map the answer is Unsure anyway: the lines would be off it.)
    const float onlyCost = clearOnly ? float(m_cheapest) : std::numeric_limits<float>::quiet_NaN();
    return classifyHex(a, b, pad, slack, clearOnly, onlyCost, cost, blocker);
  }
  cost = m_cheapest;
  // Walk the axis the segment advances along least: few lines, long runs of bits.
  if (std::abs(b.x() - a.x()) >= std::abs(b.y() - a.y())) {
    const Lines rows{m_rows.data(), m_passableRows.data(), m_rowWords, m_map->height(), m_map->width()};
    return scan(rows, a.x(), a.y(), b.x(), b.y(), pad, clearOnly, blocker);
  }
  const Lines columns{m_columns.data(), m_passableColumns.data(), m_columnWords, m_map->width(), m_map->height()};
  const Verdict verdict = scan(columns, a.y(), a.x(), b.y(), b.x(), pad, clearOnly, blocker);
  blocker = {blocker.y, blocker.x};
  return verdict;
}

bool SegmentTester::cheaplyClear(Vec2 from, Vec2 to, float radius) const {
  if (!std::isfinite(m_cheapest)) return false;
  if (!m_uniformCost) {
    // On ground of several costs many segments asked about start on a dearer tile (corner
    // routing asks at every bend). The segment touches the tile it starts in, so that tile's
    // cost alone answers them: on the hex wilderness sample this test's instructions fell from
    // 32 to 19 M per 1,000 plans.
    const Cell at = m_map->layout().tileAt(from);
    if (m_map->contains(at) && m_map->cost(at, m_mobility) != float(m_cheapest)) return false;
  }
  Cell blocker;
  double cost = 0.0;
  return classify(from, to, radius, true, blocker, cost) == Verdict::Clear;
}

namespace {

// Squared distance from the segment a→b to the unit square of tile (x, y), in tile units: zero
// when they meet.
double squaredDistanceToTile(const Eigen::Vector2d& a, const Eigen::Vector2d& b, double x, double y) {
  const Eigen::Vector2d low(x, y), high(x + 1.0, y + 1.0);
  // Where the segment's line is inside the square (Liang-Barsky): a meeting is distance zero.
  const Eigen::Vector2d d = b - a;
  double t0 = 0.0, t1 = 1.0;
  bool meets = true;
  for (int axis = 0; axis < 2 && meets; ++axis) {
    if (d[axis] == 0.0) {
      meets = a[axis] >= low[axis] && a[axis] <= high[axis];
    } else {
      double u0 = (low[axis] - a[axis]) / d[axis], u1 = (high[axis] - a[axis]) / d[axis];
      if (u0 > u1) std::swap(u0, u1);
      t0 = std::max(t0, u0);
      t1 = std::min(t1, u1);
      meets = t0 <= t1;
    }
  }
  if (meets) return 0.0;
  // Apart: the nearest pair is an end of the segment and the square, or a corner and the segment.
  auto pointToSquare = [&](const Eigen::Vector2d& p) { return (low - p).cwiseMax(p - high).cwiseMax(0.0).squaredNorm(); };
  double best = std::min(pointToSquare(a), pointToSquare(b));
  const double length2 = d.squaredNorm();
  for (const Eigen::Vector2d& corner : {low, high, Eigen::Vector2d(low.x(), high.y()), Eigen::Vector2d(high.x(), low.y())}) {
    const double t = length2 > 0.0 ? std::clamp((corner - a).dot(d) / length2, 0.0, 1.0) : 0.0;
    best = std::min(best, (a + d * t - corner).squaredNorm());
  }
  return best;
}

}  // namespace

bool SegmentTester::keeps(Vec2 from, Vec2 to, float clearance) const {
  // (Hex maps at 0: the narrow rule, between two blocked tiles or along them, is the walk's.)
  if (!m_hexCosts.empty() && !(clearance > 0.0f)) return detail::probeSegmentKnowing(*m_map, m_mobility, from, to, clearance, &m_passableAround).clear;
  const Layout& layout = m_map->layout();
  Eigen::Vector2d a = layout.toLocal(from), b = layout.toLocal(to);
  if (!a.allFinite() || !b.allFinite() || !std::isfinite(clearance)) return false;
  const double radius = double(clearance) / double(layout.tileSize());
  // (Far beyond any map, as probeSegment: not clear.)
  constexpr double kFar = 8.0 * kMaxMapSide;
  if (a.cwiseAbs().maxCoeff() >= kFar || b.cwiseAbs().maxCoeff() >= kFar) return false;
  const double pad = detail::keptDistance(radius, a, b, detail::worldTilesOf(from, to, layout.tileSize()));
  if (!m_hexCosts.empty()) return keepsHex(a, b, radius, pad);
  if (radius >= 0.5 && detail::measureReversed(a, b)) std::swap(a, b);  // as probeSegment measures
  // Along the axis the segment advances along least (few lines, long runs of bits); u along a
  // line, v across.
  const bool column = std::abs(b.x() - a.x()) < std::abs(b.y() - a.y());
  if (column) {
    a = Eigen::Vector2d(a.y(), a.x());
    b = Eigen::Vector2d(b.y(), b.x());
  }
  const BitLines passable = column ? BitLines{m_passableColumns.data(), m_columnWords, m_map->width(), m_map->height()}
                                   : BitLines{m_passableRows.data(), m_rowWords, m_map->height(), m_map->width()};
  const double pad2 = pad * pad;
  auto near = [&](std::int32_t line, std::int32_t k) { return squaredDistanceToTile(a, b, double(k), double(line)) < pad2; };
  const double du = b.x() - a.x(), dv = b.y() - a.y();
  const double vLow = std::min(a.y(), b.y()) - pad, vHigh = std::max(a.y(), b.y()) + pad;
  const auto firstLine = std::int32_t(std::floor(vLow)), lastLine = std::int32_t(std::floor(vHigh));
  for (std::int32_t line = firstLine; line <= lastLine; ++line) {
    // The segment's u-range on the line's band grown by pad, grown by pad again: every tile of
    // the line that can come within pad of it.
    double t0 = 0.0, t1 = 1.0;
    if (dv != 0.0) {
      t0 = (double(line) - pad - a.y()) / dv;
      t1 = (double(line) + 1.0 + pad - a.y()) / dv;
      if (t0 > t1) std::swap(t0, t1);
      t0 = std::max(t0, 0.0);
      t1 = std::min(t1, 1.0);
    }
    if (t0 > t1) continue;
    const double u0 = a.x() + du * t0, u1 = a.x() + du * t1;
    const auto first = std::int32_t(std::floor(std::min(u0, u1) - pad)), last = std::int32_t(std::floor(std::max(u0, u1) + pad));
    if (line < 0 || line >= passable.count) {
      // A line off the map: every tile on it counts as blocked.
      for (std::int32_t k = first; k <= last; ++k) {
        if (near(line, k)) return false;
      }
      continue;
    }
    // Off the map at either end of the line, then the impassable tiles on it.
    for (std::int32_t k = first; k <= last && k < 0; ++k) {
      if (near(line, k)) return false;
    }
    for (std::int32_t k = std::max(first, passable.length); k <= last; ++k) {
      if (near(line, k)) return false;
    }
    const std::int32_t to = std::min(last, passable.length - 1);
    for (std::int32_t k = passable.nextNotCheapest(line, std::max(first, 0), to); k <= to;
         k = passable.nextNotCheapest(line, k + 1, to)) {
      if (near(line, k)) return false;
    }
  }
  return true;
}

SegmentTester::FastProbe SegmentTester::probeWithoutWalk(Vec2 from, Vec2 to, float radius, SegmentProbe& result) const {
  result = SegmentProbe{};
  double cost = 0.0;
  switch (classify(from, to, radius, false, result.blocker, cost)) {
    case Verdict::Clear:
      result.clear = true;
      result.length = (to.cast<double>() - from.cast<double>()).norm();
      result.cost = result.length * cost;
      return FastProbe::Answered;
    case Verdict::Blocked:
      result.length = (to.cast<double>() - from.cast<double>()).norm();
      result.hasBlocker = true;
      return FastProbe::Answered;
    case Verdict::Unsure: break;
  }
  // Near walls. A body of positive radius is clear exactly when it keeps the radius from every
  // tile the mobility cannot enter (the walk's rule, for wide bodies and narrow): keeps() finds
  // the walls within the radius from the bits, a line at a time, and measures only them, instead
  // of the walk's polygon tests round every tile it visits. (Narrow bodies on squares: the
  // walk's touching-ring test is about as cheap as keeps() there.) A clear segment costs what
  // it costs at radius 0: its length × the cheapest cost on a map of one cost, else the fast
  // test at radius 0 prices it, or the walk.
  if (!(radius > 0.0f) || (m_hexCosts.empty() && !widerThanHalfTile(m_map->layout(), radius))) return FastProbe::Walk;
  result.length = (to.cast<double>() - from.cast<double>()).norm();
  if (!keeps(from, to, radius)) return FastProbe::Answered;
  if (uniformCost()) {
    result.clear = true;
    result.cost = result.length * m_cheapest;
    return FastProbe::Answered;
  }
  Cell ignored;
  if (classify(from, to, 0.0f, false, ignored, cost) != Verdict::Clear) return FastProbe::ClearButWalkPrices;
  result.clear = true;
  result.cost = result.length * cost;
  return FastProbe::Answered;
}

SegmentProbe SegmentTester::probe(Vec2 from, Vec2 to, float radius) const {
  SegmentProbe result;
  switch (probeWithoutWalk(from, to, radius, result)) {
    case FastProbe::Answered: return result;
    case FastProbe::ClearButWalkPrices: return detail::probeSegmentKnowing(*m_map, m_mobility, from, to, 0.0f, &m_passableAround);
    case FastProbe::Walk: break;
  }
  return detail::probeSegmentKnowing(*m_map, m_mobility, from, to, radius, &m_passableAround);
}

SegmentProbe SegmentTester::probeKeeping(Vec2 from, Vec2 to, float radius, float clearance, bool& keepsClearance) const {
  const SegmentProbe result = probe(from, to, radius);
  keepsClearance = result.clear && keeps(from, to, clearance);
  return result;
}

}  // namespace rpgnav
