// SPDX-License-Identifier: MIT
#pragma once
// Plane geometry for the tests' own checks, written independently of the library's.

#include <Eigen/Core>

#include <algorithm>

namespace rpgnav::test {

/// Distance from point x to the segment a→b.
inline double pointToSegment(const Eigen::Vector2d& x, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  const Eigen::Vector2d ab = b - a;
  const double l2 = ab.squaredNorm();
  const double t = l2 > 0 ? std::clamp((x - a).dot(ab) / l2, 0.0, 1.0) : 0.0;
  return (a + t * ab - x).norm();
}

/// Distance between the segments a→b and c→d: 0 when they cross.
inline double segmentDistance(const Eigen::Vector2d& a, const Eigen::Vector2d& b, const Eigen::Vector2d& c,
                              const Eigen::Vector2d& d) {
  auto orient = [](const Eigen::Vector2d& x, const Eigen::Vector2d& y, const Eigen::Vector2d& z) {
    return (y.x() - x.x()) * (z.y() - x.y()) - (y.y() - x.y()) * (z.x() - x.x());
  };
  const double o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
  if (o1 * o2 < 0 && o3 * o4 < 0) return 0.0;
  return std::min({pointToSegment(a, c, d), pointToSegment(b, c, d), pointToSegment(c, a, b), pointToSegment(d, a, b)});
}

}  // namespace rpgnav::test
