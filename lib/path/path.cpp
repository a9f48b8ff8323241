// SPDX-License-Identifier: MIT
#include "rpgnav/path/path.hpp"

#include "rpgnav/grid/line_of_sight.hpp"

#include <limits>

namespace rpgnav {

std::string_view pathStageName(PathStage stage) noexcept {
  switch (stage) {
    case PathStage::StraightLine: return "straight_line";
    case PathStage::Search: return "search";
    case PathStage::ControlPoints: return "control_points";
    case PathStage::StraightenForward: return "straighten_forward";
    case PathStage::CornerRouting: return "corner_routing";
    case PathStage::StraightenBackward: return "straighten_backward";
  }
  return "unknown";
}

double polylineCost(const StageContext& context, const std::vector<Vec2>& points) {
  double total = 0.0;
  for (std::size_t i = 1; i < points.size(); ++i) {
    const SegmentProbe probe = probeSegment(context.map, context.mobility, points[i - 1], points[i], context.radius);
    if (!probe.clear) return std::numeric_limits<double>::infinity();
    total += probe.cost;
  }
  return total;
}

}  // namespace rpgnav
