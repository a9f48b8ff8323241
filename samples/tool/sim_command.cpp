// SPDX-License-Identifier: MIT
// rpgnav sim MAP: characters wander between random goals under the ReplanScheduler; prints what
// the scheduler costs per frame and what happened.
#include "commands.hpp"

#include "simulation.hpp"
#include "rpgnav/debug/svg.hpp"
#include "rpgnav/io/rpgmap.hpp"

#include <charconv>
#include <cstdio>
#include <string>

namespace rpgnav::tool {
namespace {

constexpr const char* kUsage =
    "usage: rpgnav sim MAP [--characters N] [--seconds S] [--fps F] [--seed K] [--budget-us U | --budget-expansions E]\n"
    "                      [--radius R] [--speed V] [--horde] [--svg FILE]\n"
    "  characters wander between random goals (8-60 tiles away) on MAP's doors and entities; doors change\n"
    "  state now and then; the scheduler replans each character about once a second within the budget\n"
    "  (default 400 us of wall time per frame); radius (default 0.25) in tiles, speed (default 3) in tiles per second\n"
    "  --horde: instead, N monsters chase one wandering target along a shared crowd field while walls come and go\n";

template <class T>
bool parseNumber(std::string_view text, T& out) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  return error == std::errc() && end == text.data() + text.size();
}

// The horde mode: a crowd field shared by every monster.
int hordeRun(const std::string& mapPath, const TileMap& map, const sample::SimulationOptions& options,
             const std::string& svgPath) {
  auto report = sample::runHorde(map, options);
  if (!report) {
    std::fprintf(stderr, "rpgnav sim: %s\n", report.error().message.c_str());
    return 1;
  }
  const sample::Spread field = sample::spreadOf(report->fieldMicros), moves = sample::spreadOf(report->moveMicros);
  std::printf("horde on %s: %dx%d; %d monsters chase a wandering target, %.0f s at %.0f fps, seed %u\n", mapPath.c_str(),
              map.width(), map.height(), options.characters, options.seconds, options.fps, options.seed);
  std::printf("first field: %.1f us\n", report->buildMicros);
  std::printf("field updates per frame: median %.1f us, p99 %.1f us, max %.1f us (%lld goal steps, %lld walls raised, %lld cleared)\n",
              field.median, field.p99, field.max, (long long)report->goalSteps, (long long)report->wallsRaised,
              (long long)report->wallsCleared);
  std::printf("moving every monster per frame: median %.1f us, p99 %.1f us, max %.1f us\n", moves.median, moves.p99, moves.max);
  std::printf("monster-frames within a tile of the target: %lld\n", (long long)report->caught);
  std::printf("digest %016llx\n", (unsigned long long)report->digest);
  if (!svgPath.empty()) {
    SvgPicture picture(map, TerrainTable::kWalk, map.width() > 200 ? 3.0f : 12.0f);
    static const char* kColours[] = {"#d62728", "#ff7f0e", "#8c564b", "#e377c2"};
    for (std::size_t i = 0; i + 1 < report->trails.size(); ++i) {
      picture.curve(report->trails[i], kColours[i % 4], 0.8f, i == 0 ? "monsters (every 0.25 s)" : "");
    }
    if (!report->trails.empty()) picture.curve(report->trails.back(), "#1f77b4", 2.0f, "the target");
    if (picture.save(svgPath) != Status::Ok) {
      std::fprintf(stderr, "rpgnav sim: cannot write %s\n", svgPath.c_str());
      return 1;
    }
  }
  return 0;
}

}  // namespace

