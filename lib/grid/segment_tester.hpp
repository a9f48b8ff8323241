// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// SegmentTester: probeSegment for one map and mobility, made cheap for the common case.
///
/// Most segments a path planner tries cross open ground of the cheapest terrain. On square maps a
/// bit per tile ("passable at the cheapest cost") lets such a segment be confirmed a row (or
/// column) of tiles at a time, 64 tiles per machine word, with no per-tile geometry. The test is
/// conservative: it looks at every tile within the radius of the segment (plus rounding room),
/// and answers "clear" only when all are cheapest-passable, in which case the exact answer is
/// known — the segment is clear and costs its length × the cheapest cost. The same walk answers
/// "blocked" when the segment plainly crosses the inside of a tile the mobility cannot enter.
/// Anything else (grazing a corner, costlier terrain) goes to the exact probeSegment.
///
/// Hex maps keep, along each of the layout's lines of tiles (rows of pointy hexes, columns of
/// flat ones), every tile's cost and how many tiles from it on share that cost: the tiles near a
/// segment form one range per line, and a range is passable, or of one cost, when its first
/// tile's run reaches past its end — one look per line, however long the range. A segment whose
/// tiles within the radius are all passable, and whose own tiles (those it touches) share one
/// cost, is clear at that cost (weighted maps included: a meadow of grass, or a road between
/// fields, is as quick to answer as open ground); one that plainly crosses the inside of an
/// impassable tile is blocked; the rest take the exact probe.

#include "core/intrinsics.hpp"
#include "rpgnav/core/types.hpp"
#include "rpgnav/grid/line_of_sight.hpp"
#include "rpgnav/grid/tile_map.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace rpgnav {

/// True when no tile in [first, last] (bit positions, first <= last) of a line is passable and
/// not of the cheapest cost: every one is cheap (bit set in `cheap`) or a wall (clear in
/// `passable`).
inline bool onlyCheapOrWalls(const std::uint64_t* passable, const std::uint64_t* cheap, std::int32_t first,
                             std::int32_t last) noexcept {
  for (std::int32_t word = first >> 6; word <= last >> 6; ++word) {
    std::uint64_t mask = ~std::uint64_t(0);
    if (word == first >> 6) mask &= ~std::uint64_t(0) << (first & 63);
    if (word == last >> 6) mask &= ~std::uint64_t(0) >> (63 - (last & 63));
    if ((passable[word] & ~cheap[word] & mask) != 0) return false;
  }
  return true;
}

/// True when bits first..last (inclusive, first <= last) of one line of words are all set.
inline bool allBitsSet(const std::uint64_t* line, std::int32_t first, std::int32_t last) noexcept {
  const std::int32_t firstWord = first >> 6, lastWord = last >> 6;
  const std::uint64_t headMask = ~std::uint64_t(0) << (first & 63);
  const std::uint64_t tailMask = ~std::uint64_t(0) >> (63 - (last & 63));
  if (firstWord == lastWord) return (~line[firstWord] & headMask & tailMask) == 0;
  // Longer runs: the missing bits gathered without a branch per word.
  std::uint64_t missing = (~line[firstWord] & headMask) | (~line[lastWord] & tailMask);
  for (std::int32_t w = firstWord + 1; w < lastWord; ++w) missing |= ~line[w];
  return missing == 0;
}

/// One bit per tile along lines of a square map (rows, or columns): set when the tile is
/// passable at the cheapest cost.
struct BitLines {
  const std::uint64_t* bits = nullptr;
  std::int32_t wordsPerLine = 0;
  std::int32_t count = 0;   ///< lines
  std::int32_t length = 0;  ///< tiles per line

