// SPDX-License-Identifier: MIT
// The crowd field's data: the tiles' weights and move bits, the goals, the map's edits taken in,
// the build, and comparing fields. The rest of CrowdField: incremental_repair.cpp (edits
// repaired in place), flow.cpp (directions and flow vectors), doors_and_danger.cpp, and the
// integrations: dial.cpp (Dial's algorithm), canonical_scan.cpp (maps of one weight),
// bounded_field.cpp (fields bounded by their followers), goal_tracking.cpp (a walking goal).
#include "field/crowd_field_impl.hpp"

#include "field/settle_kernels.hpp"
#include "grid/clearance.hpp"
#include "grid/step_cost.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <utility>

namespace rpgnav {

static_assert(CrowdField::kStep == kCostScale, "the fields count in the tile search's units");

CrowdField::Impl::Impl(const CostField& costs)
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
  const std::span<const std::uint8_t> danger = m_danger.values();  // (one look-up per tile, not a call)
  RPGNAV_ASSERT(danger.size() == std::size_t(costs.width()) * std::size_t(costs.height()), "danger map of the field's size");
  for (std::int32_t y = 0; y < costs.height(); ++y) {
    for (std::int32_t x = 0; x < costs.width(); ++x) {
      storeRate(padded({x, y}), rateFor({x, y}, danger[std::size_t(y) * std::size_t(costs.width()) + std::size_t(x)]));
    }
  }
  for (std::int32_t y = 0; y < costs.height(); ++y) {
    for (std::int32_t x = 0; x < costs.width(); ++x) refreshOpen(padded({x, y}));
  }
  measureWeights();
}

