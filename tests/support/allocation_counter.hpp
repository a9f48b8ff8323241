// SPDX-License-Identifier: MIT
#pragma once
// Counts heap allocations made by this test binary (global operator new is replaced in
// allocation_counter.cpp), so tests can prove a code path allocates nothing.

#include "rpgnav/path/planner.hpp"

#include <cstdint>
#include <span>

namespace rpgnav::test {

/// Allocations since the program started (all threads).
std::uint64_t allocationCount() noexcept;

/// The allocations of planning `requests` into `result` once more, after a first round that warms
/// the planner and the result up: 0 when warm plans allocate nothing.
std::uint64_t warmPlanAllocations(Planner& planner, std::span<const PathRequest> requests, PathResult& result);

}  // namespace rpgnav::test
