/* SPDX-License-Identifier: MIT */
/**
 * @file
 * rpgnav's C API (C99): for engines and languages that call C — Godot's GDExtension, Rust, Zig,
 * C# through P/Invoke (include/rpgnav/Rpgnav.cs wraps this file). It covers maps, tile and door
 * edits, entities, the door hooks, character paths, the replan scheduler and crowd fields.
 *
 * Conventions:
 * - Handles are opaque pointers, made by a `_create` or `_load` function and freed by the
 *   matching `_destroy` (which accepts NULL). A world must outlive every planner, scheduler and
 *   field made on it.
 * - Functions that can fail return an rpgnav_status; RPGNAV_OK (and the other successes, see
 *   rpgnav_succeeded) means done. On failure rpgnav_last_error() tells why, in words.
 * - Nothing is thrown across this API and nothing aborts on bad input: a NULL handle or pointer,
 *   a NaN or off-map point, an unknown id gives a status and a message.
 * - Strings (paths, names, messages) are UTF-8, ending in a NUL.
 * - Units: world units (a tile is 1 unless the map says otherwise); cells are tile columns and
 *   rows (y grows downwards). Ids: entities and characters are the game's own non-zero numbers;
 *   doors are numbered by rpgnav from 1.
 * - Threads: a world may be read by any number of planners on any threads at once while nobody
 *   edits it (edits, entity moves and hook changes between frames); each planner, path, scheduler
 *   and field is used by one thread at a time. The door hooks are called on the thread that
 *   plans, possibly from several threads at once when several planners run (see below).
 */
#ifndef RPGNAV_H
#define RPGNAV_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(RPGNAV_BUILDING_SHARED)
#define RPGNAV_C_API __declspec(dllexport)
#elif defined(RPGNAV_SHARED)
#define RPGNAV_C_API __declspec(dllimport)
#else
#define RPGNAV_C_API
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define RPGNAV_C_API __attribute__((visibility("default")))
#else
#define RPGNAV_C_API
#endif

/* Enumerations are int-sized in C; in C++ they get a fixed type, so that any number a caller
   passes (a bad one is refused with a status) is a valid value of it. */
#ifdef __cplusplus
#define RPGNAV_ENUM(name) enum name : int32_t
#else
#define RPGNAV_ENUM(name) enum name
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Basics ---------------------------------------------------------------------------- */

/** Outcome of a call. The numbers are fixed: bindings may rely on them. */
typedef RPGNAV_ENUM(rpgnav_status) {
  RPGNAV_OK = 0,                /**< Done as asked. */
  RPGNAV_PARTIAL_PATH = 1,      /**< Success: the result leads towards, not to, the goal. */
  RPGNAV_IN_PROGRESS = 2,       /**< A sliced operation needs more calls. */
  RPGNAV_NO_PATH = 3,           /**< The goal cannot be reached from the start. */
  RPGNAV_START_BLOCKED = 4,     /**< The start cannot be stood on by this character. */
  RPGNAV_GOAL_BLOCKED = 5,      /**< The goal cannot be stood on by this character. */
  RPGNAV_OUT_OF_BOUNDS = 6,     /**< A point or tile lies outside the map. */
  RPGNAV_INVALID_ARGUMENT = 7,  /**< A parameter is malformed (NULL, NaN, unknown id...). */
  RPGNAV_PARSE_ERROR = 8,       /**< A map text did not follow its format. */
  RPGNAV_IO_ERROR = 9,          /**< A file could not be opened or read. */
  RPGNAV_STOPPED_AT_DOOR = 10,  /**< Success: the path ends in front of a door that stops it. */
  RPGNAV_BLOCKED_BY_ENTITY = 11, /**< Success: the path ends in front of an entity it cannot pass. */
  RPGNAV_LIMIT_EXCEEDED = 12,   /**< Refused: a fixed limit (map size, counts) would be passed. */
  RPGNAV_OUT_OF_MEMORY = 13,    /**< Memory ran out; the object is valid, its contents unspecified. */
  RPGNAV_INTERNAL_ERROR = 14    /**< A bug in rpgnav (please report the message). */
} rpgnav_status;

