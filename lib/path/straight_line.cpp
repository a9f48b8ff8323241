// SPDX-License-Identifier: MIT
// Stage 1: the straight-line fast path.
#include "rpgnav/path/stages.hpp"

namespace rpgnav {

bool straightLineStage(const StageContext& context, const StraightLineSettings& settings, Vec2 start, Vec2 goal,
                       std::vector<Vec2>& out, StageStats& stats) {
  stats.ran = true;
  stats.pointsIn = 2;
  const float tiles = (goal - start).norm() / context.map.layout().tileSize();
  if (!(tiles <= settings.maxDistance)) return false;
  ++stats.probes;
  const SegmentProbe probe = context.probe(start, goal);
  if (!probe.clear || probe.cost > probe.length * context.lines.cheapestCost() * (1.0 + 1e-9)) return false;
  out.assign({start, goal});
  stats.pointsOut = 2;
  return true;
}

}  // namespace rpgnav
