// SPDX-License-Identifier: MIT
#pragma once
// The hard half-planes of local avoidance: walls (edges between tiles a mobility can enter and
// tiles it cannot, the map's border), closed doors and static discs. Each obstacle is convex, so
// the plane through its point nearest the body, facing the body, separates them: a velocity v
// keeps the body out for a time τ when (d − r) − τ·(v · away) ≥ 0, that is
//   −away · v ≤ (d − r) / τ,
// with d the distance to that point and `away` the unit direction from it to the body. Planes
// that cannot bind at the body's max speed are left out. Straight walls are merged into one
// segment so that a body sliding along a wall never catches on the seams between tiles.

#include "half_plane_lp.hpp"
#include "rpgnav/grid/tile_map.hpp"

#include <array>
#include <span>

namespace rpgnav::avoid {

struct ObstacleBody {
  Vec2 position = Vec2::Zero();  ///< World units.
  float radius = 0.0f;
  float maxSpeed = 0.0f;
  float horizon = 0.0f;  ///< Seconds.
  /// Farther than this from the body's edge, an obstacle cannot bind.
  float reach() const noexcept { return maxSpeed * horizon; }
};

/// Appends the planes of the walls near `body` for `mobility` to out (at most out.size());
/// returns how many.
std::size_t wallPlanes(const TileMap& map, MobilityId mobility, const ObstacleBody& body, std::span<HalfPlane> out);
/// Appends (at out[count], bumping count) the plane of a disc, if it can bind.
void discPlane(const ObstacleBody& body, Vec2 centre, float radius, HalfPlane* out, std::size_t& count);
/// The same for a capsule: the points within `radius` of the segment a-b.
void capsulePlane(const ObstacleBody& body, Vec2 a, Vec2 b, float radius, HalfPlane* out, std::size_t& count);
/// The same for a closed door's edge (two-sided). A door already closer than the radius (closed
/// on the body) is left out: the body may leave it on either side.
void doorPlane(const ObstacleBody& body, const std::array<Vec2, 2>& edge, HalfPlane* out, std::size_t& count);

}  // namespace rpgnav::avoid
