// SPDX-License-Identifier: MIT
// QueryFilter: a request's own terrain costs (exactly the paths of a map whose terrain table has
// them) and door policy; and the request's ignored entities.
#include <catch2/catch.hpp>

#include "rpgnav/nav/nav_data.hpp"
#include "rpgnav/path/planner.hpp"
#include "support/allocation_counter.hpp"
#include "support/result_hash.hpp"
#include "support/test_maps.hpp"

#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace rpgnav;

namespace {

constexpr MobilityId kWalk = TerrainTable::kWalk;

TerrainId terrainOf(const TileMap& map, char symbol) { return *map.terrain().findTerrainBySymbol(symbol); }
Vec2 centre(int x, int y) { return Vec2(float(x) + 0.5f, float(y) + 0.5f); }  // square tiles of size 1

// The map with the overrides written into its terrain table (a terrain named twice: the last).
TileMap edited(const TileMap& map, MobilityId mobility, std::span<const TerrainCost> costs) {
  TileMap copy = map;
  for (const TerrainCost& entry : costs) {
    const bool forbidden = !(entry.cost > 0.0f) || entry.cost == TerrainTable::kImpassable;
    REQUIRE(copy.setTerrainCost(entry.terrain, mobility, forbidden ? TerrainTable::kImpassable : entry.cost) == Status::Ok);
  }
  return copy;
}

// The same doors and entities in another world (on the edited map).
void copyFeatures(const World& from, World& to) {
  for (const Door& door : from.doors()) REQUIRE(to.addDoor({door.name, door.a, door.b, door.state}).ok());
  for (const Entity& entity : from.entities().all()) REQUIRE(to.entities().add(entity) == Status::Ok);
}

// A random list of overrides: floor, water, swamp or hills at a new multiplier, or forbidden
// (each way of saying it).
std::vector<TerrainCost> randomCosts(std::mt19937& random, const TileMap& map) {
  const char symbols[] = {'.', '~', ',', 'h'};
  const float forbidden[] = {0.0f, -1.0f, std::numeric_limits<float>::infinity()};
  std::vector<TerrainCost> costs;
  const int count = std::uniform_int_distribution<int>(1, 3)(random);
  for (int i = 0; i < count; ++i) {
    const TerrainId terrain = terrainOf(map, symbols[std::uniform_int_distribution<int>(0, 3)(random)]);
    const int kind = std::uniform_int_distribution<int>(0, 5)(random);
    const float cost = kind == 0 ? forbidden[std::uniform_int_distribution<int>(0, 2)(random)]
                                 : std::uniform_real_distribution<float>(0.5f, 5.0f)(random);
    costs.push_back({terrain, cost});
  }
  return costs;
}

// Doors (every state) on random edges and a few entities.
void addFeatures(std::mt19937& random, World& world) {
  const TileMap& map = world.map();
  const Layout& layout = map.layout();
  const int tiles = map.width() * map.height();
  for (int d = 0; d < tiles / 25; ++d) {
    const Cell a{std::uniform_int_distribution<int>(0, map.width() - 1)(random),
                 std::uniform_int_distribution<int>(0, map.height() - 1)(random)};
    const auto moves = layout.moves(a);
    const NeighbourStep& step = moves[std::size_t(random() % moves.size())];
    const Cell b{a.x + step.dx, a.y + step.dy};
    if (step.sharesEdge && map.contains(b)) (void)world.addDoor({"d" + std::to_string(d), a, b, DoorState(random() % 3)});
  }
  for (std::uint32_t e = 1; e <= std::uint32_t(tiles / 40); ++e) {
    const Cell cell{std::uniform_int_distribution<int>(0, map.width() - 1)(random),
                    std::uniform_int_distribution<int>(0, map.height() - 1)(random)};
    (void)world.entities().add({EntityId{e}, layout.tileCenter(cell), 0.3f * layout.tileSize(), kEntityStatic});
  }
}

bool bitwiseEqual(const std::vector<Vec2>& a, const std::vector<Vec2>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(Vec2)) == 0);
}

std::uint64_t digestOf(const PathResult& result) {
  test::Digest digest;
  test::addResult(digest, result);
  return digest.value();
}

}  // namespace

