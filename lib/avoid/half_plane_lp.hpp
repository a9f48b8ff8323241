// SPDX-License-Identifier: MIT
#pragma once
// The velocity choice of ORCA: the velocity closest to the preferred one inside a speed disc and
// a set of half-planes, by the randomised-incremental 2-D linear program of the paper (run in
// the given order: the order is fixed, so the answer is deterministic), and, when the half-planes
// leave nothing, the velocity that violates the soft ones least while keeping the hard ones.
//
// Units: the caller scales velocities so that the speed disc has radius 1 (tolerances are then
// absolute).

#include "rpgnav/core/types.hpp"

#include <span>

namespace rpgnav::avoid {

/// The velocities v with normal · v <= offset (normal of unit length).
struct HalfPlane {
  Vec2 normal = Vec2::Zero();
  float offset = 0.0f;
};

/// The solution of `planes` (the first `hard` of them may not be relaxed) nearest to
/// `preferred` within the unit disc. Returns false when even the hard planes leave nothing;
/// `velocity` is then the best the soft relaxation found with them ignored past the failure.
struct LpAnswer {
  Vec2 velocity = Vec2::Zero();
  bool relaxed = false;  ///< The soft planes were relaxed (no velocity met them all).
  bool hardFailed = false;  ///< The hard planes had no common point in the disc.
};
LpAnswer solveVelocity(std::span<const HalfPlane> planes, std::size_t hard, Vec2 preferred);

}  // namespace rpgnav::avoid
