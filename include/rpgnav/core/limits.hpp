// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// Every limit rpgnav enforces, in one place. A request past a count or size limit is refused with
/// LimitExceeded before anything big is allocated; a value outside a range with InvalidArgument
/// (files: ParseError, or IoError for a file too big). The modules check against these names,
/// never against their own copies.

#include <cstddef>
#include <cstdint>

namespace rpgnav {

// --- Maps ---
/// Tiles per side and in all: a map and everything built from it stays within memory (a crowd
/// field costs about 30 bytes a tile), and a coordinate fits 16 bits.
inline constexpr std::int32_t kMaxMapSide = 32768;
inline constexpr std::int64_t kMaxMapTiles = std::int64_t(1) << 26;
/// Mobilities (walk, swim, fly and five named by the game) and terrains of one TerrainTable.
inline constexpr int kMaxMobilities = 8;
inline constexpr int kMaxTerrains = 255;
/// Terrain costs the search accepts for a passable terrain (wider ranges would overflow 64-bit
/// sums on the largest maps or lose precision).
inline constexpr float kMinSearchCost = 1.0f / 1024.0f;
inline constexpr float kMaxSearchCost = 1000.0f;
/// Danger layers of a map, a world or a crowd field (they add up, clamped to 255).
inline constexpr int kMaxDangerLayers = 8;

// --- The world ---
/// Entities in an EntityRegistry, doors in a World, characters in a ReplanScheduler.
inline constexpr std::size_t kMaxEntities = std::size_t(1) << 20;
inline constexpr std::size_t kMaxDoors = std::size_t(1) << 20;
inline constexpr std::size_t kMaxCharacters = std::size_t(1) << 20;
/// The extra cost of passing a door, in tile steps of cost-1 ground (door policies' answers are
/// clamped to it; designer settings and crowd fields' door costs refuse more).
inline constexpr float kMaxDoorCost = 1000.0f;

// --- Characters and navigation data ---
/// A character's radius: 0 to this many tiles.
inline constexpr float kMaxRadiusTiles = 3.0f;
/// Landmarks per navigation layer (NavDataSettings::landmarks).
inline constexpr int kMaxLandmarks = 16;
/// SectorFields' sector side, in tiles (a size asked outside is clamped).
inline constexpr int kMinSectorSize = 4;
inline constexpr int kMaxSectorSize = 4096;

// --- Files ---
/// `.rpgmap`, `.tmx` and `.tmj` files.
inline constexpr std::uintmax_t kMaxMapFileBytes = std::uintmax_t(1) << 28;
/// Moving AI `.map` files: two bytes a tile of the largest map, and a header.
inline constexpr std::uintmax_t kMaxMovingAiMapBytes = std::uintmax_t(kMaxMapTiles) * 2 + 4096;
/// Moving AI `.scen` files.
inline constexpr std::uintmax_t kMaxScenarioBytes = std::uintmax_t(1) << 30;

}  // namespace rpgnav
