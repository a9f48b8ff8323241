// SPDX-License-Identifier: MIT
// Crowd fields: a full integration field (and directions) for cities/Berlin_0_1024, beside a plain
// binary-heap Dijkstra, and for a 100×100 map; the incremental edits (the goal stepping to a
// neighbouring tile, a tile walled up and cleared again) against a full rebuild on every dao map;
// flow lookups for 10,000 characters.
//
// The danger slider: the town (its own danger layers and doors) and Berlin (random
// danger blobs) built at factors 0 to 255.
//
// usage: rpgnav_field_benchmark [--movingai DIR] [--only slider|tracking]
#include "rpgnav/field/crowd_field.hpp"
#include "rpgnav/io/moving_ai.hpp"
#include "rpgnav/io/rpgmap.hpp"

#include "benchmark_maps.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <limits>
#include <queue>
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

// Passable tiles of the map (for walking) with room around them.
std::vector<Cell> openTiles(const TileMap& map) {
  std::vector<Cell> open;
  for (std::int32_t i = 0; i < map.tileCount(); ++i) {
    if (map.passable(map.cellAt(i), TerrainTable::kWalk)) open.push_back(map.cellAt(i));
  }
  return open;
}

// The open tile nearest the map's middle (the builds' goal).
Cell middleGoal(const TileMap& map) {
  const std::vector<Cell> open = openTiles(map);
  const Cell middle{map.width() / 2, map.height() / 2};
  return *std::min_element(open.begin(), open.end(), [&](Cell a, Cell b) {
    return std::abs(a.x - middle.x) + std::abs(a.y - middle.y) < std::abs(b.x - middle.x) + std::abs(b.y - middle.y);
  });
}

// A full build's cost: the whole call, and the field's own split into the integration field and
// the flow field read from it.
struct Build {
  double totalUs = 0.0, integrationUs = 0.0, flowUs = 0.0;
};

// The fastest of `runs` full builds towards the open tile nearest the map's middle (this machine's
// timings vary a lot from run to run; the fastest is the cost without interference).
Build fullBuild(const TileMap& map, CrowdField& field, int runs = 9) {
  const Cell goal = middleGoal(map);
  Build best{1e300, 1e300, 1e300};
  for (int run = 0; run < runs; ++run) {
    const auto begin = Clock::now();
    field.setGoals(std::vector<Cell>{goal});
    best.totalUs = std::min(best.totalUs, micros(begin));
    best.integrationUs = std::min(best.integrationUs, field.diagnostics().build.integrationMicros);
    best.flowUs = std::min(best.flowUs, field.diagnostics().build.flowMicros);
  }
  return best;
}

void printBuild(const char* name, const TileMap& map, const CrowdField& field, const Build& build) {
  std::printf("%-26s %10d %10lld %10.3f %14.3f %10.3f %10.1f\n", name, map.tileCount(), (long long)field.reachableCount(),
              build.totalUs / 1000.0, build.integrationUs / 1000.0, build.flowUs / 1000.0,
              build.totalUs * 1000.0 / double(map.tileCount()));
}

// One kind of edit: each one's time, and the most tiles one visited (CrowdField::diagnostics().work).
struct Edits {
  std::vector<double> micros;
  double mostTiles = 0.0;
  void add(double us, const CrowdField& field) {
    micros.push_back(us);
    mostTiles = std::max(mostTiles, double(field.diagnostics().work.tiles));
  }
};

// A square 8-connected map of floor and walls (a share of the tiles, at random).
TileMap randomWalls(std::mt19937& random, int width, int height, double wallShare) {
  TerrainTable terrain;
  const TerrainId floor = terrain.addTerrain("floor", '.').value(), wall = terrain.addTerrain("wall", '#').value();
  (void)terrain.setCost(floor, TerrainTable::kWalk, 1.0f);
  std::vector<TerrainId> tiles;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int i = 0; i < width * height; ++i) tiles.push_back(unit(random) < wallShare ? wall : floor);
  return TileMap::create(Layout::square(), width, height, terrain, tiles).value();
}

