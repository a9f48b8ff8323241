// SPDX-License-Identifier: MIT
// A* speed on Moving AI maps (uniform cost, every scenario line, checked against the optimum),
// on the same maps with random terrain-cost patches (checked against plain A* without jump
// points), for wide characters (radius 0.5-3 tiles on dao/brc202d, the scenario lines a body of
// 1.5 tiles can travel, against radius 0 on the same lines; checked against A* without jump
// points), the Moving AI maps' tiles as pointy and flat hex maps beside the square map of the
// same tiles (checked against a breadth-first search), and on the hex sample map with its terrain
// costs.
//
// usage: rpgnav_search_benchmark [--movingai DIR] [--maps DIR] [--repeat N] [--landmarks N]
//                                [--only uniform|weighted|wide|hex|first] [--map NAME] [--every K]
//                                [--no-jump-points]
// --map keeps the Moving AI maps whose name contains NAME; --every K runs every K-th scenario
// line (for quick side-by-side runs of two builds); --only first times first queries on fresh
// search contexts (see firstQueries).
#include "grid/clearance.hpp"
#include "rpgnav/grid/regions.hpp"
#include "rpgnav/io/moving_ai.hpp"
#include "rpgnav/io/rpgmap.hpp"
#include "search/search_context.hpp"

#include "benchmark_maps.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

using namespace rpgnav;
using namespace rpgnav::bench;

namespace {

bool g_jumpPoints = true;  // --no-jump-points: plain A* for comparison

struct Query {
  Cell start, goal;
  double optimal = -1.0;  // scenario optimum, or -1 when unknown
  double tolerance = 0.0;
};

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0.0 : values[values.size() / 2];
}

struct Figures {
  std::size_t queries = 0;
  std::size_t mismatches = 0;
  double medianMicros = 0, meanMicros = 0, meanExpanded = 0, nodesPerSecond = 0;
};

// Runs every query `repeat` times and keeps each query's fastest time (less noise from the
// machine); checks lengths against the optimum, or costs against a reference grid search.
// A body of `radius` tiles when `clearance` is given.
Figures run(const SearchGrid& grid, const std::vector<Query>& queries, int repeat, bool checkAgainstPlain,
            const Clearance* clearance = nullptr, double radius = 0.0) {
  SearchContext context, reference;
  SearchResult result, expected;
  std::vector<double> micros(queries.size(), 1e300);
  Figures figures;
  double expanded = 0;
  for (int r = 0; r < repeat; ++r) {
    for (std::size_t i = 0; i < queries.size(); ++i) {
      SearchRequest request;
      request.start = queries[i].start;
      request.goal = queries[i].goal;
      request.jumpPoints = g_jumpPoints;
      request.clearance = clearance;
      request.bodyTiles = radius;
      const auto begin = std::chrono::steady_clock::now();
      context.findPath(grid, request, result);
      const auto end = std::chrono::steady_clock::now();
      micros[i] = std::min(micros[i], std::chrono::duration<double, std::micro>(end - begin).count());
      if (r > 0) continue;
      expanded += double(result.expanded);
      bool ok = result.status == Status::Ok;
      if (ok && queries[i].optimal >= 0) ok = std::abs(result.length - queries[i].optimal) <= queries[i].tolerance;
      if (checkAgainstPlain) {  // the same answer as A* without jump points (a wide body's NoPath too)
        request.jumpPoints = false;
        reference.findPath(grid, request, expected);
        ok = expected.status == result.status && expected.costUnits == result.costUnits;
      }
      figures.mismatches += ok ? 0 : 1;
    }
  }
  double total = 0;
  for (double us : micros) total += us;
  figures.queries = queries.size();
  figures.medianMicros = median(micros);
  figures.meanMicros = queries.empty() ? 0 : total / double(queries.size());
  figures.meanExpanded = queries.empty() ? 0 : expanded / double(queries.size());
  figures.nodesPerSecond = total > 0 ? expanded / (total * 1e-6) : 0;
  return figures;
}

void print(const std::string& name, const Figures& f) {
  std::printf("%-34s %7zu %6zu %10.1f %10.1f %10.0f %9.1f\n", name.c_str(), f.queries, f.mismatches, f.medianMicros,
              f.meanMicros, f.meanExpanded, f.nodesPerSecond / 1e6);
  std::fflush(stdout);
}

