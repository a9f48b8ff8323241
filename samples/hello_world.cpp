// SPDX-License-Identifier: MIT
// Hello, rpgnav: load the sample dungeon, register an entity and the game's door callbacks, plan
// a path, print it and walk it, then plan one that stops at a door. The program to copy first:
// it needs nothing but rpgnav (README, "A first program").
//
// Run: hello PATH/TO/dungeon.rpgmap   (installed with rpgnav under PREFIX/share/rpgnav/maps/,
// in the source tree under samples/maps/)
#include <rpgnav/rpgnav.hpp>

#include <cstdio>
#include <string>

namespace {

// The game's rule for doors, asked while planning: this hero carries the library key, so locked
// doors with that key are opened on the way (at the cost of three steps); any other closed or
// locked door stops the path in front of it and the game decides (kick, lock pick, spell...).
class HeroDoors final : public rpgnav::DoorPolicy {
 public:
  rpgnav::DoorDecision decide(const rpgnav::Door& door, const rpgnav::Traveller&) const override {
    if (door.state == rpgnav::DoorState::Open) return {rpgnav::DoorAction::Pass, 0.0f};
    if (door.state == rpgnav::DoorState::Locked && door.key == "library_key") return {rpgnav::DoorAction::Pass, 3.0f};
    return {rpgnav::DoorAction::Stop, 2.0f};
  }
};

// Told once when a planned path stops at a door (on the planner's thread, during plan()).
class Narrator final : public rpgnav::DoorListener {
 public:
  explicit Narrator(const rpgnav::World& world) : m_world(world) {}
  void stoppedAtDoor(const rpgnav::DoorStop& stop) override {
    std::printf("the path stops in front of the %s\n", m_world.door(stop.door)->name.c_str());
  }

 private:
  const rpgnav::World& m_world;  // read only: edit the world after plan() returns
};

}  // namespace

int main(int argc, char** argv) {
  // 1. The map: terrain, doors and entities from a .rpgmap file (or a Moving AI .map, a Tiled map).
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s PATH/TO/dungeon.rpgmap\n", argv[0]);
    return 2;
  }
  const char* file = argv[1];
  auto document = rpgnav::readMapFile(file);
  if (!document) {
    std::fprintf(stderr, "%s\n", document.error().message.c_str());  // "file:line:column: ..."
    return 1;
  }

  // 2. The world: the map plus its doors and entities, and the game's callbacks.
  rpgnav::World world(document->map);
  // The file's entities get ids 1, 2, ...; ours start at 500. A guard stands in the great hall:
  // paths keep out of its personal space (0.4 tiles).
  // The file's danger layers and danger-factor weigh in every plan (none in the dungeon), and its
  // designer settings (comfort, door costs...) are every plan's defaults.
  if (world.addFeatures(document->doors, document->entities, document->dangerLayers, document->dangerFactor, document->settings) !=
          rpgnav::Status::Ok ||
      world.entities().add({rpgnav::EntityId{500}, rpgnav::Vec2(33.5f, 5.5f), 0.4f, rpgnav::kEntityStatic}) !=
          rpgnav::Status::Ok) {
    std::fprintf(stderr, "%s: unexpected doors or entities\n", file);
    return 1;
  }
  HeroDoors doors;
  Narrator narrator(world);
  world.setDoorPolicy(&doors);
  world.setDoorListener(&narrator);

  // 3. One planner per thread, one result reused for every plan.
  rpgnav::Planner planner(world);
  rpgnav::PathResult path;
  // Requests are plain structs with a default for every field: set the ones you need.
  rpgnav::PathRequest request;
  request.start = rpgnav::Vec2(4.5f, 9.5f);   // the stairs up, world units (tile (4, 9) has its centre here)
  request.goal = rpgnav::Vec2(51.5f, 4.5f);   // inside the locked library
  request.mobility = rpgnav::TerrainTable::kWalk;
  request.radius = 0.3f;                      // the hero's radius, in tiles
  request.character = rpgnav::EntityId{1000}; // the hero (never an obstacle to itself)
  const rpgnav::Status status = planner.plan(request, path);
  if (!rpgnav::isSuccess(status)) {
    std::printf("no path: %s (%s)\n", std::string(rpgnav::toString(status)).c_str(), path.reason.c_str());
    return 1;
  }

  // 4. The answer: control points, the smoothed curve, and a character walking it.
  std::printf("%s: %zu control points, length %.2f tiles, smoothed %.2f tiles\n",
              std::string(rpgnav::toString(status)).c_str(), path.controlPoints.size(), path.length,
              path.smoothed.length());
  for (const rpgnav::Vec2& p : path.controlPoints) std::printf("  (%.2f, %.2f)\n", p.x(), p.y());
  rpgnav::PathFollower hero(path.smoothed);
  int frames = 0;
  while (!hero.arrived()) {
    hero.advance(3.0 / 60.0);  // 3 tiles a second at 60 frames a second
    ++frames;
  }
  std::printf("walked in %d frames (%.1f s)\n", frames, frames / 60.0);

  // 5. Into the crypt: the closed doors on the way stop the path, and the narrator hears of it.
  request.goal = rpgnav::Vec2(23.5f, 20.5f);
  const rpgnav::Status crypt = planner.plan(request, path);
  std::printf("to the crypt: %s, stop at (%.2f, %.2f)\n", std::string(rpgnav::toString(crypt)).c_str(),
              path.stopPoint.x(), path.stopPoint.y());
  return 0;
}
