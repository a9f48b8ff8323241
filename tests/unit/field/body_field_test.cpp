// SPDX-License-Identifier: MIT
// Crowd fields per size class: a field for bodies of a given radius, against the
// search for that body, and kept up to date through edits.
#include <catch2/catch.hpp>

#include "rpgnav/field/crowd_field.hpp"
#include "grid/clearance.hpp"
#include "search/search_context.hpp"
#include "search/search_grid.hpp"
#include "support/test_maps.hpp"

#include <random>

using namespace rpgnav;

TEST_CASE("a crowd field for wide bodies reaches what their search reaches, as far, and follows edits",
          "[field][clearance][property]") {
  std::mt19937 random(2713);
  const double radii[] = {0.5, 0.75, 1.0, 1.5, 2.0};
  int compared = 0, unfit = 0, edits = 0;
  for (const Layout& layout : {Layout::square(), Layout::square(1.0f, 4), Layout::hexPointy(), Layout::hexFlat()}) {
    for (int trial = 0; trial < 12; ++trial) {
      const int w = std::uniform_int_distribution<int>(8, 30)(random), h = std::uniform_int_distribution<int>(8, 24)(random);
      // One cost everywhere (walls only): the field's and the search's lengths then agree.
      TileMap map = test::randomMap(random, layout, w, h, 0.03 + 0.02 * (trial % 4), false);
      const double radius = radii[std::size_t(trial) % std::size(radii)];
      Clearance clearance = Clearance::build(map, TerrainTable::kWalk);
      INFO(toString(layout.kind()) << " " << layout.connectivity() << "-way, trial " << trial << ", radius " << radius);
      auto costs = CostField::build(map, TerrainTable::kWalk, clearance, radius);
      REQUIRE(costs.ok());
      CHECK(costs->bodyTiles() == radius);
      std::vector<Cell> fitting;
      for (std::int32_t i = 0; i < map.tileCount(); ++i) {
        if (clearance.fits(map.cellAt(i), radius)) fitting.push_back(map.cellAt(i));
      }
      if (fitting.empty()) continue;
      const Cell goal = fitting[std::uniform_int_distribution<std::size_t>(0, fitting.size() - 1)(random)];
      CrowdField field(costs.value());
      field.setGoals(std::vector<Cell>{goal});
      // Every tile: reached by the field exactly when the body's search gets from it to the goal,
      // at the search's length.
      const SearchGrid grid = SearchGrid::build(map, TerrainTable::kWalk).value();
      SearchContext context;
      SearchResult result;
      for (std::int32_t i = 0; i < map.tileCount(); ++i) {
        const Cell cell = map.cellAt(i);
        INFO("tile " << cell.x << "," << cell.y);
        if (!clearance.fits(cell, radius)) {
          REQUIRE_FALSE(field.reachable(cell));
          ++unfit;
          continue;
        }
        SearchRequest request;
        request.start = cell;
        request.goal = goal;
        request.clearance = &clearance;
        request.bodyTiles = radius;
        context.findPath(grid, request, result);
        REQUIRE(field.reachable(cell) == (result.status == Status::Ok));
        if (result.status != Status::Ok) continue;
        // (A straight step between cost-1 tiles costs kStep.)
        const double length = double(field.distance(cell)) / double(CrowdField::kStep);
        REQUIRE(length == Approx(result.length).epsilon(1e-5).margin(1e-5));
        ++compared;
      }
      // Walls put up and taken down: the clearance and the field brought up to date equal a field
      // built afresh.
      const TerrainId wall = map.terrain().findTerrainBySymbol('#').value(), floor = map.terrain().findTerrainBySymbol('.').value();
      for (int e = 0; e < 4; ++e) {
        const Cell cell{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
        if (cell == goal) continue;
        REQUIRE(map.setTerrain(cell, map.passable(cell, TerrainTable::kWalk) ? wall : floor) == Status::Ok);
        clearance.update(map, cell, cell);
        REQUIRE(field.syncWithMap(map, clearance) == Status::Ok);
        CrowdField fresh(CostField::build(map, TerrainTable::kWalk, Clearance::build(map, TerrainTable::kWalk), radius).value());
        fresh.setGoals(field.goals());
        REQUIRE(field == fresh);
        REQUIRE(field.digest() == fresh.digest());
        ++edits;
      }
      // A point's refresh does not apply to a body's field.
      CHECK(field.syncWithMap(map) == Status::InvalidArgument);
    }
  }
  CHECK(compared > 2000);
  CHECK(unfit > 1000);
  CHECK(edits > 150);
}

TEST_CASE("a crowd field's size class refuses a clearance of another map or mobility and radii over 3 tiles", "[field][clearance]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {"......", "......", "......"});
  const Clearance walking = Clearance::build(map, TerrainTable::kWalk);
  CHECK(CostField::build(map, TerrainTable::kWalk, walking, 3.5).status() == Status::InvalidArgument);
  CHECK(CostField::build(map, TerrainTable::kWalk, walking, -0.5).status() == Status::InvalidArgument);
  CHECK(CostField::build(map, TerrainTable::kWalk, walking, std::nan("")).status() == Status::InvalidArgument);
  CHECK(CostField::build(map, TerrainTable::kFly, walking, 1.0).status() == Status::InvalidArgument);
  const TileMap other = test::mapFromAscii(Layout::square(), {"....", "...."});
  CHECK(CostField::build(map, TerrainTable::kWalk, Clearance::build(other, TerrainTable::kWalk), 1.0).status() ==
        Status::InvalidArgument);
  CHECK(CostField::build(map, MobilityId{7}, walking, 1.0).status() == Status::InvalidArgument);
  // Radius 1 on a 3-tile-high strip: only the middle row fits, and a point's field is refused
  // the body's refresh.
  auto body = CostField::build(map, TerrainTable::kWalk, walking, 1.0);
  REQUIRE(body.ok());
  CHECK(body->at({2, 1}) != CostField::kImpassable);
  CHECK(body->at({2, 0}) == CostField::kImpassable);
  CHECK(body->at({0, 1}) == CostField::kImpassable);  // half a tile from the map's edge
  CostField point = CostField::build(map, TerrainTable::kWalk).value();
  std::vector<Cell> changed;
  CHECK(point.refresh(map, walking, changed) == Status::InvalidArgument);
}
