// SPDX-License-Identifier: MIT
#include "core/zeroed_array.hpp"

#include <cstdlib>

#if defined(_WIN32)
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#elif defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#endif

namespace rpgnav {

void* mapZeroedPages(std::size_t bytes) noexcept {
#if defined(_WIN32)
  return VirtualAlloc(nullptr, bytes, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
#elif defined(__unix__) || defined(__APPLE__)
  void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return memory == MAP_FAILED ? nullptr : memory;
#else
  return std::calloc(bytes, 1);  // (no demand-zero pages known here: cleared now)
#endif
}

void unmapPages(void* memory, std::size_t bytes) noexcept {
#if defined(_WIN32)
  (void)bytes;
  VirtualFree(memory, 0, MEM_RELEASE);
#elif defined(__unix__) || defined(__APPLE__)
  munmap(memory, bytes);
#else
  (void)bytes;
  std::free(memory);
#endif
}

void touchPages(void* memory, std::size_t bytes) noexcept {
  // 4 KB: the smallest page of every supported system; a write per page makes it resident.
  constexpr std::size_t kPage = 4096;
  auto* bytePointer = static_cast<volatile unsigned char*>(memory);
  for (std::size_t offset = 0; offset < bytes; offset += kPage) bytePointer[offset] = 0;
}

}  // namespace rpgnav
