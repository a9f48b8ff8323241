// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// The settings of the character pipeline's stages (PlannerSettings holds one of each), and what
/// each stage does. Each stage is one function in its own file under lib/path/; the defaults suit
/// most games. Every stage keeps the pipeline's invariants: it never raises the path's weighted
/// cost, never enters a tile the mobility forbids, and never brings the path closer than the
/// character's radius to a blocked tile (each change is checked with probeSegment before it is
/// made).
///
/// Comfort (PathRequest::comfort): stages 3 to 6 and 8 prefer changes
/// that keep radius + comfort from walls, trying a few levels of clearance in turn — radius +
/// comfort, + half of it, + a quarter (for a comfort of a tenth of a tile or more), then the
/// radius alone; radius + comfort counts up to 0.49 tiles (4 tiles for bodies of half a tile or
/// more). A change at a level is made only when
/// it keeps that level's clearance and, as always, is neither dearer nor longer than what it
/// replaces; a less comfortable level is tried only where the path does not keep the one above
/// already. So a path keeps the comfort where there is room and comes closer, down to the radius,
/// where a passage is narrower; it never fails for comfort, and every invariant above still holds.
/// An end of the path (start, goal, door stop) standing closer to a wall than a level's clearance
/// is forgiven within twice that clearance of it. With comfort 0 every stage runs exactly as it
/// did before comfort existed.

#include <cstdint>

