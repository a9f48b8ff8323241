// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// SearchGrid: a TileMap as the search sees it for one mobility — integer step costs, region
/// labels, and which tiles sit in uniform-cost surroundings (where jump points apply).

#include "rpgnav/core/status.hpp"
#include "rpgnav/core/types.hpp"
#include "rpgnav/field/crowd_field.hpp"
#include "rpgnav/grid/regions.hpp"
#include "rpgnav/grid/tile_map.hpp"
#include "grid/step_cost.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

namespace rpgnav {

// The cost model (kCostScale, halfStraightCost, halfDiagonalCost: grid/step_cost.hpp), shared
// with the geometry (probeSegment) and the crowd fields: the search's cost of a tile path is the
// geometric cost of the polyline through its tiles' centres (up to the rounding of each half
// step), and on uniform maps it is the length × the cost, so Moving AI optimal lengths come out
// exactly.

/// Options for SearchGrid::build.
struct SearchGridSettings {
  /// Landmarks for the ALT heuristic (A*, Landmarks, Triangle inequality; Goldberg & Harrelson
  /// 2005): exact distances from and to this many tiles, precomputed, give a far tighter lower
  /// bound than straight-line distance on maps with varied terrain costs, where the plain
  /// heuristic (distance × cheapest cost) leaves A* exploring wide areas. Costs one Dijkstra
  /// sweep per landmark at build time and 4 bytes per tile per landmark. 0 = off; up to 16.
  /// Worth it for static maps with weighted terrain; on uniform-cost maps jump points already
  /// make searches cheap. [Limit: 0..16]
  int landmarks = 0;
  /// Characters this wide (radius, in tiles) or wider cannot squeeze through a hex edge whose two
  /// end corners both touch blocked tiles (or, in a query, a door that is a wall for it: see
  /// GateCrossing::solid): the gap is one hex edge (1/√3 ≈ 0.577 tiles) wide, so from a radius of
  /// half that on such steps are not taken. Square grids need no such rule
  /// (every passage between blocked squares is at least a tile wide, and diagonals never cut
  /// corners). Region labels ignore it, so a goal cut off only by narrow gaps costs a search to
  /// answer NoPath. [Units: tiles] [Limit: 0 <= clearance < 0.5]
  float clearance = 0.0f;
};

/// An edge between two neighbouring tiles whose passage each query decides (the search's view of
/// a door): see SearchRequest::gates.
struct SearchGate {
  Cell a;
  Cell b;
  /// A gate that is not there (a door taken away): its index stays taken.
  bool removed = false;
};

/// The tiles low..high (inclusive) of a map.
struct TileRect {
  Cell low;
  Cell high;
};

/// The six steps of a hex layout as hex jump points take them (the grid's hex jump table, the
/// search's hex jumps), in the layout's table order (round the tile): direction d + 1 is d
/// turned by one sixth, and D(d - 1) + D(d + 1) = D(d).
struct HexDirections {
  HexDirections() = default;
  HexDirections(const Layout& layout, std::int32_t paddedWidth);
  /// A step in each direction from a tile whose row (pointy) or column (flat) is shifted
  /// ([1]) or not ([0]): padded index offsets (for the paddedWidth given) and cell offsets.
  std::array<std::array<std::int32_t, 6>, 2> padded{};
  std::array<std::array<Cell, 6>, 2> cells{};
  /// Each direction in axial coordinates (the same from every tile).
  std::array<Axial, 6> axial{};
  /// Whether a step in each direction changes the row's (column's) shift.
  std::array<bool, 6> flips{};
  bool pointy = true;
  /// The parity of the rows (pointy) or columns (flat) that are shifted.
  int shiftedParity = 1;
  /// Whether the tile's row (column) is shifted: which of padded[] and cells[] its steps take.
  bool shifted(Cell cell) const noexcept { return ((pointy ? cell.y : cell.x) & 1) == shiftedParity; }
  /// Direction d turned by `by` sixths.
  /// (For d in 0..5 and `by` in -6..6; no division: runs turn at every stop.)
  static constexpr int turn(int d, int by) noexcept {
    const int r = d + by;
    return r >= 6 ? r - 6 : r < 0 ? r + 6 : r;
  }
  /// Padded index offsets of steps in one direction from tiles of one shift: k steps (of either
  /// sign) are k / 2 pairs (a pair of steps always crosses the same offset: one from each kind of
  /// row) and one more step when k is odd — floor division, so backwards too.
  struct Ray {
    std::int32_t one = 0;
    std::int32_t pair = 0;
    std::int32_t steps(std::int32_t k) const noexcept { return (k >> 1) * pair + (k & 1) * one; }
  };
  Ray ray(bool isShifted, int direction) const noexcept {
    const std::int32_t one = padded[isShifted][std::size_t(direction)];
    return {one, one + padded[isShifted != flips[std::size_t(direction)]][std::size_t(direction)]};
  }
  /// Padded index offset of k steps in `direction` from a tile whose row (column) is `isShifted`.
  std::int32_t paddedSteps(bool isShifted, int direction, std::int32_t k) const noexcept {
    return ray(isShifted, direction).steps(k);
  }
  /// Position along `direction` (rises by 2 a step): orders the tiles of a line.
  std::int64_t along(Axial at, int direction) const noexcept {
    const Axial a = axial[std::size_t(direction)];
    return std::int64_t(at.q) * (2 * a.q + a.r) + std::int64_t(at.r) * (a.q + 2 * a.r);
  }
  /// A displacement as `primary` steps of `direction` then `secondary` steps of direction + 1
  /// (primary >= 1, secondary >= 0: the one canonical route; all 0 for no displacement).
  struct Split {
    int direction;
    std::int32_t primary;
    std::int32_t secondary;
  };
  Split split(Axial delta) const noexcept {
    // The direction from the signs of the cube coordinates (q, r, -q-r): each of the six
    // sextants between neighbouring directions, and each direction's ray, has its own pattern.
    const int direction = sextant[std::size_t(signPattern(delta))];
    return direction < 0 ? Split{0, 0, 0} : splitAlong(delta, direction);
  }
  /// The signs of the cube coordinates (q, r, -q-r), as one of 27 numbers.
  static constexpr int signPattern(Axial delta) noexcept {
    const std::int32_t s = -delta.q - delta.r;
    return 9 * ((delta.q > 0) - (delta.q < 0) + 1) + 3 * ((delta.r > 0) - (delta.r < 0) + 1) + (s > 0) - (s < 0) + 1;
  }
  /// split()'s direction for each signPattern() (-1: no displacement).
  std::array<std::int8_t, 27> sextant{};
  /// The displacement as steps of `direction` then of direction + 1 ({direction, 0, 0} unless it
  /// lies that way: primary >= 1, secondary >= 0).
  Split splitAlong(Axial delta, int direction) const noexcept {
    const Axial u = axial[std::size_t(direction)], v = axial[std::size_t(turn(direction, 1))];
    const std::int32_t det = u.q * v.r - u.r * v.q;  // ±1
    const std::int32_t a = (delta.q * v.r - delta.r * v.q) * det, b = (u.q * delta.r - u.r * delta.q) * det;
    return a >= 1 && b >= 0 ? Split{direction, a, b} : Split{direction, 0, 0};
  }
};

/// The search's read-only view of one map for one mobility. Build it once per map version and
/// mobility and share it: any number of threads may search one SearchGrid at once, each with its
/// own SearchContext. When the map is edited (its version changes), build a new one; searching a
/// stale grid answers for the old map.
///
/// Internally tiles are stored with a one-tile border of blocked tiles ("padded" indices), so the
/// search needs no bounds checks.
class SearchGrid {
 public:
  /// InvalidArgument when the mobility is unknown, a passable terrain's cost lies outside
  /// [kMinSearchCost, kMaxSearchCost], or a gate's tiles are not neighbours sharing an edge on the
  /// map. Gate i is referred to by its index i in `gates`. Tiles at and around gates are searched
  /// step by step (no jumps through them); landmark distances treat gates as open and free, so
  /// they stay lower bounds whatever a query makes of them.
  static Result<SearchGrid> build(const TileMap& map, MobilityId mobility, const SearchGridSettings& settings = {},
                                  std::span<const SearchGate> gates = {});

