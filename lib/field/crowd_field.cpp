// SPDX-License-Identifier: MIT
#include "rpgnav/field/crowd_field.hpp"

#include "core/intrinsics.hpp"
#include "grid/clearance.hpp"
#include "grid/step_cost.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <numbers>
#include <utility>

#if defined(__x86_64__) && defined(__GNUC__)
#define RPGNAV_FIELD_AVX2 1
#include <immintrin.h>
#else
#define RPGNAV_FIELD_AVX2 0
#endif

namespace rpgnav {

static_assert(CrowdField::kStep == kCostScale, "the fields count in the tile search's units");

CrowdField::CrowdField(const CostField& costs)
    : m_costs(costs), m_stride(costs.width() + 2), m_danger(costs.layout(), costs.width(), costs.height()) {
  const std::size_t size = std::size_t(m_stride) * std::size_t(costs.height() + 2);
  m_rate.assign(size, 0.0f);
  m_half.assign(size, 0);
  // (Diagonal halves only where there are diagonal steps: 8 bytes a tile saved elsewhere.)
  m_halfDiagonal.assign(costs.layout().connectivity() == 8 ? size : 0, 0);
  m_distance.assign(size, kUnreachable);
  m_direction.assign(size, kNoDirection);
  m_goalMark.assign(size, 0);
  m_fixed.assign(size, 0);
  m_stamp.assign(size, 0);
  m_open.assign(size, 0);
  m_trackingWave = std::clamp<std::int64_t>(std::int64_t(costs.width()) * costs.height() / 32, kMinTrackingWave, kTrackingWave);
  // The move tables, by the tile's parity (hex tables depend on it; square ones do not).
  const Layout& layout = costs.layout();
  m_parityMatters = layout.isHex();
  for (int parity = 0; parity < 4; ++parity) {
    const Cell sample{parity % 2, parity / 2};
    for (const NeighbourStep& step : layout.moves(sample)) {
      Move move;
      move.offset = std::ptrdiff_t(step.dy) * m_stride + step.dx;
      move.unit = (layout.tileCenter({sample.x + step.dx, sample.y + step.dy}) - layout.tileCenter(sample)).normalized();
      move.length = step.requiresA >= 0 ? kDiagonalStep : kStep;
      move.diagonal = step.requiresA >= 0;
      move.perLength = 1.0 / double(move.length);
      if (step.requiresA >= 0) {  // the tiles beside both ends of a square diagonal
        move.cornerA = step.dx;
        move.cornerB = std::ptrdiff_t(step.dy) * m_stride;
      }
      m_moves[std::size_t(parity)].push_back(move);
    }
    if (layout.isHex() && costs.bodyTiles() > 0.0) {
      // A body's hex step passes between the tiles next to both of its ends (the moves before
      // and after it round the tile): they must be passable for it too.
      std::vector<Move>& moves = m_moves[std::size_t(parity)];
      for (std::size_t k = 0; k < moves.size(); ++k) {
        moves[k].sideA = moves[(k + moves.size() - 1) % moves.size()].offset;
        moves[k].sideB = moves[(k + 1) % moves.size()].offset;
      }
    }
  }
  if (m_parityMatters) {  // padded coordinates are one more than the tile's: the parity flips
    for (std::size_t tile = 0; tile < size; ++tile) {
      const std::size_t x = tile % std::size_t(m_stride), y = tile / std::size_t(m_stride);
      m_open[tile] = std::uint8_t((((x + 1) % 2) + 2 * ((y + 1) % 2)) << kParityShift);
    }
  }
  for (std::int32_t y = 0; y < costs.height(); ++y) {
    for (std::int32_t x = 0; x < costs.width(); ++x) {
      storeRate(padded({x, y}), rateFor({x, y}));
    }
  }
  for (std::int32_t y = 0; y < costs.height(); ++y) {
    for (std::int32_t x = 0; x < costs.width(); ++x) refreshOpen(padded({x, y}));
  }
  measureWeights();
}

void CrowdField::refreshOpen(std::size_t tile) noexcept {
  unsigned open = 0;
  const std::vector<Move>& moves = movesOf(tile);
  const auto at = [&](std::ptrdiff_t offset) { return m_half[std::size_t(std::ptrdiff_t(tile) + offset)]; };
  for (std::size_t k = 0; k < moves.size(); ++k) {
    const Move& move = moves[k];
    if (at(move.offset) != 0 && (move.cornerA == 0 || (at(move.cornerA) != 0 && at(move.cornerB) != 0)) &&
        (move.sideA == 0 || (at(move.sideA) != 0 && at(move.sideB) != 0))) {
      open |= 1u << k;
    }
  }
  if (!m_doorBlocked.empty()) open &= ~unsigned(m_doorBlocked[tile]);  // doors that block, or cost extra
  m_open[tile] = std::uint8_t((m_open[tile] & ~((1u << (m_parityMatters ? kParityShift : 8)) - 1)) | open);
}

float CrowdField::rateFor(Cell cell) const noexcept {
  const float cost = m_costs.cost(cell);
  if (cost == TerrainTable::kImpassable) return 0.0f;
  // The tile search's range (it refuses terrain beyond it): a rate's half steps fit 64-bit sums.
  return DangerMap::weightedCost(std::clamp(cost, kMinSearchCost, kMaxSearchCost), m_danger.danger(cell), m_factor);
}

std::int64_t CrowdField::lightestStep() const noexcept { return 2 * halfStraightCost(m_lightest); }

std::int64_t CrowdField::heaviestStep() const noexcept {
  return 2 * (m_moves[0].size() == 8 ? halfDiagonalCost(m_heaviest) : halfStraightCost(m_heaviest));
}

void CrowdField::refreshWeight(Cell cell) { setWeight(padded(cell), rateFor(cell)); }

void CrowdField::storeRate(std::size_t tile, float rate) noexcept {
  m_rate[tile] = rate;
  m_half[tile] = rate > 0.0f ? halfStraightCost(rate) : 0;
  if (!m_halfDiagonal.empty()) m_halfDiagonal[tile] = rate > 0.0f ? halfDiagonalCost(rate) : 0;
}

void CrowdField::setWeight(std::size_t tile, float rate) {
  const float old = m_rate[tile];
  if (old == rate) return;
  storeRate(tile, rate);
  ++m_mapEdits;
  // The moves onto this tile, or past its corner, opened or closed: its neighbours' bits are
  // looked at again in refreshOpenAround() (once each, however many of their neighbours changed).
  if ((old == 0.0f) != (rate == 0.0f)) m_flipped.push_back(std::uint32_t(tile));
  // Bounds for the bucket queue, with how many tiles hold each: they stay exact while a tile
  // still holds them; a lighter or heavier rate widens them. When the last tile of a bound
  // changes they may be wider than needed (still valid: only more buckets) and build() measures
  // them again.
  if (!m_boundsExact) {
    if (rate != 0.0f) m_lightest = std::min(m_lightest, rate), m_heaviest = std::max(m_heaviest, rate);
    return;
  }
  if (old != 0.0f) {
    m_lightCount -= old == m_lightest;
    m_heavyCount -= old == m_heaviest;
  }
  if (rate != 0.0f) {
    if (rate < m_lightest) m_lightest = rate, m_lightCount = 0;
    if (rate > m_heaviest) m_heaviest = rate, m_heavyCount = 0;
    m_lightCount += rate == m_lightest;
    m_heavyCount += rate == m_heaviest;
  }
  if (m_lightCount == 0 || m_heavyCount == 0) m_boundsExact = false;
}

void CrowdField::refreshOpenAround() {
  if (m_flipped.empty()) return;
  const std::uint32_t mark = freshStamp();
  const auto stride = std::size_t(m_stride), height = std::size_t(m_costs.height());
  for (const std::uint32_t tile : m_flipped) {
    // Away from the map's edge every neighbour is a map tile; at the edge some are padding.
    const std::size_t x = tile % stride, y = tile / stride;
    const bool edge = x < 2 || x + 2 >= stride || y < 2 || y >= height;
    for (const Move& move : movesOf(tile)) {
      const std::size_t next = std::size_t(std::ptrdiff_t(tile) + move.offset);
      if ((edge && !inside(next)) || m_stamp[next] == mark) continue;
      m_stamp[next] = mark;
      refreshOpen(next);
    }
  }
  m_flipped.clear();
}

std::uint32_t CrowdField::freshStamp(std::uint32_t count) noexcept {
  // Stamps compare equal to a generation: before the counter wraps, every stamp is cleared.
  if (m_generation > std::numeric_limits<std::uint32_t>::max() - count) {
    std::fill(m_stamp.begin(), m_stamp.end(), 0u);
    m_generation = 0;
  }
  m_generation += count;
  return m_generation - count + 1;
}

void CrowdField::measureWeights() {
  m_lightest = std::numeric_limits<float>::max();
  m_heaviest = kMinSearchCost;
  m_lightCount = m_heavyCount = 0;
  for (const float w : m_rate) {
    if (w == 0.0f) continue;
    if (w < m_lightest) m_lightest = w, m_lightCount = 0;
    if (w > m_heaviest) m_heaviest = w, m_heavyCount = 0;
    m_lightCount += w == m_lightest;
    m_heavyCount += w == m_heaviest;
  }
  // No passable tile: bounds that any weight will widen, measured again by the next build.
  m_boundsExact = m_lightest != std::numeric_limits<float>::max();
  if (!m_boundsExact) m_lightest = m_heaviest = 1.0f;
}

void CrowdField::setSources(std::span<const Source> sources) {
  for (const Cell goal : m_goals) m_goalMark[padded(goal)] = 0;
  m_goals.clear();
  for (const auto& [tile, cost] : m_sources) m_fixed[tile] = 0;
  m_sources.clear();
  for (const Source& source : sources) {
    if (m_costs.at(source.cell) == CostField::kImpassable || source.cost < 0) continue;
    m_sources.push_back({std::uint32_t(padded(source.cell)), source.cost});
    m_fixed[padded(source.cell)] = 1;  // a source's price holds: routes end there, never pass through
  }
  rebuild();
}

void CrowdField::setGoals(std::span<const Cell> goals) {
  for (const auto& [tile, cost] : m_sources) m_fixed[tile] = 0;
  m_sources.clear();
  for (const Cell goal : m_goals) m_goalMark[padded(goal)] = 0;
  m_goals.clear();
  for (const Cell goal : goals) {
    if (m_costs.at(goal) == CostField::kImpassable || m_goalMark[padded(goal)] != 0) continue;
    m_goals.push_back(goal);
    m_goalMark[padded(goal)] = 1;
  }
  rebuild();
}

Status CrowdField::addGoal(Cell goal) {
  if (!m_costs.contains(goal)) return Status::InvalidArgument;
  if (!m_sources.empty()) {
    std::vector<Cell> goals = m_goals;
    goals.push_back(goal);
    setGoals(goals);
    return Status::Ok;
  }
  const auto added = std::uint32_t(padded(goal));
  update({}, {}, std::span(&added, 1));
  return Status::Ok;
}

Status CrowdField::removeGoal(Cell goal) {
  if (!m_costs.contains(goal)) return Status::InvalidArgument;
  const auto removed = std::uint32_t(padded(goal));
  update({}, std::span(&removed, 1), {});
  return Status::Ok;
}

Status CrowdField::moveGoal(Cell from, Cell to) {
  if (!m_costs.contains(from) || !m_costs.contains(to)) return Status::InvalidArgument;
  if (from == to) return Status::Ok;
  if (!m_sources.empty()) {
    addGoal(to);
    return removeGoal(from);
  }
  const auto removed = std::uint32_t(padded(from)), added = std::uint32_t(padded(to));
  update({}, std::span(&removed, 1), std::span(&added, 1));
  return Status::Ok;
}

Status CrowdField::setCost(Cell cell, std::uint8_t cost) {
  const TileCost tile{cell, cost};
  return setCosts(std::span(&tile, 1));
}

Status CrowdField::setCosts(std::span<const TileCost> tiles) {
  for (const TileCost& tile : tiles) {
    if (!m_costs.contains(tile.cell) || tile.cost == 0) return Status::InvalidArgument;
  }
  m_weightChanges.clear();
  for (const TileCost& tile : tiles) {
    m_costs.set(tile.cell, tile.cost);
    m_weightChanges.push_back({std::uint32_t(padded(tile.cell)), rateFor(tile.cell)});
  }
  update(m_weightChanges, {}, {});
  return Status::Ok;
}

Status CrowdField::syncWithMap(const TileMap& map) { return syncWith(map, nullptr); }

Status CrowdField::syncWithMap(const TileMap& map, const Clearance& clearance) { return syncWith(map, &clearance); }

Status CrowdField::syncWith(const TileMap& map, const Clearance* clearance) {
  std::vector<Cell>& changed = m_changedCells;
  changed.clear();
  CostField fresh = m_costs;
  if ((clearance != nullptr ? fresh.refresh(map, *clearance, changed) : fresh.refresh(map, changed)) != Status::Ok) {
    return Status::InvalidArgument;
  }
  m_costs = std::move(fresh);
  m_weightChanges.clear();
  for (const Cell cell : changed) m_weightChanges.push_back({std::uint32_t(padded(cell)), rateFor(cell)});
  update(m_weightChanges, {}, {});
  return Status::Ok;
}

std::int64_t CrowdField::bestFromNeighbours(std::size_t tile) const noexcept {
  if (isGoal(tile)) return 0;
  std::int64_t best = kUnreachable;
  if (m_half[tile] == 0) return best;
  const std::vector<Move>& moves = movesOf(tile);
  for (unsigned open = openMoves(tile); open != 0; open &= open - 1) {
    const Move& move = moves[std::size_t(std::countr_zero(open))];
    const std::size_t next = std::size_t(std::ptrdiff_t(tile) + move.offset);
    if (m_distance[next] != kUnreachable) best = std::min(best, m_distance[next] + stepCost(tile, next, move));
  }
  if (!m_doorSide.empty() && m_doorSide[tile] != 0) {
    for (const Crossing& crossing : crossingsOf(tile)) {
      const Move& move = moves[crossing.move];
      const std::size_t next = std::size_t(std::ptrdiff_t(tile) + move.offset);
      if (m_half[next] != 0 && m_distance[next] != kUnreachable) {
        best = std::min(best, m_distance[next] + stepCost(tile, next, move) + crossing.extra);
      }
    }
  }
  return best;
}

void CrowdField::markGoal(std::size_t tile, bool goal) {
  const std::size_t stride = std::size_t(m_stride);
  const Cell cell{std::int32_t(tile % stride) - 1, std::int32_t(tile / stride) - 1};
  m_goalMark[tile] = goal ? 1 : 0;
  if (goal) {
    m_goals.push_back(cell);
  } else {
    m_goals.erase(std::find(m_goals.begin(), m_goals.end(), cell));
  }
}

std::int64_t CrowdField::repairAllowance() const noexcept {
  const std::int64_t share = scansWhole() ? kScanAllowanceShare : kAllowanceShare;
  return std::max<std::int64_t>(kMinimumAllowance, std::int64_t(m_costs.width()) * m_costs.height() / share);
}

void CrowdField::update(std::span<const WeightChange> changes, std::span<const std::uint32_t> removedGoals,
                        std::span<const std::uint32_t> addedGoals, std::span<const std::uint32_t> reshaped) {
  m_work = {};
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
  m_work.tiles += seeding;
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
  m_work.tiles += std::int64_t(m_affected.size());
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

bool CrowdField::findAffected(std::int64_t budget) {
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
  m_work.tiles += spent;
  return !gaveUp;
}

bool CrowdField::supportedBesides(std::size_t tile, std::int64_t was, std::uint32_t affectedMark) const noexcept {
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

struct CrowdField::SettleArrays {
  const std::int64_t* distance;
  const std::int64_t* half;          // m_half
  const std::int64_t* halfDiagonal;  // m_halfDiagonal
  const std::uint8_t* open;
  std::uint8_t* direction;
  unsigned openMask;  // the move bits of m_open (hex tiles keep their parity above them)
};

CrowdField::SettleArrays CrowdField::settleArrays() noexcept {
  return {m_distance.data(), m_half.data(), m_halfDiagonal.data(), m_open.data(), m_direction.data(), m_parityMatters ? (1u << kParityShift) - 1 : 0xffu};
}

template <std::size_t kMoves>
[[gnu::always_inline]] inline void CrowdField::settleWith(const SettleArrays& arrays, std::size_t tile,
                                                          const std::ptrdiff_t* offset) noexcept {
  // The direction: the first move (in the layout's fixed order) the distance comes from, i.e.
  // whose neighbour's distance plus the step to it equals this tile's. Without branches per
  // move. (An open move's step costs more than 0, so an exact fall is above 0.)
  const std::int64_t here = arrays.distance[tile];
  const std::uint64_t open = arrays.open[tile] & arrays.openMask;
  std::uint64_t exact = 0;
  for (std::size_t k = 0; k < kMoves; ++k) {
    const std::size_t next = std::size_t(std::ptrdiff_t(tile) + offset[k]);
    // Square tables: 4 straight steps, then 4 diagonals; hex steps are all straight.
    const std::int64_t* half = kMoves == 8 && k >= 4 ? arrays.halfDiagonal : arrays.half;
    const std::int64_t fall = here - arrays.distance[next];  // no overflow: both in [0, kUnreachable]
    exact |= std::uint64_t(fall == half[tile] + half[next]) << k;
  }
  exact &= open;
  // An unreachable tile has no direction.
  arrays.direction[tile] = exact != 0 && here != kUnreachable ? std::uint8_t(std::countr_zero(exact)) : kNoDirection;
}

void CrowdField::settle(std::size_t tile) noexcept {
  if (!m_doorSide.empty() && m_doorSide[tile] != 0) {
    settleWithCrossings(tile);
    return;
  }
  const SettleArrays arrays = settleArrays();
  std::ptrdiff_t offset[8];
  const std::vector<Move>& moves = movesOf(tile);
  for (std::size_t k = 0; k < moves.size(); ++k) offset[k] = moves[k].offset;
  if (m_parityMatters) {
    settleWith<6>(arrays, tile, offset);
  } else if (moves.size() == 4) {
    settleWith<4>(arrays, tile, offset);
  } else {
    settleWith<8>(arrays, tile, offset);
  }
}

#if RPGNAV_FIELD_AVX2
namespace {
// The four 64-bit lanes' low bytes (each 0-255), packed into one word.
__attribute__((target("avx2"))) inline std::int32_t lowBytes(__m256i lanes) {
  const __m128i low = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(lanes, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6)));
  return _mm_cvtsi128_si32(_mm_packus_epi16(_mm_packus_epi32(low, low), _mm_setzero_si128()));
}

// settleWith<8>() for the tiles row .. row + width - 1, four at a time (AVX2): the tiles done
// (a multiple of four; the caller does the rest); adds the reachable ones to `reachable`. With
// kCheck (the canonical integration's sweep, where every passable tile weighs the same: its
// steps are `straight` and `diagonal`, not read from the weights), also appends to `found` the
// tiles a neighbour offers a shorter distance than they hold. `half` and `halfDiagonal`: the
// tiles' half steps (0 on walls).
template <bool kCheck>
__attribute__((target("avx2"))) std::size_t directionRowAvx2(const std::int64_t* distance, const std::int64_t* half,
                                                             const std::int64_t* halfDiagonal,
                                                             const std::uint8_t* openBits, std::uint8_t* direction,
                                                             std::size_t row, std::size_t width, const std::ptrdiff_t* offset,
                                                             std::int64_t& reachable, std::int64_t straight, std::int64_t diagonal,
                                                             std::vector<std::uint32_t>* found) {
  constexpr std::int64_t kNone = CrowdField::kNoDirection;
  const __m256i unreachable = _mm256_set1_epi64x(CrowdField::kUnreachable);
  std::size_t x = 0;
  for (; x + 4 <= width; x += 4) {
    const std::size_t tile = row + x;
    // Runs of four tiles with no direction: walls, and for the directions alone any unreachable
    // ones (the check still looks at those that are not walls: a neighbour may offer them a
    // distance). Walls are told by their weights before their distances are loaded.
    const __m256i weights = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(half + tile));
    if (kCheck && _mm256_testz_si256(weights, weights)) {
      std::memset(direction + tile, CrowdField::kNoDirection, 4);
      continue;
    }
    const __m256i here = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(distance + tile));
    const __m256i none = _mm256_cmpeq_epi64(here, unreachable);
    const int unreached = _mm256_movemask_pd(_mm256_castsi256_pd(none));
    reachable += 4 - std::popcount(unsigned(unreached));
    if (!kCheck && unreached == 0xf) {
      std::memset(direction + tile, CrowdField::kNoDirection, 4);
      continue;
    }
    std::int32_t packed;
    std::memcpy(&packed, openBits + tile, sizeof packed);
    // Walls hold no distance to check: no moves.
    const __m256i wall = _mm256_cmpeq_epi64(weights, _mm256_setzero_si256());
    const __m256i open = _mm256_andnot_si256(wall, _mm256_cvtepu8_epi64(_mm_cvtsi32_si128(packed)));
    __m256i best = _mm256_set1_epi64x(kNone), high = _mm256_setzero_si256();
    // From the last move to the first, so the first exact one is kept. Four tiles away from
    // walls (every move open: no move bits to apply) are the most common case of the check.
    if (kCheck && packed == -1 && _mm256_testz_si256(wall, wall)) {
      for (int m = 7; m >= 0; --m) {
        const __m256i there = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(distance + std::ptrdiff_t(tile) + offset[m]));
        const __m256i step = _mm256_set1_epi64x(m >= 4 ? diagonal : straight);
        const __m256i fall = _mm256_sub_epi64(here, there);
        best = _mm256_blendv_epi8(best, _mm256_set1_epi64x(m), _mm256_cmpeq_epi64(fall, step));
        high = _mm256_or_si256(high, _mm256_cmpgt_epi64(fall, step));
      }
    } else {
    for (int m = 7; m >= 0; --m) {
      const std::size_t next = std::size_t(std::ptrdiff_t(tile) + offset[m]);
      const __m256i there = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(distance + next));
      __m256i step;
      if constexpr (kCheck) {
        step = _mm256_set1_epi64x(m >= 4 ? diagonal : straight);
      } else {
        // The step costs half of it on each tile (settleWith's rule).
        const std::int64_t* halves = m >= 4 ? halfDiagonal : half;
        step = _mm256_add_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(halves + tile)),
                                _mm256_loadu_si256(reinterpret_cast<const __m256i*>(halves + next)));
      }
      const __m256i bit = _mm256_set1_epi64x(std::int64_t(1) << m);
      const __m256i moveOpen = _mm256_cmpeq_epi64(_mm256_and_si256(open, bit), bit);
      // (here - there never overflows: both lie in [0, kUnreachable].)
      const __m256i fall = _mm256_sub_epi64(here, there);
      best = _mm256_blendv_epi8(best, _mm256_set1_epi64x(m), _mm256_and_si256(_mm256_cmpeq_epi64(fall, step), moveOpen));
      if constexpr (kCheck) high = _mm256_or_si256(high, _mm256_and_si256(_mm256_cmpgt_epi64(fall, step), moveOpen));
    }
    }
    if constexpr (kCheck) {
      for (unsigned lanes = unsigned(_mm256_movemask_pd(_mm256_castsi256_pd(high))); lanes != 0; lanes &= lanes - 1) {
        found->push_back(std::uint32_t(tile + std::size_t(std::countr_zero(lanes))));
      }
    }
    best = _mm256_blendv_epi8(best, _mm256_set1_epi64x(kNone), none);
    const std::int32_t bytes = lowBytes(best);  // the four directions stored at once
    std::memcpy(direction + tile, &bytes, sizeof bytes);
  }
  return x;
}

