// SPDX-License-Identifier: MIT
#include "support/path_checks.hpp"

#include "support/geometry.hpp"

#include "rpgnav/grid/line_of_sight.hpp"
#include "rpgnav/world/world.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <deque>

namespace rpgnav::test {
namespace {

using Point = Eigen::Vector2d;

double cross(const Point& u, const Point& v) { return u.x() * v.y() - u.y() * v.x(); }

// A tile as a convex polygon in layout space with inward unit normals.
struct Polygon {
  Cell cell;
  std::array<Point, 6> corners;
  std::array<Point, 6> normals;
  int count = 0;
  Point centre;
  bool blocked = false;
  float cost = 0.0f;
};

Polygon polygonOf(const TileMap& map, MobilityId mobility, Cell cell) {
  const Layout& layout = map.layout();
  Polygon p;
  p.cell = cell;
  p.count = layout.localCorners(cell, p.corners);
  p.centre = layout.localCenter(cell);
  for (int i = 0; i < p.count; ++i) {
    const Point& v = p.corners[std::size_t(i)];
    const Point& w = p.corners[std::size_t((i + 1) % p.count)];
    Point n(-(w - v).y(), (w - v).x());
    n.normalize();
    if (n.dot(p.centre - v) < 0) n = -n;
    p.normals[std::size_t(i)] = n;
  }
  p.blocked = !map.passable(cell, mobility);
  p.cost = p.blocked ? 0.0f : map.cost(cell, mobility);
  return p;
}

// Least signed distance of x inside the polygon's edges (positive inside).
double depth(const Polygon& p, const Point& x) {
  double least = 1e300;
  for (int i = 0; i < p.count; ++i) least = std::min(least, p.normals[std::size_t(i)].dot(x - p.corners[std::size_t(i)]));
  return least;
}

// Distance from segment a→b to the polygon: 0 when they meet.
double distanceTo(const Polygon& p, const Point& a, const Point& b) {
  if (depth(p, a) >= 0.0 || depth(p, b) >= 0.0) return 0.0;
  double best = 1e300;
  for (int i = 0; i < p.count; ++i) {
    best = std::min(best, segmentDistance(a, b, p.corners[std::size_t(i)], p.corners[std::size_t((i + 1) % p.count)]));
  }
  return best;
}

// Every tile whose centre lies within `reach` tiles of the segment a→b (layout space), those off
// the map included (blocked).
std::vector<Polygon> tilesNear(const TileMap& map, MobilityId mobility, const Point& a, const Point& b, double reach) {
  const Layout& layout = map.layout();
  const Point low = a.cwiseMin(b).array() - reach - 1.0, high = a.cwiseMax(b).array() + reach + 1.0;
  Cell lowCell{1 << 30, 1 << 30}, highCell{-(1 << 30), -(1 << 30)};
  for (const Point& corner : {low, high, Point(low.x(), high.y()), Point(high.x(), low.y())}) {
    const Cell c = layout.tileAtLocal(corner);
    lowCell = {std::min(lowCell.x, c.x), std::min(lowCell.y, c.y)};
    highCell = {std::max(highCell.x, c.x), std::max(highCell.y, c.y)};
  }
  std::vector<Polygon> out;
  for (std::int32_t y = lowCell.y - 1; y <= highCell.y + 1; ++y) {
    for (std::int32_t x = lowCell.x - 1; x <= highCell.x + 1; ++x) {
      const Point centre = layout.localCenter({x, y});
      if (pointToSegment(centre, a, b) <= reach) out.push_back(polygonOf(map, mobility, {x, y}));
    }
  }
  return out;
}

}  // namespace

double segmentsDistance(Vec2 p, Vec2 q, Vec2 u, Vec2 v) {
  return segmentDistance(p.cast<double>(), q.cast<double>(), u.cast<double>(), v.cast<double>());
}

double wideSlack(const Layout& layout, double radiusTiles, Vec2 from, Vec2 to) {
  const double size = double(layout.tileSize());
  const double magnitude = std::max({1.0, layout.toLocal(from).cwiseAbs().maxCoeff(), layout.toLocal(to).cwiseAbs().maxCoeff(),
                                     double(from.cwiseAbs().maxCoeff()) / size, double(to.cwiseAbs().maxCoeff()) / size,
                                     radiusTiles});
  return 5e-7 * magnitude * size;
}

SegmentJudgement judgeSegment(const TileMap& map, MobilityId mobility, Vec2 from, Vec2 to, double radius,
                              double slack) {
  const Layout& layout = map.layout();
  const double size = double(layout.tileSize());
  const Point a = layout.toLocal(from), b = layout.toLocal(to), d = b - a;
  const double length = d.norm();
  const double r = radius / size;
  // Entering a tile: deeper than double noise, far below float resolution. Running along an
  // edge, for the price: within float rounding of it all along (5e-7 × magnitude, the README).
  const double magnitude = std::max({1.0, a.cwiseAbs().maxCoeff(), b.cwiseAbs().maxCoeff()});
  const double eps = 1e-11 * magnitude, alongEps = 5e-7 * magnitude;
  SegmentJudgement judgement;
  const std::vector<Polygon> polygons = tilesNear(map, mobility, a, b, r + 0.8);
  judgement.clearance = 1e300;
  for (const Polygon& p : polygons) {
    if (p.blocked) judgement.clearance = std::min(judgement.clearance, distanceTo(p, a, b) * size);
  }
  auto fail = [&](std::string why) {
    judgement.clear = false;
    judgement.why = std::move(why);
    return judgement;
  };
  if (length <= eps) {
    // A standing point: its own tile (the one whose inside holds it, or a passable one it touches).
    bool standing = false;
    for (const Polygon& p : polygons) standing = standing || (!p.blocked && depth(p, a) >= -eps);
    if (!standing) return fail("stands in a blocked tile");
  } else {
    // Cut the segment where it enters and leaves every tile, then look at each piece's middle.
    std::vector<double> cuts{0.0, 1.0};
    for (const Polygon& p : polygons) {
      double t0 = 0.0, t1 = 1.0;
      bool outside = false;
      for (int i = 0; i < p.count && !outside; ++i) {
        const double num = p.normals[std::size_t(i)].dot(a - p.corners[std::size_t(i)]);
        const double den = p.normals[std::size_t(i)].dot(d);
        if (std::abs(den) < 1e-15) {
          outside = num < 0.0;
          continue;
        }
        const double t = -num / den;
        if (den > 0) t0 = std::max(t0, t);
        else t1 = std::min(t1, t);
      }
      if (!outside && t0 < t1) {
        cuts.push_back(t0);
        cuts.push_back(t1);
      }
    }
    std::sort(cuts.begin(), cuts.end());
    double cost = 0.0, dearest = 0.0;
    for (std::size_t i = 1; i < cuts.size(); ++i) {
      const double t0 = cuts[i - 1], t1 = cuts[i];
      if (t1 - t0 <= 1e-15) continue;
      const Point middle = a + d * (0.5 * (t0 + t1)), p0 = a + d * t0, p1 = a + d * t1;
      const Polygon* inside = nullptr;
      bool touchesPassable = false;
      double dearer = -1.0;  // the dearest passable tile the piece runs inside or along
      for (const Polygon& p : polygons) {
        const double depthHere = depth(p, middle);
        if (depthHere > eps) inside = &p;
        touchesPassable = touchesPassable || (depthHere >= -eps && !p.blocked);
        if (!p.blocked && std::min({depthHere, depth(p, p0), depth(p, p1)}) >= -alongEps) {
          dearer = std::max(dearer, double(p.cost));
        }
      }
      if (inside != nullptr && inside->blocked) {
        return fail("enters blocked tile (" + std::to_string(inside->cell.x) + "," + std::to_string(inside->cell.y) +
                    ") by " + std::to_string(depth(*inside, middle)) + " tiles");
      }
      // Exactly along an edge between two blocked tiles is inside a wall.
      if (inside == nullptr && !touchesPassable) return fail("runs along an edge between blocked tiles");
      cost += (t1 - t0) * length * size * dearer;
      dearest = std::max(dearest, dearer);
    }
    // Squeezing: a corner strictly inside the segment with blocked tiles on both sides of it.
    for (const Polygon& p : polygons) {
      if (!p.blocked) continue;
      for (int i = 0; i < p.count; ++i) {
        const Point& v = p.corners[std::size_t(i)];
        const double t = (v - a).dot(d) / (length * length);
        if (t <= eps / length || t >= 1.0 - eps / length || pointToSegment(v, a, b) > eps) continue;
        bool left = false, right = false;
        for (const Polygon& q : polygons) {
          if (!q.blocked) continue;
          bool hasCorner = false;
          for (int j = 0; j < q.count; ++j) hasCorner = hasCorner || (q.corners[std::size_t(j)] - v).norm() <= eps;
          if (!hasCorner) continue;
          const double side = cross(d, q.centre - v) / length;
          left = left || side < -eps;
          right = right || side > eps;
        }
        if (left && right) return fail("squeezes between blocked tiles at a corner");
      }
    }
    judgement.cost = cost;
    judgement.dearest = dearest;
  }
  // Wide bodies (half a tile or more) keep the radius up to the float rounding of their points
  // (README): 5·10⁻⁷ tiles × the largest of the coordinates in tiles from the map's corner and
  // from the world's origin, and the radius in tiles.
  if (r >= 0.5) slack = std::max(slack, wideSlack(layout, r, from, to));
  if (radius > 0.0 && judgement.clearance < radius - slack) {
    return fail("comes within " + std::to_string(judgement.clearance) + " of a blocked tile");
  }
  judgement.clear = true;
  return judgement;
}

PolylineJudgement judgePolyline(const TileMap& map, MobilityId mobility, std::span<const Vec2> points, double radius,
                                std::span<const Door* const> walls, double touch, double slack) {
  PolylineJudgement judgement;
  for (std::size_t i = 1; i < points.size(); ++i) {
    const SegmentJudgement segment = judgeSegment(map, mobility, points[i - 1], points[i], radius, slack);
    auto where = [&] {
      return " (segment " + std::to_string(i) + ": " + std::to_string(points[i - 1].x()) + "," +
             std::to_string(points[i - 1].y()) + " to " + std::to_string(points[i].x()) + "," +
             std::to_string(points[i].y()) + ")";
    };
    if (!segment.clear) {
      judgement.why = segment.why + where();
      return judgement;
    }
    for (const Door* door : walls) {
      const double distance = segmentsDistance(points[i - 1], points[i], door->edge[0], door->edge[1]);
      // (Wide bodies: up to the float rounding of the points, as for tiles.)
      const Layout& layout = map.layout();
      const double size = double(layout.tileSize());
      const double doorSlack =
          radius >= 0.5 * size ? std::max(slack, wideSlack(layout, radius / size, points[i - 1], points[i])) : slack;
      if (distance < std::max(radius - doorSlack, touch)) {
        judgement.why = "within " + std::to_string(distance) + " of door " + door->name + where();
        return judgement;
      }
    }
    judgement.cost += segment.cost;
  }
  judgement.clear = true;
  return judgement;
}

std::optional<std::vector<Vec2>> radiusKeepingCentrePolyline(const TileMap& map, MobilityId mobility,
                                                             std::span<const Cell> tiles, Vec2 start, Vec2 goal,
                                                             double radius, std::span<const Door* const> walls) {
  const Layout& layout = map.layout();
  auto keeps = [&](Vec2 p, Vec2 q) {
    const std::array<Vec2, 2> segment{p, q};
    return judgePolyline(map, mobility, segment, radius, walls).clear;
  };
  std::vector<Vec2> out{start};
  for (std::size_t k = 0; k < tiles.size(); ++k) {
    const Vec2 centre = layout.tileCenter(tiles[k]);
    if (k > 0 && !keeps(out.back(), centre)) {
      // Cross the shared edge nearer to one of its ends, as little as the radius needs.
      const Vec2 previous = out.back();
      std::array<Point, 6> ca, cb;
      const int na = layout.localCorners(tiles[k - 1], ca), nb = layout.localCorners(tiles[k], cb);
      std::vector<Point> shared;
      for (int i = 0; i < na; ++i) {
        for (int j = 0; j < nb; ++j) {
          if ((ca[std::size_t(i)] - cb[std::size_t(j)]).norm() < 1e-9) shared.push_back(ca[std::size_t(i)]);
        }
      }
      if (shared.size() != 2) return std::nullopt;
      const Point middle = (shared[0] + shared[1]) * 0.5;
      std::optional<Vec2> best;
      double bestCost = 1e300;
      for (const Point& end : shared) {
        auto at = [&](double s) { return layout.toWorld(middle + (end - middle) * s); };
        if (!keeps(previous, at(0.999)) || !keeps(at(0.999), centre)) continue;
        double low = 0.0, high = 0.999;
        for (int i = 0; i < 50; ++i) {
          const double s = 0.5 * (low + high);
          (keeps(previous, at(s)) && keeps(at(s), centre) ? high : low) = s;
        }
        const std::array<Vec2, 3> way{previous, at(high), centre};
        const double cost = judgePolyline(map, mobility, way, radius, walls).cost;
        if (cost < bestCost) {
          bestCost = cost;
          best = at(high);
        }
      }
      if (!best) return std::nullopt;
      out.push_back(*best);
    }
    out.push_back(centre);
  }
  out.push_back(goal);
  return out;
}

bool reachable(const TileMap& map, MobilityId mobility, std::span<const Door> doors, Cell start, Cell goal,
               double radius) {
  const Layout& layout = map.layout();
  auto doorBetween = [&](Cell a, Cell b) -> const Door* {
    for (const Door& door : doors) {
      if ((door.a == a && door.b == b) || (door.a == b && door.b == a)) return &door;
    }
    return nullptr;
  };
  auto wallDoor = [&](Cell a, Cell b) {
    const Door* door = doorBetween(a, b);
    return door != nullptr && door->state != DoorState::Open;
  };
  const bool wide = layout.isHex() && radius / double(layout.tileSize()) >= double(kHexHalfEdge);
  std::vector<char> seen(std::size_t(map.tileCount()), 0);
  std::deque<Cell> open{start};
  seen[std::size_t(map.index(start))] = 1;
  while (!open.empty()) {
    const Cell cell = open.front();
    open.pop_front();
    if (cell == goal) return true;
    const auto moves = layout.moves(cell);
    for (std::size_t i = 0; i < moves.size(); ++i) {
      const NeighbourStep& step = moves[i];
      if (!map.canStep(cell, step, mobility)) continue;
      const Cell next{cell.x + step.dx, cell.y + step.dy};
      if (!step.sharesEdge) {
        // A square diagonal passes the corner of four tiles: no wall door may end there.
        const Cell sideA{cell.x + step.dx, cell.y}, sideB{cell.x, cell.y + step.dy};
        if (wallDoor(cell, sideA) || wallDoor(cell, sideB) || wallDoor(sideA, next) || wallDoor(sideB, next)) continue;
      }
      if (wide) {
        // The two tiles at the ends of the edge crossed, found geometrically.
        const Point ends = (layout.localCenter(cell) + layout.localCenter(next)) * 0.5;
        int obstructed = 0;
        for (const NeighbourStep& other : layout.touching(cell)) {
          const Cell third{cell.x + other.dx, cell.y + other.dy};
          if (third == next) continue;
          if ((layout.localCenter(third) - ends).norm() > 0.9) continue;  // not at an end of this edge (0.87 or 1.32 away)
          obstructed += !map.passable(third, mobility) || wallDoor(cell, third) || wallDoor(next, third) ? 1 : 0;
        }
        if (obstructed == 2) continue;
      }
      if (!map.contains(next) || seen[std::size_t(map.index(next))]) continue;
      seen[std::size_t(map.index(next))] = 1;
      open.push_back(next);
    }
  }
  return false;
}

}  // namespace rpgnav::test

