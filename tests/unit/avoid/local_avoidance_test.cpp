// SPDX-License-Identifier: MIT
// LocalAvoidance: the reciprocal guarantee (ORCA) on random crowds, walls and closed doors kept,
// static entities, priorities, players that do not avoid, the passage rule, determinism (order
// of the input, splits over threads) and bad input.
#include <catch2/catch.hpp>

#include "rpgnav/avoid/local_avoidance.hpp"
#include "rpgnav/grid/line_of_sight.hpp"
#include "support/allocation_counter.hpp"
#include "support/test_maps.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <thread>
#include <vector>

using namespace rpgnav;

namespace {

constexpr MobilityId kWalk = TerrainTable::kWalk;

AvoidanceAgent agent(std::uint32_t id, Vec2 position, Vec2 preferred, float radius = 0.25f, float speed = 2.0f) {
  AvoidanceAgent a;
  a.id = EntityId{id};
  a.mobility = kWalk;
  a.position = position;
  a.preferred = preferred;
  a.radius = radius;
  a.maxSpeed = speed;
  return a;
}

TileMap openMap(int width, int height) {
  std::vector<std::string> rows(std::size_t(height), std::string(std::size_t(width), '.'));
  std::vector<std::string_view> views(rows.begin(), rows.end());
  return test::mapFromRows(Layout::square(1.0f), views);
}

// Runs `frames` frames: each agent moves by its answer; returns the smallest gap seen between two
// bodies (distance minus the radii).
float walk(LocalAvoidance& avoidance, std::vector<AvoidanceAgent>& agents, int frames, double dt,
           std::vector<AvoidanceResult>* last = nullptr, const std::vector<Vec2>* goals = nullptr) {
  std::vector<AvoidanceResult> out(agents.size());
  float smallest = std::numeric_limits<float>::infinity();
  for (int f = 0; f < frames; ++f) {
    if (goals != nullptr) {
      for (std::size_t i = 0; i < agents.size(); ++i) {
        const Vec2 to = (*goals)[i] - agents[i].position;
        agents[i].preferred = to.norm() > 0.05f ? Vec2(to.normalized() * agents[i].maxSpeed) : Vec2::Zero();
      }
    }
    REQUIRE(avoidance.step(agents, {}, dt, out) == Status::Ok);
    for (std::size_t i = 0; i < agents.size(); ++i) {
      if (!finite(out[i].velocity) || out[i].velocity.norm() > agents[i].maxSpeed * (1.0f + 1e-5f)) FAIL("agent " << i << " too fast");
      agents[i].velocity = out[i].velocity;
      agents[i].position += out[i].velocity * float(dt);
    }
    for (std::size_t i = 0; i < agents.size(); ++i) {
      for (std::size_t j = i + 1; j < agents.size(); ++j) {
        smallest = std::min(smallest, (agents[i].position - agents[j].position).norm() - agents[i].radius - agents[j].radius);
      }
    }
  }
  if (last != nullptr) *last = out;
  return smallest;
}

// Two rooms joined by a one-tile gap at (5, 2).
TileMap gapRooms() {
  return test::mapFromAscii(Layout::square(1.0f), {
      "###########",
      "#....#....#",
      "#.........#",
      "#....#....#",
      "###########",
  });
}

std::uint32_t bitsOf(float v) {
  std::uint32_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits;
}

}  // namespace

TEST_CASE("Two agents meeting head-on pass each other without touching", "[avoidance]") {
  TileMap map = openMap(30, 12);
  World world(map);
  LocalAvoidance avoidance(world);
  // Exactly on one line: keep-right breaks the tie, each to its own right.
  std::vector<AvoidanceAgent> agents{agent(1, Vec2(5.0f, 6.0f), Vec2(2.0f, 0.0f)), agent(2, Vec2(25.0f, 6.0f), Vec2(-2.0f, 0.0f))};
  const std::vector<Vec2> goals{Vec2(25.0f, 6.0f), Vec2(5.0f, 6.0f)};
  const float gap = walk(avoidance, agents, 900, 1.0 / 60.0, nullptr, &goals);
  CHECK(gap >= 0.0f);
  CHECK((agents[0].position - goals[0]).norm() < 0.1f);
  CHECK((agents[1].position - goals[1]).norm() < 0.1f);
}

