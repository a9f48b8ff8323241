// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// Maps made with the Tiled editor (https://www.mapeditor.org), the tool RPG makers draw their
/// maps in: TMX (XML) and TMJ (JSON), orthogonal and hexagonal (staggered) maps.
///
/// What rpgnav reads from a Tiled map:
/// - Terrain from tile properties. A tile that names a terrain has a string property `terrain`
///   (the terrain's name) and, for every mobility that may enter it, a number property named
///   after the mobility with its cost (`walk`, `swim`, `fly`, or one the map property
///   `mobilities` declares, e.g. "climb, burrow"); no such property: the mobility cannot enter.
///   Other properties are the game's own and ignored. Tiles naming the same terrain must agree
///   on its costs. On every cell the top-most tile layer whose tile names a terrain decides
///   (decorations without `terrain` are looked through); a cell with none is `void`, which
///   nothing enters. Layers inside groups count, in drawing order.
/// - Doors and entities from object layers: objects whose class (`type` before Tiled 1.9) is
///   `door` or `entity`. A door sits on the tile edge nearest its centre, with the string
///   properties `state` (`open`, `closed` or `locked`; default `closed`) and `key`. An entity
///   stands at its centre with the number property `radius` in tiles (default: half the
///   object's smaller side, or 0.5 for a point) and the bool property `flat`.
/// - Crowd-field danger (see CrowdField): the map property `danger-factor` (int 0-255, default
///   0) is the document's dangerFactor, and every tile layer whose class is `danger` (Layer
///   Properties, Class; Tiled 1.9 or later) is a danger layer named by the layer's name, in
///   drawing order (at most 8; names of letters, digits, `_`, `-`, `.`, each once). A cell's
///   danger is its tile's int property `danger` (0-255); a tile without it, or an empty cell,
///   is 0. Danger layers are never terrain layers: their tiles are not looked at for terrain.
///   A value or factor outside 0-255 or not a whole number is an error naming the layer and tile
///   (the factor: the property and its line).
/// - Designer settings (MapDocument::settings): map properties (float, or strings holding a
///   number) named as in an `.rpgmap`'s `[settings]`: `comfort`, `smoothing`, `detour-margin`,
///   `door-cost-open`, `door-cost-closed`, `door-cost-locked`, `replan-interval`, `stickiness`
///   (limits: designSettingKeys). A value out of its limits or not a number is an error naming
///   the file, the property's line and the limits.
/// - Layer data as CSV, Base64 (uncompressed, zlib or gzip) or XML `<tile>` elements; tile flip
///   bits are ignored. Tilesets embedded or external (`.tsx`, `.tsj`, read from the map's
///   folder).
///
/// World units are tiles: a square map's tile (x, y) spans [x, x + 1] × [y, y + 1] whatever its
/// pixel size; hexagonal maps become rpgnav's pointy (stagger axis y) or flat (stagger axis x)
/// layouts, whose tile size is the distance between neighbouring centres, with the map's stagger
/// index (odd or even) as their HexStagger. Not supported, each with a clear error: isometric and
/// staggered (non-hexagonal) maps, infinite maps and zstd compression.
///
/// Terrains get the symbols `A`-`Z`, `a`-`z`, `0`-`9` in the order they appear, so a map read
/// from Tiled can be written as `.rpgmap` (writeRpgMap).

#include "rpgnav/core/export.hpp"
#include "rpgnav/io/rpgmap.hpp"

#include <filesystem>
#include <string_view>

namespace rpgnav {

/// Parses TMX or TMJ text (told apart by the first character, `<` or `{`). External tilesets
/// are read relative to the folder of `fileName`. Errors are ParseError with "file: ..." (and
/// the line where the XML or JSON parser knows it), IoError for an external tileset that cannot
/// be read.
RPGNAV_API Result<MapDocument> parseTiledMap(std::string_view text, std::string_view fileName = "<text>");
/// Reads a `.tmx` or `.tmj` file.
RPGNAV_API Result<MapDocument> readTiledMap(const std::filesystem::path& path);

}  // namespace rpgnav