namespace rpgnav::test {

BodyFitRule::BodyFitRule(const TileMap& m, MobilityId mob, double r, std::vector<const Door*> w)
    : map(m), mobility(mob), radius(r), walls(std::move(w)) {
  for (std::int32_t i = 0; i < map.tileCount(); ++i) {
    clearance.push_back(stepClearance(map, mobility, map.cellAt(i), map.cellAt(i), radius));
  }
}

double BodyFitRule::stepClearance(const TileMap& map, MobilityId mobility, Cell from, Cell to, double radius) {
  const Layout& layout = map.layout();
  const double size = double(layout.tileSize());
  return judgeSegment(map, mobility, layout.tileCenter(from), layout.tileCenter(to), radius * size).clearance / size;
}

bool BodyFitRule::fits(Cell cell) const {
  // (Exact codes: a clearance equal to the radius fits. The brute force works from the float
  // centre and corners: within their rounding of it, 5·10⁻⁷ × the coordinates' magnitude in
  // tiles, as the README's rule for wide bodies allows.)
  if (!map.contains(cell)) return false;
  const Vec2 centre = map.layout().tileCenter(cell);
  const double slack = wideSlack(map.layout(), radius, centre, centre) / double(map.layout().tileSize());
  return clearance[std::size_t(map.index(cell))] >= radius - std::max(1e-6, slack);
}

std::optional<std::int64_t> BodyFitRule::step(Cell from, Cell to) const {
  if (!fits(to)) return std::nullopt;
  const Layout& layout = map.layout();
  for (const Door* door : walls) {
    if ((door->a == from && door->b == to) || (door->a == to && door->b == from)) continue;
    const double distance = segmentsDistance(layout.tileCenter(from), layout.tileCenter(to), door->edge[0], door->edge[1]);
    if (distance < radius * double(layout.tileSize()) - wideSlack(layout, radius, layout.tileCenter(from), layout.tileCenter(to))) {
      return std::nullopt;
    }
  }
  const bool between = map.layout().isHex() || (from.x != to.x && from.y != to.y);
  if (!between) return 0;
  // The tiles adjacent to both ends.
  for (const NeighbourStep& a : map.layout().moves(from)) {
    const Cell side{from.x + a.dx, from.y + a.dy};
    if (side == to) continue;
    for (const NeighbourStep& b : map.layout().moves(to)) {
      if (Cell{to.x + b.dx, to.y + b.dy} != side) continue;
      // (On squares only the two orthogonal tiles: a diagonal's neighbours in common.)
      if (!map.layout().isHex() && side.x != from.x && side.y != from.y) continue;
      if (!fits(side)) return std::nullopt;
    }
  }
  return 0;
}

bool BodyFitRule::reaches(Cell start, Cell goal) const {
  if (!fits(start) || !fits(goal)) return false;
  std::vector<char> seen(std::size_t(map.tileCount()), 0);
  std::deque<Cell> open{start};
  seen[std::size_t(map.index(start))] = 1;
  while (!open.empty()) {
    const Cell cell = open.front();
    open.pop_front();
    if (cell == goal) return true;
    for (const NeighbourStep& move : map.layout().moves(cell)) {
      const Cell next{cell.x + move.dx, cell.y + move.dy};
      if (!map.contains(next) || seen[std::size_t(map.index(next))] || !map.passable(next, mobility) || !step(cell, next)) continue;
      seen[std::size_t(map.index(next))] = 1;
      open.push_back(next);
    }
  }
  return false;
}

void addRandomDoors(std::mt19937& random, World& world, int doorsPer100) {
  const TileMap& map = world.map();
  const Layout& layout = map.layout();
  const int w = map.width(), h = map.height();
  const int doors = std::max(1, w * h * doorsPer100 / 100);
  for (int d = 0; d < doors; ++d) {
    const Cell a{std::uniform_int_distribution<int>(0, w - 1)(random), std::uniform_int_distribution<int>(0, h - 1)(random)};
    const auto moves = layout.moves(a);
    const NeighbourStep& step = moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(random)];
    const Cell b{a.x + step.dx, a.y + step.dy};
    if (!step.sharesEdge || !map.contains(b)) continue;
    const DoorState state = DoorState(std::uniform_int_distribution<int>(0, 2)(random));
    (void)world.addDoor({"d" + std::to_string(d), a, b, state});
  }
}