TEST_CASE("query filter: terrain costs plan exactly as a map whose terrain table has them", "[path][filter][property]") {
  std::mt19937 random(2929);
  int compared = 0, changed = 0, succeeded = 0, wide = 0;
  for (const Layout& layout : test::allLayouts()) {
    for (int trial = 0; trial < 16; ++trial) {
      const int w = std::uniform_int_distribution<int>(6, 22)(random), h = std::uniform_int_distribution<int>(6, 22)(random);
      // (Every other map with few walls and no doors: room for wide bodies.)
      const bool roomy = trial % 2 == 1;
      const TileMap map = test::randomMap(random, layout, w, h, roomy ? 0.02 : 0.15);
      World world(map);
      if (!roomy) addFeatures(random, world);
      const std::vector<TerrainCost> costs = randomCosts(random, map);
      const TileMap editedMap = edited(map, kWalk, costs);
      World editedWorld(editedMap);
      copyFeatures(world, editedWorld);
      PlannerSettings settings;
      settings.search = trial % 4 == 3 ? SearchMode::AnyAngle : SearchMode::ExactAnyAngle;
      Planner filtered(world, settings), plain(world, settings), reference(editedWorld, settings);
      // The same through shared data, prepared for the filter explicitly.
      NavData shared(world);
      Planner onShared(shared, settings);
      QueryFilter filter;
      filter.costs = costs;
      PathResult a, b, c, d;
      for (int q = 0; q < 12; ++q) {
        const Cell s{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
        const Cell g{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
        const float radius = (roomy && q % 3 == 2 ? std::uniform_real_distribution<float>(0.5f, 0.9f)(random)
                                         : std::uniform_real_distribution<float>(0.0f, 0.45f)(random)) *
                             layout.tileSize();
        PathRequest request{layout.tileCenter(s), layout.tileCenter(g), kWalk, radius};
        const Status expected = reference.plan(request, b);
        request.filter = &filter;
        const Status got = filtered.plan(request, a);
        REQUIRE(shared.prepare(kWalk, radius, costs) == Status::Ok);
        const Status gotShared = onShared.plan(request, d);
        request.filter = nullptr;
        (void)plain.plan(request, c);
        INFO(toString(layout.kind()) << " trial " << trial << " query " << q << " radius " << radius << ": "
                                       << toString(got) << " (" << a.reason << ") vs " << toString(expected) << " ("
                                       << b.reason << ")");
        CHECK(got == expected);
        CHECK(gotShared == expected);
        CHECK(a.cost == b.cost);
        CHECK(bitwiseEqual(a.controlPoints, b.controlPoints));
        CHECK(digestOf(a) == digestOf(b));
        CHECK(digestOf(d) == digestOf(b));
        ++compared;
        changed += digestOf(c) != digestOf(b) ? 1 : 0;
        succeeded += isSuccess(got) ? 1 : 0;
        wide += isSuccess(got) && widerThanHalfTile(layout, radius) ? 1 : 0;
      }
    }
  }
  // The overrides mattered (else this proves nothing), on paths of every width.
  CHECK(compared == 5 * 16 * 12);
  CHECK(changed > compared / 4);
  CHECK(succeeded > compared / 3);
  CHECK(wide > 10);
}

TEST_CASE("query filter: terrain costs follow the map's edits", "[path][filter]") {
  TileMap map = test::mapFromAscii(Layout::square(), {
                                                         "..........",
                                                         ".,,,,,,,,.",
                                                         ".,hhhhhh,.",
                                                         ".,,,,,,,,.",
                                                         "..........",
                                                     });
  World world(map);
  NavData shared(world);
  const TerrainCost cheapSwamp[] = {{terrainOf(map, ','), 0.5f}, {terrainOf(map, 'h'), 0.0f}};
  QueryFilter filter;
  filter.costs = cheapSwamp;
  REQUIRE(shared.prepare(kWalk, 0.2f, cheapSwamp) == Status::Ok);
  Planner planner(shared);
  PathRequest request{centre(0, 1), centre(9, 3), kWalk, 0.2f};
  request.filter = &filter;
  PathResult before, after, reference;
  REQUIRE(planner.plan(request, before) == Status::Ok);
  // A wall across the swamp: the data follows after update(), the filtered layer too.
  REQUIRE(map.setTerrain(Cell{5, 0}, Cell{5, 3}, terrainOf(map, '#')) == Status::Ok);
  CHECK(planner.plan(request, after) == Status::InvalidArgument);  // older than the map
  CHECK(shared.update().status == Status::Ok);
  REQUIRE(planner.plan(request, after) == Status::Ok);
  const TileMap editedMap = edited(map, kWalk, cheapSwamp);
  Planner fresh(editedMap);
  request.filter = nullptr;
  REQUIRE(fresh.plan(request, reference) == Status::Ok);
  CHECK(digestOf(after) == digestOf(reference));
  CHECK(digestOf(after) != digestOf(before));
}

TEST_CASE("query filter: shared data must be prepared for a filter's costs; bad costs are refused", "[path][filter]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {"....", ".,,.", "...."});
  World world(map);
  NavData shared(world);
  REQUIRE(shared.prepare(kWalk, 0.2f) == Status::Ok);
  Planner planner(shared);
  const TerrainCost costs[] = {{terrainOf(map, ','), 0.5f}};
  QueryFilter filter;
  filter.costs = costs;
  PathRequest request{centre(0, 0), centre(3, 2), kWalk, 0.2f};
  request.filter = &filter;
  PathResult result;
  CHECK(planner.plan(request, result) == Status::InvalidArgument);
  CHECK(result.reason.find("prepare") != std::string::npos);
  REQUIRE(shared.prepare(kWalk, 0.2f, costs) == Status::Ok);
  CHECK(shared.layer(kWalk, 0.2f, costs) != shared.layer(kWalk, 0.2f));
  CHECK(planner.plan(request, result) == Status::Ok);
  const TerrainCost unknown[] = {{TerrainId{200}, 1.0f}};
  const TerrainCost nan[] = {{terrainOf(map, ','), std::numeric_limits<float>::quiet_NaN()}};
  CHECK(shared.prepare(kWalk, 0.2f, unknown) == Status::InvalidArgument);
  CHECK(shared.prepare(kWalk, 0.2f, nan) == Status::InvalidArgument);
  Planner own(world);
  filter.costs = nan;
  CHECK(own.plan(request, result) == Status::InvalidArgument);
  // A filter that forbids the start's terrain: StartBlocked, as on such a map.
  const TerrainCost noFloor[] = {{terrainOf(map, '.'), 0.0f}};
  filter.costs = noFloor;
  CHECK(own.plan(request, result) == Status::StartBlocked);
}

TEST_CASE("query filter: a warm filtered plan allocates nothing", "[path][filter][memory]") {
  std::mt19937 random(31);
  const TileMap map = test::randomMap(random, Layout::square(), 40, 40, 0.15);
  World world(map);
  const TerrainCost costs[] = {{terrainOf(map, ','), 1.0f}, {terrainOf(map, '~'), 4.0f}};
  QueryFilter filter;
  filter.costs = costs;
  const EntityId alsoNobody[] = {EntityId{98}};
  std::vector<PathRequest> requests;
  for (int q = 0; q < 40; ++q) {
    const Cell s{int(random() % 40), int(random() % 40)}, g{int(random() % 40), int(random() % 40)};
    PathRequest request{map.layout().tileCenter(s), map.layout().tileCenter(g), kWalk, 0.2f};
    request.filter = &filter;
    request.ignore = alsoNobody;
    requests.push_back(request);
  }
  Planner planner(world);
  PathResult result;
  const std::uint64_t allocations = test::warmPlanAllocations(planner, requests, result);
  CHECK(allocations == 0);
}

namespace {

// Two rooms joined by a door at (4,3)|(5,3) and, further down, an open gap at (4,6)|(5,6).
TileMap twoRooms() {
  return test::mapFromAscii(Layout::square(), {
                                                  "##########",
                                                  "#...#....#",
                                                  "#...#....#",
                                                  "#........#",
                                                  "#...#....#",
                                                  "#...#....#",
                                                  "#........#",
                                                  "##########",
                                              });
}

class Always final : public DoorPolicy {
 public:
  explicit Always(DoorAction action) : m_action(action) {}
  DoorDecision decide(const Door&, const Traveller&) const override { return {m_action, 0.0f}; }

 private:
  DoorAction m_action;
};

}  // namespace

TEST_CASE("query filter: a request's door policy replaces the world's; none means the world's", "[path][filter][doors]") {
  const TileMap map = twoRooms();
  World world(map);
  const DoorId door = world.addDoor({"door", {4, 3}, {5, 3}, DoorState::Closed}).value();
  Planner planner(world);
  const PathRequest plain{centre(2, 3), centre(7, 3), kWalk, 0.2f, EntityId{1}};
  PathResult result;
  // The world's default policy stops at a closed door.
  REQUIRE(planner.plan(plain, result) == Status::StoppedAtDoor);
  CHECK(result.door == door);
  // A filter that says Pass goes through it.
  const Always pass(DoorAction::Pass), avoid(DoorAction::Avoid);
  QueryFilter filter;
  filter.doorPolicy = &pass;
  PathRequest request = plain;
  request.filter = &filter;
  REQUIRE(planner.plan(request, result) == Status::Ok);
  CHECK(result.controlPoints.back() == centre(7, 3));
  CHECK(result.length < 5.5);  // straight through the doorway
  // Avoid: round by the gap below.
  filter.doorPolicy = &avoid;
  REQUIRE(planner.plan(request, result) == Status::Ok);
  CHECK(result.controlPoints.back() == centre(7, 3));
  CHECK(result.length > 7.0);
  bool viaGap = false;
  for (const Vec2& p : result.controlPoints) viaGap = viaGap || p.y() > 5.0f;
  CHECK(viaGap);
  // A filter without a policy: the world's policy again.
  filter.doorPolicy = nullptr;
  CHECK(planner.plan(request, result) == Status::StoppedAtDoor);
  // And the world's policy is not touched by a request's.
  world.setDoorPolicy(&pass);
  CHECK(planner.plan(plain, result) == Status::Ok);
  filter.doorPolicy = &avoid;
  CHECK(planner.plan(request, result) == Status::Ok);
  CHECK(result.length > 7.0);
  world.setDoorPolicy(nullptr);
}

TEST_CASE("a request's ignored entities are no obstacle, with or without a filter", "[path][filter][entities]") {
  const TileMap map = test::mapFromAscii(Layout::square(), {
                                                               "##########",
                                                               "#........#",
                                                               "##########",
                                                           });
  World world(map);
  REQUIRE(world.entities().add({EntityId{7}, centre(4, 1), 0.4f, kEntityStatic}) == Status::Ok);
  REQUIRE(world.entities().add({EntityId{8}, centre(6, 1), 0.4f, kEntityStatic}) == Status::Ok);
  Planner planner(world);
  PathRequest request{centre(1, 1), centre(8, 1), kWalk, 0.3f, EntityId{1}};
  PathResult result;
  REQUIRE(planner.plan(request, result) == Status::BlockedByEntity);
  CHECK(result.blocker == EntityId{7});
  const EntityId first[] = {EntityId{7}}, both[] = {EntityId{8}, EntityId{7}};
  request.ignore = first;
  REQUIRE(planner.plan(request, result) == Status::BlockedByEntity);
  CHECK(result.blocker == EntityId{8});
  request.ignore = both;
  CHECK(planner.plan(request, result) == Status::Ok);
  const TerrainCost costs[] = {{terrainOf(map, '.'), 1.0f}};
  QueryFilter filter;  // a filter does not change what the request ignores
  filter.costs = costs;
  request.filter = &filter;
  CHECK(planner.plan(request, result) == Status::Ok);
  request.ignore = {};
  REQUIRE(planner.plan(request, result) == Status::BlockedByEntity);
  CHECK(result.blocker == EntityId{7});
}

TEST_CASE("query filter: a sliced plan keeps its filter across slices", "[path][filter]") {
  std::mt19937 random(404);
  const TileMap map = test::randomMap(random, Layout::square(), 48, 48, 0.12);
  World world(map);
  const TerrainCost costs[] = {{terrainOf(map, ','), 0.0f}, {terrainOf(map, 'h'), 1.5f}};
  const Always pass(DoorAction::Pass);
  QueryFilter filter;
  filter.costs = costs;
  filter.doorPolicy = &pass;
  Planner sliced(world), whole(world);
  int compared = 0, resumed = 0;
  for (int q = 0; q < 30; ++q) {
    const Cell s{int(random() % 48), int(random() % 48)}, g{int(random() % 48), int(random() % 48)};
    PathRequest request{map.layout().tileCenter(s), map.layout().tileCenter(g), kWalk, 0.2f};
    request.filter = &filter;
    PathResult a, b;
    const Status expected = whole.plan(request, b);
    Status status = sliced.beginPlan(request, a, 40);
    while (status == Status::InProgress) {
      ++resumed;
      status = sliced.continuePlan(a, 40);
    }
    CHECK(status == expected);
    CHECK(digestOf(a) == digestOf(b));
    ++compared;
  }
  CHECK(compared == 30);
  CHECK(resumed > 30);
}