TEST_CASE("ORCA: agents keeping their new velocities do not collide within the time horizon", "[avoidance][property]") {
  TileMap map = openMap(40, 40);
  World world(map);
  std::mt19937 random(42);
  std::uniform_real_distribution<float> coordinate(5.0f, 35.0f), unit(-1.0f, 1.0f), radius(0.1f, 1.2f);
  int checked = 0, infeasible = 0;
  for (int trial = 0; trial < 300; ++trial) {
    LocalAvoidance avoidance(world);
    std::vector<AvoidanceAgent> agents;
    const int count = 2 + trial % 25;
    for (int attempt = 0; int(agents.size()) < count && attempt < 1000; ++attempt) {
      AvoidanceAgent a = agent(std::uint32_t(agents.size() + 1), Vec2(coordinate(random) * 0.5f + 10.0f, coordinate(random) * 0.5f + 10.0f),
                               Vec2(unit(random), unit(random)) * 2.0f, radius(random), 2.0f);
      a.velocity = Vec2(unit(random), unit(random)) * 1.4f;
      bool apart = true;
      for (const AvoidanceAgent& b : agents) {
        const float need = a.radius + b.radius + (a.settings.margin + b.settings.margin) * 1.0f;
        apart = apart && (a.position - b.position).norm() > need;
      }
      if (apart) agents.push_back(a);
    }
    std::vector<AvoidanceResult> out(agents.size());
    REQUIRE(avoidance.step(agents, {}, 1.0 / 60.0, out) == Status::Ok);
    for (std::size_t i = 0; i < agents.size(); ++i) {
      REQUIRE(out[i].velocity.norm() <= agents[i].maxSpeed * (1.0f + 1e-5f));
      if (out[i].infeasible) ++infeasible;
    }
    for (std::size_t i = 0; i < agents.size(); ++i) {
      for (std::size_t j = i + 1; j < agents.size(); ++j) {
        if (out[i].infeasible || out[j].infeasible) continue;
        // Only pairs both took into account are promised anything.
        if (out[i].neighbours == agents[i].settings.maxNeighbours || out[j].neighbours == agents[j].settings.maxNeighbours) continue;
        const Vec2 p = agents[j].position - agents[i].position;
        const Vec2 v = out[j].velocity - out[i].velocity;
        const float tau = agents[i].settings.timeHorizon;
        const float t = v.squaredNorm() > 0.0f ? std::clamp(-p.dot(v) / v.squaredNorm(), 0.0f, tau) : 0.0f;
        const float closest = (p + t * v).norm();
        const float need = agents[i].radius + agents[j].radius + agents[i].settings.margin + agents[j].settings.margin;
        INFO("trial " << trial << " pair " << i << "," << j);
        CHECK(closest >= need - 1e-3f);
        ++checked;
      }
    }
  }
  CHECK(checked > 1000);
  CHECK(infeasible < checked / 10);
}