std::vector<const Door*> wallDoors(std::span<const Door> doors) {
  std::vector<const Door*> walls;
  for (const Door& door : doors) {
    if (door.state != DoorState::Open) walls.push_back(&door);
  }
  return walls;
}

namespace {

// For a report: the first segment whose cost the library's probe and the judge disagree on.
std::string differingSegment(const TileMap& map, const PathRequest& request, std::span<const Vec2> points) {
  for (std::size_t i = 1; i < points.size(); ++i) {
    const double mine = judgeSegment(map, request.mobility, points[i - 1], points[i], request.radius).cost;
    const double library = probeSegment(map, request.mobility, points[i - 1], points[i], request.radius).cost;
    if (std::abs(mine - library) > 1e-6 * std::max(1.0, mine)) {
      char text[200];
      std::snprintf(text, sizeof text, "; segment %.9g,%.9g to %.9g,%.9g: judged %.9g, probed %.9g", points[i - 1].x(),
                    points[i - 1].y(), points[i].x(), points[i].y(), mine, library);
      return text;
    }
  }
  return "";
}

}  // namespace

std::string costInvariantViolation(const TileMap& map, const PathRequest& request, const PathResult& result,
                                   const PlanDiagnostics& diagnostics, std::span<const Door* const> walls, bool anyAngle,
                                   bool detours) {
  anyAngle = anyAngle || diagnostics.anyAngleRoute;
  const Layout& layout = map.layout();
  const double radius = double(request.radius);
  // Costs compared with room for rounding: the stages compare their own sums to 10⁻⁹, and the
  // judge prices a piece within float rounding of an edge on its own cuts (5·10⁻⁷ × magnitude).
  auto noMore = [](double a, double b) { return a <= b + 1e-6 * std::max(1.0, std::abs(b)); };
  auto near = [](double a, double b) { return std::abs(a - b) <= 1e-6 * std::max(1.0, std::abs(b)); };
  const Vec2 end = result.status == Status::Ok ? request.goal : result.stopPoint;
  if (result.controlPoints.empty() || result.controlPoints.front() != request.start || result.controlPoints.back() != end) {
    return "the control points do not run from the start to the goal (or stop point)";
  }
  // A start pressed against a wall (its first segment does not keep the radius): the path begins
  // with the step out to the centre of its own tile or one touching it, where the body keeps the
  // radius (for a narrow body its own, the nearest centre), and is judged from there on.
  if (result.controlPoints.size() >= 2 && !judgePolyline(map, request.mobility, std::span(result.controlPoints).first(2), radius, walls).clear) {
    const Vec2 out = result.controlPoints[1];
    const Cell own = *map.tileAt(request.start);
    bool beside = out == layout.tileCenter(own);
    for (const NeighbourStep& step : layout.touching(own)) beside = beside || out == layout.tileCenter({own.x + step.dx, own.y + step.dy});
    if (!beside) return "the first segment does not keep the radius, and does not step out to a tile centre beside the start";
    if (!judgeSegment(map, request.mobility, out, out, radius).clear) return "the step out ends where the body does not keep the radius";
    const bool wide = radius >= 0.5 * double(layout.tileSize());
    if (!wide && out != layout.tileCenter(own)) return "a narrow body steps out to another tile's centre than its own";
    const SegmentJudgement step = judgeSegment(map, request.mobility, request.start, out, 0.0);
    if (!step.clear) return "the step out crosses a blocked tile: " + step.why;
    PathRequest from = request;
    from.start = out;
    PathResult rest = result;
    rest.controlPoints.erase(rest.controlPoints.begin());
    rest.cost -= step.cost;
    if (!rest.route.empty() && rest.route.front() == request.start) rest.route.erase(rest.route.begin());
    const std::string violation = costInvariantViolation(map, from, rest, diagnostics, walls, anyAngle, detours);
    return violation.empty() ? "" : "after the step out: " + violation;
  }
  const PolylineJudgement final = judgePolyline(map, request.mobility, result.controlPoints, radius, walls);
  if (!final.clear) return "final path: " + final.why;
  if (!near(final.cost, result.cost)) {
    return "final cost " + std::to_string(result.cost) + " but judged " + std::to_string(final.cost);
  }
  if (result.tilePath.empty()) return "";  // the straight line, no search
  // The route's end before stage 7: the goal, or the door stop (a blocker, found by stage 7, can
  // stop the path earlier still).
  if (result.route.empty()) return "no route recorded";
  const Vec2 routeEnd = result.route.back();
  if (routeEnd != request.goal && result.door.value == 0 && result.status != Status::BlockedByEntity) {
    return "the route ends neither at the goal nor at a door";
  }
  const std::vector<Vec2>& searched = diagnostics.stagePoints[std::size_t(PathStage::Search)];
  if (searched.size() < 2) return "no search polyline recorded";
  if (!anyAngle) {
    // Its shape: start, every A* tile's centre in order, goal; other points only on the edge
    // two consecutive tiles share (hex portals).
    std::size_t k = 0;
    for (std::size_t i = 1; i + 1 < searched.size(); ++i) {
      if (k < result.tilePath.size() && searched[i] == layout.tileCenter(result.tilePath[k])) {
        ++k;
        continue;
      }
      if (k == 0 || k >= result.tilePath.size()) return "a search polyline point is not a tile centre";
      const auto edge = layout.sharedEdge(result.tilePath[k - 1], result.tilePath[k]);
      if (!edge || pointToSegment(searched[i].cast<double>(), (*edge)[0].cast<double>(), (*edge)[1].cast<double>()) >
                       1e-5 * double(layout.tileSize())) {
        return "a search polyline point is neither a tile centre nor on the edge between two path tiles";
      }
    }
    if (k != result.tilePath.size()) return "the search polyline misses A* tiles";
  }
  if (searched.front() != request.start || searched.back() != routeEnd) {
    char text[200];
    std::snprintf(text, sizeof text, "the search polyline runs from %.9g,%.9g to %.9g,%.9g, the route to %.9g,%.9g",
                  searched.front().x(), searched.front().y(), searched.back().x(), searched.back().y(), routeEnd.x(),
                  routeEnd.y());
    return text;
  }
  const PolylineJudgement search = judgePolyline(map, request.mobility, searched, radius, walls);
  if (!search.clear) return "search polyline: " + search.why;
  if (!near(diagnostics.searchCost, search.cost)) {
    return "searchCost " + std::to_string(diagnostics.searchCost) + " but judged " + std::to_string(search.cost);
  }
  if (!anyAngle) {
    const auto reference = radiusKeepingCentrePolyline(map, request.mobility, result.tilePath, request.start,
                                                       routeEnd, radius, walls);
    if (!reference) return "the A* tiles have no radius-keeping centre polyline";
    // The planner's portal points keep 10⁻⁴ tiles beyond the radius; the reference none.
    const double referenceCost = judgePolyline(map, request.mobility, *reference, radius, walls).cost;
    if (!(search.cost <= referenceCost * (1.0 + 1e-3) + 1e-6)) {
      return "search polyline costs " + std::to_string(search.cost) + ", the reference centre polyline " +
             std::to_string(referenceCost);
    }
  }
  double previous = search.cost;
  for (const PathStage stage : {PathStage::ControlPoints, PathStage::StraightenForward, PathStage::CornerRouting,
                                PathStage::StraightenBackward}) {
    const std::vector<Vec2>& points = diagnostics.stagePoints[std::size_t(stage)];
    if (!diagnostics.stats(stage).ran || points.empty()) continue;
    const std::string name(toString(stage));
    const PolylineJudgement judged = judgePolyline(map, request.mobility, points, radius, walls);
    if (!judged.clear) return name + ": " + judged.why;
    if (!near(diagnostics.stageCosts[std::size_t(stage)], judged.cost)) {
      return name + " cost " + std::to_string(diagnostics.stageCosts[std::size_t(stage)]) + " but judged " +
             std::to_string(judged.cost) + differingSegment(map, request, points);
    }
    if (!noMore(judged.cost, previous)) {
      return name + " raises the cost from " + std::to_string(previous) + " to " + std::to_string(judged.cost);
    }
    previous = judged.cost;
  }
  if (!detours && !noMore(final.cost, search.cost)) {
    return "final cost " + std::to_string(final.cost) + " above the search polyline's " + std::to_string(search.cost);
  }
  return "";
}

}  // namespace rpgnav::test