  /// Along line `line`, the first index in from..to whose tile is outside the map or not
  /// passable at the cheapest cost, or to + 1 when there is none (64 tiles at a time). An empty
  /// view answers `from`.
  std::int32_t nextNotCheapest(std::int32_t line, std::int32_t from, std::int32_t to) const noexcept {
    if (to < from) return to + 1;
    if (bits == nullptr || line < 0 || line >= count || from < 0 || from >= length) return from;
    const std::uint64_t* words = bits + std::size_t(line) * std::size_t(wordsPerLine);
    const std::int32_t last = to < length ? to : length - 1;
    const std::int32_t beyond = last + 1;  // to + 1, or the first tile past the map's edge
    // Scan the inverted bits: a set bit is a tile that is not cheapest.
    std::int32_t word = from >> 6;
    std::uint64_t open = ~words[word] & (~std::uint64_t(0) << (from & 63));
    while (open == 0) {
      if (++word > last >> 6) return beyond;
      open = ~words[word];
    }
    const std::int32_t k = word * 64 + std::countr_zero(open);
    return k <= last ? k : beyond;
  }

  /// Along line `line`, the last index in to..from (to <= from, scanning backwards) whose tile is
  /// not passable at the cheapest cost, or to - 1 when there is none. `from` must lie on the map.
  std::int32_t previousNotCheapest(std::int32_t line, std::int32_t from, std::int32_t to) const noexcept {
    const std::uint64_t* words = bits + std::size_t(line) * std::size_t(wordsPerLine);
    const std::int32_t first = to > 0 ? to : 0;
    std::int32_t word = from >> 6;
    std::uint64_t open = ~words[word] & (~std::uint64_t(0) >> (63 - (from & 63)));
    while (open == 0) {
      if (--word < first >> 6) return first - 1;
      open = ~words[word];
    }
    const std::int32_t k = word * 64 + 63 - std::countl_zero(open);
    return k >= first ? k : first - 1;
  }

  /// nextNotCheapest(line, from, to) <= to, answered with the fewest branches: a band of a
  /// curve's check spans one or two words, and nearly always finds nothing.
  bool anyNotCheapest(std::int32_t line, std::int32_t from, std::int32_t to) const noexcept {
    if (to < from) return false;
    if (bits == nullptr || line < 0 || line >= count || from < 0 || to >= length) return true;
    return anyNotCheapestInside(line, from, to);
  }
  /// anyNotCheapest for a line and range known to lie inside the map (to < from allowed): no
  /// bounds checks, for callers that checked a whole box once.
  bool anyNotCheapestInside(std::int32_t line, std::int32_t from, std::int32_t to) const noexcept {
    return to >= from && !allBitsSet(bits + std::size_t(line) * std::size_t(wordsPerLine), from, to);
  }
};

class SegmentTester {
 public:
  /// Snapshot of `map` for `mobility`; the map must outlive the tester, and an edit to the map
  /// (see TileMap::version) makes the tester stale: update() it (or build a new one).
  SegmentTester(const TileMap& map, MobilityId mobility);

  /// Follows edits of the map in place, to equal a tester built afresh: the tiles of the
  /// rectangles low..high changed terrain (their bits, and the open-around flags of them and their
  /// neighbours, are read again), and when `costsChanged` a terrain's cost changed (everything is
  /// read again: the cheapest cost may have changed, and with it every tile's bit).
  void update(const TileMap& map, std::span<const std::pair<Cell, Cell>> rects, bool costsChanged);

  /// Same answer as probeSegment(map, mobility, from, to, radius); when the fast test finds the
  /// segment clear, the cost is length × cheapestCost() (equal to the exact sum up to rounding);
  /// when it finds it blocked, the blocker is a blocked tile the segment crosses, not
  /// necessarily the first (none is named when a segment is settled as too close to walls
  /// without crossing one).
  SegmentProbe probe(Vec2 from, Vec2 to, float radius) const;

  /// True when the fast test alone proves the segment clear at the cheapest cost.
  bool cheaplyClear(Vec2 from, Vec2 to, float radius) const;

  /// True when probe() answers this segment from the bitmaps (or hex runs) alone, clear or
  /// blocked, without the exact walk (for tests and benchmarks: how often the fast path serves).
  bool answersWithoutWalk(Vec2 from, Vec2 to, float radius) const {
    SegmentProbe ignored;
    return probeWithoutWalk(from, to, radius, ignored) == FastProbe::Answered;
  }