// A plain binary-heap Dijkstra (std::priority_queue, lazy deletion) over the same CostField and
// rules as CrowdField's integration field with no danger: 8-connected, no corner cutting, a step
// costing half its length (1 or √2, in units of kStep) at each of its two tiles' costs. The
// yardstick for the integration's speed; its distances are checked against the field's.
struct HeapDijkstra {
  std::int32_t width, height, stride;
  // Padded by one impassable tile all round (0): half a straight and half a diagonal step.
  std::vector<std::int64_t> weight, diagonalWeight;
  std::vector<std::int64_t> distance;

  explicit HeapDijkstra(const CostField& costs)
      : width(costs.width()), height(costs.height()), stride(costs.width() + 2),
        weight(std::size_t(stride) * std::size_t(height + 2), 0), diagonalWeight(weight.size(), 0) {
    for (std::int32_t y = 0; y < height; ++y) {
      for (std::int32_t x = 0; x < width; ++x) {
        const float cost = costs.cost({x, y});
        if (cost == TerrainTable::kImpassable) continue;
        weight[index({x, y})] = std::llround(0.5 * double(cost) * double(CrowdField::kStep));
        diagonalWeight[index({x, y})] = std::llround(0.5 * double(cost) * std::sqrt(2.0) * double(CrowdField::kStep));
      }
    }
  }
  std::size_t index(Cell cell) const { return std::size_t(cell.y + 1) * std::size_t(stride) + std::size_t(cell.x + 1); }

  void run(Cell goal) {
    distance.assign(weight.size(), CrowdField::kUnreachable);
    using Entry = std::pair<std::int64_t, std::uint32_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
    const std::ptrdiff_t s = stride;
    // East, south, west, north; then the diagonals with the two tiles beside them.
    const std::ptrdiff_t straight[4] = {1, s, -1, -s};
    const std::ptrdiff_t diagonal[4][3] = {{s + 1, 1, s}, {s - 1, -1, s}, {-s - 1, -1, -s}, {-s + 1, 1, -s}};
    distance[index(goal)] = 0;
    heap.push({0, std::uint32_t(index(goal))});
    while (!heap.empty()) {
      const auto [d, tile] = heap.top();
      heap.pop();
      if (d != distance[tile]) continue;  // a stale entry
      // Adjacency is symmetric: a neighbour steps here, paying half the step on each tile.
      for (const std::ptrdiff_t offset : straight) {
        const std::size_t next = std::size_t(std::ptrdiff_t(tile) + offset);
        const std::int64_t viaStraight = d + weight[tile] + weight[next];
        if (weight[next] != 0 && viaStraight < distance[next]) {
          distance[next] = viaStraight;
          heap.push({viaStraight, std::uint32_t(next)});
        }
      }
      for (const auto& [offset, besideA, besideB] : diagonal) {
        const std::size_t next = std::size_t(std::ptrdiff_t(tile) + offset);
        const std::int64_t viaDiagonal = d + diagonalWeight[tile] + diagonalWeight[next];
        if (weight[next] != 0 && weight[std::size_t(std::ptrdiff_t(tile) + besideA)] != 0 &&
            weight[std::size_t(std::ptrdiff_t(tile) + besideB)] != 0 && viaDiagonal < distance[next]) {
          distance[next] = viaDiagonal;
          heap.push({viaDiagonal, std::uint32_t(next)});
        }
      }
    }
  }
};

// The danger slider: one field built at factors 0 to 255, each factor's first build on a fresh
// field (what `rpgnav field` times) and the fastest of 9 after it, against factor 0's.
void dangerSlider(const char* name, const TileMap& map, const std::vector<std::vector<std::uint8_t>>& layers,
                  const std::vector<DoorSpec>& doors, Cell goal) {
  std::printf("%-22s", name);
  double zeroFirst = 0.0, zeroFastest = 0.0;
  for (const int factor : {0, 1, 32, 100, 200, 255}) {
    CrowdField field(CostField::build(map, TerrainTable::kWalk).value());
    for (std::size_t layer = 0; layer < layers.size(); ++layer) {
      for (std::int32_t i = 0; i < map.tileCount(); ++i) {
        if (layers[layer][std::size_t(i)] != 0) (void)field.setDanger(int(layer), map.cellAt(i), layers[layer][std::size_t(i)]);
      }
    }
    for (const DoorSpec& door : doors) (void)field.setDoor(door.a, door.b, door.state);
    field.setDangerFactor(std::uint8_t(factor));
    auto begin = Clock::now();
    field.setGoals(std::vector<Cell>{goal});
    const double first = micros(begin);
    double fastest = 1e300;
    for (int run = 0; run < 9; ++run) {
      begin = Clock::now();
      field.rebuild();
      fastest = std::min(fastest, micros(begin));
    }
    if (factor == 0) zeroFirst = first, zeroFastest = fastest;
    std::printf("  %3d: %7.0f / %7.0f us (%4.2fx / %4.2fx)", factor, first, fastest, first / zeroFirst, fastest / zeroFastest);
  }
  std::printf("\n");
}

