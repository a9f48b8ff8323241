// SPDX-License-Identifier: MIT
#pragma once
// Counts heap allocations made by this test binary (global operator new is replaced in
// allocation_counter.cpp), so tests can prove a code path allocates nothing.

#include <cstdint>

namespace rpgnav::test {

/// Allocations since the program started (all threads).
std::uint64_t allocationCount() noexcept;

}  // namespace rpgnav::test
