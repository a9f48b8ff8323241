// SPDX-License-Identifier: MIT
// Stage 1: the straight line.
#include "path/stages.hpp"

#include <algorithm>

namespace rpgnav {

bool straightLineStage(const StageContext& context, const StraightLineSettings&, Vec2 start, Vec2 goal,
                       std::vector<Vec2>& out, SegmentProbe& probe, StageStats& stats) {
  stats.ran = true;
  stats.pointsIn = 2;
  ++stats.probes;
  probe = context.probe(start, goal);
  if (!probe.clear) return false;
  // The ends' tiles exist and are passable: the planner checked both before any stage.
  const TileMap& map = context.map;
  const double ends = std::max(map.cost(*map.tileAt(start), context.mobility), map.cost(*map.tileAt(goal), context.mobility));
  if (context.dearestTerrain(start, goal, probe) > ends) return false;
  out.assign({start, goal});
  stats.pointsOut = 2;
  return true;
}

}  // namespace rpgnav