namespace rpgnav {

/// Stage 1, the straight line (the rule of the Knights of Frontier Valley pipeline): when the
/// character can walk straight from start to goal without crossing terrain dearer than the
/// dearer of its two ends' tiles, it does, with no search. "Can walk" means the segment is clear
/// for the character's radius (walls, and doors other than free open ones); other entities do
/// not count here (stage 7 leads the line round them). Whatever this stage decides, the planner
/// never returns a path dearer than a clear straight segment: when the segment is clear but
/// crosses dearer terrain, the searched path replaces it only where it is cheaper (see
/// Planner). The stage has no settings (the struct is there for symmetry with the others).
struct StraightLineSettings {};

/// Stage 3: one control point per tile of the A* path — where the line from the previous point
/// toward the goal leaves the tile, or else the search route's own point in the tile (its centre;
/// after the any-angle search, where the route crosses it), when that line does not lead on along
/// the path, is not clear or costs more. The result never costs more than the search route's own
/// polyline. With comfort an exit point is taken only when its way keeps the comfort, or when the
/// route point's way does not keep it either. On hex maps, for characters under half a hex edge
/// on a path of tiles of one cost: the shortest way through the path's tiles instead
/// (bending at the ends of the edges it crosses, clear of walls by the comfort and 0.2 tiles more;
/// see the README's pipeline).
struct ControlPointSettings {
  /// Use exit points toward the goal (or the hex corridor's way); false gives plain tile centres.
  bool exitPoints = true;
};

/// Stages 4 and 6: drop every control point whose two neighbours see each other at no extra
/// cost, walking from the start (or, reversed, from the goal). With comfort, "see" means at
/// radius + comfort first; where no point ahead is seen so and the segment to the next point does
/// not keep the comfort either, at the clearance that segment keeps (so no shortcut is less
/// comfortable than the segment it starts by replacing).
struct StraightenSettings {
  /// Never merge points into a segment longer than this many tiles (caps the cost of one probe
  /// on huge open maps); 0 = no cap. [Units: tiles] [Limit: >= 0]
  float maxSegmentLength = 0.0f;
};

/// Stage 5: pull the path tight round blocked corners. For each inner point b between a (the
/// point before it) and c, the blocked corners inside the triangle a-b-c lie between the path
/// and the line a→c and must stay on that side; the shortest such way from a to c bends at the
/// ones on their convex hull, each at the point beside its corner that keeps the radius (the
/// map's convex corners). That way replaces b when all of it is clear and it is neither dearer nor
/// longer. Repeated with straightening (stage 6), this pulls the path taut: every bend on a
/// blocked corner it wraps round. With comfort the bends stand radius + comfort (and the margin)
/// off the corners, or at the most comfortable level at which the way round is clear; a less
/// comfortable level replaces b only where b's own way does not keep the level above, or keeping
/// it would be more than twice the comfort longer than the tight way round the same corners.
struct CornerRoutingSettings {
  /// Extra distance beyond the clearance a bend keeps (the radius, or more with comfort), so
  /// floating-point rounding never brings the path closer than that. [Units: tiles] [Limit: > 0]
  float margin = 1e-3f;
  /// In stage 6, corner routing and straightening alternate direction for at most this many
  /// rounds, stopping early when a round changes nothing. [Limit: >= 0]
  int maxRounds = 4;
};

/// Stage 7: round other entities. Each segment is checked against the personal spaces of the
/// entities near it, grown by the character's radius; where it enters one, the segment stays
/// but control points are added that lead round the blocker on its shorter valid side: round the
/// convex hull of the blocker's group (entities too close together to pass between count as one),
/// either from the segment's ends or from points just before and after the group. A side is valid
/// when every new segment is clear (line of sight, radius from walls and barriers), crosses no
/// terrain dearer than the dearest the replaced segment crosses, and enters no entity's space; an entity in the
/// way of a side joins the group and the sides are tried again. With no valid side the path ends
/// in front of the blocker. Flat entities, the character itself, the query's ignored entities and
/// entities whose space already holds the start never block.
struct DetourSettings {
  /// Sides of the polygon that stands in for a personal space (drawn round the grown disc, so
  /// its edges keep out of it). More sides hug the disc closer. [Limit: 4..64]
  int polygonSides = 8;
  /// Gap kept beyond the two radii. [Units: tiles] [Limit: >= 0]
  float margin = 0.02f;
  /// Largest group gone round as one; a larger cluster blocks the way. Bounds the work per
  /// segment. [Limit: >= 1]
  int maxGroup = 32;
  /// How far before the blocker's grown space a blocked path stops. [Units: tiles] [Limit: >= 0]
  float stopGap = 0.05f;
  /// Only segments that begin within this distance along the path from its start are led round
  /// entities; the rest is kept as it is (moving entities will be elsewhere by the time the
  /// character gets there, and a replan then sees them: the ReplanScheduler uses this). 0: the
  /// whole path. [Units: tiles] [Limit: >= 0]
  float horizon = 0.0f;
};

/// Stage 8: a centripetal Catmull-Rom spline through the final control points (Yuksel, Schaefer &
/// Keyser 2011: with knot spacing |Δp|^0.5 a span has no cusp and does not cross itself), one
/// cubic Bézier span per segment; at the two ends the missing neighbour is the next point
/// mirrored, so the curve leaves the start and reaches the goal along the first and last
/// segments (no overshoot). Every span is checked exactly before it is kept: the curve lies in
/// the convex hull of its four Bézier points, so the span is valid when that hull keeps the
/// radius from walls, doors that are walls and entity spaces and, on weighted maps, overlaps no
/// tile dearer than the dearest the straight segment crosses; a hull that fails is split in
/// halves (whose hulls hug the curve closer) and these are checked in turn. A span that fails is
/// tightened towards its segment (handles halved, then quartered) and finally replaced by the
/// straight segment, which the earlier stages made valid;
/// each such repair counts in the stage's `repairs`. The curve passes through every control
/// point, so door stops and blocked ends are kept exactly. With comfort a span keeps from walls
/// (blocked tiles and doors, not entities) the clearance its straight segment keeps, up to
/// radius + comfort: the curve never brings the path closer to a wall than the control points
/// do.
struct SmoothingSettings {
  /// Knot spacing exponent: 0.5 centripetal (the default), 0 uniform, 1 chordal. [Limit: 0..1]
  float alpha = 0.5f;
  /// Farthest the curve may stray from the control polyline: spans bulging further are
  /// tightened. [Units: tiles] [Limit: >= 0]
  float maxDeviation = 0.5f;
  /// Spans that begin farther than this along the path from its start are not checked against
  /// entities (the Planner sets it to DetourSettings::horizon: beyond it the path is not led round
  /// them either). 0: every span. [Units: tiles] [Limit: >= 0]
  float entityHorizon = 0.0f;
  /// The arc length table's chords keep within this of the curve; SmoothPath::sample at this
  /// tolerance or coarser returns the table's points without evaluating the curve again.
  /// [Units: tiles] [Limit: >= 1e-4; finer is taken as 1e-4, which keeps the table to a few
  /// hundred points a span]
  float tolerance = 0.01f;
};

}  // namespace rpgnav