// Random start/goal pairs in the same region.
std::vector<Query> randomQueries(const SearchGrid& grid, int count, std::uint32_t seed) {
  std::mt19937 random(seed);
  std::vector<Query> queries;
  std::uniform_int_distribution<int> x(0, grid.width() - 1), y(0, grid.height() - 1);
  while (int(queries.size()) < count) {
    const Cell a{x(random), y(random)}, b{x(random), y(random)};
    if (grid.regions().connected(a, b)) queries.push_back({a, b});
  }
  return queries;
}

}  // namespace

// The work of hex and square searches on the same tiles, free of the machine's timing noise
// (--only hex-work, to be run under `valgrind --tool=callgrind
// --toggle-collect='rpgnav::SearchContext::findPath*'`, which then counts the searches'
// instructions alone): 200 random queries between tiles connected on both the square map and
// its hex forms, each searched once, unchecked, on the layout asked (with --costs, the
// terrain-cost patches of the hex table). The same queries on every layout.
int hexWork(const std::filesystem::path& movingAi, const std::string& name, const std::string& layoutName, bool costs) {
  auto map = readMovingAiMap(movingAi / (name + ".map"));
  if (!map) return std::fprintf(stderr, "%s: %s\n", name.c_str(), std::string(map.message()).c_str()), 2;
  const HexForms forms(std::move(*map));
  const TileMap* chosen = forms.named(layoutName);
  if (chosen == nullptr) return std::fprintf(stderr, "--layout: square, hex-pointy or hex-flat\n"), 2;
  const TileMap &square = forms.square, &pointy = forms.pointy, &flat = forms.flat;
  const SearchGrid grid = SearchGrid::build(costs ? withCostPatches(*chosen, 2026) : *chosen, TerrainTable::kWalk).value();
  const RegionMap onSquare = RegionMap::compute(square, TerrainTable::kWalk), onPointy = RegionMap::compute(pointy, TerrainTable::kWalk),
                  onFlat = RegionMap::compute(flat, TerrainTable::kWalk);
  std::mt19937 random(7);
  std::uniform_int_distribution<int> x(0, square.width() - 1), y(0, square.height() - 1);
  std::vector<Query> queries;
  while (queries.size() < 200) {
    const Cell a{x(random), y(random)}, b{x(random), y(random)};
    if (onSquare.connected(a, b) && onPointy.connected(a, b) && onFlat.connected(a, b)) queries.push_back({a, b});
  }
  SearchContext context;
  SearchResult result;
  double expanded = 0;
  const auto begin = std::chrono::steady_clock::now();
  for (const Query& query : queries) {
    SearchRequest request;
    request.start = query.start;
    request.goal = query.goal;
    request.tilePath = false;
    context.findPath(grid, request, result);
    expanded += double(result.expanded);
  }
  const double micros = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - begin).count();
  std::printf("%s %s%s: 200 queries, %.1f us a query, %.1f expanded a query\n", name.c_str(), layoutName.c_str(),
              costs ? " +costs" : "", micros / 200.0, expanded / 200.0);
  return 0;
}

// Writes over a buffer larger than any cache of the machine, so the next search finds the map's
// data and its own in memory, not in cache.
void evictCaches() {
  static std::vector<std::uint64_t> buffer(std::size_t(64) << 20 >> 3);  // 64 MB
  for (std::uint64_t& word : buffer) word += 1;
  volatile std::uint64_t sink = buffer[buffer.size() / 2];
  (void)sink;
}

