// SPDX-License-Identifier: MIT
// Stage 5: pull the path tight round the blocked corners that stop straightening.
#include "path/stages.hpp"

#include "path/comfort.hpp"
#include "path/legs.hpp"

#include <algorithm>
#include <cmath>

namespace rpgnav {
namespace {

using Point = Eigen::Vector2d;

double cross(const Point& u, const Point& v) { return u.x() * v.y() - u.y() * v.x(); }

// A corner's bend point in a frame where a is the origin, a→c the first axis and b's side of
// a→c the positive second axis.
struct Candidate {
  Point frame;
  Vec2 world;
};

// The shortest way from a to c that keeps every candidate (all strictly on one side of a→c) on
// that side is the convex hull of a, c and the candidates, walked from a to c the long way
// round. Graham's scan about a (a hull vertex: everything lies in one half-plane of it) gives
// the hull a, c, h1 … hm counter-clockwise; the way round is a, hm … h1, c. Appends hm … h1.
// `hull` is scratch space (kept by the caller so that no bend allocates).
void hullChain(double length, std::vector<Candidate>& candidates, std::vector<Candidate>& hull, std::vector<Vec2>& chain) {
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& p, const Candidate& q) {
    const double turn = cross(p.frame, q.frame);
    return turn != 0.0 ? turn > 0.0 : p.frame.squaredNorm() < q.frame.squaredNorm();
  });
  hull.clear();
  hull.push_back({Point(0.0, 0.0), Vec2::Zero()});
  hull.push_back({Point(length, 0.0), Vec2::Zero()});
  for (const Candidate& p : candidates) {
    while (hull.size() >= 2 &&
           cross(hull.back().frame - hull[hull.size() - 2].frame, p.frame - hull[hull.size() - 2].frame) <= 0.0) {
      hull.pop_back();
    }
    hull.push_back(p);
  }
  for (std::size_t i = hull.size(); i-- > 2;) chain.push_back(hull[i].world);
}

// The stage's scratch (see StageScratch).
struct Buffers : detail::ScratchSlot {
  std::vector<Vec2> out;
  std::vector<ConvexCorner> corners;
  std::vector<Candidate> candidates, hull;
  std::vector<Vec2> chain;
};

}  // namespace

