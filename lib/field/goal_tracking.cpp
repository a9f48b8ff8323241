// SPDX-License-Identifier: MIT
// A crowd field that follows a walking goal (CrowdField::trackGoal) and its exact refresh in
// slices (CrowdField::refreshTracking). The invariant every operation here keeps, on which the
// guarantees rest: every reachable tile but the goal has a direction whose move is open, and its
// stored distance is at least the step's cost plus the stored distance of the tile it steps to
// (so directions only go downhill and end at the goal).
#include "field/crowd_field_impl.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>

namespace rpgnav {

namespace {
// Clearing the refresh's arrays: tiles per visit of the budget (a store each, against some
// eight neighbour loads and a heap operation for a settled tile).
constexpr std::size_t kClearedPerVisit = 16;
}  // namespace

void CrowdField::Impl::enterTracking() {
  // Stored values stay within [0, 2^62): a route's cost is below 2^26 tiles × 2^35 (a step costs
  // at most 2 × halfDiagonalCost(1000)) = 2^61 above the bias, and the goal's stored value falls
  // from the bias by the walk, which trackGoal keeps below 2^59 (2^24 of the dearest steps,
  // hundreds of millions of plain ones) before it takes the exact way.
  for (std::int64_t& d : m_distance) {
    if (d != kUnreachable) d += kTrackingBias;
  }
  m_base = kTrackingBias;
  m_tracking = true;
  // The refresh's arrays, written once, the first time (in the same pass over the map): a
  // refresh in the frames only overwrites them, clearing them first (fresh memory's page faults
  // cost more than the stores). Tracking entered again (after a rebuild) keeps them as they are.
  if (m_refreshDistance.size() != m_distance.size()) {
    m_refreshDistance.assign(m_distance.size(), kUnreachable);
    m_refreshDirection.assign(m_direction.size(), kNoDirection);
  }
  m_travel = 0;
  m_exactNow = true;
  m_refreshPhase = RefreshPhase::idle;
}

void CrowdField::Impl::leaveTracking() noexcept {
  m_tracking = false;
  m_base = 0;
  m_travel = 0;
  m_refreshPhase = RefreshPhase::idle;
}

std::uint8_t CrowdField::Impl::moveOnto(std::size_t tile, std::size_t onto) const noexcept {
  const std::vector<Move>& moves = movesOf(tile);
  const std::ptrdiff_t offset = std::ptrdiff_t(onto) - std::ptrdiff_t(tile);
  for (std::size_t k = 0; k < moves.size(); ++k) {
    if (moves[k].offset == offset) return ((openMoves(tile) >> k) & 1u) != 0 ? std::uint8_t(k) : kNoDirection;
  }
  return kNoDirection;
}

bool CrowdField::Impl::chainFrom(std::size_t from, std::size_t most) {
  m_chain.clear();
  std::size_t tile = from;
  for (;;) {
    if (m_chain.size() > most) return false;
    m_chain.push_back(std::uint32_t(tile));
    const std::uint8_t direction = m_direction[tile];
    if (direction == kNoDirection) return true;
    const std::size_t next = std::size_t(std::ptrdiff_t(tile) + movesOf(tile)[direction].offset);
    if (moveOnto(next, tile) == kNoDirection) return false;  // (moves are symmetric: not met)
    tile = next;
  }
}

std::int64_t CrowdField::Impl::reverseChain() {
  // The chain runs from the new goal c0 to the old one cm along the directions. Its reported
  // distances r become cost(c0 → ci) = r(c0) − r(ci) with the directions turned round; every
  // other tile keeps its stored value and so reports r + r(c0) as m_base falls by r(c0): its
  // old route, then the chain. In stored values (s = r + base): s'(ci) = 2·base − s(ci).
  const std::int64_t travel = m_distance[m_chain.front()] - m_base;
  const std::int64_t base = m_base;
  for (std::size_t i = m_chain.size() - 1; i > 0; --i) {
    const std::size_t tile = m_chain[i];
    m_distance[tile] = 2 * base - m_distance[tile];
    m_direction[tile] = moveOnto(tile, m_chain[i - 1]);
  }
  m_base = base - travel;
  m_distance[m_chain.front()] = m_base;
  m_direction[m_chain.front()] = kNoDirection;
  return travel;
}

std::int64_t CrowdField::Impl::spreadWave(std::size_t goal) {
  m_wave.assign(1, {m_distance[goal], std::uint32_t(goal)});
  return spreadQueued(m_trackingWave, 0);
}

std::int64_t CrowdField::Impl::spreadQueued(std::int64_t most, std::uint32_t within) {
  // Dijkstra's algorithm from the queued tiles over the tiles they improve. A tile lowered takes
  // the step back to the tile that lowered it (downhill by exactly that step); a tile left in the
  // heap when the wave stops keeps its lowered distance and direction, which are valid.
  std::vector<std::pair<std::int64_t, std::uint32_t>>& heap = m_wave;
  std::make_heap(heap.begin(), heap.end(), std::greater<>());
  std::int64_t settled = 0;
  while (!heap.empty() && settled < most) {
    std::pop_heap(heap.begin(), heap.end(), std::greater<>());
    const auto [here, tile] = heap.back();
    heap.pop_back();
    if (here != m_distance[tile]) continue;  // lowered again since it was queued
    ++settled;
    const std::vector<Move>& moves = movesOf(tile);
    const unsigned open = openMoves(tile);
    for (std::size_t k = 0; k < moves.size(); ++k) {
      if (((open >> k) & 1u) == 0) continue;
      const std::size_t next = std::size_t(std::ptrdiff_t(tile) + moves[k].offset);
      if (within != 0 && m_stamp[next] != within) continue;
      const std::int64_t candidate = here + stepCost(tile, next, moves[k]);
      if (candidate >= m_distance[next]) continue;
      const std::uint8_t back = moveOnto(next, tile);
      if (back == kNoDirection) continue;
      m_distance[next] = candidate;
      m_direction[next] = back;
      heap.push_back({candidate, std::uint32_t(next)});
      std::push_heap(heap.begin(), heap.end(), std::greater<>());
    }
  }
  return settled;
}

bool CrowdField::Impl::stepValid(std::size_t tile) const noexcept {
  if (m_distance[tile] == kUnreachable) return true;
  if (m_half[tile] == 0) return false;  // walled up
  const std::uint8_t direction = m_direction[tile];
  if (direction == kNoDirection) return isGoal(tile);
  if (((openMoves(tile) >> direction) & 1u) == 0) return false;
  const Move& move = movesOf(tile)[direction];
  const std::size_t next = std::size_t(std::ptrdiff_t(tile) + move.offset);
  return m_distance[next] != kUnreachable && m_distance[tile] >= m_distance[next] + stepCost(tile, next, move);
}

void CrowdField::Impl::lowerFromNeighbours(std::size_t tile) {
  if (m_half[tile] == 0 || isGoal(tile)) return;
  const std::vector<Move>& moves = movesOf(tile);
  bool lowered = false;
  for (unsigned open = openMoves(tile); open != 0; open &= open - 1) {
    const std::size_t k = std::size_t(std::countr_zero(open));
    const std::size_t next = std::size_t(std::ptrdiff_t(tile) + moves[k].offset);
    if (m_distance[next] == kUnreachable) continue;
    const std::int64_t candidate = m_distance[next] + stepCost(tile, next, moves[k]);
    if (candidate < m_distance[tile]) {
      m_distance[tile] = candidate;
      m_direction[tile] = std::uint8_t(k);
      lowered = true;
    }
  }
  if (lowered) m_wave.push_back({m_distance[tile], std::uint32_t(tile)});
}

void CrowdField::Impl::refreshAfterEdit() {
  if (m_refreshPhase != RefreshPhase::settling) return;  // (clearing: no weight read yet)
  if (lightestStep() < (std::int64_t(1) << m_refreshShift)) {  // its buckets are too wide now
    m_refreshPhase = RefreshPhase::idle;
    return;
  }
  // The refresh has settled the tiles up to its front, reading the old weights, and queued their
  // neighbours with what a settled tile offered: a step whose price reads the two tiles' weights
  // and, for a square diagonal, its corners' (a hex body's step: its side tiles'), all next to
  // the settled tile. An edit none of whose tiles is settled or next to a settled tile changed
  // nothing it read: it goes on (and reads the new weights when it gets there). Otherwise it
  // starts again.
  const std::int64_t* distance = m_refreshDistance.data();
  const auto nearSettled = [&](std::size_t tile) {
    if (distance[tile] <= m_refreshFront) return true;
    for (const Move& move : movesOf(tile)) {
      if (distance[std::size_t(std::ptrdiff_t(tile) + move.offset)] <= m_refreshFront) return true;
    }
    return false;
  };
  for (const std::vector<std::uint32_t>* tiles : {&m_rises, &m_falls}) {
    for (const std::uint32_t tile : *tiles) {
      if (nearSettled(tile)) {
        m_refreshPhase = RefreshPhase::idle;
        return;
      }
    }
  }
}

bool CrowdField::Impl::repairTracked() {
  refreshAfterEdit();
  m_exactNow = false;  // (ground made cheaper spreads only as far as a wave; equal ways may differ)
  // Steps made dearer or closed: the tiles whose own step broke its rule, and every tile whose
  // route runs through them (their subtree along the directions), are planned again from the
  // tiles round them. A repair that would look at more than repairAllowance() tiles rebuilds.
  const std::uint32_t inside = freshStamp();
  m_affected.clear();
  const auto root = [&](std::size_t tile) {
    if (m_stamp[tile] == inside || stepValid(tile)) return;
    m_stamp[tile] = inside;
    m_affected.push_back(std::uint32_t(tile));
  };
  for (const std::uint32_t tile : m_rises) {
    root(tile);
    for (const Move& move : movesOf(tile)) root(std::size_t(std::ptrdiff_t(tile) + move.offset));
  }
  const std::int64_t allowance = repairAllowance();
  for (std::size_t i = 0; i < m_affected.size(); ++i) {
    if (std::int64_t(m_affected.size()) > allowance) return false;
    const std::size_t tile = m_affected[i];
    for (const Move& move : movesOf(tile)) {
      const std::size_t next = std::size_t(std::ptrdiff_t(tile) + move.offset);
      const std::uint8_t direction = m_direction[next];  // (kNoDirection on the padding)
      if (m_stamp[next] == inside || direction == kNoDirection) continue;
      if (std::size_t(std::ptrdiff_t(next) + movesOf(next)[direction].offset) != tile) continue;
      m_stamp[next] = inside;
      m_affected.push_back(std::uint32_t(next));
    }
  }
  for (const std::uint32_t tile : m_affected) {
    m_distance[tile] = kUnreachable;
    m_direction[tile] = kNoDirection;
  }
  m_wave.clear();
  for (const std::uint32_t tile : m_affected) lowerFromNeighbours(tile);
  std::int64_t work = std::int64_t(m_affected.size()) + spreadQueued(std::numeric_limits<std::int64_t>::max(), inside);
  // Ground opened or made cheaper never breaks a step's rule (steps only got cheaper). A tile
  // opened takes its best neighbour; where the field's ground now meets ground it does not
  // reach (a region behind a wall taken down, a door opened into it), every tile there
  // changes: a rebuild.
  m_wave.clear();
  for (const std::uint32_t tile : m_falls) {
    if (m_distance[tile] == kUnreachable) lowerFromNeighbours(tile);
  }
  const auto meetsUnreached = [this](std::size_t from) {
    if (m_distance[from] == kUnreachable) return false;
    const std::vector<Move>& moves = movesOf(from);
    for (unsigned open = openMoves(from); open != 0; open &= open - 1) {
      const std::size_t next = std::size_t(std::ptrdiff_t(from) + moves[std::size_t(std::countr_zero(open))].offset);
      if (m_distance[next] == kUnreachable && m_half[next] != 0) return true;
    }
    return false;
  };
  for (const std::uint32_t tile : m_falls) {
    if (meetsUnreached(tile)) return false;
    for (const Move& move : movesOf(tile)) {
      if (meetsUnreached(std::size_t(std::ptrdiff_t(tile) + move.offset))) return false;
    }
  }
  // Then the cheaper ground's improvements spread, as a goal step's wave does.
  for (const std::uint32_t tile : m_falls) {
    lowerFromNeighbours(tile);
    for (const Move& move : movesOf(tile)) lowerFromNeighbours(std::size_t(std::ptrdiff_t(tile) + move.offset));
  }
  work += spreadQueued(m_trackingWave, 0);
  m_diagnostics.work.tiles += work;
  return true;
}

Status CrowdField::Impl::startTracking() {
  if (m_goals.size() != 1 || !m_sources.empty() || m_bounded || !m_crossings.empty()) return Status::InvalidArgument;
  if (!m_tracking) enterTracking();
  return Status::Ok;
}

Status CrowdField::Impl::trackGoal(Cell to) {
  if (!m_costs.contains(to) || m_goals.size() != 1 || !m_sources.empty()) return Status::InvalidArgument;
  const Cell from = m_goals.front();
  if (from == to) return Status::Ok;
  const std::size_t target = padded(to);
  // Where the cheap step does not apply, the exact one (which rebuilds a tracked field).
  if (m_bounded || !m_crossings.empty() || m_distance[target] == kUnreachable || !chainFrom(target, kTrackingChain) ||
      m_chain.back() != padded(from) || (m_tracking && m_base - (m_distance[target] - m_base) < kTrackingBias / 2)) {
    return moveGoal(from, to);
  }
  m_diagnostics.work = {};
  if (!m_tracking) {
    enterTracking();
    m_diagnostics.work.tiles = std::int64_t(m_distance.size());
  }
  const std::int64_t travel = reverseChain();
  markGoal(padded(from), false);
  markGoal(target, true);
  m_travel += travel;
  m_exactNow = false;
  m_diagnostics.work.tiles += std::int64_t(m_chain.size()) + spreadWave(target);
  return Status::Ok;
}

std::int64_t CrowdField::Impl::refreshTracking(std::int64_t tileBudget, double micros) {
  if (!m_tracking || tileBudget <= 0 || std::isnan(micros)) return 0;
  using Clock = std::chrono::steady_clock;
  const bool timed = micros > 0.0;
  const Clock::time_point deadline =
      timed ? Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double, std::micro>(std::min(micros, 1e9)))
            : Clock::time_point::max();
  std::int64_t work = 0;
  if (m_refreshPhase == RefreshPhase::idle) {
    if (m_exactNow) return 0;  // nothing to refresh
    m_refreshPhase = RefreshPhase::clearing;
    m_refreshCleared = 0;
    m_refreshGoal = std::uint32_t(padded(m_goals.front()));
  }
  if (m_refreshPhase == RefreshPhase::clearing) {
    // In chunks, the clock read between them.
    const std::size_t tiles = m_distance.size();
    constexpr std::size_t kChunk = 256 * kClearedPerVisit;
    while (m_refreshCleared < tiles && work < tileBudget) {
      if (timed && Clock::now() >= deadline) return work;
      const std::size_t room = std::size_t(std::min<std::int64_t>(tileBudget - work, std::int64_t(kChunk / kClearedPerVisit))) * kClearedPerVisit;
      const std::size_t end = std::min(tiles, m_refreshCleared + room);
      std::fill(m_refreshDistance.begin() + std::ptrdiff_t(m_refreshCleared), m_refreshDistance.begin() + std::ptrdiff_t(end), kUnreachable);
      std::fill(m_refreshDirection.begin() + std::ptrdiff_t(m_refreshCleared), m_refreshDirection.begin() + std::ptrdiff_t(end), kNoDirection);
      work += std::int64_t((end - m_refreshCleared + kClearedPerVisit - 1) / kClearedPerVisit);
      m_refreshCleared = end;
    }
    if (m_refreshCleared < tiles) return work;
    m_refreshPhase = RefreshPhase::settling;
    const std::uint32_t goal = m_refreshGoal;
    m_refreshDistance[goal] = kTrackingBias;
    // Dial's buckets, as wide as the largest power of two not above the lightest step (so tiles
    // of one bucket cannot improve each other, nor give each other their direction), circular,
    // at most bucketShape()'s count; entries further ahead wait in the heap.
    const auto [shift, count] = bucketShape();
    m_refreshShift = shift;
    for (std::vector<std::uint32_t>& bucket : m_refreshBuckets) bucket.clear();
    m_refreshBuckets.resize(count);
    m_refreshQueued = 0;
    m_refreshHeap.clear();
    m_refreshBucket = kTrackingBias >> shift;
    m_refreshBuckets[std::size_t(m_refreshBucket) & (count - 1)].push_back(goal);
    m_refreshQueued = 1;
    m_refreshFront = kTrackingBias;  // its goal counts as settled (an edit beside it starts it again)
  }
  // Dijkstra's algorithm (Dial's) on the refresh's arrays. A tile takes its direction when it is
  // settled, by the rule a rebuild uses (settle(): the first open move, in the layout's order,
  // whose neighbour's distance plus the step equals the tile's): every neighbour that can give
  // it is settled by then, and the others are no nearer, so the rule sees what it sees after a
  // rebuild. (The rule is applied in the loop that relaxes the neighbours: one pass of loads.)
  std::vector<std::pair<std::int64_t, std::uint32_t>>& far = m_refreshHeap;
  std::vector<std::vector<std::uint32_t>>& buckets = m_refreshBuckets;
  const int shift = m_refreshShift;
  const auto count = std::int64_t(buckets.size());
  const std::size_t mask = buckets.size() - 1;
  std::int64_t* distance = m_refreshDistance.data();
  const auto push = [&](std::int64_t value, std::uint32_t tile) {
    if ((value >> shift) - m_refreshBucket < count) {
      buckets[std::size_t(value >> shift) & mask].push_back(tile);
      ++m_refreshQueued;
    } else {
      far.push_back({value, tile});
      std::push_heap(far.begin(), far.end(), std::greater<>());
    }
  };
  bool done = false;
  while (work < tileBudget) {
    if (timed && (work & 31) == 0 && Clock::now() >= deadline) break;
    if (m_refreshQueued == 0) {
      if (far.empty()) {
        done = true;
        break;
      }
      m_refreshBucket = far.front().first >> shift;
    }
    // Entries held in the heap join the buckets when theirs come within reach.
    while (!far.empty() && (far.front().first >> shift) - m_refreshBucket < count) {
      std::pop_heap(far.begin(), far.end(), std::greater<>());
      buckets[std::size_t(far.back().first >> shift) & mask].push_back(far.back().second);
      ++m_refreshQueued;
      far.pop_back();
    }
    std::vector<std::uint32_t>& bucket = buckets[std::size_t(m_refreshBucket) & mask];
    if (bucket.empty()) {
      ++m_refreshBucket;
      continue;
    }
    const std::uint32_t tile = bucket.back();
    bucket.pop_back();
    --m_refreshQueued;
    const std::int64_t here = distance[tile];
    if ((here >> shift) != m_refreshBucket) continue;  // lowered into an earlier bucket since
    // Queued twice in one bucket and settled already (every settled tile but the goal has a
    // direction; the goal is queued once).
    if (m_refreshDirection[tile] != kNoDirection) continue;
    ++work;
    m_refreshFront = std::max(m_refreshFront, here);
    const std::vector<Move>& moves = movesOf(tile);
    const unsigned open = openMoves(tile);
    std::uint8_t direction = kNoDirection;
    for (std::size_t k = 0; k < moves.size(); ++k) {
      if (((open >> k) & 1u) == 0) continue;
      const std::size_t next = std::size_t(std::ptrdiff_t(tile) + moves[k].offset);
      const std::int64_t step = stepCost(tile, next, moves[k]);
      const std::int64_t there = distance[next];
      if (there < here) {
        if (direction == kNoDirection && there + step == here) direction = std::uint8_t(k);
        continue;
      }
      if (here + step >= there) continue;
      distance[next] = here + step;
      push(here + step, std::uint32_t(next));
    }
    m_refreshDirection[tile] = direction;
  }
  if (done) installRefresh();
  return work;
}

void CrowdField::Impl::installRefresh() {
  m_distance.swap(m_refreshDistance);
  m_direction.swap(m_refreshDirection);
  m_base = kTrackingBias;
  m_refreshPhase = RefreshPhase::idle;
  // The field is exact for the goal the refresh began from; the goal's walk since is laid on it
  // as one chain: the exact route from where the goal is now back to there, reversed (no dearer
  // than the walk), then one wave from the goal. The route's cost is the new travel.
  const std::size_t goal = padded(m_goals.front());
  m_travel = 0;
  m_exactNow = goal == m_refreshGoal;
  if (goal != m_refreshGoal) {
    if (m_distance[goal] == kUnreachable || !chainFrom(goal, std::numeric_limits<std::size_t>::max()) ||
        m_chain.back() != m_refreshGoal) {
      // The goal is cut off from where the refresh began (it walked away, and a wall the refresh
      // had not read yet closed the way): no route to lay; the field is built for it, exact.
      build();
      enterTracking();
      return;
    }
    m_travel = reverseChain();
    spreadWave(goal);
  }
  ++m_refreshesLanded;
}

}  // namespace rpgnav
