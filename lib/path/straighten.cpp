// SPDX-License-Identifier: MIT
// Stages 4 and 6: greedy straightening ("string pulling") of the control polyline.
#include "rpgnav/grid/line_of_sight.hpp"
#include "rpgnav/path/stages.hpp"

#include "path/legs.hpp"

#include <algorithm>
#include <cmath>

namespace rpgnav {

void straightenStage(const StageContext& context, const StraightenSettings& settings, bool fromGoal,
                     std::vector<Vec2>& points, StageStats& stats) {
  stats.ran = true;
  stats.pointsIn = std::int32_t(points.size());
  if (points.size() <= 2) {
    stats.pointsOut = stats.pointsIn;
    return;
  }
  if (fromGoal) std::reverse(points.begin(), points.end());
  const double maxLength = double(settings.maxSegmentLength) * double(context.map.layout().tileSize());
  auto probe = [&](Vec2 a, Vec2 b) {
    ++stats.probes;
    return probeSegment(context.map, context.mobility, a, b, context.radius);
  };
  // Walk the points keeping an anchor (the last point kept) and the cost of the path from the
  // anchor to the current point; drop the current point when the anchor sees the next one at no
  // more than the cost of going through it.
  std::size_t kept = 1;  // points[0..kept) is the output so far; points[kept-1] is the anchor
  double anchorToCurrent = probe(points[0], points[1]).cost;
  for (std::size_t i = 1; i + 1 < points.size(); ++i) {
    const Vec2 anchor = points[kept - 1], current = points[i], next = points[i + 1];
    const double currentToNext = probe(current, next).cost;
    const double replaced = anchorToCurrent + currentToNext;
    bool drop = false;
    double newCost = 0.0;
    if (detail::onSegment(anchor, current, next)) {
      drop = true;
      newCost = replaced;
    } else if (maxLength <= 0.0 || double((next - anchor).norm()) <= maxLength) {
      const SegmentProbe direct = probe(anchor, next);
      // A straight segment is never longer than the polyline it replaces; only cost can rise.
      drop = direct.clear && detail::noWorse(direct.cost, replaced);
      newCost = direct.cost;
    }
    if (drop) {
      anchorToCurrent = newCost;
    } else {
      points[kept++] = current;
      anchorToCurrent = currentToNext;
    }
  }
  points[kept++] = points.back();
  points.resize(kept);
  if (fromGoal) std::reverse(points.begin(), points.end());
  stats.pointsOut = std::int32_t(points.size());
}

}  // namespace rpgnav
