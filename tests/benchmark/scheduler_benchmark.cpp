// SPDX-License-Identifier: MIT
// The replan scheduler at scale: characters wander between random goals 8-60 tiles apart on
// dao/brc202d (512 x 512), walking 3 tiles per second, planned about once per second at 60 frames
// per second, each also an entity the others go round. For 100, 1,000 and 10,000 characters:
// the scheduler's cost per frame (median, 99th percentile, maximum) with no budget (every due
// plan done in its frame: what the cadence costs) and with a 400 us budget (what a frame pays;
// the cadence then stretches when the work does not fit), and how often each character was
// planned; full_us and along_us are the mean cost of one plan, notice_us the mean cost per frame
// of noticing what changed (triggers, corridor checks). 30 simulated seconds, the first 5 left
// out of the cost figures (the first plans).
//
// usage: rpgnav_scheduler_benchmark [--movingai DIR] [--seconds S] [--counts 100,1000,10000]
#include "rpgnav/io/moving_ai.hpp"
#include "simulation.hpp"

#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

using namespace rpgnav;

int main(int argc, char** argv) {
  std::filesystem::path movingAi = RPGNAV_MOVINGAI_DIR;
  double seconds = 30.0;
  std::vector<int> counts{100, 1000, 10000};
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    if (arg == "--movingai") {
      movingAi = argv[i + 1];
    } else if (arg == "--seconds") {
      seconds = std::stod(argv[i + 1]);
    } else if (arg == "--counts") {
      counts.clear();
      std::stringstream list(argv[i + 1]);
      for (std::string item; std::getline(list, item, ',');) counts.push_back(std::stoi(item));
    } else {
      std::fprintf(stderr, "usage: rpgnav_scheduler_benchmark [--movingai DIR] [--seconds S] [--counts N,N,...]\n");
      return 2;
    }
  }
  const std::filesystem::path mapPath = movingAi / "dao" / "brc202d.map";
  auto map = readMovingAiMap(mapPath);
  if (!map) {
    std::printf("skipped: %s not found (--movingai DIR)\n", mapPath.string().c_str());
    return 0;
  }
  const double warmUp = 5.0, fps = 60.0;
  std::printf("replan scheduler on dao/brc202d, %.0f s at %.0f fps (first %.0f s left out), interval 1 s\n", seconds, fps,
              warmUp);
  std::printf("%-11s %-8s %9s %9s %9s %11s %10s %10s %9s %9s %9s\n", "characters", "budget", "median_us", "p99_us",
              "max_us", "replans/s", "full/s", "interval_s", "full_us", "along_us", "notice_us");
  for (const int count : counts) {
    for (const double budget : {0.0, 400.0}) {
      World world(*map);
      sample::SimulationOptions options;
      options.characters = count;
      options.seconds = seconds;
      options.fps = fps;
      options.budget = ReplanBudget::time(budget);
      auto report = sample::runSimulation(world, options);
      if (!report) {
        std::printf("%d characters: %s\n", count, report.error().message.c_str());
        continue;
      }
      const std::size_t skip = std::size_t(warmUp * fps);
      const std::vector<double> frames(report->frameMicros.begin() + std::ptrdiff_t(std::min(skip, report->frameMicros.size())),
                                       report->frameMicros.end());
      const sample::Spread cost = sample::spreadOf(frames);
      const double along = double(report->plans - report->fullPlans);
      std::printf("%-11d %-8s %9.1f %9.1f %9.1f %11.0f %10.0f %10.2f %9.1f %9.1f %9.1f\n", count,
                  budget > 0.0 ? "400us" : "none", cost.median, cost.p99, cost.max, double(report->plans) / seconds,
                  double(report->fullPlans) / seconds, report->meanInterval,
                  report->fullPlans > 0 ? report->fullMicros / double(report->fullPlans) : 0.0,
                  along > 0.0 ? report->alongMicros / along : 0.0,
                  report->noticeMicros / double(report->frameMicros.size()));
      std::fflush(stdout);
    }
  }
  return 0;
}
