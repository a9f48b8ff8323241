// SPDX-License-Identifier: MIT
// The route out of a finished search: the tiles between jump points, and the any-angle route
// traced from the search's segments.
#include "search/search_context.hpp"

#include "core/distances.hpp"
#include "grid/segment_walk.hpp"
#include "search/search_units.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#if defined(__SSE2__)
#include <emmintrin.h>  // routes' tiles written two at a time
#endif

namespace rpgnav {

namespace {

// Writes the `count` tiles after `from` along (dx, dy); returns the end. A short search with a
// long route spends a good part of its time here (AR0011SR: 221 tiles from 18 expansions): two
// tiles a store took a fill of 258 tiles from 100 to 51 ns.
Cell* writeSteps(Cell* write, Cell from, std::int32_t dx, std::int32_t dy, std::int32_t count) {
  std::int32_t i = 0;
#if defined(__SSE2__)
  static_assert(sizeof(Cell) == 8);
  __m128i pair = _mm_setr_epi32(from.x + dx, from.y + dy, from.x + 2 * dx, from.y + 2 * dy);
  const __m128i step = _mm_setr_epi32(2 * dx, 2 * dy, 2 * dx, 2 * dy);
  for (; i + 2 <= count; i += 2) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(write + i), pair);
    pair = _mm_add_epi32(pair, step);
  }
#endif
  for (; i < count; ++i) write[i] = {from.x + (i + 1) * dx, from.y + (i + 1) * dy};
  return write + count;
}

}  // namespace

void SearchContext::buildPath(SearchResult& out) {
  out.through.clear();
  out.vertexTiles.clear();
  out.vertices.clear();
  if (m_sight != nullptr) {
    buildAnyAnglePath(out);
    return;
  }
  const SearchGrid& grid = *m_grid;
  // Parents link jump points (or plain neighbours). Between a parent and its child the route is
  // "diagonal first, then straight": min(|dx|,|dy|) diagonal steps, then the rest along one
  // axis — exactly how jumps travel. On hexes it is a shortest hex route (fillHexJumpRoute):
  // neighbours, or hex jump points. The chain of nodes is read once (each read of a node may
  // probe the node table).
  const bool hex = grid.layout().isHex();
  m_chain.clear();
  for (std::int32_t i = m_goal; i >= 0; i = nodeAt(i).parent) m_chain.push_back(grid.cellOf(i));
  std::reverse(m_chain.begin(), m_chain.end());
  std::int64_t straight = 0, diagonal = 0;
  for (std::size_t k = 0; k + 1 < m_chain.size(); ++k) {
    const Cell a = m_chain[k], b = m_chain[k + 1];
    const std::int32_t ax = std::abs(b.x - a.x), ay = std::abs(b.y - a.y);
    if (hex) {
      straight += grid.layout().stepDistance(a, b);
      continue;
    }
    const std::int32_t diagonalSteps = std::min(ax, ay);
    diagonal += diagonalSteps;
    straight += std::max(ax, ay) - diagonalSteps;
  }
  if (m_tilePath && hex) {
    fillHexJumpRoute(grid.layout(), m_chain, out.path);
  } else if (m_tilePath) {
    fillJumpRoute(m_chain, out.path);
  } else {
    out.path.assign(m_chain.begin(), m_chain.end());
  }
  out.reached = m_goalCell;
  out.costUnits = nodeAt(m_goal).g;
  out.cost = double(out.costUnits) / double(kCostScale);
  out.length = double(straight) + double(diagonal) * std::sqrt(2.0);
}

void fillJumpRoute(std::span<const Cell> nodes, std::vector<Cell>& tiles) {
  if (!nodes.empty() && !std::less<const Cell*>()(nodes.data(), tiles.data()) &&
      std::less<const Cell*>()(nodes.data(), tiles.data() + tiles.size())) {
    // The nodes are in `tiles` itself (filling a path in place): resizing would move them.
    const std::vector<Cell> copy(nodes.begin(), nodes.end());
    fillJumpRoute(copy, tiles);
    return;
  }
  std::size_t total = nodes.empty() ? 0 : 1;
  for (std::size_t k = 0; k + 1 < nodes.size(); ++k) {
    total += std::size_t(std::max(std::abs(nodes[k + 1].x - nodes[k].x), std::abs(nodes[k + 1].y - nodes[k].y)));
  }
  tiles.resize(total);
  if (nodes.empty()) return;
  Cell* write = tiles.data();
  *write++ = nodes.front();
  for (std::size_t k = 0; k + 1 < nodes.size(); ++k) {
    const Cell a = nodes[k], b = nodes[k + 1];
    const std::int32_t dx = detail::sign(b.x - a.x), dy = detail::sign(b.y - a.y);
    const std::int32_t ax = std::abs(b.x - a.x), ay = std::abs(b.y - a.y);
    const std::int32_t diagonalSteps = std::min(ax, ay);
    const std::int32_t sx = ax > ay ? dx : 0, sy = ax > ay ? 0 : dy;  // the straight part's step
    const std::int32_t straightSteps = std::max(ax, ay) - diagonalSteps;
    write = writeSteps(write, a, dx, dy, diagonalSteps);
    write = writeSteps(write, {a.x + diagonalSteps * dx, a.y + diagonalSteps * dy}, sx, sy, straightSteps);
  }
}

