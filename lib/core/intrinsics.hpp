// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// Compiler intrinsics behind portable names, so that the library builds with GCC, Clang and
/// MSVC: each one is a hint or a fast path with a plain fallback, never a change of results.

#include <cstdint>

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#endif

namespace rpgnav::detail {

/// Asks the CPU to start loading the cache line at `address` (a hint: nothing happens where the
/// compiler offers no prefetch).
inline void prefetch(const void* address) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(address);
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
  _mm_prefetch(static_cast<const char*>(address), _MM_HINT_T0);
#else
  (void)address;
#endif
}

/// True when the CPU runs AVX2 code (asked once per process by each caller's static).
inline bool cpuHasAvx2() noexcept {
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
  return __builtin_cpu_supports("avx2");
#else
  return false;  // the AVX2 paths are built for GCC and Clang on x86 only
#endif
}

/// Makes the compiler forget what it knows of `value` (its range, where it was loaded from),
/// at no cost: for loops where GCC would otherwise reload a narrow value through memory.
template <class T>
inline void forgetRange(T& value) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  asm("" : "+r"(value));
#else
  (void)value;
#endif
}

/// floor(x) as an integer, for |x| < 2^31 (the caller bounds x): a truncation and a fix-up, where
/// std::floor is a library call on x86-64 builds without SSE4.1 (the probes' line walks round two
/// bounds per line).
inline std::int32_t floorToInt(double x) noexcept {
  const auto t = std::int32_t(x);
  return t - std::int32_t(double(t) > x);
}
/// ceil(x) as an integer, for |x| < 2^31.
inline std::int32_t ceilToInt(double x) noexcept {
  const auto t = std::int32_t(x);
  return t + std::int32_t(double(t) < x);
}

}  // namespace rpgnav::detail
