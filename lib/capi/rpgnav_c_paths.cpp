// SPDX-License-Identifier: MIT
// The C API: paths (planners, requests, results) and the replan scheduler.
#include "capi/capi_support.hpp"

using namespace rpgnav;
using namespace rpgnav::capi;

extern "C" {

// ---- Paths ----

rpgnav_path_request rpgnav_path_request_default(void) {
  rpgnav_path_request request;
  request.start = rpgnav_vec2{0.0f, 0.0f};
  request.goal = rpgnav_vec2{0.0f, 0.0f};
  request.mobility = RPGNAV_WALK;
  request.radius = 0.0f;
  request.character = 0;
  request.comfort = -1.0f;
  request.has_danger_factor = 0;
  request.danger_factor = 0;
  request.goal_fallback = 0;
  return request;
}

rpgnav_status rpgnav_planner_create(const rpgnav_world* world, rpgnav_planner** out) {
  return guarded([&] {
    if (out == nullptr) return invalid("rpgnav_planner_create: out is NULL");
    *out = nullptr;
    if (world == nullptr) return invalid("rpgnav_planner_create: world is NULL");
    *out = new rpgnav_planner{Planner(*world->world)};
    return report(RPGNAV_OK);
  });
}

void rpgnav_planner_destroy(rpgnav_planner* planner) { delete planner; }

namespace {

bool knownSearchMode(rpgnav_search_mode mode) {
  return mode == RPGNAV_SEARCH_TILES || mode == RPGNAV_SEARCH_ANY_ANGLE || mode == RPGNAV_SEARCH_EXACT_ANY_ANGLE;
}

// The C numbers are SearchMode's own.
static_assert(int(SearchMode::Tiles) == RPGNAV_SEARCH_TILES && int(SearchMode::AnyAngle) == RPGNAV_SEARCH_ANY_ANGLE &&
              int(SearchMode::ExactAnyAngle) == RPGNAV_SEARCH_EXACT_ANY_ANGLE);

rpgnav_status setSearchMode(Planner& planner, rpgnav_search_mode mode, const char* unknown) {
  if (!knownSearchMode(mode)) return invalid(unknown);
  planner.settings().search = SearchMode(mode);
  return report(RPGNAV_OK);
}

}  // namespace

rpgnav_status rpgnav_planner_set_search_mode(rpgnav_planner* planner, rpgnav_search_mode mode) {
  return guarded([&] {
    if (planner == nullptr) return invalid("rpgnav_planner_set_search_mode: planner is NULL");
    return setSearchMode(planner->planner, mode, "rpgnav_planner_set_search_mode: unknown search mode");
  });
}

rpgnav_search_mode rpgnav_planner_search_mode(const rpgnav_planner* planner) {
  const SearchMode mode = planner == nullptr ? PlannerSettings{}.search : planner->planner.settings().search;
  return rpgnav_search_mode(mode);
}

rpgnav_status rpgnav_path_create(rpgnav_path** out) {
  return guarded([&] {
    if (out == nullptr) return invalid("rpgnav_path_create: out is NULL");
    *out = nullptr;
    *out = new rpgnav_path{};
    return report(RPGNAV_OK);
  });
}

void rpgnav_path_destroy(rpgnav_path* path) { delete path; }

rpgnav_status rpgnav_plan(rpgnav_planner* planner, const rpgnav_path_request* request, rpgnav_path* out) {
  return guarded([&] {
    if (planner == nullptr || request == nullptr || out == nullptr) return invalid("rpgnav_plan: NULL argument");
    PathRequest query;
    query.start = toVec(request->start);
    query.goal = toVec(request->goal);
    query.mobility = MobilityId{request->mobility};
    query.radius = request->radius;
    query.character = EntityId{request->character};
    // Negative means "the default"; NaN is passed on for the planner to refuse.
    if (!(request->comfort < 0.0f)) query.comfort = request->comfort;
    if (request->has_danger_factor != 0) query.dangerFactor = request->danger_factor;
    query.goalFallback = request->goal_fallback != 0;
    out->smoothed.clear();
    const Status status = planner->planner.plan(query, out->result);
    return report(status, textOf(out->result.reason));
  });
}

rpgnav_status rpgnav_path_status(const rpgnav_path* path) {
  return path != nullptr ? toC(path->result.status) : invalid("rpgnav_path_status: path is NULL");
}

const char* rpgnav_path_reason(const rpgnav_path* path) {
  return path != nullptr ? textOf(path->result.reason) : "path is NULL";
}

size_t rpgnav_path_control_points(const rpgnav_path* path, rpgnav_vec2* points, size_t capacity) {
  if (path == nullptr) return 0;
  return copyOut(path->result.controlPoints, points, capacity, [](Vec2 v) { return toC(v); });
}

size_t rpgnav_path_smoothed_points(rpgnav_path* path, float spacing, rpgnav_vec2* points, size_t capacity) {
  if (path == nullptr || !(std::isfinite(spacing) && spacing > 0.0f)) return 0;
  // A spacing that tiny would sample without end (or past memory): refused.
  if (path->result.smoothed.length() / double(spacing) > kMaxSamples) return 0;
  try {
    path->result.smoothed.sampleEvery(spacing, path->smoothed);
  } catch (...) {
    report(RPGNAV_OUT_OF_MEMORY, "out of memory");
    return 0;
  }
  return copyOut(path->smoothed, points, capacity, [](Vec2 v) { return toC(v); });
}

int rpgnav_path_door_stop(const rpgnav_path* path, uint32_t* door, rpgnav_vec2* point) {
  if (path == nullptr || path->result.status != Status::StoppedAtDoor) return 0;
  if (door != nullptr) *door = path->result.door.value;
  if (point != nullptr) *point = toC(path->result.stopPoint);
  return 1;
}

int rpgnav_path_fallback_goal(const rpgnav_path* path, rpgnav_vec2* point) {
  if (path == nullptr || !path->result.fallbackGoal) return 0;
  if (point != nullptr) *point = toC(*path->result.fallbackGoal);
  return 1;
}

uint32_t rpgnav_path_blocker(const rpgnav_path* path) {
  return path != nullptr && path->result.status == Status::BlockedByEntity ? path->result.blocker.value : 0;
}

double rpgnav_path_length(const rpgnav_path* path) {
  return path != nullptr && isSuccess(path->result.status) ? path->result.length : 0.0;
}

double rpgnav_path_cost(const rpgnav_path* path) {
  return path != nullptr && isSuccess(path->result.status) ? path->result.cost : 0.0;
}

// ---- Scheduler ----

rpgnav_status rpgnav_scheduler_create(const rpgnav_world* world, rpgnav_scheduler** out) {
  return guarded([&] {
    if (out == nullptr) return invalid("rpgnav_scheduler_create: out is NULL");
    *out = nullptr;
    if (world == nullptr) return invalid("rpgnav_scheduler_create: world is NULL");
    *out = new rpgnav_scheduler{ReplanScheduler(*world->world)};
    return report(RPGNAV_OK);
  });
}

void rpgnav_scheduler_destroy(rpgnav_scheduler* scheduler) { delete scheduler; }

rpgnav_status rpgnav_scheduler_add(rpgnav_scheduler* scheduler, const rpgnav_character* character) {
  return guarded([&] {
    if (scheduler == nullptr || character == nullptr) return invalid("rpgnav_scheduler_add: NULL argument");
    CharacterSpec spec;
    spec.id = EntityId{character->id};
    spec.mobility = MobilityId{character->mobility};
    spec.radius = character->radius;
    spec.speed = character->speed;
    spec.position = toVec(character->position);
    spec.goal = character->follow != 0 ? Goal::following(EntityId{character->follow}) : Goal::at(toVec(character->goal));
    if (character->has_danger_factor != 0) spec.dangerFactor = character->danger_factor;
    spec.goalFallback = character->goal_fallback != 0;
    return report(scheduler->scheduler.add(spec),
                  "rpgnav_scheduler_add: a zero or taken id, an unknown mobility, a radius or speed out of range, or a "
                  "point not finite");
  });
}

rpgnav_status rpgnav_scheduler_remove(rpgnav_scheduler* scheduler, uint32_t id) {
  return guarded([&] {
    if (scheduler == nullptr) return invalid("rpgnav_scheduler_remove: scheduler is NULL");
    return report(scheduler->scheduler.remove(EntityId{id}), "rpgnav_scheduler_remove: unknown id");
  });
}

rpgnav_status rpgnav_scheduler_set_goal(rpgnav_scheduler* scheduler, uint32_t id, rpgnav_vec2 goal) {
  return guarded([&] {
    if (scheduler == nullptr) return invalid("rpgnav_scheduler_set_goal: scheduler is NULL");
    return report(scheduler->scheduler.setGoal(EntityId{id}, Goal::at(toVec(goal))),
                  "rpgnav_scheduler_set_goal: unknown id or a goal not finite");
  });
}

rpgnav_status rpgnav_scheduler_set_position(rpgnav_scheduler* scheduler, uint32_t id, rpgnav_vec2 position) {
  return guarded([&] {
    if (scheduler == nullptr) return invalid("rpgnav_scheduler_set_position: scheduler is NULL");
    return report(scheduler->scheduler.setPosition(EntityId{id}, toVec(position)),
                  "rpgnav_scheduler_set_position: unknown id or a position not finite");
  });
}

rpgnav_status rpgnav_scheduler_update(rpgnav_scheduler* scheduler, double now, double micros, int64_t expansions) {
  return guarded([&] {
    if (scheduler == nullptr) return invalid("rpgnav_scheduler_update: scheduler is NULL");
    if (!std::isfinite(now)) return invalid("rpgnav_scheduler_update: the time is not finite");
    scheduler->scheduler.update(now, ReplanBudget{micros, expansions});
    return report(RPGNAV_OK);
  });
}

size_t rpgnav_scheduler_events(const rpgnav_scheduler* scheduler, rpgnav_event* events, size_t capacity) {
  if (scheduler == nullptr) return 0;
  const std::span<const ReplanEvent> all = scheduler->scheduler.events();
  if (events != nullptr) {
    for (size_t i = 0; i < all.size() && i < capacity; ++i) {
      const ReplanEvent& event = all[i];
      events[i] = rpgnav_event{event.character.value, rpgnav_event_kind(event.kind), std::uint32_t(event.reason),
                               toC(event.status),     event.door.value,              event.blocker.value,
                               event.time};
    }
  }
  return all.size();
}

rpgnav_status rpgnav_scheduler_path(const rpgnav_scheduler* scheduler, uint32_t id, rpgnav_path* out) {
  return guarded([&] {
    if (scheduler == nullptr || out == nullptr) return invalid("rpgnav_scheduler_path: NULL argument");
    if (!scheduler->scheduler.info(EntityId{id}).known) return invalid("rpgnav_scheduler_path: unknown id");
    const PathResult* path = scheduler->scheduler.path(EntityId{id});
    out->smoothed.clear();
    if (path == nullptr) {
      out->result = PathResult{};
      out->result.status = Status::NoPath;
      out->result.reason = "the character has no path yet";
      return report(RPGNAV_NO_PATH, out->result.reason);
    }
    out->result = *path;
    return report(RPGNAV_OK);
  });
}

int64_t rpgnav_scheduler_late_turns(const rpgnav_scheduler* scheduler) {
  return scheduler == nullptr ? 0 : scheduler->scheduler.lateTurns();
}

rpgnav_status rpgnav_scheduler_set_search_mode(rpgnav_scheduler* scheduler, rpgnav_search_mode mode) {
  return guarded([&] {
    if (scheduler == nullptr) return invalid("rpgnav_scheduler_set_search_mode: scheduler is NULL");
    return setSearchMode(scheduler->scheduler.planner(), mode, "rpgnav_scheduler_set_search_mode: unknown search mode");
  });
}

rpgnav_search_mode rpgnav_scheduler_search_mode(const rpgnav_scheduler* scheduler) {
  const SearchMode mode = scheduler == nullptr ? PlannerSettings{}.search : scheduler->scheduler.planner().settings().search;
  return rpgnav_search_mode(mode);
}

size_t rpgnav_scheduler_size(const rpgnav_scheduler* scheduler) {
  return scheduler != nullptr ? scheduler->scheduler.size() : 0;
}

}  // extern "C"
