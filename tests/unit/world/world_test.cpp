// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "rpgnav/world/world.hpp"
#include "support/geometry.hpp"
#include "support/test_maps.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <set>

using namespace rpgnav;

namespace {

std::set<std::uint32_t> idsOf(const std::vector<Entity>& entities) {
  std::set<std::uint32_t> ids;
  for (const Entity& entity : entities) ids.insert(entity.id.value);
  return ids;
}

double pointToSegment(Vec2 p, Vec2 a, Vec2 b) {
  return test::pointToSegment(p.cast<double>(), a.cast<double>(), b.cast<double>());
}

}  // namespace

TEST_CASE("entity registry: add, move, update, remove and bad input", "[world]") {
  EntityRegistry registry;
  CHECK(registry.add({EntityId{7}, Vec2(1, 2), 0.5f, kEntityMoving}) == Status::Ok);
  CHECK(registry.add({EntityId{8}, Vec2(3, 2), 0.25f, kEntityFlat}) == Status::Ok);
  CHECK(registry.size() == 2);
  const std::uint64_t version = registry.version();
  // Duplicate id, NaN position, negative or infinite radius.
  CHECK(registry.add({EntityId{7}, Vec2(0, 0), 0.5f}) == Status::InvalidArgument);
  CHECK(registry.add({EntityId{9}, Vec2(std::nanf(""), 0), 0.5f}) == Status::InvalidArgument);
  CHECK(registry.add({EntityId{9}, Vec2(0, 0), -1.0f}) == Status::InvalidArgument);
  CHECK(registry.add({EntityId{9}, Vec2(0, 0), std::numeric_limits<float>::infinity()}) == Status::InvalidArgument);
  CHECK(registry.version() == version);
  CHECK(registry.move(EntityId{7}, Vec2(5, 5)) == Status::Ok);
  REQUIRE(registry.find(EntityId{7}) != nullptr);
  CHECK(registry.find(EntityId{7})->position == Vec2(5, 5));
  CHECK(registry.move(EntityId{99}, Vec2(5, 5)) == Status::InvalidArgument);
  CHECK(registry.move(EntityId{7}, Vec2(std::nanf(""), 5)) == Status::InvalidArgument);
  CHECK(registry.update({EntityId{8}, Vec2(4, 4), 1.0f, kEntityStatic}) == Status::Ok);
  CHECK(registry.find(EntityId{8})->radius == 1.0f);
  CHECK_FALSE(registry.find(EntityId{8})->flat());
  CHECK(registry.version() > version);
  // The index follows: the old place is empty, the new one found.
  std::vector<Entity> near;
  registry.entitiesNear(Vec2(1, 2), Vec2(1, 2), 0.1f, near);
  CHECK(near.empty());
  registry.entitiesNear(Vec2(5, 5.2f), Vec2(5, 5.2f), 0.1f, near);
  CHECK(idsOf(near) == std::set<std::uint32_t>{7});
  CHECK(registry.remove(EntityId{7}) == Status::Ok);
  CHECK(registry.remove(EntityId{7}) == Status::InvalidArgument);
  CHECK(registry.find(EntityId{7}) == nullptr);
  near.clear();
  registry.entitiesNear(Vec2(0, 4), Vec2(10, 4), 0.0f, near);
  CHECK(idsOf(near) == std::set<std::uint32_t>{8});
  // Bad segments find nothing and do not crash.
  near.clear();
  registry.entitiesNear(Vec2(std::nanf(""), 0), Vec2(1, 1), 0.1f, near);
  CHECK(near.empty());
  registry.clear();
  CHECK(registry.size() == 0);
}

TEST_CASE("entity registry queries equal a brute-force scan through moves and removals", "[world][property]") {
  std::mt19937 random(11);
  std::uniform_real_distribution<float> coordinate(0.0f, 200.0f), radius(0.0f, 2.0f), reach(0.0f, 0.5f);
  EntityRegistry registry;
  std::vector<Entity> truth;
  for (std::uint32_t i = 1; i <= 1500; ++i) {
    const Entity entity{EntityId{i}, Vec2(coordinate(random), coordinate(random)), radius(random),
                        std::uint8_t(i % 5 == 0 ? kEntityFlat : kEntityMoving)};
    REQUIRE(registry.add(entity) == Status::Ok);
    truth.push_back(entity);
  }
  int found = 0;
  for (int round = 0; round < 400; ++round) {
    // Some edits between queries.
    for (int edit = 0; edit < 5; ++edit) {
      const std::size_t k = std::uniform_int_distribution<std::size_t>(0, truth.size() - 1)(random);
      if (edit == 4 && truth.size() > 10) {
        REQUIRE(registry.remove(truth[k].id) == Status::Ok);
        truth.erase(truth.begin() + std::ptrdiff_t(k));
      } else {
        truth[k].position = Vec2(coordinate(random), coordinate(random));
        REQUIRE(registry.move(truth[k].id, truth[k].position) == Status::Ok);
      }
    }
    const Vec2 a(coordinate(random), coordinate(random));
    const Vec2 b = round % 3 == 0 ? a : Vec2(coordinate(random), coordinate(random));
    const float r = reach(random);
    std::vector<Entity> near;
    registry.entitiesNear(a, b, r, near);
    std::set<std::uint32_t> expected;
    for (const Entity& entity : truth) {
      if (pointToSegment(entity.position, a, b) < double(entity.radius) + double(r)) expected.insert(entity.id.value);
    }
    REQUIRE(near.size() == idsOf(near).size());  // each once
    REQUIRE(idsOf(near) == expected);
    found += int(expected.size());
  }
  CHECK(found > 400);
}

