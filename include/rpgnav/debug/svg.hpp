// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// SVG pictures of maps and paths, for debugging and documentation.

#include "rpgnav/core/types.hpp"
#include "rpgnav/core/status.hpp"
#include "rpgnav/field/crowd_field.hpp"
#include "rpgnav/grid/tile_map.hpp"
#include "rpgnav/world/world.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace rpgnav {

/// Builds one SVG picture: the map first, then any number of overlays, in world coordinates.
/// Square maps are drawn in runs of equal terrain per row, so large maps stay small.
class SvgPicture {
 public:
  /// Draws the map's tiles, coloured by terrain (by name: water blue, forest green, walls dark,
  /// ...) and greyed where `mobility` cannot enter. `pixelsPerTile` sets the picture's size.
  SvgPicture(const TileMap& map, MobilityId mobility, float pixelsPerTile = 12.0f);

  /// Outlines tiles (e.g. the A* tiles) in a colour.
  void tiles(const std::vector<Cell>& cells, std::string_view colour, std::string_view label);
  /// A polyline with its points marked; `dashed` for intermediate stages.
  void polyline(const std::vector<Vec2>& points, std::string_view colour, float width, bool dashed,
                std::string_view label);
  /// A smooth curve given as a dense polyline (no point markers).
  void curve(const std::vector<Vec2>& points, std::string_view colour, float width, std::string_view label);
  /// The world's doors (coloured by state) and entities (circles of their radius; flat ones
  /// dashed, moving ones a lighter colour).
  void world(const World& world);
  /// A crowd field: reachable tiles coloured by their distance to the goals (yellow near, dark
  /// red far), the goals marked, and a flow arrow on every `arrowEvery`-th tile (0: none).
  void field(const CrowdField& field, int arrowEvery);
  /// A marker (a ring) at a point, e.g. where a path stops.
  void marker(Vec2 point, std::string_view colour, std::string_view label);

  /// The finished document, with a legend of the labelled overlays.
  std::string str() const;
  /// Writes str() to a file; IoError when it cannot be written.
  Status save(const std::filesystem::path& path) const;

 private:
  const TileMap& m_map;
  float m_scale;
  std::string m_body;
  std::vector<std::pair<std::string, std::string>> m_legend;  // colour, label
};

}  // namespace rpgnav
