// SPDX-License-Identifier: MIT
// Stages 4 and 6: straightening ("string pulling") of the control polyline.
#include "path/stages.hpp"

#include "path/comfort.hpp"
#include "path/legs.hpp"

#include <algorithm>
#include <cmath>

namespace rpgnav {
namespace {

// The stage's scratch (see StageScratch).
struct Buffers : detail::ScratchSlot {
  std::vector<double> prefixCost;
  std::vector<Vec2> out;
};

}  // namespace

void straightenStage(const StageContext& context, const StraightenSettings& settings, bool fromGoal,
                     std::vector<Vec2>& points, StageStats& stats) {
  stats.ran = true;
  stats.pointsIn = std::int32_t(points.size());
  if (fromGoal) std::reverse(points.begin(), points.end());
  // Points on the segment between their neighbours change nothing: drop them first (stage 3
  // leaves long runs of them along each line toward the goal).
  std::size_t kept = std::min<std::size_t>(points.size(), 1);
  for (std::size_t i = 1; i < points.size(); ++i) {
    if (i + 1 < points.size() && detail::onSegment(points[kept - 1], points[i], points[i + 1])) continue;
    points[kept++] = points[i];
  }
  points.resize(kept);

  // From each anchor (a point kept), jump to the farthest point it sees at no more cost than the
  // polyline in between, dropping the points skipped: every dropped point's neighbours in the
  // output then see each other. The farthest point is found by doubling the jump until a probe
  // fails, then bisecting, so a long path costs a few probes per kept point rather than one per
  // point (sight is not monotone along a path, so this can stop short of a point seen further on;
  // later stages straighten again).
  const double maxLength = double(settings.maxSegmentLength) * double(context.map.layout().tileSize());
  // Scratch (`out` copied back into `points`, so neither buffer changes hands): nothing is
  // allocated once warm.
  StageScratch fallback;
  Buffers& buffers = context.buffers<Buffers>(detail::ScratchUse::Straighten, fallback);
  std::vector<double>& prefixCost = buffers.prefixCost;  // cost of the polyline up to each point
  std::vector<Vec2>& out = buffers.out;
  prefixCost.assign(points.size(), 0.0);
  std::size_t prefixKnown = 1;
  auto costBetween = [&](std::size_t from, std::size_t to) {
    for (; prefixKnown <= to; ++prefixKnown) {
      ++stats.probes;
      const SegmentProbe piece = context.probe(points[prefixKnown - 1], points[prefixKnown]);
      prefixCost[prefixKnown] = prefixCost[prefixKnown - 1] + (piece.clear ? piece.cost : HUGE_VAL);
    }
    return prefixCost[to] - prefixCost[from];
  };
  const detail::Comfort comfort(context, points.empty() ? Vec2::Zero() : points.front(),
                                points.empty() ? Vec2::Zero() : points.back());
  // What an anchor sees of a point: nothing (no clear and cheap enough segment even at the
  // radius), a segment that keeps the radius but not the level's clearance, or a segment that
  // keeps that too.
  enum class Sight { None, Tight, Seen };
  auto sees = [&](std::size_t from, std::size_t to, int level) {
    const Vec2 a = points[from], b = points[to];
    if (maxLength > 0.0 && double((b - a).norm()) > maxLength) return Sight::None;
    const detail::Comfort::Judged direct = comfort.judge(a, b, level, stats.probes);
    if (!direct.probe.clear) return Sight::None;
    // At the cheapest cost the straight segment is never dearer than the polyline it replaces.
    if (!detail::atCheapestCost(direct.probe.cost, direct.probe.length, context.lines.cheapestCost()) &&
        !detail::noWorse(direct.probe.cost, costBetween(from, to))) {
      return Sight::None;
    }
    return direct.comfortable ? Sight::Seen : Sight::Tight;
  };
  // The farthest point seen at `level`; `over` receives what the anchor sees of the point after
  // next (the first probe).
  auto farthest = [&](std::size_t anchor, int level, Sight& over) {
    std::size_t good = anchor + 1, bad = points.size();
    over = Sight::None;
    for (std::size_t jump = 1; good + jump < points.size(); jump *= 2) {
      const Sight sight = sees(anchor, good + jump, level);
      if (jump == 1) over = sight;
      if (sight != Sight::Seen) {
        bad = good + jump;
        break;
      }
      good += jump;
    }
    while (bad - good > 1) {
      const std::size_t middle = good + (bad - good) / 2;
      if (sees(anchor, middle, level) == Sight::Seen) {
        good = middle;
      } else {
        bad = middle;
      }
    }
    return good;
  };
  out.clear();
  if (!points.empty()) out.push_back(points[0]);
  std::size_t anchor = 0;
  while (anchor + 1 < points.size()) {
    // The most comfortable shortcut first. With none, the next point stays when the way to it
    // keeps the comfort (corner routing then pulls it tight at the comfort, or decides it is not
    // worth it); when it does not, the shortcuts may come as close to walls as that way does
    // (never closer than the radius): no shortcut is less comfortable than the segment it starts
    // by replacing. (Without comfort the first level is the radius itself.)
    Sight over = Sight::None;
    std::size_t good = farthest(anchor, 0, over);
    if (good == anchor + 1 && over == Sight::Tight) {
      const int level = comfort.levelOf(points[anchor], points[anchor + 1], stats.probes);
      if (level > 0) good = farthest(anchor, level, over);
    }
    out.push_back(points[good]);
    anchor = good;
  }
  points.assign(out.begin(), out.end());
  if (fromGoal) std::reverse(points.begin(), points.end());
  stats.pointsOut = std::int32_t(points.size());
}

}  // namespace rpgnav
