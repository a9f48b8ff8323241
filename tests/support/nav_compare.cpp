// SPDX-License-Identifier: MIT
#include "support/nav_compare.hpp"

#include <unordered_map>

namespace rpgnav::test {

std::string gridDifference(const SearchGrid& a, const SearchGrid& b, bool landmarks) {
  if (a.width() != b.width() || a.height() != b.height() || a.mobility() != b.mobility()) return "shape or mobility";
  if (a.closesNarrowGaps() != b.closesNarrowGaps()) return "closesNarrowGaps";
  if (a.minStraightCost() != b.minStraightCost() || a.minDiagonalCost() != b.minDiagonalCost()) return "cheapest steps";
  if (a.uniformCost() != b.uniformCost()) return "uniformCost";
  if (a.gateCount() != b.gateCount()) return "gate count";
  for (std::uint32_t c = 0; c < 256; ++c) {
    if (a.halfStraight(std::uint8_t(c)) != b.halfStraight(std::uint8_t(c)) ||
        a.halfDiagonal(std::uint8_t(c)) != b.halfDiagonal(std::uint8_t(c))) {
      return "step costs of class " + std::to_string(c);
    }
  }
  const std::int32_t count = a.paddedCount();
  for (std::int32_t i = 0; i < count; ++i) {
    const Cell cell = a.cellOf(i);
    const std::string where = " at (" + std::to_string(cell.x) + "," + std::to_string(cell.y) + ")";
    if (a.classes()[i] != b.classes()[i]) return "class" + where;
    if (a.uniform()[i] != b.uniform()[i]) return "uniform flag" + where;
    if (a.nearGate()[i] != b.nearGate()[i]) return "near-gate flag" + where;
    if (a.layout().isHex()) {
      for (int d = 0; d < 6; ++d) {
        if (a.jumpDistances(i)[d] != b.jumpDistances(i)[d]) return "hex jump " + std::to_string(d) + where;
        if (a.contains(cell) && a.hexPrimaryStop(a.layout().toAxial(cell), d) != b.hexPrimaryStop(b.layout().toAxial(cell), d)) {
          return "hex primary stop " + std::to_string(d) + where;
        }
      }
    }
    if (a.width() > 0 && a.layout().kind() == LayoutKind::Square && a.layout().connectivity() == 8) {
      for (int d = 0; d < 4; ++d) {
        if (a.jumpDistances(i)[d] != b.jumpDistances(i)[d]) return "jump " + std::to_string(d) + where;
        const std::int32_t dx = d % 2 == 0 ? 1 : -1, dy = d < 2 ? 1 : -1;
        if (a.contains(cell) && a.diagonalBits(cell, dx, dy) != b.diagonalBits(cell, dx, dy)) {
          return "diagonal bit " + std::to_string(d) + where;
        }
        if (a.contains(cell) && a.nearDiagonalStop(i, dx, dy) != b.nearDiagonalStop(i, dx, dy)) {
          return "near diagonal stop " + std::to_string(d) + where;
        }
      }
    }
    // Canonical successors, where the search reads them (8-way squares and hexes, weighted maps,
    // tiles where costs change, not at gates).
    if (a.width() > 0 && (a.layout().isHex() || a.layout().connectivity() == 8) && !a.uniformCost() &&
        a.classes()[i] != 0 && a.uniform()[i] == 0 && a.nearGate()[i] == 0) {
      for (int arrival = 0; arrival < (a.layout().isHex() ? 6 : 8); ++arrival) {
        if (a.canonicalSuccessors(i, arrival) != b.canonicalSuccessors(i, arrival)) {
          return "canonical successors " + std::to_string(arrival) + where;
        }
      }
    }
    if (!a.contains(cell)) continue;
    for (const NeighbourStep& step : a.layout().touching(cell)) {
      const Cell next{cell.x + step.dx, cell.y + step.dy};
      if (!a.contains(next)) continue;
      if (a.gateBetween(i, a.padded(next)) != b.gateBetween(i, b.padded(next))) return "gate" + where;
    }
  }
  // Regions: the same partition and sizes.
  std::unordered_map<std::uint32_t, std::uint32_t> forward, backward;
  for (std::int32_t y = 0; y < a.height(); ++y) {
    for (std::int32_t x = 0; x < a.width(); ++x) {
      const std::uint32_t la = a.regions().regionOf({x, y}), lb = b.regions().regionOf({x, y});
      const std::string where = " at (" + std::to_string(x) + "," + std::to_string(y) + ")";
      if ((la == RegionMap::kNoRegion) != (lb == RegionMap::kNoRegion)) return "region passability" + where;
      if (la == RegionMap::kNoRegion) continue;
      if (forward.emplace(la, lb).first->second != lb || backward.emplace(lb, la).first->second != la) {
        return "regions" + where;
      }
      if (a.regions().regionSize(la) != b.regions().regionSize(lb)) return "region size" + where;
    }
  }
  if (a.regions().regionCount() != b.regions().regionCount()) return "region count";
  if (landmarks) {
    if (a.landmarkCount() != b.landmarkCount() || a.landmarks() != b.landmarks()) return "landmark tiles";
    if (a.landmarksUsable() != b.landmarksUsable()) return "landmarks usable";
    for (std::int32_t i = 0; i < count; ++i) {
      for (int k = 0; k < a.landmarkCount(); ++k) {
        if (a.landmarkDistances(i)[k] != b.landmarkDistances(i)[k]) return "landmark distances";
      }
    }
  }
  return "";
}

std::string layerDifference(const NavLayer& a, const NavLayer& b, bool landmarks) {
  if (const std::string grid = gridDifference(a.grid(), b.grid(), landmarks); !grid.empty()) return "grid: " + grid;
  if (!(a.lines() == b.lines())) return "line bitmaps";
  if (a.corners().all() != b.corners().all()) return "convex corners";
  return "";
}

}  // namespace rpgnav::test
