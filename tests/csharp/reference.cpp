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

  // The scheduler: 100 characters on floor tiles picked by a fixed sequence, three goals (gone
  // before what follows, as in the C# test).
  {
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
  }

  // Danger, the goal fallback and the designer settings: a danger band across the great hall
  // (layer 0, columns 30-36) and a stamp at the entrance, weighed at the world's factor 150.
  for (std::int32_t y = 3; y <= 10; ++y) {
    for (std::int32_t x = 30; x <= 36; ++x) (void)world.danger().setDanger(0, Cell{x, y}, 120);
  }
  const std::uint32_t stamp = world.danger().addStamp({Vec2(6.5f, 9.5f), 2.5f, 200, 0.5f}).value();
  world.setDangerFactor(150);
  std::fprintf(out, "danger %d %d %u\n", int(world.danger().danger(Cell{33, 9})), int(world.danger().danger(Cell{6, 9})), stamp);
  world.setDoorPolicy(nullptr);
  request.start = Vec2(4.5f, 9.5f);
  request.goal = Vec2(44.5f, 9.5f);
  status = planner.plan(request, path);
  std::fprintf(out, "weighed %s %s\n", test::cStatusName(status).c_str(), points(path.controlPoints).c_str());
  request.dangerFactor = 0;
  status = planner.plan(request, path);
  std::fprintf(out, "brave %s %s\n", test::cStatusName(status).c_str(), points(path.controlPoints).c_str());
  request.dangerFactor.reset();
  (void)world.danger().removeStamp(stamp);
  request.goal = Vec2(0.5f, 0.5f);  // a wall
  request.goalFallback = true;
  status = planner.plan(request, path);
  std::fprintf(out, "fallback %s %s %s,%s\n", test::cStatusName(status).c_str(), points(path.controlPoints).c_str(),
               bits(path.fallbackGoal.value_or(Vec2::Zero()).x()).c_str(), bits(path.fallbackGoal.value_or(Vec2::Zero()).y()).c_str());
  request.goalFallback = false;
  if (world.setDesignSettings({.comfort = 0.05f, .smoothing = 0.2f, .closedDoorCost = 9.0f}) != Status::Ok) return 1;
  request.goal = Vec2(23.5f, 20.5f);
  status = planner.plan(request, path);
  std::fprintf(out, "designed %s %s\n", test::cStatusName(status).c_str(), points(path.controlPoints).c_str());
  {
    ReplanScheduler careful(world);
    CharacterSpec spec;
    spec.id = EntityId{2001};
    spec.radius = 0.3f;
    spec.speed = 3.0f;
    spec.position = Vec2(4.5f, 9.5f);
    spec.goal = Goal::at(Vec2(0.5f, 0.5f));
    spec.goalFallback = true;
    spec.dangerFactor = 200;
    if (careful.add(spec) != Status::Ok) return 1;
    careful.update(0.0, ReplanBudget{});
    for (const ReplanEvent& event : careful.events()) {
      std::fprintf(out, "careful %u %d %s\n", event.character.value, int(event.kind), test::cStatusName(event.status).c_str());
    }
    const PathResult* walked = careful.path(EntityId{2001});
    std::fprintf(out, "careful path %s\n", walked != nullptr ? points(walked->controlPoints).c_str() : "none");
  }
  {
    // The C API's field: the world's doors, the map file's layers (none) and the world's factor.
    CrowdField field(CostField::build(document->map, TerrainTable::kWalk).value());
    for (const Door& door : world.doors()) {
      if (door.state != DoorState::Open) (void)field.setDoor(door.a, door.b, door.state);
    }
    field.setDangerFactor(world.dangerFactor());
    const Cell goal{33, 9};
    field.setGoals(std::span<const Cell>(&goal, 1));
    (void)field.setDanger(1, Cell{20, 10}, 250);
    const std::uint32_t fieldStamp = field.addDangerStamp({Vec2(25.5f, 9.5f), 3.0f, 180, 1.0f}).value();
    (void)field.setDoorCosts({5.0f, CrowdField::DoorCosts::kBlocks});
    std::string line = "field " + std::to_string(fieldStamp);
    for (const Cell cell : {Cell{4, 9}, Cell{20, 9}, Cell{23, 20}, Cell{51, 4}}) {
      const double distance = field.reachable(cell) ? double(field.distance(cell)) / double(CrowdField::kStep) : -1.0;
      char text[24];
      std::snprintf(text, sizeof text, " %016llx", static_cast<unsigned long long>(std::bit_cast<std::uint64_t>(distance)));
      line += text;
    }
    std::fprintf(out, "%s\n", line.c_str());
  }
  std::fprintf(out, "end\n");
  return std::fclose(out) == 0 ? 0 : 1;
}
