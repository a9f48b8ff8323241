// SPDX-License-Identifier: MIT
// rpgnav field MAP --goal X,Y: builds a crowd field towards a goal and reports on it.
#include "commands.hpp"

#include "rpgnav/debug/svg.hpp"
#include "rpgnav/field/crowd_field.hpp"
#include "rpgnav/io/rpgmap.hpp"

#include <charconv>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

namespace rpgnav::tool {
namespace {

constexpr const char* kUsage =
    "usage: rpgnav field MAP --goal X,Y [--goal X,Y ...] [--mobility NAME] [--danger FILE] [--factor F] [--svg FILE]\n"
    "  --danger FILE: one tile per line, 'x y danger' (0-255; # starts a comment)\n";

bool parseCell(std::string_view text, Cell& out) {
  const std::size_t comma = text.find(',');
  if (comma == std::string_view::npos) return false;
  const std::string_view x = text.substr(0, comma), y = text.substr(comma + 1);
  auto [endX, errorX] = std::from_chars(x.data(), x.data() + x.size(), out.x);
  auto [endY, errorY] = std::from_chars(y.data(), y.data() + y.size(), out.y);
  return errorX == std::errc() && errorY == std::errc() && endX == x.data() + x.size() && endY == y.data() + y.size();
}

}  // namespace

int fieldCommand(Arguments args) {
  std::string mapPath, dangerPath, svgPath, mobilityName = "walk";
  std::vector<Cell> goals;
  int factor = 0;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    const bool hasValue = i + 1 < args.size();
    bool ok = true;
    if (arg == "--goal" && hasValue) {
      Cell goal;
      ok = parseCell(args[++i], goal);
      goals.push_back(goal);
    } else if (arg == "--danger" && hasValue) {
      dangerPath = std::string(args[++i]);
    } else if (arg == "--factor" && hasValue) {
      const std::string_view value = args[++i];
      const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), factor);
      ok = error == std::errc() && end == value.data() + value.size() && factor >= 0 && factor <= 255;
    } else if (arg == "--mobility" && hasValue) {
      mobilityName = std::string(args[++i]);
    } else if (arg == "--svg" && hasValue) {
      svgPath = std::string(args[++i]);
    } else if (!arg.starts_with("--") && mapPath.empty()) {
      mapPath = std::string(arg);
    } else {
      ok = false;
    }
    if (!ok) {
      std::fprintf(stderr, "rpgnav field: bad argument '%.*s'\n%s", int(arg.size()), arg.data(), kUsage);
      return 2;
    }
  }
  if (mapPath.empty() || goals.empty()) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  auto document = readMapFile(mapPath);
  if (!document) {
    std::fprintf(stderr, "rpgnav field: %s\n", document.error().message.c_str());
    return 1;
  }
  const TileMap& map = document->map;
  const auto mobility = map.terrain().findMobility(mobilityName);
  if (!mobility) {
    std::fprintf(stderr, "rpgnav field: unknown mobility '%s'\n", mobilityName.c_str());
    return 1;
  }
  for (const Cell goal : goals) {
    if (!map.contains(goal)) {
      std::fprintf(stderr, "rpgnav field: goal %d,%d lies outside the %dx%d map\n", goal.x, goal.y, map.width(), map.height());
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