int simCommand(Arguments args) {
  std::string mapPath, svgPath;
  sample::SimulationOptions options;
  bool horde = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    const bool hasValue = i + 1 < args.size();
    bool ok = true;
    if (arg == "--characters" && hasValue) {
      ok = parseNumber(args[++i], options.characters) && options.characters >= 0 && options.characters <= 100000;
    } else if (arg == "--seconds" && hasValue) {
      ok = parseNumber(args[++i], options.seconds) && options.seconds >= 0.0 && options.seconds <= 3600.0;
    } else if (arg == "--fps" && hasValue) {
      ok = parseNumber(args[++i], options.fps) && options.fps >= 1.0 && options.fps <= 1000.0;
    } else if (arg == "--seed" && hasValue) {
      ok = parseNumber(args[++i], options.seed);
    } else if (arg == "--budget-us" && hasValue) {
      ok = parseNumber(args[++i], options.budget.micros) && options.budget.micros >= 0.0 && options.budget.micros <= 1e7;
      options.budget.expansions = 0;
    } else if (arg == "--budget-expansions" && hasValue) {
      ok = parseNumber(args[++i], options.budget.expansions) && options.budget.expansions >= 0;
      options.budget.micros = 0.0;
    } else if (arg == "--radius" && hasValue) {
      ok = parseNumber(args[++i], options.radius) && options.radius >= 0.0f && options.radius < 0.5f;
    } else if (arg == "--speed" && hasValue) {
      ok = parseNumber(args[++i], options.speed) && options.speed > 0.0f && options.speed <= 100.0f;
    } else if (arg == "--horde") {
      horde = true;
    } else if (arg == "--svg" && hasValue) {
      svgPath = std::string(args[++i]);
    } else if (!arg.starts_with("--") && mapPath.empty()) {
      mapPath = std::string(arg);
    } else {
      ok = false;
    }
    if (!ok) {
      const std::string shown = std::string(arg) + (args[i] != arg ? " " + std::string(args[i]) : "");
      std::fprintf(stderr, "rpgnav sim: bad argument '%s'\n%s", shown.c_str(), kUsage);
      return 2;
    }
  }
  if (mapPath.empty()) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  auto document = readMapFile(mapPath);
  if (!document) {
    std::fprintf(stderr, "rpgnav sim: %s\n", document.error().message.c_str());
    return 1;
  }
  World world(document->map);
  if (world.addFeatures(document->doors, document->entities) != Status::Ok) {
    std::fprintf(stderr, "rpgnav sim: the map's doors or entities are invalid\n");
    return 1;
  }
  if (!svgPath.empty()) options.trailEvery = 0.25;
  if (horde) return hordeRun(mapPath, world.map(), options, svgPath);
  auto report = sample::runSimulation(world, options);
  if (!report) {
    std::fprintf(stderr, "rpgnav sim: %s\n", report.error().message.c_str());
    return 1;
  }
  const sample::Spread cost = sample::spreadOf(report->frameMicros);
  const double seconds = options.seconds > 0.0 ? options.seconds : 1.0;
  const TileMap& map = world.map();
  std::printf("map %s: %dx%d, %zu doors; %d characters, %.0f s at %.0f fps, seed %u, budget %s\n", mapPath.c_str(),
              map.width(), map.height(), world.doors().size(), options.characters, options.seconds, options.fps,
              options.seed,
              options.budget.expansions > 0 ? (std::to_string(options.budget.expansions) + " expansions").c_str()
              : options.budget.micros > 0.0 ? (std::to_string(int(options.budget.micros)) + " us").c_str()
                                            : "none");
  std::printf("scheduler per frame: median %.1f us, p99 %.1f us, max %.1f us\n", cost.median, cost.p99, cost.max);
  std::printf("replans: %lld (%.1f per second; %lld full, %lld along the route; %lld kept the old path)\n",
              (long long)report->plans, double(report->plans) / seconds, (long long)report->fullPlans,
              (long long)(report->plans - report->fullPlans), (long long)report->kept);
  std::printf("per character: a plan every %.2f s on average, longest wait %.2f s\n", report->meanInterval,
              report->longestInterval);
  std::printf("events: %lld new paths, %lld door stops, %lld blocked by entities, %lld unreachable goals\n",
              (long long)report->newPaths, (long long)report->doorStops, (long long)report->blocked,
              (long long)report->unreachable);
  std::printf("game: %lld goals reached, %lld doors opened by waiting characters, %lld random door changes, %lld gave up\n"
              "      after %.0f s blocked by others\n",
              (long long)report->goalsReached, (long long)report->doorsOpened, (long long)report->doorToggles,
              (long long)report->gaveUp, options.giveUpAfter);
  std::printf("digest %016llx\n", (unsigned long long)report->digest);
  if (!svgPath.empty()) {
    SvgPicture picture(map, TerrainTable::kWalk, map.width() > 200 ? 3.0f : 12.0f);
    picture.world(world);
    static const char* kColours[] = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};
    for (std::size_t i = 0; i < report->trails.size(); ++i) {
      picture.curve(report->trails[i], kColours[i % 8], 1.2f, i == 0 ? "trails (every 0.25 s)" : "");
    }
    if (picture.save(svgPath) != Status::Ok) {
      std::fprintf(stderr, "rpgnav sim: cannot write %s\n", svgPath.c_str());
      return 1;
    }
  }
  return 0;
}

}  // namespace rpgnav::tool
