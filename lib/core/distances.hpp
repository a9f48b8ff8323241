// SPDX-License-Identifier: MIT
#pragma once
// Distances between points and segments in double precision, for the geometry that is not a
// walk over tiles (doors' edges, bends, legs).

#include <Eigen/Core>

#include <algorithm>

namespace rpgnav::detail {

/// Distance from point x to the segment a→b.
inline double pointToSegment(const Eigen::Vector2d& x, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  const Eigen::Vector2d ab = b - a;
  const double length2 = ab.squaredNorm();
  const double t = length2 > 0.0 ? std::clamp((x - a).dot(ab) / length2, 0.0, 1.0) : 0.0;
  return (a + t * ab - x).norm();
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
