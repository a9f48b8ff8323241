// SPDX-License-Identifier: MIT
#pragma once
// How far one call of a search (SearchContext, AnyaSearch) may go before it suspends.

#include <chrono>
#include <cstdint>

namespace rpgnav {

struct SearchLimit {
  using Clock = std::chrono::steady_clock;
  /// Node expansions in this call; 0: no limit.
  std::int64_t expansions = 0;
  /// Wall-clock time at which the call suspends (none by default). Read every kClockStride
  /// expansions: a clock read costs about what an expansion does, so a call overshoots by at
  /// most that many expansions and makes at least that many.
  Clock::time_point deadline = Clock::time_point::max();
  static constexpr std::int64_t kClockStride = 32;
  /// True when a call that has expanded `done` nodes must suspend.
  bool reached(std::int64_t done) const noexcept {
    if (expansions > 0 && done >= expansions) return true;
    return done > 0 && done % kClockStride == 0 && deadline != Clock::time_point::max() && Clock::now() >= deadline;
  }
};

}  // namespace rpgnav
