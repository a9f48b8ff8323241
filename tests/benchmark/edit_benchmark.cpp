// SPDX-License-Identifier: MIT
// Edits in a living world: what one tile edit, a 10x10 rectangle and the plan after them cost on
// shared navigation data updated in place, and what one more planner thread costs in memory next
// to the data it shares. See tests/benchmark/README.md for the recorded figures.
//
// usage: rpgnav_edit_benchmark [--movingai DIR] [--queries N] [--rects N] [--seed K] [--hex]
// (--hex: the same maps' tiles as pointy hex maps too)
//
// Per map (Moving AI cities/Berlin_0_1024 and dao/brc202d), for N scenario lines spread over the
// file (the full pipeline, radius 0):
//   plan        the plan alone (the same query planned once before, so warm);
//   edit        TileMap::setTerrain on one random tile off the path (open <-> wall) + NavData::update;
//   plan after  the same query right after that edit;
//   ratio       median of (edit + plan after) over the median plan: the limit is 2x;
//   on path     the same for a tile on the path walled up (the plan then finds another way).
// Then 10x10 rectangles walled up at random places and put back as they were (one list edit per
// terrain), each with its update; and the heap bytes a second planner holds after running every
// query, against NavData::memoryBytes(); landmarks after an edit; and a tile edit with a query
// filter's layer (its own terrain costs) prepared too.

#include "nav/nav_layer.hpp"
#include "search/search_context.hpp"
#include "rpgnav/io/moving_ai.hpp"
#include "rpgnav/io/rpgmap.hpp"
#include "rpgnav/nav/nav_data.hpp"
#include "rpgnav/path/planner.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <malloc.h>
#include <new>
#include <random>
#include <string>
#include <vector>

// Live heap bytes, counted by replacing the global allocation functions (this program only).
namespace {
std::atomic<long long> g_liveBytes{0};
}  // namespace

