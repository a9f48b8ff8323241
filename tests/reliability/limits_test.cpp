// SPDX-License-Identifier: MIT
// Limits: absurd map sizes, entity, door and character counts are refused with LimitExceeded and
// a clear message before anything big is allocated; what is already there keeps working.
#include <catch2/catch.hpp>

#include "rpgnav/field/crowd_field.hpp"
#include "rpgnav/io/moving_ai.hpp"
#include "rpgnav/io/rpgmap.hpp"
#include "rpgnav/path/planner.hpp"
#include "rpgnav/schedule/replan_scheduler.hpp"
#include "support/allocation_counter.hpp"
#include "support/test_maps.hpp"

#include <climits>
#include <string>

using namespace rpgnav;

TEST_CASE("limits: maps over 32768 per side or 2^26 tiles are refused before any tile is allocated", "[reliability][limits]") {
  const TerrainTable terrain = test::testTerrain();
  for (auto [w, h] : {std::pair{32768, 32768}, {INT_MAX, 1}, {1, INT_MAX}, {INT_MAX, INT_MAX}, {9000, 9000}}) {
    const std::uint64_t before = test::allocationCount();
    const auto map = TileMap::create(Layout::square(), w, h, terrain, TerrainId{0});
    REQUIRE(map.status() == Status::LimitExceeded);
    CHECK(test::allocationCount() - before < 10);  // the message, not 2^26 tiles
    CHECK_THAT(std::string(map.message()), Catch::Contains("over the limits"));
  }
  // Readers refuse a header that promises too many tiles, before reading (or allocating) rows.
  const auto movingAi = parseMovingAiMap("type octile\nheight 32768\nwidth 32768\nmap\n", "huge.map");
  REQUIRE(movingAi.status() == Status::ParseError);
  CHECK_THAT(std::string(movingAi.message()), Catch::StartsWith("huge.map:3:") && Catch::Contains("2^26 tile limit"));
  const auto rpgmap = parseRpgMap("rpgmap 1\nlayout square\nsize 32768 32768\n", "huge.rpgmap");
  REQUIRE(rpgmap.status() == Status::ParseError);
  CHECK_THAT(std::string(rpgmap.message()), Catch::StartsWith("huge.rpgmap:3:") && Catch::Contains("2^26 tile limit"));
}

TEST_CASE("limits: a registry takes 2^20 entities, refuses the next, and still works", "[reliability][limits]") {
  EntityRegistry registry;
  for (std::uint32_t i = 1; i <= kMaxEntities; ++i) {
    REQUIRE(registry.add({EntityId{i}, Vec2(float(i % 1024), float(i / 1024)), 0.3f, kEntityStatic}) == Status::Ok);
  }
  const auto last = std::uint32_t(kMaxEntities);
  CHECK(registry.add({EntityId{last + 1}, Vec2(1.0f, 1.0f), 0.3f, kEntityStatic}) == Status::LimitExceeded);
  CHECK(registry.size() == kMaxEntities);
  CHECK(registry.find(EntityId{last + 1}) == nullptr);
  // Room again after a removal; queries see the registry as it is.
  REQUIRE(registry.remove(EntityId{5}) == Status::Ok);
  CHECK(registry.add({EntityId{last + 1}, Vec2(2000.5f, 3.5f), 0.3f, kEntityStatic}) == Status::Ok);
  std::vector<Entity> near;
  registry.entitiesNear(Vec2(2000.0f, 3.5f), Vec2(2001.0f, 3.5f), 0.1f, near);
  REQUIRE(near.size() == 1);
  CHECK(near[0].id == EntityId{last + 1});
}

TEST_CASE("limits: a world takes 2^20 doors and refuses the next with a message", "[reliability][limits]") {
  const TileMap map = TileMap::create(Layout::square(), 1024, 1024, test::testTerrain(), TerrainId{0}).value();
  World world(map);
  std::size_t added = 0;
  for (int y = 0; y < 1024 && added < kMaxDoors; ++y) {
    for (int x = 0; x + 1 < 1024 && added < kMaxDoors; ++x) {
      REQUIRE(world.addDoor({"", {x, y}, {x + 1, y}, DoorState::Open}).ok());
      ++added;
    }
  }
  for (int x = 0; added < kMaxDoors; ++x) {
    REQUIRE(world.addDoor({"", {x, 0}, {x, 1}, DoorState::Open}).ok());
    ++added;
  }
  const auto refused = world.addDoor({"one too many", {5, 500}, {5, 501}, DoorState::Closed});
  REQUIRE(refused.status() == Status::LimitExceeded);
  CHECK_THAT(std::string(refused.message()), Catch::Contains("doors"));
  CHECK(world.doors().size() == kMaxDoors);
  CHECK(world.findDoor("one too many") == nullptr);
  // The full world still plans (every door open).
  Planner planner(world);
  PathResult result;
  CHECK(planner.plan({Vec2(0.5f, 0.5f), Vec2(900.5f, 700.5f)}, result) == Status::Ok);
}

TEST_CASE("limits: a scheduler takes 2^20 characters and refuses the next", "[reliability][limits]") {
  const TileMap map = TileMap::create(Layout::square(), 64, 64, test::testTerrain(), TerrainId{0}).value();
  World world(map);
  ReplanScheduler scheduler(world);
  CharacterSpec spec;
  spec.mobility = TerrainTable::kWalk;
  spec.speed = 1.0f;
  spec.position = Vec2(3.5f, 3.5f);
  spec.goal = Goal::at(Vec2(60.5f, 60.5f));
  for (std::uint32_t i = 1; i <= kMaxCharacters; ++i) {
    spec.id = EntityId{i};
    REQUIRE(scheduler.add(spec) == Status::Ok);
  }
  spec.id = EntityId{std::uint32_t(kMaxCharacters) + 1};
  CHECK(scheduler.add(spec) == Status::LimitExceeded);
  REQUIRE(scheduler.remove(EntityId{1}) == Status::Ok);
  CHECK(scheduler.add(spec) == Status::Ok);
}

TEST_CASE("limits: absurd sector sizes and smoothing tolerances are clamped, not obeyed", "[reliability][limits]") {
  std::mt19937 random(3);
  const TileMap map = test::randomMap(random, Layout::square(), 40, 30, 0.2);
  const CostField costs = CostField::build(map, TerrainTable::kWalk).value();
  CHECK(SectorFields(costs, INT_MAX).size() == kMaxSectorSize);
  CHECK(SectorFields(costs, INT_MIN).size() == 4);
  CHECK(SectorFields(costs, 7).size() == 8);
  // A tolerance of 1e-30 tiles would ask for millions of table points; 1e-4 is the floor.
  const TileMap room = test::mapFromAscii(Layout::square(), {"..........", "..........", "....##....", "....##....", ".........."});
  for (const float tolerance : {1e-30f, 0.0f, -1.0f, std::numeric_limits<float>::quiet_NaN()}) {
    PlannerSettings settings;
    settings.smoothing.tolerance = tolerance;
    Planner planner(room, settings);
    PathResult result;
    REQUIRE(planner.plan({Vec2(0.5f, 2.5f), Vec2(9.5f, 3.5f)}, result) == Status::Ok);
    REQUIRE(result.smoothed.spans().size() > 1);
    INFO("tolerance " << tolerance);
    CHECK(result.smoothed.samples().size() < 2000);
  }
}
