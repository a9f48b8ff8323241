// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// A* over a SearchGrid: requests, results, and the reusable SearchContext that runs them.

#include "rpgnav/core/status.hpp"
#include "rpgnav/core/types.hpp"
#include "grid/clearance.hpp"
#include "grid/segment_tester.hpp"
#include "core/zeroed_array.hpp"
#include "search/anya_search.hpp"
#include "search/search_grid.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace rpgnav {

/// How one query may cross a gate (see SearchGate).
struct GateCrossing {
  bool open = true;  ///< False: the edge is a wall for this query.
  /// A wall wherever it is not crossed (a closed door stays solid even when the query plans
  /// through it): square diagonal steps past the gate's ends are not taken, nor, when the grid
  /// closes narrow hex gaps, hex steps across an edge whose other end is obstructed too.
  bool solid = false;
  std::int64_t cost = 0;  ///< Extra cost units for crossing (>= 0).
};

/// The query's view of the grid's gates. Asked from the searching thread during findPath/resume,
/// never concurrently by one search (several searches on several threads may share a rule only if
/// it is thread-safe; the planner gives each query its own); a suspended search keeps the pointer,
/// so the rule must outlive it.
class GateRule {
 public:
  virtual ~GateRule() = default;
  /// How gate `gate` (its index in SearchGrid::build's list) may be crossed. May be asked more
  /// than once per gate and query; keep the answer the same within a query.
  virtual GateCrossing crossing(std::uint32_t gate) const = 0;
  /// Any-angle search: true when the straight segment from→to (world units) comes within
  /// `radius` of a gate's edge or crosses it. Such shortcuts are not taken: the route crosses
  /// gates by tile steps, paying their costs.
  virtual bool segmentMeetsGate(Vec2 from, Vec2 to, float radius) const = 0;
};

