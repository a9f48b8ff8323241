// SPDX-License-Identifier: MIT
#pragma once
// SvgPicture's document under construction: the picture's body, its legend and the colours it
// replaced (svg.cpp draws, svg_colours.cpp picks colours). Private to lib/debug.

#include "rpgnav/debug/svg.hpp"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace rpgnav {

struct RPGNAV_HIDDEN SvgPicture::Impl {
  Impl(const TileMap& map, MobilityId mobility, float pixelsPerTile);
  void tiles(const std::vector<Cell>& cells, std::string_view colour, std::string_view label);
  void polyline(const std::vector<Vec2>& points, std::string_view colour, float width, bool dashed,
                std::string_view label);
  void curve(const std::vector<Vec2>& points, std::string_view colour, float width, std::string_view label);
  void route(const SmoothPath& path, float radius, std::string_view colour, std::string_view label,
             std::span<const Vec2> controlPoints);
  void trail(const std::vector<Vec2>& points, float radius, std::string_view colour, std::string_view label,
             bool markEnds);
  void start(Vec2 point, float radius, std::string_view label);
  void goal(Vec2 point, float radius, std::string_view label);
  void world(const World& world, bool movingEntities);
  void field(const CrowdField& field, int arrowEvery);
  void danger(const DangerMap& danger, std::uint8_t factor);
  void marker(Vec2 point, std::string_view colour, std::string_view label);
  std::string str() const;
  Status save(const std::filesystem::path& path) const;

  // The colour to draw a mark with: a labelled one's legend entry's (added the first time, its
  // colour apart from the others'), else the colour asked for or what that was replaced by.
  std::string mark(SvgLegendEntry wanted);
  // danger()'s two halves: the legend entry (its colour; empty when no tile has danger), then
  // the tiles in that colour.
  std::string dangerMark(const DangerMap& danger, std::uint8_t factor);
  void dangerTiles(const DangerMap& danger, const std::string& colour);
  // A colour near `wanted` that stands apart from every legend entry (see the class comment).
  std::string distinctColour(std::string_view wanted, SvgLegendEntry::Kind kind) const;
  // The size of a marker for a body of `radius`.
  float markerRadius(float radius) const;

  const TileMap& m_map;
  float m_scale;  // pixels per world unit
  std::string m_body;
  std::vector<SvgLegendEntry> m_legend;
  std::map<std::string, std::string, std::less<>> m_replaced;  // requested colour -> drawn colour
};

}  // namespace rpgnav