TEST_CASE("world doors: places, states, versions and look-ups", "[world]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {"....", "....", "...."});
  World world(map);
  auto door = world.addDoor({"gate", {1, 1}, {2, 1}, DoorState::Locked, "iron_key"});
  REQUIRE(door.ok());
  CHECK(world.door(*door)->name == "gate");
  CHECK(world.door(*door)->key == "iron_key");
  CHECK(world.doorBetween({2, 1}, {1, 1}) == world.door(*door));
  CHECK(world.doorBetween({1, 1}, {1, 2}) == nullptr);
  CHECK(world.findDoor("gate") == world.door(*door));
  CHECK(world.findDoor("nope") == nullptr);
  // The edge: x = 2, y from 1 to 2.
  const auto& edge = world.door(*door)->edge;
  CHECK(std::min(edge[0].y(), edge[1].y()) == 1.0f);
  CHECK(std::max(edge[0].y(), edge[1].y()) == 2.0f);
  CHECK(edge[0].x() == 2.0f);
  CHECK(edge[1].x() == 2.0f);
  // Bad doors: diagonal, not touching, off the map, on an edge that has one.
  CHECK(world.addDoor({"d", {0, 0}, {1, 1}}).status() == Status::InvalidArgument);
  CHECK(world.addDoor({"d", {0, 0}, {2, 0}}).status() == Status::InvalidArgument);
  CHECK(world.addDoor({"d", {3, 0}, {4, 0}}).status() == Status::InvalidArgument);
  CHECK(world.addDoor({"d", {2, 1}, {1, 1}}).status() == Status::InvalidArgument);
  // State changes bump the map version; setting the same state does not.
  const std::uint64_t version = world.mapVersion();
  const std::uint64_t layout = world.doorLayoutVersion();
  CHECK(world.setDoorState(*door, DoorState::Open) == Status::Ok);
  CHECK(world.mapVersion() == version + 1);
  CHECK(world.setDoorState(*door, DoorState::Open) == Status::Ok);
  CHECK(world.mapVersion() == version + 1);
  CHECK(world.doorLayoutVersion() == layout);
  CHECK(world.setDoorState(DoorId{5}, DoorState::Open) == Status::InvalidArgument);
  CHECK(world.setDoorGameData(*door, 1234) == Status::Ok);
  CHECK(world.door(*door)->gameData == 1234);
  CHECK(world.door(DoorId{5}) == nullptr);
  // Taken away, the door keeps its name; a new door of that name is the one found.
  CHECK(world.removeDoor(*door) == Status::Ok);
  CHECK(world.doorLayoutVersion() == layout + 1);
  CHECK(world.findDoor("gate") == world.door(*door));
  CHECK(world.findDoor("gate")->removed);
  CHECK(world.removeDoor(*door) == Status::InvalidArgument);
  auto again = world.addDoor({"gate", {1, 1}, {2, 1}, DoorState::Closed, ""});
  REQUIRE(again.ok());
  CHECK(*again != *door);
  CHECK(world.findDoor("gate") == world.door(*again));
  CHECK_FALSE(world.findDoor("gate")->removed);
}

TEST_CASE("doorsNear reports every door near a box on square and hex maps", "[world][property]") {
  std::mt19937 random(5);
  for (const Layout& layout : test::allLayouts()) {
    const TileMap map = test::randomMap(random, layout, 40, 30, 0.0);
    World world(map);
    for (int i = 0; i < 300; ++i) {
      const Cell a{std::uniform_int_distribution<int>(0, 39)(random), std::uniform_int_distribution<int>(0, 29)(random)};
      const auto touching = layout.touching(a);
      const NeighbourStep& step = touching[std::uniform_int_distribution<std::size_t>(0, touching.size() - 1)(random)];
      (void)world.addDoor({"d" + std::to_string(i), a, {a.x + step.dx, a.y + step.dy}});
    }
    REQUIRE(world.doors().size() > 100);
    for (int q = 0; q < 300; ++q) {
      const Vec2 p(std::uniform_real_distribution<float>(-2, 42)(random), std::uniform_real_distribution<float>(-2, 32)(random));
      const Vec2 size(std::uniform_real_distribution<float>(0, 6)(random), std::uniform_real_distribution<float>(0, 6)(random));
      const float reach = std::uniform_real_distribution<float>(0, 1)(random);
      std::vector<DoorId> near;
      world.doorsNear(p, p + size, reach, near);
      std::set<std::uint32_t> reported;
      for (const DoorId id : near) reported.insert(id.value);
      for (const Door& door : world.doors()) {
        // Near: some point of the edge lies within `reach` of the box.
        bool close = false;
        for (int k = 0; k <= 20 && !close; ++k) {
          const Vec2 e = door.edge[0] + (door.edge[1] - door.edge[0]) * (float(k) / 20.0f);
          const Vec2 clamped = e.cwiseMax(p).cwiseMin(p + size);
          close = (clamped - e).norm() < reach;
        }
        if (close) REQUIRE(reported.count(door.id.value) == 1);
      }
    }
  }
}
