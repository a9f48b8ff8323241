// SPDX-License-Identifier: MIT
#include "core/tick_clock.hpp"

#include <cmath>

namespace rpgnav::detail {
namespace {

double measureMicrosPerTick() noexcept {
#ifdef RPGNAV_TICKS_ARE_TSC
  // The counter's rate is not published anywhere portable: count its ticks over about 100 µs of
  // steady_clock. A read's own jitter (tens of ns at each end) is then a few parts in 10,000.
  using Clock = std::chrono::steady_clock;
  const Clock::time_point begin = Clock::now();
  const std::uint64_t first = ticksNow();
  Clock::time_point end = begin;
  while (end - begin < std::chrono::microseconds(100)) end = Clock::now();
  const std::uint64_t last = ticksNow();
  const double micros = std::chrono::duration<double, std::micro>(end - begin).count();
  const double rate = last > first ? micros / double(last - first) : 0.0;
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
