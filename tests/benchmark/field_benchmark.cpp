// SPDX-License-Identifier: MIT
// Crowd fields: a full integration (and flow) field for cities/Berlin_0_1024 and for a 100×100
// map; the incremental edits (the goal stepping to a neighbouring tile, a tile walled up and
// cleared again) against a full rebuild on every dao map; flow lookups for 10,000 characters.
//
// usage: rpgnav_field_benchmark [--movingai DIR]
#include "rpgnav/field/crowd_field.hpp"
#include "rpgnav/io/moving_ai.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

using namespace rpgnav;

namespace {

// Timed loops store their results here: a volatile the compiler must write, so it cannot drop
// the work as unused.
volatile double keepResult = 0.0;

using Clock = std::chrono::steady_clock;

double micros(Clock::time_point begin) { return std::chrono::duration<double, std::micro>(Clock::now() - begin).count(); }

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0.0 : values[values.size() / 2];
}

double mean(const std::vector<double>& values) {
  double sum = 0.0;
  for (const double v : values) sum += v;
  return values.empty() ? 0.0 : sum / double(values.size());
}

// Passable tiles of the map (for walking) with room around them.
std::vector<Cell> openTiles(const TileMap& map) {
  std::vector<Cell> open;
  for (std::int32_t i = 0; i < map.tileCount(); ++i) {
    if (map.passable(map.cellAt(i), TerrainTable::kWalk)) open.push_back(map.cellAt(i));
  }
  return open;
}

// A full build's cost: the whole call, and the field's own split into the integration field and
// the flow field read from it.
struct Build {
  double totalUs = 0.0, integrationUs = 0.0, flowUs = 0.0;
};

// The fastest of `runs` full builds towards the open tile nearest the map's middle (this machine's
// timings vary a lot from run to run; the fastest is the cost without interference).
Build fullBuild(const TileMap& map, CrowdField& field, int runs = 9) {
  const std::vector<Cell> open = openTiles(map);
  const Cell middle{map.width() / 2, map.height() / 2};
  const Cell goal = *std::min_element(open.begin(), open.end(), [&](Cell a, Cell b) {
    return std::abs(a.x - middle.x) + std::abs(a.y - middle.y) < std::abs(b.x - middle.x) + std::abs(b.y - middle.y);
  });
  Build best{1e300, 1e300, 1e300};
  for (int run = 0; run < runs; ++run) {
    const auto begin = Clock::now();
    field.setGoals(std::vector<Cell>{goal});
    best.totalUs = std::min(best.totalUs, micros(begin));
    best.integrationUs = std::min(best.integrationUs, field.lastBuild().integrationMicros);
    best.flowUs = std::min(best.flowUs, field.lastBuild().flowMicros);
  }
  return best;
}

void printBuild(const char* name, const TileMap& map, const CrowdField& field, const Build& build) {
  std::printf("%-26s %10d %10lld %10.3f %14.3f %10.3f %10.1f\n", name, map.tileCount(), (long long)field.reachableCount(),
              build.totalUs / 1000.0, build.integrationUs / 1000.0, build.flowUs / 1000.0,
              build.totalUs * 1000.0 / double(map.tileCount()));
}

}  // namespace

