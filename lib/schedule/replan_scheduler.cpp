// SPDX-License-Identifier: MIT
// The replan scheduler: characters registered and their goals, plans accepted and installed,
// events reported, and update() spending the frame's budget. The queue and the triggers are in
// replan_triggers.cpp, moving characters in character_moves.cpp, jobs for worker threads in
// plan_jobs.cpp.
#include "schedule/scheduler_character.hpp"

#include "nav/nav_layer.hpp"
#include "path/stages.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>

namespace rpgnav {
namespace {

using Clock = std::chrono::steady_clock;
// The search slice of a minimal budget.
constexpr std::int64_t kMinimalSlice = 256;
// A time budget of a day or more sets no deadline (and cannot overflow the clock's arithmetic).
constexpr double kNoDeadlineMicros = 8.64e10;

PathFollower::Ending endingOf(Status status) {
  return status == Status::StoppedAtDoor     ? PathFollower::Ending::DoorStop
         : status == Status::BlockedByEntity ? PathFollower::Ending::Blocked
                                             : PathFollower::Ending::Goal;
}

}  // namespace

std::string_view toString(ReplanReason reason) noexcept {
  switch (reason) {
    case ReplanReason::First: return "first";
    case ReplanReason::Periodic: return "periodic";
    case ReplanReason::GoalChanged: return "goal_changed";
    case ReplanReason::GoalMoved: return "goal_moved";
    case ReplanReason::DoorChanged: return "door_changed";
    case ReplanReason::MapChanged: return "map_changed";
    case ReplanReason::EntityInCorridor: return "entity_in_corridor";
    case ReplanReason::Stuck: return "stuck";
  }
  return "unknown";
}

std::string_view toString(ReplanEventKind kind) noexcept {
  switch (kind) {
    case ReplanEventKind::NewPath: return "new_path";
    case ReplanEventKind::StoppedAtDoor: return "stopped_at_door";
    case ReplanEventKind::BlockedByEntity: return "blocked_by_entity";
    case ReplanEventKind::GoalUnreachable: return "goal_unreachable";
  }
  return "unknown";
}

namespace {

// The scheduler leads paths round entities only so far ahead, unless told otherwise.
PlannerSettings withHorizon(PlannerSettings planner, const SchedulerSettings& settings) {
  if (planner.detours.horizon == 0.0f) planner.detours.horizon = settings.detourHorizon;
  return planner;
}

}  // namespace

ReplanScheduler::Impl::Impl(const World& world, PlannerSettings planner, SchedulerSettings settings,
                                 NavDataSettings data)
    : m_world(&world),
      m_settings(settings),
      m_ownData(std::make_unique<NavData>(world, data)),
      m_data(m_ownData.get()),
      m_planner(*m_data, withHorizon(planner, settings)),
      m_avoidance(world) {
  if (!(m_settings.interval > 0.0) || !std::isfinite(m_settings.interval)) m_settings.interval = 1.0;
  m_seenMapVersion = world.mapVersion();
  m_seenTileVersion = world.map().version();
  for (const Door& door : world.doors()) m_seenDoors.push_back(door.state);
}

ReplanScheduler::Impl::Impl(NavData& data, PlannerSettings planner, SchedulerSettings settings)
    : m_world(&data.world()),
      m_settings(settings),
      m_data(&data),
      m_planner(data, withHorizon(planner, settings)),
      m_avoidance(data.world()) {
  if (!(m_settings.interval > 0.0) || !std::isfinite(m_settings.interval)) m_settings.interval = 1.0;
  m_seenMapVersion = m_world->mapVersion();
  m_seenTileVersion = m_world->map().version();
  for (const Door& door : m_world->doors()) m_seenDoors.push_back(door.state);
}

ReplanScheduler::Impl::~Impl() = default;

// The public calls, each handed to the Impl.
ReplanScheduler::ReplanScheduler(const World& world, PlannerSettings planner, SchedulerSettings settings,
                                 NavDataSettings data)
    : m_impl(std::make_unique<Impl>(world, planner, settings, data)) {}
ReplanScheduler::ReplanScheduler(NavData& data, PlannerSettings planner, SchedulerSettings settings)
    : m_impl(std::make_unique<Impl>(data, planner, settings)) {}
ReplanScheduler::~ReplanScheduler() = default;
Status ReplanScheduler::add(const CharacterSpec& character) { return m_impl->add(character); }
Status ReplanScheduler::remove(EntityId id) { return m_impl->remove(id); }
Status ReplanScheduler::setGoal(EntityId id, const Goal& goal) { return m_impl->setGoal(id, goal); }
Status ReplanScheduler::setPosition(EntityId id, Vec2 position) { return m_impl->setPosition(id, position); }
PathFollower::Step ReplanScheduler::follow(EntityId id, double distance) { return m_impl->follow(id, distance); }
std::span<const MoveStep> ReplanScheduler::move(double dt) { return m_impl->move(dt); }
Status ReplanScheduler::setAvoidance(EntityId id, const AvoidanceSettings& settings) {
  return m_impl->setAvoidance(id, settings);
}
double ReplanScheduler::moveMicros() const noexcept { return m_impl->m_moveMicros; }
void ReplanScheduler::update(double now, ReplanBudget budget) { m_impl->update(now, budget); }
std::span<const ReplanEvent> ReplanScheduler::events() const noexcept { return m_impl->m_events; }
const SchedulerStats& ReplanScheduler::stats() const noexcept { return m_impl->m_stats; }
std::int64_t ReplanScheduler::lateTurns() const noexcept { return m_impl->m_lateTurns; }
void ReplanScheduler::setListener(ReplanListener* listener) noexcept { m_impl->m_listener = listener; }
void ReplanScheduler::collectDue(double now, std::size_t maxJobs, std::vector<PlanJob>& jobs) {
  m_impl->collectDue(now, maxJobs, jobs);
}
void ReplanScheduler::acceptJobs(double now, std::span<PlanJob> jobs) { m_impl->acceptJobs(now, jobs); }
void ReplanScheduler::cancelJobs() { m_impl->cancelJobs(); }
const PathResult* ReplanScheduler::path(EntityId id) const noexcept { return m_impl->path(id); }
Vec2 ReplanScheduler::position(EntityId id) const noexcept { return m_impl->position(id); }
ReplanScheduler::CharacterInfo ReplanScheduler::info(EntityId id) const noexcept { return m_impl->info(id); }
std::size_t ReplanScheduler::size() const noexcept { return m_impl->m_characters.size(); }
const SchedulerSettings& ReplanScheduler::settings() const noexcept { return m_impl->m_settings; }
Planner& ReplanScheduler::planner() noexcept { return m_impl->m_planner; }
const Planner& ReplanScheduler::planner() const noexcept { return m_impl->m_planner; }
const NavData& ReplanScheduler::navData() const noexcept { return *m_impl->m_data; }
NavData& ReplanScheduler::navData() noexcept { return *m_impl->m_data; }

double ReplanScheduler::Impl::interval() const noexcept {
  return m_world->designSettings().replanInterval ? double(*m_world->designSettings().replanInterval) : m_settings.interval;
}

double ReplanScheduler::Impl::stickiness() const noexcept {
  return m_world->designSettings().stickiness ? double(*m_world->designSettings().stickiness) : m_settings.stickiness;
}

ReplanScheduler::Impl::Character* ReplanScheduler::Impl::find(EntityId id) noexcept {
  const auto it = m_index.find(id.value);
  return it == m_index.end() ? nullptr : m_characters[it->second].get();
}
const ReplanScheduler::Impl::Character* ReplanScheduler::Impl::find(EntityId id) const noexcept {
  const auto it = m_index.find(id.value);
  return it == m_index.end() ? nullptr : m_characters[it->second].get();
}

Status ReplanScheduler::Impl::add(const CharacterSpec& spec) {
  const TileMap& map = m_world->map();
  if (spec.id.value == 0 || find(spec.id) != nullptr) return Status::InvalidArgument;
  if (!map.terrain().valid(spec.mobility)) return Status::InvalidArgument;
  if (!std::isfinite(spec.radius) || spec.radius < 0.0f || spec.radius > kMaxRadiusTiles * map.layout().tileSize()) {
    return Status::InvalidArgument;
  }
  if (!std::isfinite(spec.speed) || !(spec.speed > 0.0f)) return Status::InvalidArgument;
  if (!finite(spec.position) || (spec.goal.follow.value == 0 && !finite(spec.goal.point))) return Status::InvalidArgument;
  if (spec.goal.follow == spec.id) return Status::InvalidArgument;
  if (!validAvoidanceSettings(spec.avoidance)) return Status::InvalidArgument;
  if (m_characters.size() >= kMaxCharacters) return Status::LimitExceeded;
  // Its navigation data, built now (between frames) rather than by a plan or a worker's job.
  const std::span<const TerrainCost> costs = spec.filter != nullptr ? spec.filter->costs : std::span<const TerrainCost>();
  if (const Status prepared = m_data->prepare(spec.mobility, spec.radius, costs, spec.dangerFactor); prepared != Status::Ok) {
    return prepared;
  }
  auto character = std::make_unique<Character>();
  character->spec = spec;
  character->position = spec.position;
  character->order = m_registered++;
  // Phases by the golden ratio: however many register together, their turns spread evenly.
  const double golden = 0.6180339887498949;
  character->phase = std::fmod(double(character->order) * golden, 1.0) * interval();
  character->nextCorridorCheck = character->phase / interval() * m_settings.corridorCheckInterval;
  m_index.emplace(spec.id.value, m_characters.size());
  m_characters.push_back(std::move(character));
  Character& added = *m_characters.back();
  added.reason = ReplanReason::First;
  queue(added, m_now - interval());
  return Status::Ok;
}

Status ReplanScheduler::Impl::remove(EntityId id) {
  const auto it = m_index.find(id.value);
  if (it == m_index.end()) return Status::InvalidArgument;
  const std::size_t slot = it->second;
  if (m_inProgress == id) {
    m_planner.cancelPlan();
    m_inProgress = EntityId{0};
  }
  m_index.erase(it);
  // A character whose job is out stays alive (its job reads its path) until the job comes back.
  if (m_characters[slot]->jobOut) m_retired.push_back(std::move(m_characters[slot]));
  if (slot + 1 != m_characters.size()) {
    m_characters[slot] = std::move(m_characters.back());
    m_index[m_characters[slot]->spec.id.value] = slot;
  }
  m_characters.pop_back();
  return Status::Ok;  // its queue entry is stale now and is skipped
}

Status ReplanScheduler::Impl::setGoal(EntityId id, const Goal& goal) {
  Character* character = find(id);
  if (character == nullptr || goal.follow == id) return Status::InvalidArgument;
  if (goal.follow.value == 0 && !finite(goal.point)) return Status::InvalidArgument;
  character->spec.goal = goal;
  ++character->goalChanges;
  character->forceFull = true;
  trigger(*character, ReplanReason::GoalChanged, m_now);
  return Status::Ok;
}

Status ReplanScheduler::Impl::setPosition(EntityId id, Vec2 position) {
  Character* character = find(id);
  if (character == nullptr || !finite(position)) return Status::InvalidArgument;
  if (position == character->position) return Status::Ok;
  // The game moves the character itself: the follower's place on the path means nothing now (a
  // new path starts where the character stands), and one standing at its goal is idle no more
  // once it has been moved away from it.
  character->position = position;
  character->movedByGame = true;
  return Status::Ok;
}

const PathResult* ReplanScheduler::Impl::path(EntityId id) const noexcept {
  const Character* character = find(id);
  return character != nullptr && character->hasPath ? &character->path : nullptr;
}

ReplanScheduler::CharacterInfo ReplanScheduler::Impl::info(EntityId id) const noexcept {
  CharacterInfo out;
  const Character* character = find(id);
  if (character == nullptr) return out;
  out.known = true;
  out.plans = character->plans;
  out.lastPlanned = character->lastPlanned;
  out.queued = character->queued;
  out.nextTurn = character->key;
  out.reason = character->reason;
  out.lastReason = character->lastReason;
  return out;
}

Vec2 ReplanScheduler::Impl::position(EntityId id) const noexcept {
  const Character* character = find(id);
  return character != nullptr ? character->position : Vec2::Constant(std::numeric_limits<float>::quiet_NaN());
}

bool ReplanScheduler::Impl::goalPoint(const Character& character, Vec2& out) const {
  const Goal& goal = character.spec.goal;
  if (goal.follow.value == 0) {
    out = goal.point;
    return true;
  }
  if (const Character* leader = find(goal.follow)) {
    out = leader->position;
    return true;
  }
  if (const Entity* entity = m_world->entities().find(goal.follow)) {
    out = entity->position;
    return true;
  }
  return false;
}

PathRequest ReplanScheduler::Impl::requestFor(const Character& character, Vec2 goal) const {
  PathRequest request;
  request.start = character.position;
  request.goal = goal;
  request.mobility = character.spec.mobility;
  request.radius = character.spec.radius;
  request.character = character.spec.id;
  request.filter = character.spec.filter;
  request.dangerFactor = character.spec.dangerFactor;
  request.goalFallback = character.spec.goalFallback;
  // The scheduler tells the door listener itself, once per change (see report()).
  request.tellDoorListener = false;
  // A followed entity stands at the goal: it is no obstacle on the way there.
  if (character.spec.goal.follow.value != 0) request.ignore = std::span<const EntityId>(&character.spec.goal.follow, 1);
  return request;
}

bool ReplanScheduler::Impl::planAlongAllowed(const Character& character, ReplanReason reason, Vec2 goal, double now) const {
  // Only the entities changed for this character: the search would find the same route. (Doors
  // and tiles on its route trigger a full plan; changes elsewhere are seen by the next full plan,
  // at most fullReplanInterval later.)
  if (reason != ReplanReason::Periodic && reason != ReplanReason::EntityInCorridor) return false;
  return goal == character.plannedGoal && !character.forceFull && character.hasPath &&
         isSuccess(character.path.status) && character.path.route.size() >= 2 &&
         now - character.lastFullPlan < m_settings.fullReplanInterval;
}

void ReplanScheduler::Impl::accept(Character& character, ReplanReason reason, bool along, PathResult& result, double now) {
  ++m_stats.plans;
  character.droppedSearches = 0;
  if (!along) ++m_stats.fullPlans;
  ++character.plans;
  character.lastPlanned = now;
  character.lastReason = reason;
  if (forReplacedGoal(character)) {
    // A plan let run to its end although its goal was replaced meanwhile (see trigger(); or a
    // job out on a worker then): it tells the game nothing, so no event and no door listener,
    // and a failure does not take the character's path away. Its path is walked only when the
    // character has none to its newest goal; the plan for that goal comes first thing (the
    // trigger queued it).
    Vec2 goal;
    const bool current = character.hasPath && goalPoint(character, goal) && goal == character.plannedGoal;
    if (isSuccess(result.status) && !current) install(character, result, now);
    requeue(character, now);
    return;
  }
  ReplanEvent event;
  event.character = character.spec.id;
  event.reason = reason;
  event.status = result.status;
  event.time = now;
  if (!isSuccess(result.status)) {
    event.kind = ReplanEventKind::GoalUnreachable;
    report(character, event);
    character.hasPath = false;
    character.path.status = result.status;
    character.forceFull = true;
    requeue(character, now);
    return;
  }
  if (!along) {
    character.lastFullPlan = now;
    character.lastFullBlocker = result.status == Status::BlockedByEntity ? result.blocker : EntityId{0};
    // Stickiness: a periodic plan to the same goal replaces a path that is still clear only
    // when it is clearly cheaper than what is left of it.
    // Only between two paths that end alike: one that gets further (through a door opened
    // meanwhile, past a blocker gone) always wins over one cut short.
    if (reason == ReplanReason::Periodic && character.hasPath && isSuccess(character.path.status) &&
        character.requestedGoal == character.plannedGoal && result.status == character.path.status &&
        !result.controlPoints.empty() && !character.path.controlPoints.empty() &&
        result.controlPoints.back() == character.path.controlPoints.back()) {
      const double left = remainingCost(character);
      if (std::isfinite(left) && !(result.cost < left * (1.0 - stickiness()))) {
        ++m_stats.kept;
        requeue(character, now);
        return;
      }
    }
  }
  install(character, result, now);
  event.kind = character.path.status == Status::StoppedAtDoor     ? ReplanEventKind::StoppedAtDoor
               : character.path.status == Status::BlockedByEntity ? ReplanEventKind::BlockedByEntity
                                                                  : ReplanEventKind::NewPath;
  event.door = character.path.door;
  event.blocker = character.path.blocker;
  report(character, event);
  // Moved by move(), only furniture ends a path: one along the old route that stops in front of
  // some may owe it to the route (a squeeze it went through from where the character was).
  // Search afresh from where it stands, at once, unless the last search already stopped there.
  if (m_moving && along && character.path.status == Status::BlockedByEntity && !character.retrigger &&
      character.path.blocker != character.lastFullBlocker) {
    character.retrigger = true;
    character.retriggerReason = ReplanReason::EntityInCorridor;
  }
  requeue(character, now);
}

bool ReplanScheduler::Impl::forReplacedGoal(const Character& character) const noexcept {
  return character.spec.goal.follow.value == 0 && character.requestedGoalChanges != character.goalChanges &&
         character.requestedGoal != character.spec.goal.point;
}

void ReplanScheduler::Impl::install(Character& character, PathResult& result, double now) {
  ++m_stats.accepted;
  std::swap(character.path, result);
  character.hasPath = true;
  character.segment = 0;
  character.plannedGoal = character.requestedGoal;
  // The doors the path passes through or ends at: every door whose edge a segment comes within
  // the radius of (straight-line and along-the-route plans have no tile path to read them from).
  character.doorsOnPath.clear();
  if (!m_world->doors().empty()) {
    const std::vector<Vec2>& points = character.path.controlPoints;
    std::vector<DoorId>& near = m_nearDoors;
    for (std::size_t i = 0; i + 1 < points.size(); ++i) {
      near.clear();
      m_world->doorsNear(points[i].cwiseMin(points[i + 1]), points[i].cwiseMax(points[i + 1]), character.spec.radius, near);
      for (const DoorId id : near) {
        const Door& door = *m_world->door(id);
        const Barrier edge{door.edge[0], door.edge[1], door.a, door.b};
        const auto& on = character.doorsOnPath;
        if (meetsBarrier(edge, points[i], points[i + 1], character.spec.radius * 1.01f + 1e-4f) &&
            std::find(on.begin(), on.end(), id) == on.end()) {
          character.doorsOnPath.push_back(id);
        }
      }
    }
    if (character.path.door.value != 0 &&
        std::find(character.doorsOnPath.begin(), character.doorsOnPath.end(), character.path.door) ==
            character.doorsOnPath.end()) {
      character.doorsOnPath.push_back(character.path.door);
    }
  }
  const SmoothPath* curve = &character.path.smoothed;
  if (curve->empty()) {
    // The planner does not smooth: walk the control polyline.
    std::vector<CubicSpan>& spans = m_polylineSpans;
    spans.clear();
    const std::vector<Vec2>& points = character.path.controlPoints;
    for (std::size_t i = 0; i + 1 < points.size(); ++i) {
      const Vec2 a = points[i], b = points[i + 1];
      spans.push_back(CubicSpan{{a, Vec2(a + (b - a) / 3.0f), Vec2(b - (b - a) / 3.0f), b}});
    }
    if (points.size() == 1) spans.push_back(CubicSpan{{points[0], points[0], points[0], points[0]}});
    character.straight.assign(spans, 0.01 * double(m_world->map().layout().tileSize()));
    curve = &character.straight;
  }
  character.follower.follow(*curve, endingOf(character.path.status));
  character.arrivalReported = false;
  if (m_moving) {
    // Moved by move(): on from the point of the new path nearest to where it stands (it never
    // jumps); the new path began where it stood when the plan was asked for.
    const float tile = m_world->map().layout().tileSize();
    character.follower.track(character.position, character.travelledSinceRequest + double(tile),
                             double(m_settings.arriveDistance * tile));
  } else if (character.travelledSinceRequest > 0.0 && !character.movedByGame) {
    // It kept walking while the plan was made: go on from as far along the new path.
    const PathFollower::Step step = character.follower.advance(character.travelledSinceRequest);
    if (!curve->empty()) character.position = step.position;
  }
  character.progressAnchor = character.position;
  character.progressSince = now;
}

void ReplanScheduler::Impl::report(Character& character, const ReplanEvent& event) {
  // A character replanned every second that keeps waiting at the same door (or in front of the
  // same blocker, or failing the same way) has nothing new to say: an event goes out only when
  // what the plan ended in differs from the last one sent, or it is the first plan to a new goal.
  const std::optional<ReplanEvent>& last = character.reported;
  const bool changed = !last || last->kind != event.kind || last->status != event.status || last->door != event.door ||
                       last->blocker != event.blocker || character.reportedGoalChanges != character.requestedGoalChanges;
  if (!changed) return;
  character.reported = event;
  character.reportedGoalChanges = character.requestedGoalChanges;
  emit(event);
  if (event.kind == ReplanEventKind::StoppedAtDoor) {
    if (DoorListener* listener = m_world->doorListener()) {
      listener->stoppedAtDoor({event.character, event.door, character.path.stopPoint});
    }
  }
}

void ReplanScheduler::Impl::tellListener() {
  if (m_listener == nullptr) return;
  for (const ReplanEvent& event : m_events) m_listener->onReplanEvent(event);
}

void ReplanScheduler::Impl::update(double now, ReplanBudget budget) {
  const auto begin = Clock::now();
  m_events.clear();
  m_stats = {};
  if (!std::isfinite(now)) return;  // a time that is not a number plans nothing
  m_now = now;
  if (!m_data->current()) {
    m_data->update();
    // A layer the update could not keep (a terrain's cost the search cannot take) is built again
    // once the costs are valid: what each character's plan reads is ready again without add().
    for (const std::unique_ptr<Character>& character : m_characters) {
      const CharacterSpec& spec = character->spec;
      const std::span<const TerrainCost> costs = spec.filter != nullptr ? spec.filter->costs : std::span<const TerrainCost>();
      if (!m_data->ready(spec.mobility, spec.radius, costs, spec.dangerFactor)) {
        static_cast<void>(m_data->prepare(spec.mobility, spec.radius, costs, spec.dangerFactor));
      }
    }
  }
  notice(now);
  m_stats.noticeMicros = std::chrono::duration<double, std::micro>(Clock::now() - begin).count();
  std::int64_t used = 0;  // expansions charged
  auto elapsed = [&] { return std::chrono::duration<double, std::micro>(Clock::now() - begin).count(); };
  // A negative or NaN budget allows the least work (one piece); 0 on both means no limit.
  const bool minimal = budget.micros < 0.0 || budget.expansions < 0 || std::isnan(budget.micros);
  bool worked = false;  // at least one piece of work per update, however small the budget
  auto spent = [&] {
    return worked && (minimal || (budget.expansions > 0 && used >= budget.expansions) ||
                      (budget.micros > 0.0 && elapsed() >= budget.micros));
  };
  // A plan's next piece: for an expansion budget, the expansions left (and no deadline, so that
  // equal inputs give equal results whatever the clock says); for a time budget, the frame's
  // deadline, at which the search suspends (read every few expansions) and the stages after it
  // stop between two; for a minimal budget, one step: a short search slice or one stage.
  auto piece = [&]() -> PlanSlice {
    PlanSlice next;
    if (budget.expansions > 0) next.maxExpansions = std::max<std::int64_t>(1, budget.expansions - used);
    if (minimal) {
      next.maxExpansions = kMinimalSlice;
      next.deadline = begin;
    } else if (budget.micros > 0.0 && budget.micros < kNoDeadlineMicros) {
      // Work stops a little after its deadline (a step, a few expansions, the bookkeeping after
      // it): aim earlier by what it has overshot lately (mean + 2 sigma: the tail is what shows
      // in a frame's p99).
      const double aim = budget.micros - std::min(m_overshootMicros.high(), 0.25 * budget.micros);
      next.deadline = begin + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double, std::micro>(aim));
    }
    return next;
  };
  // What the first call of a plan spent before the planner could first stop: all but the
  // stages after stage 1.
  auto learnStart = [&](double callMicros) {
    const auto& stages = m_planner.diagnostics().stages;
    double later = 0.0;
    for (std::size_t s = std::size_t(PathStage::Search); s < stages.size(); ++s) later += stages[s].micros;
    m_startMicros.add(std::max(0.0, callMicros - later));
  };
  // A plan's call came back: InProgress keeps it for the next update (true: stop for now);
  // a plan along the route that found its route gone has the character planned afresh first
  // thing; otherwise the result is taken.
  auto settle = [&](Character& character, ReplanReason reason, bool along, Status status) -> bool {
    if (status == Status::InProgress) {
      m_inProgress = character.spec.id;
      m_inProgressReason = reason;
      m_inProgressAlong = along;
      return true;
    }
    used += m_settings.expansionsPerPlan;
    if (along && status == Status::NoPath) {
      planAfreshFirst(character, reason, now);
      return false;
    }
    accept(character, reason, along, m_scratch, now);
    return false;
  };