  /// True when the segment keeps `clearance` (world units; wide ones as probeSegment keeps them)
  /// from every tile the mobility cannot enter, tiles off the map included: walls only, whatever the passable tiles
  /// cost. For a segment already known to be clear at a smaller radius, whether it also keeps a
  /// wider berth (see PathRequest::comfort). The impassable tiles near the segment are found 64
  /// per machine word (squares) or a run of one cost at a time (hexes), and only their distance
  /// is computed. A clearance of 0 on hex maps is probeSegment's rule at radius 0.
  bool keeps(Vec2 from, Vec2 to, float clearance) const;

  /// probe(from, to, radius), and in `keepsClearance` whether the segment also keeps(clearance)
  /// (false when it is not clear).
  SegmentProbe probeKeeping(Vec2 from, Vec2 to, float radius, float clearance, bool& keepsClearance) const;

  /// True when the tile and every tile touching it are inside the map and passable at the
  /// cheapest cost: any segment inside this tile is then clear for every radius up to 1 tile on
  /// squares, 1/√3 on hexes (what the touching tiles reach: StageContext::openAround does not ask
  /// for wider bodies), and costs its length × cheapestCost().
  bool openAround(Cell cell) const noexcept;

  /// Square maps: the cheapest-passable bits by rows (by columns when `column`), for callers
  /// that walk many lines (see BitLines::nextNotCheapest). Hex maps: an empty view.
  BitLines cheapLines(bool column) const noexcept {
    if (m_rows.empty()) return {};
    return column ? BitLines{m_columns.data(), m_columnWords, m_map->width(), m_map->height()}
                  : BitLines{m_rows.data(), m_rowWords, m_map->height(), m_map->width()};
  }

  /// Square maps: true when every tile of the box low..high (inclusive, inside the map) is
  /// passable at the cheapest cost: a run of bits per line of the box, along its longer side
  /// (rows, or columns for a tall box), 64 tiles a word. False for a box reaching outside the
  /// map, an empty box, and on hex maps.
  bool allCheapest(Cell low, Cell high) const noexcept {
    if (m_rows.empty() || low.x < 0 || low.y < 0 || high.x >= m_map->width() || high.y >= m_map->height() ||
        low.x > high.x || low.y > high.y) {
      return false;
    }
    if (high.x - low.x >= high.y - low.y) {
      for (std::int32_t y = low.y; y <= high.y; ++y) {
        if (!allBitsSet(m_rows.data() + std::size_t(y) * std::size_t(m_rowWords), low.x, high.x)) return false;
      }
      return true;
    }
    for (std::int32_t x = low.x; x <= high.x; ++x) {
      if (!allBitsSet(m_columns.data() + std::size_t(x) * std::size_t(m_columnWords), low.y, high.y)) return false;
    }
    return true;
  }

