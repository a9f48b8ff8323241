// SPDX-License-Identifier: MIT
// Each agent's velocity for the frame: the half-planes of its neighbours and obstacles, solved
// for the velocity nearest its preferred one, with the yielding agent's share of the avoidance.
#include "avoidance_impl.hpp"

#include <algorithm>
#include <cmath>

namespace rpgnav {

using namespace avoid;

float LocalAvoidance::Impl::shareOf(std::size_t a, std::size_t b) const noexcept {
  const AvoidanceAgent& A = agents[a];
  const AvoidanceAgent& B = agents[b];
  if (!B.settings.responsive) return 1.0f;
  if (memory[a]->yield != YieldKind::None && memory[a]->yieldTo == B.id) return kYielderShare;
  if (memory[b]->yield != YieldKind::None && memory[b]->yieldTo == A.id) return 1.0f - kYielderShare;
  // One waiting at a passage keeps out of the way of those going about.
  if (memory[a]->waiting != memory[b]->waiting) return memory[a]->waiting ? kYielderShare : 1.0f - kYielderShare;
  if (A.settings.priority == B.settings.priority) return 0.5f;
  return A.settings.priority > B.settings.priority ? 0.25f : 0.75f;
}

bool LocalAvoidance::Impl::room(const AvoidanceAgent& agent, Vec2 direction, float distance) const noexcept {
  // Tiles the mobility can enter all along, a quarter tile apart, out to the body's far side.
  const TileMap& map = world->map();
  const float total = distance + agent.radius;
  for (float along = 0.25f * tile; along <= total + 1e-3f * tile; along += 0.25f * tile) {
    const std::optional<Cell> at = map.tileAt(agent.position + direction * along);
    if (!at || !map.passable(*at, agent.mobility)) return false;
  }
  return true;
}

void LocalAvoidance::Impl::solveOne(std::size_t i, AvoidanceResult& out) {
  const AvoidanceAgent& a = agents[i];
  const Memory& m = *memory[i];
  const float speed = a.maxSpeed;
  out = AvoidanceResult{};
  Vec2 preferred = clampLength(a.preferred, speed);
  if (!a.settings.responsive) {
    out.velocity = preferred;
    return;
  }
  if (m.waiting) {
    // Waits clear of the passage's mouth, so that those coming out can get by.
    out.yield = YieldKind::Wait;
    const Vec2 away = a.position - m.entry;
    const float distance = away.norm();
    preferred = distance > 0.0f && distance < a.radius + kMouthClearance * tile ? Vec2(away * (kAsideSpeed * speed / distance))
                                                                                : Vec2::Zero();
  } else if (m.queued && m.yield == YieldKind::None) {
    out.yield = YieldKind::Wait;
  } else if (m.yield != YieldKind::None) {
    out.yield = m.yield;
    out.yieldingTo = m.yieldTo;
    preferred = m.yieldDirection * (speed * (m.yield == YieldKind::Aside ? kAsideSpeed : kBackSpeed));
  }
  const float radius = avoidRadius[i];
  const float tau = a.settings.timeHorizon;
  // Held up for long in a knot of agents: try sideways, to one side then the other (by id and
  // time, deterministic), so that a knot where every wish blocks another comes undone.
  if (m.yield == YieldKind::None && !m.waiting && m.heldUp >= kWiggleAfter) {
    const bool left = ((a.id.value + std::uint32_t(m.heldUp / kWiggleAfter)) & 1u) != 0;
    const float sine = left ? -kWiggleSin : kWiggleSin;
    preferred = Vec2(kWiggleCos * preferred.x() - sine * preferred.y(), sine * preferred.x() + kWiggleCos * preferred.y());
  }

  // The nearest agents within reach, by (distance squared, id).
  struct Near {
    float d2;
    std::uint32_t id;
    std::uint32_t index;
  };
  std::array<Near, kMaxNeighbours> near;
  std::size_t found = 0;
  const std::size_t wanted = std::size_t(a.settings.maxNeighbours);
  auto consider = [&](std::uint32_t j, float within) {
    const float d2 = (agents[j].position - a.position).squaredNorm();
    if (!(d2 < within * within)) return;
    const Near candidate{d2, agents[j].id.value, j};
    auto before = [](const Near& p, const Near& q) { return p.d2 != q.d2 ? p.d2 < q.d2 : p.id < q.id; };
    if (found == wanted && !before(candidate, near[found - 1])) return;
    std::size_t at = found < wanted ? found++ : found - 1;
    while (at > 0 && before(candidate, near[at - 1])) {
      near[at] = near[at - 1];
      --at;
    }
    near[at] = candidate;
  };
  // Within reach of each other in the horizon, at both speeds.
  auto pairReach = [&](std::uint32_t j) {
    return radius + avoidRadius[j] + (speed + agents[j].maxSpeed) * a.settings.timeHorizon;
  };
  if (isFast[i]) {
    // A fast agent reaches beyond the grid's rings: it looks at everyone.
    for (std::uint32_t j = 0; j < agents.size(); ++j) {
      if (j != i) consider(j, pairReach(j));
    }
  } else {
    const std::int32_t ring = std::int32_t(std::ceil(double(reach[i]) / cell));
    const std::int32_t cx = cellX(a.position.x()), cy = cellY(a.position.y());
    for (std::int32_t y = std::max(0, cy - ring); y <= std::min(rows - 1, cy + ring); ++y) {
      for (std::int32_t x = std::max(0, cx - ring); x <= std::min(columns - 1, cx + ring); ++x) {
        const std::size_t c = std::size_t(y) * std::size_t(columns) + std::size_t(x);
        for (std::uint32_t k = agentStart[c]; k < agentStart[c + 1]; ++k) {
          const std::uint32_t j = agentOrder[k];
          if (j != i && !isFast[j]) consider(j, reach[i]);
        }
      }
    }
    for (const std::uint32_t j : fast) consider(j, pairReach(j));
  }
  out.neighbours = std::uint8_t(found);

  // Who stands in its way (for the yield rule), and keep right against one coming head-on.
  const float prefLength = a.preferred.norm();
  if (prefLength > kIdleFraction * speed) {
    const Vec2 heading = a.preferred / prefLength;
    for (std::size_t k = 0; k < found; ++k) {
      const AvoidanceAgent& b = agents[near[k].index];
      const Vec2 offset = b.position - a.position;
      const float distance = std::sqrt(near[k].d2);
      const float ahead = offset.dot(heading);
      if (ahead <= 0.3f * distance) continue;
      if (front[i] < 0 && distance < radius + avoidRadius[near[k].index] + 0.5f * tile) front[i] = std::int32_t(near[k].index);
      if (m.yield == YieldKind::None && b.velocity.dot(heading) < -0.25f * b.velocity.norm() &&
          std::fabs(cross(heading, offset)) < radius + avoidRadius[near[k].index] &&
          distance < radius + avoidRadius[near[k].index] + speed * tau) {
        // Each turns to its own right (y grows downwards on screen): they pass on opposite sides.
        preferred = Vec2(kKeepRightCos * preferred.x() - kKeepRightSin * preferred.y(),
                         kKeepRightSin * preferred.x() + kKeepRightCos * preferred.y());
        break;
      }
    }
  }

  // Hard planes first: walls, closed doors, static entities; all gathered, the nearest kept.
  std::array<HalfPlane, kMaxObstaclePlanes + kMaxNeighbours> planes;
  std::array<HalfPlane, kMaxGathered> gathered;
  std::size_t count = 0;
  if (columns > 0) {
    const std::size_t c = std::size_t(cellY(a.position.y())) * std::size_t(columns) + std::size_t(cellX(a.position.x()));
    avoid::ObstacleBody body{a.position, a.radius, speed, a.settings.obstacleTimeHorizon};
    count = avoid::wallPlanes(world->map(), a.mobility, body, std::span<HalfPlane>(gathered.data(), kMaxGathered));
    for (std::uint32_t k = obstacleStart[c]; k < obstacleStart[c + 1] && count + 1 < kMaxGathered; ++k) {
      const std::uint32_t item = obstacleOrder[k];
      if (item < discs.size()) {
        if (discs[item].id == a.id) continue;
        avoid::discPlane(body, discs[item].position, discs[item].radius, gathered.data(), count);
        // Two discs too close for the body to pass between: the notch between them is closed
        // too (a capsule from one to the other), so that nobody stands in it, where no way round
        // the pair could start.
        for (std::uint32_t l = obstacleStart[c]; l < k && count < kMaxGathered; ++l) {
          const std::uint32_t other = obstacleOrder[l];
          if (other >= discs.size() || discs[other].id == a.id) continue;
          const Entity& p = discs[item];
          const Entity& q = discs[other];
          if ((p.position - q.position).norm() - p.radius - q.radius < 2.0f * radius) {
            avoid::capsulePlane(body, p.position, q.position, std::min(p.radius, q.radius), gathered.data(), count);
          }
        }
      } else {
        avoid::doorPlane(body, doors[item - discs.size()], gathered.data(), count);
      }
    }
  }
  if (count > kMaxObstaclePlanes) {
    // The nearest ones (the smallest offsets: the gap over the horizon), ties to the earlier,
    // in their gathered order.
    std::array<std::uint16_t, kMaxGathered> order;
    for (std::size_t k = 0; k < count; ++k) order[k] = std::uint16_t(k);
    auto nearer = [&](std::uint16_t p, std::uint16_t q) {
      return gathered[p].offset != gathered[q].offset ? gathered[p].offset < gathered[q].offset : p < q;
    };
    std::nth_element(order.begin(), order.begin() + kMaxObstaclePlanes, order.begin() + std::ptrdiff_t(count), nearer);
    std::sort(order.begin(), order.begin() + kMaxObstaclePlanes);
    for (std::size_t k = 0; k < kMaxObstaclePlanes; ++k) planes[k] = gathered[order[k]];
    count = kMaxObstaclePlanes;
  } else {
    std::copy(gathered.begin(), gathered.begin() + std::ptrdiff_t(count), planes.begin());
  }
  const std::size_t hard = count;
  out.obstacles = std::uint8_t(hard);

  // ORCA planes against the neighbours.
  const float invTau = 1.0f / tau;
  const float invStep = float(1.0 / std::max(dt, kShortestStep));
  for (std::size_t k = 0; k < found; ++k) {
    const std::size_t j = near[k].index;
    const AvoidanceAgent& b = agents[j];
    const Vec2 relPos = b.position - a.position;
    const Vec2 relVel = a.velocity - b.velocity;
    const float combined = radius + avoidRadius[j];
    const float distSq = relPos.squaredNorm();
    Vec2 direction, u;
    if (distSq > combined * combined) {
      const Vec2 w = relVel - invTau * relPos;  // from the cut-off circle's centre
      const float wSq = w.squaredNorm();
      const float dot = w.dot(relPos);
      if (dot < 0.0f && dot * dot > combined * combined * wSq) {
        const float wLength = std::sqrt(wSq);
        const Vec2 unitW = w / wLength;
        direction = Vec2(unitW.y(), -unitW.x());
        u = (combined * invTau - wLength) * unitW;
      } else {
        const float leg = std::sqrt(distSq - combined * combined);
        if (cross(relPos, w) > 0.0f) {
          direction = Vec2(relPos.x() * leg - relPos.y() * combined, relPos.x() * combined + relPos.y() * leg) / distSq;
        } else {
          direction = -Vec2(relPos.x() * leg + relPos.y() * combined, -relPos.x() * combined + relPos.y() * leg) / distSq;
        }
        u = relVel.dot(direction) * direction - relVel;
      }
    } else {
      // Overlapping already: get apart within this step.
      Vec2 w = relVel - invStep * relPos;
      float wLength = w.norm();
      Vec2 unitW;
      if (wLength > 1e-6f * speed) {
        unitW = w / wLength;
      } else {  // the same place and motion: the lower id goes one way, the other the other
        unitW = a.id.value < b.id.value ? Vec2(1.0f, 0.0f) : Vec2(-1.0f, 0.0f);
        wLength = 0.0f;
      }
      direction = Vec2(unitW.y(), -unitW.x());
      u = (combined * invStep - wLength) * unitW;
    }
    const Vec2 point = a.velocity + shareOf(i, j) * u;
    // Allowed: left of `direction` through `point`.
    const Vec2 normal(direction.y(), -direction.x());
    planes[count++] = HalfPlane{normal, normal.dot(point)};
  }

  // Solve in units of the max speed.
  const float scale = 1.0f / speed;
  for (std::size_t k = 0; k < count; ++k) planes[k].offset *= scale;
  avoid::LpAnswer answer = avoid::solveVelocity(std::span<const HalfPlane>(planes.data(), count), hard, preferred * scale);
  if (answer.hardFailed) {
    // Walls on both sides closer than the radius (it was pushed in): stand still may always.
    for (std::size_t k = 0; k < hard; ++k) planes[k].offset = std::max(planes[k].offset, 0.0f);
    answer = avoid::solveVelocity(std::span<const HalfPlane>(planes.data(), count), hard, preferred * scale);
    if (answer.hardFailed) answer.velocity = Vec2::Zero();
  }
  out.infeasible = answer.relaxed;
  out.velocity = clampLength(answer.velocity * speed, speed);
  if (!finite(out.velocity)) out.velocity = Vec2::Zero();  // only rounding of extreme inputs
}

}  // namespace rpgnav
