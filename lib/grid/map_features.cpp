// SPDX-License-Identifier: MIT
#include "rpgnav/grid/map_features.hpp"

namespace rpgnav {

const char* doorStateName(DoorState state) noexcept {
  switch (state) {
    case DoorState::Open: return "open";
    case DoorState::Closed: return "closed";
    case DoorState::Locked: return "locked";
  }
  return "unknown";
}

}  // namespace rpgnav
