// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// The character pipeline's vocabulary: a request, the path the stages pass along, the result,
/// and the context every stage reads.

#include "rpgnav/core/export.hpp"
#include "rpgnav/core/status.hpp"
#include "rpgnav/core/types.hpp"
#include "rpgnav/grid/convex_corners.hpp"
#include "rpgnav/grid/segment_tester.hpp"
#include "rpgnav/grid/tile_map.hpp"
#include "rpgnav/path/smooth_path.hpp"
#include "rpgnav/world/doors.hpp"
#include "rpgnav/world/entities.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rpgnav {

/// What one query may use, beside what the world says (Detour's dtQueryFilter): its own door
/// policy, its own terrain costs, entities it ignores. A request points at one (PathRequest::
/// filter); the filter and everything it points at are read during plan() (for a sliced plan,
/// until continuePlan returns another status than InProgress), and must stay valid that long.
///
/// Costs: a door policy or ignore list costs nothing beyond the calls. Terrain costs make the
/// query read a layer of navigation data of its own, built on a copy of the map with those costs
/// (NavData::prepare with the list): a planner on its own data builds it at the first query that
/// names the list (a map copy and a full layer build, like a new mobility), shared data needs it
/// prepared. Once built, a filtered query costs what a plain one does (a look-up among the
/// lists prepared), and its path is bit for bit the path on a map whose TerrainTable had those
/// costs for the request's mobility.
struct QueryFilter {
  /// Asked about every door instead of the world's policy (nullptr: the world's). Called like it
  /// (see DoorPolicy).
  const DoorPolicy* doorPolicy = nullptr;
  /// Terrains whose cost for the request's mobility is not the terrain table's in this query (see
  /// TerrainCost: a multiplier, or forbidden). Every stage uses them: the search, the line of
  /// sight costs of stages 3-8, the start and goal checks. Empty: the table's.
  std::span<const TerrainCost> costs;
  /// Entities that are no obstacle in this query, besides PathRequest::ignore.
  std::span<const EntityId> ignore;
};

/// One query: where a character is, where it wants to go, and how it moves.
struct PathRequest {
  Vec2 start = Vec2(0.0f, 0.0f);  ///< World position.
  Vec2 goal = Vec2(0.0f, 0.0f);   ///< World position.
  MobilityId mobility = MobilityId{0};
  /// Personal radius in world units: the path keeps this far from blocked tiles, closed doors
  /// and the map's edge. From half a tile up the character is "wide": its search keeps to tiles
  /// and steps its body fits (NavData::clearance), its path begins and ends on such a tile's
  /// centre (its own, or one touching it), and a door (one tile edge) lets through only a body
  /// of exactly half a tile; see the README, "Large characters". [Limit: 0 <= radius <= 3 ×
  /// tileSize (NavData::kMaxRadiusTiles)]
  float radius = 0.0f;
  /// The character planned for (EntityId{0}: none): never an obstacle to itself; the door policy
  /// and listener are told who it is.
  EntityId character{0};
  /// Further entities that are no obstacle in this query (the party leader being followed).
  /// Read during plan() only.
  std::span<const EntityId> ignore;
  /// Comfort: how much further than the radius the path keeps from walls (tiles the mobility
  /// cannot enter, doors that are walls, the map's edge) where there is room, in world units. A
  /// soft preference: where a passage is narrower the path comes closer, down to the radius, and
  /// the margin never makes a goal unreachable nor the path dearer than the search's route or a
  /// clear straight segment (see the README's pipeline). Unset: PlannerSettings::comfort.
  /// 0: paths are pulled taut against walls at the radius. [Limit: finite, >= 0; radius + comfort
  /// counts up to 0.49 tiles for a radius under half a tile, up to 4 tiles for a wider one]
  std::optional<float> comfort;
  /// Tell the world's DoorListener when the path stops at a door (once per such plan). The
  /// ReplanScheduler turns it off for its characters and tells the listener itself, once per
  /// change of where a character waits (see ReplanScheduler).
  bool tellDoorListener = true;
  /// The query's own door policy, terrain costs and ignored entities (nullptr: the world's
  /// policy, the table's costs, `ignore` alone). See QueryFilter for how long it must live.
  const QueryFilter* filter = nullptr;
};

