// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// The segment tester's answers within one plan, so that a segment the stages ask about again is
/// not measured again.
///
/// Why: stages 3-6 and the second run without comfort (Planner's refine) ask about the same
/// segments over and over — straightening measures the polyline it replaces, corner routing the
/// way through a point at every level of comfort, the second straightening what the first kept.
/// On the hex wilderness sample 47% of a plan's probes repeat one made earlier in the plan (298
/// a plan, 159 distinct), on the square town 35% (170, 111); a hex probe over ground of several
/// costs is a fraction of a microsecond to several. The answers depend only on the tester (the
/// map and the mobility, which do not change during a plan) and the segment's ends, radius and
/// clearance, so a remembered answer is the answer, bit for bit. Barriers (doors, personal
/// spaces) are not remembered: StageContext applies them to every answer, as before.

#include "grid/segment_tester.hpp"

#include <array>
#include <bit>
#include <cstdint>

namespace rpgnav::detail {

class ProbeMemo {
 public:
  /// Forgets every answer (at the start of each plan: the map may have changed since the last).
  void clear() noexcept {
    if (++m_generation == 0) {  // (after 2³² plans: stamps from the previous cycle would match)
      for (Entry& entry : m_entries) entry.generation = 0;
      m_generation = 1;
    }
  }

  /// tester.probe(from, to, radius).
  SegmentProbe probe(const SegmentTester& tester, Vec2 from, Vec2 to, float radius) {
    Entry* entry = find(tester, Kind::Probe, from, to, radius, 0.0f);
    if (entry == nullptr) return tester.probe(from, to, radius);
    if (entry->generation != m_generation) {
      entry->result = tester.probe(from, to, radius);
      entry->generation = m_generation;
    }
    return entry->result;
  }

  /// tester.probeKeeping(from, to, radius, clearance, keepsClearance), which is a probe and, when
  /// clear, keeps(): asked as those two, so that either answers later questions of the other kind.
  SegmentProbe probeKeeping(const SegmentTester& tester, Vec2 from, Vec2 to, float radius, float clearance,
                            bool& keepsClearance) {
    const SegmentProbe result = probe(tester, from, to, radius);
    keepsClearance = result.clear && keeps(tester, from, to, clearance);
    return result;
  }

  /// `measure()`, the dearest tile a segment crosses (StageContext::dearestTerrain, which reads the
  /// tester's map for its mobility) given the segment's probe: remembered with the probe's cost
  /// and length, and measured again for a probe that differs from those.
  template <class Measure>
  double dearest(const SegmentTester& tester, Vec2 from, Vec2 to, const SegmentProbe& probe, Measure&& measure) {
    Entry* entry = find(tester, Kind::Dearest, from, to, 0.0f, 0.0f);
    if (entry == nullptr) return measure();
    if (entry->generation != m_generation || entry->result.cost != probe.cost || entry->result.length != probe.length) {
      entry->value = measure();
      entry->result.cost = probe.cost;
      entry->result.length = probe.length;
      entry->generation = m_generation;
    }
    return entry->value;
  }

  /// tester.keeps(from, to, clearance).
  bool keeps(const SegmentTester& tester, Vec2 from, Vec2 to, float clearance) {
    Entry* entry = find(tester, Kind::Keeps, from, to, 0.0f, clearance);
    if (entry == nullptr) return tester.keeps(from, to, clearance);
    if (entry->generation != m_generation) {
      entry->keeps = tester.keeps(from, to, clearance);
      entry->generation = m_generation;
    }
    return entry->keeps;
  }

 private:
  enum class Kind : std::uint32_t { Probe, Keeps, Dearest };
  // Slots, and how many a key may look at before it is measured without being remembered (a
  // plan of thousands of distinct probes only stops gaining).
  static constexpr std::size_t kSlots = 512;
  static constexpr std::size_t kSearch = 8;

  struct Entry {
    std::array<std::uint32_t, 7> key{};  // the question, and the bits of the ends, radius and clearance
    const SegmentTester* tester = nullptr;
    std::uint32_t generation = 0;  // the plan it was written in (0: never)
    bool keeps = false;
    SegmentProbe result;  // (a dearest: the probe's cost and length it was measured for)
    double value = 0.0;   // a dearest's answer
  };

  // The slot that holds (or may hold) the key, marked stale when it is empty or out of date;
  // nullptr when the key's slots are all taken by other answers of this plan.
  Entry* find(const SegmentTester& tester, Kind kind, Vec2 from, Vec2 to, float radius, float clearance) noexcept {
    const std::array<std::uint32_t, 7> key{std::uint32_t(kind),
                                           std::bit_cast<std::uint32_t>(from.x()), std::bit_cast<std::uint32_t>(from.y()),
                                           std::bit_cast<std::uint32_t>(to.x()),   std::bit_cast<std::uint32_t>(to.y()),
                                           std::bit_cast<std::uint32_t>(radius),   std::bit_cast<std::uint32_t>(clearance)};
    std::uint64_t hash = 0x9e3779b97f4a7c15ull;
    for (const std::uint32_t word : key) hash = (hash ^ word) * 0xff51afd7ed558ccdull;
    hash ^= hash >> 29;
    for (std::size_t i = 0; i < kSearch; ++i) {
      Entry& entry = m_entries[(hash + i) & (kSlots - 1)];
      if (entry.generation != m_generation) {  // free in this plan: the key's slot
        entry.key = key;
        entry.tester = &tester;
        return &entry;
      }
      if (entry.key == key && entry.tester == &tester) return &entry;
    }
    return nullptr;
  }

  std::array<Entry, kSlots> m_entries{};
  std::uint32_t m_generation = 1;
};

}  // namespace rpgnav::detail