  /// Hex maps: calls visit(cell) for every tile within `reach` (layout units) of the segment a→b
  /// (layout space) that costs more than `limit` — impassable tiles, and tiles off the map, are
  /// always visited; infinity: those alone — one run of tiles of one cost at a time, so open
  /// ground costs a look per line. A few tiles a little beyond reach are visited too: those
  /// within 2/√3 × reach at a corner of their hexagon (HexSweep::centresNear). Stops at the first tile for which
  /// visit returns false, and returns false then.
  template <typename Visit>
  bool forHexTilesNear(const Eigen::Vector2d& a, const Eigen::Vector2d& b, double reach, float limit, Visit&& visit) const {
    constexpr double kRadius = kHexCircumradius, kPitch = kHexPitch;
    const int along = m_hexFlat ? 1 : 0, across = 1 - along;
    // Far beyond any map (NaN too) nothing is walked: the answer is "a tile in the way".
    constexpr double kFar = 8.0 * kMaxMapSide;
    if (!(std::max({std::abs(a[along]), std::abs(a[across]), std::abs(b[along]), std::abs(b[across]), reach}) < kFar)) {
      return false;
    }
    // Walls alone: along the axis nearest the segment's direction (the fewest lines); dearer
    // tiles need the runs of one cost, kept along the layout's own lines only.
    const bool wallsOnly = !(limit < std::numeric_limits<float>::infinity());
    const int family = wallsOnly ? nearestHexAxis(b[along] - a[along], b[across] - a[across]) : 0;
    const HexAxis& axis = m_hexAxes[std::size_t(family)];
    const double u0 = axis.u(a[along], a[across]), v0 = axis.v(a[along], a[across]);
    const double u1 = axis.u(b[along], b[across]), v1 = axis.v(b[along], b[across]);
    const HexSweep sweep(u0, v0, u1, v1);
    const HexSweep::Reach near = sweep.reach(reach);
    const auto firstLine = detail::ceilToInt((std::min(v0, v1) - reach - kRadius - axis.cv) / kPitch);
    const auto lastLine = detail::floorToInt((std::max(v0, v1) + reach + kRadius - axis.cv) / kPitch);
    for (std::int32_t line = firstLine; line <= lastLine; ++line) {
      const auto [low, high] = sweep.centresNear(axis.cv + line * kPitch, near);
      // (Bounded: every coordinate and the reach lie within kFar.)
      const double shift = axis.cu + 0.5 * line;
      const std::int32_t first = detail::ceilToInt(low - shift), last = detail::floorToInt(high - shift);
      if (first > last) continue;
      const std::int32_t stored = line - axis.firstLine;
      const bool onMap = stored >= 0 && stored < axis.count;
      const std::int32_t base = onMap ? axis.base[std::size_t(stored)] : 0;
      // Off the map (a whole line, or either end of one's stored bits).
      for (std::int32_t j = first; j <= last && (!onMap || j < base); ++j) {
        if (!visit(hexAxisCell(family, line, j))) return false;
      }
      if (!onMap) continue;
      for (std::int32_t j = std::max(first, base + axis.width); j <= last; ++j) {
        if (!visit(hexAxisCell(family, line, j))) return false;
      }
      const std::int32_t from = std::max(first, base) - base, to = std::min(last, base + axis.width - 1) - base;
      if (wallsOnly) {
        // The impassable tiles (and the stored ones off the map), 64 tiles a word.
        const BitLines passable = axis.passableLines();
        for (std::int32_t k = passable.nextNotCheapest(stored, from, to); k <= to; k = passable.nextNotCheapest(stored, k + 1, to)) {
          if (!visit(hexAxisCell(family, line, base + k))) return false;
        }
        continue;
      }
      // (The layout's own lines: bit k is tile k of the line.)
      for (std::int32_t k = from; k <= to;) {
        const std::int32_t runEnd = hexRunEnd(line, k);
        if (hexCost(line, k) > limit || hexCost(line, k) == TerrainTable::kImpassable) {
          for (std::int32_t j = k; j < std::min(runEnd, to + 1); ++j) {
            if (!visit(hexCell(line, j))) return false;
          }
        }
        k = runEnd;
      }
    }
    return true;
  }

