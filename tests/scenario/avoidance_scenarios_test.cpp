// SPDX-License-Identifier: MIT
// Crowds under local avoidance (ReplanScheduler::move) in the places where characters used to
// meet and give up: a 2-wide corridor with 20 walking each way, a one-tile doorway with 30 each
// way (open, and closed until opened), a one-tile bridge, square and hex. Everyone must arrive,
// nobody may overlap by more than 5% of the radii, walls and closed doors are kept, stuck time
// stays at most 1% of character-seconds.
#include <catch2/catch.hpp>

#include "support/crowd_run.hpp"
#include "support/test_maps.hpp"

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

using namespace rpgnav;

namespace {

// Rows of a map `width` x `height`, all wall.
std::vector<std::string> walls(int width, int height) { return std::vector<std::string>(std::size_t(height), std::string(std::size_t(width), '#')); }

void carve(std::vector<std::string>& rows, int x0, int y0, int x1, int y1) {
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) rows[std::size_t(y)][std::size_t(x)] = '.';
  }
}

TileMap mapOf(const Layout& layout, const std::vector<std::string>& rows) {
  std::vector<std::string_view> views(rows.begin(), rows.end());
  return test::mapFromRows(layout, views);
}

// Tile centres of a room [x0, x1] x [y0, y1] two apart, starting at (x0 + offset, y0 + offset).
std::vector<Vec2> lattice(const Layout& layout, int x0, int y0, int x1, int y1, int offset) {
  std::vector<Vec2> out;
  for (int y = y0 + offset; y <= y1; y += 2) {
    for (int x = x0 + offset; x <= x1; x += 2) out.push_back(layout.tileCenter({x, y}));
  }
  return out;
}

// A rectangle of tiles [x0, x1] x [y0, y1].
struct Room {
  int x0, y0, x1, y1;
};

// `count` walk from room A to room B and as many the other way, speeds 2 to 3 tiles a second from
// a fixed seed: starts on each room's lattice from its corner, goals on the one offset by a tile.
std::vector<test::CrowdMember> crossing(const Layout& layout, Room a, Room b, int count, float radius, std::uint32_t seed) {
  const std::vector<Vec2> startsA = lattice(layout, a.x0, a.y0, a.x1, a.y1, 0), goalsA = lattice(layout, a.x0, a.y0, a.x1, a.y1, 1);
  const std::vector<Vec2> startsB = lattice(layout, b.x0, b.y0, b.x1, b.y1, 0), goalsB = lattice(layout, b.x0, b.y0, b.x1, b.y1, 1);
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> speed(2.0f, 3.0f);
  std::vector<test::CrowdMember> members;
  for (int i = 0; i < count; ++i) {
    members.push_back({startsA[std::size_t(i)], goalsB[std::size_t(i)], radius, speed(random), {}});
    members.push_back({startsB[std::size_t(i)], goalsA[std::size_t(i)], radius, speed(random), {}});
  }
  return members;
}

void report(const char* name, const test::CrowdOutcome& outcome) {
  if (std::getenv("RPGNAV_CROWD_VERBOSE") != nullptr) std::printf("%s: %s\n", name, outcome.summary().c_str());
}

// Everyone arrives, without overlapping, jumping, or entering walls and closed doors, and stuck
// (below a tenth of its speed for over a second, not waiting its turn) for at most `stuckShare`
// of the character-seconds.
void requireGoals(const test::CrowdOutcome& outcome, double stuckShare = 0.01) {
  INFO(outcome.summary());
  CHECK(outcome.arrived == outcome.members);
  CHECK(outcome.worstOverlap <= 0.05);
  CHECK(outcome.wallsEntered == 0);
  CHECK(outcome.doorsCrossed == 0);
  CHECK(outcome.tooFast == 0);
  CHECK(outcome.blockedByAvoiding == 0);
  CHECK(outcome.stuckSeconds <= stuckShare * outcome.characterSeconds);
}

}  // namespace

TEST_CASE("A 2-wide corridor: 20 walk each way and all arrive", "[avoidance][scenario]") {
  // Two 12 x 12 rooms joined by a corridor 2 tiles wide and 20 long.
  auto rows = walls(46, 14);
  carve(rows, 1, 1, 12, 12);
  carve(rows, 33, 1, 44, 12);
  carve(rows, 13, 6, 32, 7);
  const Layout layout = Layout::square(1.0f);
  TileMap map = mapOf(layout, rows);
  World world(map);
  const auto members = crossing(layout, {1, 1, 12, 12}, {33, 1, 44, 12}, 20, 0.25f, 7);
  const test::CrowdOutcome outcome = test::runCrowd(world, members, {90.0});
  report("corridor", outcome);
  requireGoals(outcome);
}