namespace rpgnav::test {
namespace {

using Point = Eigen::Vector2d;

// Distance from a point to a convex polygon (0 inside), written here independently of the
// library's geometry.
double pointToPolygon(const Point& x, const TilePolygon& polygon) {
  bool inside = true;
  double best = 1e30;
  for (int i = 0; i < polygon.count; ++i) {
    const Point a = polygon.corners[std::size_t(i)].cast<double>();
    const Point b = polygon.corners[std::size_t((i + 1) % polygon.count)].cast<double>();
    // Corners are clockwise on screen (y down): inside is to the right of each edge there.
    const double side = (b.x() - a.x()) * (x.y() - a.y()) - (b.y() - a.y()) * (x.x() - a.x());
    if (side < 0) inside = false;
    best = std::min(best, pointToSegment(x, a, b));
  }
  return inside ? 0.0 : best;
}

}  // namespace

// Distance from the segment a→b to a convex polygon (0 when it touches or enters it), exact.
double segmentToPolygon(const Point& a, const Point& b, const TilePolygon& polygon) {
  if (pointToPolygon(a, polygon) == 0.0) return 0.0;
  double best = 1e30;
  for (int i = 0; i < polygon.count; ++i) {
    best = std::min(best, test::segmentDistance(a, b, polygon.corners[std::size_t(i)].cast<double>(),
                                                polygon.corners[std::size_t((i + 1) % polygon.count)].cast<double>()));
  }
  return best;
}

// Points every `step` along the curve (its table's chords are within the stage's tolerance of
// it, and every table point lies on it).
std::vector<Vec2> densePoints(const SmoothPath& path, double step) {
  std::vector<Vec2> out;
  path.sampleEvery(step, out);
  for (const SmoothPath::Sample& sample : path.samples()) out.push_back(sample.point);
  return out;
}

// The independent check: every point of the curve is on a tile the mobility may enter and at
// least `radius` (less `slack`) from every blocked tile, closed door and blocking entity; and so
// is every chord of its sampled polyline, by exact segment distances (less the sampling
// tolerance too). Returns the first violation found, or an empty string.
std::string curveViolation(const World& world, const PathRequest& request, const SmoothPath& path, double slack) {
  const TileMap& map = world.map();
  const Layout& layout = map.layout();
  const double radius = double(request.radius) - slack;
  // Only closed doors and blocking entities near the curve matter (the curve lies in the box of
  // its spans' points): flat entities, the character itself and those it starts inside do not block.
  Point low = Point::Constant(1e30), high = Point::Constant(-1e30);
  for (const CubicSpan& span : path.spans()) {
    for (const Vec2& q : span.p) {
      low = low.cwiseMin(q.cast<double>());
      high = high.cwiseMax(q.cast<double>());
    }
  }
  auto nearBox = [&](const Point& a, const Point& b, double reach) {
    return (a.cwiseMin(b).array() <= high.array() + reach).all() && (a.cwiseMax(b).array() >= low.array() - reach).all();
  };
  std::vector<const Door*> closed;
  for (const Door& door : world.doors()) {
    if (door.state != DoorState::Open && nearBox(door.edge[0].cast<double>(), door.edge[1].cast<double>(), double(request.radius))) {
      closed.push_back(&door);
    }
  }
  std::vector<const Entity*> blocking;
  for (const Entity& e : world.entities().all()) {
    const bool holdsStart = (e.position - request.start).norm() < e.radius + request.radius;
    const Point centre = e.position.cast<double>();
    if (!e.flat() && !holdsStart && e.id != request.character && nearBox(centre, centre, double(e.radius + request.radius))) {
      blocking.push_back(&e);
    }
  }
  // A blocked tile within the radius of a point is at most this many tiles from the point's own.
  // (Its centre within radius + 2 circumradii of the point's own tile's centre: on hexes more
  // steps of offset coordinates than on squares.)
  const std::int32_t around = std::int32_t(std::ceil(double(request.radius) / double(layout.tileSize()))) + 2;
  for (const Vec2& p : densePoints(path, 0.05 * layout.tileSize())) {
    const Point x = p.cast<double>();
    // (Built only for a violation: formatting every point would cost more than the checks.)
    auto where = [&p] { return " at " + std::to_string(p.x()) + "," + std::to_string(p.y()); };
    const auto tile = map.tileAt(p);
    if (!tile || !map.passable(*tile, request.mobility)) return "forbidden tile" + where();
    for (std::int32_t dy = -around; dy <= around; ++dy) {
      for (std::int32_t dx = -around; dx <= around; ++dx) {
        const Cell near{tile->x + dx, tile->y + dy};
        if (!map.passable(near, request.mobility) && pointToPolygon(x, layout.tilePolygon(near)) < radius) {
          return "too close to a blocked tile" + where();
        }
      }
    }
    for (const Door* door : closed) {
      if (pointToSegment(x, door->edge[0].cast<double>(), door->edge[1].cast<double>()) < radius) {
        return "too close to door " + door->name + where();
      }
    }
    for (const Entity* e : blocking) {
      if ((x - e->position.cast<double>()).norm() < double(e->radius) + radius) {
        return "inside entity " + std::to_string(e->id.value) + where();
      }
    }
  }
  // The polyline a game gets (sampled to the stage's default tolerance, 0.01 tiles): each chord,
  // exactly, against the blocked tiles, closed doors and blocking entities around it. A chord may
  // stray that tolerance from the curve.
  const double tolerance = 0.01 * double(layout.tileSize());
  std::vector<Vec2> polyline;
  path.sample(tolerance, polyline);
  const double chordRadius = radius - tolerance;
  const std::int32_t reach = std::int32_t(std::ceil(double(request.radius) / double(layout.tileSize()))) + 2;
  for (std::size_t i = 1; i < polyline.size(); ++i) {
    const Point a = polyline[i - 1].cast<double>(), b = polyline[i].cast<double>();
    auto where = [&a, &b] {
      return " on the chord from " + std::to_string(a.x()) + "," + std::to_string(a.y()) + " to " + std::to_string(b.x()) +
             "," + std::to_string(b.y());
    };
    const auto from = map.tileAt(polyline[i - 1]), to = map.tileAt(polyline[i]);
    if (!from || !to) return "chord leaves the map" + where();
    for (std::int32_t y = std::min(from->y, to->y) - reach; y <= std::max(from->y, to->y) + reach; ++y) {
      for (std::int32_t x = std::min(from->x, to->x) - reach; x <= std::max(from->x, to->x) + reach; ++x) {
        if (!map.passable({x, y}, request.mobility) && segmentToPolygon(a, b, layout.tilePolygon({x, y})) < chordRadius) {
          return "chord too close to a blocked tile" + where();
        }
      }
    }
    for (const Door* door : closed) {
      if (test::segmentDistance(a, b, door->edge[0].cast<double>(), door->edge[1].cast<double>()) < chordRadius) {
        return "chord too close to door " + door->name + where();
      }
    }
    for (const Entity* e : blocking) {
      if (pointToSegment(e->position.cast<double>(), a, b) < double(e->radius) + chordRadius) {
        return "chord enters entity " + std::to_string(e->id.value) + where();
      }
    }
  }
  return "";
}

}  // namespace rpgnav::test
