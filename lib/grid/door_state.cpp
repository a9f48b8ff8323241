// SPDX-License-Identifier: MIT
#include "rpgnav/grid/door_state.hpp"

namespace rpgnav {

std::string_view toString(DoorState state) noexcept {
  switch (state) {
    case DoorState::Open: return "open";
    case DoorState::Closed: return "closed";
    case DoorState::Locked: return "locked";
  }
  return "unknown";
}

}  // namespace rpgnav
