// SPDX-License-Identifier: MIT
#pragma once
// Helpers shared by the tests: small maps from ASCII art, random maps, paths to data folders.

#include "rpgnav/grid/danger_map.hpp"
#include "rpgnav/grid/tile_map.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rpgnav::test {

struct AssertionFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Terrain used by test maps: '.' floor (walk 1, fly 1), '#' wall (nothing), '~' water (swim 1,
/// fly 1), ',' swamp (walk 3, swim 2, fly 1), 'h' hills (walk 2, fly 1).
TerrainTable testTerrain();

/// A map from rows of symbols of testTerrain(), e.g. {"..#", ".~."}.
TileMap mapFromAscii(const Layout& layout, std::initializer_list<std::string_view> rows);
/// The same from rows built at run time.
TileMap mapFromRows(const Layout& layout, std::span<const std::string_view> rows);

/// A random map of testTerrain() symbols where each tile is a wall with probability `wallRate`
/// and otherwise floor, water, swamp or hills with the given weights.
TileMap randomMap(std::mt19937& random, const Layout& layout, int width, int height, double wallRate,
                  bool varyTerrain = true);

/// Random danger for a map: a layer (one value per tile) with four square blobs of `values`
/// (picked at random; few distinct values keep (terrain, danger) pairs within a terrain table)
/// and a flat stamp of `stampPeak`, 2.5 tiles round a random tile's centre.
struct RandomDanger {
  std::vector<std::uint8_t> layer;
  DangerMap::Stamp stamp;
};
RandomDanger randomDanger(std::mt19937& random, const TileMap& map, std::span<const std::uint8_t> values,
                          std::uint8_t stampPeak);

/// The layouts every geometry test runs on: square, and pointy and flat hexes with either stagger.
std::vector<Layout> allLayouts();

/// samples/maps in the source tree.
std::filesystem::path sampleMapsDir();
/// tests/data in the source tree (maps of the regression cases, in cases/).
std::filesystem::path testDataDir();
/// The Moving AI benchmark folder, if present (tests that need it skip otherwise: see
/// RPGNAV_SKIP_TEST).
std::optional<std::filesystem::path> movingAiDir();

/// Ends a test case that cannot run here (its data is absent) and has ctest report it as skipped:
/// tests/CMakeLists.txt gives every test SKIP_REGULAR_EXPRESSION on this marker. Catch2 2.13 has
/// no SKIP of its own; a warning is printed whether the test passes or not.
#define RPGNAV_SKIP_TEST(why)               \
  do {                                      \
    WARN("rpgnav-test-skipped: " << why);   \
    return;                                 \
  } while (false)

}  // namespace rpgnav::test

#include <catch2/catch.hpp>
#include <sstream>

namespace Catch {
template <>
struct StringMaker<rpgnav::Cell> {
  static std::string convert(rpgnav::Cell c) {
    std::ostringstream out;  // not "(" + std::string: GCC 12 warns falsely on that (-Wrestrict)
    out << '(' << c.x << ',' << c.y << ')';
    return out.str();
  }
};
}  // namespace Catch
