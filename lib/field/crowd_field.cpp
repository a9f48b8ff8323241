// SPDX-License-Identifier: MIT
#include "rpgnav/field/crowd_field.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace rpgnav {

std::uint8_t CostField::byteFor(float cost) noexcept {
  if (!(cost < TerrainTable::kImpassable) || !std::isfinite(cost)) return kImpassable;
  return std::uint8_t(std::clamp<long>(std::lround(cost), 1, 254));
}

Result<CostField> CostField::build(const TileMap& map, MobilityId mobility) {
  if (!map.terrain().valid(mobility)) return Error{Status::InvalidArgument, "unknown mobility"};
  CostField field;
  field.m_layout = map.layout();
  field.m_mobility = mobility;
  field.m_width = map.width();
  field.m_height = map.height();
  field.m_bytes.resize(std::size_t(map.tileCount()));
  for (std::int32_t i = 0; i < map.tileCount(); ++i) field.m_bytes[std::size_t(i)] = byteFor(map.cost(map.cellAt(i), mobility));
  return field;
}

Status CostField::refresh(const TileMap& map, std::vector<Cell>& changed) {
  if (map.width() != m_width || map.height() != m_height || !(map.layout() == m_layout)) return Status::InvalidArgument;
  for (std::int32_t i = 0; i < map.tileCount(); ++i) {
    const std::uint8_t now = byteFor(map.cost(map.cellAt(i), m_mobility));
    if (now != m_bytes[std::size_t(i)]) {
      m_bytes[std::size_t(i)] = now;
      changed.push_back(map.cellAt(i));
    }
  }
  return Status::Ok;
}

CostField CostField::crop(Cell origin, std::int32_t width, std::int32_t height) const {
  CostField out;
  out.m_layout = m_layout;
  out.m_mobility = m_mobility;
  out.m_width = std::max(width, 1);
  out.m_height = std::max(height, 1);
  out.m_bytes.assign(std::size_t(out.m_width) * std::size_t(out.m_height), kImpassable);
  for (std::int32_t y = 0; y < out.m_height; ++y) {
    for (std::int32_t x = 0; x < out.m_width; ++x) {
      out.m_bytes[std::size_t(y) * std::size_t(out.m_width) + std::size_t(x)] = at({origin.x + x, origin.y + y});
    }
  }
  return out;
}

Status CostField::set(Cell cell, std::uint8_t cost) {
  if (!contains(cell) || cost == 0) return Status::InvalidArgument;
  m_bytes[std::size_t(cell.y) * std::size_t(m_width) + std::size_t(cell.x)] = cost;
  return Status::Ok;
}

CrowdField::CrowdField(const CostField& costs)
    : m_costs(costs), m_stride(costs.width() + 2), m_dangerSum(std::size_t(costs.width()) * std::size_t(costs.height()), 0) {
  const std::size_t size = std::size_t(m_stride) * std::size_t(costs.height() + 2);
  m_weight.assign(size, 0);
  m_distance.assign(size, kUnreachable);
  m_direction.assign(size, kNoDirection);
  m_flow.assign(size, Vec2::Zero());
  m_goalMark.assign(size, 0);
  m_fixed.assign(size, 0);
  m_stamp.assign(size, 0);
  for (std::int32_t y = 0; y < costs.height(); ++y) {
    for (std::int32_t x = 0; x < costs.width(); ++x) refreshWeight({x, y});
  }
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
      move.perLength = 1.0 / double(move.length);
      if (step.requiresA >= 0) {  // the tiles beside both ends of a square diagonal
        move.cornerA = step.dx;
        move.cornerB = std::ptrdiff_t(step.dy) * m_stride;
      }
      m_moves[std::size_t(parity)].push_back(move);
    }
  }
}

const std::vector<CrowdField::Move>& CrowdField::movesOf(std::size_t tile) const noexcept {
  if (!m_parityMatters) return m_moves[0];
  // Padded coordinates are one more than the tile's: the parity flips.
  const std::size_t x = tile % std::size_t(m_stride), y = tile / std::size_t(m_stride);
  return m_moves[((x + 1) % 2) + 2 * ((y + 1) % 2)];
}

