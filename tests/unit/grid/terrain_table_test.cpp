// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "rpgnav/grid/terrain_table.hpp"

#include <cmath>
#include <limits>

using namespace rpgnav;

TEST_CASE("terrain table has walk, swim and fly built in", "[grid]") {
  const TerrainTable table;
  CHECK(table.mobilityCount() == 3);
  CHECK(table.findMobility("walk") == TerrainTable::kWalk);
  CHECK(table.findMobility("swim") == TerrainTable::kSwim);
  CHECK(table.findMobility("fly") == TerrainTable::kFly);
  CHECK(table.terrainCount() == 0);
  CHECK(table.minCost(TerrainTable::kWalk) == TerrainTable::kImpassable);
}

TEST_CASE("terrain costs: missing means impassable, values must be positive and finite", "[grid]") {
  TerrainTable table;
  const TerrainId swamp = table.addTerrain("swamp", ',').value();
  CHECK_FALSE(table.passable(swamp, TerrainTable::kWalk));
  CHECK(table.cost(swamp, TerrainTable::kWalk) == TerrainTable::kImpassable);
  CHECK(table.setCost(swamp, TerrainTable::kWalk, 3.5f) == Status::Ok);
  CHECK(table.cost(swamp, TerrainTable::kWalk) == 3.5f);
  CHECK(table.minCost(TerrainTable::kWalk) == 3.5f);

  for (float bad : {0.0f, -1.0f, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                    -std::numeric_limits<float>::infinity()}) {
    CHECK(table.setCost(swamp, TerrainTable::kSwim, bad) == Status::InvalidArgument);
    CHECK_FALSE(table.passable(swamp, TerrainTable::kSwim));
  }
  CHECK(table.clearCost(swamp, TerrainTable::kWalk) == Status::Ok);
  CHECK_FALSE(table.passable(swamp, TerrainTable::kWalk));
  CHECK(table.setCost(TerrainId{9}, TerrainTable::kWalk, 1.0f) == Status::InvalidArgument);
  CHECK(table.setCost(swamp, MobilityId{7}, 1.0f) == Status::InvalidArgument);  // not declared yet
  CHECK(table.cost(TerrainId{200}, TerrainTable::kWalk) == TerrainTable::kImpassable);
}

TEST_CASE("minCost is the cheapest terrain of a mobility", "[grid]") {
  TerrainTable table;
  const TerrainId road = table.addTerrain("road").value();
  const TerrainId grass = table.addTerrain("grass").value();
  REQUIRE(table.setCost(road, TerrainTable::kWalk, 0.8f) == Status::Ok);
  REQUIRE(table.setCost(grass, TerrainTable::kWalk, 1.0f) == Status::Ok);
  REQUIRE(table.setCost(grass, TerrainTable::kFly, 2.0f) == Status::Ok);
  CHECK(table.minCost(TerrainTable::kWalk) == 0.8f);
  CHECK(table.minCost(TerrainTable::kFly) == 2.0f);
  CHECK(table.minCost(TerrainTable::kSwim) == TerrainTable::kImpassable);
}

TEST_CASE("mobilities: up to 8, valid unique names", "[grid]") {
  TerrainTable table;
  for (const char* name : {"climb", "burrow", "ghost", "ride", "sail"}) REQUIRE(table.addMobility(name).ok());
  CHECK(table.mobilityCount() == 8);
  CHECK(table.findMobility("sail") == MobilityId{7});
  const auto ninth = table.addMobility("teleport");
  CHECK(ninth.status() == Status::InvalidArgument);
  CHECK_THAT(std::string(ninth.message()), Catch::Contains("at most 8"));

  TerrainTable other;
  CHECK_FALSE(other.addMobility("walk").ok());
  CHECK_FALSE(other.addMobility("").ok());
  CHECK_FALSE(other.addMobility("has space").ok());
  CHECK_FALSE(other.addMobility(std::string(65, 'a')).ok());
}

TEST_CASE("terrains: unique names and symbols, at most 255", "[grid]") {
  TerrainTable table;
  REQUIRE(table.addTerrain("floor", '.').ok());
  CHECK_FALSE(table.addTerrain("floor", ',').ok());
  CHECK_FALSE(table.addTerrain("other", '.').ok());
  CHECK_FALSE(table.addTerrain("tab", '\t').ok());
  CHECK_FALSE(table.addTerrain("bad name!").ok());
  CHECK(table.findTerrainBySymbol('.') == TerrainId{0});
  CHECK_FALSE(table.findTerrainBySymbol(',').has_value());
  CHECK_FALSE(table.findTerrainBySymbol(0).has_value());
  for (int i = 1; i < kMaxTerrains; ++i) REQUIRE(table.addTerrain(std::string("t").append(std::to_string(i))).ok());
  CHECK(table.terrainCount() == 255);
  CHECK(table.addTerrain("one-too-many").status() == Status::InvalidArgument);
}