// checkHexRowAvx2()'s look at the six neighbours of four tiles: `best`, the first move to a tile
// exactly a step nearer, and `high`, a move to one more than a step nearer. kEveryMove: all four
// tiles have every move open; kOneTable: all four read their neighbours from `first` (else lanes
// 1 and 3 from `second`).
template <bool kEveryMove, bool kOneTable>
__attribute__((target("avx2"), always_inline)) inline void lookHex(const std::int64_t* distance, std::size_t tile,
                                                                   const std::ptrdiff_t* first, const std::ptrdiff_t* second,
                                                                   __m256i here, __m256i open, __m256i step, __m256i& best,
                                                                   __m256i& high) {
  for (int m = 5; m >= 0; --m) {  // (from the last move to the first: the first exact one is kept)
    __m256i there = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(distance + std::ptrdiff_t(tile) + first[m]));
    if (!kOneTable && second[m] != first[m]) {
      const __m256i other = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(distance + std::ptrdiff_t(tile) + second[m]));
      there = _mm256_blend_epi32(there, other, 0xcc);  // lanes 1 and 3
    }
    // (here - there never overflows: both lie in [0, kUnreachable].)
    const __m256i fall = _mm256_sub_epi64(here, there);
    __m256i exact = _mm256_cmpeq_epi64(fall, step), higher = _mm256_cmpgt_epi64(fall, step);
    if constexpr (!kEveryMove) {
      const __m256i bit = _mm256_set1_epi64x(std::int64_t(1) << m);
      const __m256i moveOpen = _mm256_cmpeq_epi64(_mm256_and_si256(open, bit), bit);
      exact = _mm256_and_si256(exact, moveOpen);
      higher = _mm256_and_si256(higher, moveOpen);
    }
    best = _mm256_blendv_epi8(best, _mm256_set1_epi64x(m), exact);
    high = _mm256_or_si256(high, higher);
  }
}

// settleCheckingHex()'s look for the tiles row .. row + width - 1, four at a time (AVX2): the
// tiles done (a multiple of four; the caller does the rest). A hex tile's moves depend on its
// row's or column's shift (the parity kept in its move bits' byte): along a row of pointy hexes
// it is the same for all four, along a row of flat ones it alternates, so lanes 1 and 3 read
// their neighbours from the second tile's table (a second load where the two differ).
__attribute__((target("avx2"))) std::size_t checkHexRowAvx2(const std::int64_t* distance, const std::int64_t* half,
                                                            const std::uint8_t* openBits, std::uint8_t* direction,
                                                            std::size_t row, std::size_t width,
                                                            const std::ptrdiff_t (*offsets)[6], int parityShift,
                                                            unsigned openMask, std::int64_t& reachable,
                                                            std::int64_t straight, std::vector<std::uint32_t>& found) {
  constexpr std::int64_t kNone = CrowdField::kNoDirection;
  const __m256i unreachable = _mm256_set1_epi64x(CrowdField::kUnreachable);
  const __m256i step = _mm256_set1_epi64x(straight);
  const std::int32_t moveBytes = std::int32_t(openMask * 0x01010101u);
  // Lanes 0 and 2 share the parity of the row's first tile (x steps by four), lanes 1 and 3 that
  // of its second. Along a row of pointy hexes the two tables hold the same steps (the row's
  // shift decides them), so one load a move serves all four lanes.
  const std::ptrdiff_t* first = offsets[openBits[row] >> parityShift];
  const std::ptrdiff_t* second = offsets[openBits[row + 1] >> parityShift];
  const bool oneTable = std::equal(first, first + 6, second);
  std::size_t x = 0;
  for (; x + 4 <= width; x += 4) {
    const std::size_t tile = row + x;
    const __m256i weights = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(half + tile));
    if (_mm256_testz_si256(weights, weights)) {  // four walls
      std::memset(direction + tile, CrowdField::kNoDirection, 4);
      continue;
    }
    const __m256i here = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(distance + tile));
    const __m256i none = _mm256_cmpeq_epi64(here, unreachable);  // (walls among them)
    reachable += 4 - std::popcount(unsigned(_mm256_movemask_pd(_mm256_castsi256_pd(none))));
    std::int32_t packed;
    std::memcpy(&packed, openBits + tile, sizeof packed);
    const __m256i wall = _mm256_cmpeq_epi64(weights, _mm256_setzero_si256());
    const __m256i open = _mm256_andnot_si256(wall, _mm256_cvtepu8_epi64(_mm_cvtsi32_si128(packed & moveBytes)));
    __m256i best = _mm256_set1_epi64x(kNone), high = _mm256_setzero_si256();
    // Four tiles away from walls (every move open: no move bits to apply) are the most common
    // case, as in directionRowAvx2.
    const bool everyMove = (packed & moveBytes) == moveBytes && _mm256_testz_si256(wall, wall);
    if (oneTable) {
      if (everyMove) {
        lookHex<true, true>(distance, tile, first, second, here, open, step, best, high);
      } else {
        lookHex<false, true>(distance, tile, first, second, here, open, step, best, high);
      }
    } else if (everyMove) {
      lookHex<true, false>(distance, tile, first, second, here, open, step, best, high);
    } else {
      lookHex<false, false>(distance, tile, first, second, here, open, step, best, high);
    }
    for (unsigned lanes = unsigned(_mm256_movemask_pd(_mm256_castsi256_pd(high))); lanes != 0; lanes &= lanes - 1) {
      found.push_back(std::uint32_t(tile + std::size_t(std::countr_zero(lanes))));
    }
    best = _mm256_blendv_epi8(best, _mm256_set1_epi64x(kNone), none);
    const std::int32_t bytes = lowBytes(best);
    std::memcpy(direction + tile, &bytes, sizeof bytes);
  }
  return x;
}
}  // namespace
#endif

