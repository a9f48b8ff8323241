// SPDX-License-Identifier: MIT
// The C API: crowd fields.
#include "capi/capi_support.hpp"

using namespace rpgnav;
using namespace rpgnav::capi;

extern "C" {

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
    CrowdField::DoorCosts costs;
    if (!(closed < 0.0f)) costs.closedCost = closed;  // NaN passed on for the field to refuse
    if (!(locked < 0.0f)) costs.lockedCost = locked;
    return report(field->field.setDoorCosts(costs), "rpgnav_field_set_door_costs: a cost above 1000 or not a number");
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
