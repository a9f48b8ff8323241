/* SPDX-License-Identifier: MIT */
/* The C API from C99 (built with -std=c99 -pedantic -Werror): every function of rpgnav.h, on the
 * sample dungeon and on maps built here, with the bad inputs. That the C answers equal the C++
 * API's is checked by tests/unit/capi/c_api_test.cpp; this program checks that C can use them.
 *
 * usage: rpgnav_c_api_test PATH/TO/dungeon.rpgmap */
#include <rpgnav/rpgnav.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define CHECK(condition)                                                                   \
  do {                                                                                     \
    if (!(condition)) {                                                                    \
      fprintf(stderr, "%s:%d: failed: %s (last error: %s)\n", __FILE__, __LINE__, #condition, \
              rpgnav_last_error());                                                        \
      ++failures;                                                                          \
    }                                                                                      \
  } while (0)

#define CHECK_STATUS(call, expected)                                                         \
  do {                                                                                       \
    rpgnav_status got_ = (call);                                                             \
    if (got_ != (expected)) {                                                                \
      fprintf(stderr, "%s:%d: %s gave %s, expected %s (%s)\n", __FILE__, __LINE__, #call,     \
              rpgnav_status_name(got_), rpgnav_status_name(expected), rpgnav_last_error()); \
      ++failures;                                                                            \
    }                                                                                        \
  } while (0)

static rpgnav_vec2 vec(float x, float y) {
  rpgnav_vec2 v;
  v.x = x;
  v.y = y;
  return v;
}

static rpgnav_cell cell(int32_t x, int32_t y) {
  rpgnav_cell c;
  c.x = x;
  c.y = y;
  return c;
}

static double distance(rpgnav_vec2 a, rpgnav_vec2 b) { return hypot((double)a.x - b.x, (double)a.y - b.y); }

/* The control points of a path (at most 256). */
static size_t points_of(const rpgnav_path* path, rpgnav_vec2* points) {
  size_t count = rpgnav_path_control_points(path, NULL, 0);
  CHECK(count <= 256);
  if (count > 256) count = 256;
  CHECK(rpgnav_path_control_points(path, points, count) == count);
  return count;
}

/* Distance from p to the segment a-b. */
static double segment_distance(rpgnav_vec2 p, rpgnav_vec2 a, rpgnav_vec2 b) {
  double dx = (double)b.x - a.x, dy = (double)b.y - a.y, t = 0.0;
  double length2 = dx * dx + dy * dy;
  if (length2 > 0.0) t = (((double)p.x - a.x) * dx + ((double)p.y - a.y) * dy) / length2;
  if (t < 0.0) t = 0.0;
  if (t > 1.0) t = 1.0;
  return hypot(a.x + t * dx - p.x, a.y + t * dy - p.y);
}

/* ---- door hooks ---- */
typedef struct hooks {
  int policy_calls;
  int stops;
  uint32_t last_stop_door;
  uint32_t last_stop_character;
  rpgnav_vec2 last_stop_point;
  uint32_t avoided; /* a door the policy makes a wall (0: none) */
  rpgnav_door_action action; /* what action_policy answers */
} hooks;

/* Answers h->action for every door. */
static rpgnav_door_action action_policy(void* user, const rpgnav_door_info* door, const rpgnav_traveller* traveller,
                                        float* cost) {
  hooks* h = (hooks*)user;
  ++h->policy_calls;
  (void)door;
  (void)traveller;
  *cost = 1.0f;
  return h->action;
}

static rpgnav_door_action policy(void* user, const rpgnav_door_info* door, const rpgnav_traveller* traveller,
                                 float* cost) {
  hooks* h = (hooks*)user;
  ++h->policy_calls;
  (void)traveller;
  if (door->id == h->avoided) return RPGNAV_DOOR_AVOID;
  if (door->state == RPGNAV_DOOR_OPEN) return RPGNAV_DOOR_PASS;
  *cost = 2.0f;
  return RPGNAV_DOOR_STOP;
}

static void listener(void* user, uint32_t character, uint32_t door, rpgnav_vec2 point) {
  hooks* h = (hooks*)user;
  ++h->stops;
  h->last_stop_door = door;
  h->last_stop_character = character;
  h->last_stop_point = point;
}

