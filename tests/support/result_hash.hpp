// SPDX-License-Identifier: MIT
#pragma once
// Bit-exact digests of results (FNV-1a over their bytes), for determinism and thread tests:
// two results with the same digest agree bit for bit in everything the digest covers.

#include "rpgnav/field/crowd_field.hpp"
#include "rpgnav/path/path.hpp"

#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>

namespace rpgnav::test {

class Digest {
 public:
  void bytes(const void* data, std::size_t size) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < size; ++i) m_value = (m_value ^ p[i]) * 1099511628211ull;
  }
  template <class T>
  void add(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes(&value, sizeof(T));
  }
  // A status by the number it had when the golden digests were recorded: BudgetExhausted (7)
  // has since been folded into InProgress and the statuses after it moved down one, which
  // changes no result; the goldens stay comparable across that renumbering.
  void add(Status status) {
    const auto number = std::uint8_t(status);
    add(std::uint8_t(number >= 7 ? number + 1 : number));
  }
  void add(const Vec2& point) {
    add(point.x());
    add(point.y());
  }
  template <class T>
  void addAll(std::span<const T> values) {
    add(values.size());
    for (const T& value : values) add(value);
  }
  std::uint64_t value() const noexcept { return m_value; }

 private:
  std::uint64_t m_value = 14695981039346656037ull;
};

// Everything a plan answers (not its timings): status, stops, control points, route, tiles,
// lengths and cost, detours and the smoothed curve's table.
inline void addResult(Digest& digest, const PathResult& result) {
  digest.add(result.status);
  digest.add(result.door);
  digest.add(result.blocker);
  digest.add(result.stopPoint);
  digest.addAll(std::span<const Vec2>(result.controlPoints));
  digest.addAll(std::span<const Vec2>(result.route));
  digest.addAll(std::span<const Cell>(result.tilePath));
  digest.add(result.searchLength);
  digest.add(result.length);
  digest.add(result.cost);
  for (const PathDetour& detour : result.detours) {
    digest.add(detour.around);
    digest.add(detour.groupSize);
    digest.add(detour.first);
    digest.add(detour.count);
  }
  for (const SmoothPath::Sample& sample : result.smoothed.samples()) {
    digest.add(sample.span);
    digest.add(sample.t);
    digest.add(sample.s);
    digest.add(sample.point);
  }
}

inline std::uint64_t digestOf(const PathResult& result) {
  Digest digest;
  addResult(digest, result);
  return digest.value();
}

}  // namespace rpgnav::test
