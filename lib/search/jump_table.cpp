// SPDX-License-Identifier: MIT
// The search grid's jump table: for each tile and straight direction the distance to the next
// tile that stops a jump, and the diagonal bits that tell where a diagonal jump stops; built
// whole and patched along the lines an edit touches.
#include "search/search_grid.hpp"

#include <algorithm>

namespace rpgnav {

namespace {

// A straight entry that stops a diagonal jump at its tile: a jump point ahead, or maybe one
// beyond 32767 tiles.
constexpr bool stopsOnJumpPoint(std::int16_t entry) noexcept { return entry > 0 || entry == SearchGrid::kJumpFar; }

}  // namespace

void SearchGrid::buildDiagonalBits() {
  const std::int32_t lines = m_width + m_height - 1;
  // Diagonal `line` of a family: its first tile's y and its length.
  auto span = [&](int family, std::int32_t line) {
    const std::int32_t c = family == 0 ? line - (m_height - 1) : line;  // x - y, or x + y
    const std::int32_t firstY = family == 0 ? std::max(0, -c) : std::max(0, c - (m_width - 1));
    const std::int32_t lastY = family == 0 ? std::min(m_height - 1, m_width - 1 - c) : std::min(m_height - 1, c);
    return std::pair{firstY, lastY - firstY + 1};
  };
  for (int family = 0; family < 2; ++family) {
    std::vector<std::uint32_t>& start = m_diagonalStart[std::size_t(family)];
    start.assign(std::size_t(lines) + 1, 0);
    for (std::int32_t line = 0; line < lines; ++line) {
      start[std::size_t(line) + 1] = start[std::size_t(line)] + 2 * std::uint32_t((span(family, line).second + 2 + 63) / 64);
    }
    // Family 0 serves directions 0 and 3, family 1 directions 1 and 2; the ends of every
    // diagonal (bits 0 and length + 1) are blocked.
    for (const int direction : {family == 0 ? 0 : 1, family == 0 ? 3 : 2}) {
      std::vector<std::uint64_t>& bits = m_diagonalBits[std::size_t(direction)];
      bits.assign(start.back(), 0);
      for (std::int32_t line = 0; line < lines; ++line) {
        std::uint64_t* words = bits.data() + start[std::size_t(line)];
        const std::int32_t end = span(family, line).second + 1;
        words[1] |= 1;
        words[2 * (end >> 6) + 1] |= std::uint64_t(1) << (end & 63);
      }
    }
  }
  refreshAllDiagonalBits();
}

void SearchGrid::refreshAllDiagonalBits() {
  for (std::int32_t y = 0; y < m_height; ++y) {
    for (std::int32_t x = 0; x < m_width; ++x) refreshDiagonalBits({x, y});
  }
  // Each tile's near stop follows from the next tile's along the diagonal: rows in the order
  // that has that tile done first.
  for (int direction = 0; direction < 4; ++direction) {
    const std::int32_t dx = diagonalDx(direction), dy = diagonalDy(direction);
    for (std::int32_t row = 0; row < m_height; ++row) {
      const std::int32_t y = dy > 0 ? m_height - 1 - row : row;
      for (std::int32_t x = 0; x < m_width; ++x) {
        const Cell next{x + dx, y + dy};
        std::int16_t near = -1;  // (past the map's edge: blocked)
        if (contains(next)) {
          const int bits = diagonalBits(next, dx, dy);
          const std::int16_t after = m_jumps[nearStopIndex(padded(next), direction)];
          near = bits != 0                                   ? std::int16_t((bits & 2) != 0 ? -1 : 1)
                 : after == 0 || std::abs(after) == kNearDiagonalReach ? std::int16_t(0)
                 : after > 0                                 ? std::int16_t(after + 1)
                                                             : std::int16_t(after - 1);
        }
        m_jumps[nearStopIndex(padded({x, y}), direction)] = near;
      }
    }
  }
}

void SearchGrid::refreshNearDiagonalStopsBefore(Cell cell, int direction) {
  const std::int32_t dx = diagonalDx(direction), dy = diagonalDy(direction);
  // The first tile with a bit set from `cell` on (itself included), then one step more for each
  // tile back: each tile's stop follows from the one ahead of it. Where a stop comes out as it
  // was, those behind it are as they were too (they follow from it, and the bits between are
  // unchanged, or walked from their own tile); behind a tile with a bit set nothing depends on
  // `cell`.
  std::int32_t bit = 0;
  const std::uint64_t* words = m_diagonalBits[std::size_t(direction)].data() + diagonalOffset(cell, dx, dy, bit);
  auto anyBit = [&](std::int32_t b) { return (((words[2 * (b >> 6)] | words[2 * (b >> 6) + 1]) >> (b & 63)) & 1u) != 0; };
  std::int32_t steps = 0;
  bool blocked = ((words[2 * (bit >> 6) + 1] >> (bit & 63)) & 1u) != 0;
  if (!anyBit(bit)) {
    const DiagonalStop stop = diagonalStop(cell, dx, dy);
    steps = stop.steps;
    blocked = stop.blocked;
  }
  // Back along the diagonal the bit index falls by dy; the bits past the map's ends are set.
  const std::int32_t back = dx + dy * paddedWidth();
  std::int32_t p = padded(cell);
  for (std::int32_t k = 1;; ++k) {
    bit -= dy;
    p -= back;
    ++steps;
    if (!contains({cell.x - k * dx, cell.y - k * dy})) return;
    const std::int16_t near = steps > kNearDiagonalReach ? std::int16_t(0) : std::int16_t(blocked ? -steps : steps);
    std::int16_t& entry = m_jumps[nearStopIndex(p, direction)];
    if (entry == near) return;
    entry = near;
    if (anyBit(bit)) return;
  }
}

unsigned SearchGrid::refreshDiagonalBits(Cell cell) {
  const std::int32_t pw = paddedWidth();
  const std::int32_t p = padded(cell);
  const std::uint8_t* cls = m_class.data();
  const std::int16_t* entries = m_jumps.data() + std::size_t(p) * kJumpRecord;
  unsigned changed = 0;
  for (int direction = 0; direction < 4; ++direction) {
    const std::int32_t dx = diagonalDx(direction), dy = diagonalDy(direction);
    // The step into the tile comes from (-dx, -dy): the tiles beside it are west or east of the
    // tile and north or south of it.
    const bool enterable = cls[p] != 0 && cls[p - dx] != 0 && cls[p - dy * pw] != 0;
    const bool stops = enterable && (m_uniform[std::size_t(p)] == 0 || stopsOnJumpPoint(entries[dx > 0 ? kEast : kWest]) ||
                                     stopsOnJumpPoint(entries[dy > 0 ? kSouth : kNorth]));
    std::int32_t bit = 0;
    std::uint64_t* words =
        m_diagonalBits[std::size_t(direction)].data() + diagonalOffset(cell, dx, dy, bit) + 2 * std::size_t(bit >> 6);
    const std::uint64_t mask = std::uint64_t(1) << (bit & 63);
    const std::uint64_t stopWord = stops ? words[0] | mask : words[0] & ~mask;
    const std::uint64_t blockedWord = enterable ? words[1] & ~mask : words[1] | mask;
    if (stopWord != words[0] || blockedWord != words[1]) changed |= 1u << direction;
    words[0] = stopWord;
    words[1] = blockedWord;
  }
  return changed;
}

int SearchGrid::diagonalBits(Cell cell, std::int32_t dx, std::int32_t dy) const noexcept {
  std::int32_t bit = 0;
  const std::uint64_t* words =
      m_diagonalBits[std::size_t(diagonalIndex(dx, dy))].data() + diagonalOffset(cell, dx, dy, bit) + 2 * std::size_t(bit >> 6);
  return int((words[0] >> (bit & 63)) & 1u) | int(((words[1] >> (bit & 63)) & 1u) << 1);
}


bool SearchGrid::hasJumps() const noexcept {
  return m_layout.kind() == LayoutKind::Square && m_layout.connectivity() == 8;
}

bool SearchGrid::keepsSuccessors() const noexcept { return hasJumps() || m_layout.isHex(); }

void SearchGrid::buildJumpLine(int direction, std::int32_t line, std::int32_t first, std::int32_t last,
                               std::vector<std::int32_t>* stopFlips) {
  // One pass along the line, against the direction, so each tile's entry follows from its
  // neighbour's: stops(p) says whether a jump arriving at p must stop there (not uniform,
  // blocked, or a forced neighbour beside it). Directions: east, west, south, north.
  const std::int32_t pw = paddedWidth(), ph = m_height + 2;
  const std::uint8_t* cls = m_class.data();
  const std::uint8_t* uniform = m_uniform.data();
  const std::int32_t steps[kJumpDirections] = {1, -1, pw, -pw};
  const std::int32_t sides[kJumpDirections] = {pw, pw, 1, 1};
  const std::int32_t step = steps[direction], side = sides[direction];
  auto stops = [&](std::int32_t p) {
    return uniform[p] == 0 || (cls[p + side] != 0 && cls[p - step + side] == 0) ||
           (cls[p - side] != 0 && cls[p - step - side] == 0);
  };
  const bool horizontal = direction < 2;
  const std::int32_t length = horizontal ? pw : ph;
  const std::int32_t paddedLine = line + 1;
  // k runs against the direction (each entry follows from the one ahead of it). An entry reads the
  // tile ahead and the tiles beside itself and ahead, so the changed span [first, last] (padded:
  // +1) reaches the entries from one before it to its end; earlier ones change only through the
  // chain, which stops changing where an entry comes out as it was.
  std::int32_t top = length - 2, bottom = 1;
  if (first != std::numeric_limits<std::int32_t>::min()) {
    const std::int32_t a = first + 1 - 1, b = last + 1;  // padded, one before the span
    top = std::min(top, step > 0 ? b : length - 1 - a);
    bottom = std::max(bottom, step > 0 ? a : length - 1 - b);
  }
  for (std::int32_t k = top; k >= 1; --k) {
    const std::int32_t along = step > 0 ? k : length - 1 - k;
    const std::int32_t t = horizontal ? paddedLine * pw + along : along * pw + paddedLine;
    const std::int32_t next = t + step;
    std::int16_t& entry = m_jumps[std::size_t(t) * kJumpRecord + std::size_t(direction)];
    const std::int16_t was = entry;
    if (cls[next] == 0) {
      entry = -1;
    } else if (stops(next)) {
      entry = 1;
    } else {
      const std::int16_t after = m_jumps[std::size_t(next) * kJumpRecord + std::size_t(direction)];
      // Saturate: beyond 32767 tiles store kJumpFar ("no stop within 32767, look again").
      entry = after == kJumpFar || after == 32767 || after == -32767 ? kJumpFar
              : after > 0                                            ? std::int16_t(after + 1)
                                                                     : std::int16_t(after - 1);
    }
    if (stopFlips != nullptr && stopsOnJumpPoint(entry) != stopsOnJumpPoint(was)) {
      stopFlips->push_back(t);
    }
    if (k < bottom && entry == was) break;
  }
}

}  // namespace rpgnav