/// One tile-to-tile query.
struct SearchRequest {
  Cell start;
  Cell goal;
  /// When the goal tile cannot be entered, does not fit the body, or cannot be reached, plan to
  /// the reachable tile whose centre is nearest to `nearestTo` instead (of several equally near,
  /// the cheapest to reach); the result is then PartialPath, `reached` the tile chosen. Reachable
  /// means by this search's own rules: its mobility, gates (closed doors) and body width. How:
  /// the tiles of the start's region the body fits on are scanned in rings round the target for
  /// the nearest ones (region connectivity ignores gates and widths, so it may promise more than
  /// the search can reach); one such tile is searched for as a goal (jump points and all), several
  /// equally near are searched for at once (the first closed is the cheapest: tile by tile, the
  /// heuristic the least over them); and when the search runs dry without reaching one (a door
  /// the query may not pass, a gap too narrow for the body), it floods every tile it can reach
  /// (Dijkstra, tile by tile) and takes the nearest of those, ties by cost. The flood costs the
  /// reachable area; like any search it stops at the request's limits and resumes.
  /// Several equally near tiles and the flood run as the 8-way/hex tile search even when sight
  /// lines are asked for (their result has no `vertices`).
  bool nearestIfUnreachable = false;
  /// The point (world units) the nearest reachable tile is measured from; default the goal
  /// tile's centre. It may lie off the map.
  std::optional<Vec2> nearestTo;
  /// Node expansions allowed in this call (0 means no limit), and a wall-clock deadline (see
  /// SearchLimit). When either runs out the result is InProgress and SearchContext::resume
  /// continues where the search stopped.
  std::int64_t maxExpansions = 0;
  SearchLimit::Clock::time_point deadline = SearchLimit::Clock::time_point::max();
  /// Jump point pruning on 8-connected square maps, and on hex maps of one cost for narrow
  /// bodies without gates (hex_jumps.cpp). The cost found is the same either way (the search
  /// stays exactly optimal); the path may be a different one of equal cost, and fewer tiles are
  /// expanded.
  bool jumpPoints = true;
  /// False: SearchResult::path holds only the nodes the search linked the route through, start
  /// to goal, without the tiles between them: with jump points, the jump points, as jump point
  /// search libraries return a path (from each to the next the route runs diagonally first,
  /// then straight; fillJumpRoute makes the tiles); without, every tile anyway. For callers who
  /// want the cost, the length or the corners only: it saves writing the tiles (under 3% of a
  /// query on brc202d and Aftershock, 8-13% on Berlin and AR0011SR, whose routes are long for
  /// their few expansions). The cost and length are the same. Any-angle searches (`sightLines`) return
  /// every tile regardless.
  bool tilePath = true;
  /// Any-angle search (Theta*, Nash, Daniel, Koenig & Felner 2007) when set: a tile's parent may
  /// be any tile it sees, not only a neighbour. Relaxing tile s from tile n, the search also
  /// tries the straight segment from n's parent to s, probed with this tester at `radius`, and
  /// keeps it when it is clear and cheaper than going through n. Costs are then segment
  /// lengths × terrain costs, the heuristic is the straight-line distance × the cheapest cost,
  /// and the route found passes each obstacle on the side an any-angle path would, which the
  /// 8-way (octile) metric often gets wrong: its lengths overrate some directions by up to 8%.
  /// Not optimal (no Theta* is), and far slower than the 8-way search: every neighbour is
  /// expanded (jump points prune by the 8-way metric's symmetries, which straight segments do
  /// not have) and most relaxations probe a segment. The tester must be for the grid's map
  /// version and mobility; `jumpPoints` is ignored.
  const SegmentTester* sightLines = nullptr;
  /// Character radius for the any-angle probes, in world units; on hex maps under half a hex
  /// edge (kHexHalfEdge × tile size), since between hex neighbours' centres a wider character
  /// does not always fit (InvalidArgument otherwise; the Planner uses the tile search for them).
  float radius = 0.0f;
  /// Any-angle search only: the world points the route starts and ends at, inside the start and
  /// goal tiles (default: their centres). The search runs between the tiles' centres; the route
  /// adds the pieces from and to these points (StartBlocked / GoalBlocked when such a piece is
  /// not clear) and cuts a centre out where the next point is seen directly at no more cost.
  std::optional<Vec2> startPoint;
  std::optional<Vec2> goalPoint;
  /// Any-angle search only: the exact shortest route (Anya: see AnyaSearch) instead of Theta*, on
  /// 8-way square maps of one cost without gates (InvalidArgument otherwise). The route is the
  /// shortest at radius 0, whatever `radius` says: it runs along walls and turns on their
  /// corners, so its `vertices` and `through` points are clear at radius 0 only. Its tiles are a
  /// legal tile path along it, on its side of every obstacle.
  bool exactAnyAngle = false;
  /// What the grid's gates mean in this query; nullptr: every gate is open and free.
  const GateRule* gates = nullptr;
  /// Characters of any size: the clearance of the grid's map and mobility, and the
  /// body's radius in tiles, 0 to 3. The search then keeps to tiles where the body fits
  /// (Clearance::fits: no tile it cannot enter, and not the map's edge, within the radius of the
  /// centre), and steps from tile to tile only where the tiles round the step fit too: for a
  /// square diagonal the two tiles beside it, for a hex step the two tiles next to both ends
  /// (then the whole segment between the centres keeps the radius: the least distance along it
  /// is never below those four centres' least). Straight square steps need only their two ends.
  /// Gates that are walls for the query (GateCrossing::solid: closed doors) are kept at the radius
  /// too: a step whose segment comes closer to one than the radius is not taken, unless it
  /// crosses that very gate. On 8-connected square maps jumps are walked on the tiles the body
  /// fits on; on a grid with gates the search expands tile by tile. Not with `sightLines` or
  /// `nearestIfUnreachable` (InvalidArgument). A start or goal tile the body does not fit on is
  /// StartBlocked / GoalBlocked; no route wide enough is NoPath with a reason saying so.
  const Clearance* clearance = nullptr;
  double bodyTiles = 0.0;
};

