// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// ZeroedArray: a large array whose elements start as all-zero bytes, made in O(1) — its memory
/// comes from the operating system as pages that are zeroed when first touched, so a search that
/// touches a corner of a map's node array pays for that corner only, not for the whole map.

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace rpgnav {

/// `bytes` of zeroes, as pages the operating system zeroes on first touch (nullptr when it has
/// none to give), and their release.
void* mapZeroedPages(std::size_t bytes) noexcept;
void unmapPages(void* memory, std::size_t bytes) noexcept;
/// Writes a zero into every page of `bytes` zeroes at `memory` (which keep their value).
void touchPages(void* memory, std::size_t bytes) noexcept;

/// Reserves `count` elements of a vector and writes them once, so that their pages are resident
/// before the first search (reserve alone leaves fresh pages that the first push would fault in).
template <class Vector>
void reserveResident(Vector& vector, std::size_t count) {
  vector.resize(count);
  vector.clear();
}

/// For trivially copyable T whose all-zero bytes are a valid value. Move-only.
template <class T>
class ZeroedArray {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  ZeroedArray() = default;
  ZeroedArray(const ZeroedArray&) = delete;
  ZeroedArray& operator=(const ZeroedArray&) = delete;
  ZeroedArray(ZeroedArray&& other) noexcept
      : m_data(std::exchange(other.m_data, nullptr)), m_size(std::exchange(other.m_size, 0)) {}
  ZeroedArray& operator=(ZeroedArray&& other) noexcept {
    if (this != &other) {
      release();
      m_data = std::exchange(other.m_data, nullptr);
      m_size = std::exchange(other.m_size, 0);
    }
    return *this;
  }
  ~ZeroedArray() { release(); }

  /// Drops the contents and makes `count` elements of zero bytes (no work per element: fresh
  /// pages). Throws std::bad_alloc when the memory cannot be had.
  void reset(std::size_t count) {
    release();
    if (count == 0) return;
    void* memory = mapZeroedPages(count * sizeof(T));
    if (memory == nullptr) throw std::bad_alloc();
    m_data = static_cast<T*>(memory);
    m_size = count;
  }

  /// Has the operating system hand out every page now (one write per page), so that later
  /// first touches cost nothing: for an owner that knows it will use the whole array and would
  /// rather pay when it is made than during its first use.
  void touchAll() noexcept { touchPages(m_data, m_size * sizeof(T)); }

  std::size_t size() const noexcept { return m_size; }
  T* data() noexcept { return m_data; }
  T& operator[](std::size_t i) noexcept { return m_data[i]; }
  const T& operator[](std::size_t i) const noexcept { return m_data[i]; }

 private:
  void release() noexcept {
    if (m_data == nullptr) return;
    unmapPages(m_data, m_size * sizeof(T));
    m_data = nullptr;
    m_size = 0;
  }

  T* m_data = nullptr;
  std::size_t m_size = 0;
};

}  // namespace rpgnav
