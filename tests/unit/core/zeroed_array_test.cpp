// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "core/zeroed_array.hpp"

#include <cstdint>
#include <utility>

using namespace rpgnav;

namespace {
struct Item {
  std::int64_t a;
  std::int32_t b;
  std::uint32_t c;
};
}  // namespace

TEST_CASE("a zeroed array starts as zeroes, keeps what is written, and starts over on reset", "[core]") {
  ZeroedArray<Item> array;
  CHECK(array.size() == 0);
  CHECK(array.data() == nullptr);
  // 64 MB: made at once (pages come on first touch); far apart elements are zero.
  const std::size_t count = std::size_t(4) << 20;
  array.reset(count);
  REQUIRE(array.size() == count);
  for (const std::size_t i : {std::size_t(0), count / 3, count - 1}) {
    CHECK(array[i].a == 0);
    CHECK(array[i].b == 0);
    CHECK(array[i].c == 0);
  }
  array[12345] = Item{-7, 3, 9};
  array[count - 1].c = 42;
  CHECK(array[12345].a == -7);
  CHECK(array[count - 1].c == 42u);
  // Moved: the memory goes along, the source is empty.
  ZeroedArray<Item> other = std::move(array);
  CHECK(array.size() == 0);
  CHECK(other.size() == count);
  CHECK(other[12345].b == 3);
  // Reset: all zeroes again.
  other.reset(1000);
  CHECK(other.size() == 1000u);
  CHECK(other[999].c == 0u);
  other.reset(count);
  CHECK(other[12345].a == 0);
  CHECK(other[count - 1].c == 0u);
  other.reset(0);
  CHECK(other.size() == 0);
}