std::int32_t CrowdField::weightFor(Cell cell) const noexcept {
  const std::int64_t cost = m_costs.at(cell);
  const std::size_t tile = std::size_t(cell.y) * std::size_t(m_costs.width()) + std::size_t(cell.x);
  return cost == CostField::kImpassable
             ? 0
             : std::int32_t((256 - std::int64_t(m_factor)) * cost + std::int64_t(m_factor) * std::int64_t(m_dangerSum[tile]));
}

void CrowdField::refreshWeight(Cell cell) { setWeight(padded(cell), weightFor(cell)); }

void CrowdField::setWeight(std::size_t tile, std::int32_t weight) {
  m_weight[tile] = weight;
  // Bounds for the bucket queue: only ever widened here (a lighter bound is still a valid bucket
  // width, a heavier one only more buckets); rebuild() makes them exact again.
  if (weight != 0) {
    m_lightest = std::min(m_lightest, weight);
    m_heaviest = std::max(m_heaviest, weight);
  }
}

void CrowdField::measureWeights() {
  m_lightest = std::numeric_limits<std::int32_t>::max();
  m_heaviest = 1;
  for (const std::int32_t w : m_weight) {
    if (w == 0) continue;
    m_lightest = std::min(m_lightest, w);
    m_heaviest = std::max(m_heaviest, w);
  }
  if (m_lightest == std::numeric_limits<std::int32_t>::max()) m_lightest = 1;
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
  const std::size_t tile = padded(goal);
  if (m_weight[tile] == 0 || isGoal(tile)) return Status::Ok;
  m_goals.push_back(goal);
  m_goalMark[tile] = 1;
  m_touched.clear();
  m_recording = true;
  if (m_distance[tile] != 0) {
    m_distance[tile] = 0;
    m_touched.push_back(std::uint32_t(tile));
    m_seeds.assign(1, std::uint32_t(tile));
    propagate();
  }
  m_recording = false;
  m_touched.push_back(std::uint32_t(tile));
  refreshDirections();
  return Status::Ok;
}

Status CrowdField::removeGoal(Cell goal) {
  if (!m_costs.contains(goal)) return Status::InvalidArgument;
  const std::size_t tile = padded(goal);
  const auto listed = std::find(m_goals.begin(), m_goals.end(), goal);
  if (!isGoal(tile) || listed == m_goals.end()) return Status::Ok;
  m_goalMark[tile] = 0;
  m_goals.erase(listed);
  m_touched.clear();
  m_affected.assign(1, std::uint32_t(tile));
  repairIncrease();
  m_touched.push_back(std::uint32_t(tile));
  refreshDirections();
  return Status::Ok;
}

Status CrowdField::moveGoal(Cell from, Cell to) {
  if (!m_costs.contains(from) || !m_costs.contains(to)) return Status::InvalidArgument;
  if (from == to) return Status::Ok;
  const std::size_t source = padded(from), target = padded(to);
  // The one goal steps to a neighbour: every old route, followed by that step, is a route to the
  // new goal, so the old distances plus the step's cost are upper bounds; the new goal then
  // improves them outward until nobody improves (exact: a Dijkstra from the new goal over labels
  // that are true route costs). Otherwise: add the new goal, then repair the old one's dependents.
  const std::vector<Move>& moves = movesOf(source);
  const auto step = std::find_if(moves.begin(), moves.end(), [&](const Move& move) {
    return std::ptrdiff_t(source) + move.offset == std::ptrdiff_t(target);
  });
  const bool legal = step != moves.end() && canMove(source, *step);
  if (m_goals.size() != 1 || m_goals.front() != from || !legal) {
    addGoal(to);
    return removeGoal(from);
  }
  const std::int64_t extra = step->length * m_weight[target];
  for (std::int64_t& d : m_distance) {
    if (d != kUnreachable) d += extra;
  }
  m_goalMark[source] = 0;
  m_goalMark[target] = 1;
  m_goals.front() = to;
  m_touched.clear();
  m_distance[target] = 0;
  m_seeds.assign(1, std::uint32_t(target));
  m_recording = true;
  propagate();
  m_recording = false;
  m_touched.push_back(std::uint32_t(source));
  m_touched.push_back(std::uint32_t(target));
  refreshDirections();
  return Status::Ok;
}

