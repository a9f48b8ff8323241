// SPDX-License-Identifier: MIT
// Private to lib/search: the open list's push and pop, inline in the search's loop
// (search_context.cpp); the rest is in open_list.cpp.
#pragma once

#include "search/search_context.hpp"

#include <cstdint>
#include <utility>

namespace rpgnav {

namespace detail {
// The open list's order: f, then deeper first (fewer re-expansions of equal-f plateaus), then the
// node: a total order, so the pop order and every result are the same as with any other heap.
inline bool heapLess(std::int64_t af, std::int64_t ag, std::int32_t an, std::int64_t bf, std::int64_t bg, std::int32_t bn) {
  if (af != bf) return af < bf;
  if (ag != bg) return ag > bg;  // deeper first: fewer re-expansions of equal-f plateaus
  return an < bn;
}
}  // namespace detail

[[gnu::always_inline]] inline void SearchContext::siftIn(HeapEntry entry) {
  m_heap.push_back(entry);
  std::size_t position = m_heap.size() - 1;
  while (position > 0) {
    const std::size_t parent = (position - 1) / 4;
    const HeapEntry& above = m_heap[parent];
    if (!detail::heapLess(entry.f, entry.g, entry.node, above.f, above.g, above.node)) break;
    m_heap[position] = above;
    position = parent;
  }
  m_heap[position] = entry;
}

// The open list's least entry is often the one pushed last (a jump toward the goal keeps f):
// the best of the entries pushed since the last pop waits outside the heap, and a pop that finds
// it below the heap's top takes it without sifting. Pops come out in the same order.
[[gnu::always_inline]] inline void SearchContext::heapPush(HeapEntry entry) {
  ++m_generated;
  if (!m_hasHeld) {
    m_held = entry;
    m_hasHeld = true;
    return;
  }
  if (detail::heapLess(entry.f, entry.g, entry.node, m_held.f, m_held.g, m_held.node)) std::swap(entry, m_held);
  if (m_bucketed) [[unlikely]] {  // (out of line: the plain searches' push stays small)
    settle(entry);
    return;
  }
  siftIn(entry);
}

inline SearchContext::HeapEntry SearchContext::heapPop() {
  if (m_hasHeld && (m_heap.empty() || detail::heapLess(m_held.f, m_held.g, m_held.node, m_heap.front().f, m_heap.front().g,
                                                 m_heap.front().node))) {
    m_hasHeld = false;
    return m_held;
  }
  return siftOut();
}

}  // namespace rpgnav
