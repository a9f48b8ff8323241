// SPDX-License-Identifier: MIT
// Private to lib/field: a crowd field's state and the work behind its public calls (CrowdField
// forwards each call to its Impl, so the public header shows none of this). Its members are
// defined across the module's files, one job each (see lib/README.md, "field").
#pragma once

#include "rpgnav/field/crowd_field.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace rpgnav {

struct RPGNAV_HIDDEN CrowdField::Impl {
  explicit Impl(const CostField& costs);

  // The public calls (see crowd_field.hpp), with the lookups the library's own code reads inline.
  const CostField& costs() const noexcept { return m_costs; }
  void setGoals(std::span<const Cell> goals);
  Status addGoal(Cell goal);
  Status removeGoal(Cell goal);
  Status moveGoal(Cell from, Cell to);
  const std::vector<Cell>& goals() const noexcept { return m_goals; }
  void setSources(std::span<const Source> sources);
  Status setCost(Cell cell, std::uint8_t cost);
  Status setCosts(std::span<const TileCost> tiles);
  Status syncWithMap(const TileMap& map);
  Status syncWithMap(const TileMap& map, const Clearance& clearance);
  Status setDanger(int layer, Cell cell, std::uint8_t danger);
  Result<std::uint32_t> addDangerStamp(const DangerStamp& stamp);
  Status removeDangerStamp(std::uint32_t id);
  Status setDoor(Cell a, Cell b, DoorState state);
  Status removeDoor(Cell a, Cell b);
  Status setDoorCosts(const DoorCosts& costs);
  const DoorCosts& doorCosts() const noexcept { return m_doorCosts; }
  std::size_t doorCount() const noexcept { return m_doors.size(); }
  void setDangerFactor(std::uint8_t factor);
  std::uint8_t dangerFactor() const noexcept { return m_factor; }
  std::uint8_t danger(Cell cell) const noexcept { return m_danger.danger(cell); }
  const DangerMap& dangerMap() const noexcept { return m_danger; }
  void rebuild();
  const Diagnostics& diagnostics() const noexcept { return m_diagnostics; }
  std::int64_t repairAllowance() const noexcept;
  void setFollowers(std::span<const Cell> followers, std::int32_t marginTiles);
  void clearFollowers();
  bool bounded() const noexcept { return m_bounded; }
  std::int64_t settledCount() const noexcept { return m_bounded ? m_settledTiles : reachableCount(); }
  Status trackGoal(Cell to);
  Status startTracking();
  std::int64_t refreshTracking(std::int64_t tileBudget, double micros);
  bool tracking() const noexcept { return m_tracking; }
  bool exact() const noexcept { return !m_tracking || m_exactNow; }
  std::int64_t trackedTravel() const noexcept { return m_tracking ? m_travel : 0; }
  bool refreshing() const noexcept { return m_refreshPhase != RefreshPhase::idle; }
  std::uint64_t refreshesLanded() const noexcept { return m_refreshesLanded; }
  void setTrackingWave(std::int64_t tiles) noexcept { m_trackingWave = std::max<std::int64_t>(tiles, 0); }
  std::int64_t trackingWave() const noexcept { return m_trackingWave; }
  std::int64_t distance(Cell cell) const noexcept {
    if (!m_costs.contains(cell)) return kUnreachable;
    const std::int64_t d = m_distance[padded(cell)];
    return d < m_limit ? d - m_base : kUnreachable;
  }
  bool reachable(Cell cell) const noexcept { return distance(cell) != kUnreachable; }
  std::uint8_t direction(Cell cell) const noexcept {
    return m_costs.contains(cell) ? m_direction[padded(cell)] : kNoDirection;
  }
  Vec2 flow(Cell cell) const noexcept;
  std::int64_t reachableCount() const noexcept;
  std::uint64_t digest() const noexcept;