Status CrowdField::setCost(Cell cell, std::uint8_t cost) {
  if (m_costs.set(cell, cost) != Status::Ok) return Status::InvalidArgument;
  changeWeight(padded(cell), weightFor(cell));
  return Status::Ok;
}

Status CrowdField::syncWithMap(const TileMap& map) {
  thread_local std::vector<Cell> changed;
  changed.clear();
  CostField fresh = m_costs;
  if (fresh.refresh(map, changed) != Status::Ok) return Status::InvalidArgument;
  for (const Cell cell : changed) setCost(cell, fresh.at(cell));
  return Status::Ok;
}

std::int64_t CrowdField::bestFromNeighbours(std::size_t tile) const noexcept {
  if (isGoal(tile)) return 0;
  std::int64_t best = kUnreachable;
  if (m_weight[tile] == 0) return best;
  for (const Move& move : movesOf(tile)) {
    const std::size_t next = std::size_t(std::ptrdiff_t(tile) + move.offset);
    if (!canMove(tile, move) || m_distance[next] == kUnreachable) continue;
    best = std::min(best, m_distance[next] + move.length * m_weight[next]);
  }
  return best;
}

void CrowdField::changeWeight(std::size_t tile, std::int32_t weight) {
  const std::int32_t old = m_weight[tile];
  if (old == weight) return;
  if (!m_sources.empty()) {  // sources with head starts: the incremental repairs assume goals at 0
    setWeight(tile, weight);
    rebuild();
    return;
  }
  m_touched.clear();
  // The tile and everything that can step to it or past its corner: its neighbours.
  thread_local std::vector<std::uint32_t> around;
  around.assign(1, std::uint32_t(tile));
  for (const Move& move : movesOf(tile)) around.push_back(std::uint32_t(std::ptrdiff_t(tile) + move.offset));
  // (Square diagonals past this tile's corner join two of its orthogonal neighbours, listed too.)
  const bool rises = old != 0 && (weight == 0 || weight > old);
  if (weight == 0 && isGoal(tile)) {  // a wall on a goal: no longer a goal (as setGoals would)
    m_goalMark[tile] = 0;
    const std::size_t stride = std::size_t(m_stride);
    const Cell cell{std::int32_t(tile % stride) - 1, std::int32_t(tile / stride) - 1};
    m_goals.erase(std::find(m_goals.begin(), m_goals.end(), cell));
  }
  if (rises) {
    // Tiles whose route may have used the dearer edges: the tile and its neighbours. The support
    // test in repairIncrease keeps those that still have an equally good way.
    setWeight(tile, weight);
    m_affected.clear();
    for (const std::uint32_t each : around) {
      if (m_weight[each] != 0 || each == tile) m_affected.push_back(each);
    }
    repairIncrease();
  } else {
    // Cheaper (or passable again): the tile and its neighbours may improve; the improvement
    // spreads.
    setWeight(tile, weight);
    m_seeds.clear();
    m_recording = true;
    for (const std::uint32_t each : around) {
      const std::int64_t best = bestFromNeighbours(each);
      if (best < m_distance[each]) {
        m_distance[each] = best;
        m_seeds.push_back(each);
        m_touched.push_back(each);
      }
    }
    propagate();
    m_recording = false;
  }
  m_touched.insert(m_touched.end(), around.begin(), around.end());
  refreshDirections();
}