std::int64_t CrowdField::settleAll() noexcept {
  const std::int64_t reachable = settleRange({0, 0}, {m_costs.width() - 1, m_costs.height() - 1});
  for (const Crossing& crossing : m_crossings) settleWithCrossings(crossing.tile);  // (a few tiles)
  return reachable;
}

std::int64_t CrowdField::settleRange(Cell low, Cell high) noexcept {
  m_work.tiles += std::int64_t(high.x - low.x + 1) * (high.y - low.y + 1);
  const SettleArrays arrays = settleArrays();
  const auto width = std::size_t(high.x - low.x + 1);
  std::int64_t reachable = 0;
#if RPGNAV_FIELD_AVX2
  static const bool avx2 = detail::cpuHasAvx2();
#endif
  auto sweep = [&]<std::size_t kMoves>() {
    // The move tables' offsets as a local array (the byte stores of the directions may alias
    // anything else: the tables would be read again for every tile).
    std::ptrdiff_t offsets[4][kMoves];
    for (std::size_t parity = 0; parity < 4; ++parity) {
      for (std::size_t k = 0; k < kMoves; ++k) offsets[parity][k] = m_moves[parity][k].offset;
    }
    for (std::int32_t y = low.y; y <= high.y; ++y) {
      const std::size_t row = padded({low.x, y});
      std::size_t x = 0;
#if RPGNAV_FIELD_AVX2
      // Square 8-connected maps: four tiles at a time where the processor can (a third of the
      // sweep's time on cities/Berlin_0_1024); the same integers, the same directions.
      if constexpr (kMoves == 8) {
        if (avx2) {
          x = directionRowAvx2<false>(arrays.distance, arrays.half, arrays.halfDiagonal, arrays.open, arrays.direction, row, width, offsets[0],
                                      reachable, 0, 0, nullptr);
        }
      }
#endif
      for (std::size_t tile = row + x; tile < row + width; ++tile) {
        if constexpr (kMoves == 6) {
          // Hex maps: an unreachable tile (walls, and ground the goals cannot reach: most of a
          // map of rooms or caves) has no direction, without its six neighbours' looks.
          if (arrays.distance[tile] == kUnreachable) {
            arrays.direction[tile] = kNoDirection;
            continue;
          }
        }
        settleWith<kMoves>(arrays, tile, offsets[kMoves == 6 ? arrays.open[tile] >> kParityShift : 0]);
        reachable += arrays.distance[tile] != kUnreachable;
      }
    }
  };
  if (m_parityMatters) {
    sweep.template operator()<6>();
  } else if (m_moves[0].size() == 4) {
    sweep.template operator()<4>();
  } else {
    sweep.template operator()<8>();
  }
  return reachable;
}

template <std::size_t kMoves>
Vec2 CrowdField::flowWith(std::size_t tile, const Move* moves) const noexcept {
  // The downhill neighbours blended by how fast they descend (drop / step length); where two
  // equally good ways cancel out, the direction's alone. Without branches per move: a closed,
  // uphill, level or unreachable neighbour drops by 0. (The rule settle() once stored per tile:
  // the same operations in the same order, so the same bits.)
  const std::uint8_t best = m_direction[tile];
  if (best == kNoDirection) return Vec2::Zero();  // a goal tile, or no goal reachable
  const std::int64_t here = m_distance[tile];
  const std::uint64_t open = openMoves(tile);
  std::int64_t drop[kMoves];
  for (std::size_t k = 0; k < kMoves; ++k) {
    const std::int64_t fall = here - m_distance[std::size_t(std::ptrdiff_t(tile) + moves[k].offset)];
    drop[k] = fall & -std::int64_t((open >> k) & std::uint64_t(fall > 0));
  }
  float fastest = 0.0f;
  Vec2 sum = Vec2::Zero();
  if constexpr (kMoves == 8) {
    // Square tiles, 8 moves (east, south, west, north, then the diagonals south-east,
    // south-west, north-west, north-east): the blend in integers along the east and south axes.
    constexpr double kStraight = 1.0 / double(kStep), kDiagonal = 1.0 / (double(kDiagonalStep) * std::numbers::sqrt2);
    const double east = double(drop[0] - drop[2]) * kStraight + double(drop[4] - drop[5] - drop[6] + drop[7]) * kDiagonal;
    const double south = double(drop[1] - drop[3]) * kStraight + double(drop[4] + drop[5] - drop[6] - drop[7]) * kDiagonal;
    sum = float(east) * moves[0].unit + float(south) * moves[1].unit;
    const std::int64_t steepStraight = std::max(std::max(drop[0], drop[1]), std::max(drop[2], drop[3]));
    const std::int64_t steepDiagonal = std::max(std::max(drop[4], drop[5]), std::max(drop[6], drop[7]));
    fastest = float(std::max(double(steepStraight) * kStraight, double(steepDiagonal) / double(kDiagonalStep)));
    return pickFlow(sum, fastest, moves[best].unit);
  } else {
    return blendFlow(drop, moves, kMoves, best);
  }
}

Vec2 CrowdField::blendFlow(const std::int64_t* drop, const Move* moves, std::size_t count, std::uint8_t best) noexcept {
  float fastest = 0.0f;
  Vec2 sum = Vec2::Zero();
  for (std::size_t k = 0; k < count; ++k) {
    const float rate = float(double(drop[k]) * moves[k].perLength);
    fastest = std::max(fastest, rate);
    sum += rate * moves[k].unit;
  }
  return pickFlow(sum, fastest, moves[best].unit);
}

Vec2 CrowdField::pickFlow(Vec2 sum, float fastest, Vec2 chosen) noexcept {
  // The blend, unless it is too weak to trust (ways that cancel out) or strays more than 60°
  // from the step the direction takes: then that step's own way.
  const float length = sum.norm();
  return !(fastest > 0.0f) || length < 1e-3f * fastest || sum.dot(chosen) < 0.5f * length ? chosen : Vec2(sum / length);
}

Vec2 CrowdField::flow(Cell cell) const noexcept {
  if (!m_costs.contains(cell)) return Vec2::Zero();
  const std::size_t tile = padded(cell);
  if (m_direction[tile] == kNoDirection) return Vec2::Zero();  // a goal, no goal reachable, or not settled
  if (!m_doorSide.empty() && m_doorSide[tile] != 0) return flowWithCrossings(tile);
  if (m_parityMatters) return flowWith<6>(tile, movesOf(tile).data());
  return m_moves[0].size() == 4 ? flowWith<4>(tile, m_moves[0].data()) : flowWith<8>(tile, m_moves[0].data());
}

// A tile beside doors whose crossings cost extra: its downhill moves, the crossings among them
// (settle()'s and flow()'s rules, written plainly: only such tiles come here). Fills the drop
// of each move (0 for the others) and returns the direction.
std::uint8_t CrowdField::dropsWithCrossings(std::size_t tile, std::int64_t* drop) const noexcept {
  const std::int64_t here = m_distance[tile];
  const std::vector<Move>& moves = movesOf(tile);
  std::int64_t extra[8] = {};
  bool usable[8] = {};
  for (std::size_t k = 0; k < moves.size(); ++k) usable[k] = (openMoves(tile) >> k) & 1u;
  for (const Crossing& crossing : crossingsOf(tile)) {
    const std::size_t next = std::size_t(std::ptrdiff_t(tile) + moves[crossing.move].offset);
    usable[crossing.move] = m_half[next] != 0;
    extra[crossing.move] = crossing.extra;
  }
  std::uint8_t best = kNoDirection;
  for (std::size_t k = 0; k < moves.size(); ++k) {
    drop[k] = 0;
    const std::size_t next = std::size_t(std::ptrdiff_t(tile) + moves[k].offset);
    if (here == kUnreachable || !usable[k] || m_distance[next] == kUnreachable || m_distance[next] >= here) continue;
    drop[k] = here - m_distance[next];
    if (best == kNoDirection && drop[k] == stepCost(tile, next, moves[k]) + extra[k]) best = std::uint8_t(k);
  }
  return best;
}

void CrowdField::settleWithCrossings(std::size_t tile) noexcept {
  std::int64_t drop[8];
  m_direction[tile] = dropsWithCrossings(tile, drop);
}

Vec2 CrowdField::flowWithCrossings(std::size_t tile) const noexcept {
  std::int64_t drop[8];
  const std::uint8_t best = dropsWithCrossings(tile, drop);
  if (best == kNoDirection) return Vec2::Zero();
  const std::vector<Move>& moves = movesOf(tile);
  return blendFlow(drop, moves.data(), moves.size(), best);
}

void CrowdField::refreshDirections() {
  const std::uint32_t counted = freshStamp(2), looked = counted + 1;
  // The tiles propagate() settled and those an edit touched, and their neighbours (border tiles,
  // the padding, have no direction and no neighbours to look at).
  // The work of the integration: the tiles it settled (a tile improved twice within one bucket
  // is listed twice).
  for (const std::uint32_t tile : m_settled) {
    if (m_stamp[tile] != counted) {
      m_stamp[tile] = counted;
      ++m_work.tiles;
    }
  }
  m_touched.insert(m_touched.end(), m_settled.begin(), m_settled.end());
  m_settled.clear();
  const std::int64_t tiles = std::int64_t(m_costs.width()) * m_costs.height();
  if (m_sweepDirections || std::int64_t(m_touched.size()) * (std::int64_t(m_moves[0].size()) + 1) > tiles) {
    // The lists might look at more tiles than the map has: one sweep instead. (When propagate()
    // stopped listing what it settled, those were reachable tiles: the sweep counts them.)
    m_touched.clear();
    const std::int64_t reachable = settleAll();
    if (m_sweepDirections) m_work.tiles += reachable;
    m_sweepDirections = false;
    return;
  }
  std::int64_t settled = 0;
  for (const std::uint32_t tile : m_touched) {
    if (!inside(tile)) continue;
    if (m_stamp[tile] != looked) {
      m_stamp[tile] = looked;
      settle(tile);
      ++settled;
    }
    for (const Move& move : movesOf(tile)) {
      const std::size_t next = std::size_t(std::ptrdiff_t(tile) + move.offset);
      if (inside(next) && m_stamp[next] != looked) {
        m_stamp[next] = looked;
        settle(next);
        ++settled;
      }
    }
  }
  m_work.tiles += settled;
  m_touched.clear();
}

Status CrowdField::setDoor(Cell a, Cell b, DoorState state) {
  if (!m_costs.contains(a) || !m_costs.contains(b)) return Status::InvalidArgument;
  const auto tileA = std::uint32_t(padded(a)), tileB = std::uint32_t(padded(b));
  const std::vector<Move>& moves = movesOf(tileA);
  const bool neighbours = std::any_of(moves.begin(), moves.end(), [&](const Move& move) {
    return move.cornerA == 0 && std::ptrdiff_t(tileA) + move.offset == std::ptrdiff_t(tileB);
  });
  if (!neighbours) return Status::InvalidArgument;
  const auto found = std::find_if(m_doors.begin(), m_doors.end(), [&](const FieldDoor& door) {
    return (door.a == tileA && door.b == tileB) || (door.a == tileB && door.b == tileA);
  });
  if (found != m_doors.end() && found->state == state) {
    m_work = {};
    return Status::Ok;
  }
  if (found != m_doors.end()) {
    found->state = state;
  } else {
    m_doors.push_back({tileA, tileB, state});
  }
  applyDoors();
  const std::uint32_t reshaped[2] = {tileA, tileB};
  update({}, {}, {}, reshaped);
  return Status::Ok;
}

Status CrowdField::removeDoor(Cell a, Cell b) {
  if (!m_costs.contains(a) || !m_costs.contains(b)) return Status::InvalidArgument;
  const auto tileA = std::uint32_t(padded(a)), tileB = std::uint32_t(padded(b));
  const auto found = std::find_if(m_doors.begin(), m_doors.end(), [&](const FieldDoor& door) {
    return (door.a == tileA && door.b == tileB) || (door.a == tileB && door.b == tileA);
  });
  if (found == m_doors.end()) return Status::InvalidArgument;
  m_doors.erase(found);
  applyDoors();
  const std::uint32_t reshaped[2] = {tileA, tileB};
  update({}, {}, {}, reshaped);
  return Status::Ok;
}

