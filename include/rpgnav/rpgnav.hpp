// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// Umbrella header: everything public in rpgnav.

#include "rpgnav/core/assert.hpp"
#include "rpgnav/core/status.hpp"
#include "rpgnav/core/types.hpp"
#include "rpgnav/grid/layout.hpp"
#include "rpgnav/grid/line_of_sight.hpp"
#include "rpgnav/grid/map_features.hpp"
#include "rpgnav/grid/regions.hpp"
#include "rpgnav/grid/terrain_table.hpp"
#include "rpgnav/grid/tile_map.hpp"
#include "rpgnav/io/moving_ai.hpp"
#include "rpgnav/io/rpgmap.hpp"
#include "rpgnav/io/tiled.hpp"
#include "rpgnav/world/entities.hpp"
#include "rpgnav/world/doors.hpp"
#include "rpgnav/world/world.hpp"
#include "rpgnav/path/path.hpp"
#include "rpgnav/path/smooth_path.hpp"
#include "rpgnav/path/planner.hpp"
#include "rpgnav/path/stage_settings.hpp"
#include "rpgnav/nav/nav_data.hpp"
#include "rpgnav/avoid/local_avoidance.hpp"
#include "rpgnav/schedule/replan_scheduler.hpp"
#include "rpgnav/debug/svg.hpp"
#include "rpgnav/field/crowd_field.hpp"