  // operator==: the same reported distances (stored values less each field's base) and
  // directions.
  bool sameField(const Impl& other) const noexcept;
  // syncWithMap's work, for a point's field (no clearance) or a body's.
  Status syncWith(const TileMap& map, const Clearance* clearance);
  // The arrays are padded with a border of impassable tiles: neighbours need no bounds checks.
  std::size_t padded(Cell cell) const noexcept {
    return std::size_t(cell.y + 1) * std::size_t(m_stride) + std::size_t(cell.x + 1);
  }
  // One move of the layout's table as offsets in the padded arrays.
  struct Move {
    std::ptrdiff_t offset;
    std::int64_t length;                  // kStep or kDiagonalStep
    double perLength;                     // 1 / length
    bool diagonal = false;                // a square diagonal (priced by m_halfDiagonal)
    std::ptrdiff_t cornerA = 0, cornerB = 0;  // square diagonals: the tiles that must be passable
    std::ptrdiff_t sideA = 0, sideB = 0;      // a body's hex steps: the tiles next to both ends (that must be too)
    Vec2 unit = Vec2::Zero();                 // world direction of the step
  };
  // The move table for a tile (hex tables depend on the row or column parity).
  const std::vector<Move>& movesOf(std::size_t tile) const noexcept {
    return m_moves[m_parityMatters ? m_open[tile] >> kParityShift : 0];
  }
  // The moves of movesOf(tile) that land on an enterable tile without cutting a corner, as bits.
  unsigned openMoves(std::size_t tile) const noexcept {
    return m_parityMatters ? m_open[tile] & ((1u << kParityShift) - 1) : m_open[tile];
  }
  // True for the map's tiles, false for the padding round them.
  bool inside(std::size_t tile) const noexcept {
    const auto stride = std::size_t(m_stride), x = tile % stride, y = tile / stride;
    return x >= 1 && x + 1 < stride && y >= 1 && y <= std::size_t(m_costs.height());
  }
  // Recomputes m_open for a tile from its neighbours' weights (keeping its parity bits).
  void refreshOpen(std::size_t tile) noexcept;
  // A tile's rate: its cost with danger weighed in (clamped to the search's range), 0 where it is
  // impassable. Its weights (m_half, m_halfDiagonal) are the half steps at that rate.
  float rateFor(Cell cell) const noexcept;
  float rateFor(Cell cell, std::uint8_t danger) const noexcept;  // `danger`: the tile's
  // The cost of the step by `move` between `tile` and its neighbour `next`: half of it on each.
  std::int64_t stepCost(std::size_t tile, std::size_t next, const Move& move) const noexcept {
    return move.diagonal ? m_halfDiagonal[tile] + m_halfDiagonal[next] : m_half[tile] + m_half[next];
  }
  // The cheapest straight step and the dearest step of any kind under the rate bounds.
  std::int64_t lightestStep() const noexcept;
  std::int64_t heaviestStep() const noexcept;
  // Sets a (padded) tile's rate and weights, keeping the rate bounds; a tile walled up or opened
  // is noted for refreshOpenAround(), which must follow before the field is read.
  void setWeight(std::size_t tile, float rate);
  // A tile's rate and its half steps (m_half, m_halfDiagonal), nothing else.
  void storeRate(std::size_t tile, float rate) noexcept;
  void refreshOpenAround();
  void measureWeights();
  // A generation for m_stamp (`count` consecutive ones, the first returned); clears every stamp
  // before the counter wraps.
  std::uint32_t freshStamp(std::uint32_t count = 1) noexcept;
  // The bucket queue's shape: the shift that finds a distance's bucket, and the (power of two)
  // count of circular buckets, which most steps cannot outrun (see the definition).
  std::pair<int, std::size_t> bucketShape() const noexcept;
  static constexpr std::size_t kMinBucketCap = 256;
  void refreshWeight(Cell cell);
  // Brings the weights of the tiles the danger's last edit touched up to date.
  void applyDangerEdit();
  // Marks or unmarks a (padded) tile as a goal, keeping m_goals in step.
  void markGoal(std::size_t tile, bool goal);
  // The incremental core, one update for everything at once: tiles' new weights (0:
  // impassable), goals gone and goals new (padded tiles). Equal to a rebuild; rebuilds instead
  // when a repair would cost more (see Work).
  struct WeightChange {
    std::uint32_t tile;
    float rate;  // rateFor()
  };
  // `reshaped`: tiles whose moves changed with their weights unchanged (a door's two tiles).
  void update(std::span<const WeightChange> changes, std::span<const std::uint32_t> removedGoals,
              std::span<const std::uint32_t> addedGoals, std::span<const std::uint32_t> reshaped = {});
  // The tiles whose distance was too low after weights rose or goals went, from the candidates
  // in m_affected (replaced by the affected tiles): those whose every supporter was affected
  // too. False when the candidates looked at and the tiles found pass `budget` (then
  // m_affected is incomplete and the caller rebuilds).
  bool findAffected(std::int64_t budget);
  // True when a neighbour not marked `affectedMark` still offers the tile its distance `was`.
  bool supportedBesides(std::size_t tile, std::int64_t was, std::uint32_t affectedMark) const noexcept;
  // Doors: the move bits every door takes away (m_doorBlocked) and the crossings that cost
  // extra (m_crossings, m_doorSide) from m_doors and the costs; the tiles whose bits changed
  // get their move bits again.
  void applyDoors();
  // The extra cost of a door's crossing under the door costs (fixed point), or -1 when it blocks.
  std::int64_t crossingExtra(DoorState state) const noexcept;
  // The door crossings of a tile that cost extra (m_crossings is sorted by tile).
  struct Crossing {
    std::uint32_t tile;
    std::uint8_t move;   // index into movesOf(tile)
    std::int64_t extra;  // added to the step's cost, fixed point
    friend bool operator<(const Crossing& a, const Crossing& b) noexcept { return a.tile < b.tile; }
  };
  std::span<const Crossing> crossingsOf(std::size_t tile) const noexcept;
  // The flow vector from the moves' drops (rates drop / length, blended) and the chosen step.
  static Vec2 blendFlow(const std::int64_t* drop, const Move* moves, std::size_t count, std::uint8_t best) noexcept;
  static Vec2 pickFlow(Vec2 sum, float fastest, Vec2 chosen) noexcept;
  // settle() and flow() for a tile with costly crossings (they join its moves).
  std::uint8_t dropsWithCrossings(std::size_t tile, std::int64_t* drop) const noexcept;
  void settleWithCrossings(std::size_t tile) noexcept;
  Vec2 flowWithCrossings(std::size_t tile) const noexcept;
  // The full integration and flow fields (rebuild() without resetting the work count).
  void build();
  // The goals' distances (0) and the sources' (their prices), each appended to `seeds`.
  void seedGoals(std::vector<std::uint32_t>& seeds);
  // build() for a bounded field: the last settled area reset, then grown from the goals.
  void buildBounded();
  // Settles onward from the frontier (or the seeds) until every follower still looked for is
  // settled, plus the margin; gives the new tiles their directions.
  void growBounded();
  // buildBounded() by the canonical scan, where the goals moved within the last bounded field
  // of the same map (its distances then bound where the new field's area lies); false (nothing
  // changed) where that does not apply or the scan's distances need a repair.
  bool buildBoundedCanonical();
  // Its last sweep, over the rows of m_area: keeps the tiles below `stop` (settled, with their
  // directions), gives each other tile the best a kept neighbour offers (the frontier) or
  // unreached, and notes the written rows in m_rows. False when a kept neighbour offers some
  // tile less than it holds and than `stop` (the scan missed a route: its result is not taken).
  bool finishBoundedRows(std::int64_t stop, std::int64_t straight, std::int64_t diagonal);
  // A bounded field's written tiles (m_rows and m_region) back to unreached with no direction.
  void resetWritten();
  // m_rows' tiles back to unreached (and, with `directions`, to no direction); m_rows emptied.
  void clearRows(bool directions);
  // m_region's tiles joined into m_rows (m_region emptied).
  void rowsFromRegion();
  // The box every settled tile of a bounded field lies in (the whole map with sources or for a
  // field that ran dry).
  std::pair<Cell, Cell> settledBox() const noexcept;
  // New tiles sweep the box instead of being settled one by one when more than 1/kSweepShare of it.
  static constexpr std::int64_t kSweepShare = 4;
  // settle() on the rectangle low..high (tiles), row by row; returns how many are reachable.
  std::int64_t settleRange(Cell low, Cell high) noexcept;
  // True when no tile of `tile`'s neighbourhood is settled: an edit there changes nothing a
  // bounded field holds.
  bool beyondBound(std::uint32_t tile) const noexcept;
  // The best distance from a tile's neighbours under the current weights (kUnreachable if none).
  std::int64_t bestFromNeighbours(std::size_t tile) const noexcept;
  // A tile's direction, from its nearer neighbours' distances (the one rule, for a full sweep
  // after a rebuild and for the tiles an edit touched).
  void settle(std::size_t tile) noexcept;
  // The arrays settle() reads and writes, as plain pointers (so a loop keeps them in registers).
  struct SettleArrays;
  SettleArrays settleArrays() noexcept;
  template <std::size_t kMoves>  // 8 or 4 on square maps, 6 on hex maps
  static void settleWith(const SettleArrays& arrays, std::size_t tile, const std::ptrdiff_t* offset) noexcept;
  // A tile's flow vector (flow()), from its direction and its neighbours' distances.
  template <std::size_t kMoves>
  Vec2 flowWith(std::size_t tile, const Move* moves) const noexcept;
  // settle() on every tile of the map, row by row.
  // (Counted as work too.) Returns how many tiles are reachable.
  std::int64_t settleAll() noexcept;
  // Recomputes the directions of the touched tiles and their neighbours.
  void refreshDirections();
  bool isGoal(std::size_t tile) const noexcept { return m_goalMark[tile] != 0; }
  // Dial's algorithm from the tiles in m_seeds (their distances already set): distances only;
  // the tiles it settles are noted in m_settled when m_recording.
  void propagate();
  // kSources: sources (m_fixed) to respect; the move table: kStraight steps of kStep, then
  // kDiagonal of kDiagonalStep.
  template <bool kSources, std::size_t kStraight, std::size_t kDiagonal>
  void propagateWith(int shift, std::size_t mask);
  // build()'s integration on square 8-connected maps of one weight (see BuildTimes): true when
  // it applies (and was done), false to leave it to propagate().
  bool integrateCanonical();
  // True when a full build would take the canonical integration (bounds permitting).
  bool scansWhole() const noexcept { return (oneWeightSquare() || oneWeightHex()) && !m_bounded; }
  // The same on hex maps: one weight, no sources, no door crossings that cost extra (a route's
  // cost is its count of steps).
  bool oneWeightHex() const noexcept {
    return m_parityMatters && m_lightest == m_heaviest && m_sources.empty() && m_crossings.empty();
  }
  // Square 8-connected, one weight on every passable tile, no sources and no door crossings that
  // cost extra: a route's cost is its count of straight and diagonal steps (the canonical scan's
  // maps; bounds permitting).
  bool oneWeightSquare() const noexcept {
    return !m_parityMatters && m_moves[0].size() == 8 && m_lightest == m_heaviest && m_sources.empty() && m_crossings.empty();
  }
  // Its first phase: distances of routes that go diagonally, then straight (Sturtevant and
  // Rabin's canonical Dijkstra), from the goals in m_seeds. False when it gave up (too many
  // jump points: walls scattered everywhere).
  // Runs stop short of `cap`: only distances below it are written.
  bool scanCanonical(std::int64_t straight, std::int64_t diagonal, std::int64_t cap);
  // The same on hex maps (every step `straight`): routes that take one direction, then turn
  // once by a sixth (the hex search's primary and secondary runs).
  bool scanCanonicalHex(std::int64_t straight, std::int64_t cap);
  // The scans' shared loop over jump points, and a jump point pushed (see canonical_scan.cpp).
  template <typename Expand>
  bool drainJumpPoints(std::uint8_t goalDirections, const std::int64_t& written, Expand&& expand);
  void pushJumpPoint(std::int64_t reached, std::size_t tile, unsigned directions, unsigned turns = 0);
  // Its second: every tile's direction, and the tiles a neighbour offers a shorter distance
  // than they hold, into m_seeds (one sweep). Returns the reachable tiles, as settleAll().
  std::int64_t settleChecking(std::int64_t straight, std::int64_t diagonal);
  std::int64_t settleCheckingHex(std::int64_t straight);
  // The check for one tile: a neighbour offers it a shorter distance than it holds.
  bool tooHigh(std::size_t tile, const std::ptrdiff_t* offset, std::int64_t straight, std::int64_t diagonal) const noexcept;

