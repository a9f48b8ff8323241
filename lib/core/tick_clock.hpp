// SPDX-License-Identifier: MIT
#pragma once
// A cheap clock for timing the short stretches of work that run many times a frame (the
// planner's stages): the processor's time-stamp counter on x86-64, about 10 ns a read against
// 20-25 ns for steady_clock::now() (a plan reads it once per stage); steady_clock's own count
// elsewhere. Ticks become time at a rate measured once against steady_clock.

#include <chrono>
#include <cstdint>

#if defined(__x86_64__) || defined(_M_X64)
#if defined(_MSC_VER)
#include <intrin.h>
#else
#include <x86intrin.h>
#endif
#define RPGNAV_TICKS_ARE_TSC 1
#endif

namespace rpgnav::detail {

inline std::uint64_t ticksNow() noexcept {
#ifdef RPGNAV_TICKS_ARE_TSC
  return __rdtsc();
#else
  return std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
}

/// Microseconds per tick. The first call measures the counter against steady_clock (about
/// 100 µs, once per process; thread-safe); later calls only read the result.
double microsPerTick() noexcept;

/// The time between two readings, in microseconds (0 when `to` is not after `from`: counters of
/// two cores need not agree exactly).
inline double microsBetween(std::uint64_t from, std::uint64_t to, double perTick) noexcept {
  return to > from ? double(to - from) * perTick : 0.0;
}

}  // namespace rpgnav::detail