int main(int argc, char** argv) {
  std::filesystem::path movingAi = RPGNAV_MOVINGAI_DIR;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::string(argv[i]) == "--movingai") movingAi = argv[i + 1];
  }
  std::mt19937 random(1);

  std::printf("full build, fastest of 9: the whole call, of which the integration field (distances) and the flow field\n"
              "(directions and vectors)\n");
  std::printf("%-26s %10s %10s %10s %14s %10s %10s\n", "map", "tiles", "reachable", "build_ms", "integration_ms", "flow_ms",
              "ns/tile");
  if (auto berlin = readMovingAiMap(movingAi / "cities" / "Berlin_0_1024.map")) {
    CrowdField field(CostField::build(*berlin, TerrainTable::kWalk).value());
    printBuild("cities/Berlin_0_1024", *berlin, field, fullBuild(*berlin, field));
  } else {
    std::printf("cities/Berlin_0_1024: skipped (--movingai DIR)\n");
  }
  {
    // 100×100, a fifth of the tiles walls, fixed seed.
    TerrainTable terrain;
    const TerrainId floor = terrain.addTerrain("floor", '.').value(), wall = terrain.addTerrain("wall", '#').value();
    (void)terrain.setCost(floor, TerrainTable::kWalk, 1.0f);
    std::vector<TerrainId> tiles;
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int i = 0; i < 100 * 100; ++i) tiles.push_back(unit(random) < 0.2 ? wall : floor);
    const TileMap small = TileMap::create(Layout::square(), 100, 100, terrain, tiles).value();
    CrowdField field(CostField::build(small, TerrainTable::kWalk).value());
    printBuild("random 100x100, 20% walls", small, field, fullBuild(small, field, 99));
  }

  std::printf("\nincremental edits against a full rebuild, dao maps (200 of each, mean microseconds)\n");
  std::printf("%-14s %10s %12s %8s %14s %8s\n", "map", "full_us", "goal_step_us", "share_%", "wall_toggle_us", "share_%");
  std::vector<std::filesystem::path> daoMaps;
  if (std::filesystem::is_directory(movingAi / "dao")) {
    for (const auto& file : std::filesystem::directory_iterator(movingAi / "dao")) {
      if (file.path().extension() == ".map") daoMaps.push_back(file.path());
    }
  }
  std::sort(daoMaps.begin(), daoMaps.end());
  for (const auto& path : daoMaps) {
    auto map = readMovingAiMap(path);
    if (!map) continue;
    CrowdField field(CostField::build(*map, TerrainTable::kWalk).value());
    const double full = fullBuild(*map, field).totalUs;
    const std::vector<Cell> open = openTiles(*map);
    std::uniform_int_distribution<std::size_t> pick(0, open.size() - 1);
    std::vector<double> steps, toggles;
    for (int i = 0; i < 200; ++i) {
      // The goal steps to a random open neighbour.
      const Cell from = field.goals().front();
      const auto moves = map->layout().moves(from);
      std::vector<Cell> options;
      for (const NeighbourStep& step : moves) {
        const Cell to{from.x + step.dx, from.y + step.dy};
        if (map->canStep(from, step, TerrainTable::kWalk)) options.push_back(to);
      }
      if (!options.empty()) {
        const Cell to = options[std::uniform_int_distribution<std::size_t>(0, options.size() - 1)(random)];
        const auto begin = Clock::now();
        field.moveGoal(from, to);
        steps.push_back(micros(begin));
      }
      // A tile anywhere is walled up, then cleared (two edits).
      const Cell tile = open[pick(random)];
      if (tile == field.goals().front()) continue;
      const std::uint8_t cost = field.costs().at(tile);
      auto begin = Clock::now();
      field.setCost(tile, CostField::kImpassable);
      toggles.push_back(micros(begin));
      begin = Clock::now();
      field.setCost(tile, cost);
      toggles.push_back(micros(begin));
    }
    std::printf("%-14s %10.0f %12.1f %8.1f %14.1f %8.1f\n", ("dao/" + path.stem().string()).c_str(), full, mean(steps),
                100.0 * mean(steps) / full, mean(toggles), 100.0 * mean(toggles) / full);
  }

  // Sectors on Berlin: the portal graph once, then per goal only the sectors asked for.
  if (auto map = readMovingAiMap(movingAi / "cities" / "Berlin_0_1024.map")) {
    const CostField costs = CostField::build(*map, TerrainTable::kWalk).value();
    auto begin = Clock::now();
    SectorFields sectors(costs, 32);
    const double portalsUs = micros(begin);
    const std::vector<Cell> open = openTiles(*map);
    std::uniform_int_distribution<std::size_t> pick(0, open.size() - 1);
    std::vector<double> goals, walks, built;
    for (int i = 0; i < 20; ++i) {
      const Cell goal = open[pick(random)], start = open[pick(random)];
      begin = Clock::now();
      sectors.setGoal(goal);
      goals.push_back(micros(begin));
      // A character walks from `start` to the goal, tile by tile, building sectors as it goes.
      begin = Clock::now();
      Cell here = start;
      for (int steps = 0; here != goal && steps < 100000 && sectors.direction(here) != CrowdField::kNoDirection; ++steps) {
        const NeighbourStep& step = map->layout().moves(here)[sectors.direction(here)];
        here = {here.x + step.dx, here.y + step.dy};
      }
      walks.push_back(micros(begin));
      built.push_back(double(sectors.sectorsBuilt()));
    }
    std::printf("\nsectors of 32x32 on cities/Berlin_0_1024: %d sectors, %d portals, portal graph %.0f ms;\n"
                "per goal (median of 20): pricing the portals %.0f us, a walk across the map building its sectors %.0f us, "
                "%.0f sectors built\n",
                sectors.sectorCount(), sectors.portalCount(), portalsUs / 1000.0, median(goals), median(walks), median(built));
  }

  // Lookups: 10,000 characters at random points of Berlin (or the last dao map) read the flow.
  if (auto map = readMovingAiMap(movingAi / "cities" / "Berlin_0_1024.map")) {
    CrowdField field(CostField::build(*map, TerrainTable::kWalk).value());
    fullBuild(*map, field);
    std::uniform_real_distribution<float> x(0.0f, float(map->width())), y(0.0f, float(map->height()));
    std::vector<Vec2> characters;
    for (int i = 0; i < 10000; ++i) characters.push_back(Vec2(x(random), y(random)));
    std::vector<double> frames;
    float sink = 0.0f;
    for (int frame = 0; frame < 100; ++frame) {
      const auto begin = Clock::now();
      for (const Vec2& p : characters) sink += field.flowAt(p).x();
      frames.push_back(micros(begin));
    }
    keepResult = double(sink);  // the lookups' results are used, so the compiler keeps them
    std::printf("\nflow lookups: 10,000 characters on cities/Berlin_0_1024: median %.1f us per frame\n", median(frames));
  }
  return 0;
}
