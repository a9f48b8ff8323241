// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// SmoothPath: the smoothed curve through a path's control points (one cubic Bézier span per
/// pair of neighbouring points), measured by arc length; and PathFollower, which moves a
/// character along it frame by frame.

#include "rpgnav/core/export.hpp"
#include "rpgnav/core/types.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace rpgnav {

/// One span of the curve, between two neighbouring control points: a cubic Bézier curve whose
/// first and last points are those control points.
struct CubicSpan {
  std::array<Vec2, 4> p{Vec2::Zero(), Vec2::Zero(), Vec2::Zero(), Vec2::Zero()};
  Vec2 at(double t) const noexcept;
  /// Derivative with respect to t (not normalised).
  Vec2 derivative(double t) const noexcept;
  /// Largest distance of the curve from the chord p[0]→p[3] can be (the inner points' distance:
  /// the curve lies in their convex hull).
  double spread() const noexcept;
  /// The two halves at t = 1/2 (de Casteljau).
  std::array<CubicSpan, 2> split() const noexcept;
};

/// A smooth curve through control points, parameterised by arc length. Positions and tangents
/// at an arc length come from a table of curve points dense enough that the chords between them
/// stay within `tolerance` of the curve; lengths are the table's (the chords'), so a follower that
/// walks the whole table travels exactly length().
class RPGNAV_API SmoothPath {
 public:
  /// Rebuilds the arc length table for `spans` (joined end to start), its chords within
  /// `tolerance` of the curve. Reuses the path's memory: a warm path allocates nothing.
  void assign(std::span<const CubicSpan> spans, double tolerance);
  void clear();
  bool empty() const noexcept { return m_spans.empty(); }
  std::span<const CubicSpan> spans() const noexcept { return m_spans; }

  /// Total arc length, world units.
  double length() const noexcept { return m_samples.empty() ? 0.0 : m_samples.back().s; }
  /// Arc length at which the curve passes control point i (0 .. spans().size()).
  double knot(std::size_t i) const noexcept;
  std::size_t knotCount() const noexcept { return m_spans.empty() ? 0 : m_spans.size() + 1; }
  /// Position at arc length s (clamped to [0, length()]).
  Vec2 position(double s) const noexcept;
  /// Unit tangent at arc length s (clamped); zero for an empty path.
  Vec2 tangent(double s) const noexcept;

  /// A polyline within `tolerance` (world units) of the curve: denser where it bends (the arc
  /// length table's own points when `tolerance` is no finer than the table's).
  void sample(double tolerance, std::vector<Vec2>& out) const;
  /// Points every `spacing` of arc length from the start, plus the end.
  void sampleEvery(double spacing, std::vector<Vec2>& out) const;

  /// The arc length table: curve points with their span, parameter and arc length.
  struct Sample {
    std::uint32_t span;
    float t;
    double s;
    Vec2 point;
  };
  std::span<const Sample> samples() const noexcept { return m_samples; }
  /// Index of the last table entry at or before arc length s (for followers walking forward).
  std::size_t sampleBefore(double s, std::size_t hint = 0) const noexcept;
  /// Position and unit tangent between table entries i and i + 1 at arc length s.
  Vec2 positionAt(std::size_t i, double s) const noexcept;
  Vec2 tangentAt(std::size_t i, double s) const noexcept;

 private:
  std::vector<CubicSpan> m_spans;
  std::vector<Sample> m_samples;
  std::vector<double> m_knots;
  double m_tolerance = 0.0;
};

/// Moves a character along a SmoothPath by a distance per frame. O(1) amortised per advance, no
/// allocation: cheap enough for thousands of characters per frame. Keeps a pointer to the path,
/// which must outlive it (or call follow() again after the path changes).
class RPGNAV_API PathFollower {
 public:
  /// How the path ends.
  enum class Ending : std::uint8_t { Goal, DoorStop, Blocked };

  /// What one advance() did.
  struct Step {
    Vec2 position = Vec2::Zero();
    Vec2 heading = Vec2::Zero();  ///< Unit direction of travel (zero on an empty path).
    double travelled = 0.0;       ///< Distance moved in this step.
    /// Control points reached in this step: [firstReached, firstReached + reached).
    std::int32_t firstReached = 0;
    std::int32_t reached = 0;
    bool arrived = false;  ///< The end was reached in this step.
    Ending ending = Ending::Goal;
  };

  PathFollower() = default;
  explicit PathFollower(const SmoothPath& path, Ending ending = Ending::Goal) { follow(path, ending); }
  /// Starts at the beginning of `path`; the start point counts as reached.
  void follow(const SmoothPath& path, Ending ending = Ending::Goal) noexcept;
  /// Moves `distance` (world units, negative and NaN count as 0) along the path, stopping at its end.
  Step advance(double distance) noexcept;

  /// For bodies that are not moved exactly along the curve (local avoidance pushes them about):
  /// the velocity a body at `position` wants in order to follow the path at `speed`, towards the
  /// curve point `lead` world units ahead of the follower's place (the end, near it), slowing
  /// down within `slowRadius` of the end; zero once arrived. Does not move the follower.
  Vec2 preferredVelocity(Vec2 position, double speed, double lead, double slowRadius) const noexcept;
  /// The curve point `distance` world units ahead of the follower's place (clamped to the end;
  /// zero for no path). Does not move the follower.
  Vec2 pointAhead(double distance) const noexcept;
  /// The body is now at `position`: the follower's place moves on to the curve point nearest to
  /// it within the next `window` world units of the curve (never back). Reports the control
  /// points reached like advance(); arrived when both the place and the body come within
  /// `arriveDistance` of the end (the place then moves to the end). The step's position is
  /// `position`, its heading the curve's tangent.
  Step track(Vec2 position, double window, double arriveDistance) noexcept;

  double distanceTravelled() const noexcept { return m_s; }
  double remaining() const noexcept { return m_path ? m_path->length() - m_s : 0.0; }
  bool arrived() const noexcept { return m_arrived; }

 private:
  const SmoothPath* m_path = nullptr;
  Ending m_ending = Ending::Goal;
  double m_s = 0.0;
  std::size_t m_sample = 0;
  std::size_t m_nextKnot = 1;
  bool m_arrived = false;
  // The place moves to arc length s: the knots passed go into `step`.
  void moveTo(double s, Step& step) noexcept;
};

}  // namespace rpgnav
