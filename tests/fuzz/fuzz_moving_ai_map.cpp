// SPDX-License-Identifier: MIT
// libFuzzer target: the Moving AI .map reader. Any bytes: a map or an error naming the place,
// never a crash; a map read writes back to text that reads as the same map.
#include "rpgnav/io/moving_ai.hpp"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto map = rpgnav::parseMovingAiMap(text, "fuzz.map");
  if (!map) {
    if (map.message().rfind("fuzz.map:", 0) != 0) std::abort();  // errors say where
    return 0;
  }
  const auto written = rpgnav::writeMovingAiMap(*map);
  if (!written) std::abort();
  const auto again = rpgnav::parseMovingAiMap(*written, "again.map");
  if (!again || !(*again == *map)) std::abort();
  return 0;
}
