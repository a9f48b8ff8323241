// SPDX-License-Identifier: MIT
#pragma once
// Comfort (PathRequest::comfort): the clearances the stages try, most comfortable first, and the
// test of a segment at one of them. Shared by stages 3-6 and 8.

#include "path/stage_context.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

namespace rpgnav::detail {

/// radius + comfort counts up to this many tiles: in a corridor one tile wide no point is further
/// than half a tile from the walls, and the probes are made for clearances under half a tile.
inline constexpr float kMostClearance = 0.49f;
/// radius + comfort of a wide body (radius of half a tile or more) counts up to this many tiles.
inline constexpr float kMostWideClearance = 4.0f;
/// An end of the path that stands closer to a wall than a level's clearance is forgiven within
/// this many times that clearance of it: far enough for a path to leave a wall it starts by at a
/// slant of about 1 in 3 (rising from the radius to radius + comfort), rather than stepping
/// straight out from it first.
inline constexpr float kForgiven = 2.0f;
/// At any one choice a stage makes, keeping the comfort is worth a way at most this many times the
/// comfort longer than the tight way: a corner passed at radius + comfort instead of the radius
/// costs less than that, a detour out and back to keep the comfort more.
inline constexpr float kWorth = 2.0f;
/// A comfort of at least this many tiles is also tried at a half and at a quarter of its strength
/// before the radius alone: a passage too narrow for all of it then still keeps some (a hex row
/// keeps 0.29 tiles from its walls at most; below this comfort the steps would buy too little to
/// be worth their probes). Not for wide bodies (half a tile or more): they keep to passages at
/// least as wide as themselves, which a comfort of a fraction of a tile changes little, and where
/// such a passage fits the body exactly every level above the radius fails at every bend (twice
/// the probes for nothing: on dao/brc202d a radius of 0.5 took 2.2× the time of stages 3-8 with
/// the halved levels, rpgnav_pipeline_benchmark).
inline constexpr float kHalvedFrom = 0.1f;

/// The clearances one query's stages try, level 0 the most comfortable: radius + comfort
/// (capped), radius + a half and a quarter of that comfort (see kHalvedFrom), and last the radius
/// itself, the hard rule (the tight level). With no comfort the radius is the only level, and the
/// stages make exactly the probes and decisions they made before comfort existed.
class Comfort {
 public:
  /// `first` and `last` are the path's two ends (the start, the goal or a door stop), which may
  /// stand closer to walls than a level's clearance; with `forgiveEnds` false no end is forgiven
  /// (see keeps()).
  Comfort(const StageContext& context, Vec2 first, Vec2 last, bool forgiveEnds = true)
      : m_context(context), m_first(first), m_last(last), m_forgiveEnds(forgiveEnds) {
    const float tile = context.map.layout().tileSize();
    const float radius = context.radius;
    // Wide bodies (half a tile or more) are probed by a band of any width: their comfort is
    // capped only where the clearance stops being measured (Clearance::kFarTiles).
    const bool wide = widerThanHalfTile(context.map.layout(), radius);
    const float top = std::min(radius + context.comfort, (wide ? kMostWideClearance : kMostClearance) * tile);
    m_clearance = {radius, radius, radius, radius};
    if (!(top > radius)) return;
    m_clearance[0] = top;
    if (!wide && top - radius >= kHalvedFrom * tile) {
      m_clearance[1] = radius + 0.5f * (top - radius);
      m_clearance[2] = radius + 0.25f * (top - radius);
      m_levels = 4;
    } else {
      m_levels = 2;
    }
  }

  int levels() const noexcept { return m_levels; }
  /// False with no comfort: one level, the radius.
  bool active() const noexcept { return m_levels > 1; }
  /// The level of the radius alone.
  int tight() const noexcept { return m_levels - 1; }
  float clearance(int level) const noexcept { return m_clearance[std::size_t(level)]; }

  /// True when the segment keeps clearance(level) from walls, a segment from or to an end of the
  /// path that itself stands closer than that to a wall excepted within kForgiven ×
  /// clearance(level) of that end: a path may leave the wall its start stands by, or reach a goal
  /// by a wall, without every segment from there counting as uncomfortable. Whether it keeps the
  /// radius is not looked at. Counts the checks made in `probes`.
  bool keeps(Vec2 a, Vec2 b, int level, std::int32_t& probes) const {
    if (level >= tight()) return true;
    ++probes;
    return m_context.keeps(a, b, clearance(level)) || keepsBesideEnds(a, b, level, probes);
  }