/// The pipeline's stages, in order.
enum class PathStage : std::uint8_t {
  StraightLine,        ///< 1: start sees goal: done without a search
  Search,              ///< 2: A* over tiles
  ControlPoints,       ///< 3: one point per tile of the A* path
  StraightenForward,   ///< 4: drop points whose neighbours see each other, from the start
  CornerRouting,       ///< 5: points beside blocked corners, so the path hugs them
  StraightenBackward,  ///< 6: straighten and route corners again, from the goal
  Detours,             ///< 7: round other entities' personal spaces
  Smoothing,           ///< 8: a smooth curve through the control points
};
inline constexpr int kPathStageCount = 8;
/// "straight_line", "search", "control_points", "straighten_forward", "corner_routing",
/// "straighten_backward", "detours", "smoothing".
RPGNAV_API std::string_view pathStageName(PathStage stage) noexcept;

/// What one stage did in one query.
struct StageStats {
  bool ran = false;
  double micros = 0.0;      ///< Wall time, from the end of the stage before (the stages' times add up to the plan's).
  std::int32_t pointsIn = 0;
  std::int32_t pointsOut = 0;
  std::int32_t probes = 0;  ///< Segment probes (line-of-sight checks) made.
  std::int32_t repairs = 0;  ///< Smoothing: spans tightened or made straight to keep the rules.
  std::int64_t expansions = 0;  ///< Search: nodes expanded, over all slices of the plan.
};

/// One detour of stage 7: control points [first, first + count) of the final path go round a
/// group of entities whose spaces the straight segment there entered.
struct PathDetour {
  EntityId around;  ///< The first entity of the group the segment ran into.
  std::int32_t groupSize = 1;
  std::int32_t first = 0;
  std::int32_t count = 0;
};

/// The answer to a PathRequest. Reuse one object per thread: its vectors keep their capacity.
struct PathResult {
  /// Ok; StoppedAtDoor (the path ends in front of `door`, at `stopPoint`); BlockedByEntity (no
  /// way round `blocker`: the path ends in front of it, at `stopPoint`); or a failure.
  Status status = Status::InvalidArgument;
  /// Why the plan failed or is in progress, for a human; empty on success. The result owns the
  /// text: it stays as it is until this result is planned into again, whatever the planner does
  /// meanwhile (a reused result keeps the string's capacity, so a warm plan allocates nothing).
  std::string reason;
  DoorId door{0};
  EntityId blocker{0};
  Vec2 stopPoint = Vec2(0.0f, 0.0f);
  std::vector<PathDetour> detours;
  /// Stage 8's curve through controlPoints (empty when the stage is off or the plan failed).
  SmoothPath smoothed;
  /// Tiles of the A* path, start tile to goal tile (empty when the straight line sufficed).
  std::vector<Cell> tilePath;
  /// The final polyline, start to goal, world units.
  std::vector<Vec2> controlPoints;
  /// The polyline before stage 7 (no detours round entities): what Planner::replanAlong plans
  /// along again once the character has walked part of it and the entities have moved.
  std::vector<Vec2> route;
  /// The World's mapVersion() and doorLayoutVersion() the plan was made on.
  std::uint64_t mapVersion = 0;
  std::uint64_t doorLayoutVersion = 0;
  /// Length of the search's route in world units: its segments (any-angle search), or its tile
  /// steps, centre to centre (1, √2 for square diagonals); the straight distance when no search
  /// ran.
  double searchLength = 0.0;
  double length = 0.0;  ///< Length of controlPoints, world units.
  double cost = 0.0;    ///< Weighted cost of controlPoints (length in each tile × its cost).
  std::array<StageStats, kPathStageCount> stages{};
  /// With PlannerSettings::recordStages (for pictures, debugging and checks; empty otherwise):
  /// the control points after each stage that ran. For the search (stage 2), the polyline its
  /// route stands for, which stage 3 starts from: the start, the centre of every A* tile (with,
  /// for hex characters at least half a hex edge wide, a point at the free end of each edge whose
  /// middle passes too close to a blocked corner or closed door), the goal; after the any-angle
  /// search, the route's own vertices.
  std::array<std::vector<Vec2>, kPathStageCount> stagePoints;
  /// With PlannerSettings::recordStages: the cost of stagePoints after each stage that ran
  /// (stage 8 leaves the control points as they are and is not measured; NaN for stages that did
  /// not run). No stage raises it, up to stage 6; stage 7 goes round entities, which the tile
  /// search does not see, and may.
  std::array<double, kPathStageCount> stageCosts{};
  /// With PlannerSettings::recordStages: the cost of the search's polyline (stagePoints of the
  /// search; NaN when no search ran). The path before stage 7 never costs more.
  double searchCost = 0.0;
  StageStats& stats(PathStage stage) noexcept { return stages[std::size_t(stage)]; }
  const StageStats& stats(PathStage stage) const noexcept { return stages[std::size_t(stage)]; }
};