TEST_CASE("Walls and the map's border are kept, on square and hex maps", "[avoidance][property]") {
  std::mt19937 random(7);
  for (const Layout& layout : test::allLayouts()) {
    for (int trial = 0; trial < 6; ++trial) {
      TileMap map = test::randomMap(random, layout, 24, 20, 0.25, false);
      World world(map);
      LocalAvoidance avoidance(world);
      std::vector<AvoidanceAgent> agents;
      std::uniform_real_distribution<float> x(0.0f, 24.0f), y(0.0f, 20.0f), unit(-1.0f, 1.0f);
      std::uniform_real_distribution<float> radius(0.1f, 0.45f);
      for (int attempt = 0; agents.size() < 25 && attempt < 5000; ++attempt) {
        const Vec2 p = layout.toWorld(Eigen::Vector2d(x(random), y(random)));
        const float r = radius(random);
        if (!probeSegment(map, kWalk, p, p, r * 1.01f).clear) continue;
        bool apart = true;
        for (const AvoidanceAgent& b : agents) apart = apart && (p - b.position).norm() > r + b.radius + 0.1f;
        if (!apart) continue;
        agents.push_back(agent(std::uint32_t(agents.size() + 1), p, Vec2(unit(random), unit(random)).normalized() * 3.0f, r, 3.0f));
      }
      std::vector<AvoidanceResult> out(agents.size());
      for (int frame = 0; frame < 240; ++frame) {
        // Now and then a new direction: straight at the walls as often as not.
        if (frame % 40 == 0) {
          for (AvoidanceAgent& a : agents) a.preferred = Vec2(unit(random), unit(random)).normalized() * 3.0f;
        }
        REQUIRE(avoidance.step(agents, {}, 1.0 / 60.0, out) == Status::Ok);
        for (std::size_t i = 0; i < agents.size(); ++i) {
          agents[i].velocity = out[i].velocity;
          agents[i].position += out[i].velocity * float(1.0 / 60.0);
          if (!probeSegment(map, kWalk, agents[i].position, agents[i].position, agents[i].radius * (1.0f - 1e-3f)).clear) {
            FAIL("layout " << int(layout.kind()) << " trial " << trial << " frame " << frame << " agent " << i << " entered a wall");
          }
        }
      }
    }
  }
}

TEST_CASE("A closed door is a wall; open, it lets the agent through", "[avoidance]") {
  TileMap map = test::mapFromAscii(Layout::square(1.0f), {
      "#######",
      "#.....#",
      "###.###",
      "#.....#",
      "#######",
  });
  World world(map);
  const DoorId door = world.addDoor({"gate", {3, 2}, {3, 3}, DoorState::Closed}).value();
  LocalAvoidance avoidance(world);
  std::vector<AvoidanceAgent> agents{agent(1, Vec2(3.5f, 1.5f), Vec2(0.0f, 2.0f))};
  const std::vector<Vec2> goal{Vec2(3.5f, 3.5f)};
  walk(avoidance, agents, 120, 1.0 / 60.0, nullptr, &goal);
  CHECK(agents[0].position.y() <= 3.0f - 0.25f + 1e-4f);  // in front of the door's edge (y = 3)
  CHECK(agents[0].position.y() > 2.5f);                    // it did walk up to it
  REQUIRE(world.setDoorState(door, DoorState::Open) == Status::Ok);
  walk(avoidance, agents, 120, 1.0 / 60.0, nullptr, &goal);
  CHECK((agents[0].position - goal[0]).norm() < 0.1f);
}

TEST_CASE("Static entities are gone round at their radius; flat ones are walked over", "[avoidance]") {
  TileMap map = openMap(20, 10);
  World world(map);
  LocalAvoidance avoidance(world);
  const std::vector<Entity> obstacles{Entity{EntityId{100}, Vec2(10.0f, 5.0f), 1.0f, kEntityStatic},
                                      Entity{EntityId{101}, Vec2(14.0f, 5.0f), 1.0f, kEntityFlat}};
  AvoidanceAgent a = agent(1, Vec2(3.0f, 5.1f), Vec2(2.0f, 0.0f));
  std::vector<AvoidanceAgent> agents{a};
  std::vector<AvoidanceResult> out(1);
  float closest = 100.0f;
  bool overRug = false;
  for (int frame = 0; frame < 600; ++frame) {
    agents[0].preferred = (Vec2(17.0f, 5.0f) - agents[0].position).normalized() * 2.0f;
    REQUIRE(avoidance.step(agents, obstacles, 1.0 / 60.0, out) == Status::Ok);
    agents[0].velocity = out[0].velocity;
    agents[0].position += out[0].velocity / 60.0f;
    closest = std::min(closest, (agents[0].position - obstacles[0].position).norm());
    overRug = overRug || (agents[0].position - obstacles[1].position).norm() < 1.0f;
  }
  CHECK(closest >= 1.25f - 1e-3f);
  CHECK(overRug);
  CHECK((agents[0].position - Vec2(17.0f, 5.0f)).norm() < 0.2f);
}

