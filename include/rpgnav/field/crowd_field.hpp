// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// Crowd fields: one answer to "which way next?" for every tile, shared by any number of
/// characters heading for the same goal (monsters chasing the player, attackers marching on a
/// keep), so the cost does not grow with the number of characters.
///
/// - CostField (cost_field.hpp): each tile's travel cost for one mobility (the terrain table's,
///   fractional: a road of 0.8, grass of 1.2), from the TileMap's terrain costs.
/// - CrowdField: the integration field (each tile's cost to the nearest goal tile, √2 diagonals
///   and no corner cutting on square maps, every tile's "unreachable" answered too), danger
///   layers weighed against distance by a factor 0-255, and the flow field read from it (the
///   neighbour to step to, and a unit vector for smooth steering).
///
/// The cost model is the tile search's (grid/step_cost.hpp): a step between two neighbouring tiles
/// costs half its length at each tile's cost, in fixed point (kStep per tile step on cost-1
/// ground), so a tile's distance is exactly the planner's search cost from that tile to the goal,
/// danger included (DangerMap::weightedCost). Costs are integers, so fields built in any order are
/// bit-identical: an incremental update is checked against a full rebuild by plain equality.

#include "rpgnav/core/export.hpp"
#include "rpgnav/core/status.hpp"
#include "rpgnav/field/cost_field.hpp"
#include "rpgnav/grid/danger_map.hpp"
#include "rpgnav/grid/map_features.hpp"
#include "rpgnav/grid/tile_map.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <vector>

namespace rpgnav {

class Clearance;

/// The integration field and its flow field for a set of goal tiles, kept up to date through
/// edits. Thread-safety: lookups (distance, direction, flow) from any number of threads at once;
/// edits and rebuilds must not overlap with them.
class RPGNAV_API CrowdField {
 public:
  /// Fixed point (the tile search's kCostScale): an orthogonal (or hex) step between two tiles of
  /// cost 1 costs kStep, a square diagonal kDiagonalStep (√2 to 7 digits). Between tiles of costs
  /// a and b a step costs half its length at each: halfStraightCost(a) + halfStraightCost(b)
  /// (grid/step_cost.hpp); distance / kStep is a route's cost in tiles of cost-1 ground.
  static constexpr std::int64_t kStep = std::int64_t(1) << 24;
  static constexpr std::int64_t kDiagonalStep = 23726566;  // 2 × llround(√2 / 2 × kStep)
  static constexpr std::int64_t kUnreachable = std::numeric_limits<std::int64_t>::max();
  /// Flow directions: an index into layout().moves(cell), or kNoDirection (a goal tile, an
  /// unreachable or impassable tile).
  static constexpr std::uint8_t kNoDirection = 255;

  /// A field over `costs` (copied) with no goals and no danger: every tile unreachable.
  explicit CrowdField(const CostField& costs);

  const CostField& costs() const noexcept { return m_costs; }

