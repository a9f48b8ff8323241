// SPDX-License-Identifier: MIT
// SearchGrid's hex jump table: for every tile and each of the six hex directions, how far a
// secondary run of hex jump point search (lib/search/hex_jumps.cpp) goes before it stops — the
// "JPS+" table (Rabin 2015) for hex runs, built once and patched in place after edits.
#include "search/search_grid.hpp"

#include <algorithm>
#include <limits>

namespace rpgnav {

HexDirections::HexDirections(const Layout& layout, std::int32_t paddedWidth) {
  const Cell reference{2, 2};
  const Axial origin = layout.toAxial(reference);
  for (int shifted = 0; shifted < 2; ++shifted) {
    // A tile of each kind: rows (pointy) or columns (flat) alternate between the two tables.
    const Cell cell = layout.kind() == LayoutKind::HexPointy ? Cell{2, 2 + shifted} : Cell{2 + shifted, 2};
    const auto moves = layout.moves(cell);
    const bool isShifted = layout.kind() == LayoutKind::HexPointy ? moves[1].dx == 1 : moves[1].dy == 0;
    for (int d = 0; d < 6; ++d) {
      const NeighbourStep& step = moves[std::size_t(d)];
      padded[isShifted][std::size_t(d)] = step.dx + step.dy * paddedWidth;
      cells[isShifted][std::size_t(d)] = Cell{step.dx, step.dy};
    }
  }
  for (int d = 0; d < 6; ++d) {
    const NeighbourStep& step = layout.moves(reference)[std::size_t(d)];
    const Axial to = layout.toAxial({reference.x + step.dx, reference.y + step.dy});
    axial[std::size_t(d)] = Axial{to.q - origin.q, to.r - origin.r};
    // Steps along the offset rows (pointy: east, west) or columns (flat: north, south) keep the
    // row's (column's) shift; the other four change it.
    flips[std::size_t(d)] = layout.kind() == LayoutKind::HexPointy ? step.dy != 0 : step.dx != 0;
  }
  pointy = layout.kind() == LayoutKind::HexPointy;
  // The shifted rows (columns) are the layout's stagger: the odd ones or the even ones.
  shiftedParity = layout.hexStagger() == HexStagger::Even ? 0 : 1;
  // split()'s table: a direction's ray (b = 0) and the sextant after it (a, b >= 1) are its own.
  sextant.fill(-1);
  for (int d = 0; d < 6; ++d) {
    const Axial u = axial[std::size_t(d)], v = axial[std::size_t(turn(d, 1))];
    for (const Axial delta : {u, Axial{u.q + v.q, u.r + v.r}}) sextant[std::size_t(signPattern(delta))] = std::int8_t(d);
  }
}

std::int16_t SearchGrid::hexEntry(std::int32_t t, bool shifted, int d) const noexcept {
  const std::uint8_t* cls = m_class.data();
  const std::int32_t next = t + m_hex.padded[shifted][std::size_t(d)];
  if (cls[next] == 0) return -1;
  // A run stepping into `next` stops there when costs change round it, or when the tile beside
  // its way ahead on either side is open while the tile beside the step before it is blocked.
  const auto& around = m_hex.padded[shifted != m_hex.flips[std::size_t(d)]];
  auto forced = [&](int side, int behind) {
    return cls[next + around[std::size_t(HexDirections::turn(d, behind))]] == 0 && cls[next + around[std::size_t(HexDirections::turn(d, side))]] != 0;
  };
  if (m_uniform[std::size_t(next)] == 0 || forced(-1, -2) || forced(1, 2)) return 1;
  const std::int16_t after = m_jumps[std::size_t(next) * kJumpRecord + std::size_t(d)];
  // Saturate: beyond 32767 tiles store kJumpFar ("no stop within 32767, look again").
  return after == kJumpFar || after == 32767 || after == -32767 ? kJumpFar
         : after > 0                                            ? std::int16_t(after + 1)
                                                                : std::int16_t(after - 1);
}

void SearchGrid::buildHexJumps() {
  m_jumps.assign(std::size_t(paddedCount()) * kJumpRecord, -1);
  std::vector<std::pair<std::int32_t, bool>> line;
  for (int d = 0; d < 6; ++d) {
    const int back = HexDirections::turn(d, 3);
    // Each line along d from its first tile (the one whose tile behind is off the map), walked
    // to its end, then filled from the end back: each entry follows from the one ahead.
    for (std::int32_t y = 0; y < m_height; ++y) {
      for (std::int32_t x = 0; x < m_width; ++x) {
        const Cell first{x, y};
        const bool firstShifted = m_hex.shifted(first);
        const Cell behind{x + m_hex.cells[firstShifted][std::size_t(back)].x, y + m_hex.cells[firstShifted][std::size_t(back)].y};
        if (contains(behind)) continue;
        line.clear();
        Cell at = first;
        bool shifted = firstShifted;
        while (contains(at)) {
          line.emplace_back(padded(at), shifted);
          const Cell step = m_hex.cells[shifted][std::size_t(d)];
          at = {at.x + step.x, at.y + step.y};
          shifted = shifted != m_hex.flips[std::size_t(d)];
        }
        for (std::size_t k = line.size(); k-- > 0;) {
          const auto [t, tShifted] = line[k];
          m_jumps[std::size_t(t) * kJumpRecord + std::size_t(d)] = hexEntry(t, tShifted, d);
        }
      }
    }
  }
}

void SearchGrid::buildHexStopBits() {
  for (int axis = 0; axis < 3; ++axis) {
    // The lines' keys and each line's first and last position, from the tiles themselves.
    std::int32_t keyLow = std::numeric_limits<std::int32_t>::max(), keyHigh = std::numeric_limits<std::int32_t>::min();
    for (std::int32_t y = 0; y < m_height; ++y) {
      for (std::int32_t x = 0; x < m_width; ++x) {
        const std::int32_t key = hexLineKey(m_layout.toAxial({x, y}), axis);
        keyLow = std::min(keyLow, key);
        keyHigh = std::max(keyHigh, key);
      }
    }
    if (m_width == 0 || m_height == 0) keyLow = keyHigh = 0;
    std::vector<std::pair<std::int32_t, std::int32_t>> span(std::size_t(keyHigh - keyLow + 1),
                                                             {std::numeric_limits<std::int32_t>::max(), std::numeric_limits<std::int32_t>::min()});
    for (std::int32_t y = 0; y < m_height; ++y) {
      for (std::int32_t x = 0; x < m_width; ++x) {
        const Axial at = m_layout.toAxial({x, y});
        auto& [low, high] = span[std::size_t(hexLineKey(at, axis) - keyLow)];
        low = std::min(low, hexLinePosition(at, axis));
        high = std::max(high, hexLinePosition(at, axis));
      }
    }
    m_hexLineKeyLow[std::size_t(axis)] = keyLow;
    std::vector<HexLine>& lines = m_hexLines[std::size_t(axis)];
    lines.assign(span.size(), {});
    std::uint32_t words = 0;
    for (std::size_t k = 0; k < span.size(); ++k) {
      const std::int32_t length = span[k].first <= span[k].second ? span[k].second - span[k].first + 1 : 0;
      lines[k] = {words, length > 0 ? span[k].first : 0};
      words += std::uint32_t((length + 2 + 63) / 64);
    }
    for (const int d : {axis, axis + 3}) {
      std::vector<std::uint64_t>& bits = m_hexStopBits[std::size_t(d)];
      bits.assign(words, 0);
      for (std::size_t k = 0; k < span.size(); ++k) {
        // Off the map at both ends: a run stops there.
        const std::int32_t length = span[k].first <= span[k].second ? span[k].second - span[k].first + 1 : 0;
        for (const std::int32_t bit : {0, length + 1}) bits[lines[k].start + std::uint32_t(bit / 64)] |= std::uint64_t(1) << (bit % 64);
      }
    }
  }
  for (std::int32_t y = 0; y < m_height; ++y) {
    for (std::int32_t x = 0; x < m_width; ++x) refreshHexStopBits({x, y});
  }
}

void SearchGrid::refreshHexStopBits(Cell cell) {
  const std::int32_t t = padded(cell);
  const std::uint8_t* cls = m_class.data();
  const auto& around = m_hex.padded[m_hex.shifted(cell)];
  const Axial at = m_layout.toAxial(cell);
  const bool closed = cls[t] == 0 || m_uniform[std::size_t(t)] == 0;
  for (int d = 0; d < 6; ++d) {
    const bool forcedLeft = cls[t + around[std::size_t(HexDirections::turn(d, -2))]] == 0 &&
                            cls[t + around[std::size_t(HexDirections::turn(d, -1))]] != 0;
    const std::int16_t turn = m_jumps[std::size_t(t) * kJumpRecord + std::size_t(HexDirections::turn(d, 1))];
    const bool stop = closed || forcedLeft || turn > 0 || turn == kJumpFar;
    const int axis = d % 3;
    const HexLine& line = m_hexLines[std::size_t(axis)][std::size_t(hexLineKey(at, axis) - m_hexLineKeyLow[std::size_t(axis)])];
    const std::int32_t bit = hexLinePosition(at, axis) - line.low + 1;
    std::uint64_t& word = m_hexStopBits[std::size_t(d)][line.start + std::uint32_t(bit / 64)];
    const std::uint64_t mask = std::uint64_t(1) << (bit % 64);
    word = stop ? word | mask : word & ~mask;
  }
}

void SearchGrid::refreshHexJumps(std::span<const Cell> cells) {
  // An entry reads the tile ahead of it and that tile's neighbours: the entries of tiles within
  // two steps of a changed tile may change directly, and those behind them through the chain.
  std::vector<std::int32_t> seeds;
  for (const Cell cell : cells) {
    for (const NeighbourStep& a : m_layout.touching(cell)) {
      const Cell near{cell.x + a.dx, cell.y + a.dy};
      for (const NeighbourStep& b : m_layout.touching(near)) {
        const Cell far{near.x + b.dx, near.y + b.dy};
        if (contains(far)) seeds.push_back(padded(far));
      }
    }
  }
  std::sort(seeds.begin(), seeds.end());
  seeds.erase(std::unique(seeds.begin(), seeds.end()), seeds.end());
  std::vector<std::pair<std::int64_t, std::int32_t>> order(seeds.size());
  std::vector<std::int32_t> changed;  // tiles with an entry changed: their stop bits too
  for (int d = 0; d < 6; ++d) {
    // The seeds furthest along d first: the entries ahead of a seed are final when it is worked
    // on, and its walk back stops where an entry comes out as it was (the seeds behind it come
    // later).
    for (std::size_t i = 0; i < seeds.size(); ++i) order[i] = {m_hex.along(m_layout.toAxial(cellOf(seeds[i])), d), seeds[i]};
    std::sort(order.begin(), order.end(), std::greater<>());
    const int back = HexDirections::turn(d, 3);
    for (const auto& [position, seed] : order) {
      Cell at = cellOf(seed);
      bool shifted = m_hex.shifted(at);
      for (bool first = true; contains(at); first = false) {
        const std::int32_t t = padded(at);
        std::int16_t& entry = m_jumps[std::size_t(t) * kJumpRecord + std::size_t(d)];
        const std::int16_t now = hexEntry(t, shifted, d);
        if (!first && now == entry) break;
        if (now != entry) changed.push_back(t);
        entry = now;
        const Cell step = m_hex.cells[shifted][std::size_t(back)];
        at = {at.x + step.x, at.y + step.y};
        shifted = shifted != m_hex.flips[std::size_t(back)];
      }
    }
  }
  // A tile's stop bits read its class, uniform flag and neighbours' classes (the seeds are within
  // two tiles of a change) and its own entries.
  for (const std::int32_t seed : seeds) refreshHexStopBits(cellOf(seed));
  for (const std::int32_t t : changed) refreshHexStopBits(cellOf(t));
}

}  // namespace rpgnav
