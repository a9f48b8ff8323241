// SPDX-License-Identifier: MIT
#include "rpgnav/core/status.hpp"

namespace rpgnav {

std::string_view toString(Status status) noexcept {
  switch (status) {
    case Status::Ok: return "Ok";
    case Status::PartialPath: return "PartialPath";
    case Status::InProgress: return "InProgress";
    case Status::NoPath: return "NoPath";
    case Status::StartBlocked: return "StartBlocked";
    case Status::GoalBlocked: return "GoalBlocked";
    case Status::OutOfBounds: return "OutOfBounds";
    case Status::InvalidArgument: return "InvalidArgument";
    case Status::ParseError: return "ParseError";
    case Status::IoError: return "IoError";
    case Status::StoppedAtDoor: return "StoppedAtDoor";
    case Status::BlockedByEntity: return "BlockedByEntity";
    case Status::LimitExceeded: return "LimitExceeded";
  }
  return "Unknown";
}

}  // namespace rpgnav
