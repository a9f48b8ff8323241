// SPDX-License-Identifier: MIT
// Private to lib/avoid: the local avoidance's tuning, its memory of each agent between frames,
// and its implementation class, whose members live in local_avoidance.cpp (the frame prepared,
// the grid of neighbours), velocity_solver.cpp (each agent's velocity) and yield_rules.cpp (who
// makes way: passage turns and yields).
#pragma once

#include "rpgnav/avoid/local_avoidance.hpp"

#include "half_plane_lp.hpp"
#include "obstacle_planes.hpp"
#include "passages.hpp"
#include "rpgnav/core/limits.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <unordered_map>
#include <cstdint>
#include <vector>

namespace rpgnav {
namespace avoid {

// Below this fraction of the speed an agent counts as idle (no preferred velocity) or as held up.
inline constexpr float kIdleFraction = 0.05f;
// The yield rule's clocks (seconds) and speeds (fractions of the max speed).
inline constexpr float kYieldAfter = 0.3f;     // held up this long with a partner in front: a conflict
inline constexpr float kYieldMinimum = 0.5f;   // a yield lasts at least this long...
inline constexpr float kYieldTimeout = 3.0f;   // ...and at most this long
inline constexpr float kRightOfWay = 1.5f;     // a winner keeps going first this long
inline constexpr float kPassageTurn = 4.0f;   // a side waiting this long at a passage gets the next turn
inline constexpr float kCommitPatience = 2.0f;   // held up this long short of its passage: gives its turn up
inline constexpr float kMouthClearance = 1.25f;  // tiles kept between a waiting body and the passage
inline constexpr std::int32_t kMaxSides = 8;    // passage mouths told apart (more: treated as unknown)
inline constexpr float kAsideSpeed = 0.5f;
inline constexpr float kBackSpeed = 0.6f;
// Shares of the avoiding between a yielding agent and the one it makes way for.
inline constexpr float kYielderShare = 0.9f;
// Keep right: a head-on neighbour turns the preferred velocity by 15 degrees (cos, sin), no trig.
inline constexpr float kKeepRightCos = 0.96592583f, kKeepRightSin = 0.25881905f;
// Held up this long (seconds, not yielding, not waiting): its wish turns 40 degrees aside.
inline constexpr float kWiggleAfter = 0.8f;
inline constexpr float kWiggleCos = 0.76604444f, kWiggleSin = 0.64278761f;
// The most planes an agent builds: neighbours plus obstacles.
inline constexpr std::size_t kMaxNeighbours = 32;
inline constexpr std::size_t kMaxObstaclePlanes = 64;
// Obstacle planes gathered before the nearest kMaxObstaclePlanes are kept.
inline constexpr std::size_t kMaxGathered = 512;
// Steps shorter than this are taken as this long where an overlap is undone (no overflow).
inline constexpr double kShortestStep = 1e-4;
// Agents faster than this many times the mean max speed are looked for by everyone apart, so
// that one fast agent does not widen everyone's neighbour search.
inline constexpr float kFastFactor = 2.0f;

inline float cross(Vec2 a, Vec2 b) noexcept { return a.x() * b.y() - a.y() * b.x(); }

inline Vec2 clampLength(Vec2 v, float length) noexcept {
  const float squared = v.squaredNorm();
  if (squared <= length * length) return v;
  return v * (length / std::sqrt(squared));
}

// What the avoidance remembers of an agent between frames (the yield rule).
struct Memory {
  std::uint64_t frame = 0;  // the last frame it was seen in
  std::uint32_t index = 0;  // its place in that frame's agents
  float heldUp = 0.0f;      // seconds below a third of its preferred speed while it wanted to move
  float waited = 0.0f;      // seconds held up or yielding since it last went at speed
  float rightOfWay = 0.0f;  // seconds it still goes first after winning a conflict
  YieldKind yield = YieldKind::None;
  EntityId yieldTo{0};
  float yieldAge = 0.0f;
  Vec2 yieldDirection = Vec2::Zero();
  // The passage rule: the passage ahead (-1: none), the mouth it comes from (-1: unknown),
  // whether it holds the passage for its side or waits, and for how long it has waited.
  std::int32_t passage = -1;
  std::uint64_t passageGeneration = 0;  // PassageMap::generation() when `passage` was found
  std::int32_t side = -1;
  bool committed = false;
  bool waiting = false;
  bool queued = false;  // held up behind one who waits at a passage (reported as waiting)
  float waitedAtPassage = 0.0f;
  Vec2 entry = Vec2::Zero();  // where its way enters the passage
};

}  // namespace avoid

struct RPGNAV_HIDDEN LocalAvoidance::Impl {
  const World* world;
  float tile;
  std::uint64_t frame = 0;
  double dt = 0.0;
  // The frame.
  std::vector<AvoidanceAgent> agents;
  std::vector<avoid::Memory*> memory;      // per agent
  std::vector<float> avoidRadius;   // body radius + margin
  std::vector<float> reach;         // neighbour search distance
  std::vector<std::int32_t> front;  // the nearest agent in its way (index), -1: none
  std::vector<Entity> discs;        // static entities
  std::vector<std::array<Vec2, 2>> doors;  // closed doors
  std::unordered_map<std::uint32_t, avoid::Memory> memories;
  // The uniform grid: agents by the cell of their position; discs and doors in every cell their
  // reach overlaps (so an agent looks at its own cell only for them).
  // In double: positions far apart (up to the float range) must not overflow the extents.
  double gridLowX = 0.0, gridLowY = 0.0;
  double cell = 1.0;
  std::int32_t columns = 0, rows = 0;
  std::vector<std::uint32_t> agentStart, agentOrder;
  std::vector<std::uint32_t> obstacleStart, obstacleOrder;  // items: discs, then doors (index + discs.size())
  std::vector<std::uint32_t> counts;
  struct Proposal {
    std::int32_t winner = -1;
    YieldKind kind = YieldKind::None;
  };
  std::vector<Proposal> proposals;  // finish(): the loser makes way for the best winner proposed
  // The passage rule's state.
  avoid::PassageMap passages;
  struct Traffic {
    std::uint64_t frame = 0;  // the frame these counts are of (older: all zero)
    std::array<std::int32_t, avoid::kMaxSides> occupants{};
    std::array<float, avoid::kMaxSides> waited{};
  };
  std::vector<Traffic> traffic;  // by passage number
  Traffic& trafficOf(std::int32_t passage) {
    if (std::size_t(passage) >= traffic.size()) traffic.resize(std::size_t(passage) + 1);
    Traffic& t = traffic[std::size_t(passage)];
    if (t.frame != frame) t = Traffic{frame};
    return t;
  }
  // Fast agents (see avoid::kFastFactor), looked for apart; the cap on the others' speeds.
  std::vector<std::uint32_t> fast;
  std::vector<std::uint8_t> isFast;
  float slowCap = 0.0f;
  std::vector<std::uint32_t> candidates;
  std::vector<std::uint8_t> queueState;  // finish(): 0 not looked at, 1 looking, 2 queued, 3 not

  explicit Impl(const World& w) : world(&w), tile(w.map().layout().tileSize()) {}

  std::int32_t cellX(double x) const noexcept { return cellOf((x - gridLowX) / cell, columns); }
  std::int32_t cellY(double y) const noexcept { return cellOf((y - gridLowY) / cell, rows); }
  static std::int32_t cellOf(double at, std::int32_t count) noexcept {
    return at >= 0.0 ? std::int32_t(std::min(std::floor(at), double(count - 1))) : 0;
  }

  Status prepare(std::span<const AvoidanceAgent> input, std::span<const Entity> obstacles, double step);
  void buildGrid(float obstacleReach);
  void passageRule();
  void solveOne(std::size_t i, AvoidanceResult& out);
  void finish(std::span<const AvoidanceResult> out);
  float shareOf(std::size_t a, std::size_t b) const noexcept;
  // The frame's index of the agent with this id, or -1.
  std::int32_t indexOf(EntityId id) const noexcept {
    const auto it = memories.find(id.value);
    return it != memories.end() && it->second.frame == frame ? std::int32_t(it->second.index) : -1;
  }
  bool room(const AvoidanceAgent& agent, Vec2 direction, float distance) const noexcept;
};

}  // namespace rpgnav
