// SPDX-License-Identifier: MIT
// Local avoidance (LocalAvoidance::step): microseconds per agent per frame, with the neighbour
// grid, the wall, door and static entity planes, the ORCA planes and the linear program, the
// passage and yield rules. Agents walk to random goals (a new one on arrival) at 2 tiles a second
// with radius 0.25, at a density that gives each about 10 neighbours within reach; 30 frames to
// warm up, then 300 frames at 60 fps timed one by one.
//
// Maps: an open square map; the same with 10% of its tiles walls (scattered single tiles, the
// worst case for wall planes); dao/brc202d from the Moving AI data when given.
//
// usage: rpgnav_avoidance_benchmark [--movingai DIR] [--agents N ...]
#include "rpgnav/avoid/local_avoidance.hpp"
#include "rpgnav/grid/line_of_sight.hpp"
#include "rpgnav/io/moving_ai.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
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

TileMap generated(int side, double wallRate, std::mt19937& random) {
  std::string text = "type octile\nheight " + std::to_string(side) + "\nwidth " + std::to_string(side) + "\nmap\n";
  for (int y = 0; y < side; ++y) {
    for (int x = 0; x < side; ++x) text += std::uniform_real_distribution<double>(0.0, 1.0)(random) < wallRate ? '@' : '.';
    text += '\n';
  }
  return parseMovingAiMap(text, "generated").value();
}

void run(const std::string& name, const TileMap& map, int count, std::mt19937& random) {
  World world(map);
  const Layout& layout = map.layout();
  const float radius = 0.25f, speed = 2.0f;
  std::vector<Vec2> open;
  for (std::int32_t i = 0; i < map.tileCount(); ++i) {
    const Vec2 centre = layout.tileCenter(map.cellAt(i));
    if (map.passable(map.cellAt(i), TerrainTable::kWalk) && probeSegment(map, TerrainTable::kWalk, centre, centre, radius).clear) {
      open.push_back(centre);
    }
  }
  if (open.size() < std::size_t(count)) {
    std::printf("%-28s %6d agents: the map has too few open tiles\n", name.c_str(), count);
    return;
  }
  // Agents on distinct tiles, packed round the map's middle to the density wanted.
  std::shuffle(open.begin(), open.end(), random);
  std::vector<AvoidanceAgent> agents{std::size_t(count), AvoidanceAgent{}};
  std::vector<Vec2> goals{std::size_t(count), Vec2::Zero()};
  auto anyOpen = [&] { return open[std::uniform_int_distribution<std::size_t>(0, open.size() - 1)(random)]; };
  for (int i = 0; i < count; ++i) {
    AvoidanceAgent& a = agents[std::size_t(i)];
    a.id = EntityId{std::uint32_t(i + 1)};
    a.mobility = TerrainTable::kWalk;
    a.position = open[std::size_t(i)];
    a.radius = radius;
    a.maxSpeed = speed;
    goals[std::size_t(i)] = anyOpen();
  }
  LocalAvoidance avoidance(world);
  std::vector<AvoidanceResult> out(agents.size());
  std::vector<double> perAgent;
  double neighbours = 0.0, planes = 0.0, infeasible = 0.0, yielding = 0.0, samples = 0.0;
  for (int frame = 0; frame < 330; ++frame) {
    for (std::size_t i = 0; i < agents.size(); ++i) {
      // Straight at the goal (walls in the way are the avoidance's business).
      Vec2 to = goals[i] - agents[i].position;
      if (to.norm() < 0.5f) {
        goals[i] = anyOpen();
        to = goals[i] - agents[i].position;
      }
      agents[i].preferred = to.normalized() * speed;
    }
    const auto begin = std::chrono::steady_clock::now();
    avoidance.step(agents, {}, 1.0 / 60.0, out);
    const double micros = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - begin).count();
    for (std::size_t i = 0; i < agents.size(); ++i) {
      agents[i].velocity = out[i].velocity;
      agents[i].position += out[i].velocity / 60.0f;
      if (frame >= 30) {
        neighbours += out[i].neighbours;
        planes += out[i].obstacles;
        infeasible += out[i].infeasible ? 1.0 : 0.0;
        yielding += out[i].yield != YieldKind::None ? 1.0 : 0.0;
        samples += 1.0;
      }
    }
    if (frame >= 30) perAgent.push_back(micros / double(count));
  }
  std::printf("%-28s %6d agents: %.2f us per agent per frame (median; p99 %.2f), %.1f neighbours, %.1f obstacle planes, "
              "%.2f%% infeasible, %.1f%% yielding or waiting\n",
              name.c_str(), count, percentile(perAgent, 0.5), percentile(perAgent, 0.99), neighbours / samples,
              planes / samples, 100.0 * infeasible / samples, 100.0 * yielding / samples);
}

}  // namespace

int main(int argc, char** argv) {
  std::filesystem::path movingAi = RPGNAV_MOVINGAI_DIR;
  std::vector<int> counts;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--movingai" && i + 1 < argc) {
      movingAi = argv[++i];
    } else if (arg == "--agents" && i + 1 < argc) {
      counts.push_back(std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: rpgnav_avoidance_benchmark [--movingai DIR] [--agents N ...]\n");
      return 2;
    }
  }
  if (counts.empty()) counts = {1000, 10000};
  std::mt19937 random(2026);
  std::printf("local avoidance, radius 0.25 tiles, 2 tiles/s, 60 fps, 300 frames timed after 30\n");
  for (const int count : counts) {
    // About 10 neighbours within reach (4.6 tiles at these settings): 0.15 agents a tile.
    const int side = int(std::ceil(std::sqrt(double(count) / 0.15)));
    run("open " + std::to_string(side) + "x" + std::to_string(side), generated(side, 0.0, random), count, random);
    run("10% walls " + std::to_string(side) + "x" + std::to_string(side), generated(side, 0.1, random), count, random);
    const auto brc = movingAi / "dao" / "brc202d.map";
    if (std::filesystem::exists(brc)) {
      auto map = readMovingAiMap(brc);
      if (map) run("dao/brc202d", *map, count, random);
    }
  }
  return 0;
}