  CostField m_costs;
  std::int32_t m_stride = 0;  // padded row length
  std::array<std::vector<Move>, 4> m_moves;  // by parity: [x % 2 + 2 × (y % 2)]
  bool m_parityMatters = false;
  std::vector<Cell> m_goals;
  DangerMap m_danger;  // layers and stamps
  std::uint8_t m_factor = 0;
  // Padded, per tile: its rate (0: impassable), and half a straight step and half a diagonal one
  // at that rate (the weights: a step costs its two tiles' halves; 0 on impassable tiles).
  std::vector<float> m_rate;
  std::vector<std::int64_t> m_half, m_halfDiagonal;
  // Padded, per tile: bit k set when move k of movesOf(tile) is open (see openMoves); on hex maps
  // the top two bits hold the tile's parity (which move table), so no division finds it.
  static constexpr unsigned kParityShift = 6;
  std::vector<std::uint8_t> m_open;
  std::vector<std::int64_t> m_distance;  // padded
  std::vector<std::uint8_t> m_direction; // padded
  // Bucket queue storage, kept between runs: each bucket's vector is its capacity (grown on
  // demand; propagate() keeps the fill), so a push is a store and an add, taken or not.
  std::vector<std::vector<std::uint32_t>> m_buckets;
  std::vector<std::pair<std::int64_t, std::uint32_t>> m_far;  // propagate()'s candidates beyond them: bucket, tile
  std::vector<std::uint32_t> m_seeds;
  // scanCanonical()'s heap of jump points: distance, tile, the directions to scan from it.
  struct JumpPoint {
    std::int64_t distance;
    std::uint32_t tile;
    std::uint8_t directions;
    std::uint8_t turns = 0;  // hex: secondary runs from the tile itself, by direction
  };
  std::vector<JumpPoint> m_jumpPoints;
  static bool jumpPointLater(const JumpPoint& a, const JumpPoint& b) noexcept { return a.distance > b.distance; }
  std::vector<std::pair<std::uint32_t, std::int64_t>> m_sources;  // setSources(): tile, cost
  std::vector<std::uint8_t> m_fixed;  // padded; 1 on sources, whose distance is their price
  std::vector<std::uint8_t> m_goalMark;  // padded; 1 on goal tiles
  // Incremental scratch: affected tiles, tiles whose distance or weight changed, stamps; and the
  // buffers of syncWithMap, changeWeight, repairIncrease and propagateWith (no allocation once
  // warm, no thread-local state).
  std::vector<std::uint32_t> m_affected, m_touched, m_settled;
  std::vector<Cell> m_changedCells;
  std::vector<WeightChange> m_weightChanges;
  std::vector<std::uint32_t> m_rises, m_falls, m_lostGoals, m_newGoals;  // update()'s inputs, by kind
  // Doors (see setDoor): each one's two tiles (padded) and state.
  struct FieldDoor {
    std::uint32_t a, b;
    DoorState state;
  };
  std::vector<FieldDoor> m_doors;
  DoorCosts m_doorCosts;
  std::vector<std::uint8_t> m_doorBlocked;  // padded move bits doors take away (empty: no doors)
  std::vector<std::uint8_t> m_doorSide;     // padded; 1 where a tile has costly crossings
  std::vector<Crossing> m_crossings;
  std::vector<std::uint32_t> m_doorMarked;  // tiles with door bits or crossings (to clear them)
  std::int64_t m_largestExtra = 0;
  // Bounded mode (setFollowers): tiles with a distance below m_limit are settled (kUnreachable:
  // every reachable tile is); m_region lists every tile whose distance or direction was written
  // since the last bounded build (for a reset that costs the area, not the map); m_frontier the
  // queued tiles where the integration stopped (where it grows from); followers as padded tiles,
  // those found cut off from every goal, and the stop margin in distance units.
  bool m_bounded = false;
  std::int64_t m_limit = kUnreachable;
  // Written tiles of a bounded field as a span per map row, besides m_region (canonical builds
  // note rows, not tiles); m_area the rows a canonical build sweeps. An empty span has low > high.
  struct RowSpan {
    std::int32_t low = 1, high = 0;
  };
  std::vector<RowSpan> m_rows, m_area;
  // Counts changes of weights and move bits; m_boundedEdits its value when the last bounded
  // field was built (equal: that field's distances are this map's).
  std::uint64_t m_mapEdits = 0, m_boundedEdits = ~std::uint64_t(0);
  // Bounded builds left to Dial's algorithm after a canonical attempt was given up.
  static constexpr std::int32_t kScanPause = 16;
  std::int32_t m_scanPause = 0;
  std::vector<std::uint32_t> m_region, m_frontier, m_followers, m_lostFollowers;
  std::int64_t m_margin = 0;
  std::int32_t m_marginTiles = 8;
  std::int64_t m_settledTiles = 0;
  // propagate() stops early (bounded) once every marked follower (m_followerMark, padded) is
  // settled and the distance passed the farthest one's plus the margin.
  bool m_stopEarly = false;
  std::vector<std::uint8_t> m_followerMark;
  std::size_t m_pendingFollowers = 0;
  std::int64_t m_farthestFollower = 0;
  // findAffected()'s scratch: its circular buckets, its sorted seeds, candidates beyond the buckets.
  std::vector<std::vector<std::uint32_t>> m_repairBuckets;
  std::vector<std::uint32_t> m_repairSeeds;
  std::vector<std::pair<std::int64_t, std::uint32_t>> m_repairFar;
  struct BucketSlot {
    std::uint32_t* end;
    std::uint32_t* limit;
  };
  std::vector<BucketSlot> m_slotStore;
  std::vector<std::uint64_t> m_occupied;  // propagate()'s bit per bucket that may hold tiles
  std::vector<std::uint32_t> m_stamp;
  std::uint32_t m_generation = 0;
  bool m_recording = false;  // propagate() notes the tiles it settles in m_settled
  // ... until more than m_sweepAbove, when refreshDirections() sweeps every tile instead.
  std::size_t m_sweepAbove = 0;
  bool m_sweepDirections = false;
  float m_lightest = 1.0f, m_heaviest = 1.0f;  // bounds of the passable tiles' rates
  std::int64_t m_lightCount = 0, m_heavyCount = 0;  // tiles holding them (while exact)
  std::vector<std::uint32_t> m_flipped;  // tiles walled up or opened, for refreshOpenAround()
  bool m_boundsExact = false;  // false: maybe wider than the weights (measureWeights() again)
  Diagnostics m_diagnostics;  // the last build's times, the last input's work
  // Tracking (trackGoal, goal_tracking.cpp): stored distances are the reported ones plus m_base
  // (the goal's stored value; 0 when exact), which starts at kTrackingBias and falls by each
  // step's cost, so the old tiles' routes grow by a step without being written.
  static constexpr std::int64_t kTrackingBias = std::int64_t(1) << 60;
  bool m_tracking = false;
  std::int64_t m_base = 0;
  std::int64_t m_travel = 0;  // the goal's walk (its chains' costs) since the field's exact basis
  bool m_exactNow = true;     // tracking: no step or edit since the field was exact
  std::int64_t m_trackingWave = kTrackingWave;
  enum class RefreshPhase : std::uint8_t { idle, clearing, settling };
  RefreshPhase m_refreshPhase = RefreshPhase::idle;
  std::size_t m_refreshCleared = 0;
  std::vector<std::int64_t> m_refreshDistance;  // padded, the refresh's own
  std::vector<std::uint8_t> m_refreshDirection;
  std::vector<std::pair<std::int64_t, std::uint32_t>> m_refreshHeap, m_wave;  // min-heaps: distance, tile
  // The refresh's Dial buckets (circular; m_refreshHeap holds entries beyond them): the bucket
  // under way, the buckets' width as a shift, the entries in them.
  std::vector<std::vector<std::uint32_t>> m_refreshBuckets;
  std::int64_t m_refreshBucket = 0;
  int m_refreshShift = 0;
  std::size_t m_refreshQueued = 0;
  std::uint32_t m_refreshGoal = 0;  // the goal the running refresh began from (padded)
  std::vector<std::uint32_t> m_chain;  // scratch: a route along the directions
  std::int64_t m_refreshFront = 0;  // the refresh's highest settled distance (tiles at or below it: settled)
  std::uint64_t m_refreshesLanded = 0;
  // The first step: every reachable distance raised by kTrackingBias.
  void enterTracking();
  // Back to exact mode's state (the caller rebuilds).
  void leaveTracking() noexcept;
  // The route along the directions from `from` to the tile without a direction it ends at,
  // into m_chain (from first); false when it is longer than `most` tiles or takes a move whose
  // reverse is closed.
  bool chainFrom(std::size_t from, std::size_t most);
  // The goal moves to m_chain's first tile: the chain's directions reversed, its distances and
  // m_base moved so every other tile's distance grows by the chain's cost (returned).
  std::int64_t reverseChain();
  // Lowers the tiles the goal (`goal`, padded) offers a cheaper route, spreading while they
  // improve, at most m_trackingWave settled; returns the tiles settled.
  std::int64_t spreadWave(std::size_t goal);
  // spreadWave's loop from the tiles queued in m_wave (their distances and directions set), at
  // most `most` tiles settled; with `within` non-zero, only into tiles stamped `within`.
  std::int64_t spreadQueued(std::int64_t most, std::uint32_t within);
  // A tile's step keeps the rule (see goal_tracking.cpp): unreachable, the goal, or an open move
  // onto a reachable tile at least the step's cost lower.
  bool stepValid(std::size_t tile) const noexcept;
  // Lowers a tile to the best its reachable neighbours offer, with the direction to it, and
  // queues it in m_wave when that lowered it.
  void lowerFromNeighbours(std::size_t tile);
  // update()'s work on a tracked field: the tiles' weights changed (m_rises, m_falls); keeps the
  // rule at the cost of the routes the change touches. False: the caller rebuilds.
  bool repairTracked();
  // The running refresh after an edit (m_rises, m_falls): goes on where the edit lies beyond
  // what it has read, else starts again.
  void refreshAfterEdit();
  // The move of movesOf(tile) that steps onto `onto` (a neighbour), or kNoDirection.
  std::uint8_t moveOnto(std::size_t tile, std::size_t onto) const noexcept;
  // The finished refresh becomes the field and the goal's walk since is laid on it.
  void installRefresh();
};

}  // namespace rpgnav
