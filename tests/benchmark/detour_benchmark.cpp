// SPDX-License-Identifier: MIT
// Stage 7 (detours round entities): its time per query with many entities on a 512×512 map.
// Entities are spread at random over the passable tiles (fixed seed; a fifth of them flat, the
// rest static or moving); queries are the map's scenario lines, tile centre to tile centre, for
// a character of radius 0.25. Without the Moving AI data a generated 512×512 map (10% walls) and
// random queries stand in.
//
// usage: rpgnav_detour_benchmark [--movingai DIR] [--entities N ...]
#include "rpgnav/io/moving_ai.hpp"
#include "rpgnav/path/planner.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

using namespace rpgnav;

namespace {

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  return values[std::min(values.size() - 1, std::size_t(p * double(values.size())))];
}

}  // namespace

int main(int argc, char** argv) {
  std::filesystem::path movingAi = RPGNAV_MOVINGAI_DIR;
  std::vector<int> counts;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--movingai" && i + 1 < argc) {
      movingAi = argv[++i];
    } else if (arg == "--entities" && i + 1 < argc) {
      counts.push_back(std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: rpgnav_detour_benchmark [--movingai DIR] [--entities N ...]\n");
      return 2;
    }
  }
  if (counts.empty()) counts = {0, 100, 1000, 10000};

  // The map and the queries.
  std::optional<TileMap> map;
  std::vector<std::pair<Cell, Cell>> queries;
  std::string name;
  std::mt19937 random(2026);
  const auto aftershock = movingAi / "sc1" / "Aftershock.map";
  if (std::filesystem::exists(aftershock)) {
    auto read = readMovingAiMap(aftershock);
    auto scenario = readScenario(aftershock.string() + ".scen");
    if (!read || !scenario) return std::fprintf(stderr, "cannot read %s\n", aftershock.c_str()), 1;
    map.emplace(std::move(read.value()));
    for (const ScenarioEntry& entry : *scenario) queries.push_back({entry.start, entry.goal});
    name = "sc1/Aftershock";
  } else {
    std::string text = "type octile\nheight 512\nwidth 512\nmap\n";
    for (int y = 0; y < 512; ++y) {
      for (int x = 0; x < 512; ++x) text += std::uniform_real_distribution<double>(0.0, 1.0)(random) < 0.1 ? '@' : '.';
      text += '\n';
    }
    auto made = parseMovingAiMap(text, "generated");
    if (!made) return std::fprintf(stderr, "%s\n", made.error().message.c_str()), 1;
    map.emplace(std::move(made.value()));
    for (int q = 0; q < 2000; ++q) {
      queries.push_back({{std::uniform_int_distribution<int>(0, 511)(random), std::uniform_int_distribution<int>(0, 511)(random)},
                         {std::uniform_int_distribution<int>(0, 511)(random), std::uniform_int_distribution<int>(0, 511)(random)}});
    }
    name = "generated 512x512";
  }
  std::vector<Cell> open;
  for (std::int32_t i = 0; i < map->tileCount(); ++i) {
    if (map->passable(map->cellAt(i), TerrainTable::kWalk)) open.push_back(map->cellAt(i));
  }

  std::printf("detours, radius 0.25, %s, %zu queries (tile centre to tile centre): microseconds per query\n",
              name.c_str(), queries.size());
  std::printf("%9s %10s %10s %10s %10s %10s %10s\n", "entities", "detour_med", "detour_p99", "total_med", "detoured_%",
              "blocked_%", "failed");
  for (const int count : counts) {
    World world(*map);
    for (std::uint32_t i = 1; i <= std::uint32_t(std::max(count, 0)); ++i) {
      const Cell cell = open[std::uniform_int_distribution<std::size_t>(0, open.size() - 1)(random)];
      const Vec2 jitter(std::uniform_real_distribution<float>(-0.3f, 0.3f)(random),
                        std::uniform_real_distribution<float>(-0.3f, 0.3f)(random));
      const std::uint8_t flags = i % 5 == 0 ? kEntityFlat : i % 2 == 0 ? kEntityMoving : kEntityStatic;
      (void)world.entities().add({EntityId{i}, map->layout().tileCenter(cell) + jitter,
                                  std::uniform_real_distribution<float>(0.2f, 0.6f)(random), flags});
    }
    Planner planner(world);
    PathResult result;
    std::vector<double> detour, total;
    int detoured = 0, blocked = 0, failed = 0;
    for (const auto& [start, goal] : queries) {
      const PathRequest request{map->layout().tileCenter(start), map->layout().tileCenter(goal), TerrainTable::kWalk, 0.25f};
      const Status status = planner.plan(request, result);
      if (!isSuccess(status)) {
        ++failed;
        continue;
      }
      detour.push_back(planner.diagnostics().stats(PathStage::Detours).micros);
      double sum = 0.0;
      for (const StageStats& stats : planner.diagnostics().stages) sum += stats.micros;
      total.push_back(sum);
      detoured += result.detours.empty() ? 0 : 1;
      blocked += status == Status::BlockedByEntity ? 1 : 0;
    }
    const double n = double(std::max<std::size_t>(detour.size(), 1));
    std::printf("%9d %10.2f %10.2f %10.1f %10.1f %10.1f %10d\n", count, percentile(detour, 0.5), percentile(detour, 0.99),
                percentile(total, 0.5), 100.0 * detoured / n, 100.0 * blocked / n, failed);
  }
  return 0;
}
