// SPDX-License-Identifier: MIT
// The bundled sample maps: they load, are the size and kind promised, and are coherent (doors
// between passable neighbours, entities on passable tiles, one main walkable region).
#include <catch2/catch.hpp>

#include "rpgnav/grid/regions.hpp"
#include "rpgnav/io/rpgmap.hpp"
#include "support/test_maps.hpp"

#include <set>

using namespace rpgnav;

namespace {

MapDocument load(const char* name) {
  auto document = readMapFile(test::sampleMapsDir() / name);
  INFO(document.message());
  REQUIRE(document.ok());
  return std::move(document.value());
}

std::set<std::string> terrainNames(const TileMap& map) {
  std::set<std::string> names;
  for (TerrainId id : map.tiles()) names.insert(map.terrain().terrainName(id));
  return names;
}

void checkCoherent(const MapDocument& document, std::uint32_t maxWalkRegions) {
  const TileMap& map = document.map;
  CHECK(map.width() >= 40);
  CHECK(map.height() >= 40);
  const RegionMap walk = RegionMap::compute(map, TerrainTable::kWalk);
  CHECK(walk.regionCount() >= 1);
  CHECK(walk.regionCount() <= maxWalkRegions);
  for (const DoorSpec& door : document.doors) {
    INFO("door " << door.name);
    CHECK(map.passable(door.a, TerrainTable::kWalk));
    CHECK(map.passable(door.b, TerrainTable::kWalk));
    CHECK(map.layout().stepDistance(door.a, door.b) == 1);
  }
  for (const EntitySpec& entity : document.entities) {
    INFO("entity " << entity.name);
    const auto cell = map.tileAt(entity.position);
    REQUIRE(cell.has_value());
    CHECK(map.passable(*cell, TerrainTable::kWalk));
    CHECK(entity.radius > 0.0f);
  }
}

}  // namespace

TEST_CASE("sample dungeon: rooms, corridors, closed and locked doors, rugs and furniture", "[scenario]") {
  const MapDocument dungeon = load("dungeon.rpgmap");
  CHECK(dungeon.map.layout().kind() == LayoutKind::Square);
  checkCoherent(dungeon, 2);  // the main level and a sealed vault
  int closed = 0, locked = 0, flat = 0, solid = 0;
  for (const DoorSpec& door : dungeon.doors) {
    closed += door.state == DoorState::Closed;
    if (door.state == DoorState::Locked) {
      ++locked;
      CHECK_FALSE(door.key.empty());
    }
  }
  for (const EntitySpec& entity : dungeon.entities) (entity.flat ? flat : solid) += 1;
  CHECK(closed >= 2);
  CHECK(locked >= 2);
  CHECK(flat >= 3);
  CHECK(solid >= 10);
}

TEST_CASE("sample town: streets, houses with doors, water and bridges", "[scenario]") {
  const MapDocument town = load("town.rpgmap");
  CHECK(town.map.layout().kind() == LayoutKind::Square);
  checkCoherent(town, 1);
  const auto names = terrainNames(town.map);
  CHECK(names.count("deep_water") == 1);
  CHECK(names.count("bridge") == 1);
  CHECK(names.count("cobble") == 1);
  CHECK(town.doors.size() >= 8);
  // Without the bridges and the ford, walkers are cut in two by the river.
  TileMap noCrossings = town.map;
  const TerrainId water = *town.map.terrain().findTerrain("deep_water");
  for (int i = 0; i < noCrossings.tileCount(); ++i) {
    const std::string& name = town.map.terrain().terrainName(town.map.tiles()[std::size_t(i)]);
    if (name == "bridge" || name == "ford") REQUIRE(noCrossings.setTerrain(noCrossings.cellAt(i), water) == Status::Ok);
  }
  CHECK(RegionMap::compute(noCrossings, TerrainTable::kWalk).regionCount() >= 2);
}

TEST_CASE("sample wilderness: hex terrain with a river and fords", "[scenario]") {
  const MapDocument wild = load("wilderness.rpgmap");
  CHECK(wild.map.layout().isHex());
  checkCoherent(wild, 1);
  const auto names = terrainNames(wild.map);
  for (const char* name : {"grass", "forest", "hills", "swamp", "water", "mountain", "ford"}) {
    INFO(name);
    CHECK(names.count(name) == 1);
  }
  // Costly terrain really costs more than grass for walkers.
  const TerrainTable& terrain = wild.map.terrain();
  const float grass = terrain.cost(*terrain.findTerrain("grass"), TerrainTable::kWalk);
  for (const char* name : {"forest", "hills", "swamp", "ford"}) {
    CHECK(terrain.cost(*terrain.findTerrain(name), TerrainTable::kWalk) > grass);
  }
  CHECK_FALSE(terrain.passable(*terrain.findTerrain("water"), TerrainTable::kWalk));
}