/** "RPGNAV_OK", "RPGNAV_NO_PATH", ...; "RPGNAV_UNKNOWN" for a number that is no status. */
RPGNAV_C_API const char* rpgnav_status_name(rpgnav_status status);
/** 1 for OK, PARTIAL_PATH, STOPPED_AT_DOOR and BLOCKED_BY_ENTITY (there is a path to walk). */
RPGNAV_C_API int rpgnav_succeeded(rpgnav_status status);
/** Why the last failed call on this thread failed; "" after a success. Valid until the next
 *  rpgnav call on this thread. */
RPGNAV_C_API const char* rpgnav_last_error(void);
/** The library's version, major * 10000 + minor * 100 + patch. */
RPGNAV_C_API uint32_t rpgnav_version(void);

typedef struct rpgnav_vec2 {
  float x, y;
} rpgnav_vec2;

typedef struct rpgnav_cell {
  int32_t x, y;
} rpgnav_cell;

/** The library's fixed limits (the same as rpgnav/core/limits.hpp): a call that would pass one
 *  is refused with LIMIT_EXCEEDED or INVALID_ARGUMENT. */
#define RPGNAV_MAX_MAP_SIDE 32768            /**< tiles per side */
#define RPGNAV_MAX_MAP_TILES 67108864        /**< tiles per map (2^26) */
#define RPGNAV_MAX_MOBILITIES 8
#define RPGNAV_MAX_TERRAINS 255
#define RPGNAV_MIN_SEARCH_COST (1.0f / 1024.0f) /**< a passable tile's cost is clamped to this range */
#define RPGNAV_MAX_SEARCH_COST 1000.0f
#define RPGNAV_MAX_DANGER_LAYERS 8
#define RPGNAV_MAX_ENTITIES 1048576          /**< per world (2^20) */
#define RPGNAV_MAX_DOORS 1048576             /**< per world (2^20) */
#define RPGNAV_MAX_CHARACTERS 1048576        /**< per scheduler (2^20) */
#define RPGNAV_MAX_DOOR_COST 1000.0f
#define RPGNAV_MAX_RADIUS_TILES 3.0f         /**< a character's radius, in tiles */

/* ---- Worlds: a map, its doors and entities --------------------------------------------- */

typedef struct rpgnav_world rpgnav_world;

typedef RPGNAV_ENUM(rpgnav_layout) { RPGNAV_SQUARE = 0, RPGNAV_HEX_POINTY = 1, RPGNAV_HEX_FLAT = 2 } rpgnav_layout;

/** The built-in mobilities; maps may name more (rpgnav_world_find_mobility). */
#define RPGNAV_WALK 0
#define RPGNAV_SWIM 1
#define RPGNAV_FLY 2

/** Loads a map file (.rpgmap, Moving AI .map, Tiled .tmx/.tmj) with its doors and entities. */
RPGNAV_C_API rpgnav_status rpgnav_world_load(const char* path, rpgnav_world** out);
/** Reads a map from .rpgmap text (`length` bytes; need not end in a NUL). */
RPGNAV_C_API rpgnav_status rpgnav_world_parse(const char* text, size_t length, rpgnav_world** out);
/** Builds an empty map: every tile "floor" (cost 1 for walking and flying), and the terrains
 *  "wall" (nobody enters) and "water" (swim 1, fly 1) to paint with. Square maps have 8
 *  neighbours per tile; `tile_size` is a tile's width in world units. */
RPGNAV_C_API rpgnav_status rpgnav_world_create(rpgnav_layout layout, int32_t width, int32_t height, float tile_size,
                                               rpgnav_world** out);
RPGNAV_C_API void rpgnav_world_destroy(rpgnav_world* world);

