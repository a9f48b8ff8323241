// SPDX-License-Identifier: MIT
// libFuzzer target: the Tiled reader (TMX and TMJ). Any bytes: a document or an error naming the
// file, never a crash; a document read keeps its map inside the limits, its doors on the map and
// its entities finite.
#include "rpgnav/io/tiled.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // A name without a folder: external tilesets would be looked for in the working directory,
  // where the fuzzer's corpus has none.
  const auto document = rpgnav::parseTiledMap(text, "fuzz.tmx");
  if (!document) {
    if (document.message().rfind("fuzz.tmx", 0) != 0 && document.status() != rpgnav::Status::IoError) std::abort();
    return 0;
  }
  const rpgnav::TileMap& map = document->map;
  if (map.tileCount() < 1 || map.tileCount() > rpgnav::kMaxMapTiles) std::abort();
  for (const rpgnav::DoorSpec& door : document->doors) {
    if (!map.contains(door.a) || !map.contains(door.b) || !map.layout().sharedEdge(door.a, door.b)) std::abort();
  }
  for (const rpgnav::EntitySpec& entity : document->entities) {
    if (!std::isfinite(entity.position.x()) || !std::isfinite(entity.position.y()) || !(entity.radius >= 0.0f)) std::abort();
  }
  return 0;
}
