// SPDX-License-Identifier: MIT
// libFuzzer target: the .rpgmap reader and writer. Any bytes: a document or an error naming the
// place, never a crash; a document read writes to canonical text that reads as the same
// document and writes to the same text again.
#include "rpgnav/io/rpgmap.hpp"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto document = rpgnav::parseRpgMap(text, "fuzz.rpgmap");
  if (!document) {
    if (document.message().rfind("fuzz.rpgmap:", 0) != 0) std::abort();
    return 0;
  }
  const auto written = rpgnav::writeRpgMap(*document);
  if (!written) std::abort();
  const auto again = rpgnav::parseRpgMap(*written, "again.rpgmap");
  if (!again || !(*again == *document)) std::abort();
  const auto rewritten = rpgnav::writeRpgMap(*again);
  if (!rewritten || *rewritten != *written) std::abort();
  return 0;
}
