// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "rpgnav/core/assert.hpp"
#include "rpgnav/core/status.hpp"
#include "support/test_maps.hpp"

#include <set>

using namespace rpgnav;

TEST_CASE("every status has a distinct name", "[core]") {
  const Status all[] = {Status::Ok,           Status::PartialPath,     Status::InProgress,      Status::NoPath,
                        Status::StartBlocked, Status::GoalBlocked,     Status::OutOfBounds,
                        Status::InvalidArgument, Status::ParseError,   Status::IoError,
                        Status::StoppedAtDoor,   Status::BlockedByEntity, Status::LimitExceeded};
  std::set<std::string_view> names;
  for (Status status : all) names.insert(toString(status));
  CHECK(names.size() == std::size(all));
  CHECK(toString(Status::NoPath) == "NoPath");
  CHECK(isSuccess(Status::Ok));
  CHECK(isSuccess(Status::PartialPath));
  CHECK(isSuccess(Status::StoppedAtDoor));
  CHECK(isSuccess(Status::BlockedByEntity));
  CHECK_FALSE(isSuccess(Status::NoPath));
  CHECK_FALSE(isSuccess(Status::GoalBlocked));
  CHECK_FALSE(isSuccess(Status::LimitExceeded));
}

TEST_CASE("Result holds a value or an error", "[core]") {
  Result<int> good = 42;
  REQUIRE(good.ok());
  CHECK(*good == 42);
  CHECK(good.status() == Status::Ok);
  CHECK(good.message().empty());

  Result<int> bad(Status::ParseError, "x.map:3:4: expected a digit");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status() == Status::ParseError);
  CHECK(bad.message() == "x.map:3:4: expected a digit");
  CHECK(bad.error().status == Status::ParseError);
}

TEST_CASE("assertions reach the installed handler", "[core]") {
  // tests/main.cpp installs a throwing handler; an unchecked accessor misuse must reach it.
  const TileMap map = test::mapFromAscii(Layout::square(), {"..", ".."});
#if !defined(NDEBUG) || defined(RPGNAV_ENABLE_ASSERTS)
  CHECK_THROWS_AS(map.index({5, 5}), test::AssertionFailure);
#else
  CHECK(map.index({1, 1}) == 3);
#endif
}

TEST_CASE("Result's accessors on the wrong alternative reach the assert handler, never throw bad_variant_access",
          "[core]") {
  // The check is made in every build (not compiled out with the asserts): tests/main.cpp's
  // handler throws AssertionFailure, which is what must arrive.
  Result<int> bad(Status::NoPath, "no way");
  const Result<int>& constBad = bad;
  CHECK_THROWS_AS(bad.value(), test::AssertionFailure);
  CHECK_THROWS_AS(constBad.value(), test::AssertionFailure);
  CHECK_THROWS_AS(*bad, test::AssertionFailure);
  CHECK_THROWS_AS(std::move(bad).value(), test::AssertionFailure);
  Result<std::string> badText(Status::ParseError, "x");
  CHECK_THROWS_AS(badText->size(), test::AssertionFailure);

  const Result<int> good = 7;
  CHECK_THROWS_AS(good.error(), test::AssertionFailure);
  CHECK(good.value() == 7);
  CHECK(bad.error().status == Status::NoPath);
}