RPGNAV_C_API int32_t rpgnav_world_width(const rpgnav_world* world);
RPGNAV_C_API int32_t rpgnav_world_height(const rpgnav_world* world);
/** A terrain's number by name (as the map file names it). */
RPGNAV_C_API rpgnav_status rpgnav_world_find_terrain(const rpgnav_world* world, const char* name, uint8_t* terrain);
/** A mobility's number by name ("walk", "swim", "fly", or one the map adds). */
RPGNAV_C_API rpgnav_status rpgnav_world_find_mobility(const rpgnav_world* world, const char* name, uint8_t* mobility);
RPGNAV_C_API rpgnav_status rpgnav_world_terrain_at(const rpgnav_world* world, rpgnav_cell cell, uint8_t* terrain);
/** The tile a world point lies in (OUT_OF_BOUNDS off the map), and a tile's centre. */
RPGNAV_C_API rpgnav_status rpgnav_world_tile_at(const rpgnav_world* world, rpgnav_vec2 point, rpgnav_cell* cell);
RPGNAV_C_API rpgnav_status rpgnav_world_tile_centre(const rpgnav_world* world, rpgnav_cell cell, rpgnav_vec2* centre);

/** Tile edits (a wall smashed, a bridge burnt): planners, schedulers and fields made on the world
 *  catch up on their next use (fields: rpgnav_field_sync). The rectangle is inclusive. */
RPGNAV_C_API rpgnav_status rpgnav_world_set_terrain(rpgnav_world* world, rpgnav_cell cell, uint8_t terrain);
RPGNAV_C_API rpgnav_status rpgnav_world_set_terrain_rect(rpgnav_world* world, rpgnav_cell low, rpgnav_cell high,
                                                         uint8_t terrain);

/* Doors, on the edge between two neighbouring tiles. */
typedef RPGNAV_ENUM(rpgnav_door_state) { RPGNAV_DOOR_OPEN = 0, RPGNAV_DOOR_CLOSED = 1, RPGNAV_DOOR_LOCKED = 2 } rpgnav_door_state;

/** Adds a door (`name` may be NULL or ""); its id in `door`. */
RPGNAV_C_API rpgnav_status rpgnav_world_add_door(rpgnav_world* world, rpgnav_cell a, rpgnav_cell b,
                                                 rpgnav_door_state state, const char* name, uint32_t* door);
/** The door of that name (from the map file, or given to add_door) that is in place. */
RPGNAV_C_API rpgnav_status rpgnav_world_find_door(const rpgnav_world* world, const char* name, uint32_t* door);
RPGNAV_C_API rpgnav_status rpgnav_world_set_door_state(rpgnav_world* world, uint32_t door, rpgnav_door_state state);
RPGNAV_C_API rpgnav_status rpgnav_world_door_state(const rpgnav_world* world, uint32_t door, rpgnav_door_state* state);
/** Takes a door away (smashed, bricked up): its edge is free and open from now on. */
RPGNAV_C_API rpgnav_status rpgnav_world_remove_door(rpgnav_world* world, uint32_t door);

/* Entities: things with a personal space paths keep out of. */
#define RPGNAV_ENTITY_FLAT 1u   /**< rugs, corpses: walked over, never an obstacle */
#define RPGNAV_ENTITY_STATIC 2u /**< furniture */
#define RPGNAV_ENTITY_MOVING 4u /**< characters and monsters */

/* A map file's entities (furniture) take the ids 1, 2, ... in file order: give the game's own
   entities and characters ids above them (1000 and up, say). A character is never an obstacle to
   itself, nor is an entity of the same id. */
typedef struct rpgnav_entity {
  uint32_t id; /**< the game's own, non-zero, unique in the world */
  rpgnav_vec2 position;
  float radius; /**< world units, >= 0 */
  uint32_t flags; /**< RPGNAV_ENTITY_* (others are refused) */
} rpgnav_entity;

RPGNAV_C_API rpgnav_status rpgnav_world_add_entity(rpgnav_world* world, const rpgnav_entity* entity);
RPGNAV_C_API rpgnav_status rpgnav_world_move_entity(rpgnav_world* world, uint32_t id, rpgnav_vec2 position);
RPGNAV_C_API rpgnav_status rpgnav_world_remove_entity(rpgnav_world* world, uint32_t id);