/// The answer to a SearchRequest. Reuse one object across queries: its path keeps its capacity.
struct SearchResult {
  Status status = Status::InvalidArgument;
  /// Why the search failed (a static string), empty on success.
  const char* reason = "";
  /// Tiles from start to goal inclusive, each a legal move from the previous one; with
  /// SearchRequest::tilePath false, the nodes the route was linked through instead.
  std::vector<Cell> path;
  /// Any-angle search only: the route's vertices, start point to goal point, in world units,
  /// joined by clear segments (probed on these float points; the exact search's at radius 0). Empty after an 8-way search, whose
  /// route runs centre to centre.
  std::vector<Vec2> vertices;
  /// Any-angle search only: for each of `vertices`, the index in `path` of its tile (0 for the
  /// start point, the last for the goal point); non-decreasing.
  std::vector<std::int32_t> vertexTiles;
  /// Any-angle search only: for each tile of `path`, a world point of the route in it: the
  /// route's vertex where it turns in that tile, else the middle of the route's crossing of the
  /// tile (or where it passes a side tile's corner). Those are rounded to float, so only the
  /// vertices lie exactly on the route: a polyline through the others can kink by a rounding step
  /// into a corner the route grazes.
  std::vector<Vec2> through;
  /// The tile the path ends on: the goal, or the nearest reachable tile for PartialPath.
  Cell reached;
  /// Weighted travel cost in fixed-point units (kCostScale per cost-1 tile step).
  std::int64_t costUnits = 0;
  /// Weighted travel cost in world units per tile size: Σ over steps of half the step's length ×
  /// the cost of each of its two tiles (the geometric cost of the polyline through the tiles'
  /// centres; see kCostScale). Any-angle search: the route's segments, priced by probeSegment.
  double cost = 0.0;
  /// Geometric length in tiles: straight steps count 1, square diagonals √2 (any-angle: the
  /// length of the route's segments).
  double length = 0.0;
  /// Nodes expanded by this search, over all its slices.
  std::int64_t expanded = 0;
  /// Entries this search put on its open list, over all its slices (a node reached again more
  /// cheaply counts again).
  std::int64_t generated = 0;
};

/// The tiles of an 8-way square route given by the nodes a search linked it through
/// (SearchRequest::tilePath false: its jump points), start to goal: from each to the next,
/// diagonal steps first, then straight ones, as jumps travel. Replaces what `tiles` held (the
/// nodes may be in `tiles` itself).
void fillJumpRoute(std::span<const Cell> nodes, std::vector<Cell>& tiles);

/// fillJumpRoute for hex jump points: from each node to the next the route takes the primary
/// steps, then the secondary ones (HexDirections::split).
void fillHexJumpRoute(const Layout& layout, std::span<const Cell> nodes, std::vector<Cell>& tiles);

/// Scratch memory and state for A* searches. Reusable: once warm, queries allocate nothing. The
/// nodes of a jump point search on a map of one cost live in a small table (4,096 slots, 80 KB:
/// enough for most such searches), so a thread that runs only those holds a few percent of the
/// map's shared navigation data. A search that outgrows the table, and every other search
/// (weighted maps, hexes, 4-way, any-angle), uses an array of a node per tile (16 bytes a tile),
/// made on first need and kept. No cold first query: the table and the first stretch of the open
/// list are made with the context; a context made for a grid (reserveFor) makes the node array
/// then, resident on maps up to kResidentNodeBytes of nodes; otherwise it comes as pages of
/// zeroes that the operating system hands out when a search first touches them (ZeroedArray),
/// so a first search pays for the tiles it touches, not for the map.
///
/// Thread-safety: one SearchContext per thread. A context may search any SearchGrid; grids are
/// shared read-only. A suspended (InProgress) search keeps a pointer to its grid, which must
/// stay alive and unchanged until the search finishes or a new one starts.
///
/// Determinism: neighbours are visited in a fixed order and open-list ties are broken on f, then
/// the larger g, then the smaller tile index, so equal inputs give identical paths.
class SearchContext {
 public:
  /// What a context makes when it is made: the tile search's table (the default), or nothing
  /// yet (reserveTiles, reserveFor and reserveExact make their part; a search makes what it
  /// needs on first use).
  enum class Scratch { Tiles, None };
  SearchContext();
  explicit SearchContext(Scratch scratch);
  /// A context sized for searches on `grid` (see reserveFor).
  explicit SearchContext(const SearchGrid& grid);
  SearchContext(const SearchContext&) = delete;
  SearchContext& operator=(const SearchContext&) = delete;
  SearchContext(SearchContext&&) noexcept = default;
  SearchContext& operator=(SearchContext&&) noexcept = default;

  /// Bytes held (arrays' capacities): the node table, the node array, the open list, and the
  /// any-angle searches' scratch.
  std::size_t memoryBytes() const noexcept {
    return sizeof(*this) + m_compactKeys.capacity() * sizeof(std::uint32_t) +
           m_compactNodes.capacity() * sizeof(Node) + m_compactFilled.capacity() * sizeof(std::uint16_t) +
           m_nodes.size() * sizeof(Node) +
           m_heap.capacity() * sizeof(HeapEntry) + m_chain.capacity() * sizeof(Cell) + bucketBytes() +
           m_exact.memoryBytes() + m_localRoute.capacity() * sizeof(Eigen::Vector2d);
  }

