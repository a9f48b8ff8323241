// SPDX-License-Identifier: MIT
// Hostile queries: well over 100,000 calls into the query API with NaN, infinities, huge and
// negative coordinates, zero and huge radii, unknown mobilities, starts and goals in walls, on
// map edges and corners, unreachable goals, on maps of 1×1 and 1×N and maps that are all wall.
// Every call must return a clear status (a reason for every failure, finite points inside the
// map for every success), nothing may crash or hang, and the map and world must be unchanged.
#include <catch2/catch.hpp>

#include "rpgnav/field/crowd_field.hpp"
#include "rpgnav/grid/line_of_sight.hpp"
#include "rpgnav/path/planner.hpp"
#include "search/search_context.hpp"
#include "support/test_maps.hpp"

#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace rpgnav;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// The maps under attack: degenerate sizes, all wall, and ordinary random maps on every layout
// (one scaled and moved off the origin).
std::vector<TileMap> hostileMaps(std::mt19937& random) {
  std::vector<TileMap> maps;
  maps.push_back(test::mapFromAscii(Layout::square(), {"."}));
  maps.push_back(test::mapFromAscii(Layout::square(), {"#"}));
  maps.push_back(test::mapFromAscii(Layout::hexPointy(), {"."}));
  maps.push_back(test::mapFromAscii(Layout::square(), {"..........#........~~...."}));
  maps.push_back(test::mapFromAscii(Layout::hexFlat(), {".", ".", "#", ".", ".", "."}));
  maps.push_back(test::mapFromAscii(Layout::square(1.0f, 4), {"#####", "#####", "#####"}));
  maps.push_back(test::mapFromAscii(Layout::hexPointy(), {"###", "###"}));
  maps.push_back(test::randomMap(random, Layout::square(), 24, 17, 0.3));
  maps.push_back(test::randomMap(random, Layout::square(2.5f, 8, Vec2(-40.0f, 13.0f)), 19, 23, 0.25));
  maps.push_back(test::randomMap(random, Layout::square(1.0f, 4), 20, 20, 0.3));
  maps.push_back(test::randomMap(random, Layout::hexPointy(), 21, 18, 0.3));
  maps.push_back(test::randomMap(random, Layout::hexFlat(0.5f, Vec2(3.0f, -7.0f)), 18, 21, 0.3));
  maps.push_back(test::randomMap(random, Layout::hexPointy(2.0f, Vec2(-1.0f, 4.0f), HexStagger::Even), 17, 20, 0.3));
  maps.push_back(test::randomMap(random, Layout::hexFlat(1.0f, Vec2(0.0f, 0.0f), HexStagger::Even), 20, 17, 0.3));
  // Maps of one cost, where the exact any-angle search runs.
  maps.push_back(test::randomMap(random, Layout::square(), 22, 19, 0.25, false));
  maps.push_back(test::randomMap(random, Layout::square(1.5f, 8, Vec2(-7.0f, 3.0f)), 18, 18, 0.2, false));
  return maps;
}

// Everything a call could change: tiles, version, entities and doors.
struct Snapshot {
  std::vector<TerrainId> tiles;
  std::uint64_t version;
  std::vector<Entity> entities;
  std::vector<std::pair<std::string, DoorState>> doors;
  std::uint64_t doorVersion;
};

Snapshot snapshot(const World& world) {
  Snapshot s{{world.map().tiles().begin(), world.map().tiles().end()}, world.map().version(), {}, {}, world.doorLayoutVersion()};
  for (const Entity& e : world.entities().all()) s.entities.push_back(e);
  for (const Door& d : world.doors()) s.doors.emplace_back(d.name, d.state);
  return s;
}

bool same(const Snapshot& a, const Snapshot& b) {
  if (a.tiles != b.tiles || a.version != b.version || a.doors != b.doors || a.doorVersion != b.doorVersion) return false;
  if (a.entities.size() != b.entities.size()) return false;
  for (std::size_t i = 0; i < a.entities.size(); ++i) {
    if (a.entities[i].id != b.entities[i].id || a.entities[i].position != b.entities[i].position ||
        a.entities[i].radius != b.entities[i].radius) {
      return false;
    }
  }
  return true;
}

// A hostile coordinate for a map whose world box is [low, high] on this axis.
float hostileCoordinate(std::mt19937& random, float low, float high, float tile) {
  static constexpr float kSpecial[] = {kNaN, kInf, -kInf, 1e30f, -1e30f, 3.4e38f, -3.4e38f, 1e-40f, -1e-40f, 0.0f, -0.0f, 2147483648.0f, -2147483649.0f};
  switch (std::uniform_int_distribution<int>(0, 9)(random)) {
    case 0: return kSpecial[std::uniform_int_distribution<std::size_t>(0, std::size(kSpecial) - 1)(random)];
    case 1: return low;   // the map's edge
    case 2: return high;  // the far edge
    case 3: return std::nextafter(low, -kInf);  // just outside
    case 4: return std::nextafter(high, kInf);
    case 5: return low + tile * float(std::uniform_int_distribution<int>(0, 40)(random)) * 0.5f;  // tile corners and centres
    case 6: return std::uniform_real_distribution<float>(low - 5.0f * tile, high + 5.0f * tile)(random);
    default: return std::uniform_real_distribution<float>(low, high)(random);
  }
}

