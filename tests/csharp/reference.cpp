// SPDX-License-Identifier: MIT
// The C++ side of the C# binding's test (tests/csharp/BindingTest.cs does the same through C#):
// the sample dungeon, the hero's route with a door policy, door stops heard through the
// listener and opened, then the scheduler with 100 characters. Prints one line per answer, floats
// as their bits, so that the C# run can be compared with it line for line.
//
// usage: rpgnav_csharp_reference PATH/TO/dungeon.rpgmap OUTPUT
#include <rpgnav/rpgnav.hpp>

#include "support/c_names.hpp"

#include <bit>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

using namespace rpgnav;

namespace {

std::string bits(float value) {
  char text[16];
  std::snprintf(text, sizeof text, "%08x", std::bit_cast<std::uint32_t>(value));
  return text;
}

std::string points(const std::vector<Vec2>& path) {
  std::string text = std::to_string(path.size());
  for (const Vec2& p : path) text += " " + bits(p.x()) + "," + bits(p.y());
  return text;
}

class HeroDoors final : public DoorPolicy {
 public:
  DoorDecision decide(const Door& door, const Traveller&) const override {
    if (door.state == DoorState::Open) return {DoorAction::Pass, 0.0f};
    if (door.state == DoorState::Locked && door.key == "library_key") return {DoorAction::Pass, 3.0f};
    return {DoorAction::Stop, 2.0f};
  }
};

class Stops final : public DoorListener {
 public:
  int count = 0;
  DoorStop last;
  void stoppedAtDoor(const DoorStop& stop) override {
    ++count;
    last = stop;
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s PATH/TO/dungeon.rpgmap OUTPUT\n", argv[0]);
    return 2;
  }
  auto document = readMapFile(argv[1]);
  if (!document) {
    std::fprintf(stderr, "%s\n", document.error().message.c_str());
    return 1;
  }
  World world(document->map);
  if (world.addFeatures(document->doors, document->entities, document->dangerLayers, document->dangerFactor, document->settings) != Status::Ok) return 1;
  HeroDoors policy;
  Stops stops;
  world.setDoorPolicy(&policy);
  world.setDoorListener(&stops);
  std::FILE* out = std::fopen(argv[2], "w");
  if (out == nullptr) return 1;

  Planner planner(world);
  PathResult path;
  PathRequest request;
  request.start = Vec2(4.5f, 9.5f);
  request.goal = Vec2(51.5f, 4.5f);
  request.radius = 0.3f;
  request.character = EntityId{1000};
  Status status = planner.plan(request, path);
  std::fprintf(out, "hero %s %s\n", test::cStatusName(status).c_str(), points(path.controlPoints).c_str());

  // To the crypt: each door stop is heard by the listener, and the game opens that door.
  request.goal = Vec2(23.5f, 20.5f);
  for (int leg = 0; leg < 10; ++leg) {
    status = planner.plan(request, path);
    std::fprintf(out, "crypt %d %s %s\n", leg, test::cStatusName(status).c_str(), points(path.controlPoints).c_str());
    if (status != Status::StoppedAtDoor) break;
    std::fprintf(out, "stop %d door %u at %s,%s heard %d\n", leg, stops.last.door.value, bits(stops.last.point.x()).c_str(),
                 bits(stops.last.point.y()).c_str(), stops.count);
    if (world.setDoorState(stops.last.door, DoorState::Open) != Status::Ok) return 1;
    request.start = stops.last.point;
  }

  // The scheduler: 100 characters on floor tiles picked by a fixed sequence, three goals.
  ReplanScheduler scheduler(world);
  const TerrainId floor = *document->map.terrain().findTerrain("floor");
  std::uint32_t seed = 12345u, added = 0;
  while (added < 100) {
    seed = seed * 1103515245u + 12345u;
    const std::int32_t x = std::int32_t((seed >> 8) % 56u);
    seed = seed * 1103515245u + 12345u;
    const std::int32_t y = std::int32_t((seed >> 8) % 42u);
    if (document->map.terrainAt(Cell{x, y}) != floor) continue;
    ++added;
    CharacterSpec spec;
    spec.id = EntityId{1000 + added};  // above the map's entities (1, 2, ...)
    spec.radius = 0.3f;
    spec.speed = 3.0f;
    spec.position = document->map.layout().tileCenter(Cell{x, y});
    spec.goal = Goal::at(added % 3 == 0 ? Vec2(33.5f, 9.5f) : added % 3 == 1 ? Vec2(23.5f, 20.5f) : Vec2(11.5f, 33.5f));
    if (scheduler.add(spec) != Status::Ok) return 1;
  }
  for (int frame = 0; frame < 60; ++frame) {
    scheduler.update(frame / 30.0, ReplanBudget::work(20000));
    for (const ReplanEvent& event : scheduler.events()) {
      std::fprintf(out, "event %d %u %d %d %s %u %u\n", frame, event.character.value, int(event.kind), int(event.reason),
                   test::cStatusName(event.status).c_str(), event.door.value, event.blocker.value);
    }
  }
  for (std::uint32_t id = 1001; id <= 1100; ++id) {
    const PathResult* result = scheduler.path(EntityId{id});
    if (result == nullptr) {
      std::fprintf(out, "path %u none\n", id);
    } else {
      std::fprintf(out, "path %u %s %s\n", id, test::cStatusName(result->status).c_str(), points(result->controlPoints).c_str());
    }
  }
  // The cadence: one piece of work per update falls behind.
  for (int frame = 0; frame < 150; ++frame) scheduler.update(2.0 + frame / 30.0, ReplanBudget::work(1));
  std::fprintf(out, "late %lld\n", static_cast<long long>(scheduler.lateTurns()));
  std::fprintf(out, "end\n");
  return std::fclose(out) == 0 ? 0 : 1;
}
