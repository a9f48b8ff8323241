// SPDX-License-Identifier: MIT
#pragma once
// Distances between points and segments in double precision, for the geometry that is not a
// walk over tiles (doors' edges, bends, legs).

#include <Eigen/Core>

#include <algorithm>
#include <span>

namespace rpgnav::detail {

/// Distance from point x to the segment a→b.
inline double pointToSegment(const Eigen::Vector2d& x, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  const Eigen::Vector2d ab = b - a;
  const double length2 = ab.squaredNorm();
  const double t = length2 > 0.0 ? std::clamp((x - a).dot(ab) / length2, 0.0, 1.0) : 0.0;
  return (a + t * ab - x).norm();
}

/// True when p lies inside or on the convex polygon `corners`, of either orientation (the
/// polygon's edges never see p on both sides).
inline bool insideConvex(const Eigen::Vector2d& p, std::span<const Eigen::Vector2d> corners) {
  bool negative = false, positive = false;
  const std::size_t n = corners.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Eigen::Vector2d edge = corners[(i + 1) % n] - corners[i], to = p - corners[i];
    const double side = edge.x() * to.y() - edge.y() * to.x();
    negative = negative || side < 0.0;
    positive = positive || side > 0.0;
  }
  return !(negative && positive);
}

/// Distance from p to the convex polygon `corners` (a point, a segment, or a ring of either
/// orientation): 0 on or inside it.
inline double pointToConvex(const Eigen::Vector2d& p, std::span<const Eigen::Vector2d> corners) {
  const std::size_t n = corners.size();
  if (n == 1) return (p - corners[0]).norm();
  if (n == 2) return pointToSegment(p, corners[0], corners[1]);
  if (insideConvex(p, corners)) return 0.0;
  double best = pointToSegment(p, corners[n - 1], corners[0]);
  for (std::size_t i = 0; i + 1 < n; ++i) best = std::min(best, pointToSegment(p, corners[i], corners[i + 1]));
  return best;
}

/// Distance between the segments p→q and u→v: 0 when they cross (properly), else the least of
/// the four endpoint-to-segment distances.
inline double segmentsDistance(const Eigen::Vector2d& p, const Eigen::Vector2d& q, const Eigen::Vector2d& u,
                               const Eigen::Vector2d& v) {
  auto cross = [](const Eigen::Vector2d& x, const Eigen::Vector2d& y) { return x.x() * y.y() - x.y() * y.x(); };
  const double d1 = cross(q - p, u - p), d2 = cross(q - p, v - p), d3 = cross(v - u, p - u), d4 = cross(v - u, q - u);
  if (((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0)) && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))) {
    return 0.0;
  }
  return std::min({pointToSegment(p, u, v), pointToSegment(q, u, v), pointToSegment(u, p, q), pointToSegment(v, p, q)});
}

}  // namespace rpgnav::detail