/* ---- Danger and the designer's settings ------------------------------------------------ */

/** A disc of danger round a point (a turret's range, a fire): `peak` (0-255) at the centre,
 *  falling off linearly to peak × (1 - falloff) at `radius` (world units); falloff 0 is a flat
 *  disc, 1 fades to 0 at the edge. */
typedef struct rpgnav_danger_stamp {
  rpgnav_vec2 centre;
  float radius;
  uint8_t peak;
  float falloff; /**< [0, 1] */
} rpgnav_danger_stamp;

/* The world's danger, for characters that weigh it (a map file's [danger NAME] layers are layers
   0, 1, ...): up to 8 layers of one value 0-255 per tile and stamps, added up and clamped to 255.
   Planners and schedulers catch up on their next plan. A plan weighs danger with its factor
   (rpgnav_path_request, rpgnav_character), or else the world's (the map's danger-factor). */
RPGNAV_C_API rpgnav_status rpgnav_world_set_danger(rpgnav_world* world, int32_t layer, rpgnav_cell cell, uint8_t danger);
/** A tile's danger: every layer and stamp added up, clamped to 255. */
RPGNAV_C_API rpgnav_status rpgnav_world_danger(const rpgnav_world* world, rpgnav_cell cell, uint8_t* danger);
RPGNAV_C_API rpgnav_status rpgnav_world_add_danger_stamp(rpgnav_world* world, const rpgnav_danger_stamp* stamp,
                                                         uint32_t* id);
RPGNAV_C_API rpgnav_status rpgnav_world_remove_danger_stamp(rpgnav_world* world, uint32_t id);
/** The designer's danger factor: 0 ignores danger, 255 all but ignores distance. */
RPGNAV_C_API rpgnav_status rpgnav_world_set_danger_factor(rpgnav_world* world, uint8_t factor);
RPGNAV_C_API uint8_t rpgnav_world_danger_factor(const rpgnav_world* world);

/** What a designer tunes per map (an .rpgmap's [settings], Tiled map properties; a loaded map
 *  brings its own): planners and schedulers on the world use them in place of the library's
 *  defaults, and a request's own comfort still wins. Each value < 0 is unset (the default);
 *  limits: comfort and smoothing 0-8 tiles, detour_margin 0-2 tiles, door costs 0-1000 tile
 *  steps, replan_interval over 0 up to 60 seconds, stickiness 0-1. */
typedef struct rpgnav_design_settings {
  float comfort;          /**< tiles kept from walls beyond the radius where there is room (0.25) */
  float smoothing;        /**< how far the curve may stray from the control polyline (0.5) */
  float detour_margin;    /**< the gap round other entities beyond the two radii (0.02) */
  float door_cost_open;   /**< the default door rule's costs of passing a door (0, 2, 4) */
  float door_cost_closed;
  float door_cost_locked;
  float replan_interval;  /**< seconds between a character's periodic replans (1) */
  float stickiness;       /**< a replan replaces a valid path only when cheaper by this (0.1) */
} rpgnav_design_settings;

/** Every setting unset (-1). */
RPGNAV_C_API rpgnav_design_settings rpgnav_design_settings_unset(void);
RPGNAV_C_API rpgnav_status rpgnav_world_design_settings(const rpgnav_world* world, rpgnav_design_settings* out);
/** INVALID_ARGUMENT (and the settings kept) for a value outside its limits. */
RPGNAV_C_API rpgnav_status rpgnav_world_set_design_settings(rpgnav_world* world, const rpgnav_design_settings* settings);

/* ---- Door hooks ------------------------------------------------------------------------ */

typedef RPGNAV_ENUM(rpgnav_door_action) {
  RPGNAV_DOOR_PASS = 0,  /**< plan through it */
  RPGNAV_DOOR_STOP = 1,  /**< plan through it, but the path ends in front of it */
  RPGNAV_DOOR_AVOID = 2  /**< treat it as a wall */
} rpgnav_door_action;

