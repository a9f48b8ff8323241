// SPDX-License-Identifier: MIT
// rpgnav info MAP: what a map holds and how it falls apart into regions per mobility.
#include "commands.hpp"
#include "describe.hpp"
#include "options.hpp"

#include "rpgnav/grid/regions.hpp"
#include "rpgnav/io/rpgmap.hpp"
#include "rpgnav/path/planner.hpp"
#include "rpgnav/schedule/replan_scheduler.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace rpgnav::tool {
namespace {

// What planners and schedulers use where a map sets nothing: the code's defaults.
DesignSettings libraryDefaults() {
  const PlannerSettings planner;
  const SchedulerSettings scheduler;
  const DefaultDoorPolicy doors;
  return {planner.comfort,    planner.smoothing.maxDeviation, planner.detours.margin,
          doors.openCost,     doors.closedCost,               doors.lockedCost,
          float(scheduler.interval), float(scheduler.stickiness)};
}

// The designer settings, each with its value and where it comes from, and the danger.
void printSettings(const MapDocument& document) {
  const DesignSettings defaults = libraryDefaults();
  std::puts("settings (the map's [settings], else the library's default):");
  for (const DesignSettingKey& setting : designSettingKeys()) {
    const std::optional<float>& value = document.settings.*setting.member;
    std::printf("  %-18s %-8g %-11s %s\n", std::string(setting.key).c_str(), double(value.value_or(*(defaults.*setting.member))),
                setting.unit == "fraction" ? "" : std::string(setting.unit).c_str(), value ? "map" : "default");
  }
  std::printf("  %-18s %-8d %-11s %s\n", "danger-factor", int(document.dangerFactor), "",
              document.dangerFactor != 0 ? "map" : "default");
  if (!document.dangerLayers.empty()) {
    std::string names;
    for (const DangerLayerSpec& layer : document.dangerLayers) names += (names.empty() ? "" : ", ") + layer.name;
    std::printf("danger layers: %zu (%s)\n", document.dangerLayers.size(), names.c_str());
  }
}

}  // namespace

int infoCommand(Arguments args) {
  std::string path;
  CommandLine commandLine("rpgnav info", "usage: rpgnav info MAP\n");
  commandLine.positional("MAP", path);
  if (const auto exit = commandLine.parse(args)) return *exit;
  auto document = readMapFile(path);
  if (!document) {
    std::fprintf(stderr, "rpgnav info: %s\n", document.error().message.c_str());
    return 1;
  }
  const TileMap& map = document->map;
  const TerrainTable& terrain = map.terrain();
  std::printf("map: %s\n", path.c_str());
  std::printf("layout: %s", std::string(toString(map.layout().kind())).c_str());
  if (map.layout().kind() == LayoutKind::Square) std::printf(" (%d-connected)", map.layout().connectivity());
  else std::printf(" (%s rows or columns shifted)", map.layout().hexStagger() == HexStagger::Even ? "even" : "odd");
  std::printf("\nsize: %d x %d tiles (%d tiles), tile size %g, origin (%g, %g)\n", map.width(), map.height(),
              map.tileCount(), double(map.layout().tileSize()), double(map.layout().origin().x()),
              double(map.layout().origin().y()));
  // Which points lie on the map: what `path --from/--to` and entity files may use.
  std::printf("extent: %s\n", extentText(map).c_str());

  std::vector<std::int64_t> histogram(std::size_t(terrain.terrainCount()), 0);
  for (TerrainId id : map.tiles()) ++histogram[id.value];
  std::puts("terrain:");
  for (int t = 0; t < terrain.terrainCount(); ++t) {
    const TerrainId id{std::uint8_t(t)};
    if (histogram[std::size_t(t)] == 0) continue;
    std::string costs;
    for (int m = 0; m < terrain.mobilityCount(); ++m) {
      const MobilityId mobility{std::uint8_t(m)};
      if (!terrain.passable(id, mobility)) continue;
      char cost[32];
      std::snprintf(cost, sizeof cost, "%g", double(terrain.cost(id, mobility)));
      costs += " " + terrain.mobilityName(mobility) + "=" + cost;
    }
    const char symbol = terrain.terrainSymbol(id);
    const auto count = std::uint64_t(histogram[std::size_t(t)]);
    std::printf("  %c %-16s %8llu %-5s %5.1f%% %s\n", symbol ? symbol : '?', terrain.terrainName(id).c_str(),
                static_cast<unsigned long long>(count), noun(count, "tile").c_str(),
                100.0 * double(count) / map.tileCount(), costs.empty() ? " impassable" : costs.c_str());
  }

  std::puts("regions:");
  for (int m = 0; m < terrain.mobilityCount(); ++m) {
    const MobilityId mobility{std::uint8_t(m)};
    const RegionMap regions = RegionMap::compute(map, mobility);
    std::vector<std::uint32_t> sizes;
    std::uint64_t passable = 0;
    for (std::uint32_t r = 0; r < regions.regionCount(); ++r) {
      sizes.push_back(regions.regionSize(r));
      passable += regions.regionSize(r);
    }
    std::sort(sizes.rbegin(), sizes.rend());
    std::printf("  %-8s %6u %-8s %8llu passable %s", terrain.mobilityName(mobility).c_str(), regions.regionCount(),
                (noun(regions.regionCount(), "region") + ",").c_str(), static_cast<unsigned long long>(passable),
                noun(passable, "tile").c_str());
    // With one region its size is the passable count already.
    if (sizes.size() > 1) {
      std::printf(", largest regions:");
      for (std::size_t i = 0; i < std::min<std::size_t>(3, sizes.size()); ++i) {
        std::printf("%s %s", i == 0 ? "" : ",", countOf(sizes[i], "tile").c_str());
      }
    }
    std::puts("");
  }
  if (!document->doors.empty() || !document->entities.empty()) {
    std::size_t flat = 0;
    for (const EntitySpec& entity : document->entities) flat += entity.flat ? 1 : 0;
    std::size_t locked = 0, closed = 0;
    for (const DoorSpec& door : document->doors) {
      locked += door.state == DoorState::Locked ? 1 : 0;
      closed += door.state == DoorState::Closed ? 1 : 0;
    }
    std::printf("doors: %zu (%zu closed, %zu locked)\n", document->doors.size(), closed, locked);
    std::printf("entities: %zu (%zu flat)\n", document->entities.size(), flat);
  }
  printSettings(*document);
  return 0;
}

}  // namespace rpgnav::tool