Status CrowdField::setDoorPolicy(const DoorPolicy& policy) {
  const auto valid = [](float cost) { return cost == DoorPolicy::kBlocks || (cost >= 0.0f && cost <= 1000.0f); };
  if (!valid(policy.closedCost) || !valid(policy.lockedCost)) return Status::InvalidArgument;
  m_doorPolicy = policy;
  applyDoors();
  rebuild();
  return Status::Ok;
}

std::int64_t CrowdField::crossingExtra(DoorState state) const noexcept {
  const float cost = state == DoorState::Open ? 0.0f : state == DoorState::Closed ? m_doorPolicy.closedCost : m_doorPolicy.lockedCost;
  if (cost == DoorPolicy::kBlocks) return -1;
  // Tile steps on cost-1 ground (as the planner prices a door: lib/path/query_doors.cpp).
  return std::llround(double(cost) * double(kStep));
}

std::span<const CrowdField::Crossing> CrowdField::crossingsOf(std::size_t tile) const noexcept {
  const Crossing key{std::uint32_t(tile), 0, 0};
  const auto [first, last] = std::equal_range(m_crossings.begin(), m_crossings.end(), key);
  return {first, last};
}

void CrowdField::applyDoors() {
  ++m_mapEdits;
  // The tiles whose bits change: those the doors marked before and those they mark now.
  std::vector<std::uint32_t> before;
  before.swap(m_doorMarked);
  for (const std::uint32_t tile : before) {
    m_doorBlocked[tile] = 0;
    m_doorSide[tile] = 0;
  }
  m_crossings.clear();
  m_largestExtra = 0;
  if (!m_doors.empty() && m_doorBlocked.empty()) {
    m_doorBlocked.assign(m_distance.size(), 0);
    m_doorSide.assign(m_distance.size(), 0);
  }
  const auto moveBetween = [this](std::uint32_t from, std::uint32_t to) {
    const std::vector<Move>& moves = movesOf(from);
    for (std::size_t k = 0; k < moves.size(); ++k) {
      if (std::ptrdiff_t(from) + moves[k].offset == std::ptrdiff_t(to)) return std::uint8_t(k);
    }
    return std::uint8_t(0);  // (setDoor checked they are neighbours)
  };
  const auto block = [this](std::uint32_t tile, std::size_t move) {
    m_doorBlocked[tile] = std::uint8_t(m_doorBlocked[tile] | (1u << move));
    m_doorMarked.push_back(tile);
  };
  for (const FieldDoor& door : m_doors) {
    const std::int64_t extra = crossingExtra(door.state);
    if (extra == 0) continue;  // open (or free to pass): an ordinary edge
    const std::uint8_t forward = moveBetween(door.a, door.b), backward = moveBetween(door.b, door.a);
    // The crossing leaves the ordinary moves (which all cost the same per step) ...
    block(door.a, forward);
    block(door.b, backward);
    if (extra > 0) {
      // ... and costs extra as a crossing of its own.
      m_crossings.push_back({door.a, forward, extra});
      m_crossings.push_back({door.b, backward, extra});
      m_doorSide[door.a] = m_doorSide[door.b] = 1;
      m_largestExtra = std::max(m_largestExtra, extra);
      continue;
    }
    // A blocking door: square diagonals past its ends go too (the four tiles round the corner a
    // diagonal passes include both of the door's tiles).
    for (const std::uint32_t end : {door.a, door.b}) {
      for (const Move& around : movesOf(end)) {
        const auto tile = std::uint32_t(std::ptrdiff_t(end) + around.offset);
        if (!inside(tile)) continue;
        const std::vector<Move>& moves = movesOf(tile);
        for (std::size_t k = 0; k < moves.size(); ++k) {
          if (moves[k].cornerA == 0) continue;
          const std::uint32_t corner[4] = {tile, std::uint32_t(std::ptrdiff_t(tile) + moves[k].offset),
                                           std::uint32_t(std::ptrdiff_t(tile) + moves[k].cornerA),
                                           std::uint32_t(std::ptrdiff_t(tile) + moves[k].cornerB)};
          const auto has = [&](std::uint32_t each) { return std::find(corner, corner + 4, each) != corner + 4; };
          if (has(door.a) && has(door.b)) block(tile, k);
        }
      }
    }
  }
  std::sort(m_crossings.begin(), m_crossings.end());
  for (const std::uint32_t tile : before) refreshOpen(tile);
  for (const std::uint32_t tile : m_doorMarked) refreshOpen(tile);
}

Status CrowdField::setDanger(int layer, Cell cell, std::uint8_t danger) {
  if (const Status status = m_danger.setDanger(layer, cell, danger); status != Status::Ok) return status;
  applyDangerEdit();
  return Status::Ok;
}

Result<std::uint32_t> CrowdField::addDangerStamp(const DangerStamp& stamp) {
  auto id = m_danger.addStamp(stamp);
  if (id) applyDangerEdit();
  return id;
}

Status CrowdField::removeDangerStamp(std::uint32_t id) {
  if (const Status status = m_danger.removeStamp(id); status != Status::Ok) return status;
  applyDangerEdit();
  return Status::Ok;
}

void CrowdField::applyDangerEdit() {
  m_weightChanges.clear();
  for (const Cell cell : m_danger.lastTouched()) m_weightChanges.push_back({std::uint32_t(padded(cell)), rateFor(cell)});
  update(m_weightChanges, {}, {});
}

void CrowdField::setDangerFactor(std::uint8_t factor) {
  if (factor == m_factor) return;
  m_factor = factor;
  applyDoors();  // crossings cost tile steps of cost-1 ground, whose weight the factor sets
  for (std::int32_t y = 0; y < m_costs.height(); ++y) {
    for (std::int32_t x = 0; x < m_costs.width(); ++x) refreshWeight({x, y});
  }
  refreshOpenAround();  // (danger never walls a tile up: nothing to refresh, but the list is emptied)
  rebuild();
}

void CrowdField::setFollowers(std::span<const Cell> followers, std::int32_t marginTiles) {
  m_work = {};
  leaveTracking();  // (a bounded field is built exactly from here on)
  m_marginTiles = std::max(marginTiles, 0);
  m_followers.clear();
  for (const Cell cell : followers) {
    if (m_costs.contains(cell) && m_half[padded(cell)] != 0) m_followers.push_back(std::uint32_t(padded(cell)));
  }
  if (!m_bounded) {
    // The whole map's distances are dropped once; from now on resets cost the settled area.
    m_bounded = true;
    m_followerMark.assign(m_distance.size(), 0);
    std::fill(m_distance.begin(), m_distance.end(), kUnreachable);
    std::fill(m_direction.begin(), m_direction.end(), kNoDirection);
    m_region.clear();
    m_rows.assign(std::size_t(m_costs.height()), RowSpan{});
    m_lostFollowers.clear();
    buildBounded();
    return;
  }
  growBounded();
}

void CrowdField::clearFollowers() {
  if (!m_bounded) return;
  m_bounded = false;
  m_limit = kUnreachable;
  m_followers.clear();
  m_lostFollowers.clear();
  m_region.clear();
  m_rows.clear();
  m_frontier.clear();
  m_followerMark.clear();
  rebuild();
}

bool CrowdField::beyondBound(std::uint32_t tile) const noexcept {
  if (m_distance[tile] < m_limit) return false;
  for (const Move& move : movesOf(tile)) {
    if (m_distance[std::size_t(std::ptrdiff_t(tile) + move.offset)] < m_limit) return false;
  }
  return true;
}

void CrowdField::seedGoals(std::vector<std::uint32_t>& seeds) {
  for (const Cell goal : m_goals) {
    m_distance[padded(goal)] = 0;
    seeds.push_back(std::uint32_t(padded(goal)));
  }
  for (const auto& [tile, cost] : m_sources) {
    if (cost < m_distance[tile]) {
      m_distance[tile] = cost;
      seeds.push_back(tile);
    }
  }
}

std::pair<Cell, Cell> CrowdField::settledBox() const noexcept {
  const Cell whole{m_costs.width() - 1, m_costs.height() - 1};
  if (m_limit == kUnreachable || !m_sources.empty()) return {{0, 0}, whole};
  // A settled tile's distance is below the limit, and every step costs at least the lightest
  // step: it lies within that many steps of a goal, and a step (square or hex, in tile
  // coordinates) changes x and y by at most one each.
  const std::int64_t reach = m_limit / lightestStep() + 1;
  Cell low = whole, high{0, 0};
  for (const Cell goal : m_goals) {
    low = {std::int32_t(std::max<std::int64_t>(0, std::min<std::int64_t>(low.x, goal.x - reach))),
           std::int32_t(std::max<std::int64_t>(0, std::min<std::int64_t>(low.y, goal.y - reach)))};
    high = {std::int32_t(std::min<std::int64_t>(whole.x, std::max<std::int64_t>(high.x, goal.x + reach))),
            std::int32_t(std::min<std::int64_t>(whole.y, std::max<std::int64_t>(high.y, goal.y + reach)))};
  }
  if (low.x > high.x || low.y > high.y) return {{0, 0}, {0, 0}};
  return {low, high};
}

void CrowdField::buildBounded() {
  m_work.rebuilt = true;
  m_buildTimes = {};
  const bool canonical = buildBoundedCanonical();
  m_buildTimes.canonical = canonical;
  m_boundedEdits = m_mapEdits;
  if (canonical) return;
  // Everything the last bounded field wrote goes back to unreached.
  resetWritten();
  m_settledTiles = 0;
  m_frontier.clear();
  seedGoals(m_frontier);
  m_region.insert(m_region.end(), m_frontier.begin(), m_frontier.end());
  m_limit = 0;  // nothing settled yet
  growBounded();
}

void CrowdField::growBounded() {
  // The followers still to reach: not settled, not known to be cut off.
  m_farthestFollower = 0;
  m_pendingFollowers = 0;
  for (const std::uint32_t tile : m_followers) {
    if (m_distance[tile] < m_limit) {
      m_farthestFollower = std::max(m_farthestFollower, m_distance[tile]);
    } else if (m_followerMark[tile] == 0 &&
               std::find(m_lostFollowers.begin(), m_lostFollowers.end(), tile) == m_lostFollowers.end()) {
      m_followerMark[tile] = 1;
      ++m_pendingFollowers;
    }
  }
  m_margin = std::int64_t(m_marginTiles) * lightestStep();
  const bool covered = m_pendingFollowers == 0 && m_limit > m_farthestFollower + m_margin;
  if (!covered && m_limit != kUnreachable) {
    m_seeds.swap(m_frontier);
    m_frontier.clear();
    m_settled.clear();
    m_limit = kUnreachable;  // propagate() sets it where it stops; unchanged when the queue ran dry
    m_stopEarly = true;
    m_recording = true;
    m_sweepDirections = false;
    m_sweepAbove = std::numeric_limits<std::size_t>::max();
    propagate();
    m_recording = false;
    m_stopEarly = false;
    // The new tiles get their directions (those settled before keep theirs: a direction reads
    // only the nearer neighbours, all settled already): one by one, or, when they fill much of
    // the box every settled tile lies in, by sweeping the box (the same rule, in memory order).
    const std::uint32_t seen = freshStamp();
    std::int64_t fresh = 0;
    for (const std::uint32_t tile : m_settled) {
      if (m_stamp[tile] == seen) continue;
      m_stamp[tile] = seen;
      m_region.push_back(tile);
      ++fresh;
    }
    m_settledTiles += fresh;
    m_work.tiles += std::int64_t(m_settled.size());
    const auto [low, high] = settledBox();
    const std::int64_t box = std::int64_t(high.x - low.x + 1) * (high.y - low.y + 1);
    if (fresh * kSweepShare > box) {
      settleRange(low, high);
      for (const std::uint32_t tile : m_frontier) m_direction[tile] = kNoDirection;  // not settled
      for (const Crossing& crossing : m_crossings) {
        if (m_distance[crossing.tile] < m_limit) settleWithCrossings(crossing.tile);
      }
    } else {
      for (std::size_t i = m_region.size() - std::size_t(fresh); i < m_region.size(); ++i) settle(m_region[i]);
      m_work.tiles += fresh;
    }
    m_settled.clear();
    m_region.insert(m_region.end(), m_frontier.begin(), m_frontier.end());
  }
  // Followers the integration did not reach although it ran dry are cut off from every goal.
  for (const std::uint32_t tile : m_followers) {
    if (m_followerMark[tile] == 0) continue;
    m_followerMark[tile] = 0;
    if (m_distance[tile] >= m_limit) m_lostFollowers.push_back(tile);
  }
  m_pendingFollowers = 0;
}

void CrowdField::resetWritten() {
  for (const std::uint32_t tile : m_region) {
    m_distance[tile] = kUnreachable;
    m_direction[tile] = kNoDirection;
  }
  m_work.tiles += std::int64_t(m_region.size());
  m_region.clear();
  clearRows(true);
}

void CrowdField::clearRows(bool directions) {
  for (std::size_t y = 0; y < m_rows.size(); ++y) {
    RowSpan& span = m_rows[y];
    if (span.low > span.high) continue;
    const std::size_t first = padded({span.low, std::int32_t(y)}), count = std::size_t(span.high - span.low + 1);
    std::fill_n(m_distance.begin() + std::ptrdiff_t(first), count, kUnreachable);
    if (directions) std::fill_n(m_direction.begin() + std::ptrdiff_t(first), count, kNoDirection);
    m_work.tiles += std::int64_t(count);
    span = {};
  }
}

