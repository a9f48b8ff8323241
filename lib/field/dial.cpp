// SPDX-License-Identifier: MIT
// The integration by Dial's algorithm: tiles settled in buckets of distance from the seeds, the
// general way for any weights, sources and door crossings, and the repair after edits.
#include "field/crowd_field_impl.hpp"

#include "field/settle_kernels.hpp"
#include "grid/step_cost.hpp"

#include <algorithm>

namespace rpgnav {

std::pair<int, std::size_t> CrowdField::Impl::bucketShape() const noexcept {
  // Dial's algorithm: buckets as wide as the largest power of two not above the cheapest step (a
  // shift finds the bucket), so a settled tile's candidates land in later buckets, never its own,
  // and each bucket is settled in any order. Circular (a power-of-two count, so a mask finds the
  // slot), enough for a step to span fewer buckets than there are, but no more than one per 16
  // tiles of the map (and 256 on small maps): a candidate further ahead (a step into heavy danger,
  // a costly door) waits in a heap until its bucket comes. So the queue's size follows the map's,
  // not the ratio of the heaviest rate to the lightest (the danger slider at 255 wanted 2,048
  // buckets on the 64×50 town, each a vector to allocate: a first build took 2.2× factor 0's).
  const std::int64_t lightest = lightestStep();
  int shift = 0;
  while ((std::int64_t(2) << shift) <= lightest) ++shift;
  const std::size_t most = std::max(kMinBucketCap, std::bit_floor(m_distance.size() / 16));
  return {shift, std::min(most, std::bit_ceil(std::size_t(((heaviestStep() + m_largestExtra) >> shift) + 2)))};
}

void CrowdField::Impl::propagate() {
  if (m_seeds.empty()) return;
  const auto [shift, count] = bucketShape();
  if (m_buckets.size() < count) m_buckets.resize(count);
  // Seeds can lie far apart (an incremental repair): they join the queue when their bucket comes,
  // so everything queued stays within one turn of the circular buckets.
  std::sort(m_seeds.begin(), m_seeds.end(), [this](std::uint32_t a, std::uint32_t b) {
    return m_distance[a] != m_distance[b] ? m_distance[a] < m_distance[b] : a < b;
  });
  // A tile improved twice while seeding is listed twice: it is settled once.
  m_seeds.erase(std::unique(m_seeds.begin(), m_seeds.end()), m_seeds.end());
  // The layouts' tables: 6 hex steps; 4 square steps, then (8-connected) 4 diagonals.
  const bool sources = !m_sources.empty();
  if (m_parityMatters) {
    sources ? propagateWith<true, 6, 0>(shift, count - 1) : propagateWith<false, 6, 0>(shift, count - 1);
  } else if (m_moves[0].size() == 4) {
    sources ? propagateWith<true, 4, 0>(shift, count - 1) : propagateWith<false, 4, 0>(shift, count - 1);
  } else {
    sources ? propagateWith<true, 4, 4>(shift, count - 1) : propagateWith<false, 4, 4>(shift, count - 1);
  }
}

// Maps of more tiles than this prefetch in propagate(): 64K tiles of distances, weights and move
// bits make 850 KB, about what a core's second-level cache holds (measured: on a 100×100 map the
// prefetches cost 5% of the integration field, on 1024×1024 they save more than that).
constexpr std::size_t kPrefetchTiles = std::size_t(1) << 16;

template <bool kSources, std::size_t kStraight, std::size_t kDiagonal>
void CrowdField::Impl::propagateWith(int shift, std::size_t mask) {
  // The move tables as plain local arrays, and the buckets as raw pointers: the stores into the
  // distances cannot alias them, so the compiler keeps them in registers.
  constexpr std::size_t kMoves = kStraight + kDiagonal;
  constexpr std::size_t kLookahead = 16;
  std::ptrdiff_t offsets[4][kMoves];
  for (std::size_t parity = 0; parity < 4; ++parity) {
    for (std::size_t k = 0; k < kMoves; ++k) offsets[parity][k] = m_moves[parity][k].offset;
  }
  // Each bucket as the end of its tiles and the end of its room, side by side (BucketSlot): both
  // are read on every push, from one cache line.
  using Slot = BucketSlot;
  const std::size_t buckets = mask + 1;
  std::vector<Slot>& slotStore = m_slotStore;
  slotStore.resize(buckets);
  for (std::size_t b = 0; b < buckets; ++b) {
    slotStore[b] = {m_buckets[b].data(), m_buckets[b].data() + m_buckets[b].size()};
  }
  Slot* slots = slotStore.data();
  // Room for `extra` more tiles in bucket `slot`.
  auto reserve = [&](std::size_t slot, std::size_t extra) {
    if (std::size_t(slots[slot].limit - slots[slot].end) < extra) [[unlikely]] {  // (no arithmetic on null)
      const std::size_t size = std::size_t(slots[slot].end - m_buckets[slot].data());
      m_buckets[slot].resize(std::max(2 * size + 16, size + extra));
      slots[slot] = {m_buckets[slot].data() + size, m_buckets[slot].data() + m_buckets[slot].size()};
    }
  };
  std::size_t queued = 0, nextSeed = 0;
  // Candidates beyond the circular buckets (see bucketShape), by bucket: they join the buckets
  // when theirs comes, as the seeds do.
  std::vector<std::pair<std::int64_t, std::uint32_t>>& far = m_far;
  far.clear();
  const auto holdFar = [&](std::int64_t bucket, std::size_t tile) {
    far.push_back({bucket, std::uint32_t(tile)});
    std::push_heap(far.begin(), far.end(), std::greater<>());
  };
  std::int64_t current = m_distance[m_seeds.front()] >> shift;
  const std::int64_t* half = m_half.data();
  const std::int64_t* halfDiagonal = m_halfDiagonal.data();
  const std::uint8_t* openBits = m_open.data();
  const std::uint8_t* fixed = m_fixed.data();
  const std::uint8_t* doorSide = m_crossings.empty() ? nullptr : m_doorSide.data();
  std::int64_t* distance = m_distance.data();
  // On maps whose arrays outgrow the caches, the weights and move bits of tiles a little ahead in
  // the bucket are fetched early; on small maps they are cached already and the fetches only cost.
  const bool prefetch = m_distance.size() > kPrefetchTiles;
  const std::ptrdiff_t rowAhead = m_stride;
  // Where a settled tile's candidates land: from `nearest` (at least 1) to `farthest` buckets
  // ahead. When those are few (weights alike), room for everything a turn can push is made once
  // per turn instead of on every push (3% of a 100×100 build).
  const std::size_t nearest = std::size_t(lightestStep() >> shift);
  const std::size_t farthest = std::size_t(heaviestStep() >> shift) + 1;
  // The least half step of each kind: a closed move's unused candidate (a wall's half is 0) is
  // priced with it, so it too lands in those buckets, where room was made.
  const std::int64_t leastHalf = halfStraightCost(m_lightest), leastHalfDiagonal = halfDiagonalCost(m_lightest);
  const bool oneRate = m_lightest == m_heaviest;
  // (Door crossings push outside that count: with them, room is made per push.)
  const bool roomPerTurn = farthest - nearest < 16 && m_crossings.empty();
  // Weights far apart (danger) space the distances over many buckets, most of them empty: a bit
  // per bucket, set on a push (maybe with nothing taken) and cleared when it is worked on, finds
  // the next bucket with tiles in a few word tests rather than a walk over the empty ones.
  // Not for a bounded field: its stop is decided bucket by bucket.
  const bool skipEmpty = !roomPerTurn && !m_stopEarly;
  std::vector<std::uint64_t>& occupiedStore = m_occupied;
  occupiedStore.assign(skipEmpty ? (buckets + 63) / 64 : 0, 0);
  std::uint64_t* occupied = occupiedStore.data();
  // The next bucket after `from` (circularly) whose bit is set, as a distance ahead (1 to buckets).
  auto nextOccupied = [&](std::size_t from) {
    for (std::size_t ahead = 1; ahead <= buckets;) {
      const std::size_t at = (from + ahead) & mask;
      const std::uint64_t bits = occupied[at >> 6] >> (at & 63);
      if (bits != 0) return ahead + std::size_t(std::countr_zero(bits));
      ahead += 64 - (at & 63);
    }
    return buckets;
  };
  // Relaxes moves [first, last) from `tile`: each neighbour's candidate is `base` (the distance
  // here and this tile's half of the step) and the neighbour's half (from `halves`), into the
  // candidate's bucket. No branch per move: a closed move, a candidate no better than the
  // neighbour's distance (nearer tiles among them) or a source's fixed price stores the old value
  // back and writes a tile past the bucket's end.
  // (Everything 64 bits wide: a narrower value spilled and reloaded whole stalls the load.)
  auto relax = [&]<std::size_t first, std::size_t last>(std::uint64_t tile, std::uint64_t bits, const std::ptrdiff_t* offset,
                                                         std::int64_t base, const std::int64_t* halves, std::int64_t least) {
    std::size_t next[last - first];
    std::int64_t candidate[last - first];
    bool alike = true;
    for (std::size_t k = first; k < last; ++k) {
      next[k - first] = std::size_t(std::ptrdiff_t(tile) + offset[k]);
      // (On a map of one rate every neighbour's half is the least, or a wall's 0: not loaded.)
      candidate[k - first] = base + (oneRate ? least : std::max(halves[next[k - first]], least));
      alike &= candidate[k - first] == candidate[0];
    }
    // Whether a move is taken: all ones when it is open and its candidate better, else zero
    // (arithmetic, not a condition: compilers turn conditions back into branches, and these are
    // unpredictable); the distance is stored either way.
    auto take = [&](std::size_t k) {
      const std::int64_t there = distance[next[k - first]];
      const std::int64_t gain = candidate[k - first] - there;  // no overflow: both lie in [0, kUnreachable]
      std::int64_t taken = (gain >> 63) & -std::int64_t((bits >> k) & 1u);
      if constexpr (kSources) taken &= std::int64_t(fixed[next[k - first]]) - 1;
      distance[next[k - first]] = there + (gain & taken);
      return taken;
    };
    if (alike) [[likely]] {
      if ((candidate[0] >> shift) - current >= std::int64_t(buckets)) [[unlikely]] {
        for (std::size_t k = first; k < last; ++k) {
          if (take(k) != 0) holdFar(candidate[k - first] >> shift, next[k - first]);
        }
        return;
      }
      // The neighbours weigh the same (open ground, a wall's least half): one bucket for all, its
      // end kept in a register (a store and reload of the end per push doubled a 100×100 build).
      const std::size_t slot = std::size_t(candidate[0] >> shift) & mask;
      if (!roomPerTurn) reserve(slot, last - first);
      std::uint32_t* out = slots[slot].end;
      std::uint32_t* const before = out;
      for (std::size_t k = first; k < last; ++k) {
        const std::int64_t taken = take(k);
        *out = std::uint32_t(next[k - first]);
        out -= taken;  // taken is 0 or -1
      }
      slots[slot].end = out;
      queued += std::size_t(out - before);
      if (skipEmpty) occupied[slot >> 6] |= std::uint64_t(1) << (slot & 63);
      return;
    }
    for (std::size_t k = first; k < last; ++k) {
      const std::int64_t taken = take(k);
      if ((candidate[k - first] >> shift) - current >= std::int64_t(buckets)) [[unlikely]] {
        if (taken != 0) holdFar(candidate[k - first] >> shift, next[k - first]);
        continue;
      }
      const std::size_t slot = std::size_t(candidate[k - first] >> shift) & mask;
      if (!roomPerTurn) reserve(slot, 1);
      *slots[slot].end = std::uint32_t(next[k - first]);
      slots[slot].end -= taken;
      queued += std::size_t(-taken);
      if (skipEmpty) occupied[slot >> 6] |= std::uint64_t(1) << (slot & 63);
    }
  };
  // The next seed's or held candidate's bucket (INT64_MAX: none).
  const auto nextWaiting = [&] {
    std::int64_t next = std::numeric_limits<std::int64_t>::max();
    if (nextSeed < m_seeds.size()) next = distance[m_seeds[nextSeed]] >> shift;
    if (!far.empty()) next = std::min(next, far.front().first);
    return next;
  };
  for (; queued > 0 || nextSeed < m_seeds.size() || !far.empty(); ++current) {
    if (queued == 0) {
      current = std::max(current, nextWaiting());
    } else if (skipEmpty && slots[std::size_t(current) & mask].end == m_buckets[std::size_t(current) & mask].data()) {
      // On to the next bucket with tiles, but not past the next seed's or held candidate's.
      const std::size_t ahead = nextOccupied(std::size_t(current) & mask);
      current = std::min(current + std::int64_t(ahead < buckets ? ahead : 1), nextWaiting());
    }
    while (nextSeed < m_seeds.size() && (distance[m_seeds[nextSeed]] >> shift) <= current) {
      const std::uint32_t seed = m_seeds[nextSeed++];
      const std::size_t slot = std::size_t(distance[seed] >> shift) & mask;
      reserve(slot, 1);
      *slots[slot].end++ = seed;
      ++queued;
      if (skipEmpty) occupied[slot >> 6] |= std::uint64_t(1) << (slot & 63);
    }
    while (!far.empty() && far.front().first <= current) {
      const std::uint32_t tile = far.front().second;
      std::pop_heap(far.begin(), far.end(), std::greater<>());
      far.pop_back();
      const std::size_t slot = std::size_t(current) & mask;
      reserve(slot, 1);
      *slots[slot].end++ = tile;
      ++queued;
      if (skipEmpty) occupied[slot >> 6] |= std::uint64_t(1) << (slot & 63);
    }
    const std::size_t slot = std::size_t(current) & mask;
    // Pushes never land in the bucket being worked on (a step is at least a bucket wide), so
    // its size and storage stay put; seeds of this bucket joined above.
    const std::uint32_t* bucket = m_buckets[slot].data();
    const std::size_t size = std::size_t(slots[slot].end - bucket);
    queued -= size;
    if (roomPerTurn) {  // each tile pushes at most kMoves, and writes one past the end
      for (std::size_t ahead = nearest; ahead <= farthest; ++ahead) reserve((slot + ahead) & mask, kMoves * (size + 1));
    }
    for (std::size_t i = 0; i < size; ++i) {
      // The bucket is in no spatial order: the weights, move bits and distances of tiles a
      // little ahead, and the distances in the rows above and below them (the wavefront's
      // first touch of a row there: 5% of Berlin's integration), are fetched now, on big maps.
      if (prefetch && i + kLookahead < size) {
        detail::prefetch(half + bucket[i + kLookahead]);
        detail::prefetch(openBits + bucket[i + kLookahead]);
        detail::prefetch(distance + bucket[i + kLookahead]);
        detail::prefetch(distance + bucket[i + kLookahead] + rowAhead);
        detail::prefetch(distance + bucket[i + kLookahead] - rowAhead);
      }
      const std::uint32_t tile = bucket[i];
      const std::int64_t here = distance[tile];
      if ((here >> shift) != current) continue;  // moved to an earlier bucket since
      // Settled. Adjacency is symmetric: each open move leads to a tile that may step here,
      // paying half the step on each of the two tiles.
      std::uint64_t bits = openBits[tile];
      // Left alone, GCC spills this as the byte it came from and reloads it as a word: the load
      // waits for the store (no forwarding from a narrower store), a third of the whole loop's
      // time in perf. Hiding that only 8 bits can be set avoids it.
      detail::forgetRange(bits);
      const std::ptrdiff_t* offset = offsets[kDiagonal == 0 && kStraight == 6 ? bits >> kParityShift : 0];
      relax.template operator()<0, kStraight>(tile, bits, offset, here + half[tile], half, leastHalf);
      if constexpr (kDiagonal > 0) {
        relax.template operator()<kStraight, kMoves>(tile, bits, offset, here + halfDiagonal[tile], halfDiagonal, leastHalfDiagonal);
      }
      if (doorSide != nullptr && doorSide[tile] != 0) [[unlikely]] {
        // Door crossings that cost extra (taken out of the ordinary moves above).
        for (const Crossing& crossing : crossingsOf(tile)) {
          const Move& move = m_moves[kStraight == 6 ? bits >> kParityShift : 0][crossing.move];
          const std::size_t next = std::size_t(std::ptrdiff_t(tile) + move.offset);
          const std::int64_t candidate = here + stepCost(tile, next, move) + crossing.extra;
          if (half[next] == 0 || candidate >= distance[next] || (kSources && fixed[next] != 0)) continue;
          distance[next] = candidate;
          if ((candidate >> shift) - current >= std::int64_t(buckets)) {
            holdFar(candidate >> shift, next);
            continue;
          }
          const std::size_t to = std::size_t(candidate >> shift) & mask;
          reserve(to, 1);
          *slots[to].end++ = std::uint32_t(next);
          ++queued;
          if (skipEmpty) occupied[to >> 6] |= std::uint64_t(1) << (to & 63);
        }
      }
    }
    // The bucket's settled tiles, noted for an incremental edit: its distances stayed put while
    // it was worked on, so they are read again here (a test per tile in the loop above cost 7% of
    // a full build).
    if (m_recording) {
      for (std::size_t i = 0; i < size; ++i) {
        if ((distance[bucket[i]] >> shift) == current) m_settled.push_back(bucket[i]);
      }
      if (m_stopEarly && m_pendingFollowers > 0) {
        for (std::size_t i = 0; i < size; ++i) {
          const std::uint32_t tile = bucket[i];
          if (m_followerMark[tile] == 0 || (distance[tile] >> shift) != current) continue;
          m_followerMark[tile] = 0;
          --m_pendingFollowers;
          m_farthestFollower = std::max(m_farthestFollower, distance[tile]);
        }
      }
      // So many that the directions will be swept whole anyway: the list is not needed.
      if (m_settled.size() > m_sweepAbove) {
        m_settled.clear();
        m_recording = false;
        m_sweepDirections = true;
      }
    }
    slots[slot].end = m_buckets[slot].data();
    if (skipEmpty) occupied[slot >> 6] &= ~(std::uint64_t(1) << (slot & 63));
    // A bounded field stops once its followers and the margin are settled: everything below
    // `end` is; what is still queued is the frontier it can grow from later.
    const std::int64_t end = (current + 1) << shift;
    if (m_stopEarly && m_pendingFollowers == 0 && end > m_farthestFollower + m_margin &&
        queued + (m_seeds.size() - nextSeed) + far.size() > 0) {
      for (std::size_t b = 0; b < buckets; ++b) {
        for (const std::uint32_t* entry = m_buckets[b].data(); entry != slots[b].end; ++entry) {
          if (distance[*entry] >= end) m_frontier.push_back(*entry);
        }
      }
      for (const auto& [bucket, tile] : far) {
        if (distance[tile] >= end) m_frontier.push_back(tile);
      }
      // (A seed not yet joined may have been reached sooner through another tile: settled.)
      for (std::size_t i = nextSeed; i < m_seeds.size(); ++i) {
        if (distance[m_seeds[i]] >= end) m_frontier.push_back(m_seeds[i]);
      }
      m_limit = end;
      return;
    }
  }
}

}  // namespace rpgnav
