// SPDX-License-Identifier: MIT
// A minimal engine-side program: proves the package's headers, library and Eigen dependency
// arrive through find_package / add_subdirectory with nothing else set up.
#include <rpgnav/rpgnav.hpp>

#include <cstdio>

int main() {
  const char* text =
      "rpgmap 1\nlayout hex-pointy\nsize 4 3\n[legend]\n. floor walk=1\n# wall\n[tiles]\n....\n.##.\n....\n";
  auto document = rpgnav::parseRpgMap(text, "consumer.rpgmap");
  if (!document) {
    std::fprintf(stderr, "%s\n", document.error().message.c_str());
    return 1;
  }
  const rpgnav::TileMap& map = document->map;
  const auto regions = rpgnav::RegionMap::compute(map, rpgnav::TerrainTable::kWalk);
  const bool sees = rpgnav::hasLineOfSight(map, rpgnav::TerrainTable::kWalk, map.layout().tileCenter({0, 0}),
                                           map.layout().tileCenter({3, 0}));
  std::printf("regions %u, line of sight %s\n", regions.regionCount(), sees ? "yes" : "no");
  return regions.regionCount() == 1 && sees ? 0 : 1;
}
