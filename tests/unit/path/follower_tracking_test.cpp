// SPDX-License-Identifier: MIT
// What local avoidance needs of paths: a PathFollower that follows a body pushed off its curve
// (preferredVelocity, pointAhead, track), and paths that never end in front of a character under
// local avoidance (kEntityAvoiding) while they still stop for furniture.
#include <catch2/catch.hpp>

#include "rpgnav/path/planner.hpp"
#include "support/test_maps.hpp"

#include <cmath>
#include <random>
#include <vector>

using namespace rpgnav;

namespace {

// An L: (0,0) → (3,0) → (3,3), 6 long.
SmoothPath elbow() {
  CubicSpan a, b;
  a.p = {Vec2(0, 0), Vec2(1, 0), Vec2(2, 0), Vec2(3, 0)};
  b.p = {Vec2(3, 0), Vec2(3, 1), Vec2(3, 2), Vec2(3, 3)};
  SmoothPath path;
  path.assign(std::vector<CubicSpan>{a, b}, 1e-3);
  return path;
}

}  // namespace

TEST_CASE("path follower: track() on the curve agrees with advance()", "[path][follower]") {
  const SmoothPath path = elbow();
  PathFollower walker(path), tracker(path);
  for (int i = 0; i < 59; ++i) {
    const PathFollower::Step walked = walker.advance(0.1);
    const PathFollower::Step tracked = tracker.track(walked.position, 0.5, 0.01);
    CHECK(tracker.distanceTravelled() == Approx(walker.distanceTravelled()).margin(1e-4));
    CHECK(tracked.reached == walked.reached);
    CHECK(tracked.position == walked.position);
    CHECK(tracked.heading.isApprox(walked.heading, 1e-3f));
  }
  // The last step: within the arrival distance of the end, body and place.
  const PathFollower::Step end = tracker.track(Vec2(3.0f, 2.995f), 0.5, 0.01);
  CHECK(end.arrived);
  CHECK(tracker.arrived());
  CHECK(tracker.distanceTravelled() == path.length());
  CHECK_FALSE(tracker.track(Vec2(3.0f, 3.0f), 0.5, 0.01).arrived);  // reported once
}

TEST_CASE("path follower: a body pushed off the curve is followed by its nearest point, never back", "[path][follower]") {
  const SmoothPath path = elbow();
  PathFollower follower(path);
  // Pushed sideways: the place is the foot of the perpendicular.
  follower.track(Vec2(1.5f, 0.4f), 2.0, 0.01);
  CHECK(follower.distanceTravelled() == Approx(1.5).margin(1e-3));
  // Pushed back: the place stays.
  follower.track(Vec2(0.5f, -0.3f), 2.0, 0.01);
  CHECK(follower.distanceTravelled() == Approx(1.5).margin(1e-3));
  // Far ahead: no further than the window.
  follower.track(Vec2(3.0f, 2.5f), 1.0, 0.01);
  CHECK(follower.distanceTravelled() <= 2.5 + 1e-9);
  // Near the end but not within the arrival distance: not arrived.
  follower.track(Vec2(3.3f, 3.0f), 10.0, 0.1);
  CHECK_FALSE(follower.arrived());
  // Bad positions move nothing.
  const double before = follower.distanceTravelled();
  follower.track(Vec2(std::nanf(""), 1.0f), 10.0, 0.1);
  CHECK(follower.distanceTravelled() == before);
}

TEST_CASE("path follower: the preferred velocity leads back onto the curve and slows down at the end", "[path][follower]") {
  const SmoothPath path = elbow();
  PathFollower follower(path);
  // Off the curve to the side: towards the point `lead` ahead, at full speed.
  const Vec2 v = follower.preferredVelocity(Vec2(0.0f, 1.0f), 2.0, 1.0, 0.5);
  CHECK(v.norm() == Approx(2.0f));
  CHECK(v.normalized().isApprox(Vec2(1.0f, -1.0f).normalized(), 1e-4f));
  CHECK(follower.pointAhead(1.0).isApprox(Vec2(1.0f, 0.0f), 1e-4f));
  CHECK(follower.pointAhead(100.0) == Vec2(3.0f, 3.0f));
  // Near the end: in proportion to what is left.
  follower.track(Vec2(3.0f, 2.8f), 10.0, 0.01);
  const Vec2 slow = follower.preferredVelocity(Vec2(3.0f, 2.8f), 2.0, 1.0, 0.5);
  CHECK(slow.norm() == Approx(2.0f * 0.2f / 0.5f).epsilon(1e-3));
  follower.track(Vec2(3.0f, 3.0f), 10.0, 0.01);
  CHECK(follower.arrived());
  CHECK(follower.preferredVelocity(Vec2(3.0f, 3.0f), 2.0, 1.0, 0.5) == Vec2::Zero());
  // Nothing for no path or a bad speed.
  PathFollower none;
  CHECK(none.preferredVelocity(Vec2(0.0f, 0.0f), 2.0, 1.0, 0.5) == Vec2::Zero());
  PathFollower fresh(path);
  CHECK(fresh.preferredVelocity(Vec2(0.0f, 0.0f), -1.0, 1.0, 0.5) == Vec2::Zero());
}

TEST_CASE("planner: characters under local avoidance never end a path; furniture still does", "[path][detours]") {
  TileMap map = test::mapFromAscii(Layout::square(1.0f), {
      "##############",
      "#............#",
      "#............#",
      "##############",
  });
  World world(map);
  // A crowd filling the corridor between start and goal.
  for (std::uint32_t i = 0; i < 6; ++i) {
    const Vec2 p(5.0f + float(i % 3), 1.5f + float(i / 3));
    REQUIRE(world.entities().add(Entity{EntityId{10 + i}, p, 0.4f, std::uint8_t(kEntityMoving | kEntityAvoiding)}) == Status::Ok);
  }
  Planner planner(world);
  PathRequest request;
  request.start = Vec2(1.5f, 1.5f);
  request.goal = Vec2(12.5f, 2.5f);
  request.radius = 0.25f;
  request.character = EntityId{1};
  PathResult result;
  CHECK(planner.plan(request, result) == Status::Ok);
  CHECK(result.controlPoints.back().isApprox(request.goal));
  // The same crowd without the flag: it blocks as furniture does.
  for (std::uint32_t i = 0; i < 6; ++i) {
    Entity e = *world.entities().find(EntityId{10 + i});
    e.flags = kEntityMoving;
    REQUIRE(world.entities().update(e) == Status::Ok);
  }
  CHECK(planner.plan(request, result) == Status::BlockedByEntity);
  // Avoiding characters in front of a cart that fills the corridor: the path stops for the cart.
  for (std::uint32_t i = 0; i < 6; ++i) {
    Entity e = *world.entities().find(EntityId{10 + i});
    e.flags = std::uint8_t(kEntityMoving | kEntityAvoiding);
    REQUIRE(world.entities().update(e) == Status::Ok);
  }
  REQUIRE(world.entities().add(Entity{EntityId{50}, Vec2(9.5f, 2.0f), 1.0f, kEntityStatic}) == Status::Ok);
  CHECK(planner.plan(request, result) == Status::BlockedByEntity);
  CHECK(result.blocker == EntityId{50});
}