void CrowdField::rowsFromRegion() {
  // Padded tile -> row and column by a multiplication (a division per tile would cost more than
  // the rest of a canonical build), corrected where rounding put it one row off.
  const auto stride = std::uint64_t(m_stride);
  const double perRow = 1.0 / double(stride);
  for (const std::uint32_t tile : m_region) {
    std::uint64_t row = std::uint64_t(double(tile) * perRow);
    if (row * stride > tile) --row;
    if ((row + 1) * stride <= tile) ++row;
    const auto x = std::int32_t(tile - row * stride) - 1, y = std::int32_t(row) - 1;
    RowSpan& span = m_rows[std::size_t(y)];
    if (span.low > span.high) {
      span = {x, x};
    } else {
      span.low = std::min(span.low, x);
      span.high = std::max(span.high, x);
    }
  }
  m_work.tiles += std::int64_t(m_region.size());
  m_region.clear();
}

bool CrowdField::buildBoundedCanonical() {
  // The last bounded field must be this map's and must have stopped short of the whole
  // component (its limit bounds where the new one lies), and every new goal must lie in it.
  if (!oneWeightSquare() || !m_boundsExact || m_boundedEdits != m_mapEdits || m_limit == kUnreachable || m_limit <= 0 ||
      m_goals.empty() || m_rows.empty()) {
    return false;
  }
  // After an attempt that was given up (the scan's routes needed a repair, or it met walls
  // scattered thickly), the next few builds go straight to Dial's algorithm: near the same goals
  // the next attempt would likely fail too, and a failed one costs as much as a success.
  if (m_scanPause > 0) {
    --m_scanPause;
    return false;
  }
  const std::int64_t straight = 2 * halfStraightCost(m_lightest), diagonal = 2 * halfDiagonalCost(m_lightest);
  // `moved`: the farthest a new goal lies from the old ones. A tile's old distance is at most its
  // new one plus that (through the nearest new goal), so the tiles below a distance D now lay
  // below D + moved before: within (D + moved - m_limit) / straight + 1 tiles of an old settled
  // tile (a route out of the settled area costs at least the limit, and a step at least straight).
  std::int64_t moved = 0;
  for (const Cell goal : m_goals) {
    const std::int64_t was = m_distance[padded(goal)];
    if (was >= m_limit) return false;
    moved = std::max(moved, was);
  }
  // The scan writes below `cap`: the old limit, the goals' move and a bucket more, which holds
  // the new stop (the end of the bucket past the farthest follower and the margin, each now at
  // most `moved` further) unless the followers moved away meanwhile (then Dial's algorithm does it).
  const int shift = bucketShape().first;
  const std::int64_t cap = m_limit + moved + (std::int64_t(1) << shift);
  // The old written rows hold the settled tiles and the frontier beside them (where a route out
  // of the settled area steps first); the new field's tiles below the cap, and its frontier,
  // lie within `reach` tiles of those.
  const std::int32_t reach = std::int32_t((cap + moved - m_limit) / straight) + 1;
  rowsFromRegion();
  // The area the new field can write: the old written rows widened by `reach` every way.
  const std::int32_t height = m_costs.height(), width = m_costs.width();
  m_area.assign(std::size_t(height), RowSpan{});
  for (std::int32_t y = 0; y < height; ++y) {
    const RowSpan span = m_rows[std::size_t(y)];
    if (span.low > span.high) continue;
    const RowSpan wide{std::max(0, span.low - reach), std::min(width - 1, span.high + reach)};
    for (std::int32_t row = std::max(0, y - reach); row <= std::min(height - 1, y + reach); ++row) {
      RowSpan& area = m_area[std::size_t(row)];
      area = area.low > area.high ? wide : RowSpan{std::min(area.low, wide.low), std::max(area.high, wide.high)};
    }
  }
  // The old distances go (the directions are all written by the last sweep: the area covers them).
  clearRows(false);
  const auto giveUp = [this]() {
    m_rows.swap(m_area);  // everything the scan may have written: resetWritten() clears it
    m_scanPause = kScanPause;
    return false;
  };
  m_seeds.clear();
  seedGoals(m_seeds);
  if (!scanCanonical(straight, diagonal, cap)) return giveUp();
  // Where Dial's bounded build stops: the end of the first bucket past the farthest follower
  // looked for (not those known cut off) and the margin. Every follower must lie below the cap.
  m_margin = std::int64_t(m_marginTiles) * lightestStep();
  std::int64_t farthest = 0;
  for (const std::uint32_t tile : m_followers) {
    if (std::find(m_lostFollowers.begin(), m_lostFollowers.end(), tile) != m_lostFollowers.end()) continue;
    if (m_distance[tile] >= cap) return giveUp();
    farthest = std::max(farthest, m_distance[tile]);
  }
  const std::int64_t stop = (((farthest + m_margin) >> shift) + 1) << shift;
  if (stop > cap) return giveUp();
  m_frontier.clear();
  m_settledTiles = 0;
  if (!finishBoundedRows(stop, straight, diagonal)) return giveUp();
  // Nothing beside the settled tiles: the goals' whole component is settled (Dial's queue ran dry).
  m_limit = m_frontier.empty() ? kUnreachable : stop;
  m_farthestFollower = farthest;
  m_pendingFollowers = 0;
  return true;
}

#if RPGNAV_FIELD_AVX2
namespace {
// finishBoundedRows() for the tiles row .. row + width - 1, four at a time (AVX2; every passable
// tile weighs the same: `straight` and `diagonal` are its steps). Returns the tiles done (a
// multiple of four; the caller does the rest), or width + 1 when a kept neighbour offers some
// tile less than it holds and than `stop`. `first` and `last`: the first and last tile written
// (kept or frontier), updated.
__attribute__((target("avx2"))) std::size_t finishRowAvx2(std::int64_t* distance, const std::int64_t* half,
                                                          const std::uint8_t* openBits, std::uint8_t* direction, std::size_t row,
                                                          std::size_t width, const std::ptrdiff_t* offsets, std::int64_t straight,
                                                          std::int64_t diagonal, std::int64_t stop, std::int64_t& settledTiles,
                                                          std::vector<std::uint32_t>& frontier, std::size_t& firstTile,
                                                          std::size_t& lastTile) {
  // (Locals, not the callers' memory: the byte stores into `direction` could alias those, and
  // the compiler would load them again after every one.)
  std::ptrdiff_t offset[8];
  for (int m = 0; m < 8; ++m) offset[m] = offsets[m];
  std::int64_t settled = 0;
  std::size_t first = firstTile, last = lastTile;
  // A direction is the first move (settleWith's order) whose neighbour lies exactly a step
  // nearer: 255 - the largest of (255 - m) over the exact moves m (255 - 0 = kNoDirection when
  // none), in single-cycle operations (a chain of byte blends is slower).
  static_assert(CrowdField::kNoDirection == 255);
  const __m256i unreachable = _mm256_set1_epi64x(CrowdField::kUnreachable), below = _mm256_set1_epi64x(stop);
  const __m256i none = _mm256_set1_epi64x(255);
  std::size_t x = 0;
  for (; x + 4 <= width; x += 4) {
    const std::size_t tile = row + x;
    const __m256i weights = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(half + tile));
    if (_mm256_testz_si256(weights, weights)) {  // four walls: unreached already
      std::memset(direction + tile, CrowdField::kNoDirection, 4);
      continue;
    }
    const __m256i here = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(distance + tile));
    const __m256i kept = _mm256_cmpgt_epi64(below, here);
    const auto keptLanes = unsigned(_mm256_movemask_pd(_mm256_castsi256_pd(kept)));
    std::int32_t packed;
    std::memcpy(&packed, openBits + tile, sizeof packed);
    const __m256i wall = _mm256_cmpeq_epi64(weights, _mm256_setzero_si256());
    const __m256i open = _mm256_andnot_si256(wall, _mm256_cvtepu8_epi64(_mm_cvtsi32_si128(packed)));
    __m256i rank = _mm256_setzero_si256();  // the largest 255 - m over the exact moves
    if (keptLanes == 0xf) {
      // Four settled tiles (most of the area): their directions, and the check alone (a
      // neighbour that offers one of them less lies below it, so is kept: no offers to gather).
      // Away from walls every move is open (most of those): no move bits to apply.
      __m256i high = _mm256_setzero_si256();
      if (packed == -1) {
        for (int m = 7; m >= 0; --m) {
          const __m256i there = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(distance + std::ptrdiff_t(tile) + offset[m]));
          const __m256i step = _mm256_set1_epi64x(m >= 4 ? diagonal : straight);
          const __m256i fall = _mm256_sub_epi64(here, there);
          rank = _mm256_max_epu32(rank, _mm256_and_si256(_mm256_cmpeq_epi64(fall, step), _mm256_set1_epi64x(255 - m)));
          high = _mm256_or_si256(high, _mm256_cmpgt_epi64(fall, step));
        }
      } else {
        for (int m = 7; m >= 0; --m) {
          const __m256i there = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(distance + std::ptrdiff_t(tile) + offset[m]));
          const __m256i step = _mm256_set1_epi64x(m >= 4 ? diagonal : straight);
          const __m256i bit = _mm256_set1_epi64x(std::int64_t(1) << m);
          const __m256i moveOpen = _mm256_cmpeq_epi64(_mm256_and_si256(open, bit), bit);
          const __m256i fall = _mm256_sub_epi64(here, there);
          const __m256i exact = _mm256_and_si256(_mm256_cmpeq_epi64(fall, step), moveOpen);
          rank = _mm256_max_epu32(rank, _mm256_and_si256(exact, _mm256_set1_epi64x(255 - m)));
          high = _mm256_or_si256(high, _mm256_and_si256(_mm256_cmpgt_epi64(fall, step), moveOpen));
        }
      }
      if (!_mm256_testz_si256(high, high)) return width + 1;
      const std::int32_t bytes = lowBytes(_mm256_sub_epi64(none, rank));
      std::memcpy(direction + tile, &bytes, sizeof bytes);
      settled += 4;
      if (first == std::size_t(-1)) first = tile;
      last = tile + 3;
      continue;
    }
    __m256i offered = unreachable;
    for (int m = 7; m >= 0; --m) {
      const __m256i there = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(distance + std::ptrdiff_t(tile) + offset[m]));
      const __m256i step = _mm256_set1_epi64x(m >= 4 ? diagonal : straight);
      const __m256i bit = _mm256_set1_epi64x(std::int64_t(1) << m);
      const __m256i moveOpen = _mm256_cmpeq_epi64(_mm256_and_si256(open, bit), bit);
      const __m256i exact = _mm256_and_si256(_mm256_cmpeq_epi64(_mm256_sub_epi64(here, there), step), moveOpen);
      rank = _mm256_max_epu32(rank, _mm256_and_si256(exact, _mm256_set1_epi64x(255 - m)));
      // (A neighbour at kUnreachable wraps round here, but is never below the stop.)
      const __m256i candidate = _mm256_add_epi64(there, step);
      const __m256i better = _mm256_and_si256(_mm256_and_si256(_mm256_cmpgt_epi64(below, there), moveOpen),
                                              _mm256_cmpgt_epi64(offered, candidate));
      offered = _mm256_blendv_epi8(offered, candidate, better);
    }
    // A kept neighbour offering less than a tile holds and than the stop: a route the scan missed.
    const __m256i ceiling = _mm256_blendv_epi8(below, here, kept);
    const __m256i missed = _mm256_cmpgt_epi64(ceiling, offered);
    if (!_mm256_testz_si256(missed, missed)) return width + 1;
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(distance + tile), _mm256_blendv_epi8(offered, here, kept));
    const std::int32_t bytes = lowBytes(_mm256_blendv_epi8(none, _mm256_sub_epi64(none, rank), kept));
    std::memcpy(direction + tile, &bytes, sizeof bytes);
    const unsigned reachedLanes =
        unsigned(_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(unreachable, offered)))) & ~keptLanes;
    settled += std::popcount(keptLanes);
    if ((keptLanes | reachedLanes) != 0) {
      if (first == std::size_t(-1)) first = tile + std::size_t(std::countr_zero(keptLanes | reachedLanes));
      last = tile + 31 - std::size_t(std::countl_zero(keptLanes | reachedLanes));
    }
    for (unsigned lanes = reachedLanes; lanes != 0; lanes &= lanes - 1) {
      frontier.push_back(std::uint32_t(tile + std::size_t(std::countr_zero(lanes))));
    }
  }
  settledTiles += settled;
  firstTile = first;
  lastTile = last;
  return x;
}
}  // namespace
#endif

bool CrowdField::finishBoundedRows(std::int64_t stop, std::int64_t straight, std::int64_t diagonal) {
  std::ptrdiff_t offset[8];
  for (std::size_t k = 0; k < 8; ++k) offset[k] = m_moves[0][k].offset;
  const SettleArrays arrays = settleArrays();
#if RPGNAV_FIELD_AVX2
  static const bool avx2 = detail::cpuHasAvx2();
#endif
  for (std::int32_t y = 0; y < m_costs.height(); ++y) {
    const RowSpan area = m_area[std::size_t(y)];
    if (area.low > area.high) continue;
    const std::size_t row = padded({area.low, y}), width = std::size_t(area.high - area.low + 1);
    m_work.tiles += std::int64_t(width);
    std::size_t first = std::size_t(-1), last = 0, x = 0;
#if RPGNAV_FIELD_AVX2
    if (avx2) {
      x = finishRowAvx2(m_distance.data(), m_half.data(), m_open.data(), m_direction.data(), row, width, offset, straight,
                        diagonal, stop, m_settledTiles, m_frontier, first, last);
      if (x > width) return false;
    }
#endif
    for (std::size_t tile = row + x; tile < row + width; ++tile) {
      const std::int64_t here = m_distance[tile];
      const unsigned bits = m_half[tile] != 0 ? m_open[tile] : 0u;
      std::int64_t offered = kUnreachable;
      for (std::size_t k = 0; k < 8; ++k) {
        const std::int64_t there = m_distance[std::size_t(std::ptrdiff_t(tile) + offset[k])];
        if (((bits >> k) & 1u) != 0 && there < stop) offered = std::min(offered, there + (k < 4 ? straight : diagonal));
      }
      if (offered < std::min(here, stop)) return false;  // a route the scan missed
      if (here < stop) {
        settleWith<8>(arrays, tile, offset);
        ++m_settledTiles;
      } else {
        m_distance[tile] = offered;
        m_direction[tile] = kNoDirection;
        if (offered == kUnreachable) continue;
        m_frontier.push_back(std::uint32_t(tile));
      }
      if (first == std::size_t(-1)) first = tile;
      last = tile;
    }
    if (first != std::size_t(-1)) m_rows[std::size_t(y)] = {std::int32_t(first - row) + area.low, std::int32_t(last - row) + area.low};
  }
  return true;
}