/// A wall segment besides the blocked tiles: a door the character may not pass in this query.
/// Paths keep the radius from it and never touch it.
struct Barrier {
  Vec2 a;
  Vec2 b;
  Cell tileA;  ///< The two tiles on either side.
  Cell tileB;
};
/// What touching a barrier means: coming within this fraction of its length (2·10⁻³ tiles on
/// square maps, 1.15·10⁻³ on hex maps). Blocked tiles may be touched by a character of radius 0,
/// closed doors may not, and a touch is decided on float points: this gap keeps paths that pass
/// a door's end (often also a wall's corner, where corner routing bends 10⁻³ tiles out) visibly
/// clear of it.
inline constexpr double kBarrierTouch = 2e-3;
/// The least distance a path of `radius` keeps from the barrier: the radius, and never less than
/// kBarrierTouch of the barrier's length.
double barrierClearance(const Barrier& barrier, float radius) noexcept;
/// True when the segment from→to comes closer than barrierClearance() to the barrier, less
/// `slack` (see barrierSlack). With a slack the answer does not depend on the segment's direction.
bool meetsBarrier(const Barrier& barrier, Vec2 from, Vec2 to, float radius, double slack = 0.0) noexcept;
/// Wide bodies (radius of half a tile or more) keep their radius from barriers up to the float
/// rounding of the points, as from tiles (see the README): 5·10⁻⁷ tiles × the largest of 1, the
/// points' coordinates in tiles from the map's corner and from the world's origin, and the radius
/// in tiles; in world units. 0 for narrower bodies, whose rule is exact.
double barrierSlack(const Layout& layout, float radius, Vec2 from, Vec2 to) noexcept;

/// The doors that are walls for one query, near a box: for stages that lead the path beyond the
/// ground the planner gathered StageContext::barriers for (stage 7's detours). Asked on the thread
/// running the stage, during it; the planner's own source belongs to its query (not shared).
class BarrierSource {
 public:
  virtual ~BarrierSource() = default;
  /// Fills `out` with the barriers near the box [low, high] grown by `reach` (a superset).
  virtual void barriersNear(Vec2 low, Vec2 high, float reach, std::vector<Barrier>& out) const = 0;
};

namespace detail {
/// A stage's own scratch (see StageScratch): each stage derives its buffers from this.
struct ScratchSlot {
  virtual ~ScratchSlot() = default;
};
/// The stages that keep scratch, one slot each.
enum class ScratchUse : std::uint8_t { ControlPoints, Straighten, CornerRouting, Detours, Smoothing, Count };
}  // namespace detail

/// The memory the stages reuse from one query to the next: one per thread (a Planner owns one),
/// so that a warm query allocates nothing and no stage keeps thread-local state. Each stage's
/// buffers are made on its first use. Not for two threads at once.
class StageScratch {
 public:
  StageScratch() = default;
  StageScratch(StageScratch&&) noexcept = default;
  StageScratch& operator=(StageScratch&&) noexcept = default;
  StageScratch(const StageScratch&) = delete;
  StageScratch& operator=(const StageScratch&) = delete;

  /// The buffers of stage `use`, of the stage's own type T (made on first use).
  template <class T>
  T& of(detail::ScratchUse use) {
    std::unique_ptr<detail::ScratchSlot>& slot = m_slots[std::size_t(use)];
    if (!slot) slot = std::make_unique<T>();
    return static_cast<T&>(*slot);
  }

 private:
  std::array<std::unique_ptr<detail::ScratchSlot>, std::size_t(detail::ScratchUse::Count)> m_slots;
};