  // --- Inputs ---
  /// Replaces the goal tiles (those outside the map or impassable are ignored) and rebuilds.
  void setGoals(std::span<const Cell> goals);
  /// Incremental goal edits (each equal to a rebuild with the new goals). InvalidArgument off the
  /// map; adding an impassable tile or one already a goal, or removing a tile that is not a goal,
  /// changes nothing.
  Status addGoal(Cell goal);
  Status removeGoal(Cell goal);
  /// The goal moved (usually to a neighbouring tile): removeGoal(from) then addGoal(to).
  Status moveGoal(Cell from, Cell to);
  const std::vector<Cell>& goals() const noexcept { return m_goals; }
  /// A goal tile with a head start: routes end there at `cost` (fixed point, >= 0) instead of 0,
  /// e.g. a sector's exits priced by what lies beyond them (see SectorFields). A source keeps its
  /// price: routes end at it and never pass through it.
  struct Source {
    Cell cell;
    std::int64_t cost = 0;
  };
  /// Replaces the goals with sources and rebuilds. Edits afterwards rebuild the field (the
  /// incremental edits assume goals at cost 0); setGoals() ends this mode.
  void setSources(std::span<const Source> sources);
  /// One tile's cost changed, given as a byte (CostField::set: 1-254 costs that much, 255 makes
  /// it impassable): the field is updated incrementally, equal to a rebuild. InvalidArgument off
  /// the map or for 0. (Fractional costs come from the map: syncWithMap.)
  Status setCost(Cell cell, std::uint8_t cost);
  /// Many tiles at once (a building, a barricade, a burnt bridge): one repair for all of them,
  /// equal to a rebuild. InvalidArgument (and nothing changes) when any tile is off the map or
  /// any cost is 0.
  struct TileCost {
    Cell cell;
    std::uint8_t cost = 1;
  };
  Status setCosts(std::span<const TileCost> tiles);
  /// The map was edited: its tiles are read again and every changed one applied as setCost.
  /// InvalidArgument when the map's size or layout differ.
  Status syncWithMap(const TileMap& map);
  /// The same for a body's field (CostField::build with a clearance), from the map and its
  /// clearance brought up to date.
  Status syncWithMap(const TileMap& map, const Clearance& clearance);
  /// Danger: a per-tile cost for being there, 0-255 (0 outside the map). Several layers add up
  /// (clamped to 255); `layer` counts from 0, at most kMaxDangerLayers. Incremental.
  static constexpr int kMaxDangerLayers = DangerMap::kMaxLayers;
  Status setDanger(int layer, Cell cell, std::uint8_t danger);
  /// A danger stamp: a disc of danger round a point (a turret's range, a fire, a guard's
  /// sight), added to the layers; see DangerMap::Stamp for which tiles get how much.
  using DangerStamp = DangerMap::Stamp;
  /// Adds a stamp in one update (work proportional to the disc): its id, for removeDangerStamp.
  /// InvalidArgument for a NaN or infinite centre or radius, a negative radius or a falloff
  /// outside [0, 1]. A stamp wholly off the map changes nothing but still gets an id.
  Result<std::uint32_t> addDangerStamp(const DangerStamp& stamp);
  /// Takes a stamp away again in one update. InvalidArgument for an id not in use.
  Status removeDangerStamp(std::uint32_t id);
  /// Doors on the edge between two neighbouring tiles. What a door means to the crowd is the
  /// field's door costs: by default open doors pass and closed and locked ones block (the
  /// crossing, and on square maps the diagonal steps past the door's ends, as for the planner);
  /// costs can let closed or locked doors pass at an extra cost in tile steps on cost-1 ground
  /// (monsters that bash doors in): one price for every closed door and one for every locked one,
  /// not the world's DoorPolicy (which the planner asks per door and traveller). Each call is one
  /// update, equal to a rebuild.
  struct DoorCosts {
    static constexpr float kBlocks = std::numeric_limits<float>::infinity();
    float closedCost = kBlocks;  ///< Extra tile steps to pass a closed door, or kBlocks. [0..1000]
    float lockedCost = kBlocks;  ///< The same for a locked door.
  };
  /// Adds the door between `a` and `b` (neighbours on the map), or changes its state.
  /// InvalidArgument when the tiles are off the map or not neighbours.
  Status setDoor(Cell a, Cell b, DoorState state);
  /// Takes the door between `a` and `b` away. InvalidArgument when there is none.
  Status removeDoor(Cell a, Cell b);
  /// New door costs (a rebuild). InvalidArgument for a cost that is negative, NaN, above 1000
  /// and not kBlocks.
  Status setDoorCosts(const DoorCosts& costs);
  const DoorCosts& doorCosts() const noexcept { return m_doorCosts; }
  std::size_t doorCount() const noexcept { return m_doors.size(); }
  /// 0: ignore danger (shortest paths); 255: the safest paths, distance almost ignored. A tile of
  /// cost c and danger d costs DangerMap::weightedCost(c, d, factor) = c + factor·d / (256 −
  /// factor), at most kMaxSearchCost: the characters' formula, so a horde and a character of the
  /// same factor price every route alike. Changes every tile's cost: a rebuild.
  void setDangerFactor(std::uint8_t factor);
  std::uint8_t dangerFactor() const noexcept { return m_factor; }
  /// A tile's danger: every layer's value added up, clamped to 255 (0 off the map).
  std::uint8_t danger(Cell cell) const noexcept { return m_danger.danger(cell); }
  const DangerMap& dangerMap() const noexcept { return m_danger; }