void cornerRoutingStage(const StageContext& context, const CornerRoutingSettings& settings, std::vector<Vec2>& points,
                        StageStats& stats) {
  stats.ran = true;
  stats.pointsIn = std::int32_t(points.size());
  if (points.size() <= 2) {
    stats.pointsOut = stats.pointsIn;
    return;
  }
  const float margin = settings.margin * context.map.layout().tileSize();
  const detail::Comfort comfort(context, points.front(), points.back());
  auto probe = [&](Vec2 a, Vec2 b, int level) { return comfort.probe(a, b, level, stats.probes); };
  // Scratch (`out` copied back into `points`, so neither buffer changes hands): nothing is
  // allocated once warm.
  StageScratch fallback;
  Buffers& buffers = context.buffers<Buffers>(detail::ScratchUse::CornerRouting, fallback);
  std::vector<Vec2>& out = buffers.out;
  std::vector<ConvexCorner>& corners = buffers.corners;
  std::vector<Candidate>& candidates = buffers.candidates;
  std::vector<Candidate>& hull = buffers.hull;
  std::vector<Vec2>& chain = buffers.chain;
  // What to do with b at one level of comfort (keeping that level's clearance from walls).
  enum class Way { Drop, Keep, Chain, Tighter };
  double chainLength = 0.0;  // the length of the way round the corners route() last measured
  // Every blocked corner inside the triangle a-b-c lies between the path and the straight line
  // a→c, and the path must keep it on that side; the shortest such way bends at the corners on
  // the hull (each `bend` out from its corner). It replaces b (Chain, in `chain`) when every new
  // segment is clear and it is neither dearer nor longer; Tighter when it is not, so that a less
  // comfortable level may try. With no corner inside, the hull is the straight line a→c.
  auto route = [&](Vec2 a, Vec2 b, Vec2 c, double length, double side, int level) {
    const float bend = comfort.clearance(level) + margin;
    if (context.cheaplyClearWith(a, c, comfort.clearance(level))) return Way::Drop;  // b is not needed at all
    const Point axis = (c - a).cast<double>();
    if (const ConvexCorner* corner = context.corners.cornerAt(b, bend)) {
      // b already bends round a corner; if that corner pokes into the triangle, its blocked
      // tile lies between the path and a→c and b is where the tight path bends.
      const Point v = (corner->point - a).cast<double>();
      if (cross(axis, v) * side > 0.0 && cross((b - a).cast<double>(), v) * side < 0.0 &&
          cross((c - b).cast<double>(), (corner->point - b).cast<double>()) * side < 0.0) {
        return Way::Keep;
      }
    }
    const Point u = axis / length, w = side > 0.0 ? Point(-u.y(), u.x()) : Point(u.y(), -u.x());
    const double tolerance = 1e-7 * std::max(1.0, length);
    corners.clear();
    candidates.clear();
    context.corners.inTriangle(a, b, c, bend, corners, widerThanHalfTile(context.map.layout(), context.radius));
    for (const ConvexCorner& corner : corners) {
      const Vec2 beside = corner.beside(bend);
      const Point offset = (beside - a).cast<double>();
      const Point frame(offset.dot(u), offset.dot(w));
      if (frame.y() <= tolerance || (beside - c).norm() <= tolerance) continue;
      candidates.push_back({frame, beside});
    }
    chain.clear();
    hullChain(length, candidates, hull, chain);
    if (chain.size() == 1 && (chain[0] - b).norm() <= tolerance) return Way::Keep;
    // Measure the new way; while every piece costs the cheapest per unit length, so does the
    // whole, and (being shorter) it is no dearer than the old way: no need to probe that.
    detail::Leg candidate;
    bool clear = true, cheap = true;
    Vec2 from = a;
    chain.push_back(c);
    for (const Vec2& to : chain) {
      const SegmentProbe piece = probe(from, to, level);
      clear = piece.clear;
      if (!clear) break;
      cheap = cheap && detail::atCheapestCost(piece.cost, piece.length, context.lines.cheapestCost());
      candidate.cost += piece.cost;
      candidate.length += piece.length;
      from = to;
    }
    chain.pop_back();
    bool better = false;
    if (clear && cheap) {
      better = detail::noWorse(candidate.length, double((b - a).norm() + (c - b).norm()));
    } else if (clear) {
      const SegmentProbe ab = probe(a, b, comfort.tight()), bc = probe(b, c, comfort.tight());
      better = !ab.clear || !bc.clear || detail::noWorse(candidate, {ab.cost + bc.cost, ab.length + bc.length});
    }
    chainLength = candidate.length;
    return better ? Way::Chain : Way::Tighter;
  };
  out.assign(1, points.front());
  // Each inner point b, between a (the last point kept) and c, tried at each level of comfort in
  // turn: a way round the corners at a level is taken when it is clear there and no worse. A less
  // comfortable level is tried only while the way through b does not keep the level above, or
  // keeping it is not worth the length (see detail::kWorth: measured against the tight way round
  // the same corners): else b itself is the more comfortable way. So where a passage is too
  // narrow for the whole comfort the path comes closer, as far as it must and no further than the
  // radius, and comfort never sends it on a long way round.
  for (std::size_t i = 1; i + 1 < points.size(); ++i) {
    const Vec2 a = out.back(), b = points[i], c = points[i + 1];
    const Point axis = (c - a).cast<double>();
    const double length = axis.norm();
    const double side = cross(axis, (b - a).cast<double>());
    if (length == 0.0 || side == 0.0) {  // b on the line a→c (or a = c): nothing to bend round
      out.push_back(b);
      continue;
    }
    // The level the way through b keeps (its two segments keep the radius: the path is valid),
    // and whether it is worth keeping against the tight way: both measured once, when asked.
    int through = -1, worth = -1;
    auto throughLevel = [&] {
      if (through < 0) through = std::max(comfort.levelOf(a, b, stats.probes), comfort.levelOf(b, c, stats.probes));
      return through;
    };
    auto worthKeeping = [&] {
      if (worth < 0) {
        const double via = double((b - a).norm() + (c - b).norm());
        // No tight way is shorter than the straight line a→c: often that settles it.
        worth = comfort.worth(via, length) ? 1 : 0;
        if (worth == 0) {
          const Way tight = route(a, b, c, length, side, comfort.tight());
          const double tightLength = tight == Way::Drop ? length : tight == Way::Chain ? chainLength : HUGE_VAL;
          worth = comfort.worth(via, tightLength) ? 1 : 0;
        }
      }
      return worth == 1;
    };
    Way way = Way::Tighter;
    for (int level = 0; level < comfort.levels() && way == Way::Tighter; ++level) {
      if (level > 0 && throughLevel() < level && worthKeeping()) {
        way = Way::Keep;
      } else {
        way = route(a, b, c, length, side, level);
      }
    }
    if (way == Way::Chain) {
      out.insert(out.end(), chain.begin(), chain.end());
    } else if (way != Way::Drop) {
      out.push_back(b);
    }
  }
  out.push_back(points.back());
  points.assign(out.begin(), out.end());
  stats.pointsOut = std::int32_t(points.size());
}

}  // namespace rpgnav
