// SPDX-License-Identifier: MIT
// Private to lib/schedule: the replan scheduler's state and the work behind its public calls
// (ReplanScheduler forwards each call to its Impl, so the public header shows none of this).
#pragma once

#include "rpgnav/schedule/replan_scheduler.hpp"

#include "core/running_estimate.hpp"

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace rpgnav {

struct RPGNAV_HIDDEN ReplanScheduler::Impl {
  Impl(const World& world, PlannerSettings planner, SchedulerSettings settings, NavDataSettings data);
  Impl(NavData& data, PlannerSettings planner, SchedulerSettings settings);
  ~Impl();

  // The public calls (see replan_scheduler.hpp).
  Status add(const CharacterSpec& character);
  Status remove(EntityId id);
  Status setGoal(EntityId id, const Goal& goal);
  Status setPosition(EntityId id, Vec2 position);
  PathFollower::Step follow(EntityId id, double distance);
  std::span<const MoveStep> move(double dt);
  Status setAvoidance(EntityId id, const AvoidanceSettings& settings);
  void update(double now, ReplanBudget budget);
  void collectDue(double now, std::size_t maxJobs, std::vector<PlanJob>& jobs);
  void acceptJobs(double now, std::span<PlanJob> jobs);
  void cancelJobs();
  const PathResult* path(EntityId id) const noexcept;
  Vec2 position(EntityId id) const noexcept;
  CharacterInfo info(EntityId id) const noexcept;

  struct Character;
  struct QueueEntry {
    double key;
    std::uint64_t order;  // registration number: ties go to the earlier character
    std::uint32_t generation;
    EntityId id;
  };
  // Heap order (a max-heap of "later"): the smallest key first, then the earlier registration.
  static bool later(const QueueEntry& a, const QueueEntry& b) noexcept {
    return a.key != b.key ? a.key > b.key : a.order > b.order;
  }
  Character* find(EntityId id) noexcept;
  const Character* find(EntityId id) const noexcept;
  void queue(Character& character, double key);
  void trigger(Character& character, ReplanReason reason, double now);
  void notice(double now);
  bool goalPoint(const Character& character, Vec2& out) const;
  bool planAlongAllowed(const Character& character, ReplanReason reason, Vec2 goal, double now) const;
  PathRequest requestFor(const Character& character, Vec2 goal) const;
  // A finished plan for `character` (not InProgress): stickiness, events, next turn.
  void accept(Character& character, ReplanReason reason, bool along, PathResult& result, double now);
  // The path of a successful plan becomes the one the character walks (doors on it, follower).
  void install(Character& character, PathResult& result, double now);
  // Whether the plan being accepted was for a point goal setGoal has replaced since.
  bool forReplacedGoal(const Character& character) const noexcept;
  double nextTurn(const Character& character, double now) const;
  // The replan interval and stickiness: the world's designer settings' where set (read at each
  // use), else the SchedulerSettings'.
  double interval() const noexcept;
  double stickiness() const noexcept;
  // Back in the queue after a plan: at its next turn, or at the front if triggered meanwhile.
  void requeue(Character& character, double now);
  // At the front of the queue for a full plan (a route found gone, a trigger during a plan).
  void planAfreshFirst(Character& character, ReplanReason reason, double now);
  // The first character due by `now` that needs a plan, left at the top of the queue, with its
  // goal point; stale entries, characters idle at their goal and followed entities that vanished
  // (a GoalUnreachable event) are dealt with on the way. nullptr when nobody is due.
  Character* nextDue(double now, Vec2& goal);
  // Takes the top of the queue (nextDue's character); returns why it was queued.
  ReplanReason take(Character& character);
  // The map its plans see (with its filter's terrain costs, see NavData::prepare).
  const TileMap& mapOf(const Character& character) const;
  bool routeClear(const Character& character) const;
  double remainingCost(const Character& character) const;
  void emit(const ReplanEvent& event) { m_events.push_back(event); }
  // An event for the character if its outcome changed since its last one (and the door
  // listener told of a new door stop).
  void report(Character& character, const ReplanEvent& event);
  void tellListener();

  const World* m_world;
  SchedulerSettings m_settings;
  std::unique_ptr<NavData> m_ownData;  // unless the game's is shared
  NavData* m_data;
  Planner m_planner;
  std::vector<std::unique_ptr<Character>> m_characters;  // registration order, stable addresses
  std::vector<std::unique_ptr<Character>> m_retired;     // removed while their job was out
  std::unordered_map<std::uint32_t, std::size_t> m_index;  // id → position in m_characters
  std::vector<QueueEntry> m_queue;  // a binary heap, stale entries skipped
  std::uint64_t m_registered = 0;
  std::uint32_t m_generations = 0;
  double m_now = 0.0;  // the last update's time
  std::vector<ReplanEvent> m_events;
  SchedulerStats m_stats;
  std::int64_t m_lateTurns = 0;
  ReplanListener* m_listener = nullptr;
  // The plan in progress in m_planner (a full plan, or one along the route, in slices).
  EntityId m_inProgress{0};
  ReplanReason m_inProgressReason = ReplanReason::First;
  bool m_inProgressAlong = false;
  PathResult m_scratch;
  // Learnt: what a plan costs before it can first stop (its checks, stage 1, setting out on the
  // route): whether a new plan may still start in a time budget.
  detail::RunningEstimate m_startMicros;
  // Learnt: how far past a time budget's deadline the frames that used it up went.
  detail::RunningEstimate m_overshootMicros{0.0};
  // What the world looked like at the last notice().
  std::uint64_t m_seenMapVersion = 0;
  std::uint64_t m_seenTileVersion = 0;
  std::vector<DoorState> m_seenDoors;
  // Scratch of the triggers and of taking a path (no allocation once warm).
  std::vector<Entity> m_nearEntities;
  std::vector<DoorId> m_nearDoors;
  std::vector<CubicSpan> m_polylineSpans;
  // move(): the avoidance and its frame's arrays.
  LocalAvoidance m_avoidance;
  bool m_moving = false;  // move() was called: plans continue from where characters stand
  std::vector<AvoidanceAgent> m_agents;
  static constexpr std::size_t kRoutePoints = 10;  // a quarter tile apart: 2.5 tiles of way ahead
  std::vector<Vec2> m_route;
  std::vector<AvoidanceResult> m_avoided;
  std::vector<Entity> m_obstacles;
  std::vector<MoveStep> m_steps;
  double m_moveMicros = 0.0;
};

}  // namespace rpgnav