  /// The tile search's table (a context made with Scratch::None has none until now).
  void reserveTiles();
  /// Makes the memory that tile searches on `grid` will use, now: the table, and for a grid whose
  /// default searches keep their nodes in the array (weighted, hex or 4-way; see the class), the
  /// array, with every page handed out by the system when it takes at most kResidentNodeBytes
  /// (maps up to about 1,400 × 1,400 tiles; larger ones keep pages handed out on first touch, so
  /// a thread holds what its searches touch), so the first search costs what the next ones do.
  /// No array for a map of one cost on 8-way squares, whose searches fit the table (a thread's
  /// memory stays small). Ends a suspended search when it makes a new array. Throws std::bad_alloc when the
  /// memory cannot be had.
  void reserveFor(const SearchGrid& grid);
  /// The exact any-angle search's scratch made now (about 60 KB: room for short searches),
  /// for contexts that will run it (SearchRequest::exactAnyAngle).
  void reserveExact() { m_exact.reserve(); }
  static constexpr std::size_t kResidentNodeBytes = std::size_t(32) << 20;

  /// Runs a query (or its first slice); the status is also in out.status.
  /// Statuses: Ok, PartialPath, NoPath, StartBlocked, GoalBlocked, OutOfBounds, InProgress.
  Status findPath(const SearchGrid& grid, const SearchRequest& request, SearchResult& out);
  /// Continues a search that returned InProgress with a fresh budget.
  /// InvalidArgument when there is no suspended search.
  Status resume(SearchLimit limit, SearchResult& out);
  Status resume(std::int64_t maxExpansions, SearchResult& out) { return resume(SearchLimit{maxExpansions}, out); }
  /// True when the last search kept its nodes in the compact table (a jump point search on a map
  /// of one cost that touched few tiles); false when they went to the node array (see the class).
  bool nodesInTable() const noexcept { return !m_inArray; }
  /// True while a search is suspended on its budget.
  bool suspended() const noexcept { return m_suspended; }

 private:
  // 16 bytes, so more of the node array stays in cache. `stamp` packs the search generation
  // (upper 28 bits; a node is fresh in this search only when it matches), the closed flag
  // (bit 3) and the direction of the last move into the node (bits 0-2, for jump pruning).
  struct Node {
    std::int64_t g;
    std::int32_t parent;
    std::uint32_t stamp;
  };
  static constexpr std::uint32_t kClosedBit = 8;
  static constexpr std::uint32_t kGenerationLimit = 1u << 28;

  // Where a search keeps its nodes. Jump point searches on a map of one cost touch few,
  // scattered tiles (on the Moving AI city and Dragon Age maps at most about 1,300 per search, a
  // tile in a few hundred); other searches touch whole areas. So such a search starts in a small
  // open-addressed table that a thread's searches share, and moves its nodes to an array of a
  // node per tile when it fills half of it; other searches use the array from the start. (Pages
  // of tiles handed out on first touch instead of the array held less memory for large searches
  // but made them 7-40% slower on weighted maps and hexes: the extra lookup and the scattered
  // pages cost more cache misses than the array's rows.)
  //
  // The table: kCompactSlots keys (padded index + 1, 0 for a free slot) beside their nodes,
  // linear probing; the slots a search filled are listed so the next one frees just those.
  static constexpr std::uint32_t kCompactBits = 12;
  static constexpr std::uint32_t kCompactSlots = 1u << kCompactBits;
  static constexpr std::uint32_t kCompactLimit = kCompactSlots / 2;  // probes stay short