void CrowdField::repairIncrease() {
  // Candidates in order of their old distance: a candidate keeps its distance when a neighbour
  // that is not affected still offers it (such supporters are nearer, so already decided);
  // otherwise it is affected and the tiles that may have routed through it become candidates.
  ++m_generation;
  const std::uint32_t affectedMark = m_generation;
  using Entry = std::pair<std::int64_t, std::uint32_t>;
  thread_local std::vector<Entry> heap;
  heap.clear();
  auto candidate = [&](std::uint32_t tile) {
    if (m_distance[tile] == kUnreachable || m_stamp[tile] == affectedMark) return;
    heap.push_back({m_distance[tile], tile});
    std::push_heap(heap.begin(), heap.end(), std::greater<>());
  };
  for (const std::uint32_t tile : m_affected) candidate(tile);
  m_affected.clear();
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), std::greater<>());
    const auto [was, tile] = heap.back();
    heap.pop_back();
    if (m_stamp[tile] == affectedMark || was != m_distance[tile]) continue;
    // Supported? (A goal always is.)
    bool supported = isGoal(tile);
    if (!supported && m_weight[tile] != 0) {
      for (const Move& move : movesOf(tile)) {
        const std::size_t next = std::size_t(std::ptrdiff_t(tile) + move.offset);
        if (!canMove(tile, move) || m_distance[next] == kUnreachable || m_stamp[next] == affectedMark) continue;
        if (m_distance[next] + move.length * m_weight[next] == was) {
          supported = true;
          break;
        }
      }
    }
    if (supported) continue;
    m_stamp[tile] = affectedMark;
    m_affected.push_back(tile);
    // Its dependents: neighbours whose distance came through it. (Its weight is the current one:
    // the changed tile's old dependents are candidates from the start.)
    for (const Move& move : movesOf(tile)) {
      const std::uint32_t next = std::uint32_t(std::ptrdiff_t(tile) + move.offset);
      if (m_weight[next] != 0) candidate(next);
    }
  }
  // Reset the affected tiles, then plan them again from their unaffected neighbours.
  for (const std::uint32_t tile : m_affected) {
    m_distance[tile] = kUnreachable;
    m_direction[tile] = kNoDirection;
    m_flow[tile] = Vec2::Zero();
    m_touched.push_back(tile);
  }
  m_seeds.clear();
  for (const std::uint32_t tile : m_affected) {
    const std::int64_t best = bestFromNeighbours(tile);
    if (best != kUnreachable) {
      m_distance[tile] = best;
      m_seeds.push_back(tile);
    }
  }
  m_recording = true;
  propagate();
  m_recording = false;
}

void CrowdField::settle(std::size_t tile) {
  // The direction: the first move (in the layout's fixed order) the distance comes from. The
  // flow vector: the downhill neighbours blended by how fast they descend; where two equally good
  // ways cancel out, the direction's alone. Both read only nearer neighbours.
  std::uint8_t best = kNoDirection;
  const std::int64_t here = m_distance[tile];
  float fastest = 0.0f;
  Vec2 sum = Vec2::Zero();
  const std::vector<Move>& moves = movesOf(tile);
  if (here != kUnreachable) {
    for (std::size_t k = 0; k < moves.size(); ++k) {
      const Move& move = moves[k];
      const std::size_t next = std::size_t(std::ptrdiff_t(tile) + move.offset);
      const std::int64_t there = m_distance[next];
      if (there >= here || !canMove(tile, move)) continue;  // uphill, level, unreachable or a wall
      if (best == kNoDirection && there + move.length * m_weight[next] == here) best = std::uint8_t(k);
      const float rate = float(double(here - there) * move.perLength);
      fastest = std::max(fastest, rate);
      sum += rate * move.unit;
    }
  }
  m_direction[tile] = best;
  Vec2 flow = Vec2::Zero();
  if (best != kNoDirection) {
    const Vec2 chosen = moves[best].unit;
    const float length = sum.norm();
    flow = !(fastest > 0.0f) || length < 1e-3f * fastest || sum.dot(chosen) < 0.5f * length ? chosen : Vec2(sum / length);
  }
  m_flow[tile] = flow;
}