void CrowdField::Impl::refreshOpen(std::size_t tile) noexcept {
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

float CrowdField::Impl::rateFor(Cell cell) const noexcept { return rateFor(cell, m_danger.danger(cell)); }

float CrowdField::Impl::rateFor(Cell cell, std::uint8_t danger) const noexcept {
  const float cost = m_costs.cost(cell);
  if (cost == TerrainTable::kImpassable) return 0.0f;
  // The tile search's range (it refuses terrain beyond it): a rate's half steps fit 64-bit sums.
  return DangerMap::weightedCost(std::clamp(cost, kMinSearchCost, kMaxSearchCost), danger, m_factor);
}

std::int64_t CrowdField::Impl::lightestStep() const noexcept { return 2 * halfStraightCost(m_lightest); }

std::int64_t CrowdField::Impl::heaviestStep() const noexcept {
  return 2 * (m_moves[0].size() == 8 ? halfDiagonalCost(m_heaviest) : halfStraightCost(m_heaviest));
}

void CrowdField::Impl::refreshWeight(Cell cell) { setWeight(padded(cell), rateFor(cell)); }

void CrowdField::Impl::storeRate(std::size_t tile, float rate) noexcept {
  m_rate[tile] = rate;
  m_half[tile] = rate > 0.0f ? halfStraightCost(rate) : 0;
  if (!m_halfDiagonal.empty()) m_halfDiagonal[tile] = rate > 0.0f ? halfDiagonalCost(rate) : 0;
}

void CrowdField::Impl::setWeight(std::size_t tile, float rate) {
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

void CrowdField::Impl::refreshOpenAround() {
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

std::uint32_t CrowdField::Impl::freshStamp(std::uint32_t count) noexcept {
  // Stamps compare equal to a generation: before the counter wraps, every stamp is cleared.
  if (m_generation > std::numeric_limits<std::uint32_t>::max() - count) {
    std::fill(m_stamp.begin(), m_stamp.end(), 0u);
    m_generation = 0;
  }
  m_generation += count;
  return m_generation - count + 1;
}

void CrowdField::Impl::measureWeights() {
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

void CrowdField::Impl::setSources(std::span<const Source> sources) {
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

void CrowdField::Impl::setGoals(std::span<const Cell> goals) {
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

Status CrowdField::Impl::addGoal(Cell goal) {
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

Status CrowdField::Impl::removeGoal(Cell goal) {
  if (!m_costs.contains(goal)) return Status::InvalidArgument;
  const auto removed = std::uint32_t(padded(goal));
  update({}, std::span(&removed, 1), {});
  return Status::Ok;
}

Status CrowdField::Impl::moveGoal(Cell from, Cell to) {
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

Status CrowdField::Impl::setCost(Cell cell, std::uint8_t cost) {
  const TileCost tile{cell, cost};
  return setCosts(std::span(&tile, 1));
}

Status CrowdField::Impl::setCosts(std::span<const TileCost> tiles) {
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

Status CrowdField::Impl::syncWithMap(const TileMap& map) { return syncWith(map, nullptr); }

Status CrowdField::Impl::syncWithMap(const TileMap& map, const Clearance& clearance) { return syncWith(map, &clearance); }

Status CrowdField::Impl::syncWith(const TileMap& map, const Clearance* clearance) {
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

std::int64_t CrowdField::Impl::bestFromNeighbours(std::size_t tile) const noexcept {
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

void CrowdField::Impl::markGoal(std::size_t tile, bool goal) {
  const std::size_t stride = std::size_t(m_stride);
  const Cell cell{std::int32_t(tile % stride) - 1, std::int32_t(tile / stride) - 1};
  m_goalMark[tile] = goal ? 1 : 0;
  if (goal) {
    m_goals.push_back(cell);
  } else {
    m_goals.erase(std::find(m_goals.begin(), m_goals.end(), cell));
  }
}

void CrowdField::Impl::rebuild() {
  m_diagnostics.work = {};
  build();
}

void CrowdField::Impl::build() {
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
  m_diagnostics.work.rebuilt = true;
  // (The canonical integration picks the directions in the sweep that checks its distances.)
  const bool canonical = integrateCanonical();
  if (!canonical) propagate();
  const auto integrated = Clock::now();
  if (!canonical) m_diagnostics.work.tiles += settleAll();  // the tiles the integration settled: the reachable ones
  m_diagnostics.build.integrationMicros = std::chrono::duration<double, std::micro>(integrated - begin).count();
  m_diagnostics.build.flowMicros = std::chrono::duration<double, std::micro>(Clock::now() - integrated).count();
}

bool CrowdField::Impl::sameField(const Impl& other) const noexcept {
  if (m_direction != other.m_direction || m_distance.size() != other.m_distance.size()) return false;
  if (m_base == other.m_base) return m_distance == other.m_distance;
  for (std::size_t tile = 0; tile < m_distance.size(); ++tile) {
    const std::int64_t a = m_distance[tile], b = other.m_distance[tile];
    if ((a == kUnreachable) != (b == kUnreachable)) return false;
    if (a != kUnreachable && a - m_base != b - other.m_base) return false;
  }
  return true;
}

std::int64_t CrowdField::Impl::reachableCount() const noexcept {
  return std::int64_t(std::count_if(m_distance.begin(), m_distance.end(), [this](std::int64_t d) { return d < m_limit; }));
}

std::uint64_t CrowdField::Impl::digest() const noexcept {
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

// --- CrowdField: each call forwarded to its Impl ---

CrowdField::CrowdField(const CostField& costs) : m_impl(std::make_unique<Impl>(costs)) {}
CrowdField::CrowdField(const CrowdField& other) : m_impl(std::make_unique<Impl>(*other.m_impl)) {}
CrowdField& CrowdField::operator=(const CrowdField& other) {
  if (this != &other) m_impl = std::make_unique<Impl>(*other.m_impl);
  return *this;
}
CrowdField::CrowdField(CrowdField&& other) noexcept = default;
CrowdField& CrowdField::operator=(CrowdField&& other) noexcept = default;
CrowdField::~CrowdField() = default;

const CostField& CrowdField::costs() const noexcept { return m_impl->costs(); }
void CrowdField::setGoals(std::span<const Cell> goals) { m_impl->setGoals(goals); }
Status CrowdField::addGoal(Cell goal) { return m_impl->addGoal(goal); }
Status CrowdField::removeGoal(Cell goal) { return m_impl->removeGoal(goal); }
Status CrowdField::moveGoal(Cell from, Cell to) { return m_impl->moveGoal(from, to); }
const std::vector<Cell>& CrowdField::goals() const noexcept { return m_impl->goals(); }
void CrowdField::setSources(std::span<const Source> sources) { m_impl->setSources(sources); }
Status CrowdField::setCost(Cell cell, std::uint8_t cost) { return m_impl->setCost(cell, cost); }
Status CrowdField::setCosts(std::span<const TileCost> tiles) { return m_impl->setCosts(tiles); }
Status CrowdField::syncWithMap(const TileMap& map) { return m_impl->syncWithMap(map); }
Status CrowdField::syncWithMap(const TileMap& map, const Clearance& clearance) { return m_impl->syncWithMap(map, clearance); }
Status CrowdField::setDanger(int layer, Cell cell, std::uint8_t danger) { return m_impl->setDanger(layer, cell, danger); }
Result<std::uint32_t> CrowdField::addDangerStamp(const DangerStamp& stamp) { return m_impl->addDangerStamp(stamp); }
Status CrowdField::removeDangerStamp(std::uint32_t id) { return m_impl->removeDangerStamp(id); }
Status CrowdField::setDoor(Cell a, Cell b, DoorState state) { return m_impl->setDoor(a, b, state); }
Status CrowdField::removeDoor(Cell a, Cell b) { return m_impl->removeDoor(a, b); }
Status CrowdField::setDoorCosts(const DoorCosts& costs) { return m_impl->setDoorCosts(costs); }
const CrowdField::DoorCosts& CrowdField::doorCosts() const noexcept { return m_impl->doorCosts(); }
std::size_t CrowdField::doorCount() const noexcept { return m_impl->doorCount(); }
void CrowdField::setDangerFactor(std::uint8_t factor) { m_impl->setDangerFactor(factor); }
std::uint8_t CrowdField::dangerFactor() const noexcept { return m_impl->dangerFactor(); }
std::uint8_t CrowdField::danger(Cell cell) const noexcept { return m_impl->danger(cell); }
const DangerMap& CrowdField::dangerMap() const noexcept { return m_impl->dangerMap(); }
void CrowdField::rebuild() { m_impl->rebuild(); }
const CrowdField::Diagnostics& CrowdField::diagnostics() const noexcept { return m_impl->diagnostics(); }
std::int64_t CrowdField::repairAllowance() const noexcept { return m_impl->repairAllowance(); }
void CrowdField::setFollowers(std::span<const Cell> followers, std::int32_t marginTiles) {
  m_impl->setFollowers(followers, marginTiles);
}
void CrowdField::clearFollowers() { m_impl->clearFollowers(); }
bool CrowdField::bounded() const noexcept { return m_impl->bounded(); }
std::int64_t CrowdField::settledCount() const noexcept { return m_impl->settledCount(); }
Status CrowdField::trackGoal(Cell to) { return m_impl->trackGoal(to); }
Status CrowdField::startTracking() { return m_impl->startTracking(); }
std::int64_t CrowdField::refreshTracking(std::int64_t tileBudget, double micros) {
  return m_impl->refreshTracking(tileBudget, micros);
}
bool CrowdField::tracking() const noexcept { return m_impl->tracking(); }
bool CrowdField::exact() const noexcept { return m_impl->exact(); }
std::int64_t CrowdField::trackedTravel() const noexcept { return m_impl->trackedTravel(); }
bool CrowdField::refreshing() const noexcept { return m_impl->refreshing(); }
std::uint64_t CrowdField::refreshesLanded() const noexcept { return m_impl->refreshesLanded(); }
void CrowdField::setTrackingWave(std::int64_t tiles) noexcept { m_impl->setTrackingWave(tiles); }
std::int64_t CrowdField::trackingWave() const noexcept { return m_impl->trackingWave(); }
std::int64_t CrowdField::distance(Cell cell) const noexcept { return m_impl->distance(cell); }
std::uint8_t CrowdField::direction(Cell cell) const noexcept { return m_impl->direction(cell); }
Vec2 CrowdField::flow(Cell cell) const noexcept { return m_impl->flow(cell); }
Vec2 CrowdField::flowAt(Vec2 world) const noexcept {
  return world.allFinite() ? m_impl->flow(m_impl->costs().layout().tileAt(world)) : Vec2::Zero();
}
std::int64_t CrowdField::reachableCount() const noexcept { return m_impl->reachableCount(); }
std::uint64_t CrowdField::digest() const noexcept { return m_impl->digest(); }
bool operator==(const CrowdField& a, const CrowdField& b) noexcept { return a.m_impl->sameField(*b.m_impl); }

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
