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

std::optional<std::pair<double, double>> measurePolyline(const StageContext& context, const std::vector<Vec2>& points,
                                                         std::int32_t& probes) {
  double cost = 0.0, length = 0.0;
  for (std::size_t i = 1; i < points.size(); ++i) {
    ++probes;
    const SegmentProbe probe = context.probe(points[i - 1], points[i]);
    if (!probe.clear) return std::nullopt;
    cost += probe.cost;
    length += probe.length;
  }
  return std::make_pair(cost, length);
}

double polylineCost(const StageContext& context, const std::vector<Vec2>& points) {
  std::int32_t probes = 0;
  const auto measured = measurePolyline(context, points, probes);
  return measured ? measured->first : std::numeric_limits<double>::infinity();
}

}  // namespace rpgnav