void CrowdField::refreshDirections() {
  ++m_generation;
  // Border tiles (the padding) have no direction and no neighbours to look at.
  const auto stride = std::size_t(m_stride), rows = std::size_t(m_costs.height()) + 2;
  auto inside = [&](std::size_t tile) {
    const std::size_t x = tile % stride, y = tile / stride;
    return x >= 1 && x + 1 < stride && y >= 1 && y + 1 < rows;
  };
  // Tiles settled by propagate() got their direction then; their neighbours may need a new one.
  for (const std::uint32_t tile : m_settled) m_stamp[tile] = m_generation;
  for (const std::uint32_t tile : m_settled) {
    for (const Move& move : movesOf(tile)) {
      const std::size_t next = std::size_t(std::ptrdiff_t(tile) + move.offset);
      if (m_stamp[next] != m_generation && inside(next)) {
        m_stamp[next] = m_generation;
        settle(next);
      }
    }
  }
  m_settled.clear();
  for (const std::uint32_t tile : m_touched) {
    if (!inside(tile)) continue;
    if (m_stamp[tile] != m_generation) {
      m_stamp[tile] = m_generation;
      settle(tile);
    }
    for (const Move& move : movesOf(tile)) {
      const std::size_t next = std::size_t(std::ptrdiff_t(tile) + move.offset);
      if (inside(next) && m_stamp[next] != m_generation) {
        m_stamp[next] = m_generation;
        settle(next);
      }
    }
  }
  m_touched.clear();
}

Status CrowdField::setDanger(int layer, Cell cell, std::uint8_t danger) {
  if (layer < 0 || layer >= kMaxDangerLayers || !m_costs.contains(cell)) return Status::InvalidArgument;
  if (m_danger.size() <= std::size_t(layer)) m_danger.resize(std::size_t(layer) + 1);
  std::vector<std::uint8_t>& values = m_danger[std::size_t(layer)];
  if (values.empty()) values.assign(m_dangerSum.size(), 0);
  const std::size_t tile = std::size_t(cell.y) * std::size_t(m_costs.width()) + std::size_t(cell.x);
  values[tile] = danger;
  int sum = 0;
  for (const auto& each : m_danger) sum += each.empty() ? 0 : each[tile];
  m_dangerSum[tile] = std::uint8_t(std::min(sum, 255));
  changeWeight(padded(cell), weightFor(cell));
  return Status::Ok;
}

void CrowdField::setDangerFactor(std::uint8_t factor) {
  if (factor == m_factor) return;
  m_factor = factor;
  for (std::int32_t y = 0; y < m_costs.height(); ++y) {
    for (std::int32_t x = 0; x < m_costs.width(); ++x) refreshWeight({x, y});
  }
  rebuild();
}

void CrowdField::rebuild() {
  measureWeights();
  std::fill(m_distance.begin(), m_distance.end(), kUnreachable);
  std::fill(m_direction.begin(), m_direction.end(), kNoDirection);
  std::fill(m_flow.begin(), m_flow.end(), Vec2::Zero());
  m_seeds.clear();
  for (const Cell goal : m_goals) {
    m_distance[padded(goal)] = 0;
    m_seeds.push_back(std::uint32_t(padded(goal)));
  }
  for (const auto& [tile, cost] : m_sources) {
    if (cost < m_distance[tile]) {
      m_distance[tile] = cost;
      m_seeds.push_back(tile);
    }
  }
  propagate();
}