TEST_CASE("A player who does not avoid is avoided by the others; priorities split the avoiding", "[avoidance]") {
  TileMap map = openMap(30, 12);
  World world(map);
  SECTION("not responsive") {
    LocalAvoidance avoidance(world);
    std::vector<AvoidanceAgent> agents{agent(1, Vec2(5.0f, 6.0f), Vec2(2.0f, 0.0f)), agent(2, Vec2(25.0f, 6.05f), Vec2(-2.0f, 0.0f))};
    agents[0].settings.responsive = false;
    std::vector<AvoidanceResult> out;
    const float gap = walk(avoidance, agents, 900, 1.0 / 60.0, &out);
    CHECK(gap >= 0.0f);
    CHECK(agents[0].position.y() == 6.0f);  // the player went straight, exactly as it wanted
  }
  SECTION("priority") {
    // Paths crossing at right angles, on course to meet at (10, 6): the higher priority changes
    // its velocity less (summed over the frames).
    LocalAvoidance avoidance(world);
    std::vector<AvoidanceAgent> agents{agent(1, Vec2(5.0f, 6.0f), Vec2(2.0f, 0.0f)), agent(2, Vec2(10.0f, 1.0f), Vec2(0.0f, 2.0f))};
    agents[0].settings.priority = 5;
    const std::vector<Vec2> goals{Vec2(15.0f, 6.0f), Vec2(10.0f, 11.0f)};
    float deviation[2] = {0.0f, 0.0f};
    std::vector<AvoidanceResult> out(2);
    for (int frame = 0; frame < 600; ++frame) {
      for (int i = 0; i < 2; ++i) {
        const Vec2 to = goals[std::size_t(i)] - agents[std::size_t(i)].position;
        agents[std::size_t(i)].preferred = to.norm() > 0.05f ? Vec2(to.normalized() * 2.0f) : Vec2::Zero();
      }
      REQUIRE(avoidance.step(agents, {}, 1.0 / 60.0, out) == Status::Ok);
      for (int i = 0; i < 2; ++i) {
        deviation[i] += (out[std::size_t(i)].velocity - agents[std::size_t(i)].preferred).norm() / 60.0f;
        agents[std::size_t(i)].velocity = out[std::size_t(i)].velocity;
        agents[std::size_t(i)].position += out[std::size_t(i)].velocity / 60.0f;
      }
      REQUIRE((agents[0].position - agents[1].position).norm() >= 0.5f);
    }
    CHECK(deviation[0] > 0.0f);
    CHECK(deviation[0] < 0.5f * deviation[1]);
    CHECK((agents[0].position - goals[0]).norm() < 0.1f);
    CHECK((agents[1].position - goals[1]).norm() < 0.1f);
  }
}