  /// Recomputes everything from the goals (what the incremental edits are checked against).
  void rebuild();
  /// What the last full build (setGoals, setSources, setDangerFactor, rebuild) cost: the
  /// integration field (distances), then the flow field read from it (directions; the vectors
  /// are computed on lookup, see flow()).
  struct BuildTimes {
    double integrationMicros = 0.0;
    double flowMicros = 0.0;
    /// Square 8-connected and hex maps of one weight (no sources, no costly doors) are
    /// integrated in three phases instead of by Dial's algorithm alone: routes scanned along
    /// straight lines (distances of real routes, maybe too high), a check of every tile against
    /// its neighbours, and Dial's algorithm from the tiles found too high (`repaired` of them),
    /// so the result is the same. The check's sweep also picks every tile's direction (those
    /// the repair changes are picked again after it), so on this path the directions are part
    /// of integrationMicros and flowMicros is 0. The phases' times; `canonical` false when the
    /// scan gave up (walls scattered everywhere: scanMicros is the time it took) or does not
    /// apply (all zero). A bounded field (setFollowers) scans too when its goals moved within
    /// its last settled area on an unchanged map; then only `canonical` is set (see there).
    bool canonical = false;
    double scanMicros = 0.0, checkMicros = 0.0, repairMicros = 0.0;
    std::int64_t repaired = 0;
  };
  const BuildTimes& lastBuild() const noexcept { return m_buildTimes; }

  /// What the last input (an edit, a goal change, a stamp, a rebuild) cost, counted in tile
  /// visits: tiles settled by the integration, looked at by a repair, or given a direction again.
  /// An edit repairs the field only while that is cheaper than a rebuild: its repair gives up
  /// and rebuilds once it has looked at repairAllowance() tiles, so an edit never visits more
  /// tiles than a rebuild plus the allowance. A rebuild visits the reachable tiles once and
  /// every tile once more for its direction.
  struct Work {
    std::int64_t tiles = 0;
    bool rebuilt = false;  ///< The input was answered by a full rebuild.
  };
  const Work& lastWork() const noexcept { return m_work; }
  /// How many tiles a repair may look at before it gives up for a rebuild: 1/kAllowanceShare of
  /// the map, at least kMinimumAllowance; 1/kScanAllowanceShare where a rebuild scans (square
  /// 8-connected and hex maps of one weight, no sources, no doors that cost extra: see BuildTimes), which
  /// costs a few nanoseconds a tile against some 25 for each tile a repair looks at.
  static constexpr std::int64_t kAllowanceShare = 32, kScanAllowanceShare = 128, kMinimumAllowance = 64;
  std::int64_t repairAllowance() const noexcept;

  // --- Bounded by followers ---
  /// A field for a crowd that stays near its goal (monsters round the player): the integration
  /// settles tiles outward from the goals only until every follower's tile is settled, then
  /// `marginTiles` steps of the cheapest ground further, and stops. Every settled tile is exact
  /// (equal to the whole map's field); tiles beyond are not settled: distance kUnreachable, no
  /// direction, settled() false. Every input afterwards (a goal step, an edit, danger) builds the
  /// bounded field again at the cost of the area it covers, not of the map; an edit wholly beyond
  /// it only records the new weights. Calling setFollowers again (each frame, with the
  /// followers' tiles) grows the field from where it stopped until every follower is covered: a
  /// follower that stepped outside gets its direction at the cost of the ring added. Followers off
  /// the map, on impassable tiles or cut off from every goal are left out (the field does not
  /// grow over the whole map for them; after an edit that opens ground they are looked for
  /// again). The first call turns the mode on (one pass over the map).
  ///
  /// On square 8-way maps of one weight (see BuildTimes), a goal step on an unchanged map is
  /// built by the canonical scan instead of Dial's algorithm: the last field bounds where the
  /// new one lies (a tile's distance changes by at most the goals' move), so the scan stops at
  /// a cap past the last limit and one sweep over the last area, a few tiles wider, keeps the
  /// tiles below the new stop with their directions, gives the tiles beside them their
  /// frontier values and checks every kept tile against its neighbours. The result is the one
  /// Dial's algorithm gives, array for array; where the check finds a route the scan missed,
  /// that build and the next sixteen go to Dial's algorithm. lastBuild().canonical tells
  /// which built the last one.
  void setFollowers(std::span<const Cell> followers, std::int32_t marginTiles = 8);
  /// Back to the whole map (a full rebuild).
  void clearFollowers();
  bool bounded() const noexcept { return m_bounded; }
  /// Within the settled area: the distance and direction are the whole map's field's. (On a
  /// field that is not bounded: reachable.)
  bool settled(Cell cell) const noexcept { return reachable(cell); }
  /// Tiles the bounded field has settled (the reachable tiles when not bounded).
  std::int64_t settledCount() const noexcept { return m_bounded ? m_settledTiles : reachableCount(); }