  /// The cheapest cost any terrain of the map's table has for the mobility (infinity when none is
  /// passable): a lower bound of every tile's cost, unchanged by tile edits.
  double cheapestCost() const noexcept { return m_cheapest; }
  /// True when every terrain the mobility may enter costs cheapestCost() (no way round can then
  /// lead over dearer terrain).
  bool uniformCost() const noexcept { return m_uniformCost; }
  const TileMap& map() const noexcept { return *m_map; }
  /// Same map size and mobility, the same bits, flags and cheapest cost: what a tester built
  /// afresh must equal after update() (the map version is not compared).
  friend bool operator==(const SegmentTester& a, const SegmentTester& b) noexcept {
    return a.m_mobility == b.m_mobility && a.m_cheapest == b.m_cheapest && a.m_uniformCost == b.m_uniformCost &&
           a.m_rowWords == b.m_rowWords && a.m_columnWords == b.m_columnWords && a.m_rows == b.m_rows &&
           a.m_columns == b.m_columns && a.m_passableRows == b.m_passableRows &&
           a.m_passableColumns == b.m_passableColumns && a.m_openAround == b.m_openAround &&
           a.m_passableAround == b.m_passableAround &&
           a.m_hexCosts == b.m_hexCosts && a.m_hexRuns == b.m_hexRuns && a.m_hexSameAround == b.m_hexSameAround &&
           a.m_hexAxes == b.m_hexAxes;
  }
  /// Bytes held (arrays' capacities).
  std::size_t memoryBytes() const noexcept {
    return sizeof(*this) + (m_rows.capacity() + m_columns.capacity() + m_passableRows.capacity() +
                            m_passableColumns.capacity()) * sizeof(std::uint64_t) + (m_openAround.capacity() + m_passableAround.capacity()) / 8 +
           m_hexCosts.capacity() * sizeof(float) + m_hexRuns.capacity() * sizeof(std::uint16_t) + m_hexSameAround.capacity() +
           std::accumulate(m_hexAxes.begin(), m_hexAxes.end(), std::size_t(0), [](std::size_t sum, const HexAxis& axis) {
             return sum + (axis.cheap.capacity() + axis.passable.capacity()) * sizeof(std::uint64_t) +
                    axis.base.capacity() * sizeof(std::int32_t);
           });
  }
  MobilityId mobility() const noexcept { return m_mobility; }
  std::uint64_t mapVersion() const noexcept { return m_version; }

 private:
  enum class Verdict : std::uint8_t { Clear, Blocked, Unsure };
  struct Lines {  // the bits by rows, or by columns
    const std::uint64_t* cheap;
    const std::uint64_t* passable;
    std::int32_t wordsPerLine, count, length;
  };
  // clearOnly: stop at the first sign the segment is not cheaply clear (Unsure).
  // `cost` receives a Clear verdict's cost per unit of length (on squares, the cheapest; on
  // hexes, the one cost of the tiles it touches, or their mean weighted by the length in each).
  Verdict classify(Vec2 from, Vec2 to, float radius, bool clearOnly, Cell& blocker, double& cost) const;
  static Verdict scan(const Lines& lines, double u0, double v0, double u1, double v1, double pad, bool clearOnly,
                      Cell& blocker);

