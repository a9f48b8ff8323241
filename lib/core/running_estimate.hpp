// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// A learnt guess of what a recurring piece of work costs, for frame budgets (internal to the
/// planner and the scheduler; not part of the API).

#include <algorithm>
#include <cmath>

namespace rpgnav::detail {

/// Exponentially weighted mean and mean square of a measured quantity (a tenth per sample), so
/// that high() — mean + 2 sigma — follows the recent samples: what a budget should expect a
/// piece of work to take before it starts it.
struct RunningEstimate {
  /// Starts from a guess with no spread.
  explicit RunningEstimate(double guess = 10.0) noexcept : mean(guess), square(guess * guess) {}
  double mean;
  double square;
  void add(double value) noexcept {
    mean = 0.9 * mean + 0.1 * value;
    square = 0.9 * square + 0.1 * value * value;
  }
  double high() const noexcept { return mean + 2.0 * std::sqrt(std::max(0.0, square - mean * mean)); }
};

}  // namespace rpgnav::detail