// No cold first query: for 9 scenario lines spread over the file, a SearchContext
// made just before runs the line (its first query), then the same line again; the medians of
// both, the largest ratio of a first query to its repeat, and the first line's two times (with
// --map naming one map, the process's very first query: the later contexts may reuse memory the
// process already holds). The repeat finds in cache the map's tiles that the first query brought
// there, which any first query of a line pays, however warm its context; so the same is measured
// again with the caches flushed before each of the two runs: what then differs is only the
// context, fresh or used.
void firstQueries(const std::string& name, const SearchGrid& grid, const std::vector<Query>& queries) {
  std::vector<double> first, second, flushedFirst, flushedSecond;
  double worst = 0.0, flushedWorst = 0.0;
  SearchResult result;
  for (const bool flush : {false, true}) {  // (the flushed pass second: it leaves the caches cold)
    for (std::size_t k = 0; k < 9 && !queries.empty(); ++k) {
      const Query& query = queries[(queries.size() - 1) * k / 8];
      SearchRequest request;
      request.start = query.start;
      request.goal = query.goal;
      request.jumpPoints = g_jumpPoints;
      SearchContext context(grid);  // sized for the map when made, as a Planner on shared data does
      double micros[2];
      for (double& us : micros) {
        if (flush) evictCaches();
        const auto begin = std::chrono::steady_clock::now();
        context.findPath(grid, request, result);
        us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - begin).count();
      }
      (flush ? flushedFirst : first).push_back(micros[0]);
      (flush ? flushedSecond : second).push_back(micros[1]);
      double& worstRatio = flush ? flushedWorst : worst;
      worstRatio = std::max(worstRatio, micros[0] / micros[1]);
    }
  }
  std::printf("%-34s first query %9.1f us, again %9.1f us (medians of 9 lines); worst first/again %.2fx; "
              "the first line: %.1f / %.1f us\n",
              name.c_str(), median(first), median(second), worst, first.empty() ? 0.0 : first[0], second.empty() ? 0.0 : second[0]);
  std::printf("%-34s caches flushed: %9.1f us, again %9.1f us; median first/again %.2fx, worst %.2fx\n", "",
              median(flushedFirst), median(flushedSecond),
              median(flushedSecond) > 0.0 ? median(flushedFirst) / median(flushedSecond) : 0.0, flushedWorst);
}

