// SPDX-License-Identifier: MIT
// rpgnav sim MAP: characters wander between random goals under the ReplanScheduler; prints what
// the scheduler costs per frame and what happened.
#include "commands.hpp"
#include "options.hpp"

#include "simulation.hpp"
#include "rpgnav/debug/svg.hpp"
#include "rpgnav/io/rpgmap.hpp"

#include <cstdio>
#include <optional>
#include <string>

namespace rpgnav::tool {
namespace {

constexpr const char* kUsage =
    "usage: rpgnav sim MAP [--characters N] [--seconds S] [--fps F] [--seed K] [--budget-us U | --budget-expansions E]\n"
    "                      [--radius R] [--speed V] [--no-avoidance] [--horde [--horde-field tracked|bounded]\n"
    "                      [--field-budget-us U | --field-budget T]] [--svg FILE] [--danger-factor F]\n"
    "  characters wander between random goals (8-60 tiles away) on MAP's doors and entities; doors change\n"
    "  state now and then; the scheduler replans each character about once a second within the budget\n"
    "  (default 400 us of wall time per frame); radius (default 0.25) in tiles, speed (default 3) in tiles per second;\n"
    "  characters pass and make way for each other (local avoidance) unless --no-avoidance; they weigh the\n"
    "  map's danger layers at its danger-factor, or F (0-255)\n"
    "  --horde: instead, N monsters chase one wandering target along a shared crowd field while walls come and go;\n"
    "  the field tracks the target over the whole map and refreshes in slices of U us a frame (default 400) or\n"
    "  T tile visits, or with --horde-field bounded covers the monsters only and is built again at each step of\n"
    "  the target\n";

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
  const sample::Spread goalSteps = sample::spreadOf(report->goalStepMicros);
  if (options.hordeField == sample::SimulationOptions::HordeField::tracked) {
    const std::string slice = options.fieldMicros > 0.0 ? std::to_string(int(options.fieldMicros)) + " us"
                                                        : std::to_string(options.fieldTiles) + " tile visits";
    std::printf("field: tracks the target over the whole map, exact refresh in slices of %s a frame (%lld landed)\n",
                slice.c_str(), (long long)report->refreshes);
  } else {
    std::printf("field: bounded by the monsters, built again at each step of the target\n");
  }
  std::printf("first field: %.1f us\n", report->buildMicros);
  std::printf("goal step: median %.1f us, p99 %.1f us; full rebuild %.1f us\n", goalSteps.median, goalSteps.p99,
              report->fullRebuildMicros);
  std::printf("field updates per frame: median %.1f us, p99 %.1f us, max %.1f us (%lld goal steps, %lld walls raised, %lld cleared)\n",
              field.median, field.p99, field.max, (long long)report->goalSteps, (long long)report->wallsRaised,
              (long long)report->wallsCleared);
  std::printf("moving every monster per frame: median %.1f us, p99 %.1f us, max %.1f us\n", moves.median, moves.p99, moves.max);
  std::printf("monster-frames within a tile of the target: %lld\n", (long long)report->caught);
  std::printf("digest %016llx\n", (unsigned long long)report->digest);
  if (!svgPath.empty()) {
    // Monsters are points stepping from tile centre to tile centre: thin trails in one colour,
    // each start marked; over them the target's run, start and end.
    SvgPicture picture(map, TerrainTable::kWalk, map.width() > 200 ? 3.0f : 12.0f);
    for (std::size_t i = 0; i + 1 < report->trails.size(); ++i) {
      picture.trail(report->trails[i], 0.0f, "#800000", i == 0 ? "monsters" : "", false);
    }
    for (std::size_t i = 0; i + 1 < report->trails.size(); ++i) {
      if (!report->trails[i].empty()) picture.start(report->trails[i].front(), 0.0f, "start of a trail");
    }
    if (!report->trails.empty()) picture.trail(report->trails.back(), 0.0f, "#0050ff", "the target");
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
  CommandLine commandLine("rpgnav sim", kUsage);
  commandLine.positional("MAP", mapPath);
  // Each reader checks the range too: a value outside it would make the run meaningless or endless.
  commandLine.option("--characters", "a whole number from 0 to 100000", [&](std::string_view value) {
    return readNumber(value, options.characters) && options.characters >= 0 && options.characters <= 100000;
  });
  commandLine.option("--seconds", "a number of seconds from 0 to 3600", [&](std::string_view value) {
    return readNumber(value, options.seconds) && options.seconds >= 0.0 && options.seconds <= 3600.0;
  });
  commandLine.option("--fps", "a number of frames per second from 1 to 1000", [&](std::string_view value) {
    return readNumber(value, options.fps) && options.fps >= 1.0 && options.fps <= 1000.0;
  });
  commandLine.option("--seed", "a whole number from 0 to 4294967295",
                     [&](std::string_view value) { return readNumber(value, options.seed); });
  // The two budgets exclude each other: the last one given counts.
  commandLine.option("--budget-us", "a number of microseconds from 0 to 10000000", [&](std::string_view value) {
    options.budget.expansions = 0;
    return readNumber(value, options.budget.micros) && options.budget.micros >= 0.0 && options.budget.micros <= 1e7;
  });
  commandLine.option("--budget-expansions", "a whole number, 0 or more", [&](std::string_view value) {
    options.budget.micros = 0.0;
    return readNumber(value, options.budget.expansions) && options.budget.expansions >= 0;
  });
  commandLine.option("--radius", "a number of tiles from 0 to 3", [&](std::string_view value) {
    return readNumber(value, options.radius) && options.radius >= 0.0f && options.radius <= 3.0f;
  });
  commandLine.option("--speed", "a number of tiles per second, above 0 and at most 100", [&](std::string_view value) {
    return readNumber(value, options.speed) && options.speed > 0.0f && options.speed <= 100.0f;
  });
  commandLine.flag("--horde", horde);
  commandLine.option("--horde-field", "tracked or bounded", [&](std::string_view value) {
    if (value != "tracked" && value != "bounded") return false;
    options.hordeField = value == "tracked" ? sample::SimulationOptions::HordeField::tracked : sample::SimulationOptions::HordeField::bounded;
    return true;
  });
  // (As the scheduler's budgets: the last one given counts.)
  commandLine.option("--field-budget-us", "a number of microseconds from 1 to 10000000", [&](std::string_view value) {
    options.fieldTiles = 0;
    return readNumber(value, options.fieldMicros) && options.fieldMicros >= 1.0 && options.fieldMicros <= 1e7;
  });
  commandLine.option("--field-budget", "a whole number of tile visits from 1 to 100000000", [&](std::string_view value) {
    options.fieldMicros = 0.0;
    return readNumber(value, options.fieldTiles) && options.fieldTiles >= 1 && options.fieldTiles <= 100000000;
  });
  bool noAvoidance = false;
  commandLine.flag("--no-avoidance", noAvoidance);
  commandLine.option("--svg", svgPath);
  std::optional<std::uint8_t> dangerFactor;  // unset: the map's
  commandLine.option("--danger-factor", "a whole number from 0 to 255",
                     [&](std::string_view value) { return readDangerFactor(value, dangerFactor); });
  if (const auto exit = commandLine.parse(args)) return *exit;
  auto document = readMapFile(mapPath);
  if (!document) {
    std::fprintf(stderr, "rpgnav sim: %s\n", document.error().message.c_str());
    return 1;
  }
  World world(document->map);
  if (world.addFeatures(document->doors, document->entities, document->dangerLayers, document->dangerFactor, document->settings) != Status::Ok) {
    std::fprintf(stderr, "rpgnav sim: the map's doors or entities are invalid\n");
    return 1;
  }
  if (dangerFactor) world.setDangerFactor(*dangerFactor);
  // Trail points close enough that no chord between them cuts a wall's corner (0.15 tiles at
  // the default speed); the picture drops those on straight runs.
  if (!svgPath.empty()) options.trailEvery = 0.05;
  options.avoidance = !noAvoidance;
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
  std::printf("cadence: %s (%lld turns begun over an interval late, longest %.2f s past its turn)\n",
              report->lateTurns == 0 ? "kept" : "the budget falls behind", (long long)report->lateTurns, report->longestLate);
  std::printf("events: %lld new paths, %lld door stops, %lld blocked by entities, %lld unreachable goals\n",
              (long long)report->newPaths, (long long)report->doorStops, (long long)report->blocked,
              (long long)report->unreachable);
  std::printf("game: %lld goals reached, %lld doors opened by waiting characters, %lld random door changes, %lld gave up\n"
              "      after %.0f s blocked by %s\n",
              (long long)report->goalsReached, (long long)report->doorsOpened, (long long)report->doorToggles,
              (long long)report->gaveUp, options.giveUpAfter, options.avoidance ? "furniture" : "others");
  if (options.avoidance) {
    const sample::Spread move = sample::spreadOf(report->moveMicros);
    const double share = report->characterSeconds > 0.0 ? 100.0 * report->stuckSeconds / report->characterSeconds : 0.0;
    std::printf("moving (local avoidance) per frame: median %.1f us, p99 %.1f us, max %.1f us\n", move.median, move.p99, move.max);
    std::printf("stuck: %.1f of %.0f character-seconds (%.2f%%, %lld spells); %lld yields; %lld goals found taken\n",
                report->stuckSeconds, report->characterSeconds, share, (long long)report->stuckSpells,
                (long long)report->yields, (long long)report->goalsTaken);
    std::printf("overlaps: %lld pair-frames, %lld over 5%% of the radii, worst %.1f%%\n",
                (long long)report->overlapPairFrames, (long long)report->overlapsOver5, 100.0 * report->worstOverlap);
  }
  std::printf("digest %016llx\n", (unsigned long long)report->digest);
  if (!svgPath.empty()) {
    // The characters are the world's moving entities: their trails end at their bodies.
    SvgPicture picture(map, TerrainTable::kWalk, map.width() > 200 ? 3.0f : 12.0f);
    picture.world(world, false);
    static const char* kColours[] = {"#0050ff", "#00a0a0", "#8b4513", "#000080", "#ff1493", "#9acd32", "#4b0082", "#00c0ff"};
    for (std::size_t i = 0; i < report->trails.size(); ++i) {
      picture.trail(report->trails[i], options.radius * map.layout().tileSize(), kColours[i % 8], i == 0 ? "trails (one colour per character)" : "");
    }
    for (std::size_t i = 0; i < report->madeWay.size(); ++i) picture.marker(report->madeWay[i], "#ff8c00", i == 0 ? "made way (stepped aside or backed off)" : "");
    for (std::size_t i = 0; i < report->waited.size(); ++i) picture.marker(report->waited[i], "#d00000", i == 0 ? "waited its turn at a narrow passage" : "");
    if (picture.save(svgPath) != Status::Ok) {
      std::fprintf(stderr, "rpgnav sim: cannot write %s\n", svgPath.c_str());
      return 1;
    }
  }
  return 0;
}

}  // namespace rpgnav::tool