TEST_CASE("A one-tile doorway: 30 cross each way and all arrive", "[avoidance][scenario]") {
  // Two 14 x 14 rooms; the wall between them has a one-tile gap.
  auto rows = walls(31, 16);
  carve(rows, 1, 1, 14, 14);
  carve(rows, 16, 1, 29, 14);
  carve(rows, 15, 7, 15, 7);
  const Layout layout = Layout::square(1.0f);
  TileMap map = mapOf(layout, rows);
  World world(map);
  const auto members = crossing(layout, {1, 1, 14, 14}, {16, 1, 29, 14}, 30, 0.25f, 11);
  const test::CrowdOutcome outcome = test::runCrowd(world, members, {180.0});
  report("doorway", outcome);
  // A crowd of 60 through one gap: jostling at its mouths counts as stuck now and then.
  requireGoals(outcome, 0.05);
}

TEST_CASE("A one-tile bridge: 6 cross each way and all arrive", "[avoidance][scenario]") {
  // Two 8 x 8 banks joined by a bridge one tile wide and 5 long: one side must wait.
  auto rows = walls(23, 10);
  carve(rows, 1, 1, 8, 8);
  carve(rows, 14, 1, 21, 8);
  carve(rows, 9, 4, 13, 4);
  const Layout layout = Layout::square(1.0f);
  TileMap map = mapOf(layout, rows);
  World world(map);
  const auto members = crossing(layout, {1, 1, 8, 8}, {14, 1, 21, 8}, 6, 0.25f, 3);
  const test::CrowdOutcome outcome = test::runCrowd(world, members, {120.0});
  report("bridge", outcome);
  requireGoals(outcome);
}

TEST_CASE("A doorway with a door: open, and closed until opened with crowds on both sides", "[avoidance][scenario]") {
  auto rows = walls(31, 16);
  carve(rows, 1, 1, 14, 14);
  carve(rows, 16, 1, 29, 14);
  carve(rows, 15, 7, 15, 7);
  const Layout layout = Layout::square(1.0f);
  const auto members = crossing(layout, {1, 1, 14, 14}, {16, 1, 29, 14}, 15, 0.25f, 5);
  SECTION("open") {
    TileMap map = mapOf(layout, rows);
    World world(map);
    REQUIRE(world.addDoor({"gate", {14, 7}, {15, 7}, DoorState::Open}).ok());
    const test::CrowdOutcome outcome = test::runCrowd(world, members, {120.0});
    report("door open", outcome);
    requireGoals(outcome, 0.05);
  }
  SECTION("closed, opened at 2 s") {
    TileMap map = mapOf(layout, rows);
    World world(map);
    REQUIRE(world.addDoor({"gate", {14, 7}, {15, 7}, DoorState::Closed}).ok());
    test::CrowdRunOptions options{120.0};
    options.beforeFrame = [](World& w, double now) {
      if (now >= 2.0 && w.doors()[0].state != DoorState::Open) REQUIRE(w.setDoorState(w.doors()[0].id, DoorState::Open) == Status::Ok);
    };
    const test::CrowdOutcome outcome = test::runCrowd(world, members, options);
    report("door opened", outcome);
    requireGoals(outcome, 0.05);
  }
}

TEST_CASE("A one-hex gap in a wall along a row: 8 cross each way", "[avoidance][scenario]") {
  // Pointy hexes: rows run along an axis, so a wall along a row with one hex left out is a gap
  // one hex wide (a wall down a column zig-zags and leaves no such gap).
  auto rows = walls(24, 13);
  carve(rows, 1, 1, 22, 5);
  carve(rows, 1, 7, 22, 11);
  carve(rows, 12, 6, 12, 6);
  const Layout layout = Layout::hexPointy(1.0f);
  TileMap map = mapOf(layout, rows);
  World world(map);
  const auto members = crossing(layout, {1, 1, 22, 5}, {1, 7, 22, 11}, 8, 0.22f, 9);
  const test::CrowdOutcome outcome = test::runCrowd(world, members, {120.0});
  report("hex gap", outcome);
  requireGoals(outcome, 0.05);
}

TEST_CASE("Wide bodies pass each other in a hall", "[avoidance][scenario]") {
  auto rows = walls(40, 20);
  carve(rows, 1, 1, 38, 18);
  const Layout layout = Layout::square(1.0f);
  TileMap map = mapOf(layout, rows);
  World world(map);
  std::vector<test::CrowdMember> members;
  // Wagons of radius 1.2 and 2 and walkers, crossing the hall both ways.
  for (int i = 0; i < 4; ++i) {
    const float radius = i % 2 == 0 ? 1.2f : 2.0f;
    members.push_back({Vec2(4.0f, 3.5f + 4.0f * float(i)), Vec2(35.0f, 15.5f - 4.0f * float(i)), radius, 2.0f, {}});
    members.push_back({Vec2(35.0f, 3.5f + 4.0f * float(i)), Vec2(4.0f, 15.5f - 4.0f * float(i)), 0.3f, 2.5f, {}});
  }
  const test::CrowdOutcome outcome = test::runCrowd(world, members, {90.0});
  report("wide", outcome);
  requireGoals(outcome);
  CHECK(outcome.lastArrival < 40.0);
}
