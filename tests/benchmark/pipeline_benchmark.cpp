// SPDX-License-Identifier: MIT
// The character pipeline: path quality against optimal any-angle lengths (Anya/Polyanya, from
// anyangle_reference.csv), and the time the stages after A* add, on Moving AI maps. Quality is
// measured with each search (the exact any-angle search, SearchMode::ExactAnyAngle, the default
// on these maps of one cost; 8-way A* with jump points, SearchMode::Tiles; Theta*,
// SearchMode::AnyAngle); speed with the default search, or the one --search names (Theta*: slow,
// minutes). Every planner uses PlannerSettings' default comfort unless --comfort gives another
// (in tiles; 0: paths pulled taut at the radius, whose lengths the quality rows compare with the
// optimum).
//
// A fourth table times the stages on the sample maps (square and hex, with terrain costs), which
// need no Moving AI data.
//
// usage: rpgnav_pipeline_benchmark [--movingai DIR] [--maps DIR] [--search 8-way|exact|theta*] [--comfort TILES]
//                                  [--map NAME] [--no-costs]
//                                  [--only samples|quality|speed|hex|wide|smoothing|following]
#include "rpgnav/io/moving_ai.hpp"
#include "rpgnav/io/rpgmap.hpp"
#include "rpgnav/grid/regions.hpp"
#include "rpgnav/path/planner.hpp"

#include "benchmark_maps.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace rpgnav;

namespace {

// Timed loops store their results here: a volatile the compiler must write, so it cannot drop
// the work as unused.
volatile double keepResult = 0.0;

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

struct Reference {
  Vec2 start, goal;
  double optimal = 0;
};

// Rows of anyangle_reference.csv for one map: start and goal are tile corner points.
std::vector<Reference> readReference(const std::filesystem::path& csv, const std::string& map) {
  std::vector<Reference> rows;
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::stringstream fields(line);
    std::string name, scenLine, sx, sy, gx, gy, octile, anya;
    std::getline(fields, name, ',');
    if (name != map + ".map") continue;
    std::getline(fields, scenLine, ',');
    std::getline(fields, sx, ',');
    std::getline(fields, sy, ',');
    std::getline(fields, gx, ',');
    std::getline(fields, gy, ',');
    std::getline(fields, octile, ',');
    std::getline(fields, anya, ',');
    rows.push_back({Vec2(std::stof(sx), std::stof(sy)), Vec2(std::stof(gx), std::stof(gy)), std::stod(anya)});
  }
  return rows;
}

// The sample maps (--maps): 1,000 queries between random tile centres of one region each,
// radius 0.2, every stage on, the map's own terrain costs (no doors or entities): the medians of
// the search's time, of stages 3-6 together and of stage 8, from the planner's stage times.
void sampleMapSpeed(const std::filesystem::path& maps, const PlannerSettings& base) {
  std::printf("\nsample maps, radius 0.2, 1000 random queries, all stages: median microseconds per query\n");
  std::printf("%-20s %7s %10s %12s %10s   %s\n", "map", "queries", "search_us", "stages_3-6", "smoothing",
              "mean probes of stages 3, 4, 5, 6");
  for (const char* name : {"dungeon", "town", "wilderness"}) {
    auto loaded = readRpgMap(maps / (std::string(name) + ".rpgmap"));
    if (!loaded) {
      std::printf("%-20s (%s)\n", name, loaded.error().message.c_str());
      continue;
    }
    const TileMap& map = loaded->map;
    Planner planner(map, base);
    PathResult result;
    std::mt19937 random(3);
    std::uniform_int_distribution<std::int32_t> x(0, map.width() - 1), y(0, map.height() - 1);
    std::vector<double> search, refine, smoothing;
    // Probes per query of stages 3, 4, 5 and 6, summed (their means are printed).
    std::array<double, 4> probes{};
    for (int tries = 0; search.size() < 1000 && tries < 100000; ++tries) {
      const Cell a{x(random), y(random)}, b{x(random), y(random)};
      const PathRequest request{map.layout().tileCenter(a), map.layout().tileCenter(b), TerrainTable::kWalk, 0.2f};
      if (planner.plan(request, result) != Status::Ok || !planner.diagnostics().stats(PathStage::Search).ran) continue;
      search.push_back(planner.diagnostics().stats(PathStage::Search).micros);
      double rest = 0;
      for (int s = int(PathStage::ControlPoints); s <= int(PathStage::StraightenBackward); ++s) {
        rest += planner.diagnostics().stages[std::size_t(s)].micros;
        probes[std::size_t(s - int(PathStage::ControlPoints))] += planner.diagnostics().stages[std::size_t(s)].probes;

      }
      refine.push_back(rest);

      smoothing.push_back(planner.diagnostics().stats(PathStage::Smoothing).micros);
    }
    const double count = double(std::max<std::size_t>(search.size(), 1));
    std::printf("%-20s %7zu %10.1f %12.1f %10.1f   %5.1f %5.1f %5.1f %5.1f\n",
                (std::string(name) + (map.layout().isHex() ? " (hex)" : "")).c_str(), search.size(), median(search),
                median(refine), median(smoothing), probes[0] / count, probes[1] / count, probes[2] / count, probes[3] / count);
  }
}

