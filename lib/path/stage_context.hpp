// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// What every stage of the pipeline reads: the map's indexes for the query's mobility, the doors
/// that are walls for it (barriers), the reused scratch memory.

#include "grid/convex_corners.hpp"
#include "grid/segment_tester.hpp"
#include "path/probe_memo.hpp"
#include "rpgnav/path/path.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace rpgnav {

/// A wall segment besides the blocked tiles: a door the character may not pass in this query.
/// Paths keep the radius from it and never touch it.
struct Barrier {
  Vec2 a;
  Vec2 b;
  Cell tileA;  ///< The two tiles on either side.
  Cell tileB;
};
/// What touching a barrier means: coming within this fraction of its length (2·10⁻³ tiles on
/// square maps, 1.15·10⁻³ on hex maps). Blocked tiles may be touched by a character of radius 0,
/// closed doors may not, and a touch is decided on float points: this gap keeps paths that pass
/// a door's end (often also a wall's corner, where corner routing bends 10⁻³ tiles out) visibly
/// clear of it.
inline constexpr double kBarrierTouch = 2e-3;
/// The least distance a path of `radius` keeps from the barrier: the radius, and never less than
/// kBarrierTouch of the barrier's length.
double barrierClearance(const Barrier& barrier, float radius) noexcept;
/// True when the segment from→to comes closer than barrierClearance() to the barrier, less
/// `slack` (see barrierSlack). With a slack the answer does not depend on the segment's direction.
bool meetsBarrier(const Barrier& barrier, Vec2 from, Vec2 to, float radius, double slack = 0.0) noexcept;
/// Wide bodies (radius of half a tile or more) keep their radius from barriers up to the float
/// rounding of the points, as from tiles (see the README): 5·10⁻⁷ tiles × the largest of 1, the
/// points' coordinates in tiles from the map's corner and from the world's origin, and the radius
/// in tiles; in world units. 0 for narrower bodies, whose rule is exact.
double barrierSlack(const Layout& layout, float radius, Vec2 from, Vec2 to) noexcept;

/// The doors that are walls for one query, near a box: for stages that lead the path beyond the
/// ground the planner gathered StageContext::barriers for (stage 7's detours). Asked on the thread
/// running the stage, during it; the planner's own source belongs to its query (not shared).
class BarrierSource {
 public:
  virtual ~BarrierSource() = default;
  /// Fills `out` with the barriers near the box [low, high] grown by `reach` (a superset).
  virtual void barriersNear(Vec2 low, Vec2 high, float reach, std::vector<Barrier>& out) const = 0;
};

namespace detail {
/// A stage's own scratch (see StageScratch): each stage derives its buffers from this.
struct ScratchSlot {
  virtual ~ScratchSlot() = default;
};
/// The stages that keep scratch, one slot each.
enum class ScratchUse : std::uint8_t { ControlPoints, Straighten, CornerRouting, Detours, Smoothing, Count };
}  // namespace detail

/// The memory the stages reuse from one query to the next: one per thread (a Planner owns one),
/// so that a warm query allocates nothing and no stage keeps thread-local state. Each stage's
/// buffers are made on its first use. Not for two threads at once.
class StageScratch {
 public:
  StageScratch() = default;
  StageScratch(StageScratch&&) noexcept = default;
  StageScratch& operator=(StageScratch&&) noexcept = default;
  StageScratch(const StageScratch&) = delete;
  StageScratch& operator=(const StageScratch&) = delete;

  /// The buffers of stage `use`, of the stage's own type T (made on first use).
  template <class T>
  T& of(detail::ScratchUse use) {
    std::unique_ptr<detail::ScratchSlot>& slot = m_slots[std::size_t(use)];
    if (!slot) slot = std::make_unique<T>();
    return static_cast<T&>(*slot);
  }

  /// The segment tester's answers in the plan at hand (made on first use; cleared by the planner
  /// at the start of each plan).
  detail::ProbeMemo& probes() {
    if (!m_probes) m_probes = std::make_unique<detail::ProbeMemo>();
    return *m_probes;
  }

 private:
  std::array<std::unique_ptr<detail::ScratchSlot>, std::size_t(detail::ScratchUse::Count)> m_slots;
  std::unique_ptr<detail::ProbeMemo> m_probes;
};