  const TileMap* m_map;
  MobilityId m_mobility;
  std::uint64_t m_version;
  double m_cheapest;
  bool m_uniformCost = true;
  std::int32_t m_rowWords = 0;     // words per row of m_rows
  std::int32_t m_columnWords = 0;  // words per column of m_columns
  std::vector<std::uint64_t> m_rows;     // bit x of row y: tile (x, y) cheapest-passable (squares)
  std::vector<std::uint64_t> m_columns;  // the same, transposed
  std::vector<std::uint64_t> m_passableRows;  // bit x of row y: tile (x, y) passable at all
  std::vector<std::uint64_t> m_passableColumns;
  std::vector<bool> m_openAround;
  std::vector<bool> m_passableAround;  // every tile touching the tile is passable (for the exact probe)
  // Hex maps: per line (rows of pointy hexes, columns of flat ones) each tile's cost for the
  // mobility (TerrainTable::kImpassable where it cannot enter), and how many tiles from it on
  // share that cost (saturated at 65,535: a longer run is read on from its end), for ground of
  // one cost that is not the cheapest.
  bool m_hexFlat = false;
  int m_hexEvenShifted = 0;
  std::int32_t m_hexLines = 0, m_hexLength = 0;
  std::vector<float> m_hexCosts;
  std::vector<std::uint16_t> m_hexRuns;
  std::vector<std::uint8_t> m_hexSameAround;  // per tile: sameCostAround
  // Hex maps: the tiles along each of the grid's three axes, a bit per tile for "passable" and
  // for "passable at the cheapest cost" (what most look-ups need, 64 tiles a word, as on
  // squares). Axis 0 is the layout's own lines, axes 1 and 2 the lines at +60° and -60° to them:
  // a segment is walked along the axis nearest its direction, across the fewest lines (half as
  // many as along the layout's own, on average). In an axis's frame (u', v') — the line frame
  // (see segment_tester_hex.cpp) turned so that its lines run along u' — tile j of line i has its
  // centre at (j + i/2 + cu, cv + i·pitch), and its hexagon is the line frame's: one walk
  // serves all three. (Axial coordinates: a = k - floor((line + shifted)/2) along the layout's
  // lines; axis 0 has i = line, j = a; axis 1 i = a, j = line; axis 2 i = a + line, j = -a.)
  struct HexAxis {
    double alongU = 1.0, alongV = 0.0, acrossU = 0.0, acrossV = 1.0, cu = 0.0, cv = 0.0;
    std::int32_t firstLine = 0, count = 0, width = 0, words = 0;  // lines firstLine..firstLine+count-1
    std::vector<std::int32_t> base;                              // per line: the j of its bit 0
    std::vector<std::uint64_t> cheap, passable;  // bits of tiles off the map (padding) are clear
    double u(double lineU, double lineV) const noexcept { return lineU * alongU + lineV * alongV; }
    double v(double lineU, double lineV) const noexcept { return lineU * acrossU + lineV * acrossV; }
    BitLines passableLines() const noexcept { return {passable.data(), words, count, width}; }
    friend bool operator==(const HexAxis& a, const HexAxis& b) noexcept {
      return a.firstLine == b.firstLine && a.count == b.count && a.width == b.width && a.base == b.base &&
             a.cheap == b.cheap && a.passable == b.passable;
    }
  };
  std::array<HexAxis, 3> m_hexAxes;
  // The axis whose lines run nearest the direction (du, dv) of the line frame.
  int nearestHexAxis(double du, double dv) const noexcept {
    const double across0 = std::abs(dv), across1 = std::abs(kHexPitch * du - 0.5 * dv), across2 = std::abs(kHexPitch * du + 0.5 * dv);
    return across0 <= std::min(across1, across2) ? 0 : across1 <= across2 ? 1 : 2;
  }
  // Where tile k of the layout's line `line` sits on an axis: its line i and place j there.
  struct HexAxisPlace {
    std::int32_t i, j;
  };
  HexAxisPlace hexAxisPlace(int family, std::int32_t line, std::int32_t k) const noexcept {
    const std::int32_t axial = k - ((line + m_hexEvenShifted) >> 1);
    if (family == 0) return {line, axial};
    if (family == 1) return {axial, line};
    return {axial + line, -axial};
  }
  // Tile j of line i of an axis (the inverse of hexAxisPlace).
  Cell hexAxisCell(int family, std::int32_t i, std::int32_t j) const noexcept {
    const std::int32_t line = family == 0 ? i : family == 1 ? j : i + j;
    const std::int32_t axial = family == 0 ? j : family == 1 ? i : -j;
    return hexCell(line, axial + ((line + m_hexEvenShifted) >> 1));
  }
  // probe() without the walk: Answered (`result` filled in), or what the walk must do: the whole
  // probe, or only price a segment found clear.
  enum class FastProbe { Answered, Walk, ClearButWalkPrices };
  FastProbe probeWithoutWalk(Vec2 from, Vec2 to, float radius, SegmentProbe& result) const;
  // The bits of one tile, on every axis.
  void readHexTileBits(Cell cell);
  // The axes' frames and extents (their bits cleared).
  void layOutHexAxes();