  static std::uint32_t compactHome(std::int32_t index) noexcept {
    return (std::uint32_t(index) * 0x9E3779B1u) >> (32 - kCompactBits);  // Fibonacci hashing
  }
  // The node of a padded tile, made (unseen: stamp 0) on first touch. Touching a new tile may
  // move every node (the search moves to the array): hold no reference to a node across a call
  // that can touch a new tile.
  Node& node(std::int32_t index) {
    if (m_inArray) return m_nodes[std::size_t(index)];
    const std::uint32_t key = std::uint32_t(index) + 1;
    for (std::uint32_t slot = compactHome(index);; slot = (slot + 1) & (kCompactSlots - 1)) {
      const std::uint32_t found = m_compactKeys[slot];
      if (found == key) return m_compactNodes[slot];
      if (found == 0) return newCompactNode(slot, index);
    }
  }
  Node& newCompactNode(std::uint32_t slot, std::int32_t index);
  void makeScratch();
  void moveToArray();
  std::size_t bucketBytes() const noexcept {
    std::size_t bytes = m_buckets.capacity() * sizeof(std::vector<HeapEntry>) + m_beyond.capacity() * sizeof(HeapEntry);
    for (const auto& bucket : m_buckets) bytes += bucket.capacity() * sizeof(HeapEntry);
    return bytes;
  }
  // A node this search has touched.
  const Node& nodeAt(std::int32_t index) const {
    if (m_inArray) return m_nodes[std::size_t(index)];
    std::uint32_t slot = compactHome(index);
    while (m_compactKeys[slot] != std::uint32_t(index) + 1) slot = (slot + 1) & (kCompactSlots - 1);
    return m_compactNodes[slot];
  }
  struct HeapEntry {
    std::int64_t f;
    std::int64_t g;
    std::int32_t node;
    std::uint32_t slot;  // the node's compact-table slot while the search is in the table
  };
  // The compact-table slot of a node in the table (0 once the search is in the array): a heap
  // entry carries it, so popping needs no second probe.
  std::uint32_t slotOf(const Node& n) const noexcept {
    return m_inArray ? 0 : std::uint32_t(&n - m_compactNodes.data());
  }

