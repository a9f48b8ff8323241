// SPDX-License-Identifier: MIT
#include "support/test_maps.hpp"

#include <algorithm>
#include <vector>

namespace rpgnav::test {

TerrainTable testTerrain() {
  TerrainTable table;
  const TerrainId floor = table.addTerrain("floor", '.').value();
  (void)table.addTerrain("wall", '#').value();
  const TerrainId water = table.addTerrain("water", '~').value();
  const TerrainId swamp = table.addTerrain("swamp", ',').value();
  const TerrainId hills = table.addTerrain("hills", 'h').value();
  (void)table.setCost(floor, TerrainTable::kWalk, 1.0f);
  (void)table.setCost(floor, TerrainTable::kFly, 1.0f);
  (void)table.setCost(water, TerrainTable::kSwim, 1.0f);
  (void)table.setCost(water, TerrainTable::kFly, 1.0f);
  (void)table.setCost(swamp, TerrainTable::kWalk, 3.0f);
  (void)table.setCost(swamp, TerrainTable::kSwim, 2.0f);
  (void)table.setCost(swamp, TerrainTable::kFly, 1.0f);
  (void)table.setCost(hills, TerrainTable::kWalk, 2.0f);
  (void)table.setCost(hills, TerrainTable::kFly, 1.0f);
  return table;
}

TileMap mapFromAscii(const Layout& layout, std::initializer_list<std::string_view> rows) {
  return mapFromRows(layout, std::span<const std::string_view>(rows.begin(), rows.size()));
}

TileMap mapFromRows(const Layout& layout, std::span<const std::string_view> rows) {
  const TerrainTable terrain = testTerrain();
  const auto height = std::int32_t(rows.size());
  if (rows.empty()) throw std::invalid_argument("empty test map");
  const auto width = std::int32_t(rows.begin()->size());
  std::vector<TerrainId> tiles;
  for (std::string_view row : rows) {
    if (std::int32_t(row.size()) != width) throw std::invalid_argument("ragged test map");
    for (char symbol : row) {
      const auto id = terrain.findTerrainBySymbol(symbol);
      if (!id) throw std::invalid_argument(std::string("unknown test map symbol ") + symbol);
      tiles.push_back(*id);
    }
  }
  return TileMap::create(layout, width, height, terrain, std::move(tiles)).value();
}

RandomDanger randomDanger(std::mt19937& random, const TileMap& map, std::span<const std::uint8_t> values,
                          std::uint8_t stampPeak) {
  RandomDanger danger;
  danger.layer.assign(std::size_t(map.tileCount()), 0);
  for (int blob = 0; blob < 4; ++blob) {
    const int cx = std::uniform_int_distribution<int>(0, map.width() - 1)(random);
    const int cy = std::uniform_int_distribution<int>(0, map.height() - 1)(random);
    const int r = std::uniform_int_distribution<int>(1, 4)(random);
    const std::uint8_t value = values[random() % values.size()];
    for (int y = std::max(cy - r, 0); y <= std::min(cy + r, map.height() - 1); ++y) {
      for (int x = std::max(cx - r, 0); x <= std::min(cx + r, map.width() - 1); ++x) {
        danger.layer[std::size_t(y) * std::size_t(map.width()) + std::size_t(x)] = value;
      }
    }
  }
  danger.stamp.centre = map.layout().tileCenter({std::uniform_int_distribution<int>(0, map.width() - 1)(random),
                                                 std::uniform_int_distribution<int>(0, map.height() - 1)(random)});
  danger.stamp.radius = 2.5f * map.layout().tileSize();
  danger.stamp.peak = stampPeak;
  danger.stamp.falloff = 0.0f;  // a flat disc: one more value
  return danger;
}

TileMap randomMap(std::mt19937& random, const Layout& layout, int width, int height, double wallRate,
                  bool varyTerrain) {
  const TerrainTable terrain = testTerrain();
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<TerrainId> tiles;
  const char others[] = {'.', '.', '.', '.', '~', ',', 'h'};
  for (int i = 0; i < width * height; ++i) {
    char symbol = '#';
    if (unit(random) >= wallRate) {
      symbol = varyTerrain ? others[std::uniform_int_distribution<int>(0, 6)(random)] : '.';
    }
    tiles.push_back(*terrain.findTerrainBySymbol(symbol));
  }
  return TileMap::create(layout, width, height, terrain, std::move(tiles)).value();
}

std::vector<Layout> allLayouts() {
  const Vec2 origin(0.0f, 0.0f);
  return {Layout::square(), Layout::hexPointy(), Layout::hexFlat(), Layout::hexPointy(1.0f, origin, HexStagger::Even),
          Layout::hexFlat(1.0f, origin, HexStagger::Even)};
}

std::filesystem::path sampleMapsDir() { return RPGNAV_SAMPLE_MAPS_DIR; }
std::filesystem::path testDataDir() { return RPGNAV_TEST_DATA_DIR; }

std::optional<std::filesystem::path> movingAiDir() {
  const std::filesystem::path dir = RPGNAV_MOVINGAI_DIR;
  std::error_code error;
  if (std::filesystem::is_directory(dir / "dao", error)) return dir;
  return std::nullopt;
}

}  // namespace rpgnav::test