/// Read-only facts every stage works from: the map, who walks, and the map's indexes for that
/// mobility (built by the Planner; see SegmentTester and ConvexCorners), plus the doors that are
/// walls for this query.
struct StageContext {
  const TileMap& map;
  MobilityId mobility;
  float radius;  ///< World units.
  const SegmentTester& lines;
  const ConvexCorners& corners;
  std::span<const Barrier> barriers = {};
  /// Where to find barriers beyond `barriers`' ground (nullptr: `barriers` are all there are).
  const BarrierSource* barrierSource = nullptr;
  /// The stages' reusable buffers (nullptr: each call makes its own, allocating).
  StageScratch* scratch = nullptr;
  /// The tester's answers so far in this plan (nullptr: every probe is measured; see ProbeMemo).
  detail::ProbeMemo* memo = nullptr;
  /// The distance beyond the radius the stages try to keep from walls where there is room
  /// (PathRequest::comfort, world units; 0: none). Every path still keeps the radius itself.
  float comfort = 0.0f;
  /// A stage's buffers of type T: from `scratch`, or from `fallback` when there is none.
  template <class T>
  T& buffers(detail::ScratchUse use, StageScratch& fallback) const {
    return (scratch != nullptr ? *scratch : fallback).of<T>(use);
  }
  /// probeSegment for this character, through the tester's fast path; a segment meeting a
  /// barrier is not clear.
  SegmentProbe probe(Vec2 from, Vec2 to) const { return probeWith(from, to, radius); }
  /// probe() for a wider character, or at a wider clearance.
  SegmentProbe probeWith(Vec2 from, Vec2 to, float wider) const {
    SegmentProbe result = memo != nullptr ? memo->probe(lines, from, to, wider) : lines.probe(from, to, wider);
    if (result.clear && blockedByBarrier(from, to, wider)) result.clear = false;
    return result;
  }
  /// True when every tile the mobility may enter costs the same (no detour or curve can then
  /// lead over dearer terrain).
  bool uniformCost() const noexcept { return lines.uniformCost(); }
  /// The highest cost of the tiles a clear segment crosses (its probe given).
  double dearestTerrain(Vec2 from, Vec2 to, const SegmentProbe& probe) const;
  /// dearestTerrain without the memo: walks the segment.
  double measureDearestTerrain(Vec2 from, Vec2 to, const SegmentProbe& probe) const;
  /// SegmentTester::cheaplyClear, and no barrier in the way (at the radius, or at a wider
  /// clearance).
  bool cheaplyClear(Vec2 from, Vec2 to) const { return cheaplyClearWith(from, to, radius); }
  bool cheaplyClearWith(Vec2 from, Vec2 to, float clearance) const {
    return lines.cheaplyClear(from, to, clearance) && !blockedByBarrier(from, to, clearance);
  }
  /// True when the segment keeps `clearance` from walls: tiles the mobility cannot enter, the
  /// map's edge and barriers (SegmentTester::keeps; whatever the passable tiles cost).
  bool keeps(Vec2 from, Vec2 to, float clearance) const {
    return (memo != nullptr ? memo->keeps(lines, from, to, clearance) : lines.keeps(from, to, clearance)) &&
           !blockedByBarrier(from, to, clearance);
  }
  /// probe(), and in `keepsClearance` whether the segment also keeps(clearance) (false when it
  /// is not clear), in as few passes as the layout allows (SegmentTester::probeKeeping).
  SegmentProbe probeKeeping(Vec2 from, Vec2 to, float clearance, bool& keepsClearance) const {
    SegmentProbe result = memo != nullptr ? memo->probeKeeping(lines, from, to, radius, clearance, keepsClearance)
                                          : lines.probeKeeping(from, to, radius, clearance, keepsClearance);
    if (result.clear && blockedByBarrier(from, to)) result.clear = false;
    keepsClearance = result.clear && keepsClearance && !blockedByBarrier(from, to, clearance);
    return result;
  }
  /// SegmentTester::openAround, and no barrier at or next to the tile.
  bool openAround(Cell cell) const;
  bool blockedByBarrier(Vec2 from, Vec2 to) const noexcept { return blockedByBarrier(from, to, radius); }
  bool blockedByBarrier(Vec2 from, Vec2 to, float clearance) const noexcept {
    if (barriers.empty()) return false;
    const double slack = barrierSlack(map.layout(), radius, from, to);
    for (const Barrier& barrier : barriers) {
      if (meetsBarrier(barrier, from, to, clearance, slack)) return true;
    }
    return false;
  }
};

/// Weighted cost of a polyline under probeSegment's model; +infinity if a segment is not clear.
double polylineCost(const StageContext& context, std::span<const Vec2> points);
/// Weighted cost and length of a polyline, or nothing if a segment is not clear; counts the
/// probes made in `probes`.
std::optional<std::pair<double, double>> measurePolyline(const StageContext& context, std::span<const Vec2> points,
                                                         std::int32_t& probes);

}  // namespace rpgnav
