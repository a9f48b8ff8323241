// SPDX-License-Identifier: MIT
// Private to lib/capi: what the C API's files share. The handles (the C types behind the
// header's opaque pointers), statuses and messages, conversions, and the C door hooks.
#pragma once

#include "rpgnav/rpgnav.h"

#include "rpgnav/rpgnav.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rpgnav::capi {

// The last failure's message on this thread (rpgnav_last_error), one for every file of the C API.
inline thread_local std::string t_lastError;

// The most points rpgnav_path_smoothed_points samples a curve into.
inline constexpr double kMaxSamples = 1e7;

inline rpgnav_status toC(Status status) noexcept {
  switch (status) {
    case Status::Ok: return RPGNAV_OK;
    case Status::PartialPath: return RPGNAV_PARTIAL_PATH;
    case Status::InProgress: return RPGNAV_IN_PROGRESS;
    case Status::NoPath: return RPGNAV_NO_PATH;
    case Status::StartBlocked: return RPGNAV_START_BLOCKED;
    case Status::GoalBlocked: return RPGNAV_GOAL_BLOCKED;
    case Status::OutOfBounds: return RPGNAV_OUT_OF_BOUNDS;
    case Status::InvalidArgument: return RPGNAV_INVALID_ARGUMENT;
    case Status::ParseError: return RPGNAV_PARSE_ERROR;
    case Status::IoError: return RPGNAV_IO_ERROR;
    case Status::StoppedAtDoor: return RPGNAV_STOPPED_AT_DOOR;
    case Status::BlockedByEntity: return RPGNAV_BLOCKED_BY_ENTITY;
    case Status::LimitExceeded: return RPGNAV_LIMIT_EXCEEDED;
    default: return RPGNAV_INTERNAL_ERROR;  // a status the C API does not know yet
  }
}

// Records the outcome of a call: clears the message on success, keeps `message` on failure (or
// the status's name when even that cannot be stored).
inline rpgnav_status report(rpgnav_status status, std::string_view message = {}) noexcept {
  if (rpgnav_succeeded(status) || status == RPGNAV_IN_PROGRESS) {
    t_lastError.clear();
    return status;
  }
  try {
    t_lastError.assign(message.empty() ? std::string_view(rpgnav_status_name(status)) : message);
  } catch (...) {
    t_lastError.clear();
  }
  return status;
}
inline rpgnav_status report(Status status, std::string_view message = {}) noexcept { return report(toC(status), message); }
inline rpgnav_status invalid(const char* message) noexcept { return report(RPGNAV_INVALID_ARGUMENT, message); }

// Runs a C entry point's body, turning exceptions into statuses: nothing crosses into C.
template <class Body>
rpgnav_status guarded(Body&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return report(RPGNAV_OUT_OF_MEMORY, "out of memory");
  } catch (const std::exception& error) {
    return report(RPGNAV_INTERNAL_ERROR, error.what());
  } catch (...) {
    return report(RPGNAV_INTERNAL_ERROR, "unknown exception");
  }
}

inline Vec2 toVec(rpgnav_vec2 v) noexcept { return Vec2(v.x, v.y); }
inline rpgnav_vec2 toC(Vec2 v) noexcept { return rpgnav_vec2{v.x(), v.y()}; }
inline Cell toCell(rpgnav_cell c) noexcept { return Cell{c.x, c.y}; }
inline rpgnav_cell toC(Cell c) noexcept { return rpgnav_cell{c.x, c.y}; }
inline DoorState toDoorState(rpgnav_door_state state) noexcept { return DoorState(std::uint8_t(state)); }
inline bool validDoorState(rpgnav_door_state state) noexcept {
  return state == RPGNAV_DOOR_OPEN || state == RPGNAV_DOOR_CLOSED || state == RPGNAV_DOOR_LOCKED;
}

// Copies up to `capacity` items and returns how many there are.
template <class From, class To, class Convert>
size_t copyOut(const std::vector<From>& from, To* to, size_t capacity, Convert convert) noexcept {
  if (to != nullptr) {
    for (size_t i = 0; i < from.size() && i < capacity; ++i) to[i] = convert(from[i]);
  }
  return from.size();
}

// (PathResult::reason as a C string, whichever way the result holds it.)
inline const char* textOf(const char* text) noexcept { return text != nullptr ? text : ""; }
inline const char* textOf(const std::string& text) noexcept { return text.c_str(); }

inline DangerMap::Stamp toStamp(const rpgnav_danger_stamp& stamp) noexcept {
  return DangerMap::Stamp{toVec(stamp.centre), stamp.radius, stamp.peak, stamp.falloff};
}

// A C setting (< 0: unset) as an optional; NaN is passed on for the limits to refuse.
inline std::optional<float> setting(float value) noexcept {
  return value < 0.0f ? std::nullopt : std::optional<float>(value);
}
inline float setting(const std::optional<float>& value) noexcept { return value.value_or(-1.0f); }

// The C door hooks behind the C++ interfaces.
class CDoorPolicy final : public DoorPolicy {
 public:
  rpgnav_door_policy_fn function = nullptr;
  void* user = nullptr;
  DoorDecision decide(const Door& door, const Traveller& traveller) const override {
    const rpgnav_door_info info{door.id.value, door.name.c_str(), door.key.c_str(), toC(door.a), toC(door.b),
                                rpgnav_door_state(door.state)};
    const rpgnav_traveller who{traveller.character.value, traveller.mobility.value, traveller.radius};
    float cost = 0.0f;
    const rpgnav_door_action action = function(user, &info, &who, &cost);
    DoorDecision decision;
    decision.action = action == RPGNAV_DOOR_STOP    ? DoorAction::Stop
                      : action == RPGNAV_DOOR_AVOID ? DoorAction::Avoid
                                                    : DoorAction::Pass;
    // A cost outside the policy's range would fail every plan; the hook's contract says [0, 1000].
    decision.cost = std::isfinite(cost) ? std::clamp(cost, 0.0f, kMaxDoorCost) : 0.0f;
    return decision;
  }
};

class CDoorListener final : public DoorListener {
 public:
  rpgnav_door_stop_fn function = nullptr;
  void* user = nullptr;
  void stoppedAtDoor(const DoorStop& stop) override {
    function(user, stop.character.value, stop.door.value, toC(stop.point));
  }
};

}  // namespace rpgnav::capi

struct rpgnav_world {
  // Heap-held and never moved: World keeps the map by reference.
  rpgnav::MapDocument document;
  std::unique_ptr<rpgnav::World> world;
  rpgnav::capi::CDoorPolicy policy;
  rpgnav::capi::CDoorListener listener;
};

struct rpgnav_planner {
  rpgnav::Planner planner;
};

struct rpgnav_path {
  rpgnav::PathResult result;
  std::vector<rpgnav::Vec2> smoothed;  // the last sampling (reused)
};

struct rpgnav_scheduler {
  rpgnav::ReplanScheduler scheduler;
};

struct rpgnav_field {
  const rpgnav_world* world;
  rpgnav::MobilityId mobility;
  rpgnav::CrowdField field;
  std::vector<rpgnav::DoorState> doorStates;  // as last given to the field, by door index (for sync)
};
