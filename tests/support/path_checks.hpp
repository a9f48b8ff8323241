// SPDX-License-Identifier: MIT
#pragma once
// An independent judge of planned paths: the README's rules (the touching rule, the cost model,
// clearance from walls and closed doors) computed by brute force over tile polygons in double
// precision. It shares only the tile polygons (Layout::localCorners) and the map's terrain with
// the library, not its segment walk, point location or probes.

#include "rpgnav/grid/tile_map.hpp"
#include "rpgnav/path/path.hpp"
#include "rpgnav/world/doors.hpp"
#include "rpgnav/world/world.hpp"

#include <Eigen/Core>

#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace rpgnav::test {

/// A segment as the rules see it.
struct SegmentJudgement {
  /// Enters no tile the mobility forbids (deeper than rounding), does not squeeze between two
  /// blocked tiles, and keeps `radius` (less `slack`) from every blocked tile.
  bool clear = false;
  /// Σ over tiles of the length inside it × its cost; where it runs along an edge between two
  /// passable tiles, the dearer of the two. World units. Meaningful when clear.
  double cost = 0.0;
  /// The dearest terrain it crosses or runs along (for the straight-line rule).
  double dearest = 0.0;
  /// The least distance to a blocked tile, world units (large when none is near).
  double clearance = 0.0;
  std::string why;  ///< Why it is not clear.
};

/// Judges the segment from→to for a character of `mobility` and `radius` (world units).
SegmentJudgement judgeSegment(const TileMap& map, MobilityId mobility, Vec2 from, Vec2 to, double radius,
                              double slack = 1e-6);

/// The float rounding a wide body's distances may fall short by (README, "Large characters"),
/// world units: 5·10⁻⁷ tiles × the largest of 1, the points' coordinates in tiles from the map's
/// corner and from the world's origin, and the radius in tiles.
double wideSlack(const Layout& layout, double radiusTiles, Vec2 from, Vec2 to);

/// Distance between the segment p→q and the segment u→v (world units, double precision).
double segmentsDistance(Vec2 p, Vec2 q, Vec2 u, Vec2 v);

/// A polyline as the rules see it: every segment judged, plus the doors given (walls for this
/// character) kept at the radius and never touched (within `touch` world units).
struct PolylineJudgement {
  bool clear = false;
  double cost = 0.0;
  std::string why;
};
PolylineJudgement judgePolyline(const TileMap& map, MobilityId mobility, std::span<const Vec2> points, double radius,
                                std::span<const Door* const> walls = {}, double touch = 1e-4, double slack = 1e-6);

/// A polyline through the centres of `tiles` that keeps `radius` from blocked tiles and the wall
/// doors, from `start` to `goal`: the centre-to-centre step where it keeps the radius, otherwise
/// the step crosses the tiles' shared edge at the point nearest its middle that keeps the radius
/// on both sides (found by bisection). Nothing when some step has no such point.
std::optional<std::vector<Vec2>> radiusKeepingCentrePolyline(const TileMap& map, MobilityId mobility,
                                                             std::span<const Cell> tiles, Vec2 start, Vec2 goal,
                                                             double radius, std::span<const Door* const> walls);

/// Reachability of the goal tile from the start tile for a character of `radius` under the
/// documented movement rule: steps between neighbouring passable tiles (square diagonals not
/// past a blocked tile nor a wall door's end), closed and locked doors crossed (the default
/// policy plans through them to stop in front), and on hex maps, for characters at least half a
/// hex edge wide, no step across an edge whose two ends are both obstructed — a blocked tile, or
/// a wall door on another edge, ends there.
bool reachable(const TileMap& map, MobilityId mobility, std::span<const Door> doors, Cell start, Cell goal,
               double radius);

/// The rule the search documents for a wide body (radius `radius` tiles), from brute-force
/// clearances (judgeSegment), not from Clearance: the body fits on a tile when its centre lies
/// at least the radius from every forbidden tile and the map's edge; a step needs the tiles next
/// to both of its ends to fit as well when it passes between two (square diagonals, hex steps).
struct BodyFitRule {
  const TileMap& map;
  MobilityId mobility;
  double radius;
  std::vector<double> clearance;  // per tile, in tiles
  /// Doors that are walls for the body: a step's centre segment keeps the radius from each of
  /// them but the one it crosses (closed doors are crossed: the path stops in front of them).
  std::vector<const Door*> walls;

  BodyFitRule(const TileMap& map, MobilityId mobility, double radius, std::vector<const Door*> walls = {});
  /// The least distance, in tiles, from the segment between two tiles' centres (one tile: its
  /// centre) to a forbidden tile or the map's edge: exact where below `radius`, at least it
  /// otherwise.
  static double stepClearance(const TileMap& map, MobilityId mobility, Cell from, Cell to, double radius);
  bool fits(Cell cell) const;
  /// A step rule for dijkstraCosts (0: no extra cost), nothing when the body cannot take it.
  std::optional<std::int64_t> step(Cell from, Cell to) const;
  /// True when the body can go from `start` to `goal` by such steps (both must fit).
  bool reaches(Cell start, Cell goal) const;
};

/// Doors on random edges (about `doorsPer100` per hundred tiles; a second door on one edge is
/// refused), closed, locked or open.
void addRandomDoors(std::mt19937& random, World& world, int doorsPer100);

/// The doors that are walls for a character under the default policy: closed and locked ones.
std::vector<const Door*> wallDoors(std::span<const Door> doors);

/// The cost invariant (README, "One cost model") on a plan made with recordStages, judged
/// independently: the search's polyline (start, the A* tiles' centres — with, for wide hex
/// characters, points on the shared edges between them — and the goal or door stop; after the
/// any-angle search, `anyAngle`, its route) and the polyline after each of stages 3 to 6 that ran
/// are clear for the character (walls and `walls` doors at the radius), none costs more than the
/// one before, each costs what the planner measured (`diagnostics`: stageCosts, searchCost), the search's costs
/// no more than radiusKeepingCentrePolyline through the same tiles (within a thousandth: the
/// planner's hex portal points keep 10⁻⁴ tiles beyond the radius), and the final control points
/// are clear too and, unless `detours` (entities in the world: stage 7 goes round them, which the
/// tile search does not see), cost no more than the search's polyline. Returns what broke, or "".
std::string costInvariantViolation(const TileMap& map, const PathRequest& request, const PathResult& result,
                                   const PlanDiagnostics& diagnostics, std::span<const Door* const> walls, bool anyAngle,
                                   bool detours = false);

/// Distance from the segment a→b to a convex tile polygon (0 when it touches or enters it), exact.
double segmentToPolygon(const Eigen::Vector2d& a, const Eigen::Vector2d& b, const TilePolygon& polygon);
/// Points every `step` along the curve, and every point of its table.
std::vector<Vec2> densePoints(const SmoothPath& path, double step);

/// The independent check of a smoothed curve: every point of it is on a tile the mobility may
/// enter and at least the radius (less `slack`) from every blocked tile, closed door and
/// blocking entity of the world; and so is every chord of its polyline sampled at 0.01 tiles, by
/// exact segment distances (less that tolerance too). Returns the first violation, or "".
std::string curveViolation(const World& world, const PathRequest& request, const SmoothPath& path, double slack);

}  // namespace rpgnav::test