/** A door as the hooks see it; the strings live as long as the call. */
typedef struct rpgnav_door_info {
  uint32_t id;
  const char* name;
  const char* key; /**< the key that unlocks it, "" for none */
  rpgnav_cell a, b;
  rpgnav_door_state state;
} rpgnav_door_info;

/** Who is asking: the request's character (0: none), mobility and radius. */
typedef struct rpgnav_traveller {
  uint32_t character;
  uint8_t mobility;
  float radius;
} rpgnav_traveller;

/** The game's rule for doors, asked at most once per door and plan, for every door the search
 *  reaches. Returns the action; `*cost` (preset to 0) is the extra cost of going through, in tile
 *  steps [0, 1000]. Called on the thread that plans, during rpgnav_plan and
 *  rpgnav_scheduler_update; several planners on several threads may call it at once. It must
 *  not edit the world. */
typedef rpgnav_door_action (*rpgnav_door_policy_fn)(void* user, const rpgnav_door_info* door,
                                                    const rpgnav_traveller* traveller, float* cost);
/** Told when a plan ends in front of a door: once per rpgnav_plan that stops there, and for a
 *  scheduled character once each time the door it waits at changes (not at every replan), during
 *  rpgnav_scheduler_update. Same thread rules as the policy; it must not edit the world during the
 *  call (do it afterwards). */
typedef void (*rpgnav_door_stop_fn)(void* user, uint32_t character, uint32_t door, rpgnav_vec2 point);

/** Replaces the door policy (NULL: the default — open doors pass, closed ones stop at a cost of
 *  2 steps, locked ones at 4). `user` is passed back to every call. */
RPGNAV_C_API rpgnav_status rpgnav_world_set_door_policy(rpgnav_world* world, rpgnav_door_policy_fn policy, void* user);
RPGNAV_C_API rpgnav_status rpgnav_world_set_door_listener(rpgnav_world* world, rpgnav_door_stop_fn listener,
                                                          void* user);

/* ---- Character paths ------------------------------------------------------------------- */

typedef struct rpgnav_planner rpgnav_planner;
typedef struct rpgnav_path rpgnav_path;

typedef struct rpgnav_path_request {
  rpgnav_vec2 start;
  rpgnav_vec2 goal;
  uint8_t mobility;   /**< RPGNAV_WALK, ... */
  float radius;       /**< the character's radius, world units [0, 3 tiles] */
  uint32_t character; /**< the character planned for (never an obstacle to itself); 0: none */
  float comfort;      /**< extra distance kept from walls where there is room; < 0: the default */
  uint8_t has_danger_factor; /**< 1: weigh danger with danger_factor; 0: with the world's */
  uint8_t danger_factor;     /**< 0 ignores danger, 255 all but ignores distance */
  uint8_t goal_fallback;     /**< 1: a goal it cannot stand on or reach leads to the nearest
                                  reachable tile's centre (status PARTIAL_PATH; see
                                  rpgnav_path_fallback_goal) */
} rpgnav_path_request;

/** A request with the defaults: walking, radius 0, no character, default comfort, the world's
 *  danger factor, no goal fallback. */
RPGNAV_C_API rpgnav_path_request rpgnav_path_request_default(void);

/** A planner on a world (it keeps navigation data of its own, brought up to date after edits at
 *  the start of a plan). One per thread; it allocates nothing once warm. */
RPGNAV_C_API rpgnav_status rpgnav_planner_create(const rpgnav_world* world, rpgnav_planner** out);
RPGNAV_C_API void rpgnav_planner_destroy(rpgnav_planner* planner);

/** Which search a planner's stage 2 runs (rpgnav::SearchMode): the tile search (jump points on
 *  square maps, the cheapest), Theta*-like any-angle, or the exact any-angle search (the default). */
