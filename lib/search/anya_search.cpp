// SPDX-License-Identifier: MIT
#include "search/anya_search.hpp"

#include "core/zeroed_array.hpp"

#include <algorithm>
#include <cmath>

namespace rpgnav {
namespace {

// Tile units. Interval ends come from projections in double precision; points this close to a
// tile corner are that corner, and intervals narrower than this are no intervals.
constexpr double kEps = 1e-9;

// Coordinates here are never below -kEps, so truncation rounds and floors: std::round and
// std::floor are library calls on the baseline x86-64 instruction set (9% of a search's time).
std::int32_t nearest(double v) noexcept { return std::int32_t(v + 0.5); }
std::int32_t floorOf(double v) noexcept { return v < 0.0 ? -1 : std::int32_t(v); }  // above -1
bool onLattice(double v) noexcept { return std::abs(v - double(nearest(v))) < kEps; }
double snap(double v) noexcept { return onLattice(v) ? double(nearest(v)) : v; }
// (std::hypot guards against overflow at a fifth of the search's time; tile coordinates cannot.)
double distance(double dx, double dy) noexcept { return std::sqrt(dx * dx + dy * dy); }

// Open-list order: least f first, then the node made first (a total order: results do not
// depend on the heap's implementation).
template <class Entry>
bool before(const Entry& x, const Entry& y) noexcept {
  return x.f < y.f || (x.f == y.f && x.order < y.order);
}

// A four-ary min-heap in a vector: half the depth of a binary heap, the four children side by
// side in memory (a quarter of the search's time went to a binary heap's pops).
template <class Entry>
void heapPush(std::vector<Entry>& heap, Entry entry) {
  std::size_t i = heap.size();
  heap.push_back(entry);
  while (i > 0) {
    const std::size_t parent = (i - 1) / 4;
    if (!before(entry, heap[parent])) break;
    heap[i] = heap[parent];
    i = parent;
  }
  heap[i] = entry;
}

template <class Entry>
Entry heapPop(std::vector<Entry>& heap) {
  const Entry top = heap.front();
  const Entry last = heap.back();
  heap.pop_back();
  const std::size_t n = heap.size();
  if (n == 0) return top;
  std::size_t i = 0;
  for (;;) {
    const std::size_t first = 4 * i + 1;
    if (first >= n) break;
    std::size_t best = first;
    for (std::size_t c = first + 1; c < std::min(first + 4, n); ++c) {
      if (before(heap[c], heap[best])) best = c;
    }
    if (!before(heap[best], last)) break;
    heap[i] = heap[best];
    i = best;
  }
  heap[i] = last;
  return top;
}

}  // namespace

std::size_t AnyaSearch::memoryBytes() const noexcept {
  return m_roots.capacity() * sizeof(Root) + (m_nodes.capacity() + m_successors.capacity()) * sizeof(Node) +
         m_freeNodes.capacity() * sizeof(std::int32_t) + m_open.capacity() * sizeof(Entry) +
         m_corners.capacity() * sizeof(CornerSlot) + m_route.capacity() * sizeof(Eigen::Vector2d);
}

void AnyaSearch::reserve() {
  if (m_corners.size() < kFirstCornerSlots) m_corners.assign(kFirstCornerSlots, CornerSlot{0, 0});
  reserveResident(m_roots, 512);
  reserveResident(m_nodes, 512);
  reserveResident(m_freeNodes, 512);
  reserveResident(m_open, 512);
  reserveResident(m_successors, 64);
  reserveResident(m_route, 64);
}

// The free run of strip `strip` (the tiles of row `strip`) holding free tile `column`: its
// leftmost tile, and one past its rightmost (so both are x coordinates of tile corners).
std::int32_t AnyaSearch::runLeft(std::int32_t column, std::int32_t strip) const noexcept {
  return m_rows.previousNotCheapest(strip, column, 0) + 1;
}

std::int32_t AnyaSearch::runRight(std::int32_t column, std::int32_t strip) const noexcept {
  return m_rows.nextNotCheapest(strip, column, m_width - 1);
}

// Corner (x, row) where two blocked tiles touch only diagonally and the two free ones do too:
// no route passes through it.
bool AnyaSearch::pinch(std::int32_t x, std::int32_t row) const noexcept {
  const bool upLeft = free(x - 1, row - 1), upRight = free(x, row - 1);
  const bool downLeft = free(x - 1, row), downRight = free(x, row);
  return (upLeft && !upRight && !downLeft && downRight) || (!upLeft && upRight && downLeft && !downRight);
}

// Moving along `row` in `direction`, at corner x: the strip `strip` beside the row is blocked
// behind x and free ahead, so what lies there was hidden and x is a corner to turn round (the
// other side's tile ahead is free: turning is no squeeze).
bool AnyaSearch::turnsAt(std::int32_t x, std::int32_t row, int direction, std::int32_t strip) const noexcept {
  const std::int32_t ahead = direction > 0 ? x : x - 1, behind = direction > 0 ? x - 1 : x;
  const std::int32_t other = strip == row - 1 ? row : row - 1;
  return free(ahead, strip) && !free(behind, strip) && free(ahead, other);
}

// Where a flat interval leaving `from` along `row` in `direction` ends: the first corner to turn
// round, or the last point before the row stops being a place to walk (blocked on both sides or
// a pinch). `from` itself when the row cannot be followed at all.
double AnyaSearch::flatEnd(double from, std::int32_t row, int direction, bool checkFrom) const noexcept {
  std::int32_t x;
  if (onLattice(from)) {
    const std::int32_t at = nearest(from);
    if (checkFrom && pinch(at, row)) return from;
    x = at + direction;
  } else {
    x = direction > 0 ? floorOf(from) + 1 : floorOf(from);  // (from is no corner)
  }
  const std::int32_t first = direction > 0 ? x - 1 : x;
  if (!free(first, row - 1) && !free(first, row)) return from;
  for (;; x += direction) {
    if (turnsAt(x, row, direction, row - 1) || turnsAt(x, row, direction, row)) return x;
    const std::int32_t ahead = direction > 0 ? x : x - 1;
    if (pinch(x, row) || (!free(ahead, row - 1) && !free(ahead, row))) return x;
  }
}

// A new root at tile corner (x, y) reached with cost g from `parent`; -1 when the corner was
// reached before at no more cost. (A tie is refused too: on maps of many equal routes, pillars in
// a grid, the copies of a corner would multiply. No optimal route is lost: if the corner's first
// root turns the wrong way for an optimal continuation, that continuation bent the wrong way round
// the corner could be shortened, so it was not optimal.)
std::int32_t AnyaSearch::cornerRoot(std::int32_t x, std::int32_t y, double g, std::int32_t parent) {
  const std::uint32_t key = cornerKey(x, y);
  std::int32_t* slot = findCorner(key);
  if (slot != nullptr && m_roots[std::size_t(*slot)].g <= g + kEps) return -1;
  // The root first: were the table's growth to throw, clearCorners still finds every slot from
  // the roots (a slot without one would be missed).
  const auto root = std::int32_t(m_roots.size());
  m_roots.push_back({x, y, g, parent});
  if (slot == nullptr) slot = &insertCorner(key);
  *slot = root;
  checkGoalFromRoot(root);
  return root;
}

namespace {
std::size_t slotOf(std::uint32_t key, std::size_t mask) noexcept {
  return std::size_t((key * 0x9E3779B97F4A7C15ull) >> 40) & mask;
}
}  // namespace

std::int32_t* AnyaSearch::findCorner(std::uint32_t key) noexcept {
  const std::size_t mask = m_corners.size() - 1;
  for (std::size_t i = slotOf(key, mask);; i = (i + 1) & mask) {
    CornerSlot& slot = m_corners[i];
    if (slot.key == 0) return nullptr;
    if (slot.key == key) return &slot.root;
  }
}

std::int32_t& AnyaSearch::insertCorner(std::uint32_t key) {
  if (2 * (m_cornerCount + 1) > m_corners.size()) {
    // Grow: the slots move to a table twice the size.
    std::vector<CornerSlot> old(m_corners.size() * 2, CornerSlot{0, 0});
    old.swap(m_corners);
    m_cornerCount = 0;
    for (const CornerSlot& slot : old) {
      if (slot.key != 0) insertCorner(slot.key) = slot.root;
    }
  }
  const std::size_t mask = m_corners.size() - 1;
  std::size_t i = slotOf(key, mask);
  while (m_corners[i].key != 0) i = (i + 1) & mask;
  m_corners[i] = {key, -1};
  ++m_cornerCount;
  return m_corners[i].root;
}

// Every filled slot lies in the probe run from its key's home slot, and the slots of a run stay
// filled until now: emptying each run met from the home slots of the search's corners empties
// the table, in time proportional to what the search filled.
void AnyaSearch::clearCorners() noexcept {
  const std::size_t mask = m_corners.size() - 1;
  for (std::size_t root = 0; root < m_roots.size(); ++root) {
    const Place at = place(std::int32_t(root));
    if (!onLattice(at.x) || !onLattice(at.y)) continue;  // (an origin inside a tile)
    for (std::size_t i = slotOf(cornerKey(nearest(at.x), nearest(at.y)), mask); m_corners[i].key != 0; i = (i + 1) & mask) {
      m_corners[i].key = 0;
    }
  }
  m_cornerCount = 0;
}

double AnyaSearch::heuristic(const Node& node) const noexcept {
  const Place r = place(node.root);
  const double k = node.row, gx = m_goal.x(), gy = m_goal.y();
  if (node.kind != Kind::Cone) {
    // The nearest point of the interval is best: |r - p| + |p - goal| grows along the row.
    const double near = node.kind == Kind::FlatRight ? node.a : node.b;
    return std::abs(near - r.x) + distance(gx - near, gy - k);
  }
  // Through the interval: the goal mirrored onto the far side of the row when it lies on the
  // root's side, and the straight line to it bent at the interval's nearer end if it misses.
  const double mirrored = (gy - k) * (r.y - k) > 0 ? 2 * k - gy : gy;
  const double p = std::clamp(r.x + (gx - r.x) * (k - r.y) / (mirrored - r.y), node.a, node.b);
  return distance(p - r.x, k - r.y) + distance(gx - p, mirrored - k);
}

// Successors wait in m_successors until their parent is done (see findPath's loop).
void AnyaSearch::push(double a, double b, std::int32_t row, std::int32_t root, Kind kind) {
  m_successors.push_back({a, b, row, root, kind});
}

void AnyaSearch::open(const Node& node, double f) {
  std::int32_t slot;
  if (m_freeNodes.empty()) {
    slot = std::int32_t(m_nodes.size());
    m_nodes.push_back(node);
  } else {
    slot = m_freeNodes.back();
    m_freeNodes.pop_back();
    m_nodes[std::size_t(slot)] = node;
  }
  heapPush(m_open, Entry{f, std::uint32_t(m_generated), slot});
  ++m_generated;
}

void AnyaSearch::open(const Node& node) { open(node, m_roots[std::size_t(node.root)].g + heuristic(node)); }

void AnyaSearch::pushGoal(std::int32_t root) {
  const Place r = place(root);
  open({0, 0, 0, root, Kind::Goal}, r.g + distance(m_goal.x() - r.x, m_goal.y() - r.y));
  ++m_goalsFound;
}

// A new root sees a goal inside a strip when it lies in the closed rectangle of the goal's free
// run (a convex free area); a goal on a row is found by the intervals that hold it.
void AnyaSearch::checkGoalFromRoot(std::int32_t root) {
  const Place r = place(root);
  if (m_goalOnRow) {
    if (r.x == m_goal.x() && r.y == m_goal.y()) pushGoal(root);
    return;
  }
  if (r.y >= m_goalStrip - kEps && r.y <= m_goalStrip + 1 + kEps && r.x >= m_goalRunLow - kEps &&
      r.x <= m_goalRunHigh + kEps) {
    pushGoal(root);
  }
}

// The whole far row of the free run of `strip` holding `column`, seen from `root` on its near
// row: an interval on `towardRow`.
void AnyaSearch::pushRunCone(std::int32_t column, std::int32_t strip, std::int32_t towardRow, std::int32_t root) {
  push(runLeft(column, strip), runRight(column, strip), towardRow, root, Kind::Cone);
}

void AnyaSearch::expandCone(const Node& node) {
  const Place r = place(node.root);
  const std::int32_t k = node.row;
  const int d = double(k) > r.y ? 1 : -1;
  const std::int32_t ahead = d > 0 ? k : k - 1;  // the strip the rays enter next
  const std::int32_t far = k + d;
  const double scale = (double(far) - r.y) / (double(k) - r.y);
  if (m_goalOnRow) {
    if (m_goal.y() == double(k) && m_goal.x() >= node.a - kEps && m_goal.x() <= node.b + kEps) pushGoal(node.root);
  } else if (m_goalStrip == ahead) {
    const double crossing = r.x + (m_goal.x() - r.x) * (double(k) - r.y) / (m_goal.y() - r.y);
    // (A line through a pinch squeezes.)
    if (crossing >= node.a - kEps && crossing <= node.b + kEps && crossing >= m_goalRunLow - kEps &&
        crossing <= m_goalRunHigh + kEps && !(onLattice(crossing) && pinch(nearest(crossing), k))) {
      pushGoal(node.root);
    }
  }

  conesAhead(node, ahead, far, scale);
  if (onLattice(node.a)) turnCone(node, nearest(node.a), -1);
  if (onLattice(node.b)) turnCone(node, nearest(node.b), +1);
}

// Seen from the root: the rays through the interval that cross the next strip (`ahead`) inside
// one free run (a free rectangle) land on the far row; each run gives one interval.
void AnyaSearch::conesAhead(const Node& node, std::int32_t ahead, std::int32_t far, double scale) {
  const Place r = place(node.root);
  auto project = [&](double x) { return r.x + (x - r.x) * scale; };
  auto column = floorOf(node.a);
  if (double(column + 1) - node.a < kEps) ++column;
  while (double(column) < node.b - kEps) {
    if (!free(column, ahead)) {
      ++column;
      continue;
    }
    const std::int32_t low = runLeft(column, ahead), high = runRight(column, ahead);
    const double from = std::max(double(low), project(std::max(node.a, double(low))));
    const double to = std::min(double(high), project(std::min(node.b, double(high))));
    if (to - from > kEps) push(from, to, far, node.root, Kind::Cone);
    // A run's end in sight on the row is a blocked tile's corner: the run's far row beyond the
    // ray that grazes it is hidden from the root and seen from the corner.
    if (double(low) >= node.a - kEps && project(low) > low + kEps) {
      const std::int32_t corner = turnRoot(node, low);
      if (corner >= 0) push(low, std::min(project(low), double(high)), far, corner, Kind::Cone);
    }
    if (double(high) <= node.b + kEps && project(high) < high - kEps) {
      const std::int32_t corner = turnRoot(node, high);
      if (corner >= 0) push(std::max(project(high), double(low)), high, far, corner, Kind::Cone);
    }
    column = high;
  }
}

// Corner (x, row of the cone) as a root reached through the cone's root; -1 when that corner was
// reached more cheaply before.
std::int32_t AnyaSearch::turnRoot(const Node& node, std::int32_t x) {
  const Place r = place(node.root);
  return cornerRoot(x, node.row, r.g + distance(double(x) - r.x, double(node.row) - r.y), node.root);
}

// At an end of a cone's interval: when the tile beyond that end is blocked on the root's side
// of the row and free on the far side, the far side round the corner is hidden from the root;
// the corner becomes a root for it, and for the row beyond, along the blocked tile.
void AnyaSearch::turnCone(const Node& node, std::int32_t x, int side) {
  const Place r = place(node.root);
  const std::int32_t k = node.row;
  const int d = double(k) > r.y ? 1 : -1;
  const std::int32_t behind = d > 0 ? k - 1 : k, ahead = d > 0 ? k : k - 1, far = k + d;
  const std::int32_t outer = side < 0 ? x - 1 : x, inner = side < 0 ? x : x - 1;
  if (free(outer, behind) || !free(outer, ahead) || !free(inner, ahead)) return;
  const std::int32_t corner = turnRoot(node, x);
  if (corner < 0) return;
  const double projected = r.x + (double(x) - r.x) * (double(far) - r.y) / (double(k) - r.y);
  if (side < 0) {
    const std::int32_t low = runLeft(outer, ahead);
    if (projected > low + kEps) push(low, std::min(projected, double(runRight(outer, ahead))), far, corner, Kind::Cone);
    const double end = flatEnd(x, k, -1, false);
    if (end < x - kEps) push(end, x, k, corner, Kind::FlatLeft);
  } else {
    const std::int32_t high = runRight(outer, ahead);
    if (projected < high - kEps) push(std::max(projected, double(runLeft(outer, ahead))), high, far, corner, Kind::Cone);
    const double end = flatEnd(x, k, +1, false);
    if (end > x + kEps) push(x, end, k, corner, Kind::FlatRight);
  }
}

void AnyaSearch::expandFlat(const Node& node) {
  const Place r = place(node.root);
  const std::int32_t k = node.row;
  const int direction = node.kind == Kind::FlatRight ? 1 : -1;
  if (m_goalOnRow && m_goal.y() == double(k) && m_goal.x() >= node.a - kEps && m_goal.x() <= node.b + kEps) {
    pushGoal(node.root);
  }
  const std::int32_t x = nearest(direction > 0 ? node.b : node.a);
  std::int32_t corner = -1;
  for (const std::int32_t strip : {k - 1, k}) {
    if (!turnsAt(x, k, direction, strip)) continue;
    if (corner < 0) {
      corner = cornerRoot(x, k, r.g + std::abs(double(x) - r.x), node.root);
      if (corner < 0) break;
    }
    pushRunCone(direction > 0 ? x : x - 1, strip, strip == k - 1 ? k - 1 : k + 1, corner);
  }
  // The row goes on in sight of the same root.
  const double end = flatEnd(x, k, direction, true);
  if (std::abs(end - x) > kEps) push(std::min(double(x), end), std::max(double(x), end), k, node.root, node.kind);
}

Status AnyaSearch::findPath(const SearchGrid& grid, const BitLines& rows, const Eigen::Vector2d& startIn,
                            const Eigen::Vector2d& goalIn, SearchLimit limit, std::optional<Cell> startTile,
                            std::optional<Cell> goalTile) {
  m_route.clear();
  m_length = 0.0;
  m_expanded = m_generated = 0;
  m_suspended = false;
  // The last search's corners go (its roots and map width name their slots).
  if (!m_corners.empty()) clearCorners();
  m_roots.clear();
  if (grid.layout().isHex() || !grid.uniformCost()) return Status::InvalidArgument;
  if (rows.bits == nullptr || rows.count != grid.height() || rows.length != grid.width()) return Status::InvalidArgument;
  m_rows = rows;
  m_classes = grid.classes();
  m_stride = grid.paddedWidth();
  m_width = grid.width();
  m_height = grid.height();
  // A point is on the map when some free tile holds it (its closure: points on tile edges count).
  auto columns = [](double v, std::int32_t& low, std::int32_t& high) {
    if (onLattice(v)) {
      high = nearest(v);
      low = high - 1;
    } else {
      low = high = floorOf(v);
    }
  };
  auto usable = [&](const Eigen::Vector2d& p) {
    if (!std::isfinite(p.x()) || !std::isfinite(p.y())) return false;
    if (p.x() < -kEps || p.y() < -kEps || p.x() > m_width + kEps || p.y() > m_height + kEps) return false;
    std::int32_t x0, x1, y0, y1;
    columns(p.x(), x0, x1);
    columns(p.y(), y0, y1);
    return free(x0, y0) || free(x1, y0) || free(x0, y1) || free(x1, y1);
  };
  if (!usable(startIn) || !usable(goalIn)) return Status::InvalidArgument;
  auto ownSide = [&](const Eigen::Vector2d& p, std::optional<Cell> tile) -> Eigen::Vector2d {
    const Eigen::Vector2d at{snap(p.x()), snap(p.y())};
    if (!tile || !onLattice(at.x()) || !onLattice(at.y()) || !pinch(std::int32_t(at.x()), std::int32_t(at.y()))) return at;
    return at + (Eigen::Vector2d(tile->x + 0.5, tile->y + 0.5) - at) * 2e-6;
  };
  const Eigen::Vector2d start = ownSide(startIn, startTile);
  m_start = start;
  m_goal = ownSide(goalIn, goalTile);

  if (m_corners.empty()) m_corners.assign(kFirstCornerSlots, CornerSlot{0, 0});
  m_nodes.clear();
  m_freeNodes.clear();
  m_open.clear();
  m_successors.clear();
  m_goalsFound = 0;

  // The goal's strip and free run, when it lies strictly between two rows.
  std::int32_t low, high;
  m_goalOnRow = onLattice(m_goal.y());
  if (!m_goalOnRow) {
    m_goalStrip = floorOf(m_goal.y());
    columns(m_goal.x(), low, high);
    m_goalRunLow = free(low, m_goalStrip) ? runLeft(low, m_goalStrip) : high;
    m_goalRunHigh = free(high, m_goalStrip) ? runRight(high, m_goalStrip) : low + 1;
  }

  // The start is the first root: it sees along its row and, across each strip beside it, the
  // far row of the free run it touches.
  m_roots.push_back({0, 0, 0.0, -1});  // kOrigin (its place is m_start)
  if (onLattice(start.x()) && onLattice(start.y())) insertCorner(cornerKey(nearest(start.x()), nearest(start.y()))) = kOrigin;
  checkGoalFromRoot(kOrigin);
  columns(start.x(), low, high);
  auto runCone = [&](std::int32_t strip, std::int32_t towardRow) {
    if (!free(low, strip) && !free(high, strip)) return;
    const std::int32_t left = free(low, strip) ? runLeft(low, strip) : high;
    const std::int32_t right = free(high, strip) ? runRight(high, strip) : low + 1;
    push(left, right, towardRow, kOrigin, Kind::Cone);
  };
  if (onLattice(start.y())) {
    const auto k = std::int32_t(start.y());
    const double right = flatEnd(start.x(), k, +1, false), left = flatEnd(start.x(), k, -1, false);
    if (right > start.x() + kEps) push(start.x(), right, k, kOrigin, Kind::FlatRight);
    if (left < start.x() - kEps) push(left, start.x(), k, kOrigin, Kind::FlatLeft);
    runCone(k - 1, k - 1);
    runCone(k, k + 1);
  } else {
    const std::int32_t strip = floorOf(start.y());
    runCone(strip, strip);
    runCone(strip, strip + 1);
  }

  for (const Node& first : m_successors) open(first);
  return run(limit);
}

Status AnyaSearch::resume(SearchLimit limit) {
  if (!m_suspended) return Status::InvalidArgument;
  return run(limit);
}

Status AnyaSearch::run(SearchLimit limit) {
  m_suspended = false;
  const std::int64_t before = m_expanded;
  while (!m_open.empty()) {
    if (limit.reached(m_expanded - before)) {
      m_suspended = true;
      return Status::InProgress;
    }
    const std::int32_t slot = heapPop(m_open).node;
    const Node node = m_nodes[std::size_t(slot)];
    m_freeNodes.push_back(slot);
    const Root& root = m_roots[std::size_t(node.root)];
    if (node.kind == Kind::Goal) {
      const Place at = place(node.root);
      m_length = at.g + distance(m_goal.x() - at.x, m_goal.y() - at.y);
      m_route.push_back(m_goal);
      for (std::int32_t i = node.root; i >= 0; i = m_roots[std::size_t(i)].parent) {
        const Place step = place(i);
        const Eigen::Vector2d point{step.x, step.y};
        if (point != m_route.back()) m_route.push_back(point);
      }
      if (m_route.back() != m_start || m_route.size() == 1) m_route.push_back(m_start);
      std::reverse(m_route.begin(), m_route.end());
      return Status::Ok;
    }
    // A root since reached more cheaply: its better copy makes these successors again.
    if (node.root != kOrigin && *findCorner(cornerKey(root.x, root.y)) != node.root) continue;
    // A node whose only successor goes on in sight of the same root (a cone crossing open rows,
    // a row followed past nothing to turn round) is expanded at once instead of through the open
    // list (Anya's pruning of intermediate nodes): expanding a node early never loses the best
    // route, it only spares the open list.
    // (Counted once, as a jump point search counts a jump: the budget's unit of work.)
    ++m_expanded;
    Node current = node;
    for (;;) {
      m_successors.clear();
      const std::int64_t goals = m_goalsFound;
      if (current.kind == Kind::Cone) {
        expandCone(current);
      } else {
        expandFlat(current);
      }
      if (m_successors.size() == 1 && m_goalsFound == goals && m_successors[0].root == current.root &&
          m_successors[0].kind == current.kind) {
        current = m_successors[0];
        continue;
      }
      for (const Node& successor : m_successors) open(successor);
      break;
    }
  }
  return Status::NoPath;
}

}  // namespace rpgnav
