// SPDX-License-Identifier: MIT
#pragma once
// Comparisons the stages share: a candidate piece of path replaces another only when it is
// neither dearer nor longer (the pipeline promises both), with room for rounding in the sums.

#include "core/distances.hpp"
#include "rpgnav/core/types.hpp"

#include <algorithm>
#include <cmath>
#include <span>
#include <vector>

namespace rpgnav::detail {

struct Leg {
  double cost = 0.0;
  double length = 0.0;
};

inline bool noWorse(double candidate, double replaced) {
  return candidate <= replaced + 1e-9 * std::max(1.0, std::abs(replaced));
}
inline bool noWorse(const Leg& candidate, const Leg& replaced) {
  return noWorse(candidate.cost, replaced.cost) && noWorse(candidate.length, replaced.length);
}

/// True when a clear piece costs its length at the cheapest cost per unit length there is: then
/// it is no dearer than any way of the same or greater length, and length alone decides.
inline bool atCheapestCost(double cost, double length, double cheapest) {
  return noWorse(cost, length * cheapest);
}

inline double cross(const Eigen::Vector2d& u, const Eigen::Vector2d& v) { return u.x() * v.y() - u.y() * v.x(); }

/// True when a comes before b in the order convexHullOfSorted wants (x, then y).
inline bool hullOrder(const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  return a.x() != b.x() ? a.x() < b.x() : a.y() < b.y();
}

/// Convex hull (Andrew's monotone chain) of points sorted by hullOrder, into `out` (room for
/// 2 × points.size()), counter-clockwise in a y-up sense, collinear points dropped; returns its
/// size, at least one point for non-empty input.
inline std::size_t convexHullOfSorted(std::span<const Eigen::Vector2d> points, Eigen::Vector2d* out) {
  using Point = Eigen::Vector2d;
  if (points.size() < 3) {
    std::copy(points.begin(), points.end(), out);
    return points.size();
  }
  std::size_t k = 0;
  for (const Point& p : points) {
    while (k >= 2 && cross(out[k - 1] - out[k - 2], p - out[k - 2]) <= 0.0) --k;
    out[k++] = p;
  }
  for (std::size_t i = points.size() - 1, lower = k + 1; i-- > 0;) {
    while (k >= lower && cross(out[k - 1] - out[k - 2], points[i] - out[k - 2]) <= 0.0) --k;
    out[k++] = points[i];
  }
  return std::max<std::size_t>(k - 1, 1);
}

/// convexHullOfSorted for points in any order (`points` is sorted in place); `hull` is
/// overwritten.
inline void convexHull(std::vector<Eigen::Vector2d>& points, std::vector<Eigen::Vector2d>& hull) {
  std::sort(points.begin(), points.end(), hullOrder);
  hull.resize(2 * points.size());
  hull.resize(convexHullOfSorted(points, hull.data()));
}

/// True when b lies on segment a→c (within float noise), so dropping it changes nothing.
inline bool onSegment(Vec2 a, Vec2 b, Vec2 c) {
  const Eigen::Vector2d ab = (b - a).cast<double>(), ac = (c - a).cast<double>();
  const double length2 = ac.squaredNorm();
  if (length2 == 0.0) return ab.squaredNorm() == 0.0;
  const double cross = ab.x() * ac.y() - ab.y() * ac.x();
  const double t = ab.dot(ac) / length2;
  return std::abs(cross) <= 1e-9 * length2 && t >= 0.0 && t <= 1.0;
}

}  // namespace rpgnav::detail
