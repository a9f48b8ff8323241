// SPDX-License-Identifier: MIT
// rpgnav field MAP --goal X,Y: builds a crowd field towards goal points, with the map's danger
// layers and factor, and reports on it.
#include "commands.hpp"
#include "describe.hpp"
#include "options.hpp"

#include "rpgnav/debug/svg.hpp"
#include "rpgnav/field/crowd_field.hpp"
#include "rpgnav/io/rpgmap.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>

namespace rpgnav::tool {
namespace {

constexpr const char* kUsage =
    "usage: rpgnav field MAP --goal X,Y [--goal X,Y ...] [--mobility NAME] [--danger FILE] [--factor F]\n"
    "                    [--bash-doors TILES] [--svg FILE]\n"
    "  --goal: a point in world units (the goal tile is the tile under it)\n"
    "  the map's doors apply: open ones pass, closed and locked ones block, or with --bash-doors\n"
    "    TILES (0-1000) pass at that many extra tile steps (monsters that bash doors in)\n"
    "  the map's danger layers and danger factor apply; --factor F (0-255) replaces the factor\n"
    "  --danger FILE: one more danger layer after the map's, one tile per line, 'x y danger'\n"
    "    (0-255; # starts a comment)\n";

// The map file's layers share the field's layer numbering with the --danger file.
static_assert(kMaxDangerLayers == kMaxDangerLayers);

// Reads a --danger file into danger layer `layer`; false after saying what is wrong.
bool readDangerFile(const std::string& path, int layer, CrowdField& field, std::int64_t& tiles) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "rpgnav field: cannot read %s\n", path.c_str());
    return false;
  }
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (const std::size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    int x = 0, y = 0, danger = 0;
    char extra = 0;
    if (std::sscanf(line.c_str(), "%d %d %d %c", &x, &y, &danger, &extra) != 3 || danger < 0 || danger > 255 ||
        field.setDanger(layer, {x, y}, std::uint8_t(danger)) != Status::Ok) {
      std::fprintf(stderr, "rpgnav field: %s:%d: expected 'x y danger' with a tile of the map and 0-255\n",
                   path.c_str(), number);
      return false;
    }
    tiles += danger > 0;
  }
  return true;
}

}  // namespace

int fieldCommand(Arguments args) {
  std::string mapPath, dangerPath, svgPath, mobilityName = "walk";
  std::vector<Vec2> goalPoints;
  std::optional<std::uint8_t> factorOption;  // unset: the map's own factor
  CommandLine commandLine("rpgnav field", kUsage);
  commandLine.positional("MAP", mapPath);
  commandLine.option("--goal", "X,Y in world units", [&](std::string_view value) {
    Vec2 point;
    if (!readPoint(value, point)) return false;
    goalPoints.push_back(point);
    return true;
  });
  commandLine.option("--danger", dangerPath);
  commandLine.option("--factor", "a whole number from 0 to 255",
                     [&](std::string_view value) { return readDangerFactor(value, factorOption); });
  std::optional<float> bashCost;  // unset: closed and locked doors block
  commandLine.option("--bash-doors", "a number of tile steps from 0 to 1000", [&](std::string_view value) {
    float cost = 0.0f;
    if (!readNumber(value, cost) || !(cost >= 0.0f && cost <= 1000.0f)) return false;
    bashCost = cost;
    return true;
  });
  commandLine.option("--mobility", mobilityName);
  commandLine.option("--svg", svgPath);
  if (const auto exit = commandLine.parse(args)) return *exit;
  if (goalPoints.empty()) return commandLine.usageError("missing --goal X,Y");
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
  // Goals are points, as for `rpgnav path`; the field's goal is the tile under each.
  std::vector<Cell> goals;
  for (const Vec2& point : goalPoints) {
    if (const std::string unusable = explainUnusablePoint("goal", point, map, *mobility); !unusable.empty()) {
      std::fprintf(stderr, "rpgnav field: %s\n", unusable.c_str());
      return 1;
    }
    goals.push_back(*map.tileAt(point));
  }
  const std::vector<DangerLayerSpec>& layers = document->dangerLayers;
  if (!dangerPath.empty() && layers.size() >= std::size_t(kMaxDangerLayers)) {
    std::fprintf(stderr, "rpgnav field: --danger would be danger layer %zu, but the map has %zu already (at most %d)\n",
                 layers.size() + 1, layers.size(), kMaxDangerLayers);
    return 1;
  }
  CrowdField field(CostField::build(map, *mobility).value());
  std::string layerList;  // "market (6 tiles), --danger FILE (4 tiles)"
  for (std::size_t layer = 0; layer < layers.size(); ++layer) {
    std::int64_t tiles = 0;
    for (std::int32_t i = 0; i < map.tileCount(); ++i) {
      const std::uint8_t value = layers[layer].values[std::size_t(i)];
      if (value == 0) continue;
      field.setDanger(int(layer), map.cellAt(i), value);
      ++tiles;
    }
    layerList += (layer == 0 ? "" : ", ") + layers[layer].name + " (" + countOf(std::uint64_t(tiles), "tile") + ")";
  }
  if (!dangerPath.empty()) {
    std::int64_t tiles = 0;
    if (!readDangerFile(dangerPath, int(layers.size()), field, tiles)) return 1;
    layerList += (layers.empty() ? "" : ", ") + dangerPath + " (" + countOf(std::uint64_t(tiles), "tile") + ")";
  }
  const std::uint8_t factor = factorOption.value_or(document->dangerFactor);
  field.setDangerFactor(factor);
  if (bashCost) field.setDoorCosts({*bashCost, *bashCost});
  std::size_t shut = 0;
  for (const DoorSpec& door : document->doors) {
    field.setDoor(door.a, door.b, door.state);  // (the map's doors are on edges between neighbours)
    shut += door.state != DoorState::Open;
  }
  const auto begin = std::chrono::steady_clock::now();
  field.setGoals(goals);
  const double micros = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - begin).count();
  std::int64_t passable = 0;
  for (std::int32_t i = 0; i < map.tileCount(); ++i) passable += field.costs().at(map.cellAt(i)) != CostField::kImpassable;
  std::printf("map %s: %dx%d, %lld passable tiles for %s\n", mapPath.c_str(), map.width(), map.height(),
              (long long)passable, mobilityName.c_str());
  std::printf("goals: %s\n", countOf(field.goals().size(), "tile").c_str());
  std::printf("danger layers: %s\n", layerList.empty() ? "none" : layerList.c_str());
  std::printf("danger factor %d (%s)\n", factor,
              factorOption ? "--factor" : document->dangerFactor != 0 ? "the map's" : "the default");
  if (bashCost) {
    std::printf("doors: %s, %zu closed or locked: bashed in at %g tile steps\n", countOf(document->doors.size(), "door").c_str(),
                shut, double(*bashCost));
  } else {
    std::printf("doors: %s, %zu closed or locked: they block\n", countOf(document->doors.size(), "door").c_str(), shut);
  }
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
