// SPDX-License-Identifier: MIT
// The C API (include/rpgnav/rpgnav.h) over the C++ one: handles own the C++ objects, every entry
// point checks its pointers and catches whatever the C++ side throws (memory running out), and
// failures leave their message in a thread-local string for rpgnav_last_error(). Here: statuses,
// worlds, doors, entities, danger and designer settings; paths and the scheduler are in
// rpgnav_c_paths.cpp, crowd fields in rpgnav_c_fields.cpp; what they share in capi_support.hpp.
#include "capi/capi_support.hpp"

#include <filesystem>

using namespace rpgnav;
using namespace rpgnav::capi;

// The C header's limits are the library's own (rpgnav/core/limits.hpp).
static_assert(RPGNAV_MAX_MAP_SIDE == kMaxMapSide && RPGNAV_MAX_MAP_TILES == kMaxMapTiles);
static_assert(RPGNAV_MAX_MOBILITIES == kMaxMobilities && RPGNAV_MAX_TERRAINS == kMaxTerrains);
static_assert(RPGNAV_MIN_SEARCH_COST == kMinSearchCost && RPGNAV_MAX_SEARCH_COST == kMaxSearchCost);
static_assert(RPGNAV_MAX_DANGER_LAYERS == kMaxDangerLayers && RPGNAV_MAX_DOOR_COST == kMaxDoorCost);
static_assert(RPGNAV_MAX_ENTITIES == kMaxEntities && RPGNAV_MAX_DOORS == kMaxDoors &&
              RPGNAV_MAX_CHARACTERS == kMaxCharacters);
static_assert(RPGNAV_MAX_RADIUS_TILES == kMaxRadiusTiles);

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

}  // extern "C"
