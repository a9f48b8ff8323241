// SPDX-License-Identifier: MIT
// Private to lib/io: a Tiled map as Tiled describes it, before any rpgnav rule applies. The front
// ends (tiled_read.cpp: TMX through Boost.PropertyTree's XML parser, TMJ through its JSON one)
// fill it; the back end (tiled.cpp) turns it into a MapDocument.
#pragma once

#include "rpgnav/io/tiled.hpp"

#include "io/text_reader.hpp"

#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace rpgnav::tiled {

using detail::quote;

// Deeper nesting than any Tiled map has (groups in groups) would only exhaust the parsers' stack.
inline constexpr int kMaxNesting = 64;
// Tile ids carry flip and rotation flags in their top four bits.
inline constexpr std::uint32_t kGidMask = 0x0FFFFFFFu;

using Properties = std::map<std::string, std::string>;

struct Object {
  std::string name, kind;  // kind: the class (`type` before Tiled 1.9)
  double x = 0, y = 0, width = 0, height = 0;
  Properties properties;
};

// The map as Tiled describes it, before any rpgnav rule applies.
struct TiledMap {
  std::string orientation, staggerAxis = "y", staggerIndex = "odd";
  std::int64_t width = 0, height = 0;
  double tileWidth = 0, tileHeight = 0, hexSide = 0;
  bool infinite = false;
  Properties properties;  // the map's own
  std::map<std::uint32_t, Properties> tiles;  // by global tile id
  std::vector<std::vector<std::uint32_t>> layers;  // terrain layers, bottom to top, width × height ids each
  struct DangerLayer {
    std::string name;
    std::vector<std::uint32_t> ids;
  };
  std::vector<DangerLayer> dangerLayers;  // tile layers of class `danger`, in drawing order
  std::vector<Object> objects;
};

// Thrown inside the front ends and turned into an Error at the API (Boost.PropertyTree throws
// too, so one catch serves both).
struct Failure {
  Status status;
  std::string message;
  std::string property;  // a map property the failure is about: its line is looked up in the text
};

[[noreturn]] inline void fail(const std::string& message) { throw Failure{Status::ParseError, message}; }
[[noreturn]] inline void failProperty(const std::string& property, const std::string& message) {
  throw Failure{Status::ParseError, "map property " + property + ": " + message, property};
}

inline std::int64_t integer(const std::string& text, const std::string& what) {
  std::int64_t value = 0;
  if (!detail::parseInteger(text, value)) fail("expected an integer " + what + ", found " + quote(text));
  return value;
}

inline double number(const std::string& text, const std::string& what) {
  double value = 0;
  if (!detail::parseDouble(text, value)) fail("expected a number " + what + ", found " + quote(text));
  return value;
}

// The front ends (they throw Failure, or Boost.PropertyTree's errors).
TiledMap readTmx(std::string_view text, const std::filesystem::path& folder);
TiledMap readTmj(std::string_view text, const std::filesystem::path& folder);

}  // namespace rpgnav::tiled