float hostileRadius(std::mt19937& random, float tile) {
  static constexpr float kSpecial[] = {0.0f, -0.0f, -1.0f, kNaN, kInf, -kInf, 1e30f, 1e-40f, 0.5f, 0.4999f};
  if (std::uniform_int_distribution<int>(0, 7)(random) == 0) {
    return kSpecial[std::uniform_int_distribution<std::size_t>(0, std::size(kSpecial) - 1)(random)] * tile;
  }
  return std::uniform_real_distribution<float>(0.0f, 0.3f)(random) * tile;
}


// A failure says why; a success is finite, starts at the start and stays near the map.
void checkResult(const TileMap& map, const PathRequest& request, Status status, const PathResult& result, int& successes) {
  INFO("status " << toString(status) << " start " << request.start.transpose() << " goal " << request.goal.transpose()
                 << " radius " << request.radius << " mobility " << int(request.mobility.value));
  REQUIRE(status == result.status);
  if (!isSuccess(status)) {
    REQUIRE(status != Status::InProgress);
    REQUIRE(!std::string(result.reason).empty());
    REQUIRE(result.controlPoints.empty());
    return;
  }
  ++successes;
  REQUIRE(!result.controlPoints.empty());
  const Vec2 low = map.layout().origin() - Vec2::Constant(map.layout().tileSize());
  const Vec2 high = low + Vec2(float(map.width() + 3), float(map.height() + 3)) * map.layout().tileSize();
  for (const Vec2& p : result.controlPoints) {
    REQUIRE(finite(p));
    REQUIRE((p.array() >= low.array()).all());
    REQUIRE((p.array() <= high.array()).all());
  }
  REQUIRE(std::isfinite(result.length));
  REQUIRE(std::isfinite(result.smoothed.length()));
}

}  // namespace

