// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// AnyaSearch: the exact any-angle shortest path on a square map of one cost (Anya: Harabor,
/// Grastien, Öz & Aksakalli, "Optimal Any-Angle Pathfinding In Practice", JAIR 2016).
///
/// Why: the 8-way metric overrates some directions by up to 8%, so the 8-way search sometimes
/// passes an obstacle on the side that is longer in straight lines, and no straightening within
/// that route's homotopy class can recover the loss. Anya searches sets of points instead of
/// tiles: a node is an interval of one row of tile corners ("row" k: the line y = k in tile
/// units) with a root, the last turning point (a tile corner, or the start) from which every
/// point of the interval is seen. Its successors are the intervals of the next row the root sees
/// through it, and, round the interval's ends where an obstacle hides what lies behind, intervals
/// seen from that corner as a new root. With a heuristic that is the straight-line distance
/// through the interval, the first goal taken from the open list is optimal. No preprocessing:
/// tile edits need nothing from it.
///
/// The geometry is the library's zero-radius rule (see line_of_sight.hpp): a route may run along
/// a blocked tile's edge and turn round its corner, but never crosses a blocked tile or squeezes
/// through a point where two blocked tiles touch only diagonally.

#include "rpgnav/core/status.hpp"
#include "rpgnav/core/types.hpp"
#include "grid/segment_tester.hpp"
#include "search/search_grid.hpp"
#include "search/search_limit.hpp"

#include <Eigen/Core>
#include <cstdint>
#include <optional>
#include <vector>

namespace rpgnav {

/// Scratch memory for Anya searches; one per thread, reusable (a warm search allocates nothing).
class AnyaSearch {
 public:
  /// Searches the shortest route from `start` to `goal`, points in tile units of the grid's layout
  /// (tile (x, y) spans [x, x+1] × [y, y+1]). `rows`: the grid's passable tiles as bits by rows
  /// (SegmentTester::cheapLines on a map of one cost), to find the ends of free runs 64 tiles at
  /// a time. Ok: route() holds the start, each turning point (tile corners) and the goal, length()
  /// its length in tiles. NoPath when no route exists (only squeezing would join them);
  /// InProgress when `limit` is reached (see SearchLimit), resume() goes on; InvalidArgument
  /// when the grid is not square or not of one cost, `rows` are not the grid's, or a point is not
  /// finite, off the map or in no free tile's closure. The grid and rows must stay alive and
  /// unchanged while a search is suspended.
  /// `startTile` / `goalTile`, when given, are the tiles the points belong to: a point on a corner
  /// where two blocked tiles touch only diagonally is then searched from a hair inside its tile,
  /// so that the route leaves (reaches) it through that tile, never squeezing through the corner.
  Status findPath(const SearchGrid& grid, const BitLines& rows, const Eigen::Vector2d& start,
                  const Eigen::Vector2d& goal, SearchLimit limit = {},
                  std::optional<Cell> startTile = std::nullopt, std::optional<Cell> goalTile = std::nullopt);
  /// Goes on with a suspended search (InvalidArgument when there is none).
  Status resume(SearchLimit limit = {});
  /// The route found by the last search that answered Ok.
  const std::vector<Eigen::Vector2d>& route() const noexcept { return m_route; }
  double length() const noexcept { return m_length; }
  /// Nodes (intervals) taken from the open list by the last search (with the nodes expanded at
  /// once after them: see findPath).
  std::int64_t expanded() const noexcept { return m_expanded; }
  /// Nodes put on the open list by the last search.
  std::int64_t generated() const noexcept { return m_generated; }
  /// Makes the scratch now (about 60 KB: room for short searches; a long one grows it once, the
  /// vectors doubling), so that a first search costs about what later ones do.
  void reserve();
  /// Bytes held.
  std::size_t memoryBytes() const noexcept;