void CrowdField::rebuild() {
  m_work = {};
  build();
}

void CrowdField::build() {
  leaveTracking();  // (an exact build ends tracking)
  if (m_bounded) {
    buildBounded();
    return;
  }
  using Clock = std::chrono::steady_clock;
  const auto begin = Clock::now();
  if (!m_boundsExact) measureWeights();
  std::fill(m_distance.begin(), m_distance.end(), kUnreachable);
  m_seeds.clear();
  seedGoals(m_seeds);
  m_work.rebuilt = true;
  // (The canonical integration picks the directions in the sweep that checks its distances.)
  const bool canonical = integrateCanonical();
  if (!canonical) propagate();
  const auto integrated = Clock::now();
  if (!canonical) m_work.tiles += settleAll();  // the tiles the integration settled: the reachable ones
  m_buildTimes.integrationMicros = std::chrono::duration<double, std::micro>(integrated - begin).count();
  m_buildTimes.flowMicros = std::chrono::duration<double, std::micro>(Clock::now() - integrated).count();
}

bool CrowdField::integrateCanonical() {
  m_buildTimes.canonical = false;
  m_buildTimes.scanMicros = m_buildTimes.checkMicros = m_buildTimes.repairMicros = 0.0;
  m_buildTimes.repaired = 0;
  // One weight on every passable tile, so a route's cost is its count of straight and diagonal
  // steps; no sources and no crossings that cost extra (doors that block are in the move bits).
  if (!scansWhole() || !m_boundsExact || m_stopEarly || m_recording || m_seeds.empty()) return false;
  using Clock = std::chrono::steady_clock;
  const auto begin = Clock::now();
  const std::int64_t straight = 2 * halfStraightCost(m_lightest), diagonal = 2 * halfDiagonalCost(m_lightest);
  const bool scanned = m_parityMatters ? scanCanonicalHex(straight, kUnreachable) : scanCanonical(straight, diagonal, kUnreachable);
  const auto scanEnd = Clock::now();
  m_buildTimes.scanMicros = std::chrono::duration<double, std::micro>(scanEnd - begin).count();
  if (!scanned) {  // it gave up: Dial's algorithm from the goals alone
    std::fill(m_distance.begin(), m_distance.end(), kUnreachable);
    for (const std::uint32_t goal : m_seeds) m_distance[goal] = 0;
    return false;
  }
  // The check and the directions in one sweep (both compare every tile with its neighbours).
  m_work.tiles += m_parityMatters ? settleCheckingHex(straight) : settleChecking(straight, diagonal);  // as settleAll()
  const auto checked = Clock::now();
  m_buildTimes.repaired = std::int64_t(m_seeds.size());
  if (!m_seeds.empty()) {
    // Every distance is a real route's and every tile too high is lowered to what a neighbour
    // offers and spreads that: the edges all meet Bellman's condition again, so the field is
    // exact. The tiles it lowered, and their neighbours, get their directions again.
    for (const std::uint32_t tile : m_seeds) m_distance[tile] = bestFromNeighbours(tile);
    m_touched.assign(m_seeds.begin(), m_seeds.end());
    m_recording = true;
    m_sweepDirections = false;
    m_sweepAbove = m_distance.size() / (m_moves[0].size() + 1);
    propagate();
    m_recording = false;
    refreshDirections();
  }
  const auto repaired = Clock::now();
  m_buildTimes.canonical = true;
  m_buildTimes.checkMicros = std::chrono::duration<double, std::micro>(checked - scanEnd).count();
  m_buildTimes.repairMicros = std::chrono::duration<double, std::micro>(repaired - checked).count();
  return true;
}

namespace {
// Square moves (the layout's order): east, south, west, north, then south-east, south-west,
// north-west, north-east. The diagonal between two straight moves at right angles, and each
// diagonal's two straight parts.
constexpr std::uint8_t kDiagonalOf[4][4] = {{0, 4, 0, 7}, {4, 0, 5, 0}, {0, 5, 0, 6}, {7, 0, 6, 0}};
constexpr std::uint8_t kPartsOf[8][2] = {{}, {}, {}, {}, {0, 1}, {2, 1}, {2, 3}, {0, 3}};
// The scan gives up once it has taken more than one jump point per kJumpShare tiles written (and
// kJumpSlack more): measured on random walls, a jump point costs 100-170 ns, about what Dial's
// algorithm spends on ten tiles, and there jump points came one per 3-6 tiles written.
constexpr std::int64_t kJumpShare = 16, kJumpSlack = 256;
}  // namespace

// Both scans' loop: jump points from the goals (scanning every direction in `goalDirections`),
// nearest first, each handed to `expand` unless it was reached sooner since; false when jump
// points come too often for the tiles written (see kJumpShare).
template <typename Expand>
bool CrowdField::drainJumpPoints(std::uint8_t goalDirections, const std::int64_t& written, Expand&& expand) {
  std::vector<JumpPoint>& heap = m_jumpPoints;
  heap.clear();
  for (const std::uint32_t goal : m_seeds) heap.push_back({0, goal, goalDirections});
  std::make_heap(heap.begin(), heap.end(), jumpPointLater);
  std::int64_t popped = 0;
  while (!heap.empty()) {
    // Jump points cost a heap operation and a cache miss or two each, a tile on a run a store:
    // where walls are scattered (random walls, narrow mazes), jump points come nearly as often
    // as tiles and Dial's algorithm is faster.
    if (++popped * kJumpShare > written + kJumpSlack) return false;
    std::pop_heap(heap.begin(), heap.end(), jumpPointLater);
    const JumpPoint point = heap.back();
    heap.pop_back();
    if (m_distance[point.tile] != point.distance) continue;  // reached sooner since
    expand(point);
  }
  return true;
}

void CrowdField::pushJumpPoint(std::int64_t reached, std::size_t tile, unsigned directions, unsigned turns) {
  m_jumpPoints.push_back({reached, std::uint32_t(tile), std::uint8_t(directions), std::uint8_t(turns)});
  std::push_heap(m_jumpPoints.begin(), m_jumpPoints.end(), jumpPointLater);
}

bool CrowdField::scanCanonical(std::int64_t straight, std::int64_t diagonal, std::int64_t cap) {
  std::ptrdiff_t offset[8];
  for (std::size_t k = 0; k < 8; ++k) offset[k] = m_moves[0][k].offset;
  const std::uint8_t* open = m_open.data();
  std::int64_t* distance = m_distance.data();
  std::int64_t written = 0;
  // A straight run from `tile` (at `reached`) along move `move`, writing each tile's distance
  // until it meets a tile as near already or a wall. Where a tile beside the run can be entered
  // but the run beside it (from the tile behind that one) cannot reach it, the routes round that
  // corner start here: a jump point, which goes on with the run and turns that way later.
  // One step along `move`, when it is open and leads to a tile not as near already: its distance.
  const auto step = [&](std::size_t& tile, unsigned move, std::int64_t& reached, std::int64_t length) {
    if (((open[tile] >> move) & 1u) == 0) return false;
    tile = std::size_t(std::ptrdiff_t(tile) + offset[move]);
    reached += length;
    if (reached >= cap || distance[tile] <= reached) return false;
    distance[tile] = reached;
    ++written;
    return true;
  };
  const auto run = [&](std::size_t tile, unsigned move, std::int64_t reached) {
    const unsigned side = (move + 1) & 3, otherSide = (move + 3) & 3, back = (move + 2) & 3;
    while (step(tile, move, reached, straight)) {
      const unsigned bits = open[tile];
      unsigned forced = 0;
      for (const unsigned beside : {side, otherSide}) {
        if (((bits >> beside) & 1u) != 0 && ((open[std::size_t(std::ptrdiff_t(tile) + offset[beside])] >> back) & 1u) == 0) {
          forced |= (1u << beside) | (1u << kDiagonalOf[move][beside]);
        }
      }
      if (forced != 0) [[unlikely]] {
        pushJumpPoint(reached, tile, forced | (1u << move));
        return;
      }
    }
  };
  return drainJumpPoints(0xff, written, [&](const JumpPoint& point) {
    for (unsigned move = 0; move < 4; ++move) {
      if (((point.directions >> move) & 1u) != 0) run(point.tile, move, point.distance);
    }
    // Diagonally, and from every tile on the way straight along both of the diagonal's parts.
    for (unsigned move = 4; move < 8; ++move) {
      if (((point.directions >> move) & 1u) == 0) continue;
      std::size_t tile = point.tile;
      std::int64_t reached = point.distance;
      while (step(tile, move, reached, diagonal)) {
        run(tile, kPartsOf[move][0], reached);
        run(tile, kPartsOf[move][1], reached);
      }
    }
  });
}

// Hex maps: the same scan with the hex search's canonical routes (lib/search/hex_jumps.cpp): a
// primary run in one direction, from every tile of it a secondary run one sixth clockwise, and
// nothing else. A run that steps from p into x passes x's two neighbours beside its way ahead,
// x + D(e∓1); the canonical route to one of them comes past the tile beside p on that side, and
// when that tile cannot step to it (blocked, or a door between) the route must come through x: a
// jump point there scans on from x later, in the run's direction and, for a forced left side,
// the side's (its secondaries cover the ground behind). A primary run's right side is its own
// secondary's. Every distance written is a real route's (the repair after the check makes the
// field exact whatever the scan misses).
bool CrowdField::scanCanonicalHex(std::int64_t straight, std::int64_t cap) {
  // A hex move's offset depends on the tile's parity (its row's or column's shift). A run carries
  // its tile's parity along (each move leads to a known one) rather than reading it back from the
  // tile it has just loaded: that read sat in the chain of loads from one step to the next.
  std::ptrdiff_t offsets[4][6];
  std::uint8_t after[4][6];
  const Layout& layout = m_costs.layout();
  for (std::size_t parity = 0; parity < 4; ++parity) {
    const Cell sample{std::int32_t(parity % 2), std::int32_t(parity / 2)};
    const auto moves = layout.moves(sample);
    for (std::size_t k = 0; k < 6; ++k) {
      offsets[parity][k] = m_moves[parity][k].offset;
      after[parity][k] = std::uint8_t(((sample.x + moves[k].dx) & 1) + 2 * ((sample.y + moves[k].dy) & 1));
    }
  }
  const std::uint8_t* open = m_open.data();
  std::int64_t* distance = m_distance.data();
  std::int64_t written = 0;
  // A tile on a run: its index and parity.
  struct At {
    std::size_t tile;
    unsigned parity;
  };
  const auto at = [&](std::size_t tile) { return At{tile, unsigned(open[tile] >> kParityShift)}; };
  // One step along `move`, when it is open and leads to a tile not as near already.
  const auto step = [&](At& here, unsigned move, std::int64_t& reached) {
    if (((open[here.tile] >> move) & 1u) == 0) return false;
    here.tile = std::size_t(std::ptrdiff_t(here.tile) + offsets[here.parity][move]);
    here.parity = after[here.parity][move];
    reached += straight;
    if (reached >= cap || distance[here.tile] <= reached) return false;
    distance[here.tile] = reached;
    ++written;
    return true;
  };
  // Whether the side `side` of a run along `move` is forced at `here`: the neighbour there is
  // open, and cannot step back against the run to the tile beside the one behind.
  const auto forcedByNeighbour = [&](At here, unsigned move, unsigned side) {
    return ((open[here.tile] >> side) & 1u) != 0 &&
           ((open[std::size_t(std::ptrdiff_t(here.tile) + offsets[here.parity][side])] >> ((move + 3) % 6)) & 1u) == 0;
  };
  // Without doors or a body's side tiles a step is open exactly when the tile it enters is
  // passable; the tile beside the one behind is a neighbour of this tile too, one turn further
  // round than the side (D(e-1) + D(e+3) = D(e-2), D(e+1) + D(e+3) = D(e+2)), so this tile's own
  // bits give the same answer without loading the neighbour's.
  const auto forcedByOwnBits = [&](At here, unsigned move, unsigned side) {
    const unsigned further = side == (move + 1) % 6 ? (move + 2) % 6 : (move + 4) % 6;
    return ((open[here.tile] >> side) & 1u) != 0 && ((open[here.tile] >> further) & 1u) == 0;
  };
  const auto scan = [&](const auto& forcedAt) {
    // A secondary run: both sides can force. A forced right side is the turn a primary run along
    // `move` makes: the route goes on as one, turning at every tile, the turn from this tile too.
    const auto secondary = [&](At here, unsigned move, std::int64_t reached) {
      const unsigned left = (move + 5) % 6, right = (move + 1) % 6;
      while (step(here, move, reached)) {
        const bool forcedLeft = forcedAt(here, move, left), forcedRight = forcedAt(here, move, right);
        if (forcedLeft || forcedRight) [[unlikely]] {
          pushJumpPoint(reached, here.tile, (1u << move) | (forcedLeft ? 1u << left : 0u), forcedRight ? 1u << right : 0u);
          return;
        }
      }
    };
    return drainJumpPoints(0x3f, written, [&](const JumpPoint& point) {
      const At start = at(point.tile);
      for (unsigned move = 0; move < 6; ++move) {
        if (((point.turns >> move) & 1u) != 0) secondary(start, move, point.distance);
      }
      for (unsigned move = 0; move < 6; ++move) {
        if (((point.directions >> move) & 1u) == 0) continue;
        // The primary run, a secondary from every tile of it; only its left side can force.
        const unsigned left = (move + 5) % 6, turn = (move + 1) % 6;
        At here = start;
        std::int64_t reached = point.distance;
        while (step(here, move, reached)) {
          secondary(here, turn, reached);
          if (forcedAt(here, move, left)) [[unlikely]] {
            pushJumpPoint(reached, here.tile, (1u << move) | (1u << left));
            break;
          }
        }
      }
    });
  };
  // (A body's hex step also needs the tiles beside it: see the constructor.)
  const bool ownBits = m_doorBlocked.empty() && !(m_costs.bodyTiles() > 0.0);
  return ownBits ? scan(forcedByOwnBits) : scan(forcedByNeighbour);
}