  /// Follows edits of `map` in place, to equal a grid built afresh (but for the landmarks, see
  /// refreshLandmarks, and the region labels' numbering, see RegionMap::update): the tiles of
  /// `rects` changed terrain, and, when `costsChanged`, a terrain's cost changed (every tile is
  /// read again then, and only those whose cost changed are worked on). The work is the changed
  /// tiles and their neighbours, the jump table's rows and columns through them (8-way squares),
  /// and the regions they split or join. InvalidArgument when the map's size or layout is not the
  /// grid's, or a cost is outside [kMinSearchCost, kMaxSearchCost] (the grid is then unusable:
  /// build it again once the costs are valid).
  std::optional<Error> update(const TileMap& map, std::span<const TileRect> rects, bool costsChanged);
  /// Replaces the gates (doors added or taken away: same indices for the same doors, removed ones
  /// flagged); the tiles round the gates that changed are worked on again.
  std::optional<Error> setGates(const TileMap& map, std::span<const SearchGate> gates);
  /// The settings the grid was built with.
  const SearchGridSettings& settings() const noexcept { return m_settings; }

  const Layout& layout() const noexcept { return m_layout; }
  std::int32_t width() const noexcept { return m_width; }
  std::int32_t height() const noexcept { return m_height; }
  MobilityId mobility() const noexcept { return m_mobility; }
  std::uint64_t mapVersion() const noexcept { return m_mapVersion; }
  const RegionMap& regions() const noexcept { return m_regions; }

