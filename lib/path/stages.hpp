// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// The pipeline's stages, one function each (in its own file here): what each does is told with
/// its settings in rpgnav/path/stage_settings.hpp.

#include "path/stage_context.hpp"
#include "rpgnav/path/smooth_path.hpp"
#include "rpgnav/path/stage_settings.hpp"

#include <chrono>
#include <vector>

namespace rpgnav {

/// Stage 1 (see StraightLineSettings).
/// True when the segment start→goal is taken by the straight-line rule (then `out` is {start, goal}).
/// `probe` is the segment's probe either way.
bool straightLineStage(const StageContext& context, const StraightLineSettings& settings, Vec2 start, Vec2 goal,
                       std::vector<Vec2>& out, SegmentProbe& probe, StageStats& stats);

/// Stage 3 (see ControlPointSettings). After the any-angle search the route's points are
/// `through` (one per tile), checked afterwards: if rounding kinked the result into a corner, the
/// route's vertices `route` (start point to goal point, `routeTiles` their indices in `tiles`) are
/// used instead. Otherwise (`route` empty) they are the tile centres: then the start and goal
/// tiles' centres are included too, and on hex maps, for characters wider than half a hex edge, a
/// point at the free end of an edge whose other end touches a blocked tile or a closed door: so
/// the fallback polyline keeps the radius by construction. `safe`, when given, receives the
/// polyline the result is measured against (the fallback; after the any-angle search, the
/// route's vertices): the result never costs more.
void controlPointStage(const StageContext& context, const ControlPointSettings& settings,
                       const std::vector<Cell>& tiles, std::span<const Vec2> through, std::span<const Vec2> route,
                       std::span<const std::int32_t> routeTiles, Vec2 start, Vec2 goal, std::vector<Vec2>& out,
                       StageStats& stats, std::vector<Vec2>* safe = nullptr);

/// Stages 4 and 6 (see StraightenSettings).
void straightenStage(const StageContext& context, const StraightenSettings& settings, bool fromGoal,
                     std::vector<Vec2>& points, StageStats& stats);

/// Stage 5 (see CornerRoutingSettings).
void cornerRoutingStage(const StageContext& context, const CornerRoutingSettings& settings, std::vector<Vec2>& points,
                        StageStats& stats);

/// How far from an entity's centre stage 7's ways round it run (the corners of the polygon that
/// stands in for its disc grown by the body's radius and the margin). A character that stands
/// closer (outside the grown disc) cannot be led round it: its path stops there
/// (BlockedByEntity). ReplanScheduler::move() keeps characters beyond this.
float detourReach(const DetourSettings& settings, float entityRadius, float bodyRadius, float tileSize) noexcept;

/// Who is in the way in one query.
struct EntityQuery {
  const EntitySource& source;
  EntityId self{0};  ///< Never an obstacle (EntityId{0}: no character).
  std::span<const EntityId> ignore = {};
  /// True when `entity` is an obstacle for a character of `radius` starting at `start`: not flat,
  /// not the character, not ignored, and its space (grown by the radius) does not hold the start.
  bool blocks(const Entity& entity, Vec2 start, float radius) const;
};

/// How stage 7 ended: `blocked` when no way round `blocker` exists; the path then ends at `stop`.
struct DetourOutcome {
  bool blocked = false;
  EntityId blocker{0};
  Vec2 stop = Vec2(0.0f, 0.0f);
};

void detourStage(const StageContext& context, const DetourSettings& settings, const EntityQuery& entities,
                 std::vector<Vec2>& points, std::vector<PathDetour>& detours, DetourOutcome& outcome,
                 StageStats& stats);

/// Stage 7 in pieces, for deadlines: where it stands between calls (the way so far waits in the
/// context's scratch, which nothing else may use meanwhile).
struct DetourProgress {
  bool begun = false;
  std::size_t next = 1;  ///< The input point whose segment (from the one before) comes next.
  double along = 0.0;    ///< The input path's length before that segment (for the horizon).
  std::size_t routed = 0;  ///< Segments routed so far (what a call did, for the cost per segment).
};
/// Stage 7 from where `progress` stands (begin with a default one, and the same context,
/// settings, entities and points on every call); routes segments until the stage is done (true:
/// `points`, `detours` and `outcome` hold its answer) or `deadline` has passed after a segment
/// (false: call again). The answer is detourStage's, bit for bit, however it was cut.
bool detourStageUntil(const StageContext& context, const DetourSettings& settings, const EntityQuery& entities,
                      std::vector<Vec2>& points, std::vector<PathDetour>& detours, DetourOutcome& outcome,
                      StageStats& stats, DetourProgress& progress, std::chrono::steady_clock::time_point deadline);

/// Stage 8 (see SmoothingSettings).
void smoothingStage(const StageContext& context, const SmoothingSettings& settings, const EntityQuery& entities,
                    const std::vector<Vec2>& points, SmoothPath& out, StageStats& stats);

/// Stage 8 in pieces, for deadlines: where it stands between calls (its curves wait in the
/// context's scratch, which nothing else may use meanwhile).
struct SmoothingProgress {
  bool begun = false;
  std::size_t next = 0;  ///< The first span not yet checked.
  double along = 0.0;    ///< The path's length before that span (for the entity horizon).
};
/// Stage 8 from where `progress` stands (begin with a default one, and the same context,
/// settings and points on every call); checks spans until the curve is made (true: `out` holds
/// it) or `deadline` has passed after a span (false: call again). The curve is the one
/// smoothingStage makes, bit for bit, however it was cut.
bool smoothingStageUntil(const StageContext& context, const SmoothingSettings& settings, const EntityQuery& entities,
                         const std::vector<Vec2>& points, SmoothPath& out, StageStats& stats, SmoothingProgress& progress,
                         std::chrono::steady_clock::time_point deadline);

}  // namespace rpgnav
