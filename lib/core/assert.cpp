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

// Atomic so that installing a handler while another thread asserts is not a data race.
std::atomic<AssertHandler> g_assertHandler{&defaultAssert};

}  // namespace

AssertHandler setAssertHandler(AssertHandler handler) noexcept {
  return g_assertHandler.exchange(handler ? handler : &defaultAssert);
}

namespace detail {
void assertFailed(const char* expression, const char* message, const char* file, int line) {
  g_assertHandler.load()(expression, message, file, line);
}
}  // namespace detail

}  // namespace rpgnav