typedef RPGNAV_ENUM(rpgnav_search_mode) {
  RPGNAV_SEARCH_TILES = 0,
  RPGNAV_SEARCH_ANY_ANGLE = 1,
  RPGNAV_SEARCH_EXACT_ANY_ANGLE = 2
} rpgnav_search_mode;
/** Sets the planner's search for its next plans; INVALID_ARGUMENT for NULL or an unknown mode. */
RPGNAV_C_API rpgnav_status rpgnav_planner_set_search_mode(rpgnav_planner* planner, rpgnav_search_mode mode);
/** The planner's search (RPGNAV_SEARCH_EXACT_ANY_ANGLE for NULL: the default). */
RPGNAV_C_API rpgnav_search_mode rpgnav_planner_search_mode(const rpgnav_planner* planner);

/** A path result, reused from plan to plan (it keeps its memory). */
RPGNAV_C_API rpgnav_status rpgnav_path_create(rpgnav_path** out);
RPGNAV_C_API void rpgnav_path_destroy(rpgnav_path* path);

/** Plans a path into `out`; the status is also rpgnav_path_status(out). */
RPGNAV_C_API rpgnav_status rpgnav_plan(rpgnav_planner* planner, const rpgnav_path_request* request, rpgnav_path* out);

RPGNAV_C_API rpgnav_status rpgnav_path_status(const rpgnav_path* path);
/** Why a plan failed or stopped short, in words ("" when it did not); owned by the path. */
RPGNAV_C_API const char* rpgnav_path_reason(const rpgnav_path* path);
/** Copies up to `capacity` control points (the final polyline, start to goal) into `points`
 *  (which may be NULL when `capacity` is 0); returns how many there are. */
RPGNAV_C_API size_t rpgnav_path_control_points(const rpgnav_path* path, rpgnav_vec2* points, size_t capacity);
/** The smoothed curve sampled every `spacing` world units (> 0), start and end included: copies up
 *  to `capacity` points, returns how many there are (0 for a failed plan, or a spacing that is not
 *  positive or would give more than 10 million points). */
RPGNAV_C_API size_t rpgnav_path_smoothed_points(rpgnav_path* path, float spacing, rpgnav_vec2* points,
                                                size_t capacity);
/** 1 when the path ends in front of a door (its id and the stop point are written), else 0. */
RPGNAV_C_API int rpgnav_path_door_stop(const rpgnav_path* path, uint32_t* door, rpgnav_vec2* point);
/** 1 when the plan went to the nearest reachable tile instead of the asked goal (goal_fallback):
 *  the point it went to is written; else 0. */
RPGNAV_C_API int rpgnav_path_fallback_goal(const rpgnav_path* path, rpgnav_vec2* point);
/** The entity the path stops in front of (status BLOCKED_BY_ENTITY), else 0. */
RPGNAV_C_API uint32_t rpgnav_path_blocker(const rpgnav_path* path);
/** The control points' length and weighted cost (0 for a failed plan). */
RPGNAV_C_API double rpgnav_path_length(const rpgnav_path* path);
RPGNAV_C_API double rpgnav_path_cost(const rpgnav_path* path);

/* ---- The replan scheduler: many characters, a flat cost per frame ---------------------- */

typedef struct rpgnav_scheduler rpgnav_scheduler;

typedef struct rpgnav_character {
  uint32_t id; /**< non-zero, unique in the scheduler */
  uint8_t mobility;
  float radius;
  float speed; /**< world units per second, > 0 */
  rpgnav_vec2 position;
  rpgnav_vec2 goal;
  uint32_t follow; /**< non-zero: follow this entity or character instead of going to `goal` */
  uint8_t has_danger_factor; /**< 1: its plans weigh danger with danger_factor; 0: the world's */
  uint8_t danger_factor;
  uint8_t goal_fallback; /**< 1: a goal it cannot reach leads to the nearest reachable tile */
} rpgnav_character;