  Status run(SearchLimit limit, SearchResult& out);
  // Sets up the tile search from m_start to m_goal (or, m_goal < 0, to m_goalSet or the flood)
  // and pushes the start; `start` is its cell.
  void startTileSearch(const SearchGrid& grid, Cell start);
  // nearestIfUnreachable: the search ran dry; starts the flood of every reachable tile (false
  // when this search was the flood, or the request did not ask).
  bool startFlood();
  // The first tile of m_goalSet closed, or the flood's nearest so far: true when `node`, just
  // closed, ends the search (it is then m_goal).
  bool closesNearest(std::int32_t node);
  // The search's end at goal m_goal (a tile set's member or the flood's choice): the path and status.
  Status reachedGoal(SearchResult& out);
  void expandAll(std::int32_t node, std::int64_t g);
  // For a step from padded tile `from` to its neighbour `to` (a square diagonal when `a` and `b`,
  // the two orthogonal neighbours it passes, are >= 0): false when a gate forbids it, else adds
  // the gates' costs to `cost`.
  bool gateAllows(std::int32_t from, std::int32_t to, std::int32_t a, std::int32_t b, std::int64_t& cost) const;
  // True when a gate sits on the edge between padded tiles a and b and is a wall for this query
  // wherever it is not crossed (GateCrossing::solid).
  bool solidGate(std::int32_t a, std::int32_t b) const;
  // A wide body's step from padded tile `from` to its neighbour `to`: true when the segment
  // between their centres comes within the body's radius of a gate that is a wall for this query
  // (GateCrossing::solid), the gate the step crosses excepted.
  bool stepMeetsWall(std::int32_t from, std::int32_t to) const;
  // How a jump point search reads the tiles. kPlain: a map of one cost without gates (every
  // passable tile is uniform), where the jump table alone says which neighbours are open (an
  // entry of -1: the next tile that way is blocked), so a step reads one array where the others
  // read three. kWeighted: the cost classes and uniform flags too. kFitting: a body wider than a
  // tile, on the tiles it fits on (m_fitCodes), with the jumps walked tile by tile (the grid's
  // jump tables know no sizes).
  enum class JumpTiles { kPlain, kWeighted, kFitting };
  // Whether a jump that ends on `target` by a step (dx, dy) is worth generating there: on weighted
  // maps a tile where costs change with no canonical successor for that way in leads nowhere
  // (JPSW), unless it is the goal; every other end is.
  template <JumpTiles kTiles>
  bool leadsOn(std::int32_t target, std::int32_t dx, std::int32_t dy) const noexcept {
    if constexpr (kTiles != JumpTiles::kWeighted) {
      return true;
    } else {
      return leadsOnAfter(target, SearchGrid::directionCode(dx, dy));
    }
  }
  // The same for a jump that ends on `target` by a step of arrival code `arrival` (the square
  // code of directionCode, or a hex direction): hex runs ask it directly.
  bool leadsOnAfter(std::int32_t target, int arrival) const noexcept {
    const SearchGrid& grid = *m_grid;
    // (Uniform tiles and those near a gate keep every way: one byte answers.)
    return target == m_goal || grid.canonicalSuccessors(target, arrival) != 0;
  }
  template <JumpTiles kTiles>
  void expandJumpPoint(std::int32_t node, Node here);
  // Hex jump points (maps of one cost, narrow bodies, no gates; hex_jumps.cpp). A primary run
  // from `origin` in `direction`, with the secondary run from each of its tiles, relaxing what
  // they find as successors of `origin`.
  void expandHexJumpPoint(std::int32_t node, Node here);
  void hexPrimaryRun(std::int32_t origin, Axial originAxial, bool shifted, std::int64_t g, int direction);
  // A secondary run from padded tile `from` (at `fromAxial`, its row or column `shifted`): the
  // padded tile it stops on (the goal, or a tile with a forced neighbour; `steps` away) or -1.
  std::int32_t hexSecondaryRun(std::int32_t from, Axial fromAxial, bool shifted, int direction,
                               std::int32_t& steps) const noexcept;
  void relax(std::int32_t index, Cell cell, std::int64_t g, std::int32_t parent, std::int32_t dx, std::int32_t dy);
  // relax for jump point searches, which never look along sight lines and whose heuristic is the
  // octile distance (with landmarks, if any): the few instructions a jump point costs there.
  void relaxJump(std::int32_t index, Cell cell, std::int64_t g, std::int32_t parent, std::int32_t dx, std::int32_t dy);
  // relaxJump for hex jump points, the tile given by its axial coordinates (the runs know them):
  // the hex step distance inline, no cell worked out from the index. The tile, reached by a last
  // step of direction `arrival`, is opened when it improves and leads on (leadsOnAfter). The
  // improves test, inline, comes first: on weighted hex maps most of a primary run's turns reach
  // a tile already reached as cheaply (two in three on sc1/Aftershock with terrain patches), and
  // the run then reads no canonical successors, works out no coordinates and makes no call.
  template <class AxialOf>
  void relaxHexJump(std::int32_t index, int arrival, AxialOf&& axialOf, std::int64_t g, std::int32_t parent) {
    Node& reached = node(index);
    if ((reached.stamp >> 4) == m_generation && g >= reached.g) return;
    if (!leadsOnAfter(index, arrival)) return;
    openHexJump(reached, index, axialOf(), g, parent);
  }
  void relaxHexJump(std::int32_t index, int arrival, Axial axial, std::int64_t g, std::int32_t parent) {
    relaxHexJump(index, arrival, [axial] { return axial; }, g, parent);
  }
  // relaxHexJump's second half: `node` (index's) improves, and is opened.
  void openHexJump(Node& node, std::int32_t index, Axial axial, std::int64_t g, std::int32_t parent);
  std::int64_t heuristic(Cell cell, std::int32_t paddedIndex) const noexcept;
  // Hex maps: the hex steps from `axial` to the goal × the cheapest step cost.
  std::int64_t hexHeuristic(Axial axial) const noexcept { return hexHeuristic(axial, m_goalAxial); }
  std::int64_t hexHeuristic(Axial axial, Axial goal) const noexcept {
    const std::int64_t dq = axial.q - goal.q, dr = axial.r - goal.r;
    return (std::abs(dq) + std::abs(dr) + std::abs(dq + dr)) / 2 * m_minStraightCost;
  }
  std::int64_t octileHeuristic(Cell cell) const noexcept { return octileHeuristic(cell, m_goalCell); }
  std::int64_t octileHeuristic(Cell cell, Cell goal) const noexcept {
    const std::int64_t dx = std::abs(cell.x - goal.x), dy = std::abs(cell.y - goal.y);
    const std::int64_t diagonal = std::min(dx, dy);
    return (std::max(dx, dy) - diagonal) * m_minStraightCost + diagonal * m_minDiagonalCost;
  }
  // The tile search's geometric lower bound from `cell` to `goal` (no landmarks), for a goal set.
  std::int64_t boundTowards(Cell cell, Cell goal) const noexcept;
  // The landmarks' lower bound on the cost from padded tile `paddedIndex` to the goal (ALT).
  std::int64_t landmarkBound(std::int32_t paddedIndex) const noexcept;
  // A straight jump from padded coordinates (x, y) in direction (dx, dy): the padded index of
  // the jump point reached (steps = tiles travelled) or -1. A diagonal jump from a node relaxes
  // the jump points it finds directly.
  std::int32_t jumpStraight(std::int32_t x, std::int32_t y, std::int32_t dx, std::int32_t dy,
                            std::int32_t& steps) const noexcept;
  // jumpStraight for a wide body: the same stops (a tile not uniform, a forced neighbour, the
  // goal) on the tiles it fits on, found by walking.
  std::int32_t jumpStraightFitting(std::int32_t x, std::int32_t y, std::int32_t dx, std::int32_t dy,
                                   std::int32_t& steps) const noexcept;
  // From padded tile `node` at padded coordinates (x, y), reached at cost g.
  template <JumpTiles kTiles>
  void jumpDiagonal(std::int32_t node, std::int32_t x, std::int32_t y, std::int64_t g, std::int32_t dx, std::int32_t dy);
  // A padded tile the search may stand on: passable and, for a wide body, where it fits.
  // (A tile the body fits on is passable: the clearance, for the grid's mobility, is 0 where
  // it is not, and m_fitCode is at least 1.)
  template <bool kFit>
  bool open(std::int32_t paddedIndex) const noexcept {
    if constexpr (kFit) return m_fitCodes[paddedIndex] >= m_fitCode;
    return m_grid->classes()[paddedIndex] != 0;
  }
  // Whether the neighbour of padded tile `from` in jump direction `direction` (SearchGrid::kEast
  // ...; `stride` tiles away in the padded array) is open.
  template <JumpTiles kTiles>
  bool openToward(std::int32_t from, int direction, std::int32_t stride) const noexcept {
    if constexpr (kTiles == JumpTiles::kPlain) return m_grid->jumpDistances(from)[direction] != -1;
    return open<kTiles == JumpTiles::kFitting>(from + stride);
  }
  // The search's answer (no path unless it succeeded).
  void finish(Status status, const char* reason, SearchResult& out);
  // Out of budget: InProgress, no path yet; resume() continues.
  Status suspend(SearchResult& out);
  void buildPath(SearchResult& out);
  void buildAnyAnglePath(SearchResult& out);
  bool traceRoute(SearchResult& out, bool alongEdges);
  Status finishExact(Status status, SearchLimit limit, SearchResult& out);
  // A node's tile centre, world units.
  Vec2 pointOf(std::int32_t paddedIndex) const noexcept;
  // Any-angle mode: the parent of a tile linked by a straight line from the start point itself
  // (not from the start tile's centre).
  static constexpr std::int32_t kFromStartPoint = -2;

