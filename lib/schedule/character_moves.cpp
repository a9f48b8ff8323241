// SPDX-License-Identifier: MIT
// Moving characters along their paths (ReplanScheduler::move and follow), with local avoidance.
#include "schedule/scheduler_character.hpp"

#include "path/stages.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace rpgnav {

namespace {
using Clock = std::chrono::steady_clock;
}  // namespace

PathFollower::Step ReplanScheduler::Impl::follow(EntityId id, double distance) {
  Character* character = find(id);
  if (character == nullptr || !character->hasPath) return {};
  if (character->movedByGame) {  // back to following: from the start of the path it has
    character->movedByGame = false;
  }
  PathFollower::Step step = character->follower.advance(distance);
  character->position = step.position;
  character->travelledSinceRequest += step.travelled;
  // The segment it walks, for the checks of the path ahead: the last control point reached.
  if (step.reached > 0) {
    const auto last = std::size_t(step.firstReached + step.reached - 1);
    if (!character->path.controlPoints.empty()) character->segment = std::min(last, character->path.controlPoints.size() - 1);
  }
  return step;
}

Status ReplanScheduler::Impl::setAvoidance(EntityId id, const AvoidanceSettings& settings) {
  Character* character = find(id);
  if (character == nullptr || !validAvoidanceSettings(settings)) return Status::InvalidArgument;
  character->spec.avoidance = settings;
  return Status::Ok;
}

std::span<const MoveStep> ReplanScheduler::Impl::move(double dt) {
  const auto begin = Clock::now();
  m_steps.clear();
  if (!(dt > 0.0) || !std::isfinite(dt)) return m_steps;
  m_moving = true;
  const float tile = m_world->map().layout().tileSize();
  const double arrive = double(m_settings.arriveDistance * tile);
  const double slow = 0.5 * double(tile);
  // What each character wants, and its way ahead (for the passage rule).
  m_agents.resize(m_characters.size());
  m_route.resize(m_characters.size() * kRoutePoints);
  Vec2 low = Vec2::Constant(std::numeric_limits<float>::max()), high = -low;
  float widest = 0.0f, fastest = 0.0f;
  for (std::size_t i = 0; i < m_characters.size(); ++i) {
    Character& c = *m_characters[i];
    AvoidanceAgent& agent = m_agents[i];
    agent = AvoidanceAgent{c.spec.id, c.spec.mobility, c.position, c.velocity, Vec2::Zero(), c.spec.radius, c.spec.speed,
                           c.spec.avoidance};
    if (c.hasPath && !c.follower.arrived()) {
      const double lead = std::max(double(m_settings.lead * tile), double(c.spec.radius));
      agent.preferred = c.follower.preferredVelocity(c.position, double(c.spec.speed), lead, slow);
      Vec2* route = m_route.data() + i * kRoutePoints;
      for (std::size_t k = 0; k < kRoutePoints; ++k) route[k] = c.follower.pointAhead(double(k + 1) * 0.25 * double(tile));
      agent.route = std::span<const Vec2>(route, kRoutePoints);
    } else if (c.hasPath && !c.path.controlPoints.empty()) {
      // At its goal: back onto it when pushed off.
      const Vec2 offset = c.path.controlPoints.back() - c.position;
      const double distance = double(offset.norm());
      if (distance > arrive) agent.preferred = offset * float(std::min(double(c.spec.speed), double(c.spec.speed) * distance / slow) / distance);
    }
    low = low.cwiseMin(c.position);
    high = high.cwiseMax(c.position);
    widest = std::max(widest, c.spec.radius);
    fastest = std::max(fastest, c.spec.speed);
  }
  // The world's other entities near the characters: obstacles that stand still.
  m_obstacles.clear();
  if (!m_characters.empty()) {
    const Vec2 centre = (low + high) * 0.5f;
    const float reach = 0.5f * (high - low).norm() + widest + fastest + 4.0f * tile;
    m_nearEntities.clear();
    m_world->entitySource().entitiesNear(centre, centre, reach, m_nearEntities);
    // Each kept as far off as stage 7's ways round it run: a character pushed closer could not
    // be led round it (its path would stop there).
    const DetourSettings detours = designedSettings(m_planner.settings(), m_world->designSettings()).detours;
    for (const Entity& entity : m_nearEntities) {
      if (entity.flat() || find(entity.id) != nullptr) continue;
      m_obstacles.push_back(entity);
      m_obstacles.back().radius = detourReach(detours, entity.radius, widest, tile) - widest;
    }
  }
  m_avoided.resize(m_agents.size());
  if (m_avoidance.step(m_agents, m_obstacles, dt, m_avoided) != Status::Ok) {
    std::fill(m_avoided.begin(), m_avoided.end(), AvoidanceResult{});  // checked at add(): cannot happen
  }
  // Move, and find where each now is on its path.
  m_steps.resize(m_characters.size());
  for (std::size_t i = 0; i < m_characters.size(); ++i) {
    Character& c = *m_characters[i];
    const AvoidanceResult& avoided = m_avoided[i];
    MoveStep& step = m_steps[i];
    c.velocity = avoided.velocity;
    c.yield = avoided.yield;
    c.position += avoided.velocity * float(dt);
    c.movedByGame = false;
    step.character = c.spec.id;
    step.position = c.position;
    step.velocity = c.velocity;
    step.yield = avoided.yield;
    step.yieldingTo = avoided.yieldingTo;
    if (!c.hasPath) continue;
    const double window = double(c.spec.speed) * dt + 0.5 * double(tile);
    step.path = c.follower.track(c.position, window, arrive);
    c.travelledSinceRequest += step.path.travelled;
    if (step.path.reached > 0 && !c.path.controlPoints.empty()) {
      c.segment = std::min(std::size_t(step.path.firstReached + step.path.reached - 1), c.path.controlPoints.size() - 1);
    }
    // Arrival is reported once, also when a plan accepted meanwhile placed it at the end.
    step.path.arrived = c.follower.arrived() && !c.arrivalReported;
    if (step.path.arrived) c.arrivalReported = true;
  }
  m_moveMicros = std::chrono::duration<double, std::micro>(Clock::now() - begin).count();
  return m_steps;
}

}  // namespace rpgnav