  // --- A goal that walks (tracking) ---
  /// The goal took a step (the player walked): the field follows at the cost of what changes
  /// near the goal, not of the map, and stays usable every frame. Every tile keeps its route
  /// (its old way to the last goal, then that goal's way on to the new one: the old goal now
  /// points at the new), and a wave from the new goal lowers the tiles to which it offers a
  /// cheaper route, spreading while they improve, up to trackingWave() tiles. So distances are
  /// no longer exact; what holds (tested on random square and hex maps):
  /// - from every reachable tile the directions reach the goal, each step legal, each step
  ///   downhill: a tile's distance is at least its step's cost plus the distance of the tile
  ///   it steps to, so a distance is never below the cost of the route the directions give,
  ///   nor below the exact distance;
  /// - a tile's distance exceeds the exact one by at most twice trackedTravel(), the cost of
  ///   the goal's walk since the goal of the last exact refresh (the tile's old route, up to
  ///   that much dearer than the exact one, plus the walk: tight for a tile the goal walked
  ///   towards);
  /// - the same tiles are reachable as in the exact field.
  /// An exact refresh runs in slices in the background (refreshTracking, each frame): a
  /// Dijkstra search from the goal as it was when the refresh began, on arrays of its own;
  /// when it has settled every reachable tile it replaces the field (a swap), the exact route
  /// from the goal back to where the refresh began is laid on it as the goal's walk, and a wave
  /// runs from the goal. With no walk since
  /// the last refresh, a refresh leaves the field exactly as a rebuild makes it (distances
  /// and directions, bit for bit).
  ///
  /// Applies to whole-map fields of one goal without door crossings that cost extra; a
  /// bounded field (setFollowers), a field with such doors, a goal that is not reachable from
  /// the old one (or only along a route of more than kTrackingChain tiles) take moveGoal()
  /// instead (exact, which ends tracking). InvalidArgument off the map or on a field that has
  /// not exactly one goal.
  ///
  /// Edits while tracking (costs, walls, danger, doors opened or closed) keep the rule at the
  /// cost of the routes they touch: the tiles whose step they broke and every tile whose route
  /// runs through those are planned again from the tiles round them; ground made cheaper lowers
  /// what a wave from it reaches (trackingWave()); the running refresh goes on where the edit
  /// lies beyond what it has read and starts again otherwise. Where
  /// the repair would cost more than a rebuild (repairAllowance()), or ground opens onto ground
  /// the field did not reach, the field is rebuilt, exact, and goes on tracking. Until the next
  /// refresh lands after an edit that made routes cheaper, distances may exceed the bound
  /// above (they are still costs of real routes). Goals added or removed, sources, danger
  /// factors, door costs, a door whose crossing costs extra, setFollowers and rebuild() end
  /// tracking (an exact build).
  ///
  /// The first step from an exact field re-bases every distance (one pass over the map: call
  /// startTracking() when the field is built to have it then); the refresh's arrays take 9
  /// bytes a tile more.
  Status trackGoal(Cell to);
  /// Re-bases the distances for tracking now (see trackGoal), on a whole-map field of one goal
  /// without costly door crossings; InvalidArgument on others. Distances do not change.
  Status startTracking();
  /// Works on the exact refresh for at most `tileBudget` tile visits (a visit settles one tile,
  /// or clears 16 tiles' entries) and, when `micros` > 0, until that many microseconds have
  /// passed (the clock is read every 32 visits, so the overshoot is at most 32 visits); returns the visits made. Starts a refresh when none runs and the
  /// field is not exact(); does nothing when not tracking. Followers read valid
  /// directions between the slices.
  std::int64_t refreshTracking(std::int64_t tileBudget, double micros = 0.0);
  bool tracking() const noexcept { return m_tracking; }
  /// The field is what a rebuild would make of it now (distances and directions): not tracking,
  /// or tracking with neither a goal step nor an edit since the last refresh landed (or it
  /// began). A refresh starts only when this is false.
  bool exact() const noexcept { return !m_tracking || m_exactNow; }
  /// The cost of the goal's walk (fixed point) since the goal of the last exact refresh (0 when
  /// not tracking): the bound on how far a distance exceeds the exact one is twice this.
  std::int64_t trackedTravel() const noexcept { return m_tracking ? m_travel : 0; }
  /// True while a refresh is under way (started and not yet installed).
  bool refreshing() const noexcept { return m_refreshPhase != RefreshPhase::idle; }
  /// How many refreshes have landed since the field was made (how fresh the field is: a game can
  /// watch it grow).
  std::uint64_t refreshesLanded() const noexcept { return m_refreshesLanded; }
  /// The most tiles one step's wave settles: by default a 32nd of the map, at least
  /// kMinTrackingWave and at most kTrackingWave (on small maps a refresh lands in a frame or
  /// two; the wave is for the big ones). 0: no wave, the field only follows the goal's trail
  /// until a refresh lands.
  void setTrackingWave(std::int64_t tiles) noexcept { m_trackingWave = std::max<std::int64_t>(tiles, 0); }
  std::int64_t trackingWave() const noexcept { return m_trackingWave; }
  static constexpr std::int64_t kTrackingWave = 1024, kMinTrackingWave = 64;
  static constexpr std::size_t kTrackingChain = 64;

