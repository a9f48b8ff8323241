// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// Assertion and log hooks. Asserts catch programming errors (a stale id, an out-of-range index
/// passed to an unchecked accessor); data errors are reported through Status instead.
/// The handlers are process-wide; set them once at start-up, before any other rpgnav call.

#include <string_view>

namespace rpgnav {

/// Called when an assertion fails. The default prints to stderr and aborts. A handler may
/// throw (tests do) or return, in which case execution continues past the failed check.
using AssertHandler = void (*)(const char* expression, const char* message, const char* file, int line);
/// Installs a new assert handler (nullptr restores the default) and returns the previous one.
AssertHandler setAssertHandler(AssertHandler handler) noexcept;

enum class LogLevel { Info, Warning, Error };
/// Receives rpgnav's log lines; the default discards Info and prints the rest to stderr.
using LogHandler = void (*)(LogLevel level, std::string_view message);
/// Installs a new log handler (nullptr restores the default) and returns the previous one.
LogHandler setLogHandler(LogHandler handler) noexcept;

namespace detail {
void assertFailed(const char* expression, const char* message, const char* file, int line);
void log(LogLevel level, std::string_view message);
}  // namespace detail

}  // namespace rpgnav

/// Checked in debug builds and whenever RPGNAV_ENABLE_ASSERTS is defined.
#if !defined(NDEBUG) || defined(RPGNAV_ENABLE_ASSERTS)
#define RPGNAV_ASSERT(expr, msg) \
  ((expr) ? void(0) : ::rpgnav::detail::assertFailed(#expr, msg, __FILE__, __LINE__))
#else
#define RPGNAV_ASSERT(expr, msg) void(0)
#endif
