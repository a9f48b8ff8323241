// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// The rpgnav text map format (`.rpgmap`), written by hand by designers: layout, legend, tiles,
/// designer settings (with the danger factor), doors, entities and danger layers. The README's "The rpgnav map format" section is the specification.

#include "rpgnav/core/export.hpp"
#include "rpgnav/core/status.hpp"
#include "rpgnav/grid/danger_map.hpp"
#include "rpgnav/grid/tile_map.hpp"
#include "rpgnav/world/design_settings.hpp"
#include "rpgnav/world/doors.hpp"
#include "rpgnav/world/entities.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace rpgnav {

/// A map with the doors, entities and crowd-field settings authored on it.
struct MapDocument {
  TileMap map;
  std::vector<DoorSpec> doors;
  std::vector<EntitySpec> entities;
  /// The designer's danger factor for crowd fields (CrowdField::setDangerFactor): 0 ignores
  /// danger, 255 all but ignores distance.
  std::uint8_t dangerFactor = 0;
  /// Named danger layers, in CrowdField layer order (at most kMaxDangerLayers).
  std::vector<DangerLayerSpec> dangerLayers;
  /// The designer's settings (`[settings]`): the defaults of planners and schedulers on a world
  /// given them (World::addFeatures, World::setDesignSettings).
  DesignSettings settings;
  friend bool operator==(const MapDocument&, const MapDocument&) = default;
};

/// Parses `.rpgmap` text. Errors are ParseError with "file:line:column: expected ...".
RPGNAV_API Result<MapDocument> parseRpgMap(std::string_view text, std::string_view fileName = "<text>");
RPGNAV_API Result<MapDocument> readRpgMap(const std::filesystem::path& path);
/// Writes the canonical text of a document: parseRpgMap(writeRpgMap(d)) == d, and writing that
/// again gives the same text. InvalidArgument for a document the parser would reject: a terrain
/// without a symbol, an invalid or duplicate name, a door not on an edge between two map tiles or
/// sharing its edge with another, an entity off the map or with a negative or NaN radius, a
/// danger layer with an invalid or duplicate name or without one value per tile, more than
/// kMaxDangerLayers danger layers, a setting its limits do not allow
/// (designSettingKeys).
RPGNAV_API Result<std::string> writeRpgMap(const MapDocument& document);

/// Reads a map in any supported format, chosen by how the file begins: `.map` (Moving AI,
/// "type"), Tiled `.tmx` or `.tmj` ('<' or '{', see tiled.hpp), or `.rpgmap`.
RPGNAV_API Result<MapDocument> readMapFile(const std::filesystem::path& path);

}  // namespace rpgnav