TEST_CASE("The answers do not depend on the order of the agents nor on the split over threads", "[avoidance][determinism][threads]") {
  std::mt19937 random(3);
  TileMap map = test::randomMap(random, Layout::square(1.0f), 40, 40, 0.15, false);
  World world(map);
  std::uniform_real_distribution<float> coordinate(1.0f, 39.0f), unit(-1.0f, 1.0f);
  std::vector<AvoidanceAgent> agents;
  for (int attempt = 0; agents.size() < 300 && attempt < 20000; ++attempt) {
    const Vec2 p(coordinate(random), coordinate(random));
    if (!probeSegment(map, kWalk, p, p, 0.3f).clear) continue;
    AvoidanceAgent a = agent(std::uint32_t(1000 - agents.size()), p, Vec2(unit(random), unit(random)) * 2.0f);
    a.velocity = Vec2(unit(random), unit(random));
    a.settings.priority = int(agents.size() % 3);
    agents.push_back(a);
  }
  // A few frames so that yields and passage turns are in play.
  auto run = [&](std::vector<AvoidanceAgent> input, bool split) {
    LocalAvoidance avoidance(world);
    std::map<std::uint32_t, std::vector<std::uint32_t>> byId;
    std::vector<AvoidanceResult> out(input.size());
    for (int frame = 0; frame < 30; ++frame) {
      if (split) {
        REQUIRE(avoidance.prepare(input, {}, 1.0 / 30.0) == Status::Ok);
        const std::size_t half = input.size() / 2;
        std::thread other([&] { avoidance.solve(half, input.size() - half, out); });
        avoidance.solve(0, half, out);
        other.join();
        avoidance.finish(out);
      } else {
        REQUIRE(avoidance.step(input, {}, 1.0 / 30.0, out) == Status::Ok);
      }
      for (std::size_t i = 0; i < input.size(); ++i) {
        input[i].velocity = out[i].velocity;
        input[i].position += out[i].velocity / 30.0f;
        auto& bits = byId[input[i].id.value];
        bits.push_back(bitsOf(out[i].velocity.x()));
        bits.push_back(bitsOf(out[i].velocity.y()));
        bits.push_back(std::uint32_t(out[i].yield));
      }
    }
    return byId;
  };
  const auto straight = run(agents, false);
  std::vector<AvoidanceAgent> shuffled = agents;
  std::shuffle(shuffled.begin(), shuffled.end(), random);
  CHECK(run(shuffled, false) == straight);
  CHECK(run(agents, true) == straight);
  CHECK(run(agents, false) == straight);
}

TEST_CASE("Local avoidance refuses bad input", "[avoidance][hostile]") {
  TileMap map = openMap(10, 10);
  World world(map);
  LocalAvoidance avoidance(world);
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  std::vector<AvoidanceResult> out(2);
  auto refuses = [&](AvoidanceAgent bad, double dt = 1.0 / 60.0) {
    std::vector<AvoidanceAgent> agents{agent(1, Vec2(2.0f, 2.0f), Vec2(1.0f, 0.0f)), bad};
    return avoidance.step(agents, {}, dt, out) == Status::InvalidArgument;
  };
  const AvoidanceAgent good = agent(2, Vec2(5.0f, 5.0f), Vec2(0.0f, 1.0f));
  CHECK_FALSE(refuses(good));
  AvoidanceAgent bad = good;
  bad.position.x() = nan;
  CHECK(refuses(bad));
  bad = good;
  bad.preferred.y() = inf;
  CHECK(refuses(bad));
  bad = good;
  bad.velocity.x() = nan;
  CHECK(refuses(bad));
  bad = good;
  bad.id = EntityId{1};  // a duplicate
  CHECK(refuses(bad));
  bad = good;
  bad.id = EntityId{0};
  CHECK(refuses(bad));
  bad = good;
  bad.radius = 3.5f;
  CHECK(refuses(bad));
  bad = good;
  bad.radius = -0.1f;
  CHECK(refuses(bad));
  bad = good;
  bad.maxSpeed = 0.0f;
  CHECK(refuses(bad));
  bad = good;
  bad.maxSpeed = nan;
  CHECK(refuses(bad));
  bad = good;
  bad.settings.maxNeighbours = 0;
  CHECK(refuses(bad));
  bad = good;
  bad.settings.timeHorizon = 0.0f;
  CHECK(refuses(bad));
  bad = good;
  bad.settings.margin = nan;
  CHECK(refuses(bad));
  CHECK(refuses(good, 0.0));
  CHECK(refuses(good, -1.0));
  CHECK(refuses(good, std::numeric_limits<double>::quiet_NaN()));
  // The wrong number of answers.
  std::vector<AvoidanceAgent> one{good};
  CHECK(avoidance.step(one, {}, 1.0 / 60.0, out) == Status::InvalidArgument);
  // Nothing, and odd but valid crowds: all on one point, far outside the map, still.
  std::vector<AvoidanceResult> none;
  CHECK(avoidance.step({}, {}, 1.0 / 60.0, none) == Status::Ok);
  std::vector<AvoidanceAgent> pile;
  for (std::uint32_t id = 1; id <= 200; ++id) pile.push_back(agent(id, Vec2(5.0f, 5.0f), Vec2(0.0f, 0.0f)));
  pile.push_back(agent(999, Vec2(1e6f, -1e6f), Vec2(1.0f, 0.0f)));
  std::vector<AvoidanceResult> many(pile.size());
  REQUIRE(avoidance.step(pile, {}, 1.0 / 60.0, many) == Status::Ok);
  for (const AvoidanceResult& r : many) {
    CHECK(std::isfinite(r.velocity.x()));
    CHECK(std::isfinite(r.velocity.y()));
    CHECK(r.velocity.norm() <= 2.0f * (1.0f + 1e-5f));
  }
  // Agents piled on one point get apart (ties broken on ids), every one of them moving.
  int moving = 0;
  for (std::size_t i = 0; i + 1 < many.size(); ++i) moving += many[i].velocity.norm() > 0.0f ? 1 : 0;
  CHECK(moving == 200);
}

