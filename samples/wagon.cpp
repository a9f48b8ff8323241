// SPDX-License-Identifier: MIT
// A wagon and a walker in the market town of Wainford (README, "Large characters"): one shared
// navigation data for both sizes, one planner per character, the same start and goal. The walker
// (a quarter tile) takes the alley from the west road to the market; the wagon (one tile in
// radius, two tiles wide) does not fit there and goes round by the cart roads. With --svg FILE,
// both routes over the map.
//
// Run: wagon PATH/TO/wainford.rpgmap [--svg FILE]
#include <rpgnav/rpgnav.hpp>

#include <cstdio>
#include <string>

namespace {

struct Traveller {
  const char* name;
  float radius;  // world units (tiles of 1 here)
  const char* colour;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 && !(argc == 4 && std::string(argv[2]) == "--svg")) {
    std::fprintf(stderr, "usage: %s PATH/TO/wainford.rpgmap [--svg FILE]\n", argv[0]);
    return 2;
  }
  auto document = rpgnav::readMapFile(argv[1]);
  if (!document) {
    std::fprintf(stderr, "%s\n", document.error().message.c_str());
    return 1;
  }
  rpgnav::World world(document->map);
  if (world.addFeatures(document->doors, document->entities, document->dangerLayers, document->dangerFactor, document->settings) != rpgnav::Status::Ok) {
    std::fprintf(stderr, "%s: unexpected doors or entities\n", argv[1]);
    return 1;
  }

  // One navigation data for the world, prepared for both sizes between frames: from half a tile
  // up it holds the walkers' clearance (a byte per tile, shared by every wide size).
  const Traveller travellers[] = {{"walker", 0.25f, "#0050ff"}, {"wagon", 1.0f, "#b03000"}};
  rpgnav::NavData data(world);
  for (const Traveller& traveller : travellers) {
    if (data.prepare(rpgnav::TerrainTable::kWalk, traveller.radius) != rpgnav::Status::Ok) {
      std::fprintf(stderr, "cannot prepare the navigation data\n");
      return 1;
    }
  }

  // From the west road to the well in the market square.
  const rpgnav::Vec2 start(1.5f, 16.5f), goal(20.5f, 17.5f);
  rpgnav::SvgPicture picture(world.map(), rpgnav::TerrainTable::kWalk, 16.0f);
  picture.world(world);
  int status = 0;
  for (const Traveller& traveller : travellers) {
    rpgnav::Planner planner(data);  // one per character (or per thread), all on the same data
    rpgnav::PathResult path;
    rpgnav::PathRequest request;
    request.start = start;
    request.goal = goal;
    request.mobility = rpgnav::TerrainTable::kWalk;
    request.radius = traveller.radius;
    if (planner.plan(request, path) != rpgnav::Status::Ok) {
      std::fprintf(stderr, "%s: %s (%s)\n", traveller.name, std::string(rpgnav::toString(path.status)).c_str(), path.reason.c_str());
      status = 1;
      continue;
    }
    std::printf("%-6s radius %.2f: %zu tiles, path length %.2f, %zu control points\n", traveller.name,
                double(traveller.radius), path.tilePath.size(), path.length, path.controlPoints.size());
    picture.route(path.smoothed, traveller.radius, traveller.colour,
                  traveller.name,
                  path.controlPoints);
  }
  picture.start(start, 1.0f);
  picture.goal(goal, 1.0f);
  if (argc == 4 && picture.save(argv[3]) != rpgnav::Status::Ok) {
    std::fprintf(stderr, "cannot write %s\n", argv[3]);
    return 1;
  }
  return status;
}
