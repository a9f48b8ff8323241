// SPDX-License-Identifier: MIT
#pragma once
// Passages: stretches of a square map too narrow for two bodies of a size to pass each other
// (a one-tile doorway, a footbridge, a one-tile corridor for bodies of a quarter tile; two-tile
// corridors for bodies of half a tile). The yield rule of local avoidance lets one direction at
// a time through each, so the two sides never meet inside.
//
// A tile is narrow for a width class k when the straight run of tiles the mobility can enter
// through it, across or along, is at most k tiles long (the shortest of the horizontal and the
// vertical run; of the runs along the three axes on hex maps). A passage is an edge-connected
// set of narrow tiles; its sides are the groups of
// wider tiles touching it (8-connected), one per mouth. On hex maps the runs go along the three
// axes and tiles touch across edges. Found on demand, kept until an edit nearby.

#include "rpgnav/grid/tile_map.hpp"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace rpgnav::avoid {

struct Passage {
  std::int32_t widthClass = 0;
  std::vector<std::int32_t> tiles;  ///< Tile indices, sorted.
  struct Mouth {
    Cell cell;
    double x, y;  // its centre in layout space
    std::int32_t side;
  };
  std::vector<Mouth> mouths;  ///< Wider tiles touching it, with their side.
  std::int32_t sides = 0;
  bool contains(std::int32_t tile) const;
  /// The side whose mouth tile is nearest to `point` (layout space: tile units).
  std::int32_t nearestSide(double x, double y) const;
  /// For the crowd class: a stretch with two ends, of at most kLongestStretch tiles, and (wider
  /// than one tile) at least twice as long as wide: a two-tile bridge, a one-tile gap that two
  /// bodies fill exactly; not a street's bit between two doors, nor a long street.
  bool isStretch(std::int32_t crowdClass) const;
};

class PassageMap {
 public:
  /// The width class of bodies of `radius` (tiles): passages are where two cannot pass.
  static std::int32_t widthClass(float radiusTiles) noexcept;
  /// The wider class where two can pass with less than a tile to spare: crowds from both ends
  /// jam there, so short stretches of it (a two-tile bridge) are passages too.
  static std::int32_t crowdClass(float radiusTiles) noexcept;
  /// Passages of the crowd class longer than this many tiles are not (a long street: two lanes).
  static constexpr std::size_t kLongestStretch = 24;
  /// The passage holding `cell` for class k, or -1 (wide ground, a wall, class 0).
  std::int32_t passageAt(const TileMap& map, MobilityId mobility, Cell cell, std::int32_t widthClass);
  const Passage& passage(std::int32_t index) const { return m_passages[std::size_t(index)]; }
  std::size_t count() const noexcept { return m_passages.size(); }
  /// Changes when passage numbers are given out afresh (after a cost edit, or more edits than the
  /// map's journal keeps): a number remembered from before means nothing then.
  std::uint64_t generation() const noexcept { return m_generation; }
  bool narrow(const TileMap& map, MobilityId mobility, Cell cell, std::int32_t widthClass) const;

 private:
  std::uint64_t m_version = ~std::uint64_t(0);
  const TileMap* m_map = nullptr;
  std::vector<Passage> m_passages;
  // Per (mobility, class) in use, per tile: the passage index, -1 for a tile known not to be
  // narrow, -2 not looked at yet. Filled on demand (an array lookup per query once warm).
  std::unordered_map<std::uint32_t, std::vector<std::int32_t>> m_of;
  std::vector<std::int32_t>& tilesOf(MobilityId mobility, std::int32_t widthClass);
  void follow(const TileMap& map);
  std::vector<TileEdit> m_edits;
  std::size_t m_dead = 0;
  std::uint64_t m_generation = 0;  // passages forgotten after edits (their slots stay until a reset)
};

}  // namespace rpgnav::avoid
