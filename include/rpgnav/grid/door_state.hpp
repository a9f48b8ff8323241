// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// A door's state: map vocabulary shared by the world's doors, the crowd fields and the map files.

#include "rpgnav/core/export.hpp"

#include <cstdint>
#include <string_view>

namespace rpgnav {

enum class DoorState : std::uint8_t { Open, Closed, Locked };

/// "open", "closed", "locked".
RPGNAV_API std::string_view toString(DoorState state) noexcept;

}  // namespace rpgnav