/* ---- the sample dungeon: the hero's route, its door stops, opening doors ---- */
static void dungeon_route(rpgnav_world* world) {
  rpgnav_planner* planner = NULL;
  rpgnav_path* path = NULL;
  rpgnav_path_request request = rpgnav_path_request_default();
  rpgnav_vec2 points[256];
  rpgnav_vec2 stop;
  uint32_t door = 0, crypt_door = 0;
  size_t count, smoothed, i;
  int opened = 0;
  hooks h;
  memset(&h, 0, sizeof h);

  CHECK_STATUS(rpgnav_planner_create(world, &planner), RPGNAV_OK);
  CHECK_STATUS(rpgnav_path_create(&path), RPGNAV_OK);
  CHECK_STATUS(rpgnav_world_set_door_policy(world, policy, &h), RPGNAV_OK);
  CHECK_STATUS(rpgnav_world_set_door_listener(world, listener, &h), RPGNAV_OK);

  /* From the stairs up to the crypt: closed doors stop the hero in front of them. */
  request.start = vec(4.5f, 9.5f);
  request.goal = vec(23.5f, 20.5f);
  request.radius = 0.3f;
  request.character = 1000;
  CHECK_STATUS(rpgnav_plan(planner, &request, path), RPGNAV_STOPPED_AT_DOOR);
  CHECK(rpgnav_path_status(path) == RPGNAV_STOPPED_AT_DOOR);
  CHECK(strlen(rpgnav_path_reason(path)) < 1000);
  CHECK(rpgnav_path_door_stop(path, &door, &stop) == 1);
  CHECK(door != 0);
  CHECK(h.stops == 1 && h.last_stop_door == door && h.last_stop_character == 1000);
  CHECK(distance(h.last_stop_point, stop) == 0.0);
  CHECK(h.policy_calls >= 1);
  CHECK(rpgnav_path_blocker(path) == 0);
  count = points_of(path, points);
  CHECK(count >= 2);
  CHECK(distance(points[0], request.start) < 1e-4);
  CHECK(distance(points[count - 1], stop) < 1e-4);
  CHECK(rpgnav_path_length(path) > 5.0 && rpgnav_path_cost(path) >= rpgnav_path_length(path) - 1e-6);

  /* The smoothed curve: starts and ends where the control points do, points spaced as asked. */
  smoothed = rpgnav_path_smoothed_points(path, 0.25f, NULL, 0);
  CHECK(smoothed >= 2);
  if (smoothed >= 2 && smoothed <= 256) {
    CHECK(rpgnav_path_smoothed_points(path, 0.25f, points, 256) == smoothed);
    /* every 0.25 of arc length (measured on the curve's arc length table, within 2% of it) */
    for (i = 1; i < smoothed; ++i) CHECK(distance(points[i - 1], points[i]) <= 0.25 * 1.02);
    CHECK(distance(points[smoothed - 1], stop) < 1e-3);
  }
  CHECK(rpgnav_path_smoothed_points(path, 0.0f, points, 256) == 0);
  CHECK(rpgnav_path_smoothed_points(path, (float)NAN, points, 256) == 0);
  CHECK(rpgnav_path_smoothed_points(path, 1e-30f, NULL, 0) == 0); /* more points than it samples */

  /* The game opens each door the hero stops at and plans on from the stop, until it arrives. */
  CHECK_STATUS(rpgnav_world_find_door(world, "crypt_door", &crypt_door), RPGNAV_OK);
  while (rpgnav_path_status(path) == RPGNAV_STOPPED_AT_DOOR && opened < 10) {
    rpgnav_door_state state;
    CHECK(rpgnav_path_door_stop(path, &door, &stop) == 1);
    CHECK_STATUS(rpgnav_world_door_state(world, door, &state), RPGNAV_OK);
    CHECK(state != RPGNAV_DOOR_OPEN);
    CHECK_STATUS(rpgnav_world_set_door_state(world, door, RPGNAV_DOOR_OPEN), RPGNAV_OK);
    ++opened;
    request.start = stop;
    rpgnav_plan(planner, &request, path);
  }
  CHECK(rpgnav_path_status(path) == RPGNAV_OK);
  CHECK(opened >= 1 && h.stops == opened);
  count = points_of(path, points);
  CHECK(count >= 2 && distance(points[count - 1], request.goal) < 1e-4);
  CHECK(rpgnav_path_door_stop(path, &door, &stop) == 0);

  /* A door the policy avoids is a wall: the path (if any) does not cross the crypt door's edge,
   * x = 19 between y = 20 and 21. */
  h.avoided = crypt_door;
  CHECK_STATUS(rpgnav_world_set_door_state(world, crypt_door, RPGNAV_DOOR_OPEN), RPGNAV_OK);
  if (rpgnav_succeeded(rpgnav_plan(planner, &request, path))) {
    size_t n = points_of(path, points);
    for (i = 1; i < n; ++i) {
      double dx = (double)points[i].x - points[i - 1].x;
      if ((points[i - 1].x - 19.0) * (points[i].x - 19.0) < 0.0) {
        double y = points[i - 1].y + (points[i].y - points[i - 1].y) * (19.0 - points[i - 1].x) / dx;
        CHECK(!(y > 20.0 && y < 21.0));
      }
    }
  }
  h.avoided = 0;

  /* Bad requests: NaN, off the map, unknown mobility, into a wall. */
  request = rpgnav_path_request_default();
  request.start = vec((float)NAN, 1.0f);
  request.goal = vec(4.5f, 9.5f);
  CHECK_STATUS(rpgnav_plan(planner, &request, path), RPGNAV_INVALID_ARGUMENT);
  CHECK(strlen(rpgnav_last_error()) > 0 && strlen(rpgnav_path_reason(path)) > 0);
  request.start = vec(-5.0f, 9.5f);
  CHECK_STATUS(rpgnav_plan(planner, &request, path), RPGNAV_OUT_OF_BOUNDS);
  request.start = vec(4.5f, 9.5f);
  request.mobility = 7;
  CHECK_STATUS(rpgnav_plan(planner, &request, path), RPGNAV_INVALID_ARGUMENT);
  request.mobility = RPGNAV_WALK;
  request.goal = vec(0.5f, 0.5f);
  CHECK_STATUS(rpgnav_plan(planner, &request, path), RPGNAV_GOAL_BLOCKED);
  CHECK(rpgnav_path_control_points(path, points, 256) == 0);
  CHECK(rpgnav_path_length(path) == 0.0);
  request.goal = vec(4.5f, 9.5f);
  request.comfort = (float)NAN;
  CHECK_STATUS(rpgnav_plan(planner, &request, path), RPGNAV_INVALID_ARGUMENT);
  CHECK_STATUS(rpgnav_plan(NULL, &request, path), RPGNAV_INVALID_ARGUMENT);
  CHECK_STATUS(rpgnav_plan(planner, NULL, path), RPGNAV_INVALID_ARGUMENT);
  CHECK_STATUS(rpgnav_plan(planner, &request, NULL), RPGNAV_INVALID_ARGUMENT);

  CHECK_STATUS(rpgnav_world_set_door_policy(world, NULL, NULL), RPGNAV_OK);
  CHECK_STATUS(rpgnav_world_set_door_listener(world, NULL, NULL), RPGNAV_OK);
  rpgnav_path_destroy(path);
  rpgnav_planner_destroy(planner);
}

