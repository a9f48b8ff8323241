// SPDX-License-Identifier: MIT
// Test runner: rpgnav assertions throw, so a failed precondition fails one test case instead of
// aborting the whole run, and REQUIRE_THROWS_AS can check that a precondition is enforced.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "rpgnav/core/assert.hpp"
#include "support/test_maps.hpp"

namespace {
void throwingAssert(const char* expression, const char* message, const char* file, int line) {
  throw rpgnav::test::AssertionFailure(std::string(file) + ":" + std::to_string(line) + ": " + expression + " (" +
                                       message + ")");
}
}  // namespace

int main(int argc, char* argv[]) {
  rpgnav::setAssertHandler(&throwingAssert);
  return Catch::Session().run(argc, argv);
}
