// SPDX-License-Identifier: MIT
#pragma once
// The C API's name of a C++ status ("StoppedAtDoor" -> "RPGNAV_STOPPED_AT_DOOR"): what the tests
// of the C API and the C# binding compare the C answers with.
#include "rpgnav/core/status.hpp"

#include <cctype>
#include <string>

namespace rpgnav::test {

inline std::string cStatusName(Status status) {
  std::string name = "RPGNAV";
  for (const char c : toString(status)) {
    if (c >= 'A' && c <= 'Z') name += '_';
    name += char(std::toupper(static_cast<unsigned char>(c)));
  }
  return name;
}

}  // namespace rpgnav::test
