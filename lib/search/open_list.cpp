// SPDX-License-Identifier: MIT
// The search's open list, its parts off the hot path (open_list.hpp has the push and the pop):
// clearing, the buckets, and sifting down.
#include "search/search_context.hpp"

#include "search/open_list.hpp"

#include <algorithm>

namespace rpgnav {

// A four-ary min-heap of open entries, ordered by heapLess: four children per entry halve the
// depth a pop sifts through against a binary heap; the children sit side by side in memory.

void SearchContext::clearOpen() {
  m_heap.clear();
  m_hasHeld = false;
  // (A context moved from has no buckets left, whatever its counts say.)
  for (std::size_t k = m_nextBucket; k < std::min(m_bucketsUsed, m_buckets.size()); ++k) m_buckets[k].clear();
  m_nextBucket = m_bucketsUsed = 0;
  m_beyond.clear();
}

// (Inline in settle, on every bucketed push.)
[[gnu::always_inline]] inline void SearchContext::putInBucket(std::size_t index, HeapEntry entry) {
  if (index >= m_buckets.size()) [[unlikely]] m_buckets.resize(index + 1);
  m_buckets[index].push_back(entry);
  m_bucketsUsed = std::max(m_bucketsUsed, index + 1);
}

[[gnu::noinline]] void SearchContext::refillHeap() {
  while (m_heap.empty()) {
    if (m_nextBucket == m_bucketsUsed) {
      // The buckets ran dry: those beyond them start a new run of buckets at the least of them.
      if (m_beyond.empty()) return;
      std::int64_t least = m_beyond.front().f;
      for (const HeapEntry& entry : m_beyond) least = std::min(least, entry.f);
      m_firstBucketKey = least >> kBucketShift;
      m_nextBucket = m_bucketsUsed = 0;
      std::size_t kept = 0;
      for (const HeapEntry& entry : m_beyond) {
        const std::size_t index = std::size_t((entry.f >> kBucketShift) - m_firstBucketKey);
        if (index < kBucketCount) {
          putInBucket(index, entry);
        } else {
          m_beyond[kept++] = entry;
        }
      }
      m_beyond.resize(kept);
    }
    // The next bucket's entries go into the heap, in heap order bottom-up (Floyd): linear in
    // their number. Entries an improvement has outdated since they were bucketed stay out: the
    // pop would skip them anyway (the same order of live pops), after sifting them out. On
    // weighted hex maps, where a tile is often reached again more cheaply, that is about half
    // a bucket's entries.
    std::vector<HeapEntry>& bucket = m_buckets[m_nextBucket++];
    m_heap.clear();
    for (const HeapEntry& entry : bucket) {
      const Node& node = m_inArray ? m_nodes[std::size_t(entry.node)] : m_compactNodes[entry.slot];
      if ((node.stamp & kClosedBit) == 0 && entry.g == node.g) m_heap.push_back(entry);
    }
    bucket.clear();
    if (m_heap.size() > 1) {
      for (std::size_t k = (m_heap.size() - 2) / 4 + 1; k-- > 0;) siftDown(k);  // (from the last parent)
    }
  }
}

[[gnu::noinline]] void SearchContext::settle(HeapEntry entry) {
  // Buckets up to the last one moved into the heap are the heap's (an f below the start's,
  // under the landmarks' rounding, too); past the last bucket, m_beyond.
  const std::int64_t key = (entry.f >> kBucketShift) - m_firstBucketKey;
  if (key < std::int64_t(m_nextBucket)) {
    siftIn(entry);
    return;
  }
  if (key >= std::int64_t(kBucketCount)) {
    m_beyond.push_back(entry);
    return;
  }
  putInBucket(std::size_t(key), entry);
}

[[gnu::always_inline]] inline void SearchContext::siftDown(std::size_t position) {
  HeapEntry* heap = m_heap.data();
  const std::size_t size = m_heap.size();
  const HeapEntry moving = heap[position];
  while (true) {
    const std::size_t first = 4 * position + 1;
    if (first >= size) break;
    std::size_t child = first;
    const std::size_t end = std::min(first + 4, size);
    for (std::size_t other = first + 1; other < end; ++other) {
      if (detail::heapLess(heap[other].f, heap[other].g, heap[other].node, heap[child].f, heap[child].g, heap[child].node)) {
        child = other;
      }
    }
    const HeapEntry& below = heap[child];
    if (!detail::heapLess(below.f, below.g, below.node, moving.f, moving.g, moving.node)) break;
    heap[position] = below;
    position = child;
  }
  heap[position] = moving;
}

SearchContext::HeapEntry SearchContext::siftOut() {
  const HeapEntry top = m_heap.front();
  m_heap.front() = m_heap.back();
  m_heap.pop_back();
  if (!m_heap.empty()) siftDown(0);
  return top;
}

}  // namespace rpgnav
