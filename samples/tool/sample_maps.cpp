// SPDX-License-Identifier: MIT
#include "commands.hpp"

#include <filesystem>
#include <system_error>

namespace rpgnav::tool {

std::string sampleMapsDir() {
  // Installed, the maps sit at PREFIX/share/rpgnav/maps beside PREFIX/bin/rpgnav; in a build
  // tree the tool was compiled knowing the source tree's samples/maps.
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    const std::filesystem::path installed = self.parent_path().parent_path() / "share" / "rpgnav" / "maps";
    if (std::filesystem::is_regular_file(installed / "dungeon.rpgmap", error)) return installed.string();
  }
  return RPGNAV_SAMPLE_MAPS_DIR;
}

}  // namespace rpgnav::tool