typedef RPGNAV_ENUM(rpgnav_event_kind) {
  RPGNAV_EVENT_NEW_PATH = 0,          /**< a path to the goal was accepted */
  RPGNAV_EVENT_STOPPED_AT_DOOR = 1,   /**< the accepted path ends in front of `door` */
  RPGNAV_EVENT_BLOCKED_BY_ENTITY = 2, /**< the accepted path ends in front of `blocker` */
  RPGNAV_EVENT_GOAL_UNREACHABLE = 3   /**< planning failed (see `status`) */
} rpgnav_event_kind;

typedef struct rpgnav_event {
  uint32_t character;
  rpgnav_event_kind kind;
  uint32_t reason; /**< why it was planned: 0 first, 1 periodic, 2 goal changed, 3 goal moved,
                        4 door changed, 5 map changed, 6 entity in the way, 7 stuck */
  rpgnav_status status;
  uint32_t door;
  uint32_t blocker;
  double time;
} rpgnav_event;

/** A scheduler on a world, with its own navigation data kept up to date by each update. */
RPGNAV_C_API rpgnav_status rpgnav_scheduler_create(const rpgnav_world* world, rpgnav_scheduler** out);
RPGNAV_C_API void rpgnav_scheduler_destroy(rpgnav_scheduler* scheduler);
RPGNAV_C_API rpgnav_status rpgnav_scheduler_add(rpgnav_scheduler* scheduler, const rpgnav_character* character);
RPGNAV_C_API rpgnav_status rpgnav_scheduler_remove(rpgnav_scheduler* scheduler, uint32_t id);
RPGNAV_C_API rpgnav_status rpgnav_scheduler_set_goal(rpgnav_scheduler* scheduler, uint32_t id, rpgnav_vec2 goal);
RPGNAV_C_API rpgnav_status rpgnav_scheduler_set_position(rpgnav_scheduler* scheduler, uint32_t id,
                                                         rpgnav_vec2 position);
/** Plans the characters that are due at time `now` (seconds) within a budget: `micros` of wall
 *  time or `expansions` search nodes (deterministic); both 0: no limit. */
RPGNAV_C_API rpgnav_status rpgnav_scheduler_update(rpgnav_scheduler* scheduler, double now, double micros,
                                                   int64_t expansions);
/** Copies up to `capacity` of the last update's events; returns how many there were. */
RPGNAV_C_API size_t rpgnav_scheduler_events(const rpgnav_scheduler* scheduler, rpgnav_event* events, size_t capacity);
/** Copies a character's current path into `out` (INVALID_ARGUMENT for an unknown id; NO_PATH
 *  while it has none, and `out` is then an empty path of status NO_PATH). */
RPGNAV_C_API rpgnav_status rpgnav_scheduler_path(const rpgnav_scheduler* scheduler, uint32_t id, rpgnav_path* out);
RPGNAV_C_API size_t rpgnav_scheduler_size(const rpgnav_scheduler* scheduler);
/** The cadence: plans begun more than the scheduler's interval (1 s) after their turn came due,
 *  summed over every update so far (0 for NULL). When it grows, the budget cannot keep every
 *  character planned about once a second. */
RPGNAV_C_API int64_t rpgnav_scheduler_late_turns(const rpgnav_scheduler* scheduler);
/** The search of the scheduler's plans (see rpgnav_planner_set_search_mode). */
RPGNAV_C_API rpgnav_status rpgnav_scheduler_set_search_mode(rpgnav_scheduler* scheduler, rpgnav_search_mode mode);
RPGNAV_C_API rpgnav_search_mode rpgnav_scheduler_search_mode(const rpgnav_scheduler* scheduler);

/* ---- Crowd fields: one goal, any number of followers ----------------------------------- */

typedef struct rpgnav_field rpgnav_field;

/** A flow field over the world's tiles for one mobility toward `goals` (impassable or off-map
 *  goals are ignored), with the world's doors (open ones pass, closed and locked ones are walls
 *  unless rpgnav_field_set_door_costs says otherwise), and the map file's danger layers and the
 *  world's danger factor at creation (the field's danger is its own from then on). */
