// SPDX-License-Identifier: MIT
// Regression cases found by independent checks (the maps are in tests/data/cases, each query as
// the check ran it through `rpgnav path`): what used to break, and what must happen instead.
#include <catch2/catch.hpp>

#include "rpgnav/grid/line_of_sight.hpp"
#include "rpgnav/io/rpgmap.hpp"
#include "rpgnav/path/planner.hpp"
#include "support/path_checks.hpp"
#include "support/test_maps.hpp"

#include <memory>

using namespace rpgnav;

namespace {

// A case's map with its doors and entities, and a planner on it that records every stage.
struct Case {
  std::unique_ptr<MapDocument> document;
  std::unique_ptr<World> world;
  std::unique_ptr<Planner> planner;
  PathResult result;

  explicit Case(const char* file) {
    auto read = readMapFile(test::testDataDir() / "cases" / file);
    REQUIRE(read.ok());
    document = std::make_unique<MapDocument>(std::move(read.value()));
    world = std::make_unique<World>(document->map);
    REQUIRE(world->addFeatures(document->doors, document->entities) == Status::Ok);
    PlannerSettings settings;
    settings.recordStages = true;
    planner = std::make_unique<Planner>(*world, settings);
  }
  const TileMap& map() const { return document->map; }
  Status plan(Vec2 from, Vec2 to, float radius) { return planner->plan({from, to, TerrainTable::kWalk, radius}, result); }
  // The judge's verdict on the cost invariant; "" when it holds.
  std::string invariant(Vec2 from, Vec2 to, float radius) const {
    return test::costInvariantViolation(map(), {from, to, TerrainTable::kWalk, radius}, result,
                                        planner->diagnostics(), test::wallDoors(world->doors()), false);
  }
};

}  // namespace

TEST_CASE("case hex-door-wide: a closed door elsewhere does not make a wide hex character give up", "[path][cases]") {
  // An open 6×6 flat-hex floor with one closed door. The search's clearance rule ignored the
  // door's ends, the polyline then came too close to one, and the pipeline answered NoPath.
  Case c("hex-door-wide.rpgmap");
  const Vec2 from(2.3094f, 3.5f), to(2.3094f, 2.5f);
  REQUIRE(c.plan(from, to, 0.3f) == Status::Ok);
  CHECK(c.invariant(from, to, 0.3f).empty());
  // Narrower, and with the door open, it was always fine.
  CHECK(c.plan(from, to, 0.28f) == Status::Ok);
}

TEST_CASE("case hex-stage-raises-cost: no stage raises the weighted cost", "[path][cases]") {
  // Stage 4 took the cost from 15.85 to 17.81: the stage-3 polyline passed a closed door's end
  // closer than the radius, and straightening "repaired" that with a dearer segment.
  Case c("hex-stage-raises-cost.rpgmap");
  const Vec2 from(15.5f, 8.37158f), to(11.0f, 26.55811f);
  REQUIRE(c.plan(from, to, 0.3f) == Status::Ok);
  const std::string broken = c.invariant(from, to, 0.3f);
  INFO(broken);
  CHECK(broken.empty());
  // Radius 0.28 on the same tiles ended at 15.68; the wider character does no worse.
  CHECK(c.result.cost < 15.68);
}

TEST_CASE("case hex-wide-dearer: never dearer than a radius-keeping polyline through the A* tiles' centres",
          "[path][cases]") {
  // Tile size 0.5: the path cost 20.70, 15.6% above such a polyline through the same tiles.
  Case c("hex-wide-dearer.rpgmap");
  const Vec2 from(33.57316f, 6.08575f), to(46.0121f, 3.56189f);
  REQUIRE(c.plan(from, to, 0.15f) == Status::Ok);
  const std::string broken = c.invariant(from, to, 0.15f);
  INFO(broken);
  CHECK(broken.empty());
  const auto reference = test::radiusKeepingCentrePolyline(c.map(), TerrainTable::kWalk, c.result.tilePath, from, to,
                                                           0.15, test::wallDoors(c.world->doors()));
  REQUIRE(reference);
  const double referenceCost =
      test::judgePolyline(c.map(), TerrainTable::kWalk, *reference, 0.15, test::wallDoors(c.world->doors())).cost;
  CHECK(c.result.cost <= referenceCost);
  CHECK(c.result.cost < 20.70 / 1.1);
}