int main(int argc, char** argv) {
  std::filesystem::path movingAi = RPGNAV_MOVINGAI_DIR, maps = RPGNAV_SAMPLE_MAPS_DIR;
  int repeat = 3, landmarkCount = 8;
  std::string only = "all";
  std::string workLayout = "square";  // --only hex-work: --layout
  bool workCosts = false;             // --only hex-work: --costs
  std::string mapFilter;  // --map: names containing it
  int every = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--movingai" && i + 1 < argc) {
      movingAi = argv[++i];
    } else if (arg == "--maps" && i + 1 < argc) {
      maps = argv[++i];
    } else if (arg == "--only" && i + 1 < argc) {
      only = argv[++i];
    } else if (arg == "--map" && i + 1 < argc) {
      mapFilter = argv[++i];
    } else if (arg == "--every" && i + 1 < argc) {
      every = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--no-jump-points") {
      g_jumpPoints = false;
    } else if (arg == "--landmarks" && i + 1 < argc) {
      landmarkCount = std::clamp(std::atoi(argv[++i]), 1, 16);
    } else if (arg == "--repeat" && i + 1 < argc) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--layout" && i + 1 < argc) {
      workLayout = argv[++i];
    } else if (arg == "--costs") {
      workCosts = true;
    } else {
      std::fprintf(stderr, "usage: rpgnav_search_benchmark [--movingai DIR] [--maps DIR] [--repeat N] [--landmarks N]\n"
                   "                              [--only uniform|weighted|wide|hex|first] [--map NAME] [--every K]\n"
                   "                              [--no-jump-points]\n"
                   "       rpgnav_search_benchmark --only hex-work --map NAME --layout square|hex-pointy|hex-flat [--costs]\n");
      return 2;
    }
  }
  if (only == "hex-work") return hexWork(movingAi, mapFilter, workLayout, workCosts);
  std::printf("%-34s %7s %6s %10s %10s %10s %9s\n", "map", "queries", "wrong", "median_us", "mean_us", "expanded",
              "Mnodes/s");
  const char* uniformMaps[] = {"dao/brc202d",         "dao/orz100d",       "sc1/Aftershock",     "mazes/maze512-1-0",
                               "random/random512-40-0", "bg512/AR0011SR", "cities/Berlin_0_1024"};
  const char* weightedMaps[] = {"dao/brc202d", "sc1/Aftershock", "dao/orz100d"};
  int failures = 0;
  if (!std::filesystem::is_directory(movingAi / "dao")) {
    std::printf("(Moving AI maps not found under %s: skipped)\n", movingAi.string().c_str());
  } else {
    for (const char* name : uniformMaps) {
      if (only != "all" && only != "uniform" && only != "first") break;
      if (std::string(name).find(mapFilter) == std::string::npos) continue;
      auto map = readMovingAiMap(movingAi / (std::string(name) + ".map"));
      auto scenario = readScenario(movingAi / (std::string(name) + ".map.scen"));
      if (!map || !scenario) {
        std::fprintf(stderr, "%s: %s%s\n", name, std::string(map.message()).c_str(), std::string(scenario.message()).c_str());
        return 1;
      }
      const SearchGrid grid = SearchGrid::build(*map, TerrainTable::kWalk).value();
      std::vector<Query> queries;
      for (std::size_t k = 0; k < scenario->size(); k += std::size_t(every)) {
        const ScenarioEntry& entry = (*scenario)[k];
        queries.push_back({entry.start, entry.goal, entry.optimalLength, entry.tolerance()});
      }
      if (only == "first") {
        firstQueries(name, grid, queries);
        continue;
      }
      const Figures figures = run(grid, queries, repeat, false);
      failures += int(figures.mismatches);
      print(name, figures);
    }
    for (const char* name : weightedMaps) {
      if (only != "all" && only != "weighted" && only != "first") break;
      if (std::string(name).find(mapFilter) == std::string::npos) continue;
      auto map = readMovingAiMap(movingAi / (std::string(name) + ".map"));
      auto scenario = readScenario(movingAi / (std::string(name) + ".map.scen"));
      const TileMap weighted = withCostPatches(*map, 2026);
      std::vector<Query> queries;
      for (std::size_t k = 0; k < scenario->size(); k += std::size_t(every)) queries.push_back({(*scenario)[k].start, (*scenario)[k].goal});
      if (only == "first") {
        firstQueries(std::string(name) + " +costs", SearchGrid::build(weighted, TerrainTable::kWalk).value(), queries);
        continue;
      }
      for (int landmarks : {0, landmarkCount}) {
        SearchGridSettings settings;
        settings.landmarks = landmarks;
        const auto begin = std::chrono::steady_clock::now();
        const SearchGrid grid = SearchGrid::build(weighted, TerrainTable::kWalk, settings).value();
        const double buildMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
        const Figures figures = run(grid, queries, repeat, true);
        failures += int(figures.mismatches);
        print(std::string(name) + " +costs, " + std::to_string(landmarks) + " landmarks", figures);
        if (landmarks > 0) std::printf("%-34s (grid build with landmarks: %.0f ms)\n", "", buildMs);
      }
    }
  }
  // Wide characters on dao/brc202d: the scenario lines a body of 1.5 tiles can travel (start and
  // goal where it fits, a route wide enough), at radius 0 and at each radius, same lines.
  if (only == "first") return 0;
  if (std::filesystem::is_directory(movingAi / "dao") && (only == "all" || only == "wide") &&
      std::string("dao/brc202d").find(mapFilter) != std::string::npos) {
    auto map = readMovingAiMap(movingAi / "dao/brc202d.map");
    auto scenario = readScenario(movingAi / "dao/brc202d.map.scen");
    const SearchGrid grid = SearchGrid::build(*map, TerrainTable::kWalk).value();
    const auto begin = std::chrono::steady_clock::now();
    const Clearance clearance = Clearance::build(*map, TerrainTable::kWalk);
    const double buildMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
    std::vector<Query> queries;
    SearchContext context;
    SearchResult result;
    for (std::size_t k = 0; k < scenario->size(); k += std::size_t(every)) {
      SearchRequest request;
      request.start = (*scenario)[k].start;
      request.goal = (*scenario)[k].goal;
      request.clearance = &clearance;
      request.bodyTiles = 1.5;
      if (context.findPath(grid, request, result) == Status::Ok) queries.push_back({request.start, request.goal});
    }
    std::printf("dao/brc202d, wide characters: %zu of %zu scenario lines wide enough for radius 1.5; clearance built in %.1f ms, "
                "%zu bytes (%.2f a tile)\n",
                queries.size(), (scenario->size() + std::size_t(every) - 1) / std::size_t(every), buildMs, clearance.memoryBytes(),
                double(clearance.memoryBytes()) / double(map->tileCount()));
    const Figures narrow = run(grid, queries, repeat, true);
    failures += int(narrow.mismatches);
    print("dao/brc202d radius 0", narrow);
    for (const double radius : {0.5, 1.0, 1.5, 2.0, 3.0}) {
      // (Lines a wider body cannot travel answer NoPath or a blocked end: wrong only where A*
      // without jump points answers otherwise.)
      const Figures wide = run(grid, queries, repeat, true, &clearance, radius);
      failures += int(wide.mismatches);
      char name[64];
      std::snprintf(name, sizeof name, "dao/brc202d radius %.1f (%.2fx)", radius, wide.medianMicros / narrow.medianMicros);
      print(name, wide);
    }
  }
  // Moving AI maps as hex maps: the same passable tiles as pointy and as flat hexes,
  // 200 scenario lines spread over the file (those whose ends are connected on the hex map), hex
  // optima from a breadth-first search; the square 8-way map of the same tiles and lines beside.
  if (std::filesystem::is_directory(movingAi / "dao") && (only == "all" || only == "hex")) {
    for (const char* name : {"dao/brc202d", "bg512/AR0011SR", "sc1/Aftershock", "cities/Berlin_0_1024"}) {
      if (std::string(name).find(mapFilter) == std::string::npos) continue;
      auto map = readMovingAiMap(movingAi / (std::string(name) + ".map"));
      auto scenario = readScenario(movingAi / (std::string(name) + ".map.scen"));
      if (!map || !scenario) return std::fprintf(stderr, "%s: cannot read\n", name), 1;
      const SearchGrid square = SearchGrid::build(*map, TerrainTable::kWalk).value();
      double squareMedian = 0.0;
      for (const Layout& layout : {Layout::hexPointy(), Layout::hexFlat()}) {
        const TileMap hexMap = withLayout(*map, layout);
        const SearchGrid hexGrid = SearchGrid::build(hexMap, TerrainTable::kWalk).value();
        std::vector<Query> lines, hexLines;
        const std::size_t stride = std::max<std::size_t>(1, scenario->size() / 200);
        for (std::size_t k = 0; k < scenario->size() && lines.size() < 200; k += stride) {
          const ScenarioEntry& entry = (*scenario)[k];
          if (!hexGrid.regions().connected(entry.start, entry.goal)) continue;
          const std::vector<std::int32_t> steps = stepsFrom(hexMap, entry.start);
          lines.push_back({entry.start, entry.goal, entry.optimalLength, entry.tolerance()});
          hexLines.push_back({entry.start, entry.goal, double(steps[std::size_t(hexMap.index(entry.goal))]), 1e-9});
        }
        const Figures onSquare = run(square, lines, repeat, false);
        const Figures onHex = run(hexGrid, hexLines, repeat, false);
        failures += int(onSquare.mismatches + onHex.mismatches);
        squareMedian = onSquare.medianMicros;
        print(std::string(name) + " square 8-way", onSquare);
        char label[96];
        std::snprintf(label, sizeof label, "%s %s (%.2fx)", name, std::string(toString(layout.kind())).c_str(), onHex.medianMicros / squareMedian);
        print(label, onHex);
        // With the random terrain-cost patches (grown over each layout's own neighbours from the
        // same seeds), checked against plain A*, beside the square map's patches.
        const SearchGrid squareCosts = SearchGrid::build(withCostPatches(*map, 2026), TerrainTable::kWalk).value();
        const SearchGrid hexCosts = SearchGrid::build(withCostPatches(hexMap, 2026), TerrainTable::kWalk).value();
        const Figures weightedSquare = run(squareCosts, lines, repeat, true);
        const Figures weightedHex = run(hexCosts, hexLines, repeat, true);
        failures += int(weightedSquare.mismatches + weightedHex.mismatches);
        print(std::string(name) + " square +costs", weightedSquare);
        std::snprintf(label, sizeof label, "%s %s +costs (%.2fx)", name, std::string(toString(layout.kind())).c_str(),
                      weightedHex.medianMicros / weightedSquare.medianMicros);
        print(label, weightedHex);
      }
    }
  }
  if ((only != "all" && only != "hex") || std::string("wilderness").find(mapFilter) == std::string::npos) {
    return failures == 0 ? 0 : 1;
  }
  auto wilderness = readRpgMap(maps / "wilderness.rpgmap");
  if (!wilderness) {
    std::fprintf(stderr, "%s\n", wilderness.error().message.c_str());
    return 1;
  }
  const SearchGrid hexGrid = SearchGrid::build(wilderness->map, TerrainTable::kWalk).value();
  const Figures hex = run(hexGrid, randomQueries(hexGrid, 2000, 7), repeat, true);
  failures += int(hex.mismatches);
  print("wilderness.rpgmap (hex, costs)", hex);
  return failures == 0 ? 0 : 1;
}
