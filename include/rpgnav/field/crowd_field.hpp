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
#include "rpgnav/core/limits.hpp"
#include "rpgnav/core/status.hpp"
#include "rpgnav/field/cost_field.hpp"
#include "rpgnav/grid/danger_map.hpp"
#include "rpgnav/grid/door_state.hpp"
#include "rpgnav/grid/tile_map.hpp"

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
  /// Copies are whole fields (a copy and its original are edited apart). A moved-from field may
  /// only be assigned to or destroyed.
  CrowdField(const CrowdField& other);
  CrowdField& operator=(const CrowdField& other);
  CrowdField(CrowdField&& other) noexcept;
  CrowdField& operator=(CrowdField&& other) noexcept;
  ~CrowdField();

  const CostField& costs() const noexcept;

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
  const std::vector<Cell>& goals() const noexcept;
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
  /// (clamped to 255); `layer` counts from 0, below kMaxDangerLayers. Incremental.
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
  const DoorCosts& doorCosts() const noexcept;
  std::size_t doorCount() const noexcept;
  /// 0: ignore danger (shortest paths); 255: the safest paths, distance almost ignored. A tile of
  /// cost c and danger d costs DangerMap::weightedCost(c, d, factor) = c + factor·d / (256 −
  /// factor), at most kMaxSearchCost: the characters' formula, so a horde and a character of the
  /// same factor price every route alike. Changes every tile's cost: a rebuild.
  void setDangerFactor(std::uint8_t factor);
  std::uint8_t dangerFactor() const noexcept;
  /// A tile's danger: every layer's value added up, clamped to 255 (0 off the map).
  std::uint8_t danger(Cell cell) const noexcept;
  const DangerMap& dangerMap() const noexcept;

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
  /// What the field's last inputs cost, for the tool, benchmarks and checks (a game never needs
  /// it): the last full build's times and the last input's work.
  struct Diagnostics {
    BuildTimes build;
    Work work;
  };
  const Diagnostics& diagnostics() const noexcept;
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
  /// that build and the next sixteen go to Dial's algorithm. diagnostics().build.canonical tells
  /// which built the last one.
  void setFollowers(std::span<const Cell> followers, std::int32_t marginTiles = 8);
  /// Back to the whole map (a full rebuild).
  void clearFollowers();
  bool bounded() const noexcept;
  /// Within the settled area: the distance and direction are the whole map's field's. (On a
  /// field that is not bounded: reachable.)
  bool settled(Cell cell) const noexcept { return reachable(cell); }
  /// Tiles the bounded field has settled (the reachable tiles when not bounded).
  std::int64_t settledCount() const noexcept;

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
  bool tracking() const noexcept;
  /// The field is what a rebuild would make of it now (distances and directions): not tracking,
  /// or tracking with neither a goal step nor an edit since the last refresh landed (or it
  /// began). A refresh starts only when this is false.
  bool exact() const noexcept;
  /// The cost of the goal's walk (fixed point) since the goal of the last exact refresh (0 when
  /// not tracking): the bound on how far a distance exceeds the exact one is twice this.
  std::int64_t trackedTravel() const noexcept;
  /// True while a refresh is under way (started and not yet installed).
  bool refreshing() const noexcept;
  /// How many refreshes have landed since the field was made (how fresh the field is: a game can
  /// watch it grow).
  std::uint64_t refreshesLanded() const noexcept;
  /// The most tiles one step's wave settles: by default a 32nd of the map, at least
  /// kMinTrackingWave and at most kTrackingWave (on small maps a refresh lands in a frame or
  /// two; the wave is for the big ones). 0: no wave, the field only follows the goal's trail
  /// until a refresh lands.
  void setTrackingWave(std::int64_t tiles) noexcept;
  std::int64_t trackingWave() const noexcept;
  static constexpr std::int64_t kTrackingWave = 1024, kMinTrackingWave = 64;
  static constexpr std::size_t kTrackingChain = 64;

  // --- Lookups ---
  /// The cost from a tile to the nearest goal (fixed point, see kStep), or kUnreachable (also
  /// beyond a bounded field's settled area).
  std::int64_t distance(Cell cell) const noexcept;
  bool reachable(Cell cell) const noexcept { return distance(cell) != kUnreachable; }
  /// The step to take from a tile (see kNoDirection).
  std::uint8_t direction(Cell cell) const noexcept;
  /// The unit vector to steer by at a tile (world axes): the downhill neighbours' directions
  /// blended by how fast they descend, so crowds spread over equal routes; where two equally good
  /// ways cancel out, the direction's neighbour. Zero on goal tiles and on tiles from which no
  /// goal is reachable. Not stored: computed on lookup from the tile's direction and its
  /// neighbours' distances (a few loads and float operations; the same bits every time).
  Vec2 flow(Cell cell) const noexcept;
  /// The flow at a world point (its tile's).
  Vec2 flowAt(Vec2 world) const noexcept;
  /// Tiles reached by the last rebuild or edit (for pictures and statistics).
  std::int64_t reachableCount() const noexcept;
  /// A hash of every distance and direction (FNV-1a).
  std::uint64_t digest() const noexcept;

  /// Bit-identical fields: distances (as distance() reports them: a tracked field equals a
  /// rebuild when exact()) and directions (and so flow vectors, computed from them and the costs).
  friend RPGNAV_API bool operator==(const CrowdField& a, const CrowdField& b) noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
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
  /// `size` is clamped to kMinSectorSize..kMaxSectorSize and rounded up to an even number (hex rows keep their
  /// parity).
  explicit SectorFields(const CostField& costs, int size = 32);
  // Explicit, so that exporting the class from a DLL does not try to make copies of its fields.
  SectorFields(const SectorFields&) = delete;
  SectorFields& operator=(const SectorFields&) = delete;
  SectorFields(SectorFields&&) noexcept;
  SectorFields& operator=(SectorFields&&) noexcept;
  ~SectorFields();
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
  int sectorCount() const noexcept;
  int sectorsBuilt() const noexcept;
  int portalCount() const noexcept;
  int size() const noexcept;

 private:
  // The portal graph, the nodes' prices and the sectors' fields (lib/field/sector_fields.cpp).
  struct Impl;
  std::unique_ptr<Impl> m_impl;
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
