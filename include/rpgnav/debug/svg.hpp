// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// SVG pictures of maps and paths, for debugging and documentation.

#include "rpgnav/core/export.hpp"
#include "rpgnav/core/types.hpp"
#include "rpgnav/core/status.hpp"
#include "rpgnav/field/crowd_field.hpp"
#include "rpgnav/grid/tile_map.hpp"
#include "rpgnav/path/smooth_path.hpp"
#include "rpgnav/world/world.hpp"

#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rpgnav {

/// One line of a picture's legend: a small drawing of the mark and what it means.
struct SvgLegendEntry {
  enum class Kind {
    Terrain,   ///< A terrain's colour (a filled square).
    Tiles,     ///< Outlined tiles (e.g. the A* tiles).
    Line,      ///< A polyline or curve (dashed or not).
    Route,     ///< The curve a character walks, over a band as wide as its body.
    Trail,     ///< Where a character went, over a band as wide as its body.
    Door,      ///< A door, by state.
    Entity,    ///< An entity's circle (dashed or not).
    Ring,      ///< A marker ring (e.g. where a path stops).
    Start,     ///< The start marker.
    Goal,      ///< The goal marker.
    Gradient,  ///< A range of colours (from `colour` to `colourTo`).
    Arrow,     ///< A direction arrow.
    Ramp,      ///< One colour from transparent to opaque (e.g. danger, by value).
  };
  Kind kind = Kind::Line;
  std::string colour;  ///< #rrggbb, apart from every other entry's colour (see SvgPicture).
  std::string label;
  bool dashed = false;
  bool band = false;     ///< A Route or Trail drawn over the body's width.
  std::string colourTo;  ///< The far end of a Gradient.
};

/// Builds one SVG picture: the map first, then any number of overlays, in world coordinates.
/// Square maps are drawn in runs of equal terrain per row, so large maps stay small.
///
/// Every picture reads on its own: under the map come a scale bar and a legend that names each
/// terrain colour present (with its cost for the picture's mobility) and every labelled overlay.
/// No two legend entries share a colour or look alike: an overlay's colour (#rrggbb) is a
/// request, and one closer than kMarkContrast (CIE76 ΔE) to an entry already in the legend —
/// terrain, doors, another overlay — is replaced by the nearest colour of a fixed palette that
/// stands apart from them all (terrain colours keep kTerrainContrast from each other: large
/// areas side by side can be told apart at a smaller difference than thin lines). Overlays
/// without a label use what their colour was replaced by, if it was.
class RPGNAV_API SvgPicture {
 public:
  /// Smallest colour difference (CIE76 ΔE) between two terrain entries of the legend.
  static constexpr double kTerrainContrast = 20.0;
  /// Smallest colour difference between an overlay's entry and any other entry.
  static constexpr double kMarkContrast = 30.0;
  /// Colours of the start and goal markers (replaced, like any overlay's, only when an entry
  /// drawn before them comes too close; the palette never offers them).
  static constexpr std::string_view kStartColour = "#ffff00";
  static constexpr std::string_view kGoalColour = "#ff00ff";
  /// The colour of danger 255 in crowd field pictures (danger 0 is transparent).
  static constexpr std::string_view kDangerColour = "#6a0dad";

  /// Draws the map's tiles, coloured by terrain (by name: water blue, forest green, walls dark,
  /// ...) and greyed where `mobility` cannot enter. `pixelsPerTile` sets the picture's size.
  SvgPicture(const TileMap& map, MobilityId mobility, float pixelsPerTile = 12.0f);
  SvgPicture(SvgPicture&&) noexcept;
  SvgPicture& operator=(SvgPicture&&) noexcept;
  ~SvgPicture();

  /// Outlines tiles (e.g. the A* tiles) in a colour.
  void tiles(const std::vector<Cell>& cells, std::string_view colour, std::string_view label);
  /// A polyline with its points marked; `dashed` for intermediate stages. `width` in tiles.
  void polyline(const std::vector<Vec2>& points, std::string_view colour, float width, bool dashed,
                std::string_view label);
  /// A smooth curve given as a dense polyline (no point markers). `width` in tiles.
  void curve(const std::vector<Vec2>& points, std::string_view colour, float width, std::string_view label);
  /// The curve a character of `radius` walks (the smoothed path, sampled within 0.01 tiles, in
  /// one polyline of class "route"), over a faint band of the body's width (2 × radius, class
  /// "route-band") so the room it keeps from walls and entities shows; `controlPoints` as small dots.
  void route(const SmoothPath& path, float radius, std::string_view colour, std::string_view label,
             std::span<const Vec2> controlPoints = {});
  /// Where a character of `radius` went (its positions over time; points closer than 0.02 tiles
  /// to a straight line are dropped): a line of class "trail" at most a fifth of the body's
  /// width, over a faint band of the body's width (class "trail-band"), so a trail never seems
  /// to cross a wall the body kept clear of. With `markEnds`, a start marker at the first point
  /// and the body at the last (a goal marker labelled "end of the run").
  void trail(const std::vector<Vec2>& points, float radius, std::string_view colour, std::string_view label,
             bool markEnds = true);
  /// The start marker (class "start"): a disc of the character's `radius` (at least 5 pixels
  /// across; 8 for radius 0) in kStartColour with a dark outline; `label` gets the radius.
  void start(Vec2 point, float radius, std::string_view label = "start");
  /// The goal marker (class "goal"): a ring of the character's `radius` (at least 5 pixels
  /// across; 8 for radius 0) in kGoalColour round a dot, where its body will stand; `label` gets the radius.
  void goal(Vec2 point, float radius, std::string_view label = "goal");
  /// The world's doors (coloured by state) and entities (circles of their radius; flat ones
  /// dashed, moving ones a lighter colour; `movingEntities` false leaves moving ones out, e.g.
  /// characters the caller draws itself).
  void world(const World& world, bool movingEntities = true);
  /// A crowd field: reachable tiles coloured by their distance to the goals (yellow near, dark
  /// red far; a Gradient entry gives the distances, in steps over tiles of cost 1 without
  /// danger, from the nearest to the farthest reachable tile), the danger over them (class
  /// "danger": transparent at 0 to kDangerColour at 255, a Ramp entry with the values present,
  /// none when the field has no danger), a flow arrow on every `arrowEvery`-th tile (0: none) over
  /// both, and each goal tile marked (class "goal", a "goal tile" entry).
  void field(const CrowdField& field, int arrowEvery);
  /// Danger (a world's, for a character planned with `factor`): each tile with danger shaded as
  /// in field() (class "danger", a Ramp entry with the values present and the factor; nothing
  /// when no tile has danger).
  void danger(const DangerMap& danger, std::uint8_t factor);
  /// A marker (a ring) at a point, e.g. where a path stops.
  void marker(Vec2 point, std::string_view colour, std::string_view label);

  /// The legend so far: terrain first, then overlays in the order they were drawn.
  const std::vector<SvgLegendEntry>& legend() const noexcept;
  /// CIE76 colour difference (ΔE in CIELAB, D65) of two #rrggbb colours; infinity when either
  /// is not of that form.
  static double colourDistance(std::string_view a, std::string_view b);

  /// The finished document: the map and overlays, a scale bar (class "scale-bar") and the legend.
  std::string str() const;
  /// Writes str() to a file; IoError when it cannot be written.
  Status save(const std::filesystem::path& path) const;

 private:
  // The document so far (lib/debug/svg_impl.hpp).
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace rpgnav