  // The open list. Searches on maps of one cost push few entries: a four-ary heap with the best
  // new entry held beside it. Others (weighted maps, hexes, 4-way, any-angle) push many, spread
  // over a wide range of f: those go to buckets of f (kBucketShift bits of cost units wide), and
  // only the lowest bucket's entries are in the heap, so a pop sifts through a few entries. Every
  // entry in a later bucket has a larger f than every entry in the heap, so entries come out in
  // the same order either way (heapLess, a total order).
  void heapPush(HeapEntry entry);
  HeapEntry heapPop();  // (with buckets, after refillHeap)
  void settle(HeapEntry entry);  // an entry into its bucket, or the heap
  void putInBucket(std::size_t index, HeapEntry entry);  // (index < kBucketCount)
  void refillHeap();  // an empty heap takes the next bucket's entries
  void clearOpen();
  void siftIn(HeapEntry entry);  // the four-ary heap itself
  HeapEntry siftOut();
  void siftDown(std::size_t position);  // the entry there, down to its place
  static constexpr int kBucketShift = 23;  // half a straight step on terrain of cost 1
  // Buckets from m_firstBucketKey on: 2,048 steps of cost 1 (a whole search on most maps). Entries
  // beyond wait in m_beyond until the buckets run dry (costs up to 1000 a tile would otherwise
  // want millions of buckets).
  static constexpr std::size_t kBucketCount = 4096;