RPGNAV_C_API rpgnav_status rpgnav_field_create(const rpgnav_world* world, uint8_t mobility, const rpgnav_cell* goals,
                                               size_t goal_count, rpgnav_field** out);
RPGNAV_C_API void rpgnav_field_destroy(rpgnav_field* field);
RPGNAV_C_API rpgnav_status rpgnav_field_set_goals(rpgnav_field* field, const rpgnav_cell* goals, size_t goal_count);
/** The goal moved (e.g. the player): updated incrementally, the same as a rebuild. */
RPGNAV_C_API rpgnav_status rpgnav_field_move_goal(rpgnav_field* field, rpgnav_cell from, rpgnav_cell to);
/** The goal walked to `to` (CrowdField::trackGoal): a step costs what changes near the goal;
 *  distances may exceed the exact ones by up to twice the goal's walk since the last exact
 *  refresh, and the directions always reach the goal. INVALID_ARGUMENT off the map or on a field
 *  without exactly one goal. */
RPGNAV_C_API rpgnav_status rpgnav_field_track_goal(rpgnav_field* field, rpgnav_cell to);
/** A slice of the tracked field's exact refresh: at most `tile_budget` tile visits and, when
 *  `micros` > 0, that many microseconds (CrowdField::refreshTracking). `visits` (may be NULL)
 *  receives the visits made. INVALID_ARGUMENT for a NaN or negative `micros`. */
RPGNAV_C_API rpgnav_status rpgnav_field_refresh_tracking(rpgnav_field* field, int64_t tile_budget, double micros,
                                                         int64_t* visits);
/** Whether the field tracks a walking goal, whether a refresh is under way, and the goal's walk
 *  since the last exact refresh in tile steps of cost-1 ground (0 when not tracking). Any out
 *  pointer may be NULL. */
RPGNAV_C_API rpgnav_status rpgnav_field_tracking(const rpgnav_field* field, int32_t* tracking, int32_t* refreshing,
                                                 double* travel);
/** Catches up with the world's tile edits and door changes since the last sync (incrementally). */
RPGNAV_C_API rpgnav_status rpgnav_field_sync(rpgnav_field* field);
/** The field's danger (its own, apart from the world's): a layer's tile (layer 0-7), stamps, the
 *  factor (0: shortest routes; 255: the safest). Each is an incremental update (the factor: a
 *  rebuild). */
RPGNAV_C_API rpgnav_status rpgnav_field_set_danger(rpgnav_field* field, int32_t layer, rpgnav_cell cell, uint8_t danger);
RPGNAV_C_API rpgnav_status rpgnav_field_add_danger_stamp(rpgnav_field* field, const rpgnav_danger_stamp* stamp,
                                                         uint32_t* id);
RPGNAV_C_API rpgnav_status rpgnav_field_remove_danger_stamp(rpgnav_field* field, uint32_t id);
RPGNAV_C_API rpgnav_status rpgnav_field_set_danger_factor(rpgnav_field* field, uint8_t factor);
/** Door bashing: closed and locked doors pass at these extra tile steps (0-1000; < 0: they block,
 *  the default), for monsters that break doors in. A rebuild. */
RPGNAV_C_API rpgnav_status rpgnav_field_set_door_costs(rpgnav_field* field, float closed, float locked);
/** The unit direction to steer by at a world point (zero at a goal or where no goal is reached). */
RPGNAV_C_API rpgnav_status rpgnav_field_flow(const rpgnav_field* field, rpgnav_vec2 point, rpgnav_vec2* direction);
/** The cost of the best route from a tile to a goal, in steps on cost-1 terrain (a diagonal step
 *  counts 1.414214; a step costs half its length at each of its two tiles' costs, danger weighed
 *  in: the cost a character's plan gives the same route), or -1 when no goal is reached. */
RPGNAV_C_API rpgnav_status rpgnav_field_distance(const rpgnav_field* field, rpgnav_cell cell, double* distance);

#ifdef __cplusplus
}
#endif

#endif /* RPGNAV_H */