/// Read-only facts every stage works from: the map, who walks, and the map's indexes for that
/// mobility (built by the Planner; see SegmentTester and ConvexCorners), plus the doors that are
/// walls for this query.
struct StageContext {
  const TileMap& map;
  MobilityId mobility;
  float radius;  ///< World units.
  const SegmentTester& lines;
  const ConvexCorners& corners;
  std::span<const Barrier> barriers = {};
  /// Where to find barriers beyond `barriers`' ground (nullptr: `barriers` are all there are).
  const BarrierSource* barrierSource = nullptr;
  /// The stages' reusable buffers (nullptr: each call makes its own, allocating).
  StageScratch* scratch = nullptr;
  /// The distance beyond the radius the stages try to keep from walls where there is room
  /// (PathRequest::comfort, world units; 0: none). Every path still keeps the radius itself.
  float comfort = 0.0f;
  /// A stage's buffers of type T: from `scratch`, or from `fallback` when there is none.
  template <class T>
  T& buffers(detail::ScratchUse use, StageScratch& fallback) const {
    return (scratch != nullptr ? *scratch : fallback).of<T>(use);
  }
  /// probeSegment for this character, through the tester's fast path; a segment meeting a
  /// barrier is not clear.
  SegmentProbe probe(Vec2 from, Vec2 to) const { return probeWith(from, to, radius); }
  /// probe() for a wider character, or at a wider clearance.
  SegmentProbe probeWith(Vec2 from, Vec2 to, float wider) const {
    SegmentProbe result = lines.probe(from, to, wider);
    if (result.clear && blockedByBarrier(from, to, wider)) result.clear = false;
    return result;
  }
  /// True when every tile the mobility may enter costs the same (no detour or curve can then
  /// lead over dearer terrain).
  bool uniformCost() const noexcept { return lines.uniformCost(); }
  /// The highest cost of the tiles a clear segment crosses (its probe given).
  double dearestTerrain(Vec2 from, Vec2 to, const SegmentProbe& probe) const;
  /// SegmentTester::cheaplyClear, and no barrier in the way (at the radius, or at a wider
  /// clearance).
  bool cheaplyClear(Vec2 from, Vec2 to) const { return cheaplyClearWith(from, to, radius); }
  bool cheaplyClearWith(Vec2 from, Vec2 to, float clearance) const {
    return lines.cheaplyClear(from, to, clearance) && !blockedByBarrier(from, to, clearance);
  }
  /// True when the segment keeps `clearance` from walls: tiles the mobility cannot enter, the
  /// map's edge and barriers (SegmentTester::keeps; whatever the passable tiles cost).
  bool keeps(Vec2 from, Vec2 to, float clearance) const {
    return lines.keeps(from, to, clearance) && !blockedByBarrier(from, to, clearance);
  }
  /// probe(), and in `keepsClearance` whether the segment also keeps(clearance) (false when it
  /// is not clear), in as few passes as the layout allows (SegmentTester::probeKeeping).
  SegmentProbe probeKeeping(Vec2 from, Vec2 to, float clearance, bool& keepsClearance) const {
    SegmentProbe result = lines.probeKeeping(from, to, radius, clearance, keepsClearance);
    if (result.clear && blockedByBarrier(from, to)) result.clear = false;
    keepsClearance = result.clear && keepsClearance && !blockedByBarrier(from, to, clearance);
    return result;
  }
  /// SegmentTester::openAround, and no barrier at or next to the tile.
  bool openAround(Cell cell) const;
  bool blockedByBarrier(Vec2 from, Vec2 to) const noexcept { return blockedByBarrier(from, to, radius); }
  bool blockedByBarrier(Vec2 from, Vec2 to, float clearance) const noexcept {
    if (barriers.empty()) return false;
    const double slack = barrierSlack(map.layout(), radius, from, to);
    for (const Barrier& barrier : barriers) {
      if (meetsBarrier(barrier, from, to, clearance, slack)) return true;
    }
    return false;
  }
};

/// Weighted cost of a polyline under probeSegment's model; +infinity if a segment is not clear.
double polylineCost(const StageContext& context, std::span<const Vec2> points);
/// Weighted cost and length of a polyline, or nothing if a segment is not clear; counts the
/// probes made in `probes`.
std::optional<std::pair<double, double>> measurePolyline(const StageContext& context, std::span<const Vec2> points,
                                                         std::int32_t& probes);

}  // namespace rpgnav
