// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// LocalAvoidance: per-frame velocities for moving characters so that they pass each other
/// without touching, keep off walls and closed doors, and agree on who steps aside where a
/// corridor or a doorway is too narrow for both.
///
/// Each frame the game (or the ReplanScheduler) hands in every agent: where it is, how it moved
/// last frame and where it wants to go (its preferred velocity, e.g. PathFollower::
/// preferredVelocity). LocalAvoidance returns a safe velocity per agent:
/// - against other agents, optimal reciprocal collision avoidance (ORCA: van den Berg, Guy, Lin
///   and Manocha, "Reciprocal n-body collision avoidance", 2011): each pair shares the avoiding
///   (half each, or by priority), so that, if every agent keeps its new velocity, no two collide
///   within `timeHorizon`;
/// - against walls (tiles the agent's mobility cannot enter, the map's border), closed doors and
///   the game's static entities, hard half-planes through the nearest point of each obstacle:
///   a step of at most `obstacleTimeHorizon` seconds never brings the body closer than its radius.
///   Straight walls are merged into one segment (no catching on tile seams);
/// - where the agents alone would stand still facing each other (a corridor, a doorway), a yield
///   rule picks who makes way (below), and that agent steps aside into room, or backs off.
///
/// The passage rule (square and hex maps). Where two bodies cannot pass each other (a one-tile doorway,
/// a footbridge, a corridor narrower than four radii: see the agents' `route`), one direction at
/// a time goes through: an agent whose route enters such a passage while agents from another of
/// its mouths are inside, or on their way in, waits short of it; otherwise it goes in, and holds
/// the passage for its side. Of agents reaching a free passage in the same frame, the one with
/// the higher priority, then the longer wait, then the lower id goes first. A side that has
/// waited `passageTurn` seconds gets the next turn: the other side lets no one else in.
///
/// Knots. An agent held up for 0.8 s (not yielding, not waiting) turns its wish 40 degrees aside,
/// one way then the other (by its id and the time held), so that a knot where every wish blocks
/// another comes undone.
///
/// The yield rule. An agent that has wanted to move but made less than a third of its preferred
/// speed for `yieldAfter` seconds, with another agent in front of it (within contact reach, on
/// its way) that wants to go the opposite way or stands idle, is in a conflict with that agent.
/// The one that goes first is the one with, in this order: the higher priority; walking rather
/// than idle (an idle agent has no preferred velocity: one standing at its goal makes way); the
/// right of way (it won a conflict less than `rightOfWay` seconds ago and is still passing);
/// the longer wait; the lower id. The other makes way until the winner has passed it (at most
/// `yieldTimeout` seconds): it steps to the side of the winner's line it already is on, if there
/// is room there, else to the other side, else back the way it came, and takes 90% of the
/// avoiding between the two. All of it is deterministic: the same inputs, in any order, give the
/// same velocities (ties break on ids, never on the order of the input).
///
/// Costs: a uniform grid over the agents, built each frame by counting sort, finds the
/// `maxNeighbours` nearest within reach (ordered by distance, then id; the few agents faster than
/// twice the mean speed are looked for apart); walls come from the tiles
/// within a few tiles of each agent, read from the live map (an edit costs nothing here), closed
/// doors from the World's door buckets, static entities from the list given per frame. No
/// allocation once the agent count stops growing.
///
/// Thread-safety: one LocalAvoidance per scheduler or game loop, used from one thread; solve() may
/// run on several threads at once between prepare() and finish() (it only reads the frame). It
/// reads the World's map and doors during prepare() and solve(): the game must not edit them then.

#include "rpgnav/core/export.hpp"
#include "rpgnav/core/status.hpp"
#include "rpgnav/core/types.hpp"
#include "rpgnav/world/world.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace rpgnav {

/// How one agent avoids. Distances are in tiles, times in seconds.
struct AvoidanceSettings {
  /// Kept beyond the body's radius from other agents (so that rounding never lets bodies touch).
  /// [Limit: 0..0.5]
  float margin = 0.03f;
  /// Agents taken into account, the nearest first. [Limit: 1..32]
  std::int32_t maxNeighbours = 10;
  /// How far ahead collisions with other agents are avoided: longer is smoother but shyer.
  /// [Limit: > 0, at most 10]
  float timeHorizon = 1.0f;
  /// The same against walls, closed doors and static entities. [Limit: > 0, at most 10]
  float obstacleTimeHorizon = 0.25f;
  /// Higher goes first (a pair of different priorities splits the avoiding 1 : 3, the higher side
  /// taking the smaller share; in a yield conflict the higher never makes way).
  std::int32_t priority = 0;
  /// False: moves exactly as it prefers (a player the game drives); the others do all the
  /// avoiding of it.
  bool responsive = true;
};