 private:
  // A turning point: a tile corner reached at cost g (the origin, the first root, is the start,
  // anywhere: place() reads it from m_start). 24 bytes: a search keeps every root it makes.
  struct Root {
    std::int32_t x, y;
    double g;
    std::int32_t parent;
  };
  struct Place {
    double x, y, g;
  };
  static constexpr std::int32_t kOrigin = 0;  // the start's root: always the first
  Place place(std::int32_t root) const noexcept {
    const Root& r = m_roots[std::size_t(root)];
    return root == kOrigin ? Place{m_start.x(), m_start.y(), 0.0} : Place{double(r.x), double(r.y), r.g};
  }
  enum class Kind : std::uint8_t { Cone, FlatRight, FlatLeft, Goal };
  struct Node {
    double a, b;  // the interval [a, b] on row `row`
    std::int32_t row;
    std::int32_t root;
    Kind kind;
  };
  struct Entry {
    double f;
    std::uint32_t order;  // made n-th: the tie-break (node slots are reused)
    std::int32_t node;
  };

  bool free(std::int32_t column, std::int32_t strip) const noexcept {
    return m_classes[std::size_t((strip + 1) * m_stride + column + 1)] != 0;
  }
  std::int32_t runLeft(std::int32_t column, std::int32_t strip) const noexcept;
  std::int32_t runRight(std::int32_t column, std::int32_t strip) const noexcept;
  bool pinch(std::int32_t x, std::int32_t row) const noexcept;
  bool turnsAt(std::int32_t x, std::int32_t row, int direction, std::int32_t strip) const noexcept;
  double flatEnd(double from, std::int32_t row, int direction, bool checkFrom) const noexcept;

  std::int32_t cornerRoot(std::int32_t x, std::int32_t y, double g, std::int32_t parent);
  std::uint32_t cornerKey(std::int32_t x, std::int32_t y) const noexcept {
    return std::uint32_t(y) * std::uint32_t(m_width + 1) + std::uint32_t(x) + 1;
  }
  void push(double a, double b, std::int32_t row, std::int32_t root, Kind kind);
  void open(const Node& node);
  void open(const Node& node, double f);
  void pushGoal(std::int32_t root);
  void checkGoalFromRoot(std::int32_t root);
  void pushRunCone(std::int32_t column, std::int32_t strip, std::int32_t towardRow, std::int32_t root);
  Status run(SearchLimit limit);
  void expandCone(const Node& node);
  void conesAhead(const Node& node, std::int32_t ahead, std::int32_t far, double scale);
  void expandFlat(const Node& node);
  void turnCone(const Node& node, std::int32_t corner, int side);
  std::int32_t turnRoot(const Node& node, std::int32_t x);
  double heuristic(const Node& node) const noexcept;

  BitLines m_rows;
  const std::uint8_t* m_classes = nullptr;
  std::int32_t m_stride = 0, m_width = 0, m_height = 0;
  Eigen::Vector2d m_goal;
  bool m_goalOnRow = false;
  std::int32_t m_goalStrip = 0;  // goal strictly inside a strip: its index and the run holding it
  double m_goalRunLow = 0, m_goalRunHigh = 0;

  std::vector<Root> m_roots;
  // Nodes waiting in the open list; a slot taken from it is reused (m_freeNodes), so the
  // vector holds the open list's peak, not every node made.
  std::vector<Node> m_nodes;
  std::vector<std::int32_t> m_freeNodes;
  std::vector<Entry> m_open;
  std::vector<Node> m_successors;  // of the node being expanded
  std::int64_t m_goalsFound = 0;
  // The newest root at each tile corner reached (its g the best known): an open-addressing hash
  // table (a search reaches a few thousand corners; an array over the map's corners would cost
  // each thread 4 bytes a tile, 1 MB on a 512 × 512 map). Emptied at the next search's start by
  // walking the probe runs from the home slots of that search's roots.
  struct CornerSlot {
    std::uint32_t key;  // cornerKey(); 0: empty
    std::int32_t root;
  };
  std::int32_t* findCorner(std::uint32_t key) noexcept;
  std::int32_t& insertCorner(std::uint32_t key);
  void clearCorners() noexcept;
  static constexpr std::size_t kFirstCornerSlots = std::size_t(1) << 11;
  std::vector<CornerSlot> m_corners;
  std::size_t m_cornerCount = 0;
  std::int64_t m_expanded = 0, m_generated = 0;
  bool m_suspended = false;
  Eigen::Vector2d m_start;
  std::vector<Eigen::Vector2d> m_route;
  double m_length = 0.0;
};

}  // namespace rpgnav