TEST_CASE("The passage rule lets one side through a one-tile gap at a time", "[avoidance]") {
  // Two rooms and a one-tile gap; two agents meet at it from both sides with their routes.
  TileMap map = gapRooms();
  World world(map);
  LocalAvoidance avoidance(world);
  std::vector<AvoidanceAgent> agents{agent(1, Vec2(3.5f, 2.5f), Vec2(2.0f, 0.0f)), agent(2, Vec2(7.5f, 2.5f), Vec2(-2.0f, 0.0f))};
  const std::vector<Vec2> goals{Vec2(8.5f, 2.5f), Vec2(2.5f, 2.5f)};
  std::vector<std::vector<Vec2>> routes(2);
  std::vector<AvoidanceResult> out(2);
  bool waited[2] = {false, false};
  float gap = 100.0f;
  for (int frame = 0; frame < 600; ++frame) {
    for (std::size_t i = 0; i < 2; ++i) {
      const Vec2 to = goals[i] - agents[i].position;
      agents[i].preferred = to.norm() > 0.05f ? Vec2(to.normalized() * 2.0f) : Vec2::Zero();
      routes[i].clear();
      for (int k = 1; k <= 10; ++k) {
        const float along = std::min(0.25f * float(k), to.norm());
        routes[i].push_back(agents[i].position + (to.norm() > 0.0f ? Vec2(to.normalized() * along) : Vec2::Zero()));
      }
      agents[i].route = routes[i];
    }
    REQUIRE(avoidance.step(agents, {}, 1.0 / 60.0, out) == Status::Ok);
    for (std::size_t i = 0; i < 2; ++i) {
      waited[i] = waited[i] || out[i].yield == YieldKind::Wait;
      agents[i].velocity = out[i].velocity;
      agents[i].position += out[i].velocity / 60.0f;
    }
    gap = std::min(gap, (agents[0].position - agents[1].position).norm() - 0.5f);
  }
  // Equal priority and wait: the lower id goes first; the other waits, then follows.
  CHECK_FALSE(waited[0]);
  CHECK(waited[1]);
  CHECK(gap >= 0.0f);
  CHECK((agents[0].position - goals[0]).norm() < 0.1f);
  CHECK((agents[1].position - goals[1]).norm() < 0.1f);
}

// Regression tests of a review's findings (November 2026).

TEST_CASE("Two agents pressed face to face settle who yields the same way in any input order", "[avoidance][determinism]") {
  TileMap map = openMap(20, 20);
  World world(map);
  auto run = [&](bool swap) {
    LocalAvoidance avoidance(world);
    std::vector<AvoidanceAgent> agents{agent(2, Vec2(9.7f, 10.0f), Vec2(2.0f, 0.0f)), agent(1, Vec2(10.3f, 10.0f), Vec2(-2.0f, 0.0f))};
    if (swap) std::swap(agents[0], agents[1]);
    std::vector<AvoidanceResult> out(2);
    std::vector<std::uint32_t> yields;  // per frame: the ids yielding (positions held by the caller)
    for (int frame = 0; frame < 40; ++frame) {
      REQUIRE(avoidance.step(agents, {}, 1.0 / 60.0, out) == Status::Ok);
      std::uint32_t mask = 0;
      for (std::size_t i = 0; i < 2; ++i) {
        if (out[i].yield != YieldKind::None) mask |= agents[i].id.value;
      }
      yields.push_back(mask);
    }
    return yields;
  };
  const auto straight = run(false);
  CHECK(run(true) == straight);
  // Exactly one of them makes way (never both).
  bool someone = false;
  for (const std::uint32_t mask : straight) {
    CHECK(mask != 3u);
    someone = someone || mask != 0;
  }
  CHECK(someone);
}

