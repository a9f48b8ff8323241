// SPDX-License-Identifier: MIT
#include "core/tick_clock.hpp"

#include <cmath>

namespace rpgnav::detail {
namespace {

#ifdef RPGNAV_TICKS_ARE_TSC
using Clock = std::chrono::steady_clock;

// A steady_clock reading and the counter's at the same moment: the clock read between two counter
// reads, the best of a few tries (a thread interrupted between the reads shows as a wide gap).
struct Reading {
  Clock::time_point clock;
  double ticks;
};
Reading readBoth() noexcept {
  Reading best{};
  std::uint64_t bestGap = ~std::uint64_t(0);
  for (int attempt = 0; attempt < 8; ++attempt) {
    const std::uint64_t before = ticksNow();
    const Clock::time_point clock = Clock::now();
    const std::uint64_t after = ticksNow();
    if (after >= before && after - before < bestGap) {
      bestGap = after - before;
      best = {clock, 0.5 * (double(before) + double(after))};
    }
  }
  return best;
}
#endif

double measureMicrosPerTick() noexcept {
#ifdef RPGNAV_TICKS_ARE_TSC
  // The counter's rate is not published anywhere portable: count its ticks over about 100 µs of
  // steady_clock. Each end's reading is good to a few tens of ns, a few parts in 10,000 of that.
  const Reading first = readBoth();
  while (Clock::now() - first.clock < std::chrono::microseconds(100)) {
  }
  const Reading last = readBoth();
  const double micros = std::chrono::duration<double, std::micro>(last.clock - first.clock).count();
  const double rate = last.ticks > first.ticks ? micros / (last.ticks - first.ticks) : 0.0;
  // A counter that did not move (or a clock that did not): assume 1 GHz rather than divide by 0.
  return std::isfinite(rate) && rate > 0.0 ? rate : 1e-3;
#else
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::duration(1)).count();
#endif
}

}  // namespace

double microsPerTick() noexcept {
  static const double rate = measureMicrosPerTick();
  return rate;
}

}  // namespace rpgnav::detail
