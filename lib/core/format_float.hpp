// SPDX-License-Identifier: MIT
// Private: the shortest text of a float that reads back to exactly it (map files, error messages).
#pragma once

#include <charconv>
#include <string>
#include <system_error>

namespace rpgnav::detail {

inline std::string formatFloat(float value) {
  char buffer[32];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return error == std::errc{} ? std::string(buffer, end) : std::string("nan");
}

}  // namespace rpgnav::detail