  bool contains(Cell c) const noexcept { return c.x >= 0 && c.y >= 0 && c.x < m_width && c.y < m_height; }
  bool passable(Cell c) const noexcept { return contains(c) && m_class[std::size_t(padded(c))] != 0; }

  /// Cheapest cost of a straight (diagonal) step between two tiles, in cost units: a lower bound
  /// per step (the heuristic's factor).
  std::int64_t minStraightCost() const noexcept { return 2 * m_minHalfStraight; }
  std::int64_t minDiagonalCost() const noexcept { return 2 * m_minHalfDiagonal; }
  /// True when hex steps through gaps narrower than the settings' clearance are closed.
  bool closesNarrowGaps() const noexcept { return m_closesNarrowGaps; }
  /// True when every passable tile of the map costs the same for this mobility.
  bool uniformCost() const noexcept { return m_costClasses == 1; }
  std::size_t gateCount() const noexcept { return m_gates.size(); }
  const SearchGate& gate(std::size_t index) const noexcept { return m_gates[index]; }
  /// Gates a wide body's step from `cell` may pass close to: every gate with a tile within
  /// kGateReach tiles of `cell` in both coordinates (and some further ones: the gates are kept in
  /// buckets of kGateBucket × kGateBucket tiles). Ascending indices; removed gates are left out.
  std::span<const std::uint32_t> gatesNear(Cell cell) const noexcept {
    if (m_gateBucketStart.empty() || !contains(cell)) return {};
    const std::size_t bucket = std::size_t(cell.y / kGateBucket) * std::size_t(m_gateBucketsWide) + std::size_t(cell.x / kGateBucket);
    return {m_gateBucketList.data() + m_gateBucketStart[bucket], m_gateBucketStart[bucket + 1] - m_gateBucketStart[bucket]};
  }
  /// A body of up to 3 tiles (kMaxRadiusTiles) stepping between two neighbours' centres
  /// comes within its radius only of the edges of tiles whose centres lie within 4.42 tiles of
  /// the step's first tile's: 5 rows or columns of hexes' offset coordinates, fewer on squares.
  static constexpr std::int32_t kGateReach = 6;
  static constexpr std::int32_t kGateBucket = 8;

  // --- Internal layout used by the search (padded, row-major, width + 2 per row). ---
  std::int32_t paddedWidth() const noexcept { return m_width + 2; }
  std::int32_t paddedCount() const noexcept { return (m_width + 2) * (m_height + 2); }
  std::int32_t padded(Cell c) const noexcept { return (c.y + 1) * (m_width + 2) + c.x + 1; }
  Cell cellOf(std::int32_t paddedIndex) const noexcept {
    return {paddedIndex % (m_width + 2) - 1, paddedIndex / (m_width + 2) - 1};
  }
  /// Cost class per padded tile: 0 blocked, else an index into the step cost tables.
  const std::uint8_t* classes() const noexcept { return m_class.data(); }
  /// Half a straight (diagonal) step inside a tile of a cost class: a step from class a to class
  /// b costs halfStraight(a) + halfStraight(b) (see kCostScale), and k steps inside one class
  /// cost k × 2 × halfStraight.
  std::int64_t halfStraight(std::uint8_t costClass) const noexcept { return m_halfStraight[costClass]; }
  std::int64_t halfDiagonal(std::uint8_t costClass) const noexcept { return m_halfDiagonal[costClass]; }
  /// The cost of one step between neighbouring tiles of classes `from` and `to`.
  std::int64_t stepCost(std::uint8_t from, std::uint8_t to, bool diagonal) const noexcept {
    return diagonal ? m_halfDiagonal[from] + m_halfDiagonal[to] : m_halfStraight[from] + m_halfStraight[to];
  }
  /// Per padded tile: 1 when the tile and all its touching passable tiles share one cost (jumps
  /// may pass through it), 0 otherwise (jumps stop there; the search goes on to the tile's
  /// canonical successors, or to every neighbour at the start and near gates).
  const std::uint8_t* uniform() const noexcept { return m_uniform.data(); }
  /// Per padded tile: nonzero when the tile is an end of a gate or touches one (its steps may
  /// cross a gate or pass a gate's corner).
  const std::uint8_t* nearGate() const noexcept { return m_nearGate.data(); }
  /// The gate on the edge between two neighbouring padded tiles, or -1.
  std::int32_t gateBetween(std::int32_t fromPadded, std::int32_t toPadded) const noexcept;

