// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// Planner: runs the character pipeline for one query at a time.

#include "rpgnav/path/path.hpp"
#include "rpgnav/path/stages.hpp"
#include "rpgnav/search/search_context.hpp"
#include "rpgnav/search/search_grid.hpp"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rpgnav {

/// Every stage's settings, and which stages run. The search (stage 2) always runs when the
/// straight line does not suffice.
struct PlannerSettings {
  StraightLineSettings straightLine;
  ControlPointSettings controlPoints;
  StraightenSettings straighten;
  CornerRoutingSettings cornerRouting;
  SearchGridSettings searchGrid;
  /// Stage 2 as an any-angle search (Theta*, see SearchRequest::sightLines) instead of 8-way
  /// A* with jump points. The stages after the search pull the route tight round the obstacles
  /// it passes but never move it to an obstacle's other side; the 8-way metric sometimes picks
  /// the wrong side (it overrates some directions by up to 8%), Theta* almost never does. The
  /// price: searches one to two orders of magnitude slower (see the README's figures). For
  /// paths that must look right (the player's character, cut scenes) rather than for crowds.
  /// Hex characters as wide as half a hex edge or wider always get the tile search (see
  /// SearchRequest::radius).
  bool anyAngleSearch = false;
  /// Indexed by PathStage; a disabled stage passes the path on unchanged (disabling control
  /// points gives plain tile centres).
  std::array<bool, kPathStageCount> enabled{true, true, true, true, true, true};
  /// Keep a copy of the control points after every stage in PathResult::stagePoints.
  bool recordStages = false;
  bool enabledStage(PathStage stage) const noexcept { return enabled[std::size_t(stage)]; }
};

/// Plans paths on one map. Keeps the map by reference (it must outlive the planner) and builds
/// the search grid for each mobility on first use, rebuilding it when the map's version changes.
///
/// Thread-safety: one Planner per thread (it owns search scratch memory); several planners may
/// read one map at once while nobody edits it.
class Planner {
 public:
  explicit Planner(const TileMap& map, PlannerSettings settings = {});

  /// Plans a path; the status is also in out.status. Bad input gets InvalidArgument (NaN, radius
  /// out of range, unknown mobility), OutOfBounds (a point off the map), StartBlocked /
  /// GoalBlocked (in a forbidden tile, or closer than the radius to a blocked one) or NoPath.
  Status plan(const PathRequest& request, PathResult& out);

  const PlannerSettings& settings() const noexcept { return m_settings; }
  PlannerSettings& settings() noexcept { return m_settings; }

 private:
  // What the planner keeps per mobility (and per narrow/wide character on hex maps).
  struct MobilityData {
    SearchGrid grid;
    SegmentTester lines;
    ConvexCorners corners;
  };
  const MobilityData* dataFor(MobilityId mobility, float radius, const char*& reason);
  Status fail(PathResult& out, Status status, const char* reason);
  void record(PathResult& out, PathStage stage) const;

  const TileMap* m_map;
  PlannerSettings m_settings;
  std::vector<std::optional<MobilityData>> m_data;  // per mobility, narrow and wide characters
  SearchContext m_search;
  std::string m_lastError;  // backs PathResult::reason for messages built at run time
  SearchResult m_searchResult;
};

}  // namespace rpgnav