// A whole-map field tracking a walking goal: 600 steps to random open
// neighbours, each followed by a refresh slice of 400 us (as a game's frame would give it), and a
// tile walled up or cleared every 10 steps; against the full build, with the field's excess over
// the exact one at the end.
void trackedGoal(const std::filesystem::path& movingAi, std::mt19937& random) {
  std::printf("\ntracked goal (CrowdField::trackGoal): 600 steps to random open neighbours, a 400 us refresh slice after\n"
              "each, a tile walled up or cleared every 10 steps; step and slice microseconds, of the full build's\n");
  for (const char* name : {"cities/Berlin_0_1024", "dao/brc202d"}) {
    auto map = readMovingAiMap(movingAi / (std::string(name) + ".map"));
    if (!map) {
      std::printf("%s: skipped (--movingai DIR)\n", name);
      continue;
    }
    CrowdField field(CostField::build(*map, TerrainTable::kWalk).value());
    const Build whole = fullBuild(*map, field);
    auto begin = Clock::now();
    (void)field.startTracking();
    const double start = micros(begin);
    const std::vector<Cell> open = openTiles(*map);
    std::vector<double> steps, slices, edits;
    std::int64_t mostStepTiles = 0;
    int landed = 0;
    std::vector<std::pair<Cell, std::uint8_t>> walls;
    for (int step = 0; step < 600; ++step) {
      const Cell from = field.goals().front();
      std::vector<Cell> options;
      for (const NeighbourStep& move : map->layout().moves(from)) {
        if (map->canStep(from, move, TerrainTable::kWalk) && field.reachable({from.x + move.dx, from.y + move.dy})) {
          options.push_back({from.x + move.dx, from.y + move.dy});
        }
      }
      if (options.empty()) break;
      const Cell to = options[std::uniform_int_distribution<std::size_t>(0, options.size() - 1)(random)];
      begin = Clock::now();
      field.trackGoal(to);
      steps.push_back(micros(begin));
      mostStepTiles = std::max(mostStepTiles, field.diagnostics().work.tiles);
      if (step % 10 == 9) {
        begin = Clock::now();
        if (walls.size() < 4) {
          const Cell cell = open[std::uniform_int_distribution<std::size_t>(0, open.size() - 1)(random)];
          if (cell != to) {
            walls.push_back({cell, field.costs().at(cell)});
            field.setCost(cell, CostField::kImpassable);
          }
        } else {
          field.setCost(walls.front().first, walls.front().second);
          walls.erase(walls.begin());
        }
        edits.push_back(micros(begin));
      }
      const bool was = field.refreshing();
      begin = Clock::now();
      field.refreshTracking(std::numeric_limits<std::int64_t>::max(), 400.0);
      slices.push_back(micros(begin));
      landed += was && !field.refreshing();
    }
    // How far the tracked distances lie above the exact ones now (tile steps of cost-1 ground).
    CrowdField exact(field.costs());
    const Cell goal = field.goals().front();
    exact.setGoals(std::span(&goal, 1));
    double worst = 0.0, sum = 0.0;
    std::int64_t counted = 0;
    for (std::int32_t y = 0; y < map->height(); ++y) {
      for (std::int32_t x = 0; x < map->width(); ++x) {
        if (!exact.reachable({x, y})) continue;
        const double excess = double(field.distance({x, y}) - exact.distance({x, y})) / double(CrowdField::kStep);
        worst = std::max(worst, excess);
        sum += excess;
        ++counted;
      }
    }
    std::sort(steps.begin(), steps.end());
    std::sort(slices.begin(), slices.end());
    std::sort(edits.begin(), edits.end());
    const auto p99 = [](const std::vector<double>& values) { return values.empty() ? 0.0 : values[values.size() * 99 / 100]; };
    std::printf("%s: full build %.0f us; startTracking %.0f us; step median %.1f us (%.2f%%), p99 %.1f us, at most %lld tiles;\n"
                "  slice median %.1f us, p99 %.1f us, max %.1f us; edit median %.1f us, max %.1f us; %d refreshes landed;\n"
                "  at the end: travel %.1f steps, excess over the exact field mean %.2f, most %.1f steps\n",
                name, whole.totalUs, start, median(steps), 100.0 * median(steps) / whole.totalUs, p99(steps),
                (long long)mostStepTiles, median(slices), p99(slices), slices.empty() ? 0.0 : slices.back(), median(edits),
                edits.empty() ? 0.0 : edits.back(), landed, double(field.trackedTravel()) / double(CrowdField::kStep),
                counted > 0 ? sum / double(counted) : 0.0, worst);
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::filesystem::path movingAi = RPGNAV_MOVINGAI_DIR;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::string(argv[i]) == "--movingai") movingAi = argv[i + 1];
  }
  std::mt19937 random(1);
  bool onlySlider = false, onlyTracking = false;
  for (int i = 1; i < argc; ++i) {
    onlySlider = onlySlider || std::string(argv[i]) == "slider";
    onlyTracking = onlyTracking || std::string(argv[i]) == "tracking";
  }
  if (onlyTracking) {
    trackedGoal(movingAi, random);
    return 0;
  }

  std::printf("danger slider: builds at factors 0 to 255; per factor the first build on a fresh field and\n"
              "the fastest of 9 rebuilds after it, microseconds (and against factor 0's)\n");
  if (auto town = readRpgMap(std::filesystem::path(RPGNAV_SAMPLE_MAPS_DIR) / "town.rpgmap")) {
    std::vector<std::vector<std::uint8_t>> layers;
    for (const DangerLayerSpec& layer : town->dangerLayers) layers.push_back(layer.values);
    dangerSlider("samples/maps/town", town->map, layers, town->doors, *town->map.tileAt(Vec2(30.5f, 45.5f)));
  }
  if (auto berlin = readMovingAiMap(movingAi / "cities" / "Berlin_0_1024.map")) {
    // Danger blobs over about a fifth of the map: squares of 8 to 64 tiles of 20 to 255.
    std::vector<std::uint8_t> layer(std::size_t(berlin->tileCount()), 0);
    std::mt19937 blobs(53);
    for (int blob = 0; blob < 250; ++blob) {
      const int side = std::uniform_int_distribution<int>(8, 64)(blobs);
      const int x0 = std::uniform_int_distribution<int>(0, berlin->width() - side)(blobs);
      const int y0 = std::uniform_int_distribution<int>(0, berlin->height() - side)(blobs);
      const auto value = std::uint8_t(std::uniform_int_distribution<int>(20, 255)(blobs));
      for (int y = y0; y < y0 + side; ++y) {
        for (int x = x0; x < x0 + side; ++x) layer[std::size_t(y) * std::size_t(berlin->width()) + std::size_t(x)] = value;
      }
    }
    dangerSlider("cities/Berlin_0_1024", *berlin, {layer}, {}, middleGoal(*berlin));
  }
  if (onlySlider) return 0;
  std::printf("\n");

  std::printf("full build, fastest of 9: the whole call, of which the integration field (distances) and the flow field\n"
              "(directions; the vectors are computed on lookup)\n");
  std::printf("%-26s %10s %10s %10s %14s %10s %10s\n", "map", "tiles", "reachable", "build_ms", "integration_ms", "flow_ms",
              "ns/tile");
  if (auto berlin = readMovingAiMap(movingAi / "cities" / "Berlin_0_1024.map")) {
    CrowdField field(CostField::build(*berlin, TerrainTable::kWalk).value());
    const Build build = fullBuild(*berlin, field);
    printBuild("cities/Berlin_0_1024", *berlin, field, build);
    // The same distances from a plain binary-heap Dijkstra, fastest of 9, side by side.
    HeapDijkstra heap(field.costs());
    const Cell goal = middleGoal(*berlin);
    double heapUs = 1e300;
    for (int run = 0; run < 9; ++run) {
      const auto begin = Clock::now();
      heap.run(goal);
      heapUs = std::min(heapUs, micros(begin));
    }
    bool same = true;
    for (std::int32_t y = 0; y < berlin->height(); ++y) {
      for (std::int32_t x = 0; x < berlin->width(); ++x) same = same && heap.distance[heap.index({x, y})] == field.distance({x, y});
    }
    std::printf("%-26s %10s %10s %10.3f (binary-heap Dijkstra, same distances: %s): integration/heap %.3f, "
                "build/integration %.3f\n",
                "  heap Dijkstra", "", "", heapUs / 1000.0, same ? "yes" : "NO", build.integrationUs / heapUs,
                build.totalUs / build.integrationUs);
  } else {
    std::printf("cities/Berlin_0_1024: skipped (--movingai DIR)\n");
  }
  {
    const TileMap small = randomWalls(random, 100, 100, 0.2);
    CrowdField field(CostField::build(small, TerrainTable::kWalk).value());
    printBuild("random 100x100, 20% walls", small, field, fullBuild(small, field, 99));
  }

  // Issue 50: the same tiles as pointy and flat hex maps beside the square map (the goal in the
  // middle region of each), and the hex build over the square one. The three layouts take turns,
  // five rounds of five builds each in a row (the first warms the caches, as the fastest of 9 in
  // a row did before), and each keeps its fastest: a slow spell of this machine (its timings swing
  // by half from one second to the next) then falls on all three alike instead of on whichever
  // ran during it.
  std::printf("\nhex maps beside square maps of the same tiles: full build, fastest of 5 rounds of 5 in a row\n");
  std::printf("%-34s %10s %10s %10s %14s %10s %10s\n", "map", "tiles", "reachable", "build_ms", "integration_ms", "flow_ms",
              "hex/square");
  for (const char* name : {"dao/brc202d", "bg512/AR0011SR", "sc1/Aftershock", "cities/Berlin_0_1024"}) {
    auto map = readMovingAiMap(movingAi / (std::string(name) + ".map"));
    if (!map) {
      std::printf("%s: skipped (--movingai DIR)\n", name);
      continue;
    }
    const std::array<Layout, 3> layouts{map->layout(), Layout::hexPointy(), Layout::hexFlat()};
    std::vector<TileMap> tiles;
    std::vector<CrowdField> fields;
    for (const Layout& layout : layouts) {
      tiles.push_back(layout.isHex() ? bench::withLayout(*map, layout) : *map);
      fields.emplace_back(CostField::build(tiles.back(), TerrainTable::kWalk).value());
    }
    std::array<Build, 3> best{};
    for (int round = 0; round < 5; ++round) {
      for (std::size_t k = 0; k < layouts.size(); ++k) {
        const Build build = fullBuild(tiles[k], fields[k], 5);
        if (round == 0 || build.totalUs < best[k].totalUs) best[k] = build;
      }
    }
    for (std::size_t k = 0; k < layouts.size(); ++k) {
      const Layout& layout = layouts[k];
      const CrowdField::BuildTimes& last = fields[k].diagnostics().build;
      std::printf("%-34s %10d %10lld %10.3f %14.3f %10.3f %10s   %s %.3f / %.3f / %.3f (%lld)\n",
                  (std::string(name) + " " + std::string(toString(layout.kind()))).c_str(), tiles[k].tileCount(),
                  (long long)fields[k].reachableCount(), best[k].totalUs / 1000.0, best[k].integrationUs / 1000.0,
                  best[k].flowUs / 1000.0,
                  layout.isHex() ? (std::to_string(best[k].totalUs / best[0].totalUs).substr(0, 4) + "x").c_str() : "",
                  last.canonical ? "scan / check / repair ms" : "not scanned:", last.scanMicros / 1000.0,
                  last.checkMicros / 1000.0, last.repairMicros / 1000.0, (long long)last.repaired);
      std::fflush(stdout);
    }
  }

  std::printf("\nincremental edits against a full rebuild, dao maps (200 of each: median microseconds; full_us: the fastest\n"
              "of 9 builds; rebuild_us: the median of 200 rebuilds timed in the same loop as the edits (each right after a goal step); share_%%: of\n"
              "rebuild_us; work_%%: the most tiles one edit of the kind visited, of those a rebuild visits): the goal steps; a tile anywhere walled up and cleared;\n"
              "a tile beside the goal walled up and cleared; a 10x10 building placed anywhere and taken away (one batch)\n");
  std::printf("%-14s %8s %10s %9s %7s %9s %7s %7s %9s %7s %7s %9s %7s %7s\n", "map", "full_us", "rebuild_us", "goal_us", "share_%", "wall_us",
              "share_%", "work_%", "beside_us", "share_%", "work_%", "bldg_us", "share_%", "work_%");
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
    const double fullWork = double(field.diagnostics().work.tiles);
    const std::vector<Cell> open = openTiles(*map);
    std::uniform_int_distribution<std::size_t> pick(0, open.size() - 1);
    Edits steps, toggles, besides, buildings, rebuilds;
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
        auto begin = Clock::now();
        field.moveGoal(from, to);
        steps.add(micros(begin), field);
        // A rebuild of the same field right after: the edits' yardstick under the same
        // conditions (caches, clock).
        begin = Clock::now();
        field.rebuild();
        rebuilds.add(micros(begin), field);
      }
      // A tile anywhere is walled up, then cleared (two edits).
      const Cell tile = open[pick(random)];
      if (tile == field.goals().front()) continue;
      const std::uint8_t cost = field.costs().at(tile);
      auto begin = Clock::now();
      field.setCost(tile, CostField::kImpassable);
      toggles.add(micros(begin), field);
      begin = Clock::now();
      field.setCost(tile, cost);
      toggles.add(micros(begin), field);
      // A wall right beside the goal (a player building round themselves), then cleared.
      const Cell goal = field.goals().front();
      for (const NeighbourStep& step : map->layout().moves(goal)) {
        const Cell beside{goal.x + step.dx, goal.y + step.dy};
        const std::uint8_t was = field.costs().at(beside);
        if (was == CostField::kImpassable) continue;
        begin = Clock::now();
        field.setCost(beside, CostField::kImpassable);
        besides.add(micros(begin), field);
        begin = Clock::now();
        field.setCost(beside, was);
        besides.add(micros(begin), field);
        break;
      }
      // A 10x10 building (walls) placed in one batch, then taken away again.
      std::vector<CrowdField::TileCost> building, ground;
      for (std::int32_t y = tile.y; y < std::min(tile.y + 10, map->height()); ++y) {
        for (std::int32_t x = tile.x; x < std::min(tile.x + 10, map->width()); ++x) {
          if (Cell{x, y} == field.goals().front()) continue;
          building.push_back({{x, y}, CostField::kImpassable});
          ground.push_back({{x, y}, field.costs().at({x, y})});
        }
      }
      begin = Clock::now();
      field.setCosts(building);
      buildings.add(micros(begin), field);
      begin = Clock::now();
      field.setCosts(ground);
      buildings.add(micros(begin), field);
    }
    const double rebuild = median(rebuilds.micros);
    std::printf("%-14s %8.0f %10.0f %9.1f %7.1f %9.1f %7.1f %7.1f %9.1f %7.1f %7.1f %9.1f %7.1f %7.1f\n",
                ("dao/" + path.stem().string()).c_str(), full, rebuild, median(steps.micros), 100.0 * median(steps.micros) / rebuild,
                median(toggles.micros), 100.0 * median(toggles.micros) / rebuild, 100.0 * toggles.mostTiles / fullWork,
                median(besides.micros), 100.0 * median(besides.micros) / rebuild, 100.0 * besides.mostTiles / fullWork,
                median(buildings.micros), 100.0 * median(buildings.micros) / rebuild, 100.0 * buildings.mostTiles / fullWork);
  }

  // A bounded field on Berlin: 300 followers within 64 tiles of a goal that wanders one tile per
  // step; each step the goal moves and the followers' tiles are told.
  if (auto map = readMovingAiMap(movingAi / "cities" / "Berlin_0_1024.map")) {
    CrowdField field(CostField::build(*map, TerrainTable::kWalk).value());
    const Build whole = fullBuild(*map, field);
    const std::int64_t wholeTiles = field.diagnostics().work.tiles;
    const Cell start = field.goals().front();
    std::vector<Cell> followers;
    std::uniform_int_distribution<int> offset(-64, 64);
    while (followers.size() < 300) {
      const Cell cell{start.x + offset(random), start.y + offset(random)};
      if (field.reachable(cell)) followers.push_back(cell);
    }
    field.setFollowers(followers, 8);
    std::vector<double> steps;
    std::int64_t mostTiles = 0, mostSettled = 0;
    int scanned = 0;  // goal steps built by the canonical scan (the others by Dial's algorithm)
    for (int step = 0; step < 400; ++step) {
      const Cell from = field.goals().front();
      std::vector<Cell> options;
      for (const NeighbourStep& move : map->layout().moves(from)) {
        if (map->canStep(from, move, TerrainTable::kWalk)) options.push_back({from.x + move.dx, from.y + move.dy});
      }
      const Cell to = options[std::uniform_int_distribution<std::size_t>(0, options.size() - 1)(random)];
      // Followers hold their ground (the spread the field must cover) unless the goal gets more
      // than 64 tiles away: then they step after it along the field.
      for (Cell& follower : followers) {
        if (std::max(std::abs(follower.x - to.x), std::abs(follower.y - to.y)) <= 64) continue;
        const std::uint8_t direction = field.direction(follower);
        if (direction == CrowdField::kNoDirection) continue;
        const NeighbourStep& move = map->layout().moves(follower)[direction];
        follower = {follower.x + move.dx, follower.y + move.dy};
      }
      const auto begin = Clock::now();
      field.moveGoal(from, to);
      scanned += field.diagnostics().build.canonical;
      std::int64_t tiles = field.diagnostics().work.tiles;
      field.setFollowers(followers, 8);
      steps.push_back(micros(begin));
      tiles += field.diagnostics().work.tiles;
      mostTiles = std::max(mostTiles, tiles);
      mostSettled = std::max(mostSettled, field.settledCount());
    }
    std::sort(steps.begin(), steps.end());
    std::printf("\nbounded field on cities/Berlin_0_1024: 300 followers within 64 tiles of a goal stepping one tile at a time\n"
                "(400 steps; each the goal's move and the followers' new tiles, margin 8): median %.0f us (%.1f%% of the full\n"
                "build's %.0f us), p99 %.0f us (%.1f%%); at most %lld tiles settled, %.1f%% of a full build's tile visits;\n"
                "%d of the 400 steps by the canonical scan\n",
                median(steps), 100.0 * median(steps) / whole.totalUs, whole.totalUs, steps[steps.size() * 99 / 100],
                100.0 * steps[steps.size() * 99 / 100] / whole.totalUs, (long long)mostSettled,
                100.0 * double(mostTiles) / double(wholeTiles), scanned);
  }

  trackedGoal(movingAi, random);

  // A turret on a small arena (40x21, a tenth walls): its range stamped as danger in one call and
  // taken away again, against a full rebuild.
  {
    const TileMap arena = randomWalls(random, 40, 21, 0.1);
    CrowdField field(CostField::build(arena, TerrainTable::kWalk).value());
    field.setDangerFactor(128);
    const double full = fullBuild(arena, field, 999).totalUs;
    std::vector<double> adds, removes, withTurret;
    for (int i = 0; i < 500; ++i) {
      const CrowdField::DangerStamp turret{Vec2(float(2 + i % 36) + 0.5f, float(2 + i % 17) + 0.5f), 6.0f, 200, 1.0f};
      auto begin = Clock::now();
      const std::uint32_t id = field.addDangerStamp(turret).value();
      adds.push_back(micros(begin));
      // A rebuild with the turret's danger in place: weights 128 to 25,728 spread the bucket
      // queue over many more buckets than the bare arena's.
      begin = Clock::now();
      field.rebuild();
      withTurret.push_back(micros(begin));
      begin = Clock::now();
      field.removeDangerStamp(id);
      removes.push_back(micros(begin));
    }
    std::printf("\nturret on a 40x21 arena (danger stamp of radius 6, factor 128; medians of 500): full build %.1f us "
                "(%.1f us with the turret in place), stamp added %.1f us, taken away %.1f us\n",
                full, median(withTurret), median(adds), median(removes));
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