/* ---- a built map: tile edits, doors added and removed, an entity that blocks ---- */
static void built_map(void) {
  rpgnav_world* world = NULL;
  rpgnav_planner* planner = NULL;
  rpgnav_path* path = NULL;
  rpgnav_path_request request = rpgnav_path_request_default();
  rpgnav_vec2 points[256], centre;
  rpgnav_cell tile;
  rpgnav_entity guard;
  uint8_t wall = 0, floor = 0, terrain = 0, swim = 0;
  uint32_t door = 0, found = 0;
  size_t count, i;

  CHECK_STATUS(rpgnav_world_create(RPGNAV_SQUARE, 12, 7, 1.0f, &world), RPGNAV_OK);
  CHECK(rpgnav_world_width(world) == 12 && rpgnav_world_height(world) == 7);
  CHECK_STATUS(rpgnav_world_find_terrain(world, "wall", &wall), RPGNAV_OK);
  CHECK_STATUS(rpgnav_world_find_terrain(world, "floor", &floor), RPGNAV_OK);
  CHECK_STATUS(rpgnav_world_find_terrain(world, "lava", &terrain), RPGNAV_INVALID_ARGUMENT);
  CHECK_STATUS(rpgnav_world_find_mobility(world, "swim", &swim), RPGNAV_OK);
  CHECK(swim == RPGNAV_SWIM);
  CHECK_STATUS(rpgnav_world_tile_at(world, vec(3.7f, 2.2f), &tile), RPGNAV_OK);
  CHECK(tile.x == 3 && tile.y == 2);
  CHECK_STATUS(rpgnav_world_tile_at(world, vec(30.0f, 2.0f), &tile), RPGNAV_OUT_OF_BOUNDS);
  CHECK_STATUS(rpgnav_world_tile_centre(world, cell(3, 2), &centre), RPGNAV_OK);
  CHECK(centre.x == 3.5f && centre.y == 2.5f);

  CHECK_STATUS(rpgnav_planner_create(world, &planner), RPGNAV_OK);
  CHECK_STATUS(rpgnav_path_create(&path), RPGNAV_OK);
  request.start = vec(1.5f, 3.5f);
  request.goal = vec(10.5f, 3.5f);
  request.radius = 0.25f;
  CHECK_STATUS(rpgnav_plan(planner, &request, path), RPGNAV_OK);
  CHECK(rpgnav_path_control_points(path, points, 256) == 2); /* open floor: the straight line */
  CHECK(fabs(rpgnav_path_length(path) - 9.0) < 1e-5);

  /* A wall across the map: no way. */
  CHECK_STATUS(rpgnav_world_set_terrain_rect(world, cell(6, 0), cell(6, 6), wall), RPGNAV_OK);
  CHECK_STATUS(rpgnav_world_terrain_at(world, cell(6, 4), &terrain), RPGNAV_OK);
  CHECK(terrain == wall);
  CHECK_STATUS(rpgnav_plan(planner, &request, path), RPGNAV_NO_PATH);
  /* A gap at (6, 5): the path goes through it. */
  CHECK_STATUS(rpgnav_world_set_terrain(world, cell(6, 5), floor), RPGNAV_OK);
  CHECK_STATUS(rpgnav_plan(planner, &request, path), RPGNAV_OK);
  count = points_of(path, points);
  for (i = 1; i < count; ++i) {
    if ((points[i - 1].x - 6.5) * (points[i].x - 6.5) < 0.0) {
      double y = points[i - 1].y + (points[i].y - points[i - 1].y) * (6.5 - points[i - 1].x) / (points[i].x - points[i - 1].x);
      CHECK(y > 5.0 && y < 6.0);
    }
  }
  /* A closed door in the gap stops the path in front of it (the default policy). */
  CHECK_STATUS(rpgnav_world_add_door(world, cell(5, 5), cell(6, 5), RPGNAV_DOOR_CLOSED, "gate", &door), RPGNAV_OK);
  CHECK_STATUS(rpgnav_world_find_door(world, "gate", &found), RPGNAV_OK);
  CHECK(found == door);
  CHECK_STATUS(rpgnav_plan(planner, &request, path), RPGNAV_STOPPED_AT_DOOR);
  CHECK(rpgnav_path_door_stop(path, &found, &centre) == 1 && found == door && centre.x < 6.0f);
  /* The game's policy decides: Pass goes through the gate, Stop stops at it, Avoid finds no way. */
  {
    hooks h;
    memset(&h, 0, sizeof h);
    CHECK_STATUS(rpgnav_world_set_door_policy(world, action_policy, &h), RPGNAV_OK);
    h.action = RPGNAV_DOOR_PASS;
    CHECK_STATUS(rpgnav_plan(planner, &request, path), RPGNAV_OK);
    h.action = RPGNAV_DOOR_STOP;
    CHECK_STATUS(rpgnav_plan(planner, &request, path), RPGNAV_STOPPED_AT_DOOR);
    h.action = RPGNAV_DOOR_AVOID;
    CHECK_STATUS(rpgnav_plan(planner, &request, path), RPGNAV_NO_PATH);
    CHECK(h.policy_calls == 3);
    CHECK_STATUS(rpgnav_world_set_door_policy(world, NULL, NULL), RPGNAV_OK);
  }
  /* Locked, then taken away: the way is open again. */
  CHECK_STATUS(rpgnav_world_set_door_state(world, door, RPGNAV_DOOR_LOCKED), RPGNAV_OK);
  CHECK_STATUS(rpgnav_plan(planner, &request, path), RPGNAV_STOPPED_AT_DOOR);
  CHECK_STATUS(rpgnav_world_remove_door(world, door), RPGNAV_OK);
  CHECK_STATUS(rpgnav_world_remove_door(world, door), RPGNAV_INVALID_ARGUMENT);
  CHECK_STATUS(rpgnav_plan(planner, &request, path), RPGNAV_OK);
  /* A guard in the gap: nobody gets round it. */
  guard.id = 77;
  guard.position = vec(6.5f, 5.5f);
  guard.radius = 0.4f;
  guard.flags = RPGNAV_ENTITY_STATIC;
  CHECK_STATUS(rpgnav_world_add_entity(world, &guard), RPGNAV_OK);
  CHECK_STATUS(rpgnav_world_add_entity(world, &guard), RPGNAV_INVALID_ARGUMENT); /* taken id */
  guard.id = 0;
  CHECK_STATUS(rpgnav_world_add_entity(world, &guard), RPGNAV_INVALID_ARGUMENT); /* no id */
  guard.id = 78;
  guard.flags = 64u;
  CHECK_STATUS(rpgnav_world_add_entity(world, &guard), RPGNAV_INVALID_ARGUMENT); /* unknown flag */
  guard.id = 77;
  guard.flags = RPGNAV_ENTITY_STATIC;
  CHECK_STATUS(rpgnav_plan(planner, &request, path), RPGNAV_BLOCKED_BY_ENTITY);
  CHECK(rpgnav_path_blocker(path) == 77);
  /* A rug there is walked over. */
  CHECK_STATUS(rpgnav_world_remove_entity(world, 77), RPGNAV_OK);
  guard.flags = RPGNAV_ENTITY_FLAT;
  CHECK_STATUS(rpgnav_world_add_entity(world, &guard), RPGNAV_OK);
  CHECK_STATUS(rpgnav_plan(planner, &request, path), RPGNAV_OK);
  /* A barrel beside the way (moved there): the path keeps out of its space. */
  CHECK_STATUS(rpgnav_world_remove_entity(world, 77), RPGNAV_OK);
  CHECK_STATUS(rpgnav_world_remove_entity(world, 77), RPGNAV_INVALID_ARGUMENT);
  CHECK_STATUS(rpgnav_world_set_terrain_rect(world, cell(6, 0), cell(6, 6), floor), RPGNAV_OK);
  guard.flags = RPGNAV_ENTITY_STATIC;
  guard.position = vec(1.0f, 1.0f);
  CHECK_STATUS(rpgnav_world_add_entity(world, &guard), RPGNAV_OK);
  CHECK_STATUS(rpgnav_world_move_entity(world, 77, vec(6.0f, 3.5f)), RPGNAV_OK);
  CHECK_STATUS(rpgnav_plan(planner, &request, path), RPGNAV_OK);
  count = points_of(path, points);
  CHECK(count >= 3);
  for (i = 1; i < count; ++i) CHECK(segment_distance(vec(6.0f, 3.5f), points[i - 1], points[i]) >= 0.65 - 1e-4);
  CHECK_STATUS(rpgnav_world_move_entity(world, 77, vec((float)NAN, 3.5f)), RPGNAV_INVALID_ARGUMENT);
  CHECK_STATUS(rpgnav_world_move_entity(world, 78, vec(1.0f, 3.5f)), RPGNAV_INVALID_ARGUMENT);

  /* Bad edits. */
  CHECK_STATUS(rpgnav_world_set_terrain(world, cell(12, 0), wall), RPGNAV_OUT_OF_BOUNDS);
  CHECK_STATUS(rpgnav_world_set_terrain(world, cell(0, 0), 200), RPGNAV_INVALID_ARGUMENT);
  CHECK_STATUS(rpgnav_world_terrain_at(world, cell(-1, 0), &terrain), RPGNAV_OUT_OF_BOUNDS);
  CHECK_STATUS(rpgnav_world_add_door(world, cell(0, 0), cell(3, 3), RPGNAV_DOOR_OPEN, NULL, &door),
               RPGNAV_INVALID_ARGUMENT);
  CHECK_STATUS(rpgnav_world_add_door(world, cell(0, 0), cell(1, 0), (rpgnav_door_state)9, NULL, &door),
               RPGNAV_INVALID_ARGUMENT);
  CHECK_STATUS(rpgnav_world_set_door_state(world, 999, RPGNAV_DOOR_OPEN), RPGNAV_INVALID_ARGUMENT);
  CHECK_STATUS(rpgnav_world_find_door(world, "nowhere", &door), RPGNAV_INVALID_ARGUMENT);

  rpgnav_path_destroy(path);
  rpgnav_planner_destroy(planner);
  rpgnav_world_destroy(world);
}

