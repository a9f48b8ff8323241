// SPDX-License-Identifier: MIT
// rpgnav field MAP --goal X,Y: builds a crowd field towards a goal and reports on it.
#include "commands.hpp"
#include "describe.hpp"
#include "options.hpp"

#include "rpgnav/debug/svg.hpp"
#include "rpgnav/field/crowd_field.hpp"
#include "rpgnav/io/rpgmap.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

namespace rpgnav::tool {
namespace {

constexpr const char* kUsage =
    "usage: rpgnav field MAP --goal X,Y [--goal X,Y ...] [--mobility NAME] [--danger FILE] [--factor F] [--svg FILE]\n"
    "  --danger FILE: one tile per line, 'x y danger' (0-255; # starts a comment)\n";

}  // namespace

int fieldCommand(Arguments args) {
  std::string mapPath, dangerPath, svgPath, mobilityName = "walk";
  std::vector<Cell> goals;
  int factor = 0;
  CommandLine commandLine("rpgnav field", kUsage);
  commandLine.positional("MAP", mapPath);
  commandLine.option("--goal", "X,Y in tiles (whole numbers)", [&](std::string_view value) {
    Cell goal;
    if (!readCell(value, goal)) return false;
    goals.push_back(goal);
    return true;
  });
  commandLine.option("--danger", dangerPath);
  commandLine.option("--factor", "a whole number from 0 to 255", [&](std::string_view value) {
    return readNumber(value, factor) && factor >= 0 && factor <= 255;
  });
  commandLine.option("--mobility", mobilityName);
  commandLine.option("--svg", svgPath);
  if (const auto exit = commandLine.parse(args)) return *exit;
  if (goals.empty()) return commandLine.usageError("missing --goal X,Y");
  auto document = readMapFile(mapPath);
  if (!document) {
    std::fprintf(stderr, "rpgnav field: %s\n", document.error().message.c_str());
    return 1;
  }
  const TileMap& map = document->map;
  const auto mobility = map.terrain().findMobility(mobilityName);
  if (!mobility) {
    std::fprintf(stderr, "rpgnav field: unknown mobility '%s' (the map has %s)\n", mobilityName.c_str(),
                 mobilityList(map.terrain()).c_str());
    return 1;
  }
  for (const Cell goal : goals) {
    if (!map.contains(goal)) {
      // Field goals are tiles, so the extent is in tiles too (path's points are world units).
      std::fprintf(stderr, "rpgnav field: goal tile (%d, %d) is outside the map: tiles x in [0, %d), y in [0, %d)\n",
                   goal.x, goal.y, map.width(), map.height());
      return 1;
    }
  }
  CrowdField field(CostField::build(map, *mobility).value());
  if (!dangerPath.empty()) {
    std::ifstream in(dangerPath);
    if (!in) {
      std::fprintf(stderr, "rpgnav field: cannot read %s\n", dangerPath.c_str());
      return 1;
    }
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      if (const std::size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      int x = 0, y = 0, danger = 0;
      char extra = 0;
      if (std::sscanf(line.c_str(), "%d %d %d %c", &x, &y, &danger, &extra) != 3 || danger < 0 || danger > 255 ||
          field.setDanger(0, {x, y}, std::uint8_t(danger)) != Status::Ok) {
        std::fprintf(stderr, "rpgnav field: %s:%d: expected 'x y danger' with a tile of the map and 0-255\n",
                     dangerPath.c_str(), number);
        return 1;
      }
    }
  }
  field.setDangerFactor(std::uint8_t(factor));
  const auto begin = std::chrono::steady_clock::now();
  field.setGoals(goals);
  const double micros = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - begin).count();
  std::int64_t passable = 0;
  for (std::int32_t i = 0; i < map.tileCount(); ++i) passable += field.costs().at(map.cellAt(i)) != CostField::kImpassable;
  std::printf("map %s: %dx%d, %lld passable tiles for %s\n", mapPath.c_str(), map.width(), map.height(),
              (long long)passable, mobilityName.c_str());
  std::printf("goals: %zu of %zu on passable tiles; danger factor %d\n", field.goals().size(), goals.size(), factor);
  std::printf("build: %.1f us; reachable tiles: %lld\n", micros, (long long)field.reachableCount());
  std::printf("digest %016llx\n", (unsigned long long)field.digest());
  if (!svgPath.empty()) {
    SvgPicture picture(map, *mobility, map.width() > 200 ? 3.0f : 12.0f);
    picture.field(field, map.width() > 100 ? 8 : 2);
    if (picture.save(svgPath) != Status::Ok) {
      std::fprintf(stderr, "rpgnav field: cannot write %s\n", svgPath.c_str());
      return 1;
    }
  }
  return 0;
}

}  // namespace rpgnav::tool