bool CrowdField::tooHigh(std::size_t tile, const std::ptrdiff_t* offset, std::int64_t straight, std::int64_t diagonal) const noexcept {
  const std::int64_t here = m_distance[tile];
  const unsigned bits = m_half[tile] != 0 ? m_open[tile] : 0u;
  // (here - step never overflows: distances lie in [0, kUnreachable].)
  bool high = false;
  for (std::size_t k = 0; k < 8; ++k) {
    const std::int64_t step = k < 4 ? straight : diagonal;
    high |= ((bits >> k) & 1u) != 0 && m_distance[std::size_t(std::ptrdiff_t(tile) + offset[k])] < here - step;
  }
  return high;
}

std::int64_t CrowdField::settleChecking(std::int64_t straight, std::int64_t diagonal) {
  std::ptrdiff_t offset[8];
  for (std::size_t k = 0; k < 8; ++k) offset[k] = m_moves[0][k].offset;
  const SettleArrays arrays = settleArrays();
  std::int64_t reachable = 0;
  m_seeds.clear();
  m_work.tiles += std::int64_t(m_costs.width()) * m_costs.height();  // every tile looked at, as settleRange()
#if RPGNAV_FIELD_AVX2
  static const bool avx2 = detail::cpuHasAvx2();
#endif
  const auto width = std::size_t(m_costs.width());
  for (std::int32_t y = 0; y < m_costs.height(); ++y) {
    const std::size_t row = padded({0, y});
    std::size_t x = 0;
#if RPGNAV_FIELD_AVX2
    if (avx2) {
      x = directionRowAvx2<true>(arrays.distance, arrays.half, arrays.halfDiagonal, arrays.open, arrays.direction, row, width, offset, reachable,
                                 straight, diagonal, &m_seeds);
    }
#endif
    for (std::size_t tile = row + x; tile < row + width; ++tile) {
      settleWith<8>(arrays, tile, offset);
      reachable += arrays.distance[tile] != kUnreachable;
      if (tooHigh(tile, offset, straight, diagonal)) m_seeds.push_back(std::uint32_t(tile));
    }
  }
  return reachable;
}

std::int64_t CrowdField::settleCheckingHex(std::int64_t straight) {
  std::ptrdiff_t offsets[4][6];
  for (std::size_t parity = 0; parity < 4; ++parity) {
    for (std::size_t k = 0; k < 6; ++k) offsets[parity][k] = m_moves[parity][k].offset;
  }
  const SettleArrays arrays = settleArrays();
  std::int64_t reachable = 0;
  m_seeds.clear();
  m_work.tiles += std::int64_t(m_costs.width()) * m_costs.height();  // every tile looked at, as settleRange()
  const auto width = std::size_t(m_costs.width());
#if RPGNAV_FIELD_AVX2
  static const bool avx2 = detail::cpuHasAvx2();
#endif
  for (std::int32_t y = 0; y < m_costs.height(); ++y) {
    const std::size_t row = padded({0, y});
    std::size_t x = 0;
#if RPGNAV_FIELD_AVX2
    if (avx2) {
      x = checkHexRowAvx2(arrays.distance, arrays.half, arrays.open, arrays.direction, row, width, offsets, kParityShift,
                          arrays.openMask, reachable, straight, m_seeds);
    }
#endif
    for (std::size_t tile = row + x; tile < row + width; ++tile) {
      if (arrays.half[tile] == 0) {  // a wall: no direction, and nothing can lower it
        arrays.direction[tile] = kNoDirection;
        continue;
      }
      // The direction (settleWith's: the first open move whose neighbour lies exactly a step
      // nearer; every passable tile weighs the same) and the check (an open neighbour more than
      // a step nearer: a tile the scan missed, or reached the long way) from one look at each
      // neighbour.
      const std::ptrdiff_t* offset = offsets[arrays.open[tile] >> kParityShift];
      const std::int64_t here = arrays.distance[tile];
      const unsigned bits = arrays.open[tile] & arrays.openMask;
      unsigned exact = 0, high = 0;
      for (std::size_t k = 0; k < 6; ++k) {
        const std::int64_t fall = here - arrays.distance[std::size_t(std::ptrdiff_t(tile) + offset[k])];
        exact |= unsigned(fall == straight) << k;
        high |= unsigned(fall > straight) << k;
      }
      exact &= bits;
      reachable += here != kUnreachable;
      arrays.direction[tile] = exact != 0 && here != kUnreachable ? std::uint8_t(std::countr_zero(exact)) : kNoDirection;
      if ((high & bits) != 0) m_seeds.push_back(std::uint32_t(tile));
    }
  }
  return reachable;
}

std::pair<int, std::size_t> CrowdField::bucketShape() const noexcept {
  // Dial's algorithm: buckets as wide as the largest power of two not above the cheapest step (a
  // shift finds the bucket), so a settled tile's candidates land in later buckets, never its own,
  // and each bucket is settled in any order. Circular (a power-of-two count, so a mask finds the
  // slot), enough for a step to span fewer buckets than there are, but no more than one per 16
  // tiles of the map (and 256 on small maps): a candidate further ahead (a step into heavy danger,
  // a costly door) waits in a heap until its bucket comes. So the queue's size follows the map's,
  // not the ratio of the heaviest rate to the lightest (the danger slider at 255 wanted 2,048
  // buckets on the 64×50 town, each a vector to allocate: a first build took 2.2× factor 0's).
  const std::int64_t lightest = lightestStep();
  int shift = 0;
  while ((std::int64_t(2) << shift) <= lightest) ++shift;
  const std::size_t most = std::max(kMinBucketCap, std::bit_floor(m_distance.size() / 16));
  return {shift, std::min(most, std::bit_ceil(std::size_t(((heaviestStep() + m_largestExtra) >> shift) + 2)))};
}

void CrowdField::propagate() {
  if (m_seeds.empty()) return;
  const auto [shift, count] = bucketShape();
  if (m_buckets.size() < count) m_buckets.resize(count);
  // Seeds can lie far apart (an incremental repair): they join the queue when their bucket comes,
  // so everything queued stays within one turn of the circular buckets.
  std::sort(m_seeds.begin(), m_seeds.end(), [this](std::uint32_t a, std::uint32_t b) {
    return m_distance[a] != m_distance[b] ? m_distance[a] < m_distance[b] : a < b;
  });
  // A tile improved twice while seeding is listed twice: it is settled once.
  m_seeds.erase(std::unique(m_seeds.begin(), m_seeds.end()), m_seeds.end());
  // The layouts' tables: 6 hex steps; 4 square steps, then (8-connected) 4 diagonals.
  const bool sources = !m_sources.empty();
  if (m_parityMatters) {
    sources ? propagateWith<true, 6, 0>(shift, count - 1) : propagateWith<false, 6, 0>(shift, count - 1);
  } else if (m_moves[0].size() == 4) {
    sources ? propagateWith<true, 4, 0>(shift, count - 1) : propagateWith<false, 4, 0>(shift, count - 1);
  } else {
    sources ? propagateWith<true, 4, 4>(shift, count - 1) : propagateWith<false, 4, 4>(shift, count - 1);
  }
}

// Maps of more tiles than this prefetch in propagate(): 64K tiles of distances, weights and move
// bits make 850 KB, about what a core's second-level cache holds (measured: on a 100×100 map the
// prefetches cost 5% of the integration field, on 1024×1024 they save more than that).
constexpr std::size_t kPrefetchTiles = std::size_t(1) << 16;