  // --- Lookups ---
  /// The cost from a tile to the nearest goal (fixed point, see kStep), or kUnreachable (also
  /// beyond a bounded field's settled area).
  std::int64_t distance(Cell cell) const noexcept {
    if (!m_costs.contains(cell)) return kUnreachable;
    const std::int64_t d = m_distance[padded(cell)];
    return d < m_limit ? d - m_base : kUnreachable;
  }
  bool reachable(Cell cell) const noexcept { return distance(cell) != kUnreachable; }
  /// The step to take from a tile (see kNoDirection).
  std::uint8_t direction(Cell cell) const noexcept {
    return m_costs.contains(cell) ? m_direction[padded(cell)] : kNoDirection;
  }
  /// The unit vector to steer by at a tile (world axes): the downhill neighbours' directions
  /// blended by how fast they descend, so crowds spread over equal routes; where two equally good
  /// ways cancel out, the direction's neighbour. Zero on goal tiles and on tiles from which no
  /// goal is reachable. Not stored: computed on lookup from the tile's direction and its
  /// neighbours' distances (a few loads and float operations; the same bits every time).
  Vec2 flow(Cell cell) const noexcept;
  /// The flow at a world point (its tile's).
  Vec2 flowAt(Vec2 world) const noexcept {
    return world.allFinite() ? flow(m_costs.layout().tileAt(world)) : Vec2::Zero();
  }
  /// Tiles reached by the last rebuild or edit (for pictures and statistics).
  std::int64_t reachableCount() const noexcept;
  /// A hash of every distance and direction (FNV-1a).
  std::uint64_t digest() const noexcept;

  /// Bit-identical fields: distances (as distance() reports them: a tracked field equals a
  /// rebuild when exact()) and directions (and so flow vectors, computed from them and the costs).
  friend bool operator==(const CrowdField& a, const CrowdField& b) noexcept {
    return a.sameField(b);
  }

