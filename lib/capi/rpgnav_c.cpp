// SPDX-License-Identifier: MIT
// The C API (include/rpgnav/rpgnav.h) over the C++ one: handles own the C++ objects, every entry
// point checks its pointers and catches whatever the C++ side throws (memory running out), and
// failures leave their message in a thread-local string for rpgnav_last_error().
#include "rpgnav/rpgnav.h"

#include "rpgnav/rpgnav.hpp"

#include <cmath>
#include <filesystem>
#include <memory>
#include <new>
#include <string>
#include <vector>

using namespace rpgnav;

namespace {

thread_local std::string t_lastError;

// The most points rpgnav_path_smoothed_points samples a curve into.
constexpr double kMaxSamples = 1e7;

rpgnav_status toC(Status status) noexcept {
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
rpgnav_status report(rpgnav_status status, std::string_view message = {}) noexcept {
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
rpgnav_status report(Status status, std::string_view message = {}) noexcept { return report(toC(status), message); }
rpgnav_status invalid(const char* message) noexcept { return report(RPGNAV_INVALID_ARGUMENT, message); }

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

Vec2 toVec(rpgnav_vec2 v) noexcept { return Vec2(v.x, v.y); }
rpgnav_vec2 toC(Vec2 v) noexcept { return rpgnav_vec2{v.x(), v.y()}; }
Cell toCell(rpgnav_cell c) noexcept { return Cell{c.x, c.y}; }
rpgnav_cell toC(Cell c) noexcept { return rpgnav_cell{c.x, c.y}; }
DoorState toDoorState(rpgnav_door_state state) noexcept { return DoorState(std::uint8_t(state)); }
bool validDoorState(rpgnav_door_state state) noexcept {
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
[[maybe_unused]] const char* textOf(const char* text) noexcept { return text != nullptr ? text : ""; }
[[maybe_unused]] const char* textOf(const std::string& text) noexcept { return text.c_str(); }

DangerMap::Stamp toStamp(const rpgnav_danger_stamp& stamp) noexcept {
  return DangerMap::Stamp{toVec(stamp.centre), stamp.radius, stamp.peak, stamp.falloff};
}

// A C setting (< 0: unset) as an optional; NaN is passed on for the limits to refuse.
std::optional<float> setting(float value) noexcept {
  return value < 0.0f ? std::nullopt : std::optional<float>(value);
}
float setting(const std::optional<float>& value) noexcept { return value.value_or(-1.0f); }

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
    decision.cost = std::isfinite(cost) ? std::clamp(cost, 0.0f, 1000.0f) : 0.0f;
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

}  // namespace

struct rpgnav_world {
  // Heap-held and never moved: World keeps the map by reference.
  MapDocument document;
  std::unique_ptr<World> world;
  CDoorPolicy policy;
  CDoorListener listener;
};

struct rpgnav_planner {
  Planner planner;
};

struct rpgnav_path {
  PathResult result;
  std::vector<Vec2> smoothed;  // the last sampling (reused)
};

struct rpgnav_scheduler {
  ReplanScheduler scheduler;
};

struct rpgnav_field {
  const rpgnav_world* world;
  MobilityId mobility;
  CrowdField field;
  std::vector<DoorState> doorStates;  // as last given to the field, by door index (for sync)
};

extern "C" {

const char* rpgnav_status_name(rpgnav_status status) {
  switch (status) {
    case RPGNAV_OK: return "RPGNAV_OK";
    case RPGNAV_PARTIAL_PATH: return "RPGNAV_PARTIAL_PATH";
    case RPGNAV_IN_PROGRESS: return "RPGNAV_IN_PROGRESS";
    case RPGNAV_NO_PATH: return "RPGNAV_NO_PATH";
    case RPGNAV_START_BLOCKED: return "RPGNAV_START_BLOCKED";
    case RPGNAV_GOAL_BLOCKED: return "RPGNAV_GOAL_BLOCKED";
    case RPGNAV_OUT_OF_BOUNDS: return "RPGNAV_OUT_OF_BOUNDS";
    case RPGNAV_INVALID_ARGUMENT: return "RPGNAV_INVALID_ARGUMENT";
    case RPGNAV_PARSE_ERROR: return "RPGNAV_PARSE_ERROR";
    case RPGNAV_IO_ERROR: return "RPGNAV_IO_ERROR";
    case RPGNAV_STOPPED_AT_DOOR: return "RPGNAV_STOPPED_AT_DOOR";
    case RPGNAV_BLOCKED_BY_ENTITY: return "RPGNAV_BLOCKED_BY_ENTITY";
    case RPGNAV_LIMIT_EXCEEDED: return "RPGNAV_LIMIT_EXCEEDED";
    case RPGNAV_OUT_OF_MEMORY: return "RPGNAV_OUT_OF_MEMORY";
    case RPGNAV_INTERNAL_ERROR: return "RPGNAV_INTERNAL_ERROR";
  }
  return "RPGNAV_UNKNOWN";
}

int rpgnav_succeeded(rpgnav_status status) {
  return status == RPGNAV_OK || status == RPGNAV_PARTIAL_PATH || status == RPGNAV_STOPPED_AT_DOOR ||
         status == RPGNAV_BLOCKED_BY_ENTITY;
}

const char* rpgnav_last_error(void) { return t_lastError.c_str(); }

uint32_t rpgnav_version(void) { return RPGNAV_VERSION_NUMBER; }

// ---- Worlds ----

namespace {
rpgnav_status adopt(Result<MapDocument> document, rpgnav_world** out) {
  if (!document) return report(document.status(), document.message());
  auto handle = std::unique_ptr<rpgnav_world>(new rpgnav_world{std::move(document).value(), nullptr, {}, {}});
  handle->world = std::make_unique<World>(handle->document.map);
  if (const Status added = handle->world->addFeatures(handle->document.doors, handle->document.entities, handle->document.dangerLayers, handle->document.dangerFactor, handle->document.settings);
      added != Status::Ok) {
    return report(added, "the map's doors or entities are invalid");
  }
  *out = handle.release();
  return report(RPGNAV_OK);
}
}  // namespace

rpgnav_status rpgnav_world_load(const char* path, rpgnav_world** out) {
  return guarded([&] {
    if (out == nullptr) return invalid("rpgnav_world_load: out is NULL");
    *out = nullptr;
    if (path == nullptr) return invalid("rpgnav_world_load: path is NULL");
    // UTF-8, whatever the platform's narrow encoding is (Windows reads char paths as ANSI).
    const std::u8string utf8(reinterpret_cast<const char8_t*>(path));
    return adopt(readMapFile(std::filesystem::path(utf8)), out);
  });
}

rpgnav_status rpgnav_world_parse(const char* text, size_t length, rpgnav_world** out) {
  return guarded([&] {
    if (out == nullptr) return invalid("rpgnav_world_parse: out is NULL");
    *out = nullptr;
    if (text == nullptr && length > 0) return invalid("rpgnav_world_parse: text is NULL");
    return adopt(parseRpgMap(std::string_view(text != nullptr ? text : "", length)), out);
  });
}

rpgnav_status rpgnav_world_create(rpgnav_layout layout, int32_t width, int32_t height, float tile_size,
                                  rpgnav_world** out) {
  return guarded([&] {
    if (out == nullptr) return invalid("rpgnav_world_create: out is NULL");
    *out = nullptr;
    if (!(std::isfinite(tile_size) && tile_size > 0.0f)) return invalid("rpgnav_world_create: tile size must be positive");
    Layout shape;
    switch (layout) {
      case RPGNAV_SQUARE: shape = Layout::square(tile_size); break;
      case RPGNAV_HEX_POINTY: shape = Layout::hexPointy(tile_size); break;
      case RPGNAV_HEX_FLAT: shape = Layout::hexFlat(tile_size); break;
      default: return invalid("rpgnav_world_create: unknown layout");
    }
    TerrainTable terrain;
    const TerrainId floor = terrain.addTerrain("floor", '.').value();
    (void)terrain.addTerrain("wall", '#');
    const TerrainId water = terrain.addTerrain("water", '~').value();
    (void)terrain.setCost(floor, TerrainTable::kWalk, 1.0f);
    (void)terrain.setCost(floor, TerrainTable::kFly, 1.0f);
    (void)terrain.setCost(water, TerrainTable::kSwim, 1.0f);
    (void)terrain.setCost(water, TerrainTable::kFly, 1.0f);
    auto map = TileMap::create(shape, width, height, std::move(terrain), floor);
    if (!map) return report(map.status(), map.message());
    return adopt(MapDocument{std::move(map).value(), {}, {}, 0, {}}, out);
  });
}

void rpgnav_world_destroy(rpgnav_world* world) { delete world; }

int32_t rpgnav_world_width(const rpgnav_world* world) { return world != nullptr ? world->document.map.width() : 0; }
int32_t rpgnav_world_height(const rpgnav_world* world) { return world != nullptr ? world->document.map.height() : 0; }

rpgnav_status rpgnav_world_find_terrain(const rpgnav_world* world, const char* name, uint8_t* terrain) {
  return guarded([&] {
    if (world == nullptr || name == nullptr || terrain == nullptr) return invalid("rpgnav_world_find_terrain: NULL argument");
    const std::optional<TerrainId> found = world->document.map.terrain().findTerrain(name);
    if (!found) return invalid("rpgnav_world_find_terrain: no terrain of that name");
    *terrain = found->value;
    return report(RPGNAV_OK);
  });
}

rpgnav_status rpgnav_world_find_mobility(const rpgnav_world* world, const char* name, uint8_t* mobility) {
  return guarded([&] {
    if (world == nullptr || name == nullptr || mobility == nullptr) return invalid("rpgnav_world_find_mobility: NULL argument");
    const std::optional<MobilityId> found = world->document.map.terrain().findMobility(name);
    if (!found) return invalid("rpgnav_world_find_mobility: no mobility of that name");
    *mobility = found->value;
    return report(RPGNAV_OK);
  });
}

rpgnav_status rpgnav_world_terrain_at(const rpgnav_world* world, rpgnav_cell cell, uint8_t* terrain) {
  if (world == nullptr || terrain == nullptr) return invalid("rpgnav_world_terrain_at: NULL argument");
  if (!world->document.map.contains(toCell(cell))) return report(RPGNAV_OUT_OF_BOUNDS, "the tile is off the map");
  *terrain = world->document.map.terrainAt(toCell(cell)).value;
  return report(RPGNAV_OK);
}

rpgnav_status rpgnav_world_tile_at(const rpgnav_world* world, rpgnav_vec2 point, rpgnav_cell* cell) {
  if (world == nullptr || cell == nullptr) return invalid("rpgnav_world_tile_at: NULL argument");
  if (!finite(toVec(point))) return invalid("rpgnav_world_tile_at: the point is not finite");
  const std::optional<Cell> tile = world->document.map.tileAt(toVec(point));
  if (!tile) return report(RPGNAV_OUT_OF_BOUNDS, "the point is off the map");
  *cell = toC(*tile);
  return report(RPGNAV_OK);
}

rpgnav_status rpgnav_world_tile_centre(const rpgnav_world* world, rpgnav_cell cell, rpgnav_vec2* centre) {
  if (world == nullptr || centre == nullptr) return invalid("rpgnav_world_tile_centre: NULL argument");
  if (!world->document.map.contains(toCell(cell))) return report(RPGNAV_OUT_OF_BOUNDS, "the tile is off the map");
  *centre = toC(world->document.map.layout().tileCenter(toCell(cell)));
  return report(RPGNAV_OK);
}

rpgnav_status rpgnav_world_set_terrain(rpgnav_world* world, rpgnav_cell cell, uint8_t terrain) {
  return rpgnav_world_set_terrain_rect(world, cell, cell, terrain);
}

rpgnav_status rpgnav_world_set_terrain_rect(rpgnav_world* world, rpgnav_cell low, rpgnav_cell high, uint8_t terrain) {
  return guarded([&] {
    if (world == nullptr) return invalid("rpgnav_world_set_terrain: world is NULL");
    const Status status = world->document.map.setTerrain(toCell(low), toCell(high), TerrainId{terrain});
    return report(status, status == Status::Ok ? "" : "rpgnav_world_set_terrain: a tile is off the map or the terrain unknown");
  });
}

rpgnav_status rpgnav_world_add_door(rpgnav_world* world, rpgnav_cell a, rpgnav_cell b, rpgnav_door_state state,
                                    const char* name, uint32_t* door) {
  return guarded([&] {
    if (world == nullptr || door == nullptr) return invalid("rpgnav_world_add_door: NULL argument");
    if (!validDoorState(state)) return invalid("rpgnav_world_add_door: unknown door state");
    DoorSpec spec;
    spec.name = textOf(name);
    spec.a = toCell(a);
    spec.b = toCell(b);
    spec.state = toDoorState(state);
    const Result<DoorId> added = world->world->addDoor(spec);
    if (!added) return report(added.status(), added.message());
    *door = added->value;
    return report(RPGNAV_OK);
  });
}

rpgnav_status rpgnav_world_find_door(const rpgnav_world* world, const char* name, uint32_t* door) {
  return guarded([&] {
    if (world == nullptr || name == nullptr || door == nullptr) return invalid("rpgnav_world_find_door: NULL argument");
    const Door* found = world->world->findDoor(name);
    if (found == nullptr || found->removed) return invalid("rpgnav_world_find_door: no door of that name");
    *door = found->id.value;
    return report(RPGNAV_OK);
  });
}

rpgnav_status rpgnav_world_set_door_state(rpgnav_world* world, uint32_t door, rpgnav_door_state state) {
  if (world == nullptr) return invalid("rpgnav_world_set_door_state: world is NULL");
  if (!validDoorState(state)) return invalid("rpgnav_world_set_door_state: unknown door state");
  const Status status = world->world->setDoorState(DoorId{door}, toDoorState(state));
  return report(status, "rpgnav_world_set_door_state: unknown door");
}

rpgnav_status rpgnav_world_door_state(const rpgnav_world* world, uint32_t door, rpgnav_door_state* state) {
  if (world == nullptr || state == nullptr) return invalid("rpgnav_world_door_state: NULL argument");
  const Door* found = world->world->door(DoorId{door});
  if (found == nullptr) return invalid("rpgnav_world_door_state: unknown door");
  *state = rpgnav_door_state(found->state);
  return report(RPGNAV_OK);
}

rpgnav_status rpgnav_world_remove_door(rpgnav_world* world, uint32_t door) {
  return guarded([&] {
    if (world == nullptr) return invalid("rpgnav_world_remove_door: world is NULL");
    return report(world->world->removeDoor(DoorId{door}), "rpgnav_world_remove_door: unknown or removed door");
  });
}

rpgnav_status rpgnav_world_add_entity(rpgnav_world* world, const rpgnav_entity* entity) {
  return guarded([&] {
    if (world == nullptr || entity == nullptr) return invalid("rpgnav_world_add_entity: NULL argument");
    if (entity->id == 0) return invalid("rpgnav_world_add_entity: id 0 means no entity");
    if ((entity->flags & ~std::uint32_t(RPGNAV_ENTITY_FLAT | RPGNAV_ENTITY_STATIC | RPGNAV_ENTITY_MOVING)) != 0) {
      return invalid("rpgnav_world_add_entity: unknown flags");
    }
    const Entity added{EntityId{entity->id}, toVec(entity->position), entity->radius, std::uint8_t(entity->flags)};
    return report(world->world->entities().add(added),
                  "rpgnav_world_add_entity: a position or radius not finite, a negative radius or a taken id");
  });
}

rpgnav_status rpgnav_world_move_entity(rpgnav_world* world, uint32_t id, rpgnav_vec2 position) {
  return guarded([&] {
    if (world == nullptr) return invalid("rpgnav_world_move_entity: world is NULL");
    return report(world->world->entities().move(EntityId{id}, toVec(position)),
                  "rpgnav_world_move_entity: unknown id or a position not finite");
  });
}

rpgnav_status rpgnav_world_remove_entity(rpgnav_world* world, uint32_t id) {
  return guarded([&] {
    if (world == nullptr) return invalid("rpgnav_world_remove_entity: world is NULL");
    return report(world->world->entities().remove(EntityId{id}), "rpgnav_world_remove_entity: unknown id");
  });
}

// ---- Danger and designer settings ----

rpgnav_status rpgnav_world_set_danger(rpgnav_world* world, int32_t layer, rpgnav_cell cell, uint8_t danger) {
  return guarded([&] {
    if (world == nullptr) return invalid("rpgnav_world_set_danger: world is NULL");
    return report(world->world->danger().setDanger(layer, toCell(cell), danger),
                  "rpgnav_world_set_danger: a layer outside 0-7 or a tile off the map");
  });
}

rpgnav_status rpgnav_world_danger(const rpgnav_world* world, rpgnav_cell cell, uint8_t* danger) {
  if (world == nullptr || danger == nullptr) return invalid("rpgnav_world_danger: NULL argument");
  if (!world->document.map.contains(toCell(cell))) return report(RPGNAV_OUT_OF_BOUNDS, "rpgnav_world_danger: a tile off the map");
  *danger = world->world->danger().danger(toCell(cell));
  return report(RPGNAV_OK);
}

rpgnav_status rpgnav_world_add_danger_stamp(rpgnav_world* world, const rpgnav_danger_stamp* stamp, uint32_t* id) {
  return guarded([&] {
    if (world == nullptr || stamp == nullptr || id == nullptr) return invalid("rpgnav_world_add_danger_stamp: NULL argument");
    const Result<std::uint32_t> added = world->world->danger().addStamp(toStamp(*stamp));
    if (!added) return report(added.status(), added.message());
    *id = *added;
    return report(RPGNAV_OK);
  });
}

rpgnav_status rpgnav_world_remove_danger_stamp(rpgnav_world* world, uint32_t id) {
  return guarded([&] {
    if (world == nullptr) return invalid("rpgnav_world_remove_danger_stamp: world is NULL");
    return report(world->world->danger().removeStamp(id), "rpgnav_world_remove_danger_stamp: no stamp of that id");
  });
}

rpgnav_status rpgnav_world_set_danger_factor(rpgnav_world* world, uint8_t factor) {
  if (world == nullptr) return invalid("rpgnav_world_set_danger_factor: world is NULL");
  world->world->setDangerFactor(factor);
  return report(RPGNAV_OK);
}

uint8_t rpgnav_world_danger_factor(const rpgnav_world* world) {
  return world != nullptr ? world->world->dangerFactor() : 0;
}

rpgnav_design_settings rpgnav_design_settings_unset(void) {
  return rpgnav_design_settings{-1.0f, -1.0f, -1.0f, -1.0f, -1.0f, -1.0f, -1.0f, -1.0f};
}

rpgnav_status rpgnav_world_design_settings(const rpgnav_world* world, rpgnav_design_settings* out) {
  if (world == nullptr || out == nullptr) return invalid("rpgnav_world_design_settings: NULL argument");
  const DesignSettings& settings = world->world->designSettings();
  *out = rpgnav_design_settings{setting(settings.comfort),        setting(settings.smoothing),
                                setting(settings.detourMargin),   setting(settings.openDoorCost),
                                setting(settings.closedDoorCost), setting(settings.lockedDoorCost),
                                setting(settings.replanInterval), setting(settings.stickiness)};
  return report(RPGNAV_OK);
}

rpgnav_status rpgnav_world_set_design_settings(rpgnav_world* world, const rpgnav_design_settings* settings) {
  return guarded([&] {
    if (world == nullptr || settings == nullptr) return invalid("rpgnav_world_set_design_settings: NULL argument");
    const DesignSettings design{setting(settings->comfort),          setting(settings->smoothing),
                                setting(settings->detour_margin),    setting(settings->door_cost_open),
                                setting(settings->door_cost_closed), setting(settings->door_cost_locked),
                                setting(settings->replan_interval),  setting(settings->stickiness)};
    const std::string problem = invalidDesignSetting(design);
    if (!problem.empty()) return report(RPGNAV_INVALID_ARGUMENT, "rpgnav_world_set_design_settings: " + problem);
    return report(world->world->setDesignSettings(design));
  });
}

rpgnav_status rpgnav_world_set_door_policy(rpgnav_world* world, rpgnav_door_policy_fn policy, void* user) {
  if (world == nullptr) return invalid("rpgnav_world_set_door_policy: world is NULL");
  world->policy.function = policy;
  world->policy.user = user;
  world->world->setDoorPolicy(policy != nullptr ? &world->policy : nullptr);
  return report(RPGNAV_OK);
}

rpgnav_status rpgnav_world_set_door_listener(rpgnav_world* world, rpgnav_door_stop_fn listener, void* user) {
  if (world == nullptr) return invalid("rpgnav_world_set_door_listener: world is NULL");
  world->listener.function = listener;
  world->listener.user = user;
  world->world->setDoorListener(listener != nullptr ? &world->listener : nullptr);
  return report(RPGNAV_OK);
}

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

size_t rpgnav_scheduler_size(const rpgnav_scheduler* scheduler) {
  return scheduler != nullptr ? scheduler->scheduler.size() : 0;
}

// ---- Crowd fields ----

namespace {
// Gives the field the world's doors whose state changed since it last saw them (each a field
// update, equal to a rebuild), and takes away the removed ones.
Status syncDoors(rpgnav_field& field) {
  const std::span<const Door> doors = field.world->world->doors();
  field.doorStates.resize(doors.size(), DoorState::Open);  // a new door starts as open: no door
  for (std::size_t i = 0; i < doors.size(); ++i) {
    const DoorState state = doors[i].removed ? DoorState::Open : doors[i].state;
    if (state == field.doorStates[i]) continue;
    const Status status = state == DoorState::Open ? field.field.removeDoor(doors[i].a, doors[i].b)
                                                   : field.field.setDoor(doors[i].a, doors[i].b, state);
    if (status != Status::Ok) return status;
    field.doorStates[i] = state;
  }
  return Status::Ok;
}
}  // namespace

namespace {
// The C goal tiles given to the field (a rebuild).
void setGoals(rpgnav_field& field, const rpgnav_cell* goals, size_t count) {
  std::vector<Cell> cells(count);
  for (size_t i = 0; i < count; ++i) cells[i] = toCell(goals[i]);
  field.field.setGoals(cells);
}
}  // namespace

rpgnav_status rpgnav_field_create(const rpgnav_world* world, uint8_t mobility, const rpgnav_cell* goals,
                                  size_t goal_count, rpgnav_field** out) {
  return guarded([&] {
    if (out == nullptr) return invalid("rpgnav_field_create: out is NULL");
    *out = nullptr;
    if (world == nullptr || (goals == nullptr && goal_count > 0)) return invalid("rpgnav_field_create: NULL argument");
    Result<CostField> costs = CostField::build(world->document.map, MobilityId{mobility});
    if (!costs) return report(costs.status(), costs.message());
    auto field = std::unique_ptr<rpgnav_field>(new rpgnav_field{world, MobilityId{mobility}, CrowdField(*costs), {}});
    if (const Status doors = syncDoors(*field); doors != Status::Ok) return report(doors, "a door the field refused");
    // The map file's danger layers and the world's factor, as the tool's fields take them.
    const TileMap& map = world->document.map;
    for (std::size_t layer = 0; layer < world->document.dangerLayers.size(); ++layer) {
      const std::vector<std::uint8_t>& values = world->document.dangerLayers[layer].values;
      for (std::size_t i = 0; i < values.size(); ++i) {
        if (values[i] != 0) (void)field->field.setDanger(int(layer), map.cellAt(std::int32_t(i)), values[i]);
      }
    }
    field->field.setDangerFactor(world->world->dangerFactor());
    setGoals(*field, goals, goal_count);
    *out = field.release();
    return report(RPGNAV_OK);
  });
}

void rpgnav_field_destroy(rpgnav_field* field) { delete field; }

rpgnav_status rpgnav_field_set_goals(rpgnav_field* field, const rpgnav_cell* goals, size_t goal_count) {
  return guarded([&] {
    if (field == nullptr || (goals == nullptr && goal_count > 0)) return invalid("rpgnav_field_set_goals: NULL argument");
    setGoals(*field, goals, goal_count);
    return report(RPGNAV_OK);
  });
}

rpgnav_status rpgnav_field_move_goal(rpgnav_field* field, rpgnav_cell from, rpgnav_cell to) {
  return guarded([&] {
    if (field == nullptr) return invalid("rpgnav_field_move_goal: field is NULL");
    return report(field->field.moveGoal(toCell(from), toCell(to)), "rpgnav_field_move_goal: a tile is off the map");
  });
}

rpgnav_status rpgnav_field_track_goal(rpgnav_field* field, rpgnav_cell to) {
  return guarded([&] {
    if (field == nullptr) return invalid("rpgnav_field_track_goal: field is NULL");
    return report(field->field.trackGoal(toCell(to)), "rpgnav_field_track_goal: the tile is off the map or the field has not one goal");
  });
}

rpgnav_status rpgnav_field_refresh_tracking(rpgnav_field* field, int64_t tile_budget, double micros, int64_t* visits) {
  return guarded([&] {
    if (field == nullptr) return invalid("rpgnav_field_refresh_tracking: field is NULL");
    if (!(micros >= 0.0)) return invalid("rpgnav_field_refresh_tracking: micros is negative or NaN");
    const std::int64_t made = field->field.refreshTracking(tile_budget, micros);
    if (visits != nullptr) *visits = made;
    return RPGNAV_OK;
  });
}

rpgnav_status rpgnav_field_tracking(const rpgnav_field* field, int32_t* tracking, int32_t* refreshing, double* travel) {
  return guarded([&] {
    if (field == nullptr) return invalid("rpgnav_field_tracking: field is NULL");
    if (tracking != nullptr) *tracking = field->field.tracking() ? 1 : 0;
    if (refreshing != nullptr) *refreshing = field->field.refreshing() ? 1 : 0;
    if (travel != nullptr) *travel = double(field->field.trackedTravel()) / double(CrowdField::kStep);
    return RPGNAV_OK;
  });
}

rpgnav_status rpgnav_field_sync(rpgnav_field* field) {
  return guarded([&] {
    if (field == nullptr) return invalid("rpgnav_field_sync: field is NULL");
    if (const Status tiles = field->field.syncWithMap(field->world->document.map); tiles != Status::Ok) {
      return report(tiles, "rpgnav_field_sync: the map changed beyond what the field can follow");
    }
    return report(syncDoors(*field), "a door the field refused");
  });
}

rpgnav_status rpgnav_field_set_danger(rpgnav_field* field, int32_t layer, rpgnav_cell cell, uint8_t danger) {
  return guarded([&] {
    if (field == nullptr) return invalid("rpgnav_field_set_danger: field is NULL");
    return report(field->field.setDanger(layer, toCell(cell), danger),
                  "rpgnav_field_set_danger: a layer outside 0-7 or a tile off the map");
  });
}

rpgnav_status rpgnav_field_add_danger_stamp(rpgnav_field* field, const rpgnav_danger_stamp* stamp, uint32_t* id) {
  return guarded([&] {
    if (field == nullptr || stamp == nullptr || id == nullptr) return invalid("rpgnav_field_add_danger_stamp: NULL argument");
    const Result<std::uint32_t> added = field->field.addDangerStamp(toStamp(*stamp));
    if (!added) return report(added.status(), added.message());
    *id = *added;
    return report(RPGNAV_OK);
  });
}

rpgnav_status rpgnav_field_remove_danger_stamp(rpgnav_field* field, uint32_t id) {
  return guarded([&] {
    if (field == nullptr) return invalid("rpgnav_field_remove_danger_stamp: field is NULL");
    return report(field->field.removeDangerStamp(id), "rpgnav_field_remove_danger_stamp: no stamp of that id");
  });
}

rpgnav_status rpgnav_field_set_danger_factor(rpgnav_field* field, uint8_t factor) {
  return guarded([&] {
    if (field == nullptr) return invalid("rpgnav_field_set_danger_factor: field is NULL");
    field->field.setDangerFactor(factor);
    return report(RPGNAV_OK);
  });
}

rpgnav_status rpgnav_field_set_door_costs(rpgnav_field* field, float closed, float locked) {
  return guarded([&] {
    if (field == nullptr) return invalid("rpgnav_field_set_door_costs: field is NULL");
    CrowdField::DoorPolicy policy;
    if (!(closed < 0.0f)) policy.closedCost = closed;  // NaN passed on for the field to refuse
    if (!(locked < 0.0f)) policy.lockedCost = locked;
    return report(field->field.setDoorPolicy(policy), "rpgnav_field_set_door_costs: a cost above 1000 or not a number");
  });
}

rpgnav_status rpgnav_field_flow(const rpgnav_field* field, rpgnav_vec2 point, rpgnav_vec2* direction) {
  if (field == nullptr || direction == nullptr) return invalid("rpgnav_field_flow: NULL argument");
  if (!finite(toVec(point))) return invalid("rpgnav_field_flow: the point is not finite");
  const std::optional<Cell> tile = field->world->document.map.tileAt(toVec(point));
  if (!tile) return report(RPGNAV_OUT_OF_BOUNDS, "the point is off the map");
  *direction = toC(field->field.flow(*tile));
  return report(RPGNAV_OK);
}

rpgnav_status rpgnav_field_distance(const rpgnav_field* field, rpgnav_cell cell, double* distance) {
  if (field == nullptr || distance == nullptr) return invalid("rpgnav_field_distance: NULL argument");
  if (!field->world->document.map.contains(toCell(cell))) return report(RPGNAV_OUT_OF_BOUNDS, "the tile is off the map");
  const std::int64_t d = field->field.distance(toCell(cell));
  // Fixed point: kStep per tile step on cost-1 ground (the planner's cost units).
  *distance = d == CrowdField::kUnreachable ? -1.0 : double(d) / double(CrowdField::kStep);
  return report(RPGNAV_OK);
}

}  // extern "C"