  // Hex maps: the segment's tiles line by line (see the file comment): Clear when every tile
  // within `pad` is passable, `cost` then the cost per unit of length of the tiles within `slack`
  // (those the segment itself touches, with rounding room): their one cost, or — tiles of
  // several costs, unless `clearOnly` — the sum of each one's length of the segment × its cost
  // (hexHexagonsCost). `onlyCost`, when not NaN, is the one cost a Clear verdict may have.
  Verdict classifyHex(const Eigen::Vector2d& a, const Eigen::Vector2d& b, double pad, double slack, bool clearOnly,
                      float onlyCost, double& cost, Cell& blocker) const;
  // How a segment (u0, v0)-(u1, v1) meets a hexagon centred at the origin, in an axis's frame
  // (corners (0, ±R), (±1/2, ±R/2)), by `margin`: it enters deeper, keeps further away, or
  // comes within the margin of its boundary.
  enum class HexTouch { Enters, Apart, Grazes };
  static HexTouch hexTouch(double u0, double v0, double u1, double v1, double margin) noexcept;
  // classifyHex along one axis (on axes 1 and 2, which know no runs of one cost, touched tiles
  // dearer than the cheapest are priced hexagon by hexagon).
  Verdict classifyHexAxis(int family, const Eigen::Vector2d& a, const Eigen::Vector2d& b, double pad, double slack,
                          bool clearOnly, float onlyCost, double& cost, Cell& blocker) const;
  bool keepsHex(Eigen::Vector2d a, Eigen::Vector2d b, double radius, double pad) const;
  // A hexagon, in a line frame, is where three strips cross, |n·(p - centre)| ≤ ½ for these unit
  // normals n: across u, and across the two axes at ±60° from it.
  static constexpr std::array<std::array<double, 2>, 3> kHexStripNormals{{{1.0, 0.0}, {0.5, kHexPitch}, {-0.5, kHexPitch}}};
  // A segment in a hex layout's line frame (u along the lines, v across), asked line after line
  // for the u-range of its points with v in a band, or for the tiles of a line that may come
  // within a reach of it: the segment's slope and normal are worked out once, so a line costs a
  // few multiplications and no division. The ends' own u are returned exactly where a band holds
  // them.
  struct HexSweep {
    double uLow, vLow, uHigh, vHigh;  // the ends, by v
    double slope;                     // du / dv (0 for a segment along a line)
    // The segment's unit normal (nu, nv), where its line lies along it (offset), half the width
    // of a hexagon seen along it (support), and 1/nu (0 when the normal runs nearly across the
    // lines: that axis then tells little the band does not).
    double nu = 0.0, nv = 0.0, offset = 0.0, support = 0.0, inverseNu = 0.0;
    HexSweep(double u0, double v0, double u1, double v1) noexcept {
      if (v1 < v0) {
        std::swap(u0, u1);
        std::swap(v0, v1);
      }
      uLow = u0, vLow = v0, uHigh = u1, vHigh = v1;
      slope = v1 > v0 ? (u1 - u0) / (v1 - v0) : 0.0;
      if (!std::isfinite(slope)) {  // (ends a denormal apart across: taken as along a line)
        vHigh = vLow;
        slope = 0.0;
      }
      const double du = uHigh - uLow, dv = vHigh - vLow, length = std::sqrt(du * du + dv * dv);
      if (length > 0.0 && std::isfinite(length)) {
        nu = -dv / length, nv = du / length;
        offset = nu * uLow + nv * vLow;
        // The hexagon's corners (±½, ±R/2) and (0, ±R) round its centre, in this frame.
        support = std::max(0.5 * std::abs(nu) + 0.5 * kHexCircumradius * std::abs(nv), kHexCircumradius * std::abs(nv));
        if (std::abs(nu) > 1e-4) inverseNu = 1.0 / nu;
      }
    }
    // The u-range within v in [low, high]; empty (first > second) when the segment has no point
    // there or the band is empty.
    std::pair<double, double> within(double low, double high) const noexcept {
      constexpr std::pair<double, double> kNone{1.0, 0.0};
      const double from = std::max(low, vLow), to = std::min(high, vHigh);
      if (!(from <= to)) return kNone;
      if (vLow == vHigh) return {std::min(uLow, uHigh), std::max(uLow, uHigh)};
      const double ua = from == vLow ? uLow : uLow + (from - vLow) * slope;
      const double ub = to == vHigh ? uHigh : uLow + (to - vLow) * slope;
      return {std::min(ua, ub), std::max(ua, ub)};
    }
    // The tiles of a line at v = centre whose hexagons come within `reach` of the segment: a range
    // of u that holds their centres (empty when none can). A hexagon is where three strips of
    // width 1 cross (across u, and across the two slanted axes); grown by the reach, each strip
    // widens by it. A tile is near only when, on each strip's axis and on the segment's normal,
    // the segment's part within the line's band overlaps the grown hexagon's shadow (separating
    // axes): so the range holds every near tile, and beyond them only tiles within 2/√3 × reach
    // at a corner of their hexagon. Lines the segment crosses from band edge to band edge all
    // see the same shapes, shifted along the segment: their range is the segment's u at the
    // centre ± one half-width, worked out once per reach (Reach).
    struct Reach {
      double reach;
      double band;  // how far from a line's centre its tiles reach across (R + reach)
      double half;  // the half-width of a crossed line's range
    };
    Reach reach(double r) const noexcept {
      constexpr double kSqrt3 = 1.7320508075688772;
      const double band = kHexCircumradius + r, g = std::abs(band * slope);
      double half = std::min({g + 0.5 + r, std::abs(g - kSqrt3 * band) + 1.0 + 2.0 * r});
      // (|g + √3·band| ≥ |g - √3·band| for g ≥ 0: that strip never binds.)
      if (inverseNu != 0.0) half = std::min(half, std::abs((support + r) * inverseNu));
      return {r, band, half};
    }
    std::pair<double, double> centresNear(double centre, const Reach& reach) const noexcept {
      if (vLow + reach.band <= centre && centre + reach.band <= vHigh && vLow != vHigh) {
        const double u = uLow + (centre - vLow) * slope;
        return {u - reach.half, u + reach.half};
      }
      return centresNearEnd(centre, reach);
    }
    // centresNear for a line the segment ends in (or runs along).
    std::pair<double, double> centresNearEnd(double centre, const Reach& reach) const noexcept;
  };
  // The segment's cost per unit of length over tiles of several costs, every tile within `slack`
  // of it known passable: the length within each hexagon (clipped by its three strips) × the
  // tile's cost, along the layout's own lines, under the walk's rules (a piece that runs along an
  // edge at the dearer side, the short pieces at a corner at the dearest tile round it). Mostly
  // by following the segment from hexagon to hexagon across the edges it crosses; where it comes
  // within rounding of a corner, from every tile near it, their pieces sorted. NaN —
  // the walk prices it — when the pieces leave a gap wider than rounding, a corner's lines are
  // crossed just beyond rounding, a line beyond the map comes near, or the pieces are too many
  // for the scratch.
  double hexHexagonsCost(const HexSweep& sweep, double slack) const;
  static constexpr std::int32_t kLongestHexRun = 65535;  // a run's stored length saturates here
  // Hex lines: the tile of index k along line `line`, the cost there, and the index just past
  // the run of tiles from k on that share its cost.
  Cell hexCell(std::int32_t line, std::int32_t k) const noexcept { return m_hexFlat ? Cell{line, k} : Cell{k, line}; }
  float hexCost(std::int32_t line, std::int32_t k) const noexcept {
    return m_hexCosts[std::size_t(line) * std::size_t(m_hexLength) + std::size_t(k)];
  }
  std::int32_t hexRunEnd(std::int32_t line, std::int32_t k) const noexcept;
  // The (line, k) of the neighbour of tile k of hex line `line` across the edge whose unit
  // normal is family `family`'s (line frame: (1, 0), (½, pitch), (-½, pitch)), times `side` (±1).
  std::pair<std::int32_t, std::int32_t> hexNeighbour(std::int32_t line, std::int32_t k, int family, int side) const noexcept;
  // True when the six neighbours of tile k of hex line `line` are on the map and share its cost
  // or are impassable (the walk never prices a passable piece at an impassable tile's cost): kept
  // per tile, read again for the lines round every edit.
  bool sameCostAround(std::int32_t line, std::int32_t k) const noexcept {
    return m_hexSameAround[std::size_t(line) * std::size_t(m_hexLength) + std::size_t(k)] != 0;
  }
  bool costSharedAround(std::int32_t line, std::int32_t k) const noexcept;
  void readHexSameAround(std::int32_t line);
  // The costs and runs of hex line `line` read again from the map.
  void readHexLine(std::int32_t line);

  // The cheapest cost and whether every passable terrain has it (from the terrain table).
  void readCosts();
  // The bits of one tile (squares).
  void readTile(Cell cell);
  // The open-around flag of one tile.
  void readOpenAround(Cell cell);
};

}  // namespace rpgnav