 private:
  // operator==: the same reported distances (stored values less each field's base) and
  // directions.
  bool sameField(const CrowdField& other) const noexcept;
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
  Work m_work;
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
  BuildTimes m_buildTimes;
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

/// Sectors for big maps (Emerson, "Crowd Pathfinding and Steering Using Flow Field Tiles", Game
/// AI Pro, 2013): the map cut into square sectors of `size` tiles, with portals where runs of
/// enterable tiles face each other across a sector border, and the cost between the portals of
/// each sector measured once. For a goal, a search over the portal graph prices every portal;
/// a sector's field (towards its exits, each priced by the portal graph, or the goal itself) is
/// built only when a character asks about a tile in it, and cached for that goal, shared by
/// every character. Routes are as good as the portal graph allows (a portal is priced at its
/// middle), not exactly the whole-map field's; a walk's value falls at every step, across
/// borders too (an exit is a sink priced at no less than the next sector gives it), so walks
/// never loop. Square and hex maps. Lookups build on demand: not for several threads at once
/// (build the sectors first with prepare() to share one between threads).
class RPGNAV_API SectorFields {
 public:
  static constexpr int kMaxSectorSize = 4096;
  /// `size` is clamped to 4..kMaxSectorSize and rounded up to an even number (hex rows keep their
  /// parity).
  explicit SectorFields(const CostField& costs, int size = 32);
  // Explicit, so that exporting the class from a DLL does not try to make copies of its fields.
  SectorFields(const SectorFields&) = delete;
  SectorFields& operator=(const SectorFields&) = delete;
  SectorFields(SectorFields&&) noexcept = default;
  SectorFields& operator=(SectorFields&&) noexcept = default;
  /// A new goal: prices the portals; sector fields are built again as asked for. InvalidArgument
  /// off the map; an impassable goal makes every tile unreachable.
  Status setGoal(Cell goal);
  std::uint8_t direction(Cell cell);
  Vec2 flow(Cell cell);
  /// The cost to the goal through the portals, or CrowdField::kUnreachable.
  std::int64_t distance(Cell cell);
  bool reachable(Cell cell) { return distance(cell) != CrowdField::kUnreachable; }
  /// Builds the field of the sector holding `cell` now.
  void prepare(Cell cell);
  int sectorCount() const noexcept { return m_columns * m_rows; }
  int sectorsBuilt() const noexcept;
  int portalCount() const noexcept { return int(m_portals.size()); }
  int size() const noexcept { return m_size; }

 private:
  struct Node {  // one side of a portal: its middle tile, in its sector
    Cell cell;
    int sector;
    int partner;  // the node across the border
    std::int64_t crossing;  // the step from this node's tile onto the partner's
    std::vector<std::pair<int, std::int64_t>> inward;  // (node v of this sector, cost v → this)
  };
  int sectorOf(Cell cell) const noexcept { return (cell.y / m_size) * m_columns + cell.x / m_size; }
  Cell originOf(int sector) const noexcept { return {(sector % m_columns) * m_size - 2, (sector / m_columns) * m_size - 2}; }
  CrowdField& fieldOf(int sector);
  // The sector's tiles with a ring of two round it, all closed (impassable).
  CostField sectorCosts(int sector) const;

  CostField m_costs;
  int m_size;
  int m_columns, m_rows;
  std::vector<Node> m_nodes;
  std::vector<std::pair<int, int>> m_portals;  // node pairs
  std::vector<std::vector<int>> m_sectorNodes;  // per sector
  Cell m_goal{-1, -1};
  std::vector<std::int64_t> m_price;  // per node: cost to the goal
  std::vector<std::unique_ptr<CrowdField>> m_fields;  // per sector, built on demand
};

/// Moves characters along a crowd field: from tile centre to tile centre along the field's
/// directions (legal steps only, so a follower never enters a tile its mobility forbids), a
/// distance per call. Stateless: one follower serves any number of characters (positions are
/// theirs). Thread-safety: const, safe from any thread while the field is not edited.
class RPGNAV_API FieldFollower {
 public:
  struct Step {
    Vec2 position = Vec2::Zero();
    Vec2 heading = Vec2::Zero();  ///< Unit direction of the move (zero when it did not move).
    bool arrived = false;         ///< It stands on the centre of a goal tile.
  };
  /// Moves `distance` world units (negative, NaN and infinite count as 0) from `position`. A
  /// position off the map, on an impassable tile or one from which no goal is reachable stays.
  static Step advance(const CrowdField& field, Vec2 position, double distance) noexcept;
};

}  // namespace rpgnav
