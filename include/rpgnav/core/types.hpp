// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// Basic value types shared by every module: world vectors, tile coordinates, strong ids.

#include <Eigen/Core>

#include <cmath>
#include <compare>
#include <cstdint>
#include <functional>

namespace rpgnav {

/// A position or direction in world units. 8 bytes, so no Eigen alignment rules apply.
/// Eigen leaves it uninitialised by default: always construct it with values.
using Vec2 = Eigen::Vector2f;
/// Both coordinates are finite (no NaN, no infinity).
inline bool finite(Vec2 v) noexcept { return std::isfinite(v.x()) && std::isfinite(v.y()); }

/// Integer tile coordinates: column x and row y of a tile in a TileMap (y grows downwards).
/// On hex maps these are offset coordinates (see Layout).
struct Cell {
  std::int32_t x = 0;
  std::int32_t y = 0;
  friend constexpr bool operator==(Cell, Cell) = default;
  /// Row-major order (y, then x), the order tiles are stored in.
  friend constexpr std::strong_ordering operator<=>(Cell a, Cell b) {
    if (auto c = a.y <=> b.y; c != 0) return c;
    return a.x <=> b.x;
  }
};

/// A strongly typed small integer id: ids of different kinds cannot be mixed up.
/// @tparam Tag an empty struct that names the kind of id.
template <class Tag, class Rep = std::uint8_t>
struct StrongId {
  Rep value = 0;
  friend constexpr bool operator==(StrongId, StrongId) = default;
  friend constexpr auto operator<=>(StrongId, StrongId) = default;
};

struct TerrainTag {};
struct MobilityTag {};
/// Index of a terrain in a TerrainTable (0..254).
using TerrainId = StrongId<TerrainTag>;
/// Index of a mobility (walk, swim, fly, or a user-named one) in a TerrainTable (0..7).
using MobilityId = StrongId<MobilityTag>;

}  // namespace rpgnav

template <>
struct std::hash<rpgnav::Cell> {
  std::size_t operator()(rpgnav::Cell c) const noexcept {
    return std::hash<std::uint64_t>{}((std::uint64_t(std::uint32_t(c.y)) << 32) | std::uint32_t(c.x));
  }
};
