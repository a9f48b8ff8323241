// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// The assertion hook. Asserts catch programming errors (a stale id, an out-of-range index passed
/// to an unchecked accessor); data errors are reported through Status and messages instead, so
/// the library has nothing to log. The handler is process-wide; set it once at start-up, before
/// any other rpgnav call.

#include "rpgnav/core/export.hpp"

namespace rpgnav {

/// Called when an assertion fails. The default prints to stderr and aborts. A handler may
/// throw (tests do) or return, in which case execution continues past the failed check.
using AssertHandler = void (*)(const char* expression, const char* message, const char* file, int line);
/// Installs a new assert handler (nullptr restores the default) and returns the previous one.
RPGNAV_API AssertHandler setAssertHandler(AssertHandler handler) noexcept;

namespace detail {
RPGNAV_API void assertFailed(const char* expression, const char* message, const char* file, int line);
}  // namespace detail

}  // namespace rpgnav

/// Checked in debug builds and whenever RPGNAV_ENABLE_ASSERTS is defined.
#if !defined(NDEBUG) || defined(RPGNAV_ENABLE_ASSERTS)
#define RPGNAV_ASSERT(expr, msg) \
  ((expr) ? void(0) : ::rpgnav::detail::assertFailed(#expr, msg, __FILE__, __LINE__))
#else
#define RPGNAV_ASSERT(expr, msg) void(0)
#endif
