// SPDX-License-Identifier: MIT
// Edits taken in place (CrowdField::update): the tiles whose routes an edit broke are found and
// settled again from their neighbours, and ground made cheaper spreads its lower distances; past
// an allowance of tile visits the field is rebuilt instead.
#include "field/crowd_field_impl.hpp"

#include "field/settle_kernels.hpp"
#include "grid/step_cost.hpp"

#include <algorithm>

namespace rpgnav {

std::int64_t CrowdField::Impl::repairAllowance() const noexcept {
  const std::int64_t share = scansWhole() ? kScanAllowanceShare : kAllowanceShare;
  return std::max<std::int64_t>(kMinimumAllowance, std::int64_t(m_costs.width()) * m_costs.height() / share);
}

void CrowdField::Impl::update(std::span<const WeightChange> changes, std::span<const std::uint32_t> removedGoals,
                        std::span<const std::uint32_t> addedGoals, std::span<const std::uint32_t> reshaped) {
  m_diagnostics.work = {};
  // Weights and goals first: the repair reads the new ones. A tile whose weight rose (or that
  // was walled up) and a goal that went may leave tiles behind them with distances too low; a
  // tile that got cheaper (or opened) and a new goal may offer better routes.
  m_rises.clear();
  m_falls.clear();
  m_lostGoals.clear();
  m_newGoals.clear();
  for (const WeightChange& change : changes) {
    const float old = m_rate[change.tile];
    if (old == change.rate) continue;
    setWeight(change.tile, change.rate);
    (old != 0.0f && (change.rate == 0.0f || change.rate > old) ? m_rises : m_falls).push_back(change.tile);
    if (old == 0.0f) m_lostFollowers.clear();  // ground opened: followers cut off may be reachable now
    if (change.rate == 0.0f && isGoal(change.tile)) {  // a wall on a goal: no longer a goal (as setGoals would)
      markGoal(change.tile, false);
      m_lostGoals.push_back(change.tile);
    }
  }
  refreshOpenAround();
  // A door's tiles: their crossing got dearer, cheaper or both (a door opened is ground opened).
  for (const std::uint32_t tile : reshaped) {
    m_rises.push_back(tile);
    m_falls.push_back(tile);
    m_lostFollowers.clear();
  }
  for (const std::uint32_t tile : removedGoals) {
    if (!isGoal(tile)) continue;
    markGoal(tile, false);
    m_lostGoals.push_back(tile);
  }
  for (const std::uint32_t tile : addedGoals) {
    if (m_half[tile] == 0 || isGoal(tile)) continue;
    // A goal where the field did not reach may join followers that were cut off.
    if (m_distance[tile] >= m_limit) m_lostFollowers.clear();
    markGoal(tile, true);
    m_newGoals.push_back(tile);
  }
  if (m_rises.empty() && m_falls.empty() && m_lostGoals.empty() && m_newGoals.empty()) return;
  if (m_tracking) {
    // Goals added or lost and doors whose crossings cost extra end tracking (a rebuild); weights
    // are repaired at the cost of the routes they touch, or rebuilt (exact, and still tracking)
    // when that costs more.
    if (!m_lostGoals.empty() || !m_newGoals.empty() || !m_crossings.empty()) {  // (crossings that cost extra too)
      build();
    } else if (!repairTracked()) {
      build();
      enterTracking();  // (the pass over the map now, in the rebuild's call, not at the next step)
    }
    return;
  }
  if (m_bounded) {
    // A bounded field is built again at the cost of its area, unless the edit lies wholly beyond
    // it (then only the weights change).
    const auto beyond = [this](const std::vector<std::uint32_t>& tiles) {
      return std::all_of(tiles.begin(), tiles.end(), [this](std::uint32_t tile) { return beyondBound(tile); });
    };
    if (m_lostGoals.empty() && m_newGoals.empty() && beyond(m_rises) && beyond(m_falls)) return;
    build();
    return;
  }
  // Rebuild instead when the repair would cost more: sources (the repairs assume goals at 0),
  // every old goal gone (every distance changes), or more tiles to look at than the allowance.
  const std::int64_t around = std::int64_t(m_moves[0].size()) + 1;  // a tile and its neighbours
  const std::int64_t seeding = around * std::int64_t(m_rises.size() + m_falls.size()) + std::int64_t(m_lostGoals.size() + m_newGoals.size());
  const bool everyGoalLost = !m_lostGoals.empty() && m_goals.size() == m_newGoals.size();
  if (!m_sources.empty() || everyGoalLost || seeding > repairAllowance()) {
    build();
    return;
  }
  m_diagnostics.work.tiles += seeding;
  m_touched.clear();
  // The tiles whose route may have used a dearer step or a lost goal: the risen tiles, their
  // neighbours (who step onto them) and the lost goals. The support test in findAffected keeps
  // those that still have an equally good way.
  m_affected.clear();
  for (const std::uint32_t tile : m_rises) {
    m_affected.push_back(tile);
    for (const Move& move : movesOf(tile)) {
      const auto next = std::uint32_t(std::ptrdiff_t(tile) + move.offset);
      if (m_half[next] != 0) m_affected.push_back(next);
    }
  }
  m_affected.insert(m_affected.end(), m_lostGoals.begin(), m_lostGoals.end());
  if (!m_affected.empty() && !findAffected(repairAllowance() - seeding)) {
    build();  // the repair reached too far: a rebuild is cheaper than finishing it
    return;
  }
  // Reset the affected tiles, then plan them again from their unaffected neighbours; the
  // neighbourhoods of cheaper tiles and the new goals improve, and the improvements spread.
  for (const std::uint32_t tile : m_affected) {
    m_distance[tile] = kUnreachable;
    m_touched.push_back(tile);
  }
  m_seeds.clear();
  auto improve = [&](std::uint32_t tile) {
    const std::int64_t best = bestFromNeighbours(tile);
    if (best < m_distance[tile]) {
      m_distance[tile] = best;
      m_seeds.push_back(tile);
    }
  };
  for (const std::uint32_t tile : m_affected) improve(tile);
  for (const std::uint32_t tile : m_newGoals) improve(tile);
  for (const std::uint32_t tile : m_falls) {
    improve(tile);
    for (const Move& move : movesOf(tile)) improve(std::uint32_t(std::ptrdiff_t(tile) + move.offset));
  }
  m_diagnostics.work.tiles += std::int64_t(m_affected.size());
  m_recording = true;
  m_sweepDirections = false;
  m_sweepAbove = std::size_t(m_costs.width()) * std::size_t(m_costs.height()) / (m_moves[0].size() + 1);
  propagate();
  m_recording = false;
  // Directions read the neighbours' weights and move bits too: every changed tile's
  // neighbourhood is looked at again.
  m_touched.insert(m_touched.end(), m_rises.begin(), m_rises.end());
  m_touched.insert(m_touched.end(), m_falls.begin(), m_falls.end());
  m_touched.insert(m_touched.end(), m_lostGoals.begin(), m_lostGoals.end());
  m_touched.insert(m_touched.end(), m_newGoals.begin(), m_newGoals.end());
  for (const std::uint32_t tile : m_rises) {
    for (const Move& move : movesOf(tile)) m_touched.push_back(std::uint32_t(std::ptrdiff_t(tile) + move.offset));
  }
  for (const std::uint32_t tile : m_falls) {
    for (const Move& move : movesOf(tile)) m_touched.push_back(std::uint32_t(std::ptrdiff_t(tile) + move.offset));
  }
  refreshDirections();
}

bool CrowdField::Impl::findAffected(std::int64_t budget) {
  // Candidates in order of their old distance: a candidate keeps its distance when a neighbour
  // that is not affected still offers it (such supporters are nearer, so already decided);
  // otherwise it is affected and the tiles that may have routed through it become candidates.
  // Gives up (false) once the candidates looked at and the affected tiles to plan again pass
  // the budget.
  // The order comes from buckets as wide as propagate()'s: a supporter is at least one step
  // nearer, so it lies in an earlier bucket, and tiles in one bucket cannot decide each other;
  // a dependent lies in a later one. (A quarter of the cost of a binary heap per candidate: a
  // repair that gives up wastes less.)
  const std::uint32_t queuedMark = freshStamp(2), affectedMark = queuedMark + 1;
  // (Not a structured binding: clang 14 does not let the lambda below capture one.)
  const std::pair<int, std::size_t> shape = bucketShape();
  const int shift = shape.first;
  const std::size_t count = shape.second;
  const std::size_t mask = count - 1;
  if (m_repairBuckets.size() < count) m_repairBuckets.resize(count);
  std::vector<std::uint32_t>& seeds = m_repairSeeds;
  seeds.clear();
  for (const std::uint32_t tile : m_affected) {
    if (m_distance[tile] != kUnreachable) seeds.push_back(tile);
  }
  m_affected.clear();
  std::sort(seeds.begin(), seeds.end(), [this](std::uint32_t a, std::uint32_t b) { return m_distance[a] < m_distance[b]; });
  // Candidates further ahead than the circular buckets reach (a door crossing's price dropped
  // since the distances were made): held in a heap until their bucket comes.
  std::vector<std::pair<std::int64_t, std::uint32_t>>& far = m_repairFar;
  far.clear();
  std::size_t queued = 0, nextSeed = 0;
  std::int64_t current = 0;
  auto candidate = [&](std::uint32_t tile) {
    if (m_stamp[tile] == queuedMark || m_stamp[tile] == affectedMark) return;
    m_stamp[tile] = queuedMark;
    const std::int64_t bucket = m_distance[tile] >> shift;
    if (bucket - current >= std::int64_t(count)) {
      far.push_back({bucket, tile});
      std::push_heap(far.begin(), far.end(), std::greater<>());
      return;
    }
    m_repairBuckets[std::size_t(bucket) & mask].push_back(tile);
    ++queued;
  };
  std::int64_t spent = 0;
  bool gaveUp = false;
  if (!seeds.empty()) current = m_distance[seeds.front()] >> shift;
  for (; !gaveUp && (queued > 0 || nextSeed < seeds.size() || !far.empty()); ++current) {
    if (queued == 0) {  // nothing queued: on to the next seed's or held candidate's bucket
      std::int64_t next = std::numeric_limits<std::int64_t>::max();
      if (nextSeed < seeds.size()) next = m_distance[seeds[nextSeed]] >> shift;
      if (!far.empty()) next = std::min(next, far.front().first);
      current = std::max(current, next);
    }
    while (nextSeed < seeds.size() && (m_distance[seeds[nextSeed]] >> shift) <= current) candidate(seeds[nextSeed++]);
    while (!far.empty() && far.front().first <= current) {
      const std::uint32_t tile = far.front().second;
      std::pop_heap(far.begin(), far.end(), std::greater<>());
      far.pop_back();
      m_repairBuckets[std::size_t(current) & mask].push_back(tile);
      ++queued;
    }
    std::vector<std::uint32_t>& bucket = m_repairBuckets[std::size_t(current) & mask];
    queued -= bucket.size();
    // Pushes land in later buckets only: this one's size stays put.
    for (std::size_t i = 0; i < bucket.size(); ++i) {
      const std::uint32_t tile = bucket[i];
      const std::int64_t was = m_distance[tile];
      if (spent + 1 + std::int64_t(m_affected.size()) > budget) {
        gaveUp = true;
        break;
      }
      ++spent;
      if (supportedBesides(tile, was, affectedMark)) continue;
      m_stamp[tile] = affectedMark;
      m_affected.push_back(tile);
      if (spent + std::int64_t(m_affected.size()) > budget) {
        gaveUp = true;
        break;
      }
      // Its dependents: neighbours whose distance may have come through it (only those further
      // than a step: a nearer one cannot have).
      for (const Move& move : movesOf(tile)) {
        const std::uint32_t next = std::uint32_t(std::ptrdiff_t(tile) + move.offset);
        if (m_half[next] != 0 && m_distance[next] != kUnreachable && (m_distance[next] >> shift) > current) candidate(next);
      }
    }
    bucket.clear();
  }
  if (gaveUp) {
    for (std::vector<std::uint32_t>& bucket : m_repairBuckets) bucket.clear();
  }
  m_diagnostics.work.tiles += spent;
  return !gaveUp;
}

bool CrowdField::Impl::supportedBesides(std::size_t tile, std::int64_t was, std::uint32_t affectedMark) const noexcept {
  if (isGoal(tile)) return true;  // a goal always is
  if (m_half[tile] == 0) return false;
  const std::vector<Move>& moves = movesOf(tile);
  for (unsigned open = openMoves(tile); open != 0; open &= open - 1) {
    const Move& move = moves[std::size_t(std::countr_zero(open))];
    const std::size_t next = std::size_t(std::ptrdiff_t(tile) + move.offset);
    if (m_distance[next] == kUnreachable || m_stamp[next] == affectedMark) continue;
    if (m_distance[next] + stepCost(tile, next, move) == was) return true;
  }
  if (!m_doorSide.empty() && m_doorSide[tile] != 0) {
    for (const Crossing& crossing : crossingsOf(tile)) {
      const Move& move = moves[crossing.move];
      const std::size_t next = std::size_t(std::ptrdiff_t(tile) + move.offset);
      if (m_half[next] == 0 || m_distance[next] == kUnreachable || m_stamp[next] == affectedMark) continue;
      if (m_distance[next] + stepCost(tile, next, move) + crossing.extra == was) return true;
    }
  }
  return false;
}

}  // namespace rpgnav