// The hex table's work without its timing noise (--only hex-work, to be run under `valgrind
// --tool=callgrind --toggle-collect='rpgnav::Planner::Impl::searchAndFinish*'`, which then
// counts the search and the stages after it alone, not the navigation data the first plan
// builds): the hex table's scenario lines of one map whose ends are connected on both hex
// forms, each planned once at the default settings on the layout asked
// (the square one with the 8-way pipeline, as in the table), the terrain-cost patches unless
// --no-costs. The same lines on every layout.
int hexWork(const std::filesystem::path& movingAi, const std::string& name, const std::string& layoutName, bool costs,
            const PlannerSettings& base) {
  auto map = readMovingAiMap(movingAi / (name + ".map"));
  auto scenario = readScenario(movingAi / (name + ".map.scen"));
  if (!map || !scenario) return std::fprintf(stderr, "%s: cannot read\n", name.c_str()), 2;
  const bench::HexForms forms(std::move(*map));
  const TileMap* chosen = forms.named(layoutName);
  if (chosen == nullptr) return std::fprintf(stderr, "--layout: square, hex-pointy or hex-flat\n"), 2;
  const TileMap &pointy = forms.pointy, &flat = forms.flat;
  const RegionMap onPointy = RegionMap::compute(pointy, TerrainTable::kWalk), onFlat = RegionMap::compute(flat, TerrainTable::kWalk);
  std::vector<std::pair<Cell, Cell>> lines;
  const std::size_t stride = std::max<std::size_t>(1, scenario->size() / 200);
  for (std::size_t k = 0; k < scenario->size() && lines.size() < 200; k += stride) {
    const ScenarioEntry& entry = (*scenario)[k];
    if (onPointy.connected(entry.start, entry.goal) && onFlat.connected(entry.start, entry.goal)) lines.emplace_back(entry.start, entry.goal);
  }
  const TileMap planned = costs ? bench::withCostPatches(*chosen, 2026) : *chosen;
  PlannerSettings settings = base;
  if (!planned.layout().isHex()) settings.search = SearchMode::Tiles;  // the square 8-way pipeline
  Planner planner(planned, settings);
  PathResult result;
  std::array<double, std::size_t(kPathStageCount)> probes{}, micros{}, pointsOut{};
  int plans = 0;
  for (const auto& [start, goal] : lines) {
    if (planner.plan({planned.layout().tileCenter(start), planned.layout().tileCenter(goal)}, result) != Status::Ok) continue;
    ++plans;
    for (std::size_t stage = 0; stage < probes.size(); ++stage) {
      probes[stage] += planner.diagnostics().stages[stage].probes;
      micros[stage] += planner.diagnostics().stages[stage].micros;
      pointsOut[stage] += planner.diagnostics().stages[stage].pointsOut;
    }
  }
  std::printf("%s %s%s: %d plans; mean probes, microseconds and points out per stage:\n", name.c_str(), layoutName.c_str(),
              costs ? " +costs" : "", plans);
  for (std::size_t stage = 0; stage < probes.size(); ++stage) {
    std::printf("  %-22s %8.1f %8.1f %8.1f\n", std::string(toString(PathStage(stage))).c_str(), probes[stage] / std::max(plans, 1),
                micros[stage] / std::max(plans, 1), pointsOut[stage] / std::max(plans, 1));
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::filesystem::path movingAi = RPGNAV_MOVINGAI_DIR, maps = RPGNAV_SAMPLE_MAPS_DIR;
  std::string speedSearch = "exact";  // --search: the speed table's search (the default: the planner's)
  std::string only = "all";  // --only: one part
  std::string mapFilter;     // --map: the hex table's maps whose name contains this
  std::string workLayout = "square";  // --only hex-work: --layout
  bool noCosts = false;      // --no-costs: the hex table without its rows with terrain costs
  PlannerSettings base;  // every planner's settings, before each section's own
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--movingai" && i + 1 < argc) {
      movingAi = argv[++i];
    } else if (std::string(argv[i]) == "--maps" && i + 1 < argc) {
      maps = argv[++i];
    } else if (std::string(argv[i]) == "--search" && i + 1 < argc &&
               (std::string(argv[i + 1]) == "8-way" || std::string(argv[i + 1]) == "exact" ||
                std::string(argv[i + 1]) == "theta*")) {
      speedSearch = argv[++i];
    } else if (std::string(argv[i]) == "--comfort" && i + 1 < argc) {
      base.comfort = std::stof(argv[++i]);
    } else if (std::string(argv[i]) == "--only" && i + 1 < argc) {
      only = argv[++i];
    } else if (std::string(argv[i]) == "--map" && i + 1 < argc) {
      mapFilter = argv[++i];
    } else if (std::string(argv[i]) == "--no-costs") {
      noCosts = true;
    } else if (std::string(argv[i]) == "--layout" && i + 1 < argc) {
      workLayout = argv[++i];
    } else {
      std::fprintf(stderr, "usage: rpgnav_pipeline_benchmark [--movingai DIR] [--maps DIR] [--search 8-way|exact|theta*]\n"
                           "                                 [--comfort TILES] [--map NAME] [--no-costs]\n"
                           "                                 [--only samples|quality|speed|hex|wide|smoothing|following]\n"
                           "       rpgnav_pipeline_benchmark --only hex-work --map NAME --layout square|hex-pointy|hex-flat [--no-costs]\n");
      return 2;
    }
  }
  if (only == "hex-work") return hexWork(movingAi, mapFilter, workLayout, !noCosts, base);
  std::printf("comfort %.3g tiles\n", double(base.comfort));
  auto wants = [&](const char* part) { return only == "all" || only == part; };
  if (wants("samples")) sampleMapSpeed(maps, base);
  if (!std::filesystem::is_directory(movingAi / "anyangle")) {
    std::printf("(Moving AI data not found under %s: skipped)\n", movingAi.string().c_str());
    return 0;
  }
  if (wants("quality")) {
    std::printf("\n");
    std::printf("quality, radius 0: excess of the final length over the optimal any-angle length\n");
    std::printf("%-7s %-16s %7s %7s %10s %10s %10s %10s\n", "search", "map", "queries", "failed", "mean_%", "max_%",
                "search_%", "search_us");
    for (int run = 0; run < 9; ++run) {
      const char* search = std::array{"8-way", "exact", "theta*"}[run / 3];
      const char* name = std::array{"AR0500SR", "Milan_1_1024", "maze512-2-5"}[run % 3];
      auto map = readMovingAiMap(movingAi / "anyangle" / (std::string(name) + ".map"));
      if (!map) return std::fprintf(stderr, "%s\n", map.error().message.c_str()), 1;
      const auto rows = readReference(movingAi / "anyangle" / "anyangle_reference.csv", name);
      PlannerSettings settings = base;
      settings.search = std::array{SearchMode::Tiles, SearchMode::ExactAnyAngle, SearchMode::AnyAngle}[run / 3];
      Planner planner(*map, settings);
      PathResult result;
      double sum = 0, worst = 0, searchSum = 0;
      int failed = 0, counted = 0;
      std::vector<double> searchMicros;
      for (const Reference& row : rows) {
        if (planner.plan({row.start, row.goal}, result) != Status::Ok || row.optimal <= 0) {
          ++failed;
          continue;
        }
        const double excess = (result.length - row.optimal) / row.optimal * 100.0;
        sum += excess;
        worst = std::max(worst, excess);
        searchSum += (result.searchLength - row.optimal) / row.optimal * 100.0;
        searchMicros.push_back(planner.diagnostics().stats(PathStage::Search).micros);
        ++counted;
      }
      std::printf("%-7s %-16s %7zu %7d %10.4f %10.4f %10.4f %10.1f\n", search, name, rows.size(), failed,
                  counted ? sum / counted : 0.0, worst, counted ? searchSum / counted : 0.0, median(searchMicros));
    }
  }

  if (wants("speed")) {
    std::printf("\nspeed, radius 0, tile centre to tile centre, %s search: median microseconds per query\n",
                speedSearch.c_str());
    std::printf("%-20s %7s %10s %14s %8s   %s\n", "map", "queries", "search_us", "after_search", "ratio_%",
                "stages 3 / 4 / 5 / 6 (medians), probes");
    for (const char* name : {"dao/brc202d", "dao/orz100d", "sc1/Aftershock"}) {
      auto map = readMovingAiMap(movingAi / (std::string(name) + ".map"));
      auto scenario = readScenario(movingAi / (std::string(name) + ".map.scen"));
      if (!map || !scenario) return std::fprintf(stderr, "%s: cannot read\n", name), 1;
      PlannerSettings settings = base;
      settings.enabled[std::size_t(PathStage::StraightLine)] = false;  // always search: compare stages with A*
      settings.search = speedSearch == "theta*" ? SearchMode::AnyAngle : speedSearch == "exact" ? SearchMode::ExactAnyAngle : SearchMode::Tiles;
      Planner planner(*map, settings);
      PathResult result;
      std::vector<double> search, after, probes;
      std::array<std::vector<double>, 4> stages;  // 3-6 each
      for (const ScenarioEntry& entry : *scenario) {
        const PathRequest request{map->layout().tileCenter(entry.start), map->layout().tileCenter(entry.goal)};
        if (planner.plan(request, result) != Status::Ok) continue;
        search.push_back(planner.diagnostics().stats(PathStage::Search).micros);
        double rest = 0, probed = 0;
        // Part 1's stages (3-6): the ones the search issue's ratio is about.
        for (int s = int(PathStage::ControlPoints); s <= int(PathStage::StraightenBackward); ++s) {
          rest += planner.diagnostics().stages[std::size_t(s)].micros;
          probed += planner.diagnostics().stages[std::size_t(s)].probes;
          stages[std::size_t(s - int(PathStage::ControlPoints))].push_back(planner.diagnostics().stages[std::size_t(s)].micros);
        }
        after.push_back(rest);
        probes.push_back(probed);
      }
      const double s = median(search), a = median(after);
      std::printf("%-20s %7zu %10.1f %14.1f %8.0f   %.1f / %.1f / %.1f / %.1f, %.0f\n", name, search.size(), s, a,
                  s > 0 ? 100.0 * a / s : 0.0, median(stages[0]), median(stages[1]), median(stages[2]), median(stages[3]),
                  median(probes));
    }
  }

  if (wants("hex")) {
    // Issue 50: the whole default plan on Moving AI maps written as pointy and as flat hex maps
    // with exactly the same passable tiles, beside the square 8-way pipeline (the exact any-angle
    // search off) on the same tiles and lines; then both with random terrain-cost patches.
    // 200 scenario lines spread over each file, those whose ends are connected on the hex map,
    // tile centre to tile centre, the default settings otherwise (radius 0, every stage on);
    // plan() timed from outside, fastest of three runs per query.
    std::printf("\nhex maps beside square maps of the same tiles: whole default plan, median microseconds\n");
    std::printf("%-40s %7s %10s %10s %12s %8s   %s   %s\n", "map", "queries", "plan_us", "search_us", "stages_3-6", "probes",
                "mean probes of stages 3 / 4 / 5 / 6", "median us of stages 3 / 4 / 5 / 6");
    auto timePlans = [&](const TileMap& map, const PlannerSettings& settings, const std::vector<std::pair<Cell, Cell>>& lines,
                         std::vector<double>& plans, std::vector<double>& searches, std::vector<double>& middles,
                         std::vector<double>& probes, std::array<double, 4>& stageProbes,
                         std::array<std::vector<double>, 4>& stageMicros) {
      Planner planner(map, settings);
      PathResult result;
      for (const auto& [start, goal] : lines) {
        const PathRequest request{map.layout().tileCenter(start), map.layout().tileCenter(goal)};
        double best = HUGE_VAL;
        Status status = Status::Ok;
        for (int run = 0; run < 3; ++run) {
          const auto began = std::chrono::steady_clock::now();
          status = planner.plan(request, result);
          best = std::min(best, std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - began).count());
        }
        if (status != Status::Ok) continue;
        plans.push_back(best);
        searches.push_back(planner.diagnostics().stats(PathStage::Search).micros);
        double middle = 0, probed = 0;
        for (int stage = int(PathStage::ControlPoints); stage <= int(PathStage::StraightenBackward); ++stage) {
          middle += planner.diagnostics().stages[std::size_t(stage)].micros;
          probed += planner.diagnostics().stages[std::size_t(stage)].probes;
          stageProbes[std::size_t(stage - int(PathStage::ControlPoints))] += planner.diagnostics().stages[std::size_t(stage)].probes;
          stageMicros[std::size_t(stage - int(PathStage::ControlPoints))].push_back(planner.diagnostics().stages[std::size_t(stage)].micros);
        }
        middles.push_back(middle);
        probes.push_back(probed);
      }
    };
    for (const char* name : {"dao/brc202d", "bg512/AR0011SR", "sc1/Aftershock", "cities/Berlin_0_1024"}) {
      if (std::string(name).find(mapFilter) == std::string::npos) continue;
      auto map = readMovingAiMap(movingAi / (std::string(name) + ".map"));
      auto scenario = readScenario(movingAi / (std::string(name) + ".map.scen"));
      if (!map || !scenario) return std::fprintf(stderr, "%s: cannot read\n", name), 1;
      for (const bool costs : {false, true}) {
        if (costs && noCosts) continue;
        const TileMap square = costs ? bench::withCostPatches(*map, 2026) : *map;
        PlannerSettings squareSettings = base;
        squareSettings.search = SearchMode::Tiles;  // the square 8-way pipeline
        double squareMedian = 0.0;
        for (const Layout& layout : {Layout::hexPointy(), Layout::hexFlat()}) {
          const TileMap hexTiles = bench::withLayout(*map, layout);
          const TileMap hex = costs ? bench::withCostPatches(hexTiles, 2026) : hexTiles;
          const RegionMap regions = RegionMap::compute(hex, TerrainTable::kWalk);
          std::vector<std::pair<Cell, Cell>> lines;
          const std::size_t stride = std::max<std::size_t>(1, scenario->size() / 200);
          for (std::size_t k = 0; k < scenario->size() && lines.size() < 200; k += stride) {
            const ScenarioEntry& entry = (*scenario)[k];
            if (regions.connected(entry.start, entry.goal)) lines.emplace_back(entry.start, entry.goal);
          }
          std::vector<double> plans, searches, middles, probes;
          std::array<double, 4> stageProbes{};
          std::array<std::vector<double>, 4> stageMicros;
          auto print = [&](const std::string& label) {
            const double count = double(std::max<std::size_t>(plans.size(), 1));
            std::printf("%-40s %7zu %10.1f %10.1f %12.1f %8.0f   %.0f / %.0f / %.0f / %.0f   %.1f / %.1f / %.1f / %.1f\n",
                        label.c_str(), plans.size(), median(plans), median(searches), median(middles), median(probes),
                        stageProbes[0] / count, stageProbes[1] / count, stageProbes[2] / count, stageProbes[3] / count,
                        median(stageMicros[0]), median(stageMicros[1]), median(stageMicros[2]), median(stageMicros[3]));
          };
          timePlans(square, squareSettings, lines, plans, searches, middles, probes, stageProbes, stageMicros);
          squareMedian = median(plans);
          const std::string suffix = costs ? " +costs" : "";
          print(std::string(name) + " square 8-way" + suffix);
          plans.clear(), searches.clear(), middles.clear(), probes.clear();
          stageProbes = {};
          for (auto& micros : stageMicros) micros.clear();
          timePlans(hex, base, lines, plans, searches, middles, probes, stageProbes, stageMicros);
          char label[96];
          std::snprintf(label, sizeof label, "%s %s%s (%.2fx)", name, std::string(toString(layout.kind())).c_str(), suffix.c_str(),
                        median(plans) / squareMedian);
          print(label);
          std::fflush(stdout);
        }
      }
    }
  }

  if (wants("wide")) {
    // Large characters: the whole pipeline for bodies of 0.5 to 2.5 tiles on brc202d,
    // tile centre to tile centre, on the scenario lines the body can travel (start and goal tiles
    // it fits on, a route wide enough); the same lines at radius 0 for comparison.
    std::printf("\nlarge characters, dao/brc202d, tile centre to tile centre (lines the body travels): median per query\n");
    std::printf("%-8s %7s %10s %14s %12s %8s\n", "radius", "queries", "search_us", "after_search", "radius0_all", "probes");
    {
      auto map = readMovingAiMap(movingAi / "dao" / "brc202d.map");
      auto scenario = readScenario(movingAi / "dao" / "brc202d.map.scen");
      if (!map || !scenario) return std::fprintf(stderr, "brc202d: cannot read\n"), 1;
      PlannerSettings settings = base;
      settings.enabled[std::size_t(PathStage::StraightLine)] = false;
      Planner planner(*map, settings), pointPlanner(*map, settings);
      PathResult result, point;
      for (const float radius : {0.5f, 1.0f, 1.5f, 2.5f}) {
        std::vector<double> search, after, pointTotal, probes;
        for (const ScenarioEntry& entry : *scenario) {
          const Vec2 from = map->layout().tileCenter(entry.start), to = map->layout().tileCenter(entry.goal);
          if (planner.plan({from, to, TerrainTable::kWalk, radius}, result) != Status::Ok) continue;
          if (pointPlanner.plan({from, to}, point) != Status::Ok) continue;
          double rest = 0, total = 0;
          std::int32_t probed = 0;
          for (int s = int(PathStage::ControlPoints); s < kPathStageCount; ++s) {
            rest += planner.diagnostics().stages[std::size_t(s)].micros;
            probed += planner.diagnostics().stages[std::size_t(s)].probes;
          }
          for (const StageStats& stage : pointPlanner.diagnostics().stages) total += stage.micros;
          search.push_back(planner.diagnostics().stats(PathStage::Search).micros);
          after.push_back(rest);
          pointTotal.push_back(total);
          probes.push_back(double(probed));
        }
        std::printf("%-8.2f %7zu %10.1f %14.1f %12.1f %8.0f\n", double(radius), search.size(), median(search), median(after),
                    median(pointTotal), median(probes));
      }
    }
  }

  if (wants("smoothing")) {
    // Smoothing (stage 8) and sampling the curve (to 0.01 tiles): what they add to the whole
    // pipeline's median time, on every dao map, from the scenario's start to its goal as a game
    // would ask (all other stages on). Each query is planned by two planners, one with stage 8 off,
    // timed from the outside, the fastest of five runs each (interleaved, so neither planner gains
    // from the other's warm caches).
    std::printf("\nsmoothing, radius 0.25, dao maps: median microseconds per query (plan() timed from outside)\n");
    std::printf("%-20s %7s %10s %16s %8s %10s %14s %8s\n", "map", "queries", "unsmoothed", "smoothed+sample", "adds_%",
                "per_query_%", "smooth+sample", "repairs");
    std::vector<std::filesystem::path> daoMaps;
    for (const auto& file : std::filesystem::directory_iterator(movingAi / "dao")) {
      if (file.path().extension() == ".map") daoMaps.push_back(file.path());
    }
    std::sort(daoMaps.begin(), daoMaps.end());
    // Every dao query together, for a last row.
    std::vector<double> allSmoothed, allUnsmoothed, allShares, allSmoothing;
    int allRepaired = 0;
    auto printRow = [](const std::string& name, const std::vector<double>& smoothed, const std::vector<double>& unsmoothed,
                       const std::vector<double>& shares, const std::vector<double>& smoothing, int repaired) {
      const double with = median(smoothed), plain = median(unsmoothed);
      std::printf("%-20s %7zu %10.1f %16.1f %8.1f %10.1f %14.1f %8d\n", name.c_str(), smoothed.size(), plain, with,
                  plain > 0 ? 100.0 * (with - plain) / plain : 0.0, median(shares), median(smoothing), repaired);
    };
    for (const auto& path : daoMaps) {
      auto map = readMovingAiMap(path);
      auto scenario = readScenario(path.string() + ".scen");
      if (!map || !scenario) continue;
      PlannerSettings unsmoothedSettings = base;
      unsmoothedSettings.enabled[std::size_t(PathStage::Smoothing)] = false;
      Planner smoothedPlanner(*map, base), unsmoothedPlanner(*map, unsmoothedSettings);
      PathResult result, unsmoothedResult;  // each planner's own, reused as a game would
      std::vector<double> smoothed, unsmoothed, smoothing;
      std::vector<Vec2> curve;
      int repaired = 0;
      bool smoothedFirst = true;
      for (const ScenarioEntry& entry : *scenario) {
        const PathRequest request{map->layout().tileCenter(entry.start), map->layout().tileCenter(entry.goal),
                                  TerrainTable::kWalk, 0.25f};
        double withCurve = 1e300, without = 1e300, stage = 1e300;
        bool ok = true;
        for (int pass = 0; pass < 10; ++pass) {
          if ((pass % 2 == 0) == smoothedFirst) {
            const auto begin = std::chrono::steady_clock::now();
            ok = ok && smoothedPlanner.plan(request, result) == Status::Ok;
            result.smoothed.sample(0.01, curve);
            const auto end = std::chrono::steady_clock::now();
            withCurve = std::min(withCurve, std::chrono::duration<double, std::micro>(end - begin).count());
            // The sampling's own time for the stage column, timed again outside the measured
            // interval: a clock read between plan() and sample() would add its 20-25 ns to the
            // smoothed time only.
            const auto sampling = std::chrono::steady_clock::now();
            result.smoothed.sample(0.01, curve);
            stage = std::min(stage, smoothedPlanner.diagnostics().stats(PathStage::Smoothing).micros +
                                        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - sampling).count());
            if (pass < 2) repaired += smoothedPlanner.diagnostics().stats(PathStage::Smoothing).repairs;
          } else {
            const auto begin = std::chrono::steady_clock::now();
            ok = ok && unsmoothedPlanner.plan(request, unsmoothedResult) == Status::Ok;
            without = std::min(without, std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - begin).count());
          }
        }
        smoothedFirst = !smoothedFirst;
        if (!ok) continue;
        smoothed.push_back(withCurve);
        unsmoothed.push_back(without);
        smoothing.push_back(stage);
      }
      // Each query's own addition, as a share of its unsmoothed time: steadier than the difference
      // of two medians where few queries lie near the median (arena).
      std::vector<double> shares;
      for (std::size_t i = 0; i < smoothed.size(); ++i) shares.push_back(100.0 * (smoothed[i] - unsmoothed[i]) / unsmoothed[i]);
      printRow("dao/" + path.stem().string(), smoothed, unsmoothed, shares, smoothing, repaired);
      allSmoothed.insert(allSmoothed.end(), smoothed.begin(), smoothed.end());
      allUnsmoothed.insert(allUnsmoothed.end(), unsmoothed.begin(), unsmoothed.end());
      allShares.insert(allShares.end(), shares.begin(), shares.end());
      allSmoothing.insert(allSmoothing.end(), smoothing.begin(), smoothing.end());
      allRepaired += repaired;
    }
    if (!allSmoothed.empty()) printRow("all dao queries", allSmoothed, allUnsmoothed, allShares, allSmoothing, allRepaired);
  }

  if (wants("following")) {
    // Path following: one PathFollower per path of the last 500 brc202d scenario lines, all
    // advanced 0.05 tiles per frame (a character at 3 tiles per second, 60 frames per second)
    // until every one has arrived, as a game moves a crowd.
    if (auto map = readMovingAiMap(movingAi / "dao" / "brc202d.map")) {
      if (auto scenario = readScenario(movingAi / "dao" / "brc202d.map.scen")) {
        Planner planner(*map, base);
        std::vector<PathResult> paths;
        for (std::size_t k = scenario->size() > 500 ? scenario->size() - 500 : 0; k < scenario->size(); ++k) {
          const ScenarioEntry& entry = (*scenario)[k];
          PathResult result;
          const PathRequest request{map->layout().tileCenter(entry.start), map->layout().tileCenter(entry.goal),
                                    TerrainTable::kWalk, 0.25f};
          if (planner.plan(request, result) == Status::Ok) paths.push_back(std::move(result));
        }
        std::vector<PathFollower> followers(paths.size());
        for (std::size_t i = 0; i < paths.size(); ++i) followers[i].follow(paths[i].smoothed);
        std::int64_t steps = 0;
        float sink = 0.0f;
        const auto begin = std::chrono::steady_clock::now();
        for (bool moving = true; moving;) {
          moving = false;
          for (PathFollower& follower : followers) {
            if (follower.arrived()) continue;
            const PathFollower::Step step = follower.advance(0.05);
            sink += step.position.x() + step.heading.y();
            ++steps;
            moving = true;
          }
        }
        const double nanos = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - begin).count();
        keepResult = double(sink);  // the loop's results are used, so the compiler keeps the loop
        std::printf("\npath following: %zu followers on dao/brc202d, %lld steps of 0.05 tiles: %.1f ns per advance()\n",
                    followers.size(), (long long)steps, nanos / double(std::max<std::int64_t>(steps, 1)));
      }
    }
  }

  return 0;
}
