// SPDX-License-Identifier: MIT
#include "support/crowd_run.hpp"

#include "rpgnav/grid/line_of_sight.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace rpgnav::test {

CharacterSpec characterSpec(std::uint32_t id, Vec2 position, Goal goal, float speed, float radius) {
  CharacterSpec spec;
  spec.id = EntityId{id};
  spec.mobility = TerrainTable::kWalk;
  spec.radius = radius;
  spec.speed = speed;
  spec.position = position;
  spec.goal = goal;
  return spec;
}

std::string CrowdOutcome::summary() const {
  char text[512];
  std::snprintf(text, sizeof text,
                "%d of %d arrived (last at %.1f s); stuck %.2f of %.0f character-seconds; worst overlap %.1f%% "
                "(%lld over 5%%); walls entered %lld, doors crossed %lld, too fast %lld; blocked by characters %lld; "
                "yield frames %lld",
                arrived, members, lastArrival, stuckSeconds, characterSeconds, 100.0 * worstOverlap,
                (long long)overlapsOver5, (long long)wallsEntered, (long long)doorsCrossed, (long long)tooFast,
                (long long)blockedByAvoiding, (long long)yields);
  return text;
}

namespace {

float segmentDistance(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 ab = b - a;
  const float t = ab.squaredNorm() > 0.0f ? std::clamp((p - a).dot(ab) / ab.squaredNorm(), 0.0f, 1.0f) : 0.0f;
  return (a + t * ab - p).norm();
}

}  // namespace

CrowdOutcome runCrowd(World& world, std::span<const CrowdMember> members, const CrowdRunOptions& options) {
  CrowdOutcome out;
  out.members = int(members.size());
  const TileMap& map = world.map();
  const float tile = map.layout().tileSize();
  ReplanScheduler scheduler(world);
  for (std::size_t i = 0; i < members.size(); ++i) {
    const EntityId id{std::uint32_t(i + 1)};
    const CrowdMember& m = members[i];
    world.entities().add(Entity{id, m.start, m.radius, std::uint8_t(kEntityMoving | kEntityAvoiding)});
    CharacterSpec spec{id, TerrainTable::kWalk, m.radius, m.speed, m.start, Goal::at(m.goal), m.avoid};
    if (scheduler.add(spec) != Status::Ok) return out;
  }
  const double dt = 1.0 / options.fps;
  std::vector<Vec2> previous(members.size());
  std::vector<double> slowFor(members.size(), 0.0);
  std::vector<bool> arrived(members.size(), false);
  for (std::size_t i = 0; i < members.size(); ++i) previous[i] = members[i].start;
  std::uint64_t digest = 1469598103934665603ull;
  const int frames = int(std::ceil(options.seconds * options.fps));
  for (int frame = 0; frame < frames && out.arrived < out.members; ++frame) {
    const double now = double(frame) * dt;
    if (options.beforeFrame != nullptr) options.beforeFrame(world, now);
    scheduler.update(now, ReplanBudget::work(4000));
    for (const ReplanEvent& event : scheduler.events()) {
      if (event.kind == ReplanEventKind::BlockedByEntity && event.blocker.value >= 1 && event.blocker.value <= members.size()) {
        ++out.blockedByAvoiding;
      }
    }
    const std::span<const MoveStep> steps = scheduler.move(dt);
    for (const MoveStep& step : steps) {
      const std::size_t i = step.character.value - 1;
      const CrowdMember& m = members[i];
      world.entities().move(step.character, step.position);
      if (step.yield != YieldKind::None) ++out.yields;
      if ((step.position - previous[i]).norm() > m.speed * float(dt) * (1.0f + 1e-4f) + 1e-6f * tile) ++out.tooFast;
      // Walls: the body keeps its radius (rounding aside).
      if (!probeSegment(map, TerrainTable::kWalk, step.position, step.position, m.radius * (1.0f - 1e-3f)).clear) ++out.wallsEntered;
      // Closed doors: never crossed, never entered unless it stood in the doorway when it closed.
      bool atClosedDoor = false;
      for (const Door& door : world.doors()) {
        if (door.removed || door.state == DoorState::Open) continue;
        const float before = segmentDistance(previous[i], door.edge[0], door.edge[1]);
        const float after = segmentDistance(step.position, door.edge[0], door.edge[1]);
        if (after < m.radius + 0.6f * tile) atClosedDoor = true;
        const Vec2 e = door.edge[1] - door.edge[0];
        auto side = [&](Vec2 p) { return e.x() * (p.y() - door.edge[0].y()) - e.y() * (p.x() - door.edge[0].x()); };
        const bool crossed = side(previous[i]) * side(step.position) < 0.0f && after < 0.5f * e.norm() + m.radius &&
                             before >= m.radius * (1.0f - 1e-3f);
        if (crossed || (after < m.radius * (1.0f - 1e-3f) && before >= m.radius * (1.0f - 1e-3f))) ++out.doorsCrossed;
      }
      if (step.path.arrived && step.path.ending == PathFollower::Ending::Goal && !arrived[i]) {
        arrived[i] = true;
        ++out.arrived;
        out.lastArrival = now;
      }
      const bool slow = double(step.velocity.norm()) < 0.1 * double(m.speed);
      if (slow && !arrived[i] && !atClosedDoor && step.yield != YieldKind::Wait) {
        slowFor[i] += dt;
        if (slowFor[i] > 1.0) out.stuckSeconds += slowFor[i] - dt <= 1.0 ? slowFor[i] : dt;
      } else {
        slowFor[i] = 0.0;
      }
      previous[i] = step.position;
      for (const float v : {step.position.x(), step.position.y()}) {
        std::uint32_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        digest = (digest ^ bits) * 1099511628211ull;
      }
    }
    out.characterSeconds += double(members.size()) * dt;
    for (std::size_t i = 0; i < members.size(); ++i) {
      for (std::size_t j = i + 1; j < members.size(); ++j) {
        const float sum = members[i].radius + members[j].radius;
        const float depth = sum - (previous[i] - previous[j]).norm();
        if (depth <= 0.0f || sum <= 0.0f) continue;
        const double fraction = double(depth / sum);
        out.worstOverlap = std::max(out.worstOverlap, fraction);
        if (fraction > 0.05) ++out.overlapsOver5;
      }
    }
  }
  out.digest = digest;
  return out;
}

}  // namespace rpgnav::test