  /// Precomputed straight jumps (the "JPS+" idea, Rabin 2015), on 8-connected square grids: for
  /// every padded tile and each of the directions east, west, south, north (in that order), the
  /// distance to the first tile along that line that stops a jump — a tile that is not uniform
  /// or blocked, or has a forced neighbour (a side tile open where the one behind it is blocked).
  /// Positive: that tile is a passable jump point; negative: it is blocked (-1: the next tile
  /// that way is); kJumpFar: no stop within the next 32767 tiles, look again from the 32767th
  /// (only on maps that wide).
  static constexpr std::int16_t kJumpFar = -32768;
  static constexpr std::int32_t kJumpFarReach = 32767;
  /// The straight directions' entries.
  static constexpr int kEast = 0, kWest = 1, kSouth = 2, kNorth = 3;
  static constexpr std::int32_t kJumpDirections = 4;
  /// On hex grids the record's first six entries are the same for the six hex directions (in
  /// the layout's table order, HexDirections), for the secondary runs of hex jump points: the
  /// distance to the first tile that is blocked (negative) or stops a run (positive: not uniform,
  /// or a side tile ahead open where the tile beside the step before it is blocked — a forced
  /// neighbour, see lib/search/hex_jumps.cpp).
  /// A tile's record in the table: its four straight entries, then its four near diagonal stops
  /// (nearDiagonalStop), 16 bytes, so that a jump point's every jump starts from one cache line.
  static constexpr std::size_t kJumpRecord = 8;
  const std::int16_t* jumpDistances(std::int32_t paddedIndex) const noexcept {
    return m_jumps.data() + std::size_t(paddedIndex) * kJumpRecord;
  }
  /// How far a diagonal jump from padded tile `paddedIndex` in direction (dx, dy) goes to its
  /// first stop (diagonalStop), kept beside the straight entries when that is at most
  /// kNearDiagonalReach tiles: the steps, negated when that tile cannot be entered; 0 when the
  /// stop is further (read the diagonal bits). -1: the first step is closed. Unlike a full
  /// table of diagonal jumps, an edit changes these only from a changed bit back to the
  /// previous tile with a bit set, at most kNearDiagonalReach + 1 tiles (the last turns to or
  /// from 0).
  static constexpr std::int32_t kNearDiagonalReach = 64;
  std::int16_t nearDiagonalStop(std::int32_t paddedIndex, std::int32_t dx, std::int32_t dy) const noexcept {
    return m_jumps[nearStopIndex(paddedIndex, diagonalIndex(dx, dy))];
  }

  /// The hex steps (hex grids; the default elsewhere).
  const HexDirections& hexDirections() const noexcept { return m_hex; }
  /// Hex primary runs: steps from the tile at `from` (axial) in direction `d` to the first tile
  /// where such a run must stop and look — blocked or off the map, not uniform, a forced
  /// neighbour on its left (the tile beside the step before it blocked, the one ahead open), or
  /// its turn (a secondary run of direction d + 1) stopping on a jump point (or beyond the
  /// table's reach). Each tile keeps a bit per direction, stored along the lines of the three
  /// axes, 64 tiles a word, so that a run skips the tiles where it would find nothing by scanning
  /// words (as the square grid's diagonal bits do). At least 1.
  std::int32_t hexPrimaryStop(Axial from, int d) const noexcept { return hexStopScan(from, d).next(); }
  /// hexPrimaryStop along one run: each next() moves to the run's next stop and returns the steps
  /// taken (a run stays on its line, so the line is looked up once).
  struct HexStopScan {
    const std::uint64_t* words;
    std::int32_t bit;
    bool up;
    std::int32_t next() noexcept {
      std::int32_t block = bit >> 6;
      std::int32_t at;
      if (up) {  // along the line: the first bit above `bit`
        std::uint64_t found = words[block] & ~((std::uint64_t(2) << (bit & 63)) - 1);
        while (found == 0) found = words[++block];
        at = block * 64 + std::countr_zero(found);
      } else {  // the last bit below
        std::uint64_t found = words[block] & ((std::uint64_t(1) << (bit & 63)) - 1);
        while (found == 0) found = words[--block];
        at = block * 64 + 63 - std::countl_zero(found);
      }
      const std::int32_t steps = up ? at - bit : bit - at;
      bit = at;
      return steps;
    }
    /// Moves `steps` tiles on without looking (to a stop of the caller's own).
    void skip(std::int32_t steps) noexcept { bit += up ? steps : -steps; }
  };
  HexStopScan hexStopScan(Axial from, int d) const noexcept {
    const int axis = d % 3;
    const HexLine& line = m_hexLines[std::size_t(axis)][std::size_t(hexLineKey(from, axis) - m_hexLineKeyLow[std::size_t(axis)])];
    return {m_hexStopBits[std::size_t(d)].data() + line.start, hexLinePosition(from, axis) - line.low + 1, d < 3};
  }