TEST_CASE("Walls are kept with long obstacle horizons among many walls", "[avoidance]") {
  // A checkerboard of single wall tiles: far more wall planes within reach than an agent keeps.
  std::vector<std::string> rows(24, std::string(24, '.'));
  for (int y = 0; y < 24; ++y) {
    for (int x = 0; x < 24; ++x) {
      if (x % 2 == 1 && y % 2 == 1) rows[std::size_t(y)][std::size_t(x)] = '#';
    }
  }
  std::vector<std::string_view> views(rows.begin(), rows.end());
  TileMap map = test::mapFromRows(Layout::square(1.0f), views);
  World world(map);
  for (const float horizon : {2.0f, 5.0f, 10.0f}) {
    LocalAvoidance avoidance(world);
    AvoidanceAgent a = agent(1, Vec2(2.5f, 2.5f), Vec2(3.0f, 2.0f), 0.2f, 3.0f);
    a.settings.obstacleTimeHorizon = horizon;
    std::vector<AvoidanceAgent> agents{a};
    std::vector<AvoidanceResult> out(1);
    for (int frame = 0; frame < 600; ++frame) {
      agents[0].preferred = (Vec2(21.5f, 20.5f) - agents[0].position).normalized() * 3.0f;
      REQUIRE(avoidance.step(agents, {}, 1.0 / 60.0, out) == Status::Ok);
      agents[0].velocity = out[0].velocity;
      agents[0].position += out[0].velocity / 60.0f;
      if (!probeSegment(map, kWalk, agents[0].position, agents[0].position, 0.2f * (1.0f - 1e-3f)).clear) {
        FAIL("horizon " << horizon << " frame " << frame << ": inside a wall at " << agents[0].position.transpose());
      }
    }
  }
}

TEST_CASE("Tiny steps, far-flung and fast agents give finite answers", "[avoidance][hostile]") {
  TileMap map = openMap(20, 20);
  World world(map);
  LocalAvoidance avoidance(world);
  // Overlapping agents and steps down to the smallest double.
  for (const double dt : {1e-9, 1e-30, 1e-40, 4.9e-324}) {
    std::vector<AvoidanceAgent> agents{agent(1, Vec2(5.0f, 5.0f), Vec2(1.0f, 0.0f)), agent(2, Vec2(5.1f, 5.0f), Vec2(-1.0f, 0.0f))};
    std::vector<AvoidanceResult> out(2);
    REQUIRE(avoidance.step(agents, {}, dt, out) == Status::Ok);
    for (const AvoidanceResult& r : out) CHECK(finite(r.velocity));
  }
  // Positions at the ends of the float range.
  {
    std::vector<AvoidanceAgent> agents{agent(1, Vec2(3e38f, -3e38f), Vec2(1.0f, 0.0f)), agent(2, Vec2(-3e38f, 3e38f), Vec2(0.0f, 1.0f)),
                                       agent(3, Vec2(5.0f, 5.0f), Vec2(1.0f, 1.0f))};
    std::vector<AvoidanceResult> out(3);
    REQUIRE(avoidance.step(agents, {}, 1.0 / 60.0, out) == Status::Ok);
    for (const AvoidanceResult& r : out) CHECK(finite(r.velocity));
  }
  // One fast player among slow walkers: they still keep out of its way.
  std::vector<AvoidanceAgent> agents;
  for (std::uint32_t id = 1; id <= 20; ++id) agents.push_back(agent(id, Vec2(2.0f + 0.8f * float(id), 10.5f), Vec2(0.0f, 0.0f)));
  AvoidanceAgent player = agent(100, Vec2(10.0f, 2.0f), Vec2(0.0f, 12.0f), 0.3f, 12.0f);
  player.settings.responsive = false;
  agents.push_back(player);
  const float gap = walk(avoidance, agents, 90, 1.0 / 60.0);
  CHECK(gap >= -0.05f);
}