template <bool kSources, std::size_t kStraight, std::size_t kDiagonal>
void CrowdField::propagateWith(int shift, std::size_t mask) {
  // The move tables as plain local arrays, and the buckets as raw pointers: the stores into the
  // distances cannot alias them, so the compiler keeps them in registers.
  constexpr std::size_t kMoves = kStraight + kDiagonal;
  constexpr std::size_t kLookahead = 16;
  std::ptrdiff_t offsets[4][kMoves];
  for (std::size_t parity = 0; parity < 4; ++parity) {
    for (std::size_t k = 0; k < kMoves; ++k) offsets[parity][k] = m_moves[parity][k].offset;
  }
  // Each bucket as the end of its tiles and the end of its room, side by side (BucketSlot): both
  // are read on every push, from one cache line.
  using Slot = BucketSlot;
  const std::size_t buckets = mask + 1;
  std::vector<Slot>& slotStore = m_slotStore;
  slotStore.resize(buckets);
  for (std::size_t b = 0; b < buckets; ++b) {
    slotStore[b] = {m_buckets[b].data(), m_buckets[b].data() + m_buckets[b].size()};
  }
  Slot* slots = slotStore.data();
  // Room for `extra` more tiles in bucket `slot`.
  auto reserve = [&](std::size_t slot, std::size_t extra) {
    if (std::size_t(slots[slot].limit - slots[slot].end) < extra) [[unlikely]] {  // (no arithmetic on null)
      const std::size_t size = std::size_t(slots[slot].end - m_buckets[slot].data());
      m_buckets[slot].resize(std::max(2 * size + 16, size + extra));
      slots[slot] = {m_buckets[slot].data() + size, m_buckets[slot].data() + m_buckets[slot].size()};
    }
  };
  std::size_t queued = 0, nextSeed = 0;
  // Candidates beyond the circular buckets (see bucketShape), by bucket: they join the buckets
  // when theirs comes, as the seeds do.
  std::vector<std::pair<std::int64_t, std::uint32_t>>& far = m_far;
  far.clear();
  const auto holdFar = [&](std::int64_t bucket, std::size_t tile) {
    far.push_back({bucket, std::uint32_t(tile)});
    std::push_heap(far.begin(), far.end(), std::greater<>());
  };
  std::int64_t current = m_distance[m_seeds.front()] >> shift;
  const std::int64_t* half = m_half.data();
  const std::int64_t* halfDiagonal = m_halfDiagonal.data();
  const std::uint8_t* openBits = m_open.data();
  const std::uint8_t* fixed = m_fixed.data();
  const std::uint8_t* doorSide = m_crossings.empty() ? nullptr : m_doorSide.data();
  std::int64_t* distance = m_distance.data();
  // On maps whose arrays outgrow the caches, the weights and move bits of tiles a little ahead in
  // the bucket are fetched early; on small maps they are cached already and the fetches only cost.
  const bool prefetch = m_distance.size() > kPrefetchTiles;
  const std::ptrdiff_t rowAhead = m_stride;
  // Where a settled tile's candidates land: from `nearest` (at least 1) to `farthest` buckets
  // ahead. When those are few (weights alike), room for everything a turn can push is made once
  // per turn instead of on every push (3% of a 100×100 build).
  const std::size_t nearest = std::size_t(lightestStep() >> shift);
  const std::size_t farthest = std::size_t(heaviestStep() >> shift) + 1;
  // The least half step of each kind: a closed move's unused candidate (a wall's half is 0) is
  // priced with it, so it too lands in those buckets, where room was made.
  const std::int64_t leastHalf = halfStraightCost(m_lightest), leastHalfDiagonal = halfDiagonalCost(m_lightest);
  const bool oneRate = m_lightest == m_heaviest;
  // (Door crossings push outside that count: with them, room is made per push.)
  const bool roomPerTurn = farthest - nearest < 16 && m_crossings.empty();
  // Weights far apart (danger) space the distances over many buckets, most of them empty: a bit
  // per bucket, set on a push (maybe with nothing taken) and cleared when it is worked on, finds
  // the next bucket with tiles in a few word tests (a turret's danger: a rebuild 17 -> 13 us).
  // Not for a bounded field: its stop is decided bucket by bucket.
  const bool skipEmpty = !roomPerTurn && !m_stopEarly;
  std::vector<std::uint64_t>& occupiedStore = m_occupied;
  occupiedStore.assign(skipEmpty ? (buckets + 63) / 64 : 0, 0);
  std::uint64_t* occupied = occupiedStore.data();
  // The next bucket after `from` (circularly) whose bit is set, as a distance ahead (1 to buckets).
  auto nextOccupied = [&](std::size_t from) {
    for (std::size_t ahead = 1; ahead <= buckets;) {
      const std::size_t at = (from + ahead) & mask;
      const std::uint64_t bits = occupied[at >> 6] >> (at & 63);
      if (bits != 0) return ahead + std::size_t(std::countr_zero(bits));
      ahead += 64 - (at & 63);
    }
    return buckets;
  };
  // Relaxes moves [first, last) from `tile`: each neighbour's candidate is `base` (the distance
  // here and this tile's half of the step) and the neighbour's half (from `halves`), into the
  // candidate's bucket. No branch per move: a closed move, a candidate no better than the
  // neighbour's distance (nearer tiles among them) or a source's fixed price stores the old value
  // back and writes a tile past the bucket's end.
  // (Everything 64 bits wide: a narrower value spilled and reloaded whole stalls the load.)
  auto relax = [&]<std::size_t first, std::size_t last>(std::uint64_t tile, std::uint64_t bits, const std::ptrdiff_t* offset,
                                                         std::int64_t base, const std::int64_t* halves, std::int64_t least) {
    std::size_t next[last - first];
    std::int64_t candidate[last - first];
    bool alike = true;
    for (std::size_t k = first; k < last; ++k) {
      next[k - first] = std::size_t(std::ptrdiff_t(tile) + offset[k]);
      // (On a map of one rate every neighbour's half is the least, or a wall's 0: not loaded.)
      candidate[k - first] = base + (oneRate ? least : std::max(halves[next[k - first]], least));
      alike &= candidate[k - first] == candidate[0];
    }
    // Whether a move is taken: all ones when it is open and its candidate better, else zero
    // (arithmetic, not a condition: compilers turn conditions back into branches, and these are
    // unpredictable); the distance is stored either way.
    auto take = [&](std::size_t k) {
      const std::int64_t there = distance[next[k - first]];
      const std::int64_t gain = candidate[k - first] - there;  // no overflow: both lie in [0, kUnreachable]
      std::int64_t taken = (gain >> 63) & -std::int64_t((bits >> k) & 1u);
      if constexpr (kSources) taken &= std::int64_t(fixed[next[k - first]]) - 1;
      distance[next[k - first]] = there + (gain & taken);
      return taken;
    };
    if (alike) [[likely]] {
      if ((candidate[0] >> shift) - current >= std::int64_t(buckets)) [[unlikely]] {
        for (std::size_t k = first; k < last; ++k) {
          if (take(k) != 0) holdFar(candidate[k - first] >> shift, next[k - first]);
        }
        return;
      }
      // The neighbours weigh the same (open ground, a wall's least half): one bucket for all, its
      // end kept in a register (a store and reload of the end per push doubled a 100×100 build).
      const std::size_t slot = std::size_t(candidate[0] >> shift) & mask;
      if (!roomPerTurn) reserve(slot, last - first);
      std::uint32_t* out = slots[slot].end;
      std::uint32_t* const before = out;
      for (std::size_t k = first; k < last; ++k) {
        const std::int64_t taken = take(k);
        *out = std::uint32_t(next[k - first]);
        out -= taken;  // taken is 0 or -1
      }
      slots[slot].end = out;
      queued += std::size_t(out - before);
      if (skipEmpty) occupied[slot >> 6] |= std::uint64_t(1) << (slot & 63);
      return;
    }
    for (std::size_t k = first; k < last; ++k) {
      const std::int64_t taken = take(k);
      if ((candidate[k - first] >> shift) - current >= std::int64_t(buckets)) [[unlikely]] {
        if (taken != 0) holdFar(candidate[k - first] >> shift, next[k - first]);
        continue;
      }
      const std::size_t slot = std::size_t(candidate[k - first] >> shift) & mask;
      if (!roomPerTurn) reserve(slot, 1);
      *slots[slot].end = std::uint32_t(next[k - first]);
      slots[slot].end -= taken;
      queued += std::size_t(-taken);
      if (skipEmpty) occupied[slot >> 6] |= std::uint64_t(1) << (slot & 63);
    }
  };
  // The next seed's or held candidate's bucket (INT64_MAX: none).
  const auto nextWaiting = [&] {
    std::int64_t next = std::numeric_limits<std::int64_t>::max();
    if (nextSeed < m_seeds.size()) next = distance[m_seeds[nextSeed]] >> shift;
    if (!far.empty()) next = std::min(next, far.front().first);
    return next;
  };
  for (; queued > 0 || nextSeed < m_seeds.size() || !far.empty(); ++current) {
    if (queued == 0) {
      current = std::max(current, nextWaiting());
    } else if (skipEmpty && slots[std::size_t(current) & mask].end == m_buckets[std::size_t(current) & mask].data()) {
      // On to the next bucket with tiles, but not past the next seed's or held candidate's.
      const std::size_t ahead = nextOccupied(std::size_t(current) & mask);
      current = std::min(current + std::int64_t(ahead < buckets ? ahead : 1), nextWaiting());
    }
    while (nextSeed < m_seeds.size() && (distance[m_seeds[nextSeed]] >> shift) <= current) {
      const std::uint32_t seed = m_seeds[nextSeed++];
      const std::size_t slot = std::size_t(distance[seed] >> shift) & mask;
      reserve(slot, 1);
      *slots[slot].end++ = seed;
      ++queued;
      if (skipEmpty) occupied[slot >> 6] |= std::uint64_t(1) << (slot & 63);
    }
    while (!far.empty() && far.front().first <= current) {
      const std::uint32_t tile = far.front().second;
      std::pop_heap(far.begin(), far.end(), std::greater<>());
      far.pop_back();
      const std::size_t slot = std::size_t(current) & mask;
      reserve(slot, 1);
      *slots[slot].end++ = tile;
      ++queued;
      if (skipEmpty) occupied[slot >> 6] |= std::uint64_t(1) << (slot & 63);
    }
    const std::size_t slot = std::size_t(current) & mask;
    // Pushes never land in the bucket being worked on (a step is at least a bucket wide), so
    // its size and storage stay put; seeds of this bucket joined above.
    const std::uint32_t* bucket = m_buckets[slot].data();
    const std::size_t size = std::size_t(slots[slot].end - bucket);
    queued -= size;
    if (roomPerTurn) {  // each tile pushes at most kMoves, and writes one past the end
      for (std::size_t ahead = nearest; ahead <= farthest; ++ahead) reserve((slot + ahead) & mask, kMoves * (size + 1));
    }
    for (std::size_t i = 0; i < size; ++i) {
      // The bucket is in no spatial order: the weights, move bits and distances of tiles a
      // little ahead, and the distances in the rows above and below them (the wavefront's
      // first touch of a row there: 5% of Berlin's integration), are fetched now, on big maps.
      if (prefetch && i + kLookahead < size) {
        detail::prefetch(half + bucket[i + kLookahead]);
        detail::prefetch(openBits + bucket[i + kLookahead]);
        detail::prefetch(distance + bucket[i + kLookahead]);
        detail::prefetch(distance + bucket[i + kLookahead] + rowAhead);
        detail::prefetch(distance + bucket[i + kLookahead] - rowAhead);
      }
      const std::uint32_t tile = bucket[i];
      const std::int64_t here = distance[tile];
      if ((here >> shift) != current) continue;  // moved to an earlier bucket since
      // Settled. Adjacency is symmetric: each open move leads to a tile that may step here,
      // paying half the step on each of the two tiles.
      std::uint64_t bits = openBits[tile];
      // Left alone, GCC spills this as the byte it came from and reloads it as a word: the load
      // waits for the store (no forwarding from a narrower store), a third of the whole loop's
      // time in perf. Hiding that only 8 bits can be set avoids it.
      detail::forgetRange(bits);
      const std::ptrdiff_t* offset = offsets[kDiagonal == 0 && kStraight == 6 ? bits >> kParityShift : 0];
      relax.template operator()<0, kStraight>(tile, bits, offset, here + half[tile], half, leastHalf);
      if constexpr (kDiagonal > 0) {
        relax.template operator()<kStraight, kMoves>(tile, bits, offset, here + halfDiagonal[tile], halfDiagonal, leastHalfDiagonal);
      }
      if (doorSide != nullptr && doorSide[tile] != 0) [[unlikely]] {
        // Door crossings that cost extra (taken out of the ordinary moves above).
        for (const Crossing& crossing : crossingsOf(tile)) {
          const Move& move = m_moves[kStraight == 6 ? bits >> kParityShift : 0][crossing.move];
          const std::size_t next = std::size_t(std::ptrdiff_t(tile) + move.offset);
          const std::int64_t candidate = here + stepCost(tile, next, move) + crossing.extra;
          if (half[next] == 0 || candidate >= distance[next] || (kSources && fixed[next] != 0)) continue;
          distance[next] = candidate;
          if ((candidate >> shift) - current >= std::int64_t(buckets)) {
            holdFar(candidate >> shift, next);
            continue;
          }
          const std::size_t to = std::size_t(candidate >> shift) & mask;
          reserve(to, 1);
          *slots[to].end++ = std::uint32_t(next);
          ++queued;
          if (skipEmpty) occupied[to >> 6] |= std::uint64_t(1) << (to & 63);
        }
      }
    }
    // The bucket's settled tiles, noted for an incremental edit: its distances stayed put while
    // it was worked on, so they are read again here (a test per tile in the loop above cost 7% of
    // a full build).
    if (m_recording) {
      for (std::size_t i = 0; i < size; ++i) {
        if ((distance[bucket[i]] >> shift) == current) m_settled.push_back(bucket[i]);
      }
      if (m_stopEarly && m_pendingFollowers > 0) {
        for (std::size_t i = 0; i < size; ++i) {
          const std::uint32_t tile = bucket[i];
          if (m_followerMark[tile] == 0 || (distance[tile] >> shift) != current) continue;
          m_followerMark[tile] = 0;
          --m_pendingFollowers;
          m_farthestFollower = std::max(m_farthestFollower, distance[tile]);
        }
      }
      // So many that the directions will be swept whole anyway: the list is not needed.
      if (m_settled.size() > m_sweepAbove) {
        m_settled.clear();
        m_recording = false;
        m_sweepDirections = true;
      }
    }
    slots[slot].end = m_buckets[slot].data();
    if (skipEmpty) occupied[slot >> 6] &= ~(std::uint64_t(1) << (slot & 63));
    // A bounded field stops once its followers and the margin are settled: everything below
    // `end` is; what is still queued is the frontier it can grow from later.
    const std::int64_t end = (current + 1) << shift;
    if (m_stopEarly && m_pendingFollowers == 0 && end > m_farthestFollower + m_margin &&
        queued + (m_seeds.size() - nextSeed) + far.size() > 0) {
      for (std::size_t b = 0; b < buckets; ++b) {
        for (const std::uint32_t* entry = m_buckets[b].data(); entry != slots[b].end; ++entry) {
          if (distance[*entry] >= end) m_frontier.push_back(*entry);
        }
      }
      for (const auto& [bucket, tile] : far) {
        if (distance[tile] >= end) m_frontier.push_back(tile);
      }
      // (A seed not yet joined may have been reached sooner through another tile: settled.)
      for (std::size_t i = nextSeed; i < m_seeds.size(); ++i) {
        if (distance[m_seeds[i]] >= end) m_frontier.push_back(m_seeds[i]);
      }
      m_limit = end;
      return;
    }
  }
}

bool CrowdField::sameField(const CrowdField& other) const noexcept {
  if (m_direction != other.m_direction || m_distance.size() != other.m_distance.size()) return false;
  if (m_base == other.m_base) return m_distance == other.m_distance;
  for (std::size_t tile = 0; tile < m_distance.size(); ++tile) {
    const std::int64_t a = m_distance[tile], b = other.m_distance[tile];
    if ((a == kUnreachable) != (b == kUnreachable)) return false;
    if (a != kUnreachable && a - m_base != b - other.m_base) return false;
  }
  return true;
}

std::int64_t CrowdField::reachableCount() const noexcept {
  return std::int64_t(std::count_if(m_distance.begin(), m_distance.end(), [this](std::int64_t d) { return d < m_limit; }));
}

std::uint64_t CrowdField::digest() const noexcept {
  std::uint64_t hash = 1469598103934665603ull;
  auto add = [&hash](std::uint64_t value) {
    for (int i = 0; i < 8; ++i) hash = (hash ^ ((value >> (8 * i)) & 0xff)) * 1099511628211ull;
  };
  for (std::int32_t y = 0; y < m_costs.height(); ++y) {
    for (std::int32_t x = 0; x < m_costs.width(); ++x) {
      add(std::uint64_t(distance({x, y})));
      add(m_direction[padded({x, y})]);
      const Vec2 flow = this->flow({x, y});  // computed as a lookup computes it
      std::uint32_t bits[2];
      std::memcpy(bits, flow.data(), sizeof bits);
      add(bits[0]);
      add(bits[1]);
    }
  }
  return hash;
}

FieldFollower::Step FieldFollower::advance(const CrowdField& field, Vec2 position, double distance) noexcept {
  Step step;
  step.position = position;
  if (!position.allFinite()) return step;
  const Layout& layout = field.costs().layout();
  double left = std::isfinite(distance) && distance > 0.0 ? distance : 0.0;
  // Each leg ends at a tile centre: the next tile's. On squares the leg from anywhere in this
  // tile stays in this tile, the next and (for a diagonal) the two beside both, all enterable; on
  // hexes an off-centre start first goes to this tile's centre (two hexes' union is not convex).
  for (int legs = 0; legs < 1 << 16; ++legs) {
    const Cell cell = layout.tileAt(step.position);
    if (!field.reachable(cell)) return step;
    const Vec2 centre = layout.tileCenter(cell);
    Vec2 target = centre;
    const std::uint8_t direction = field.direction(cell);
    if (direction != CrowdField::kNoDirection) {
      const NeighbourStep& move = layout.moves(cell)[direction];
      const Vec2 next = layout.tileCenter({cell.x + move.dx, cell.y + move.dy});
      // On hexes, from off the centre-to-centre segment, the centre first.
      const Vec2 along = next - centre;
      const float t = std::clamp((step.position - centre).dot(along) / along.squaredNorm(), 0.0f, 1.0f);
      const bool onSegment = (centre + t * along - step.position).norm() <= 1e-4f * layout.tileSize();
      target = layout.isHex() && !onSegment ? centre : next;
    }
    const Vec2 offset = target - step.position;
    const double length = double(offset.norm());
    if (length == 0.0) {  // on a goal tile's centre
      step.arrived = true;
      return step;
    }
    step.heading = offset / float(length);
    if (left <= 0.0) return step;
    if (length > left) {
      step.position += step.heading * float(left);
      return step;
    }
    step.position = target;
    left -= length;
  }
  return step;
}

}  // namespace rpgnav