  /// Directions of steps on 8-way squares as codes 0-7 (a node's last step; bit c of a
  /// successor mask): (dx, dy) = (kCodeDx[c], kCodeDy[c]).
  static constexpr std::int32_t kCodeDx[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
  static constexpr std::int32_t kCodeDy[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
  static constexpr int directionCode(std::int32_t dx, std::int32_t dy) noexcept {
    constexpr int kCodes[9] = {0, 1, 2, 3, 0, 4, 5, 6, 7};
    return kCodes[(dx + 1) * 3 + dy + 1];
  }
  /// Canonical successors on 8-way squares with more than one cost (the pruning of weighted jump
  /// point search, JPSW: Carlson, Moghadam, Harabor, Stuckey & Ebrahimi 2023): for a tile that is
  /// not uniform, and a route that entered it by a step of direction code `arrival`, the
  /// neighbours (bit c: the step of code c) that route continues to. They are the tiles whose
  /// cheapest way from the tile the route came from, among the 3 × 3 tiles round this one, runs
  /// through it; of two ways that cost the same, the one whose last step is straight is taken,
  /// then the one through this tile (straight steps last: the order the jumps in uniform areas
  /// follow, diagonal first). Every other neighbour has a way round this tile that is no dearer,
  /// so the search skips it. (Among tiles of one cost the rule gives jump point search's natural
  /// and forced neighbours.) Each mask depends on the 3 × 3 tiles' classes and costs only, so an
  /// edit changes those within a tile of it. 0xff (every neighbour) on uniform tiles, tiles near
  /// a gate (searched step by step) and closed tiles, and where the grid keeps no masks: maps that
  /// never had more than one cost, 4-way.
  /// Hex maps keep the same for their six directions (arrival and bit c: direction c of
  /// hexDirections()), from the tile and its six neighbours: the rule and its ties are in
  /// search_grid.cpp (canonicalHexMasks), matched to the order of hex jump points' runs.
  std::uint8_t canonicalSuccessors(std::int32_t paddedIndex, int arrival) const noexcept {
    return m_successors.empty() ? std::uint8_t(0xff) : m_successors[std::size_t(paddedIndex) * 8 + std::size_t(arrival)];
  }

  /// Diagonal jumps, on 8-connected square grids: for each diagonal direction two bits per tile,
  /// one set where the step into the tile cannot be taken (the tile or one of the two beside the
  /// step is closed: no corner cutting), the other where a diagonal jump must stop on the tile
  /// and look — it is not uniform, or its straight jump along either of the diagonal's two
  /// directions stops on a jump point (or is kJumpFar). The bits are stored along the diagonals,
  /// 64 tiles a word, the two kinds in neighbouring words, so that a jump finds its next stop by
  /// scanning words (the block-based jumps of Harabor & Grastien 2014, turned to diagonals) and
  /// skips the tiles where it would find nothing. Each bit depends on the tile, its neighbours
  /// and its straight entries only, so an edit changes the bits round it and where those entries
  /// changed. (Tables of the distance to the next stop, as JPS+ has for diagonals, change along
  /// whole diagonals: one wall put up in an open square of Berlin_0_1024 changed 20,000 entries.
  /// The jump table keeps such distances only up to kNearDiagonalReach: nearDiagonalStop.)
  struct DiagonalStop {
    std::int32_t steps;  ///< to the first tile with a bit set (at least 1; past the map's edge counts)
    bool blocked;        ///< that tile cannot be entered (else the jump stops on it)
  };
  DiagonalStop diagonalStop(Cell cell, std::int32_t dx, std::int32_t dy) const noexcept {
    std::int32_t bit = 0;
    const std::uint64_t* words = m_diagonalBits[std::size_t(diagonalIndex(dx, dy))].data() + diagonalOffset(cell, dx, dy, bit);
    std::int32_t block = bit >> 6;
    std::int32_t at;
    if (dy > 0) {  // along the diagonal: the first bit above `bit`
      std::uint64_t found = (words[2 * block] | words[2 * block + 1]) & ~((std::uint64_t(2) << (bit & 63)) - 1);
      while (found == 0) {
        ++block;
        found = words[2 * block] | words[2 * block + 1];
      }
      at = block * 64 + std::countr_zero(found);
    } else {  // the last bit below `bit`
      std::uint64_t found = (words[2 * block] | words[2 * block + 1]) & ((std::uint64_t(1) << (bit & 63)) - 1);
      while (found == 0) {
        --block;
        found = words[2 * block] | words[2 * block + 1];
      }
      at = block * 64 + 63 - std::countl_zero(found);
    }
    return {dy > 0 ? at - bit : bit - at, ((words[2 * (at >> 6) + 1] >> (at & 63)) & 1u) != 0};
  }
  /// Tile `cell`'s two bits for diagonal (dx, dy): 1 when the jump stops on it, 2 when it cannot
  /// be entered.
  int diagonalBits(Cell cell, std::int32_t dx, std::int32_t dy) const noexcept;

  /// Landmark distances, quantised down to multiples of kLandmarkQuantum cost units: per padded
  /// tile, landmarkCount() distances to the landmarks (steps cost the same both ways, so "from"
  /// and "to" are one number); kLandmarkUnknown where unreachable or too far to store.
  static constexpr std::int64_t kLandmarkQuantum = std::int64_t(1) << 12;
  static constexpr std::uint32_t kLandmarkUnknown = 0xffffffffu;
  int landmarkCount() const noexcept { return m_landmarkCount; }
  /// True when the search may use the landmark distances: there are some, and no edit since they
  /// were computed made a tile cheaper or opened one (then they could overestimate: the search
  /// ignores them, exact with the plain heuristic, until they are refreshed). Edits that only
  /// close tiles or make them dearer keep them usable (lower bounds still), but a grid built
  /// afresh would pick other landmarks: refresh them for results equal to a fresh build's.
  bool landmarksUsable() const noexcept { return m_landmarkCount > 0 && !m_landmarksStale; }
  /// True when the landmarks are those a fresh build of the map as it is now would have.
  bool landmarksCurrent() const noexcept { return m_landmarkVersion == m_mapVersion || m_settings.landmarks == 0; }
  /// Recomputes the landmarks as a fresh build would, in steps: at most `sweeps` Dijkstra sweeps
  /// (each O(tiles log tiles)) per call, so that a game can spread the work over frames or hand
  /// it to a job (the grid must not be searched meanwhile: it is edited). The old distances stay
  /// in use while usable; the new ones take over when the last sweep is done. Edits in between
  /// start it over. Returns the sweeps spent (0 when the landmarks are current already).
  int refreshLandmarks(int sweeps);
  /// Bytes held (arrays' capacities).
  std::size_t memoryBytes() const noexcept;
  const std::uint32_t* landmarkDistances(std::int32_t paddedIndex) const noexcept {
    return m_landmarkDistances.data() + std::size_t(paddedIndex) * std::size_t(m_landmarkCount);
  }
  /// The landmark tiles chosen (farthest-point selection in the largest region).
  const std::vector<Cell>& landmarks() const noexcept { return m_landmarks; }

 private:
  Layout m_layout;
  std::int32_t m_width = 0;
  std::int32_t m_height = 0;
  MobilityId m_mobility;
  std::uint64_t m_mapVersion = 0;
  SearchGridSettings m_settings;
  std::vector<std::uint8_t> m_class;
  std::vector<std::uint8_t> m_uniform;
  std::array<std::uint8_t, 256> m_classOfTerrain{};
  std::array<float, 256> m_classCost{};
  std::array<std::uint32_t, 256> m_tilesOfClass{};  // padded tiles of each class
  std::array<std::int64_t, 256> m_halfStraight{};
  std::array<std::int64_t, 256> m_halfDiagonal{};
  int m_costClasses = 0;
  std::vector<SearchGate> m_gates;
  std::vector<std::uint8_t> m_nearGate;
  struct GateEnd {
    std::int32_t from, to, gate;  // padded tiles; both directions are listed
    friend bool operator<(const GateEnd& a, const GateEnd& b) { return a.from != b.from ? a.from < b.from : a.to < b.to; }
  };
  std::vector<GateEnd> m_gateEnds;  // sorted
  // gatesNear(): per bucket (row-major, m_gateBucketsWide a row) a range of m_gateBucketList.
  std::int32_t m_gateBucketsWide = 0;
  std::vector<std::uint32_t> m_gateBucketStart;  // bucket count + 1 entries; empty without gates
  std::vector<std::uint32_t> m_gateBucketList;
  bool m_closesNarrowGaps = false;
  std::int64_t m_minHalfStraight = 0;
  std::int64_t m_minHalfDiagonal = 0;
  RegionMap m_regions;
  std::vector<std::int16_t> m_jumps;
  HexDirections m_hex;
  // Hex jump entries (lib/search/search_grid_hex.cpp): every tile's, and after edits those that
  // can depend on the tiles `cells` (within two tiles of them), from each line's furthest such
  // tile back until an entry comes out as it was.
  void buildHexJumps();
  void refreshHexJumps(std::span<const Cell> cells);
  // The entry of padded tile `t` (its row or column `shifted`) for direction `d`, from the tile
  // ahead and its entry.
  std::int16_t hexEntry(std::int32_t t, bool shifted, int d) const noexcept;
  // Hex primary stops (hexPrimaryStop): per axis (directions d and d + 3 share one), the lines of
  // tiles along it, by key; per direction, the bits of each line from its word `start` on: bit 0
  // and bit length + 1 stand off the map (set), tile i of the line is bit i + 1.
  struct HexLine {
    std::uint32_t start = 0;  // first word
    std::int32_t low = 0;     // the position (hexLinePosition) of its first tile
  };
  // Axis a's lines are those of equal key; position rises by one a step in direction a.
  std::int32_t hexLineKey(Axial at, int axis) const noexcept {
    const Axial a = m_hex.axial[std::size_t(axis)];
    return a.r == 0 ? at.r : a.q == 0 ? at.q : at.q + at.r;
  }
  std::int32_t hexLinePosition(Axial at, int axis) const noexcept {
    const Axial a = m_hex.axial[std::size_t(axis)];
    return a.q != 0 ? at.q * a.q : at.r * a.r;
  }
  std::array<std::vector<HexLine>, 3> m_hexLines;
  std::array<std::int32_t, 3> m_hexLineKeyLow{};
  std::array<std::vector<std::uint64_t>, 6> m_hexStopBits;
  void buildHexStopBits();
  // Tile `cell`'s six stop bits, from its class, its neighbours' and its table entries.
  void refreshHexStopBits(Cell cell);
  // canonicalSuccessors(): 8 masks per padded tile (6 on hexes), made once the map has more than
  // one cost (8-way squares and hexes), then kept up to date where tiles are not uniform.
  std::vector<std::uint8_t> m_successors;
  std::unordered_map<std::uint64_t, std::uint64_t> m_successorCache;  // see refreshSuccessors
  static constexpr std::size_t kSuccessorCacheLimit = std::size_t(1) << 16;
  // A tile's masks from its 3 × 3 tiles (refreshTile calls it for tiles that are not uniform,
  // once the masks are kept).
  void refreshSuccessors(std::size_t paddedIndex);
  void fillSuccessors();
  int m_landmarkCount = 0;
  std::vector<Cell> m_landmarks;
  std::vector<std::uint32_t> m_landmarkDistances;
  bool m_landmarksStale = false;
  std::uint64_t m_landmarkVersion = ~std::uint64_t(0);  // the map version the landmarks were computed on
  // A refresh of the landmarks in progress (refreshLandmarks).
  struct LandmarkRefresh {
    bool active = false;
    std::uint64_t version = 0;
    std::int32_t seed = -1;
    std::vector<std::int64_t> nearest, distance;
    std::vector<Cell> picked;
    std::vector<std::uint32_t> staged;
    // The sweeps' field over the grid's costs, made at the refresh's first sweep and kept for the
    // others (the costs cannot change within one refresh: an edit starts it over).
    std::optional<CrowdField> field;
  };
  LandmarkRefresh m_refresh;

  // Reads the cost classes from the terrain table.
  std::optional<Error> readCosts(const TerrainTable& terrain);
  std::optional<Error> readGates(const TileMap& map, std::span<const SearchGate> gates);
  void setClass(std::size_t paddedIndex, std::uint8_t costClass);
  void countClasses();
  bool touchesGate(Cell cell) const noexcept;
  // A tile's nearGate and uniform flags, from its own and its neighbours' classes and the gates.
  void refreshTile(Cell cell);
  // The flags of the tiles and their neighbours, and the jump lines through them.
  void refreshAround(std::span<const Cell> cells);
  bool hasJumps() const noexcept;
  // Jump searches that stop where costs change and go on by canonicalSuccessors(): 8-way squares
  // and hexes.
  bool keepsSuccessors() const noexcept;
  // The jump entries of one row (directions 0, 1) or column (2, 3). With a range of positions
  // along the line (x for rows, y for columns) where tiles, flags or neighbours changed, only the
  // entries that can depend on them are recomputed: from just past the range back against the
  // direction, until an entry before the range comes out as it was.
  // With `stopFlips`, the tiles whose entry went from stopping on a jump point to not, or back, are
  // added to it (padded indices): their diagonal bits may change.
  void buildJumpLine(int direction, std::int32_t line, std::int32_t first = std::numeric_limits<std::int32_t>::min(),
                     std::int32_t last = std::numeric_limits<std::int32_t>::max(),
                     std::vector<std::int32_t>* stopFlips = nullptr);
  // Diagonal bits (diagonalStop). Directions: 0 south-east, 1 south-west, 2 north-east,
  // 3 north-west. Family 0 holds the diagonals x - y = constant (south-east and north-west),
  // numbered x - y + height - 1; family 1 those of x + y = constant. A diagonal's words start at
  // m_diagonalStart[family][line] in each of its directions' arrays: per 64 tiles a word of stop
  // bits, then one of blocked bits. Its tiles, by rising y, are bits 1 to its length; bits 0 and
  // length + 1 (past the map's edge) are blocked.
  static constexpr int diagonalIndex(std::int32_t dx, std::int32_t dy) noexcept { return (dx > 0 ? 0 : 1) + (dy > 0 ? 0 : 2); }
  // Its inverse: the steps (dx, dy) of diagonal direction `direction`.
  static constexpr std::int32_t diagonalDx(int direction) noexcept { return direction % 2 == 0 ? 1 : -1; }
  static constexpr std::int32_t diagonalDy(int direction) noexcept { return direction < 2 ? 1 : -1; }
  // Where a padded tile's near diagonal stop for `direction` is in m_jumps.
  static std::size_t nearStopIndex(std::int32_t paddedIndex, int direction) noexcept {
    return std::size_t(paddedIndex) * kJumpRecord + 4 + std::size_t(direction);
  }
  // Where the words of the diagonal through `cell` in direction (dx, dy) start in that
  // direction's array, and the cell's bit in them.
  std::size_t diagonalOffset(Cell cell, std::int32_t dx, std::int32_t dy, std::int32_t& bit) const noexcept {
    const int family = dx == dy ? 0 : 1;
    const std::int32_t line = family == 0 ? cell.x - cell.y + m_height - 1 : cell.x + cell.y;
    const std::int32_t firstY = family == 0 ? std::max(0, cell.y - cell.x) : std::max(0, cell.x + cell.y - (m_width - 1));
    bit = cell.y - firstY + 1;
    return m_diagonalStart[std::size_t(family)][std::size_t(line)];
  }
  void buildDiagonalBits();
  // Sets tile `cell`'s diagonal bits from its neighbours and straight entries; returns the
  // directions (bit diagonalIndex) whose bits changed.
  unsigned refreshDiagonalBits(Cell cell);
  // Every tile's diagonal bits, then every near diagonal stop.
  void refreshAllDiagonalBits();
  // After `cell`'s bits in `direction` changed: the near stops of the tiles before it on that
  // diagonal, back to one with a bit set (those further back stop there first) or out of reach.
  void refreshNearDiagonalStopsBefore(Cell cell, int direction);
  std::array<std::vector<std::uint32_t>, 2> m_diagonalStart;
  std::array<std::vector<std::uint64_t>, 4> m_diagonalBits;
  void buildLandmarks();
  // Dijkstra over the padded grid from `source` (steps cost the same both ways: distances from it
  // and to it are equal); unreachable tiles get -1.
  void sweep(std::int32_t source, std::optional<CrowdField>& field, std::vector<std::int64_t>& distance) const;
};

}  // namespace rpgnav