TEST_CASE("hostile queries: 100,000 planner, search, sight and field calls, each with a clear status", "[reliability][hostile]") {
  std::mt19937 random(9);
  int calls = 0, successes = 0;
  std::map<Status, int> statuses;
  for (const TileMap& map : hostileMaps(random)) {
    World world(map);
    const float tile = map.layout().tileSize();
    const Vec2 origin = map.layout().origin();
    // The layout's world box (hex rows stick out by half a tile).
    const Vec2 low = origin, high = origin + Vec2(float(map.width()) + 1.0f, float(map.height()) + 1.0f) * tile;
    // One point in eight hostile, the others a tile's centre or anywhere in the map's box (so that
    // many queries also succeed).
    auto hostilePoint = [&] {
      if (std::uniform_int_distribution<int>(0, 7)(random) == 0) {
        return Vec2(hostileCoordinate(random, low.x(), high.x(), tile), hostileCoordinate(random, low.y(), high.y(), tile));
      }
      const Cell cell{std::uniform_int_distribution<int>(0, map.width() - 1)(random),
                      std::uniform_int_distribution<int>(0, map.height() - 1)(random)};
      if (random() % 2 == 0) return map.layout().tileCenter(cell);
      return Vec2(std::uniform_real_distribution<float>(low.x(), high.x())(random),
                  std::uniform_real_distribution<float>(low.y(), high.y())(random));
    };
    for (std::uint32_t i = 1; i <= std::uint32_t(map.width() * map.height() / 12); ++i) {
      (void)world.entities().add({EntityId{i}, map.layout().tileCenter({int(i * 7) % map.width(), int(i * 3) % map.height()}), 0.3f * tile,
                                  std::uint8_t(i % 4 == 0 ? kEntityFlat : kEntityMoving)});
    }
    for (int d = 0; d + 1 < map.width() && d < 6; ++d) {
      (void)world.addDoor({"door" + std::to_string(d), {d, 0}, {d + 1, 0}, DoorState(d % 3)});
    }
    const Snapshot before = snapshot(world);
    Planner planner(world);
    PlannerSettings anyAngle;
    anyAngle.search = SearchMode::AnyAngle;
    Planner anyAnglePlanner(world, anyAngle);
    // The exact any-angle search runs without doors (and on maps of one cost).
    const World doorless(map);
    PlannerSettings exact;
    exact.search = SearchMode::ExactAnyAngle;
    Planner exactPlanner(doorless, exact);
    PathResult result, previous;
    auto grid = SearchGrid::build(map, TerrainTable::kWalk);
    REQUIRE(grid);
    SearchContext search;
    SearchResult searchResult;
    auto costs = CostField::build(map, TerrainTable::kWalk);
    REQUIRE(costs);
    CrowdField field(*costs);
    const int queries = 9000;
    for (int q = 0; q < queries; ++q) {
      PathRequest request{hostilePoint(), hostilePoint(), MobilityId{std::uint8_t(std::uniform_int_distribution<int>(0, 15)(random) == 0
                                                                                    ? std::uniform_int_distribution<int>(0, 255)(random)
                                                                                    : std::uniform_int_distribution<int>(0, 2)(random))},
                          hostileRadius(random, tile), EntityId{std::uniform_int_distribution<std::uint32_t>(0, 40)(random)}};
      // Whole plans, sliced plans, plans along an earlier route, and any-angle plans (Theta*, or
      // the exact search).
      Status status;
      switch (q % 4) {
        case 0: status = planner.plan(request, result); break;
        case 1: {
          status = planner.beginPlan(request, result, 1 + q % 7);
          for (int slice = 0; status == Status::InProgress; ++slice) {
            REQUIRE(slice < 100000);  // no hang: every slice expands something
            status = planner.continuePlan(result, 1 + q % 7);
          }
          break;
        }
        case 2: status = planner.replanAlong(request, previous, result); break;
        default: status = (q % 8 == 7 ? exactPlanner : anyAnglePlanner).plan(request, result); break;
      }
      ++calls;
      ++statuses[status];
      checkResult(map, request, status, result, successes);
      if (isSuccess(status)) previous = result;

      // The layers below the planner, fed the same numbers.
      (void)hasLineOfSight(map, request.mobility, request.start, request.goal);
      const SegmentProbe probe = probeSegment(map, request.mobility, request.start, request.goal, request.radius);
      REQUIRE((!probe.clear || std::isfinite(probe.cost)));
      const Cell a = map.layout().tileAt(request.start), b = map.layout().tileAt(request.goal);
      SearchRequest tiles{a, b};
      tiles.nearestIfUnreachable = q % 2 == 0;
      const Status found = search.findPath(*grid, tiles, searchResult);
      REQUIRE(found != Status::InProgress);
      if (!isSuccess(found)) REQUIRE(searchResult.path.empty());
      calls += 3;

      // Fields: goals anywhere (off the map too), lookups and followers at hostile points.
      if (q % 50 == 0) {
        const Cell goals[] = {a, b};
        field.setGoals(goals);
        const Status moved = field.moveGoal(a, Cell{b.x < 0 ? b.x + 1 : b.x - 1, b.y});  // no overflow at the int limits
        REQUIRE((moved == Status::Ok || moved == Status::OutOfBounds || moved == Status::InvalidArgument ||
                 moved == Status::GoalBlocked));
        // A tracked goal at the same hostile cells: one goal or refused, and a refresh slice of any size.
        const Status tracked = field.trackGoal(b);
        REQUIRE((tracked == Status::Ok || tracked == Status::InvalidArgument));
        REQUIRE(field.refreshTracking(std::int64_t(random()) - (std::int64_t(1) << 31), double(std::int32_t(random())) / 7.0) >= 0);
        calls += 3;
        // Edits at the same cells and at bad danger layers: off the map is refused, never written.
        const int layer = int(std::int8_t(random() % 256)) % 10;
        const Status danger = field.setDanger(layer, a, std::uint8_t(random()));
        REQUIRE(danger == (layer >= 0 && layer < kMaxDangerLayers && map.contains(a) ? Status::Ok : Status::InvalidArgument));
        const auto cost = std::uint8_t(random());  // 0 is no cost byte: refused too
        REQUIRE((field.setCost(b, cost) == Status::Ok) == (map.contains(b) && cost != 0));
        // Builds for a mobility the terrain table does not know are refused.
        const MobilityId unknown{std::uint8_t(map.terrain().mobilityCount() + int(random() % 200))};
        REQUIRE(CostField::build(map, unknown).status() == Status::InvalidArgument);
        REQUIRE(SearchGrid::build(map, unknown).status() == Status::InvalidArgument);
        calls += 4;
      }
      const Vec2 flow = field.flowAt(request.start);
      REQUIRE(finite(flow));
      const FieldFollower::Step step = FieldFollower::advance(field, request.goal, double(request.radius));
      REQUIRE((finite(step.position) || !finite(request.goal)));
      REQUIRE(finite(step.heading));
      calls += 2;
      // The smoothed path of the last success, asked at hostile arc lengths.
      const double s = double(hostileCoordinate(random, 0.0f, float(previous.smoothed.length()), 1.0f));
      REQUIRE(finite(previous.smoothed.position(s)));
      REQUIRE(finite(previous.smoothed.tangent(s)));
      PathFollower follower(previous.smoothed);
      REQUIRE(finite(follower.advance(s).position));
      calls += 3;
    }
    INFO("map " << map.width() << "x" << map.height() << " " << toString(map.layout().kind()));
    CHECK(same(before, snapshot(world)));
  }
  CHECK(calls >= 100000);
  CHECK(successes > 5000);
  // Every way a plan can end came up.
  for (const Status status : {Status::Ok, Status::NoPath, Status::StartBlocked, Status::GoalBlocked, Status::OutOfBounds,
                              Status::InvalidArgument, Status::StoppedAtDoor, Status::BlockedByEntity}) {
    INFO(toString(status));
    CHECK(statuses[status] > 0);
  }
}