TEST_CASE("case hex-locked-door-touch: no segment crosses or touches a closed or locked door", "[path][cases]") {
  // A radius-0 segment passed 4·10⁻⁵ tiles from the end of locked door d1 at (52.4352, 41.0).
  Case c("hex-locked-door-touch.rpgmap");
  const Vec2 from(53.0202f, 34.42198f), to(50.69849f, 52.49235f);
  REQUIRE(isSuccess(c.plan(from, to, 0.0f)));
  CHECK(c.invariant(from, to, 0.0f).empty());
  for (const Door* door : test::wallDoors(c.world->doors())) {
    for (std::size_t i = 1; i < c.result.controlPoints.size(); ++i) {
      // Visibly clear: a thousandth of a tile at least.
      CHECK(test::segmentsDistance(c.result.controlPoints[i - 1], c.result.controlPoints[i], door->edge[0],
                                   door->edge[1]) >= 1e-3);
    }
  }
}

TEST_CASE("case corner-intrusion: radius 0 may touch a blocked tile's boundary, never enter it", "[path][cases]") {
  // Corner points 0.001 off two different corners made a segment along row 132's top edge that
  // dipped 8·10⁻⁵ tiles into blocked tile (117,132); a tolerance of 5·10⁻⁷ × coordinate called
  // that touching.
  Case c("corner-intrusion.map");
  const Vec2 from(211.51126254805996f, 142.46252251669455f), to(13.743359697977438f, 136.85271223973885f);
  REQUIRE(c.plan(from, to, 0.0f) == Status::Ok);
  const std::string broken = c.invariant(from, to, 0.0f);
  INFO(broken);
  CHECK(broken.empty());
  REQUIRE_FALSE(c.map().passable({117, 132}, TerrainTable::kWalk));
  CHECK_FALSE(hasLineOfSight(c.map(), TerrainTable::kWalk, Vec2(123.999f, 132.001f), Vec2(110.999f, 131.999f)));
  // The smoothed curve keeps the rule too, sampled as a game gets it (each chord judged).
  std::vector<Vec2> curve;
  c.result.smoothed.sample(0.01, curve);
  CHECK(test::judgePolyline(c.map(), TerrainTable::kWalk, curve, 0.0).clear);
}

TEST_CASE("case swamp-straight: inside uniform swamp the character walks straight", "[path][cases]") {
  // Stage 1 fired only over the cheapest terrain: the planner went round the swamp (length 12.66,
  // cost 15.49) where the straight line costs 15.
  Case c("swamp-straight.rpgmap");
  REQUIRE(c.plan(Vec2(8.5f, 4.5f), Vec2(11.5f, 8.5f), 0.0f) == Status::Ok);
  CHECK(c.result.controlPoints == std::vector<Vec2>{Vec2(8.5f, 4.5f), Vec2(11.5f, 8.5f)});
  CHECK_FALSE(c.planner->diagnostics().stats(PathStage::Search).ran);
  CHECK(c.result.length == Approx(5.0));
  CHECK(c.result.cost == Approx(15.0));
  // From the floor into the swamp the line crosses nothing dearer than its ends: straight too.
  REQUIRE(c.plan(Vec2(3.5f, 4.5f), Vec2(9.5f, 4.5f), 0.0f) == Status::Ok);
  CHECK(c.result.controlPoints.size() == 2);
  // Across the swamp from floor to floor: dearer than both ends, so the search decides, and the
  // way round (cost 12.x) beats the straight line through the swamp (16).
  REQUIRE(c.plan(Vec2(5.5f, 5.5f), Vec2(14.5f, 5.5f), 0.0f) == Status::Ok);
  CHECK(c.planner->diagnostics().stats(PathStage::Search).ran);
  CHECK(c.result.cost < 9.0 + 2 * 3.0);
}

TEST_CASE("case blocker-crate: go round what can be gone round, stop in front of what blocks", "[path][cases]") {
  // A crate that can be passed on either side stands in front of a line of guards filling the
  // corridor. The crate was named the blocker and the path stopped in front of it (x 14.12).
  Case c("blocker-crate.rpgmap");
  REQUIRE(c.plan(Vec2(2.5f, 6.5f), Vec2(27.5f, 6.5f), 0.25f) == Status::BlockedByEntity);
  const std::uint32_t blocker = c.result.blocker.value;
  INFO("blocker " << blocker);
  CHECK(blocker >= 1);
  CHECK(blocker <= 11);  // guard1..guard11 are entities 1..11, the crate 12
  // In front of the guards' line (x 20.5, radius 0.5, the character's 0.25, stopGap 0.05).
  CHECK(c.result.stopPoint.x() == Approx(20.5f - 0.5f - 0.25f - 0.05f).margin(1e-3));
  CHECK(c.result.stopPoint.x() > 15.6f);
  REQUIRE(c.result.detours.size() == 1);
  CHECK(c.result.detours[0].around == EntityId{12});
}
