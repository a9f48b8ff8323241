// SPDX-License-Identifier: MIT
#include "grid/clearance.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rpgnav {

namespace {

// The distance from a point outside a convex polygon to it (a tile centre and another tile:
// their insides never meet).
double distanceToPolygon(const Eigen::Vector2d& point, const std::array<Eigen::Vector2d, 6>& corners, int count) {
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < count; ++i) {
    const Eigen::Vector2d& a = corners[std::size_t(i)];
    const Eigen::Vector2d edge = corners[std::size_t((i + 1) % count)] - a;
    const double t = std::clamp((point - a).dot(edge) / edge.squaredNorm(), 0.0, 1.0);
    best = std::min(best, (a + t * edge - point).norm());
  }
  return best;
}

}  // namespace

std::int64_t Clearance::offsetCode(const Layout& layout, int parity, Cell offset) {
  // A tile of the parity well inside any map's coordinates; geometry needs no map.
  const Cell base{8 + parity % 2, 8 + parity / 2};
  const Cell other{base.x + offset.x, base.y + offset.y};
  // In layout space, where a tile step is 1 on both layouts.
  std::array<Eigen::Vector2d, 6> corners;
  const int count = layout.localCorners(other, corners);
  const double d = offset == Cell{0, 0} ? 0.0 : distanceToPolygon(layout.localCenter(base), corners, count);
  const double scale = layout.isHex() ? 12.0 : 4.0;
  return std::llround(scale * d * d);
}

Clearance Clearance::build(const TileMap& map, MobilityId mobility) {
  Clearance clearance;
  const Layout& layout = map.layout();
  clearance.m_width = map.width();
  clearance.m_height = map.height();
  clearance.m_scale = layout.isHex() ? 12 : 4;
  clearance.m_mobility = mobility;
  // Every tile nearer than kFarTiles, by parity, nearest first. (Within 6 steps: a tile k steps
  // away lies at least k − 0.5 (squares) or k·√3/2 − 1/√3 (hexes) tiles from a centre.)
  const std::int64_t limit = std::int64_t(clearance.m_scale) * kFarTiles * kFarTiles;
  for (int parity = 0; parity < 4; ++parity) {
    std::vector<Probe>& probes = clearance.m_probes[std::size_t(parity)];
    for (std::int32_t dy = -6; dy <= 6; ++dy) {
      for (std::int32_t dx = -6; dx <= 6; ++dx) {
        if (dx == 0 && dy == 0) continue;
        const std::int64_t code = offsetCode(layout, parity, {dx, dy});
        if (code >= limit) continue;
        probes.push_back({{dx, dy}, std::uint8_t(code)});
        clearance.m_reach = std::max({clearance.m_reach, std::abs(dx), std::abs(dy)});
      }
    }
    std::stable_sort(probes.begin(), probes.end(), [](const Probe& a, const Probe& b) { return a.code < b.code; });
  }
  clearance.m_codes.assign(std::size_t(map.width() + 2) * std::size_t(map.height() + 2), 0);
  clearance.measure(map, mobility, {0, 0}, {map.width() - 1, map.height() - 1});
  return clearance;
}

void Clearance::update(const TileMap& map, Cell low, Cell high) {
  if (map.width() != m_width || map.height() != m_height) {
    *this = build(map, m_mobility);
    return;
  }
  // A tile's clearance depends on the tiles within kFarTiles of it: those within the probes'
  // reach of the edit.
  low = {std::max(low.x - m_reach, 0), std::max(low.y - m_reach, 0)};
  high = {std::min(high.x + m_reach, m_width - 1), std::min(high.y + m_reach, m_height - 1)};
  if (low.x > high.x || low.y > high.y) return;
  measure(map, m_mobility, low, high);
}

void Clearance::measure(const TileMap& map, MobilityId mobility, Cell low, Cell high) {
  // Which tiles the mobility may enter round the box, as bytes with a border of the probes'
  // reach (off the map: 0, as for a forbidden tile), so each probe is an index offset.
  const std::int32_t reach = m_reach;
  const std::int32_t x0 = low.x - reach, y0 = low.y - reach;
  const std::int32_t stride = high.x - low.x + 1 + 2 * reach, rows = high.y - low.y + 1 + 2 * reach;
  std::vector<std::uint8_t> enterable(std::size_t(stride) * std::size_t(rows), 0);
  for (std::int32_t y = std::max(y0, 0); y < std::min(y0 + rows, m_height); ++y) {
    for (std::int32_t x = std::max(x0, 0); x < std::min(x0 + stride, m_width); ++x) {
      enterable[std::size_t(y - y0) * std::size_t(stride) + std::size_t(x - x0)] = map.passable({x, y}, mobility) ? 1 : 0;
    }
  }
  std::array<std::vector<std::ptrdiff_t>, 4> offsets;
  for (std::size_t parity = 0; parity < 4; ++parity) {
    for (const Probe& probe : m_probes[parity]) offsets[parity].push_back(std::ptrdiff_t(probe.offset.y) * stride + probe.offset.x);
  }
  for (std::int32_t y = low.y; y <= high.y; ++y) {
    for (std::int32_t x = low.x; x <= high.x; ++x) {
      const std::size_t at = std::size_t(y - y0) * std::size_t(stride) + std::size_t(x - x0);
      std::uint8_t code = 0;
      if (enterable[at] != 0) {
        code = kFar;
        const std::size_t parity = std::size_t(x % 2 + 2 * (y % 2));
        const std::vector<std::ptrdiff_t>& around = offsets[parity];
        for (std::size_t k = 0; k < around.size(); ++k) {
          if (enterable[std::size_t(std::ptrdiff_t(at) + around[k])] == 0) {
            code = m_probes[parity][k].code;
            break;
          }
        }
      }
      m_codes[padded({x, y})] = code;
    }
  }
}

bool Clearance::stepFits(const Layout& layout, Cell from, std::size_t move, double radiusTiles) const noexcept {
  const std::span<const NeighbourStep> moves = layout.moves(from);
  if (move >= moves.size()) return false;
  const std::int64_t need = codeFor(radiusTiles);
  auto fitsAt = [&](const NeighbourStep& step) { return code({from.x + step.dx, from.y + step.dy}) >= need; };
  const NeighbourStep& step = moves[move];
  if (code(from) < need || !fitsAt(step)) return false;
  if (layout.isHex()) return fitsAt(moves[(move + moves.size() - 1) % moves.size()]) && fitsAt(moves[(move + 1) % moves.size()]);
  return step.sharesEdge || (fitsAt(moves[std::size_t(step.requiresA)]) && fitsAt(moves[std::size_t(step.requiresB)]));
}

double Clearance::tiles(Cell cell) const noexcept {
  const std::uint8_t stored = code(cell);
  return stored == kFar ? double(kFarTiles) : std::sqrt(double(stored) / double(m_scale));
}

std::int64_t Clearance::codeFor(double radiusTiles) const noexcept {
  if (!(radiusTiles > 0.0)) return 1;  // an enterable tile: its nearest forbidden one is half a tile away
  if (radiusTiles >= double(kFarTiles)) return radiusTiles == double(kFarTiles) ? kFar : kFar + 1;
  return std::max<std::int64_t>(1, std::int64_t(std::ceil(double(m_scale) * radiusTiles * radiusTiles)));
}

}  // namespace rpgnav