namespace {

// True when a character may step from tile a to tile b under the grid's rules.
bool legalStep(const SearchGrid& grid, Cell a, Cell b) {
  const auto moves = grid.layout().moves(a);
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const NeighbourStep& step = moves[i];
    if (Cell{a.x + step.dx, a.y + step.dy} != b) continue;
    if (!grid.passable(b)) return false;
    auto open = [&](const NeighbourStep& side) { return grid.passable({a.x + side.dx, a.y + side.dy}); };
    if (!step.sharesEdge) return open(moves[std::size_t(step.requiresA)]) && open(moves[std::size_t(step.requiresB)]);
    if (grid.closesNarrowGaps()) {
      return open(moves[(i + moves.size() - 1) % moves.size()]) || open(moves[(i + 1) % moves.size()]);
    }
    return true;
  }
  return false;
}

}  // namespace

void SearchContext::buildAnyAnglePath(SearchResult& out) {
  const SearchGrid& grid = *m_grid;
  const Layout& layout = grid.layout();
  // The route: the start point, the chain of parents (tile centres joined by clear segments;
  // the start tile's only when its first link left from its centre), the goal tile's centre
  // unless a straight line reached the goal point, and the goal point.
  std::vector<Vec2>& route = out.vertices;
  route.assign(1, m_startPoint);
  std::size_t first = route.size();
  for (std::int32_t i = nodeAt(m_goal).parent; i >= 0; i = nodeAt(i).parent) {
    route.push_back(pointOf(i));
  }
  std::reverse(route.begin() + std::ptrdiff_t(first), route.end());
  out.costUnits = nodeAt(m_goal).g;
  if (m_start == m_goal) {
    // One tile: through its centre (both pieces probed in findPath), or straight across.
    out.costUnits = m_startPieceUnits + m_goalPieceUnits;
    const SegmentProbe across = m_sight->probe(m_startPoint, m_goalPoint, m_radius);
    if (!across.clear || detail::toCostUnits(across.cost, layout) > out.costUnits) {
      route.push_back(pointOf(m_goal));
    } else {
      out.costUnits = detail::toCostUnits(across.cost, layout);
    }
  } else if (!m_goalDirect) {
    route.push_back(pointOf(m_goal));
  }
  route.push_back(m_goalPoint);

  double length = 0.0;
  m_localRoute.clear();
  for (std::size_t v = 0; v < route.size(); ++v) {
    if (v > 0) length += double((route[v] - route[v - 1]).norm());
    m_localRoute.push_back(layout.toLocal(route[v]));
  }
  traceRoute(out, false);  // (clear segments: no tile they cross is blocked)
  out.reached = m_goalCell;
  out.cost = double(out.costUnits) / double(kCostScale);
  out.length = length / double(layout.tileSize());
}

// The route's tiles, into out.path: those each segment of m_localRoute crosses, in order, and a
// point of the route in each (out.through; the vertices' tiles in out.vertexTiles). Where the
// route passes from one tile to another only through a shared corner, the tile path steps through
// a passable tile touching that place, so every step is a legal move. `alongEdges`: the route may
// run along tiles' edges (the exact any-angle route does, by walls), where it crosses no tile's
// inside; there the passable tile beside the edge counts as crossed. False (alongEdges only) when
// a tile crossed, or both beside an edge, cannot be entered, or two tiles in a row meet only at a
// corner no passable tile bridges.
bool SearchContext::traceRoute(SearchResult& out, bool alongEdges) {
  const SearchGrid& grid = *m_grid;
  const Layout& layout = grid.layout();
  out.path.assign(1, grid.cellOf(m_start));
  out.through.assign(1, m_startPoint);
  out.vertexTiles.assign(1, 0);
  bool legal = true;
  auto append = [&](Cell cell, Vec2 entry, Vec2 inside) {
    if (cell == out.path.back()) return;
    if (!legalStep(grid, out.path.back(), cell)) {
      bool bridged = false;
      for (const NeighbourStep& step : layout.moves(out.path.back())) {
        const Cell side{out.path.back().x + step.dx, out.path.back().y + step.dy};
        if (legalStep(grid, out.path.back(), side) && legalStep(grid, side, cell)) {
          out.path.push_back(side);
          out.through.push_back(entry);
          bridged = true;
          break;
        }
      }
      legal = legal && bridged;
    }
    out.path.push_back(cell);
    out.through.push_back(inside);
  };
  const std::vector<Eigen::Vector2d>& route = m_localRoute;
  for (std::size_t v = 1; v < route.size(); ++v) {
    const Eigen::Vector2d from = route[v - 1], along = route[v] - from;
    if (along != Eigen::Vector2d::Zero()) {
      auto onInterior = [&](Cell cell, double t0, double t1) {
        if (alongEdges && !grid.passable(cell)) return false;
        append(cell, layout.toWorld(from + along * t0), layout.toWorld(from + along * (0.5 * (t0 + t1))));
        return true;
      };
      auto onContact = [&](const detail::SideContact& contact) {
        if (!alongEdges || contact.t1 <= contact.t0) return true;
        for (const detail::TileSet* side : {&contact.left, &contact.right}) {
          for (int i = 0; i < side->count; ++i) {
            if (grid.passable(side->cells[std::size_t(i)])) {
              append(side->cells[std::size_t(i)], layout.toWorld(from + along * contact.t0),
                     layout.toWorld(from + along * (0.5 * (contact.t0 + contact.t1))));
              return true;
            }
          }
        }
        return false;
      };
      const bool traced = detail::walkSegment(layout, from, from + along, onInterior, onContact);
      if (!traced) return false;
    }
    if (v + 1 < route.size()) {
      // The vertex itself, so that the route's turns are kept exactly.
      out.through.back() = out.vertices[v];
    } else {
      // A goal point on the goal tile's border may leave the walk in a neighbouring tile.
      append(m_goalCell, m_goalPoint, m_goalPoint);
    }
    out.vertexTiles.push_back(std::int32_t(out.path.size() - 1));
  }
  return legal || !alongEdges;
}

}  // namespace rpgnav