  /// The segment's probe at the radius (StageContext::probe: clear, cost, length), and whether
  /// it also keeps(level).
  struct Judged {
    SegmentProbe probe;
    bool comfortable = false;
  };
  Judged judge(Vec2 a, Vec2 b, int level, std::int32_t& probes) const {
    // A segment judged at one level is often judged again at the next: its probe at the radius
    // is kept for that (with comfort only, so that without it every probe is made as before).
    if (active() && a == m_probed[0] && b == m_probed[1]) return {m_probe, m_probe.clear && keeps(a, b, level, probes)};
    ++probes;
    Judged judged;
    if (level < tight()) {
      bool whole = false;
      judged.probe = m_context.probeKeeping(a, b, clearance(level), whole);
      judged.comfortable = judged.probe.clear && (whole || keepsBesideEnds(a, b, level, probes));
    } else {
      judged.probe = m_context.probe(a, b);
      judged.comfortable = judged.probe.clear;
    }
    m_probe = judged.probe;
    m_probed = {a, b};
    return judged;
  }
  /// judge() as one probe: clear only when it keeps the level too.
  SegmentProbe probe(Vec2 a, Vec2 b, int level, std::int32_t& probes) const {
    Judged judged = judge(a, b, level, probes);
    judged.probe.clear = judged.comfortable;
    return judged.probe;
  }

  /// True when a comfortable way of length `longer` is worth taking over a tight way of length
  /// `shorter` (see kWorth).
  bool worth(double longer, double shorter) const noexcept {
    return longer - shorter <= double(kWorth) * double(clearance(0) - clearance(tight()));
  }

  /// The most comfortable level a→b keeps (tight() when none does: whether it keeps the radius
  /// is the caller's to know).
  int levelOf(Vec2 a, Vec2 b, std::int32_t& probes) const {
    for (int level = 0; level < tight(); ++level) {
      if (keeps(a, b, level, probes)) return level;
    }
    return tight();
  }

 private:
  // keeps() for a segment that does not keep the level's clearance all along: true when it does
  // away from an end of the path that itself stands closer than that to a wall (within kForgiven
  // × the clearance of that end).
  bool keepsBesideEnds(Vec2 a, Vec2 b, int level, std::int32_t& probes) const {
    const float keep = clearance(level);
    const bool forgiveA = forgiven(a, keep, level, probes), forgiveB = forgiven(b, keep, level, probes);
    if (!forgiveA && !forgiveB) return false;
    const Eigen::Vector2d from = a.cast<double>(), d = b.cast<double>() - from;
    // Wide bodies: forgiven within kForgiven × the comfort's part of the clearance beyond the
    // radius (a slant of 1 in 3 from the radius up), not × the whole clearance (6 tiles for a
    // body of 3).
    const float radius = m_context.radius;
    const float forgivenWithin = widerThanHalfTile(m_context.map.layout(), radius)
                                     ? radius + kForgiven * (keep - radius) : kForgiven * keep;
    const double cut = double(forgivenWithin) / d.norm();
    const double t0 = forgiveA ? cut : 0.0, t1 = forgiveB ? 1.0 - cut : 1.0;
    if (!(t0 < t1)) return true;
    ++probes;
    const Eigen::Vector2d p0 = from + d * t0, p1 = from + d * t1;
    return m_context.keeps(p0.cast<float>(), p1.cast<float>(), keep);
  }

  // An end of the path standing closer than `keep` (a level's clearance) to a wall; each end is
  // looked at once per level.
  bool forgiven(Vec2 p, float keep, int level, std::int32_t& probes) const {
    if (!m_forgiveEnds || (p != m_first && p != m_last)) return false;
    std::int8_t& known = m_endTight[std::size_t(level) * 2 + (p == m_first ? 0 : 1)];
    if (known < 0) {
      ++probes;
      known = m_context.keeps(p, p, keep) ? 0 : 1;
    }
    return known == 1;
  }

  const StageContext& m_context;
  Vec2 m_first, m_last;
  bool m_forgiveEnds;
  int m_levels = 1;
  std::array<float, 4> m_clearance{};
  // Whether each end stands closer than each level's clearance: -1 not yet known.
  mutable std::array<std::int8_t, 8> m_endTight{-1, -1, -1, -1, -1, -1, -1, -1};
  // The segment last probed at the radius, and its probe.
  mutable std::array<Vec2, 2> m_probed{Vec2(NAN, NAN), Vec2(NAN, NAN)};
  mutable SegmentProbe m_probe;
};

}  // namespace rpgnav::detail