/* ---- the scheduler: 100 characters on the dungeon ---- */
static void scheduler(rpgnav_world* world) {
  rpgnav_scheduler* s = NULL;
  rpgnav_character character;
  rpgnav_event events[512];
  rpgnav_path* path = NULL;
  rpgnav_vec2 points[256];
  int seen[101];
  uint32_t seed = 12345u;
  uint8_t floor = 0, terrain = 0;
  int added = 0, frame, i;
  size_t n, e, count;
  int64_t late;

  memset(seen, 0, sizeof seen);
  CHECK_STATUS(rpgnav_world_find_terrain(world, "floor", &floor), RPGNAV_OK);
  CHECK_STATUS(rpgnav_scheduler_create(world, &s), RPGNAV_OK);
  CHECK_STATUS(rpgnav_path_create(&path), RPGNAV_OK);
  memset(&character, 0, sizeof character);
  character.mobility = RPGNAV_WALK;
  character.radius = 0.3f;
  character.speed = 3.0f;
  character.goal = vec(33.5f, 9.5f); /* the great hall */
  while (added < 100) {
    rpgnav_cell tile;
    seed = seed * 1103515245u + 12345u;
    tile.x = (int32_t)((seed >> 8) % 56u);
    seed = seed * 1103515245u + 12345u;
    tile.y = (int32_t)((seed >> 8) % 42u);
    if (rpgnav_world_terrain_at(world, tile, &terrain) != RPGNAV_OK || terrain != floor) continue;
    CHECK_STATUS(rpgnav_world_tile_centre(world, tile, &character.position), RPGNAV_OK);
    character.id = (uint32_t)(1001 + added); /* above the map's entities (1, 2, ...) */
    CHECK_STATUS(rpgnav_scheduler_add(s, &character), RPGNAV_OK);
    ++added;
  }
  CHECK(rpgnav_scheduler_size(s) == 100);
  CHECK_STATUS(rpgnav_scheduler_add(s, &character), RPGNAV_INVALID_ARGUMENT); /* taken id */
  for (frame = 0; frame < 60; ++frame) {
    CHECK_STATUS(rpgnav_scheduler_update(s, frame / 30.0, 0.0, 20000), RPGNAV_OK);
    n = rpgnav_scheduler_events(s, NULL, 0);
    CHECK(n <= 512);
    CHECK(rpgnav_scheduler_events(s, events, 512) == n);
    for (e = 0; e < n && e < 512; ++e) {
      CHECK(events[e].character >= 1001 && events[e].character <= 1100);
      if (events[e].character >= 1001 && events[e].character <= 1100) seen[events[e].character - 1000] = 1;
      CHECK(events[e].kind <= RPGNAV_EVENT_GOAL_UNREACHABLE && events[e].reason <= 7);
      CHECK(fabs(events[e].time - frame / 30.0) < 1e-9);
      if (events[e].kind == RPGNAV_EVENT_STOPPED_AT_DOOR) CHECK(events[e].door != 0);
      if (events[e].kind == RPGNAV_EVENT_GOAL_UNREACHABLE) CHECK(!rpgnav_succeeded(events[e].status));
    }
  }
  for (i = 1; i <= 100; ++i) CHECK(seen[i]); /* everybody was planned within two seconds */
  /* A character's path: from where it stands, to the hall or to a door on the way. */
  for (i = 1; i <= 100; ++i) {
    if (rpgnav_scheduler_path(s, (uint32_t)(1000 + i), path) != RPGNAV_OK) {
      CHECK(rpgnav_path_status(path) == RPGNAV_NO_PATH && rpgnav_path_control_points(path, NULL, 0) == 0);
      continue;
    }
    count = points_of(path, points);
    CHECK(count >= 1);
    if (rpgnav_path_status(path) == RPGNAV_OK) CHECK(distance(points[count - 1], vec(33.5f, 9.5f)) < 1e-4);
  }
  CHECK_STATUS(rpgnav_scheduler_set_goal(s, 1001, vec(4.5f, 9.5f)), RPGNAV_OK);
  CHECK_STATUS(rpgnav_scheduler_set_goal(s, 1001, vec((float)NAN, 9.5f)), RPGNAV_INVALID_ARGUMENT);
  CHECK_STATUS(rpgnav_scheduler_set_position(s, 1001, vec(4.5f, 10.5f)), RPGNAV_OK);
  CHECK_STATUS(rpgnav_scheduler_update(s, 2.0, 0.0, 0), RPGNAV_OK);
  n = rpgnav_scheduler_events(s, events, 512);
  for (e = 0; e < n; ++e) if (events[e].character == 1001) CHECK(events[e].reason == 2); /* goal changed */
  CHECK_STATUS(rpgnav_scheduler_remove(s, 1001), RPGNAV_OK);
  CHECK_STATUS(rpgnav_scheduler_remove(s, 1001), RPGNAV_INVALID_ARGUMENT);
  CHECK_STATUS(rpgnav_scheduler_path(s, 1001, path), RPGNAV_INVALID_ARGUMENT);
  CHECK(rpgnav_scheduler_size(s) == 99);
  /* The cadence: one piece of work per update cannot keep 99 characters planned once a second. */
  late = rpgnav_scheduler_late_turns(s);
  CHECK(late >= 0);
  for (frame = 0; frame < 300; ++frame) CHECK_STATUS(rpgnav_scheduler_update(s, 3.0 + frame / 30.0, 0.0, 1), RPGNAV_OK);
  CHECK(rpgnav_scheduler_late_turns(s) > late);
  CHECK(rpgnav_scheduler_late_turns(NULL) == 0);
  CHECK_STATUS(rpgnav_scheduler_update(s, (double)NAN, 0.0, 0), RPGNAV_INVALID_ARGUMENT);
  character.id = 0;
  CHECK_STATUS(rpgnav_scheduler_add(s, &character), RPGNAV_INVALID_ARGUMENT);
  CHECK_STATUS(rpgnav_scheduler_add(NULL, &character), RPGNAV_INVALID_ARGUMENT);
  rpgnav_path_destroy(path);
  rpgnav_scheduler_destroy(s);
}

