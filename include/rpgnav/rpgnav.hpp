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