void* operator new(std::size_t size) {
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  g_liveBytes += (long long)malloc_usable_size(p);
  return p;
}
void operator delete(void* p) noexcept {
  if (p == nullptr) return;
  g_liveBytes -= (long long)malloc_usable_size(p);
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept { operator delete(p); }

using namespace rpgnav;

namespace {

using Clock = std::chrono::steady_clock;
double microsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  return values[std::min(values.size() - 1, std::size_t(p * double(values.size() - 1) + 0.5))];
}

struct Timings {
  std::vector<double> plan, edit, after, onPathEdit, onPathAfter;
};

bool runMap(const std::string& dir, const std::string& mapName, int queryCount, int rectCount, unsigned seed, bool hex) {
  const std::string mapPath = dir + "/" + mapName + ".map";
  const std::string name = hex ? mapName + " (hex-pointy)" : mapName;
  auto document = readMapFile(mapPath);
  auto scenario = readScenario(mapPath + ".scen");
  if (!document || !scenario) {
    std::printf("%-22s skipped: %s not found\n", name.c_str(), mapPath.c_str());
    return false;
  }
  if (hex) {  // the same tiles as a pointy hex map (the hex jump table's edits)
    TileMap& square = document->map;
    std::vector<TerrainId> tiles(std::size_t(square.tileCount()));
    for (std::int32_t i = 0; i < square.tileCount(); ++i) tiles[std::size_t(i)] = square.terrainAt(square.cellAt(i));
    document->map = TileMap::create(Layout::hexPointy(), square.width(), square.height(), square.terrain(), std::move(tiles)).value();
  }
  TileMap& map = document->map;
  const TerrainId wall = *map.terrain().findTerrainBySymbol('@');
  const TerrainId ground = *map.terrain().findTerrainBySymbol('.');
  World world(map);
  NavData data(world);
  const MobilityId walk = TerrainTable::kWalk;
  Clock::time_point start = Clock::now();
  if (data.prepare(walk) != Status::Ok) return std::printf("%s: prepare failed\n", name.c_str()), false;
  const double buildMicros = microsSince(start);
  Planner planner(data);
  PathResult result, after;
  std::mt19937 random(seed);

  std::vector<PathRequest> requests;
  const std::size_t step = std::max<std::size_t>(1, scenario->size() / std::size_t(queryCount));
  for (std::size_t i = 0; i < scenario->size() && requests.size() < std::size_t(queryCount); i += step) {
    const ScenarioEntry& entry = (*scenario)[i];
    requests.push_back({map.layout().tileCenter(entry.start), map.layout().tileCenter(entry.goal), walk, 0.0f});
  }

  auto update = [&] {
    const NavUpdate done = data.update();
    if (done.status != Status::Ok || done.rebuilt) std::printf("%s: update failed or rebuilt\n", name.c_str()), std::exit(1);
  };
  // A timed edit of one tile and the update; the tile keeps the new terrain.
  auto timedEdit = [&](Cell cell, TerrainId terrain) {
    const Clock::time_point begin = Clock::now();
    map.setTerrain(cell, terrain);
    update();
    return microsSince(begin);
  };
  auto timedPlan = [&](const PathRequest& request, PathResult& out) {
    const Clock::time_point begin = Clock::now();
    planner.plan(request, out);
    return microsSince(begin);
  };

  Timings t;
  std::uniform_int_distribution<std::int32_t> xs(0, map.width() - 1), ys(0, map.height() - 1);
  for (const PathRequest& request : requests) {
    planner.plan(request, result);  // warm
    t.plan.push_back(timedPlan(request, result));
    if (!isSuccess(result.status)) continue;

    // A tile off the path, toggled and put back.
    Cell cell;
    do {
      cell = {xs(random), ys(random)};
    } while (std::find(result.tilePath.begin(), result.tilePath.end(), cell) != result.tilePath.end());
    const TerrainId was = map.terrainAt(cell);
    t.edit.push_back(timedEdit(cell, was == wall ? ground : wall));
    t.after.push_back(timedPlan(request, after));
    timedEdit(cell, was);

    // A tile in the middle of the path walled up: the plan finds another way.
    if (result.tilePath.size() > 4) {
      const Cell middle = result.tilePath[result.tilePath.size() / 2];
      const TerrainId middleWas = map.terrainAt(middle);
      t.onPathEdit.push_back(timedEdit(middle, wall));
      t.onPathAfter.push_back(timedPlan(request, after));
      timedEdit(middle, middleWas);
    }
  }
  auto ratio = [](const std::vector<double>& edit, const std::vector<double>& plan, const std::vector<double>& alone) {
    std::vector<double> sums(edit.size());
    for (std::size_t i = 0; i < edit.size(); ++i) sums[i] = edit[i] + plan[i];
    return percentile(sums, 0.5) / percentile(alone, 0.5);
  };
  std::printf("%-22s %zux%zu, %zu queries, walk layer built in %.1f ms, shared data %.1f MB\n", name.c_str(),
              std::size_t(map.width()), std::size_t(map.height()), requests.size(), buildMicros / 1000.0,
              double(data.memoryBytes()) / 1e6);
  std::printf("  %-26s %10s %10s %10s\n", "", "median_us", "p90_us", "max_us");
  auto row = [](const char* what, const std::vector<double>& values) {
    std::printf("  %-26s %10.1f %10.1f %10.1f\n", what, percentile(values, 0.5), percentile(values, 0.9),
                percentile(values, 1.0));
  };
  row("plan alone", t.plan);
  row("tile edit + update", t.edit);
  row("plan after it", t.after);
  std::printf("  %-26s %10.2fx  (limit 2x)\n", "(edit + plan) / plan", ratio(t.edit, t.after, t.plan));
  row("tile on the path walled", t.onPathEdit);
  row("plan after it", t.onPathAfter);

  Clock::time_point begin;
  // 10x10 rectangles walled up, then put back tile by tile as they were (a list edit per terrain).
  std::vector<double> wallUp, putBack;
  std::uniform_int_distribution<std::int32_t> rx(0, map.width() - 10), ry(0, map.height() - 10);
  for (int i = 0; i < rectCount; ++i) {
    const Cell low{rx(random), ry(random)}, high{low.x + 9, low.y + 9};
    std::vector<std::pair<TerrainId, std::vector<Cell>>> before;
    for (std::int32_t y = low.y; y <= high.y; ++y) {
      for (std::int32_t x = low.x; x <= high.x; ++x) {
        const TerrainId terrain = map.terrainAt({x, y});
        auto group = std::find_if(before.begin(), before.end(), [&](const auto& g) { return g.first == terrain; });
        if (group == before.end()) group = before.insert(before.end(), {terrain, {}});
        group->second.push_back({x, y});
      }
    }
    begin = Clock::now();
    map.setTerrain(low, high, wall);
    update();
    wallUp.push_back(microsSince(begin));
    begin = Clock::now();
    for (const auto& [terrain, cells] : before) map.setTerrain(cells, terrain);
    update();
    putBack.push_back(microsSince(begin));
  }
  row("10x10 rect walled + update", wallUp);
  row("put back + update", putBack);

  // What one more planner (one more thread) holds after every query, against the shared data.
  const long long before = g_liveBytes.load();
  {
    auto second = std::make_unique<Planner>(data);
    PathResult out;
    for (const PathRequest& request : requests) second->plan(request, out);
    const long long held = g_liveBytes.load() - before;
    std::printf("  one more planner, warm: %.2f MB = %.2f%% of the shared data (limit 5%%)\n", double(held) / 1e6,
                100.0 * double(held) / double(data.memoryBytes()));
  }
  {
    // Of which the search alone: the exact any-angle search's scratch (what a planner runs on
    // these maps of one cost), and a tile search's context (table, pages, open list), which a
    // planner makes when a tile search runs (a wide body's).
    SearchContext exact(SearchContext::Scratch::None), tiles;
    SearchResult found;
    const NavLayer& layer = *data.layer(walk, 0.0f);
    for (const PathRequest& request : requests) {
      SearchRequest search{*map.tileAt(request.start), *map.tileAt(request.goal)};
      tiles.findPath(layer.grid(), search, found);
      search.sightLines = &layer.lines();
      search.startPoint = request.start;
      search.goalPoint = request.goal;
      search.exactAnyAngle = true;
      exact.findPath(layer.grid(), search, found);
    }
    std::printf("  of which the exact search's scratch: %.2f MB (a tile search's context: %.2f MB)\n",
                double(exact.memoryBytes()) / 1e6, double(tiles.memoryBytes()) / 1e6);
  }

  // Landmarks (8) after a tile is opened: off at once, then refreshed a sweep per call.
  {
    NavData withLandmarks(world, NavDataSettings{8});
    begin = Clock::now();
    if (withLandmarks.prepare(walk) != Status::Ok) return false;
    const double landmarkBuild = microsSince(begin);
    Cell opened;
    do {
      opened = {xs(random), ys(random)};
    } while (map.terrainAt(opened) != wall);
    map.setTerrain(opened, ground);
    withLandmarks.update();
    const bool offAtOnce = !withLandmarks.layer(walk, 0.0f)->grid().landmarksUsable();
    std::vector<double> sweeps;
    for (bool done = false; !done;) {
      begin = Clock::now();
      done = withLandmarks.refreshLandmarks(1);
      sweeps.push_back(microsSince(begin));
    }
    std::printf("  8 landmarks: built with the layer in %.1f ms; a tile opened turns them %s; refreshed in %zu calls of one\n"
                "  sweep, median %.1f ms, max %.1f ms\n",
                landmarkBuild / 1000.0, offAtOnce ? "off" : "NOT off", sweeps.size(), percentile(sweeps, 0.5) / 1000.0,
                percentile(sweeps, 1.0) / 1000.0);
    map.setTerrain(opened, wall);
    update();
  }

  // A query filter's terrain costs (QueryFilter::costs) get a layer of their own on a copy of the
  // map, which update() patches like the plain layer: a tile edit with one prepared, against the
  // edits above without.
  {
    const TerrainCost costs[] = {{ground, 1.5f}};
    begin = Clock::now();
    if (data.prepare(walk, 0.0f, costs) != Status::Ok) return false;
    const double filteredBuild = microsSince(begin);
    std::vector<double> edits;
    for (std::size_t i = 0; i < std::max<std::size_t>(t.edit.size(), 20); ++i) {
      const Cell cell{xs(random), ys(random)};
      const TerrainId was = map.terrainAt(cell);
      edits.push_back(timedEdit(cell, was == wall ? ground : wall));
      timedEdit(cell, was);
    }
    std::printf("  a query filter's layer: built in %.1f ms; with it, tile edit + update median %.1f us, p90 %.1f us\n"
                "  (%.1f us without)\n",
                filteredBuild / 1000.0, percentile(edits, 0.5), percentile(edits, 0.9), percentile(t.edit, 0.5));
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::string movingAi = RPGNAV_MOVINGAI_DIR;
  int queries = 500, rects = 200;
  unsigned seed = 1;
  bool hex = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--movingai" && i + 1 < argc) {
      movingAi = argv[++i];
    } else if (arg == "--queries" && i + 1 < argc) {
      queries = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--rects" && i + 1 < argc) {
      rects = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--seed" && i + 1 < argc) {
      seed = unsigned(std::atoi(argv[++i]));
    } else if (arg == "--hex") {
      hex = true;
    } else {
      std::fprintf(stderr, "usage: rpgnav_edit_benchmark [--movingai DIR] [--queries N] [--rects N] [--seed K] [--hex]\n");
      return 2;
    }
  }
  for (const char* name : {"cities/Berlin_0_1024", "dao/brc202d"}) {
    runMap(movingAi, name, queries, rects, seed, false);
    if (hex) runMap(movingAi, name, queries, rects, seed, true);
  }
  return 0;
}