/// True when every setting is within its limits.
RPGNAV_API bool validAvoidanceSettings(const AvoidanceSettings& settings) noexcept;

/// One agent of one frame.
struct AvoidanceAgent {
  EntityId id{0};  ///< Unique among the frame's agents (ties break on it).
  MobilityId mobility{0};
  Vec2 position = Vec2::Zero();   ///< World units.
  Vec2 velocity = Vec2::Zero();   ///< How it moved last frame (world units per second).
  Vec2 preferred = Vec2::Zero();  ///< Where it wants to go now (world units per second); zero: idle.
  float radius = 0.0f;            ///< The body's radius, world units, >= 0.
  float maxSpeed = 0.0f;          ///< World units per second, > 0 (|preferred| is clamped to it).
  AvoidanceSettings settings;
  /// Optional: points of its path ahead, from where it is, a quarter tile apart or so (two or three
  /// tiles of them): lets the passage rule see a narrow passage coming. Read during prepare().
  std::span<const Vec2> route = {};
};

/// What an agent does in a yield.
enum class YieldKind : std::uint8_t {
  None,   ///< Goes its way.
  Aside,  ///< Steps aside, out of the winner's line.
  Back,   ///< Backs off the way it came (no room at either side).
  Wait,   ///< Waits before a narrow passage while others come through it the other way (or
          ///< queues behind one who does).
};

/// The answer for one agent (same index as its input).
struct AvoidanceResult {
  Vec2 velocity = Vec2::Zero();  ///< Safe velocity for the frame (world units per second).
  YieldKind yield = YieldKind::None;
  EntityId yieldingTo{0};      ///< The agent it makes way for.
  std::uint8_t neighbours = 0;  ///< Agents taken into account.
  std::uint8_t obstacles = 0;   ///< Wall, door and static entity half-planes taken into account.
  bool infeasible = false;      ///< No velocity avoided every agent: the least overlap was taken.
};

class RPGNAV_API LocalAvoidance {
 public:
  /// Reads `world` (map, doors): it must outlive this object.
  explicit LocalAvoidance(const World& world);
  ~LocalAvoidance();
  LocalAvoidance(LocalAvoidance&&) noexcept;
  LocalAvoidance& operator=(LocalAvoidance&&) noexcept;

  /// One frame of `dt` seconds: prepare(), solve() of every agent, finish(). `obstacles`: the
  /// game's entities that are not agents (flat ones are ignored), as discs that do not move.
  /// InvalidArgument (nothing done, `out` untouched) for a dt that is not positive and finite,
  /// an `out` of another size than `agents`, or a bad agent (see prepare()).
  Status step(std::span<const AvoidanceAgent> agents, std::span<const Entity> obstacles, double dt,
              std::span<AvoidanceResult> out);

  /// The same in three parts, for a job system. prepare() copies the frame (agents and
  /// obstacles) and builds the neighbour grid. InvalidArgument for a bad dt, a duplicate or zero
  /// id, a non-finite position, velocity or preferred velocity, a radius out of [0, 3 tiles], a
  /// max speed that is not positive and finite, or settings out of their limits.
  Status prepare(std::span<const AvoidanceAgent> agents, std::span<const Entity> obstacles, double dt);
  /// Velocities of the prepared agents [first, first + count) into out[first...]. Any number of
  /// threads at once on disjoint ranges; the results do not depend on the split.
  void solve(std::size_t first, std::size_t count, std::span<AvoidanceResult> out) const;
  /// After every agent was solved: the yield rule's bookkeeping (who is in a conflict, who makes
  /// way next frame). Agents absent from a frame are forgotten.
  void finish(std::span<const AvoidanceResult> out);

  /// Agents of the last prepare().
  std::size_t size() const noexcept;

 private:
  struct RPGNAV_HIDDEN Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace rpgnav