  // First the plan left over from the last frame.
  bool busy = false;
  if (m_inProgress.value != 0) {
    Character* character = find(m_inProgress);
    if (character == nullptr) {
      m_planner.cancelPlan();
      m_inProgress = EntityId{0};
    } else {
      m_inProgress = EntityId{0};
      const bool along = m_inProgressAlong;
      const std::int64_t before = m_planner.diagnostics().stats(PathStage::Search).expansions;
      ++m_stats.slices;
      const auto sliceBegin = Clock::now();
      const Status status = m_planner.continuePlan(m_scratch, piece());
      const double micros = std::chrono::duration<double, std::micro>(Clock::now() - sliceBegin).count();
      (along ? m_stats.alongMicros : m_stats.fullMicros) += micros;
      worked = true;
      const std::int64_t after = m_planner.diagnostics().stats(PathStage::Search).expansions;
      const std::int64_t expansions = after >= before ? after - before : after;  // a restarted search counts anew
      used += expansions;
      m_stats.expansions += expansions;
      busy = settle(*character, m_inProgressReason, along, status);
    }
  }

  while (!busy && !spent()) {
    Vec2 goal;
    Character* character = nextDue(now, goal);
    if (character == nullptr) break;
    // Time budgets: do not start a plan that could not reach its first stop in time.
    if (worked && budget.micros > 0.0 && elapsed() + m_startMicros.high() > budget.micros) break;
    const ReplanReason reason = take(*character);
    const PathRequest request = requestFor(*character, goal);
    character->requestedGoal = goal;
    character->requestedGoalChanges = character->goalChanges;
    character->travelledSinceRequest = 0.0;
    if (planAlongAllowed(*character, reason, goal, now)) {
      const auto alongBegin = Clock::now();
      const Status status = m_planner.replanAlong(request, character->path, m_scratch, piece());
      const double alongMicros = std::chrono::duration<double, std::micro>(Clock::now() - alongBegin).count();
      m_stats.alongMicros += alongMicros;
      learnStart(alongMicros);
      worked = true;
      if (status != Status::NoPath) {
        busy = settle(*character, reason, true, status);
        continue;
      }
      used += m_settings.expansionsPerPlan;
      if (spent()) {  // the route is gone: a full plan, first thing next update
        planAfreshFirst(*character, reason, now);
        break;
      }
    }
    character->forceFull = false;
    const auto planBegin = Clock::now();
    const Status status = m_planner.beginPlan(request, m_scratch, piece());
    const double planMicros = std::chrono::duration<double, std::micro>(Clock::now() - planBegin).count();
    m_stats.fullMicros += planMicros;
    learnStart(planMicros);
    worked = true;
    ++m_stats.slices;
    const std::int64_t expansions = m_planner.diagnostics().stats(PathStage::Search).expansions;
    used += expansions;
    m_stats.expansions += expansions;
    busy = settle(*character, reason, false, status);
  }
  m_stats.micros = elapsed();
  // Frames that used their budget up teach how far past it work goes.
  if (budget.micros > 0.0 && budget.micros < kNoDeadlineMicros && !minimal && (busy || spent())) {
    m_overshootMicros.add(std::max(0.0, m_stats.micros - budget.micros));
  }
  tellListener();
}

}  // namespace rpgnav