void CrowdField::propagate() {
  if (m_seeds.empty()) return;
  // Dial's algorithm: buckets no wider than the cheapest step (a power of two, so a shift finds
  // the bucket), so no tile can improve another of its own bucket and each bucket is settled in
  // any order. Circular: a step spans fewer buckets than there are.
  const std::int64_t lightest = std::max<std::int64_t>(m_lightest, 1), heaviest = std::max<std::int64_t>(m_heaviest, 1);
  int shift = 0;
  while ((std::int64_t(2) << shift) <= kStep * lightest) ++shift;
  const auto count = std::size_t((kDiagonalStep * heaviest >> shift) + 2);
  if (m_buckets.size() < count) m_buckets.resize(count);
  for (std::size_t i = 0; i < count; ++i) m_buckets[i].clear();
  // Seeds can lie far apart (an incremental repair): they join the queue when their bucket comes,
  // so everything queued stays within one turn of the circular buckets.
  std::sort(m_seeds.begin(), m_seeds.end(), [this](std::uint32_t a, std::uint32_t b) {
    return m_distance[a] != m_distance[b] ? m_distance[a] < m_distance[b] : a < b;
  });
  std::size_t queued = 0, nextSeed = 0;
  const std::int32_t* weight = m_weight.data();
  std::int64_t* distance = m_distance.data();
  for (std::int64_t current = m_distance[m_seeds.front()] >> shift; queued > 0 || nextSeed < m_seeds.size(); ++current) {
    if (queued == 0) current = std::max(current, m_distance[m_seeds[nextSeed]] >> shift);
    while (nextSeed < m_seeds.size() && (m_distance[m_seeds[nextSeed]] >> shift) <= current) {
      const std::uint32_t seed = m_seeds[nextSeed++];
      m_buckets[std::size_t(m_distance[seed] >> shift) % count].push_back(seed);
      ++queued;
    }
    std::vector<std::uint32_t>& bucket = m_buckets[std::size_t(current) % count];
    // Tiles added to this bucket while it is worked on are worked on too.
    for (std::size_t i = 0; i < bucket.size(); ++i) {
      const std::uint32_t tile = bucket[i];
      --queued;
      const std::int64_t here = distance[tile];
      if ((here >> shift) != current) continue;  // moved to an earlier bucket since
      // Settled. Adjacency is symmetric: the neighbours are the tiles this one may step to (its
      // direction: the first, in the layout's order, the distance comes from; they are settled
      // already, a step being at least a bucket wide) and the tiles that may step here, paying
      // this tile's weight. A square diagonal needs the two tiles beside both ends.
      const std::int64_t w = weight[tile];
      for (const Move& move : movesOf(tile)) {
        const std::size_t next = std::size_t(std::ptrdiff_t(tile) + move.offset);
        if (!canMove(tile, move)) continue;
        const std::int64_t candidate = here + move.length * w;
        if (candidate < distance[next] && m_fixed[next] == 0) {
          distance[next] = candidate;
          m_buckets[std::size_t(candidate >> shift) % count].push_back(std::uint32_t(next));
          ++queued;
        }
      }
      settle(tile);
      if (m_recording) m_settled.push_back(tile);
    }
    bucket.clear();
  }
}

Vec2 CrowdField::flow(Cell cell) const noexcept { return m_costs.contains(cell) ? m_flow[padded(cell)] : Vec2::Zero(); }

Vec2 CrowdField::flowAt(Vec2 world) const noexcept {
  if (!world.allFinite()) return Vec2::Zero();
  return flow(m_costs.layout().tileAt(world));
}

std::int64_t CrowdField::reachableCount() const noexcept {
  return std::int64_t(std::count_if(m_distance.begin(), m_distance.end(), [](std::int64_t d) { return d != kUnreachable; }));
}

std::uint64_t CrowdField::digest() const noexcept {
  std::uint64_t hash = 1469598103934665603ull;
  auto add = [&hash](std::uint64_t value) {
    for (int i = 0; i < 8; ++i) hash = (hash ^ ((value >> (8 * i)) & 0xff)) * 1099511628211ull;
  };
  for (std::int32_t y = 0; y < m_costs.height(); ++y) {
    for (std::int32_t x = 0; x < m_costs.width(); ++x) {
      add(std::uint64_t(m_distance[padded({x, y})]));
      add(m_direction[padded({x, y})]);
      const Vec2 flow = m_flow[padded({x, y})];
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