/* ---- crowd fields ---- */
static void fields(void) {
  rpgnav_world* world = NULL;
  rpgnav_field* field = NULL;
  rpgnav_field* refused = (rpgnav_field*)&failures; /* must be overwritten with NULL */
  rpgnav_cell goal = {15, 10}, moved = {16, 10};
  rpgnav_vec2 flow;
  double d = 0.0, here = 0.0, ahead = 0.0;
  uint8_t wall = 0;
  uint32_t door = 0;
  int x, y;

  CHECK_STATUS(rpgnav_world_create(RPGNAV_SQUARE, 20, 20, 1.0f, &world), RPGNAV_OK);
  CHECK_STATUS(rpgnav_world_find_terrain(world, "wall", &wall), RPGNAV_OK);
  CHECK_STATUS(rpgnav_field_create(world, RPGNAV_WALK, &goal, 1, &field), RPGNAV_OK);
  CHECK_STATUS(rpgnav_field_distance(field, goal, &d), RPGNAV_OK);
  CHECK(d == 0.0);
  CHECK_STATUS(rpgnav_field_distance(field, cell(5, 10), &d), RPGNAV_OK);
  CHECK(fabs(d - 10.0) < 1e-9);
  /* Following the flow leads downhill everywhere. */
  for (y = 0; y < 20; ++y) {
    for (x = 0; x < 20; ++x) {
      rpgnav_cell next;
      CHECK_STATUS(rpgnav_field_flow(field, vec(x + 0.5f, y + 0.5f), &flow), RPGNAV_OK);
      if (x == goal.x && y == goal.y) {
        CHECK(flow.x == 0.0f && flow.y == 0.0f);
        continue;
      }
      CHECK(fabs(hypot(flow.x, flow.y) - 1.0) < 1e-4);
      CHECK_STATUS(rpgnav_world_tile_at(world, vec(x + 0.5f + 0.9f * flow.x, y + 0.5f + 0.9f * flow.y), &next),
                   RPGNAV_OK);
      CHECK_STATUS(rpgnav_field_distance(field, cell(x, y), &here), RPGNAV_OK);
      CHECK_STATUS(rpgnav_field_distance(field, next, &ahead), RPGNAV_OK);
      CHECK(ahead < here);
    }
  }
  /* The goal moves: the same as a new field there. */
  CHECK_STATUS(rpgnav_field_move_goal(field, goal, moved), RPGNAV_OK);
  CHECK_STATUS(rpgnav_field_distance(field, moved, &d), RPGNAV_OK);
  CHECK(d == 0.0);
  CHECK_STATUS(rpgnav_field_distance(field, cell(5, 10), &d), RPGNAV_OK);
  CHECK(fabs(d - 11.0) < 1e-9);
  /* The goal walks east and back (tracked): the old routes and one step more, each distance within
   * twice the walk of the exact one; a refresh lands the exact field. */
  {
    int32_t tracking = 0, refreshing = 0;
    double travel = 0.0;
    int64_t visits = 0;
    CHECK_STATUS(rpgnav_field_track_goal(field, cell(17, 10)), RPGNAV_OK);
    CHECK_STATUS(rpgnav_field_tracking(field, &tracking, &refreshing, &travel), RPGNAV_OK);
    CHECK(tracking == 1 && refreshing == 0 && fabs(travel - 1.0) < 1e-9);
    CHECK_STATUS(rpgnav_field_distance(field, cell(5, 10), &d), RPGNAV_OK);
    CHECK(fabs(d - 12.0) < 1e-9);
    CHECK_STATUS(rpgnav_field_track_goal(field, moved), RPGNAV_OK);
    CHECK_STATUS(rpgnav_field_tracking(field, NULL, NULL, &travel), RPGNAV_OK);
    CHECK(fabs(travel - 2.0) < 1e-9);
    CHECK_STATUS(rpgnav_field_distance(field, cell(5, 10), &d), RPGNAV_OK);
    CHECK(d >= 11.0 - 1e-9 && d <= 11.0 + 2.0 * travel + 1e-9); /* within twice the walk of the exact 11 */
    CHECK_STATUS(rpgnav_field_refresh_tracking(field, 10, 0.0, &visits), RPGNAV_OK);
    CHECK(visits == 10);
    CHECK_STATUS(rpgnav_field_tracking(field, NULL, &refreshing, NULL), RPGNAV_OK);
    CHECK(refreshing == 1);
    CHECK_STATUS(rpgnav_field_refresh_tracking(field, 1 << 30, 0.0, NULL), RPGNAV_OK);
    CHECK_STATUS(rpgnav_field_tracking(field, &tracking, &refreshing, &travel), RPGNAV_OK);
    CHECK(tracking == 1 && refreshing == 0 && travel == 0.0);
    CHECK_STATUS(rpgnav_field_distance(field, cell(5, 10), &d), RPGNAV_OK);
    CHECK(fabs(d - 11.0) < 1e-9);
    CHECK_STATUS(rpgnav_field_track_goal(field, cell(20, 10)), RPGNAV_INVALID_ARGUMENT);
    CHECK_STATUS(rpgnav_field_track_goal(NULL, moved), RPGNAV_INVALID_ARGUMENT);
    CHECK_STATUS(rpgnav_field_refresh_tracking(field, 10, NAN, NULL), RPGNAV_INVALID_ARGUMENT);
    CHECK_STATUS(rpgnav_field_refresh_tracking(field, 10, -1.0, NULL), RPGNAV_INVALID_ARGUMENT);
    CHECK_STATUS(rpgnav_field_tracking(NULL, NULL, NULL, NULL), RPGNAV_INVALID_ARGUMENT);
  }
  /* A wall round the west part, synced: unreachable there; a closed door in it stays a wall,
   * an open one lets the field through. */
  CHECK_STATUS(rpgnav_world_set_terrain_rect(world, cell(8, 0), cell(8, 19), wall), RPGNAV_OK);
  CHECK_STATUS(rpgnav_field_sync(field), RPGNAV_OK);
  CHECK_STATUS(rpgnav_field_distance(field, cell(5, 10), &d), RPGNAV_OK);
  CHECK(d == -1.0);
  CHECK_STATUS(rpgnav_field_flow(field, vec(5.5f, 10.5f), &flow), RPGNAV_OK);
  CHECK(flow.x == 0.0f && flow.y == 0.0f);
  CHECK_STATUS(rpgnav_world_set_terrain(world, cell(8, 10), 0), RPGNAV_OK); /* floor is terrain 0 */
  CHECK_STATUS(rpgnav_world_add_door(world, cell(7, 10), cell(8, 10), RPGNAV_DOOR_CLOSED, "west", &door), RPGNAV_OK);
  CHECK_STATUS(rpgnav_field_sync(field), RPGNAV_OK);
  CHECK_STATUS(rpgnav_field_distance(field, cell(5, 10), &d), RPGNAV_OK);
  CHECK(d == -1.0);
  CHECK_STATUS(rpgnav_world_set_door_state(world, door, RPGNAV_DOOR_OPEN), RPGNAV_OK);
  CHECK_STATUS(rpgnav_field_sync(field), RPGNAV_OK);
  CHECK_STATUS(rpgnav_field_distance(field, cell(5, 10), &d), RPGNAV_OK);
  CHECK(fabs(d - 11.0) < 1e-9);
  CHECK_STATUS(rpgnav_field_set_goals(field, &goal, 1), RPGNAV_OK);
  CHECK_STATUS(rpgnav_field_distance(field, cell(5, 10), &d), RPGNAV_OK);
  CHECK(fabs(d - 10.0) < 1e-9);
  /* Bad input. */
  CHECK_STATUS(rpgnav_field_flow(field, vec(-3.0f, 1.0f), &flow), RPGNAV_OUT_OF_BOUNDS);
  CHECK_STATUS(rpgnav_field_flow(field, vec((float)NAN, 1.0f), &flow), RPGNAV_INVALID_ARGUMENT);
  CHECK_STATUS(rpgnav_field_distance(field, cell(20, 0), &d), RPGNAV_OUT_OF_BOUNDS);
  CHECK_STATUS(rpgnav_field_move_goal(field, goal, cell(-1, 0)), RPGNAV_INVALID_ARGUMENT);
  CHECK_STATUS(rpgnav_field_create(world, 9, &goal, 1, &refused), RPGNAV_INVALID_ARGUMENT);
  CHECK(refused == NULL);
  CHECK_STATUS(rpgnav_field_set_goals(NULL, &goal, 1), RPGNAV_INVALID_ARGUMENT);
  rpgnav_field_destroy(field);
  rpgnav_world_destroy(world);
}

