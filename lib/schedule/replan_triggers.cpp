// SPDX-License-Identifier: MIT
// The replan queue (each character's next turn, periodic or triggered) and the triggers noticed
// each update: a route no longer clear, a goal that moved, progress that stalled.
#include "schedule/scheduler_character.hpp"

#include "nav/nav_layer.hpp"
#include "rpgnav/grid/line_of_sight.hpp"

#include <algorithm>
#include <cmath>

namespace rpgnav {

namespace {
// Unfinished searches dropped in a row for a new goal before one is let run to its end.
constexpr std::int32_t kMaxDroppedSearches = 2;
}  // namespace

void ReplanScheduler::Impl::queue(Character& character, double key) {
  // Generations count across all characters: a removed character's entries never match a new
  // one registered under the same id.
  character.generation = ++m_generations;
  character.queued = true;
  character.key = key;
  // Triggers and first plans go to the front with a key an interval back (so that nobody is
  // passed who waits longer): they came due now.
  character.due = std::max(key, m_now);
  m_queue.push_back({key, character.order, character.generation, character.spec.id});
  std::push_heap(m_queue.begin(), m_queue.end(), later);
}

void ReplanScheduler::Impl::trigger(Character& character, ReplanReason reason, double now) {
  // To the front, but not past characters overdue by more than an interval: nobody starves.
  const double key = now - interval();
  const bool newGoal = reason == ReplanReason::GoalChanged || reason == ReplanReason::GoalMoved;
  if (m_inProgress == character.spec.id && newGoal && character.droppedSearches < kMaxDroppedSearches) {
    // A search for the old goal is of little use: drop it. But not every time: a character whose
    // goal changes faster than its searches finish would never get a path. After a few dropped
    // in a row the search runs to its end and the character is planned again for the new goal
    // right after; meanwhile that path (to where a followed entity was, or to a point goal since
    // replaced: see accept()) is walked only if it has no better.
    m_planner.cancelPlan();
    m_inProgress = EntityId{0};
    ++character.droppedSearches;
  } else if (character.jobOut || m_inProgress == character.spec.id) {
    // It is being planned: plan it again once that is done.
    // The first trigger's reason stands, as in the queue below (a goal change is what the next
    // plan's event reports, not an entity seen ahead meanwhile).
    if (!character.retrigger || character.retriggerReason == ReplanReason::Periodic ||
        character.retriggerReason == ReplanReason::EntityInCorridor) {
      character.retriggerReason = reason;
    }
    character.retrigger = true;
    return;
  }
  ++m_stats.triggers;
  // The first trigger's reason stands (it is what the events report), unless it was only the
  // periodic turn or an entity ahead.
  if (!character.queued || character.reason == ReplanReason::Periodic || character.reason == ReplanReason::EntityInCorridor) {
    character.reason = reason;
  }
  // Anything but an entity on the path may have changed the route: search afresh.
  if (reason != ReplanReason::EntityInCorridor) character.forceFull = true;
  if (character.queued && character.key <= key) return;  // already due that early
  queue(character, key);
}

ReplanScheduler::Impl::Character* ReplanScheduler::Impl::nextDue(double now, Vec2& goal) {
  while (!m_queue.empty()) {
    const QueueEntry top = m_queue.front();
    Character* character = find(top.id);
    const bool stale =
        character == nullptr || top.generation != character->generation || !character->queued || character->jobOut;
    if (!stale && top.key > now) return nullptr;
    if (!stale) {
      const bool known = goalPoint(*character, goal);
      // Nothing to do for a character standing at its point goal.
      const bool idle = known && character->reason == ReplanReason::Periodic && character->hasPath &&
                        character->spec.goal.follow.value == 0 && character->follower.arrived() &&
                        character->path.status == Status::Ok && goal == character->plannedGoal &&
                        (m_moving ? (character->position - character->path.controlPoints.back()).norm() <=
                                        2.0f * m_settings.arriveDistance * m_world->map().layout().tileSize()
                                  : character->position == character->path.controlPoints.back());
      if (known && !idle) return character;
      if (!known) {
        ReplanEvent event{character->spec.id, ReplanEventKind::GoalUnreachable, character->reason, Status::InvalidArgument};
        event.time = now;
        character->requestedGoalChanges = character->goalChanges;
        report(*character, event);
        character->hasPath = false;
      }
    }
    std::pop_heap(m_queue.begin(), m_queue.end(), later);
    m_queue.pop_back();
    if (!stale) {
      character->queued = false;
      character->reason = ReplanReason::Periodic;
      requeue(*character, now);
    }
  }
  return nullptr;
}

ReplanReason ReplanScheduler::Impl::take(Character& character) {
  std::pop_heap(m_queue.begin(), m_queue.end(), later);
  m_queue.pop_back();
  character.queued = false;
  const ReplanReason reason = character.reason;
  character.reason = ReplanReason::Periodic;
  // The cadence: a turn taken more than an interval after it came due means the budget (or the
  // jobs) could not keep every character planned once an interval.
  const double waited = std::max(0.0, m_now - character.due);
  m_stats.longestWait = std::max(m_stats.longestWait, waited);
  if (waited > interval()) {
    ++m_stats.lateTurns;
    ++m_lateTurns;
  }
  return reason;
}

void ReplanScheduler::Impl::requeue(Character& character, double now) {
  if (character.retrigger) {
    character.retrigger = false;
    planAfreshFirst(character, character.retriggerReason, now);
    return;
  }
  queue(character, nextTurn(character, now));
}

void ReplanScheduler::Impl::planAfreshFirst(Character& character, ReplanReason reason, double now) {
  character.forceFull = true;
  character.reason = reason;
  queue(character, now - interval());
}

double ReplanScheduler::Impl::nextTurn(const Character& character, double now) const {
  // The first turn at its phase that is at least half an interval away.
  const double interval = this->interval();
  const double k = std::ceil((now + 0.5 * interval - character.phase) / interval);
  return character.phase + k * interval;
}


const TileMap& ReplanScheduler::Impl::mapOf(const Character& character) const {
  // A filter's terrain costs live in its layer's map; the layer is gone only after a failed
  // update (then the world's map, until add() prepares it again).
  const CharacterSpec& spec = character.spec;
  const std::span<const TerrainCost> costs = spec.filter != nullptr ? spec.filter->costs : std::span<const TerrainCost>();
  if (costs.empty() && spec.dangerFactor.value_or(m_world->dangerFactor()) == 0) return m_world->map();
  const NavLayer* layer = m_data->layer(spec.mobility, spec.radius, costs, spec.dangerFactor);
  return layer != nullptr ? layer->map() : m_world->map();
}

bool ReplanScheduler::Impl::routeClear(const Character& character) const {
  const std::vector<Vec2>& points = character.path.controlPoints;
  if (points.size() < 2) return true;
  const std::size_t first = std::min(character.segment, points.size() - 2);
  Vec2 from = character.position;
  for (std::size_t i = first + 1; i < points.size(); ++i) {
    if (!probeSegment(mapOf(character), character.spec.mobility, from, points[i], character.spec.radius).clear) return false;
    from = points[i];
  }
  return true;
}

double ReplanScheduler::Impl::remainingCost(const Character& character) const {
  const std::vector<Vec2>& points = character.path.controlPoints;
  if (points.size() < 2) return 0.0;
  const std::size_t first = std::min(character.segment, points.size() - 2);
  double cost = 0.0;
  Vec2 from = character.position;
  for (std::size_t i = first + 1; i < points.size(); ++i) {
    const SegmentProbe probe = probeSegment(mapOf(character), character.spec.mobility, from, points[i], character.spec.radius);
    if (!probe.clear) return detail::kInfinity;
    cost += probe.cost;
    from = points[i];
  }
  return cost;
}

void ReplanScheduler::Impl::notice(double now) {
  // Doors and tiles: only when the world's version moved.
  if (m_world->mapVersion() != m_seenMapVersion) {
    m_seenMapVersion = m_world->mapVersion();
    if (m_world->map().version() != m_seenTileVersion) {
      m_seenTileVersion = m_world->map().version();
      for (auto& character : m_characters) {
        if (!character->hasPath) continue;
        if (!routeClear(*character)) {
          trigger(*character, ReplanReason::MapChanged, now);
        } else {
          character->forceFull = true;  // still clear, perhaps dearer or with a better way: next turn searches
        }
      }
    }
    const std::span<const Door> doors = m_world->doors();
    for (std::size_t i = 0; i < doors.size(); ++i) {
      const bool changed = i >= m_seenDoors.size() || m_seenDoors[i] != doors[i].state;
      if (!changed) continue;
      for (auto& character : m_characters) {
        const auto& on = character->doorsOnPath;
        if (character->hasPath && std::find(on.begin(), on.end(), doors[i].id) != on.end()) {
          trigger(*character, ReplanReason::DoorChanged, now);
        }
      }
    }
    m_seenDoors.assign(doors.size(), DoorState::Closed);
    for (std::size_t i = 0; i < doors.size(); ++i) m_seenDoors[i] = doors[i].state;
  }
  const float tile = m_world->map().layout().tileSize();
  std::vector<Entity>& near = m_nearEntities;
  for (auto& owned : m_characters) {
    Character& character = *owned;
    if (!character.hasPath) continue;
    // A followed entity that moved away from where the path leads.
    if (character.spec.goal.follow.value != 0) {
      Vec2 goal;
      if (goalPoint(character, goal) && (goal - character.plannedGoal).norm() > m_settings.goalMoveThreshold * tile) {
        trigger(character, ReplanReason::GoalMoved, now);
      }
    }
    // Little progress while there was somewhere to go.
    if (character.follower.arrived() || !isSuccess(character.path.status) || character.yield != YieldKind::None) {
      character.progressAnchor = character.position;
      character.progressSince = now;
    } else if (now - character.progressSince >= m_settings.stuckTime) {
      const double expected = m_settings.stuckFraction * double(character.spec.speed) * m_settings.stuckTime;
      if (double((character.position - character.progressAnchor).norm()) < expected) {
        trigger(character, ReplanReason::Stuck, now);
      }
      character.progressAnchor = character.position;
      character.progressSince = now;
    }
    // A blocking entity on the path ahead.
    if (now >= character.nextCorridorCheck) {
      character.nextCorridorCheck = now + m_settings.corridorCheckInterval;
      const std::vector<Vec2>& points = character.path.controlPoints;
      if (points.size() < 2) continue;
      // The segment it walks: the nearest one at or after the last known.
      std::size_t segment = std::min(character.segment, points.size() - 2);
      double best = detail::kInfinity;
      for (std::size_t i = segment; i + 1 < points.size() && i < segment + 4; ++i) {
        const Vec2 ab = points[i + 1] - points[i];
        const float t = ab.squaredNorm() > 0.0f ? std::clamp((character.position - points[i]).dot(ab) / ab.squaredNorm(), 0.0f, 1.0f) : 0.0f;
        const double d = double((points[i] + t * ab - character.position).norm());
        if (d < best) {
          best = d;
          character.segment = i;
        }
      }
      double budget = double(m_settings.corridorLookahead * tile);
      Vec2 from = character.position;
      bool blocked = false;
      const float radius = character.spec.radius;
      for (std::size_t i = character.segment + 1; i < points.size() && budget > 0.0 && !blocked; ++i) {
        Vec2 to = points[i];
        const double length = double((to - from).norm());
        if (length > budget) to = from + (to - from) * float(budget / length);
        near.clear();
        m_world->entitySource().entitiesNear(from, to, radius, near);
        for (const Entity& entity : near) {
          if (entity.id == character.spec.id || entity.flat() || entity.id == character.spec.goal.follow) continue;
          // Characters under local avoidance make way by themselves: no replan for them.
          if ((entity.flags & kEntityAvoiding) != 0) continue;
          // Entities it already stands in (a crowd at the start) do not count, as in the planner.
          if ((entity.position - character.position).norm() < entity.radius + radius) continue;
          if (entityTouchesSegment(entity, from, to, radius)) {
            blocked = true;
            break;
          }
        }
        budget -= length;
        from = to;
      }
      if (blocked) trigger(character, ReplanReason::EntityInCorridor, now);
    }
  }
}

}  // namespace rpgnav
