// SPDX-License-Identifier: MIT
#include "rpgnav/core/assert.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>

namespace rpgnav {
namespace {

void defaultAssert(const char* expression, const char* message, const char* file, int line) {
  std::fprintf(stderr, "rpgnav assertion failed: %s (%s) at %s:%d\n", expression, message, file, line);
  std::abort();
}

void defaultLog(LogLevel level, std::string_view message) {
  if (level == LogLevel::Info) return;
  std::fprintf(stderr, "rpgnav %s: %.*s\n", level == LogLevel::Warning ? "warning" : "error",
               int(message.size()), message.data());
}

// Atomics so that installing a handler while another thread logs is not a data race.
std::atomic<AssertHandler> g_assertHandler{&defaultAssert};
std::atomic<LogHandler> g_logHandler{&defaultLog};

}  // namespace

AssertHandler setAssertHandler(AssertHandler handler) noexcept {
  return g_assertHandler.exchange(handler ? handler : &defaultAssert);
}

LogHandler setLogHandler(LogHandler handler) noexcept {
  return g_logHandler.exchange(handler ? handler : &defaultLog);
}

namespace detail {
void assertFailed(const char* expression, const char* message, const char* file, int line) {
  g_assertHandler.load()(expression, message, file, line);
}
void log(LogLevel level, std::string_view message) { g_logHandler.load()(level, message); }
}  // namespace detail

}  // namespace rpgnav