static void bad_input(const char* dungeon) {
  rpgnav_world* world = (rpgnav_world*)&failures; /* must be overwritten with NULL on failure */
  static const char broken[] = "rpgmap 1\nlayout square\nsize 3\n";

  CHECK_STATUS(rpgnav_world_load("/no/such/file.rpgmap", &world), RPGNAV_IO_ERROR);
  CHECK(world == NULL);
  CHECK(strlen(rpgnav_last_error()) > 0);
  CHECK_STATUS(rpgnav_world_parse(broken, sizeof broken - 1, &world), RPGNAV_PARSE_ERROR);
  CHECK(world == NULL && strstr(rpgnav_last_error(), ":") != NULL); /* "file:line:column: ..." */
  CHECK_STATUS(rpgnav_world_parse(NULL, 5, &world), RPGNAV_INVALID_ARGUMENT);
  CHECK_STATUS(rpgnav_world_load(NULL, &world), RPGNAV_INVALID_ARGUMENT);
  CHECK_STATUS(rpgnav_world_load(dungeon, NULL), RPGNAV_INVALID_ARGUMENT);
  CHECK_STATUS(rpgnav_world_create(RPGNAV_SQUARE, 0, 5, 1.0f, &world), RPGNAV_INVALID_ARGUMENT);
  CHECK_STATUS(rpgnav_world_create(RPGNAV_SQUARE, 40000, 5, 1.0f, &world), RPGNAV_LIMIT_EXCEEDED);
  CHECK_STATUS(rpgnav_world_create(RPGNAV_SQUARE, 5, 5, (float)NAN, &world), RPGNAV_INVALID_ARGUMENT);
  CHECK_STATUS(rpgnav_world_create((rpgnav_layout)7, 5, 5, 1.0f, &world), RPGNAV_INVALID_ARGUMENT);
  CHECK_STATUS(rpgnav_planner_create(NULL, NULL), RPGNAV_INVALID_ARGUMENT);
  CHECK_STATUS(rpgnav_world_set_terrain(NULL, cell(0, 0), 0), RPGNAV_INVALID_ARGUMENT);
  CHECK(rpgnav_world_width(NULL) == 0);
  CHECK(rpgnav_path_status(NULL) == RPGNAV_INVALID_ARGUMENT && strlen(rpgnav_last_error()) > 0);
  CHECK(rpgnav_path_control_points(NULL, NULL, 0) == 0);
  CHECK(rpgnav_scheduler_events(NULL, NULL, 0) == 0);
  rpgnav_world_destroy(NULL);
  rpgnav_planner_destroy(NULL);
  rpgnav_path_destroy(NULL);
  rpgnav_scheduler_destroy(NULL);
  rpgnav_field_destroy(NULL);
  /* A success clears the message. */
  CHECK_STATUS(rpgnav_world_create(RPGNAV_HEX_POINTY, 5, 5, 1.0f, &world), RPGNAV_OK);
  CHECK(strcmp(rpgnav_last_error(), "") == 0);
  rpgnav_world_destroy(world);
  /* Names. */
  CHECK(strcmp(rpgnav_status_name(RPGNAV_STOPPED_AT_DOOR), "RPGNAV_STOPPED_AT_DOOR") == 0);
  CHECK(strcmp(rpgnav_status_name((rpgnav_status)99), "RPGNAV_UNKNOWN") == 0);
  CHECK(rpgnav_succeeded(RPGNAV_BLOCKED_BY_ENTITY) && !rpgnav_succeeded(RPGNAV_IN_PROGRESS));
  CHECK(rpgnav_version() >= 100);
}