TEST_CASE("Passages follow tile edits: a gap widened lets both sides go, narrowed again makes one wait", "[avoidance]") {
  TileMap map = gapRooms();
  World world(map);
  LocalAvoidance avoidance(world);
  const TerrainId floor = *map.terrain().findTerrainBySymbol('.');
  const TerrainId wall = *map.terrain().findTerrainBySymbol('#');
  // Two agents each side of the gap, heading through it, held in place: who waits?
  auto waiting = [&] {
    std::vector<AvoidanceAgent> agents{agent(1, Vec2(3.5f, 2.5f), Vec2(2.0f, 0.0f)), agent(2, Vec2(7.5f, 2.5f), Vec2(-2.0f, 0.0f))};
    std::vector<std::vector<Vec2>> routes{{}, {}};
    for (int k = 1; k <= 10; ++k) {
      routes[0].push_back(Vec2(3.5f + 0.25f * float(k), 2.5f));
      routes[1].push_back(Vec2(7.5f - 0.25f * float(k), 2.5f));
    }
    agents[0].route = routes[0];
    agents[1].route = routes[1];
    std::vector<AvoidanceResult> out(2);
    int waits = 0;
    for (int frame = 0; frame < 5; ++frame) {
      REQUIRE(avoidance.step(agents, {}, 1.0 / 60.0, out) == Status::Ok);
      waits = int(out[0].yield == YieldKind::Wait) + int(out[1].yield == YieldKind::Wait);
    }
    return waits;
  };
  CHECK(waiting() == 1);
  REQUIRE(map.setTerrain(Cell{5, 1}, Cell{5, 3}, floor) == Status::Ok);  // the wall gone
  CHECK(waiting() == 0);
  REQUIRE(map.setTerrain(std::vector<Cell>{Cell{5, 1}, Cell{5, 3}}, wall) == Status::Ok);  // back
  CHECK(waiting() == 1);
  REQUIRE(map.setTerrainCost(floor, kWalk, 1.5f) == Status::Ok);  // forgets every passage
  CHECK(waiting() == 1);
}

TEST_CASE("A warm LocalAvoidance allocates nothing", "[avoidance][allocation]") {
  TileMap map = gapRooms();
  World world(map);
  LocalAvoidance avoidance(world);
  std::vector<AvoidanceAgent> agents{agent(1, Vec2(3.5f, 2.5f), Vec2(2.0f, 0.0f)), agent(2, Vec2(7.5f, 2.5f), Vec2(-2.0f, 0.0f)),
                                     agent(3, Vec2(2.5f, 1.5f), Vec2(1.0f, 1.0f))};
  std::vector<Vec2> route;
  for (int k = 1; k <= 10; ++k) route.push_back(Vec2(3.5f + 0.25f * float(k), 2.5f));
  agents[0].route = route;
  const std::vector<Entity> furniture{Entity{EntityId{50}, Vec2(8.5f, 1.5f), 0.3f, kEntityStatic}};
  std::vector<AvoidanceResult> out(agents.size());
  for (int frame = 0; frame < 10; ++frame) REQUIRE(avoidance.step(agents, furniture, 1.0 / 60.0, out) == Status::Ok);
  const std::uint64_t before = test::allocationCount();
  for (int frame = 0; frame < 100; ++frame) {
    REQUIRE(avoidance.step(agents, furniture, 1.0 / 60.0, out) == Status::Ok);
    for (std::size_t i = 0; i < agents.size(); ++i) agents[i].position += out[i].velocity / 60.0f;
  }
  CHECK(test::allocationCount() == before);
}