  const SearchGrid* m_grid = nullptr;
  std::vector<std::uint32_t> m_compactKeys;    // kCompactSlots
  std::vector<Node> m_compactNodes;            // kCompactSlots
  std::vector<std::uint16_t> m_compactFilled;  // the slots this search filled
  bool m_inArray = false;                      // this search keeps its nodes in m_nodes
  ZeroedArray<Node> m_nodes;                   // a node per padded tile, once a search needed it
  std::vector<HeapEntry> m_heap;
  HeapEntry m_held{};       // the open list's entry waiting outside the heap (heapPush)
  bool m_hasHeld = false;
  bool m_bucketed = false;  // this search's open list uses the buckets
  std::int64_t m_firstBucketKey = 0;  // f >> kBucketShift of m_buckets[0] (the start's)
  std::size_t m_nextBucket = 0;       // the first bucket not yet moved into the heap
  std::size_t m_bucketsUsed = 0;      // buckets [m_nextBucket, m_bucketsUsed) may hold entries
  std::vector<std::vector<HeapEntry>> m_buckets;  // at most kBucketCount, kept with their capacity
  std::vector<HeapEntry> m_beyond;                 // entries past the last bucket
  std::vector<Cell> m_chain;  // buildPath: the path's nodes, goal first
  std::uint32_t m_generation = 0;
  std::int32_t m_start = 0;
  std::int32_t m_goal = 0;
  Cell m_goalCell;
  std::int32_t m_goalX = 0;  // padded coordinates of the goal
  std::int32_t m_goalY = 0;
  int m_landmarkCount = 0;
  std::array<std::uint32_t, kMaxLandmarks> m_goalLandmarks{};  // the goal's landmark distances
  bool m_partial = false;
  // nearestIfUnreachable (see SearchRequest). With m_goal < 0 the search has no single goal:
  // several equally near tiles (m_goalSet, sorted padded indices; the first closed ends it) or,
  // when flooding, none (every reachable tile is closed; the nearest to the target is kept).
  bool m_nearest = false;
  bool m_flooding = false;
  Eigen::Vector2d m_nearestTarget{0.0, 0.0};  // layout space
  std::vector<std::int32_t> m_goalSet;
  std::int32_t m_floodBest = -1;
  double m_floodBestDistance = 0.0;  // squared, layout space
  bool m_jumpRequest = true;  // the request's jumpPoints
  bool m_tilePath = true;  // the request's tilePath
  bool m_jumpPoints = false;
  bool m_plainJumps = false;  // jump points with JumpTiles::kPlain
  bool m_hexJumps = false;    // hex jump points (expandHexJumpPoint)
  Axial m_goalAxial;          // hex maps: the goal's (the heuristic, the goal on a run)
  bool m_octile = false;      // the heuristic is the octile distance (8-way squares, not any-angle)
  std::int64_t m_minStraightCost = 0;    // the grid's least step costs (the heuristic's)
  std::int64_t m_minDiagonalCost = 0;
  std::int64_t m_plainStraightCost = 0;  // kPlain: the steps' costs on the map's one cost
  std::int64_t m_plainDiagonalCost = 0;
  // Bodies wider than a tile (SearchRequest::clearance): the clearance and the least code a
  // tile needs; nullptr when the body needs nothing beyond an enterable tile.
  const Clearance* m_fit = nullptr;
  const std::uint8_t* m_fitCodes = nullptr;  // m_fit's padded codes
  std::int64_t m_fitCode = 0;
  bool fits(Cell cell) const noexcept { return m_fit->code(cell) >= m_fitCode; }
  double m_fitRadius = 0.0;  // the body's radius in tiles (layout space)
  // Any-angle mode (m_sight set): the tester, radius, and the route's two end points.
  const SegmentTester* m_sight = nullptr;
  const GateRule* m_gates = nullptr;
  float m_radius = 0.0f;
  Vec2 m_startPoint = Vec2(0.0f, 0.0f);
  Vec2 m_goalPoint = Vec2(0.0f, 0.0f);
  // Costs of the pieces start point → start tile centre and goal tile centre → goal point;
  // g counts from the start point (0 when not any-angle).
  std::int64_t m_startPieceUnits = 0;
  std::int64_t m_goalPieceUnits = 0;
  bool m_goalDirect = false;  // the goal's g is a straight line's to the goal point
  bool m_suspended = false;
  AnyaSearch m_exact;          // the exact any-angle search's scratch
  bool m_exactSearch = false;  // the current search is m_exact's
  SearchRequest m_exactRequest;  // its request (for the tile search, should its route not trace)
  std::vector<Eigen::Vector2d> m_localRoute;  // the any-angle route in tile units (traceRoute)
  std::int64_t m_expanded = 0;
  std::int64_t m_generated = 0;
};

}  // namespace rpgnav