/* Danger for characters and fields, the goal fallback and the designer settings: a meadow of
 * 12 x 5 with a den in the middle (columns 4-7, rows 1-3) and a wall tile to click on. */
static void danger_and_settings(void) {
  rpgnav_world* world = NULL;
  rpgnav_planner* planner = NULL;
  rpgnav_path* path = NULL;
  rpgnav_field* field = NULL;
  rpgnav_scheduler* crowd = NULL;
  rpgnav_path_request request = rpgnav_path_request_default();
  rpgnav_design_settings settings = rpgnav_design_settings_unset();
  rpgnav_danger_stamp stamp;
  rpgnav_character walker;
  rpgnav_event events[8];
  rpgnav_vec2 fallback, points[64];
  rpgnav_cell goal = {11, 2};
  uint8_t wall = 0, danger = 0;
  uint32_t stamp_id = 0, door = 0;
  double straight = 0.0, before = 0.0, after = 0.0;
  size_t count = 0, i;
  int x, y, round_den = 1;

  CHECK_STATUS(rpgnav_world_create(RPGNAV_SQUARE, 12, 5, 1.0f, &world), RPGNAV_OK);
  CHECK_STATUS(rpgnav_world_find_terrain(world, "wall", &wall), RPGNAV_OK);
  CHECK_STATUS(rpgnav_world_set_terrain(world, cell(11, 0), wall), RPGNAV_OK);
  for (y = 1; y <= 3; ++y) {
    for (x = 4; x <= 7; ++x) CHECK_STATUS(rpgnav_world_set_danger(world, 0, cell(x, y), 150), RPGNAV_OK);
  }
  CHECK_STATUS(rpgnav_world_danger(world, cell(5, 2), &danger), RPGNAV_OK);
  CHECK(danger == 150);
  CHECK(rpgnav_world_danger_factor(world) == 0);

  /* Without a factor the walker crosses the den; with the world's factor it goes round. */
  CHECK_STATUS(rpgnav_planner_create(world, &planner), RPGNAV_OK);
  CHECK_STATUS(rpgnav_path_create(&path), RPGNAV_OK);
  request.start = vec(0.5f, 2.5f);
  request.goal = vec(11.5f, 2.5f);
  request.radius = 0.2f;
  CHECK_STATUS(rpgnav_plan(planner, &request, path), RPGNAV_OK);
  straight = rpgnav_path_cost(path);
  CHECK(fabs(rpgnav_path_length(path) - 11.0) < 1e-4);
  CHECK_STATUS(rpgnav_world_set_danger_factor(world, 128), RPGNAV_OK);
  CHECK(rpgnav_world_danger_factor(world) == 128);
  CHECK_STATUS(rpgnav_plan(planner, &request, path), RPGNAV_OK);
  count = rpgnav_path_control_points(path, points, 64);
  for (i = 0; i < count && i < 64; ++i) {
    if (points[i].x > 4.0f && points[i].x < 8.0f && points[i].y > 1.0f && points[i].y < 4.0f) round_den = 0;
  }
  CHECK(count > 2 && round_den);
  CHECK(rpgnav_path_length(path) > 11.5);
  /* The request's own factor 0 crosses it again. */
  request.has_danger_factor = 1;
  request.danger_factor = 0;
  CHECK_STATUS(rpgnav_plan(planner, &request, path), RPGNAV_OK);
  CHECK(rpgnav_path_cost(path) == straight);
  request.has_danger_factor = 0;

  /* A stamp on the start's row raises the cost there; removed, it is gone. */
  stamp.centre = vec(2.5f, 2.5f);
  stamp.radius = 1.0f;
  stamp.peak = 90;
  stamp.falloff = 0.0f;
  CHECK_STATUS(rpgnav_world_add_danger_stamp(world, &stamp, &stamp_id), RPGNAV_OK);
  CHECK_STATUS(rpgnav_world_danger(world, cell(2, 2), &danger), RPGNAV_OK);
  CHECK(danger == 90);
  CHECK_STATUS(rpgnav_world_remove_danger_stamp(world, stamp_id), RPGNAV_OK);
  CHECK_STATUS(rpgnav_world_remove_danger_stamp(world, stamp_id), RPGNAV_INVALID_ARGUMENT);
  CHECK_STATUS(rpgnav_world_danger(world, cell(2, 2), &danger), RPGNAV_OK);
  CHECK(danger == 0);

  /* A click on the wall tile: refused without the fallback, the nearest tile with it. */
  request.goal = vec(11.5f, 0.5f);
  CHECK_STATUS(rpgnav_plan(planner, &request, path), RPGNAV_GOAL_BLOCKED);
  CHECK(rpgnav_path_fallback_goal(path, &fallback) == 0);
  request.goal_fallback = 1;
  CHECK_STATUS(rpgnav_plan(planner, &request, path), RPGNAV_PARTIAL_PATH);
  CHECK(rpgnav_path_fallback_goal(path, &fallback) == 1);
  CHECK((fallback.x == 10.5f && fallback.y == 0.5f) || (fallback.x == 11.5f && fallback.y == 1.5f));
  CHECK(rpgnav_path_fallback_goal(NULL, &fallback) == 0);

  /* The designer's settings: comfort 0 pulls a path round the wall tile's corner taut. */
  CHECK_STATUS(rpgnav_world_design_settings(world, &settings), RPGNAV_OK);
  CHECK(settings.comfort < 0.0f && settings.replan_interval < 0.0f);
  request.start = vec(10.5f, 0.5f);
  request.goal = vec(11.5f, 1.5f);
  request.goal_fallback = 0;
  CHECK_STATUS(rpgnav_plan(planner, &request, path), RPGNAV_OK);
  before = rpgnav_path_length(path);
  settings.comfort = 0.0f;
  settings.replan_interval = 2.0f;
  CHECK_STATUS(rpgnav_world_set_design_settings(world, &settings), RPGNAV_OK);
  CHECK_STATUS(rpgnav_plan(planner, &request, path), RPGNAV_OK);
  after = rpgnav_path_length(path);
  CHECK(after < before);
  settings.stickiness = 3.0f;
  CHECK_STATUS(rpgnav_world_set_design_settings(world, &settings), RPGNAV_INVALID_ARGUMENT);
  CHECK_STATUS(rpgnav_world_design_settings(world, &settings), RPGNAV_OK);
  CHECK(settings.comfort == 0.0f && settings.replan_interval == 2.0f && settings.stickiness < 0.0f);

  /* A scheduled character with the fallback, heading for the wall tile. */
  CHECK_STATUS(rpgnav_scheduler_create(world, &crowd), RPGNAV_OK);
  memset(&walker, 0, sizeof walker);
  walker.id = 500;
  walker.mobility = RPGNAV_WALK;
  walker.radius = 0.2f;
  walker.speed = 2.0f;
  walker.position = vec(0.5f, 4.5f);
  walker.goal = vec(11.5f, 0.5f);
  walker.goal_fallback = 1;
  walker.has_danger_factor = 1;
  walker.danger_factor = 0;
  CHECK_STATUS(rpgnav_scheduler_add(crowd, &walker), RPGNAV_OK);
  CHECK_STATUS(rpgnav_scheduler_update(crowd, 0.0, 0.0, 0), RPGNAV_OK);
  CHECK(rpgnav_scheduler_events(crowd, events, 8) == 1);
  CHECK(events[0].kind == RPGNAV_EVENT_NEW_PATH && events[0].status == RPGNAV_PARTIAL_PATH);
  rpgnav_scheduler_destroy(crowd);

  /* A field: the world's factor at creation, its own danger, stamps and door bashing after. */
  CHECK_STATUS(rpgnav_world_add_door(world, cell(9, 2), cell(10, 2), RPGNAV_DOOR_CLOSED, "gate", &door), RPGNAV_OK);
  CHECK_STATUS(rpgnav_field_create(world, RPGNAV_WALK, &goal, 1, &field), RPGNAV_OK);
  /* A band of danger across the map (column 5) that every way to the goal crosses: dearer. */
  CHECK_STATUS(rpgnav_field_set_danger_factor(field, 200), RPGNAV_OK);
  CHECK_STATUS(rpgnav_field_distance(field, cell(3, 2), &before), RPGNAV_OK);
  for (y = 0; y < 5; ++y) CHECK_STATUS(rpgnav_field_set_danger(field, 1, cell(5, y), 255), RPGNAV_OK);
  CHECK_STATUS(rpgnav_field_distance(field, cell(3, 2), &after), RPGNAV_OK);
  CHECK(after > before + 10.0);
  CHECK_STATUS(rpgnav_field_add_danger_stamp(field, &stamp, &stamp_id), RPGNAV_OK);
  CHECK_STATUS(rpgnav_field_remove_danger_stamp(field, stamp_id), RPGNAV_OK);
  CHECK_STATUS(rpgnav_field_set_door_costs(field, 0.0f, -1.0f), RPGNAV_OK);
  CHECK_STATUS(rpgnav_field_set_door_costs(field, 2000.0f, -1.0f), RPGNAV_INVALID_ARGUMENT);
  CHECK_STATUS(rpgnav_field_set_danger(field, 9, cell(0, 0), 1), RPGNAV_INVALID_ARGUMENT);
  rpgnav_field_destroy(field);

  rpgnav_path_destroy(path);
  rpgnav_planner_destroy(planner);
  rpgnav_world_destroy(world);
}

int main(int argc, char** argv) {
  rpgnav_world* world = NULL;
  if (argc != 2) {
    fprintf(stderr, "usage: %s PATH/TO/dungeon.rpgmap\n", argv[0]);
    return 2;
  }
  CHECK_STATUS(rpgnav_world_load(argv[1], &world), RPGNAV_OK);
  if (world == NULL) return 1;
  CHECK(rpgnav_world_width(world) == 56 && rpgnav_world_height(world) == 42);
  dungeon_route(world);
  scheduler(world);
  rpgnav_world_destroy(world);
  built_map();
  fields();
  danger_and_settings();
  bad_input(argv[1]);
  if (failures != 0) {
    fprintf(stderr, "%d checks failed\n", failures);
    return 1;
  }
  printf("c_api: all checks passed\n");
  return 0;
}
