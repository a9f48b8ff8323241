// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// A path query: the request, its filter, and the result.

#include "rpgnav/core/export.hpp"
#include "rpgnav/core/status.hpp"
#include "rpgnav/core/types.hpp"
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
/// policy and its own terrain costs (the entities a query ignores are PathRequest::ignore). A request points at one (PathRequest::
/// filter); the filter and everything it points at are read during plan() (for a sliced plan,
/// until continuePlan returns another status than InProgress), and must stay valid that long.
///
/// Costs: a door policy costs nothing beyond its calls. Terrain costs make the
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
  /// tileSize (kMaxRadiusTiles)]
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
  /// clear straight segment (see the README's pipeline). Unset: the map's (World::designSettings),
  /// else PlannerSettings::comfort.
  /// 0: paths are pulled taut against walls at the radius. [Limit: finite, >= 0; radius + comfort
  /// counts up to 0.49 tiles for a radius under half a tile, up to 4 tiles for a wider one]
  std::optional<float> comfort;
  /// Tell the world's DoorListener when the path stops at a door (once per such plan). The
  /// ReplanScheduler turns it off for its characters and tells the listener itself, once per
  /// change of where a character waits (see ReplanScheduler).
  bool tellDoorListener = true;
  /// The query's own door policy and terrain costs (nullptr: the world's policy, the table's
  /// costs). See QueryFilter for how long it must live.
  const QueryFilter* filter = nullptr;
  /// How much the world's danger (World::danger) weighs against distance (unset: the world's
  /// designer factor, World::dangerFactor, the map file's `danger-factor`): 0 ignores it (the
  /// shortest path), 255 takes the safest way almost whatever the distance. Every stage reads a
  /// tile of cost c and danger d as costing DangerMap::weightedCost(c, d, factor) = c + factor·d /
  /// (256 − factor), at most kMaxSearchCost: the crowd fields' formula, so a character and a
  /// field of the same factor agree about the cheapest route. A factor above 0 reads a layer of
  /// its own (NavData::prepare with the factor); 0 reads the plain one, bit for bit.
  std::optional<std::uint8_t> dangerFactor;
  /// A reachable goal when the asked one is not: for a goal the character cannot stand on (a
  /// tile its mobility cannot enter — a click on water, a wall, a table —, closer than its radius
  /// to a blocked tile or closed door, no room for a wide body, off the map) or cannot reach (an
  /// island, a door its policy avoids, a gap too narrow for its body), plan to the centre of the
  /// reachable tile nearest to the asked goal instead (nearest by straight distance from the
  /// asked point to tile centres; of several equally near, the cheapest to reach). Reachable by
  /// the search's own rules: mobility, doors as the policy says, body width. The result is then
  /// PartialPath (StoppedAtDoor or BlockedByEntity when the path to it stops at a door or an
  /// entity), with PathResult::fallbackGoal the point chosen. A goal that can be reached is
  /// planned as without the option. NaN or infinite goals are still InvalidArgument. Cost: the
  /// ring of tiles round the goal up to the nearest reachable one; equally near tiles are
  /// searched for tile by tile (no jump points); a goal in the start's region that the search
  /// cannot reach (doors, width) costs a flood of every tile the character can reach. All of it
  /// runs in the plan's slices like any search (see Planner::beginPlan).
  bool goalFallback = false;
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
RPGNAV_API std::string_view toString(PathStage stage) noexcept;

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
  /// Ok; PartialPath (PathRequest::goalFallback: the path leads to `fallbackGoal` instead of the
  /// goal asked); StoppedAtDoor (the path ends in front of `door`, at `stopPoint`); BlockedByEntity
  /// (no way round `blocker`: the path ends in front of it, at `stopPoint`); or a failure.
  Status status = Status::InvalidArgument;
  /// With PathRequest::goalFallback, when the asked goal could not be reached: the point the path
  /// leads to instead (the nearest reachable tile's centre). Empty otherwise.
  std::optional<Vec2> fallbackGoal;
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
};

/// What a plan did, stage by stage (Planner::diagnostics): for the tool, benchmarks, pictures,
/// debugging and checks; a game never needs it. The counters are kept for every plan (a clock
/// read per stage); the points and costs only with PlannerSettings::recordStages.
struct PlanDiagnostics {
  std::array<StageStats, kPathStageCount> stages{};
  /// With PlannerSettings::recordStages (empty otherwise): the control points after each stage
  /// that ran. For the search (stage 2), the polyline its route stands for, which stage 3 starts
  /// from: the start, the centre of every A* tile (with, for hex characters at least half a hex
  /// edge wide, a point at the free end of each edge whose middle passes too close to a blocked
  /// corner or closed door), the goal; after the any-angle search, the route's own vertices.
  std::array<std::vector<Vec2>, kPathStageCount> stagePoints;
  /// With PlannerSettings::recordStages: stagePoints of the search are an any-angle route's
  /// vertices, which stage 3 started from (after Theta*, or after the exact any-angle search for
  /// a radius and comfort of 0), not the tiles' centres.
  bool anyAngleRoute = false;
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

}  // namespace rpgnav
