// SPDX-License-Identifier: MIT
// libFuzzer target: the query API fed arbitrary numbers. The bytes make a small map (layout,
// tile size, origin, terrain costs, tiles), a few entities and doors, then queries whose
// coordinates and radii are raw floats (NaN, infinities, denormals, huge values included). Every
// call must return a clear status, successes finite paths near the map, and leave the map as
// it was.
#include "rpgnav/field/crowd_field.hpp"
#include "rpgnav/grid/line_of_sight.hpp"
#include "rpgnav/path/planner.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace rpgnav;

namespace {

// Reads the input front to back; past its end every read gives zeros.
class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : m_data(data), m_size(size) {}
  bool empty() const noexcept { return m_at >= m_size; }
  std::uint8_t byte() noexcept { return m_at < m_size ? m_data[m_at++] : 0; }
  float rawFloat() noexcept {
    std::uint32_t bits = 0;
    for (int i = 0; i < 4; ++i) bits = bits << 8 | byte();
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
  }

 private:
  const std::uint8_t* m_data;
  std::size_t m_size;
  std::size_t m_at = 0;
};

void check(bool condition) {
  if (!condition) std::abort();
}


}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Bytes in(data, size);
  // The map.
  const std::uint8_t shape = in.byte();
  const float tile = 0.25f * float(1 + (in.byte() % 16));
  const Vec2 origin(float(std::int8_t(in.byte())) * 3.0f, float(std::int8_t(in.byte())) * 3.0f);
  Layout layout = Layout::square(tile, 8, origin);
  switch (shape % 6) {
    case 1: layout = Layout::square(tile, 4, origin); break;
    case 2: layout = Layout::hexPointy(tile, origin); break;
    case 3: layout = Layout::hexFlat(tile, origin); break;
    case 4: layout = Layout::hexPointy(tile, origin, HexStagger::Even); break;
    case 5: layout = Layout::hexFlat(tile, origin, HexStagger::Even); break;
    default: break;
  }
  TerrainTable terrain;
  std::vector<TerrainId> kinds;
  for (const char symbol : {'.', '#', '~', ','}) {
    const TerrainId id = terrain.addTerrain(std::string("terrain") + std::to_string(kinds.size()), symbol).value();
    for (const MobilityId mobility : {TerrainTable::kWalk, TerrainTable::kSwim, TerrainTable::kFly}) {
      const std::uint8_t cost = in.byte() % 8;  // 0: cannot enter
      if (cost != 0 && symbol != '#') (void)terrain.setCost(id, mobility, float(cost));
    }
    kinds.push_back(id);
  }
  const int width = 1 + in.byte() % 20, height = 1 + in.byte() % 20;
  std::vector<TerrainId> tiles;
  for (int i = 0; i < width * height; ++i) tiles.push_back(kinds[in.byte() % kinds.size()]);
  auto made = TileMap::create(layout, width, height, terrain, std::move(tiles));
  if (!made) return 0;
  const TileMap& map = *made;
  const std::vector<TerrainId> before(map.tiles().begin(), map.tiles().end());

  // A few entities and doors (bad ones are refused, which is fine).
  World world(map);
  const int entities = in.byte() % 8;
  for (int i = 0; i < entities; ++i) {
    (void)world.entities().add({EntityId{std::uint32_t(i + 1)}, Vec2(in.rawFloat(), in.rawFloat()), in.rawFloat(), in.byte()});
  }
  const int doors = in.byte() % 4;
  for (int i = 0; i < doors; ++i) {
    const Cell a{in.byte() % width, in.byte() % height};
    const auto& moves = layout.moves(a);
    const NeighbourStep& step = moves[in.byte() % moves.size()];
    (void)world.addDoor({"d" + std::to_string(i), a, {a.x + step.dx, a.y + step.dy}, DoorState(in.byte() % 3)});
  }

  Planner planner(world);
  PathResult result;
  const CostField costs = CostField::build(map, TerrainTable::kWalk).value();
  CrowdField field(costs);
  const Vec2 low = origin - Vec2::Constant(2.0f * tile);
  const Vec2 high = origin + Vec2(float(width + 3), float(height + 3)) * tile;
  for (int q = 0; q < 4 && !in.empty(); ++q) {  // few per input: more inputs a second
    PathRequest request;
    request.start = Vec2(in.rawFloat(), in.rawFloat());
    request.goal = Vec2(in.rawFloat(), in.rawFloat());
    const std::uint8_t radius = in.byte();
    request.radius = radius == 255 ? in.rawFloat() : float(radius % 128) / 255.0f * tile;
    request.mobility = MobilityId{std::uint8_t(in.byte() % 5)};
    request.character = EntityId{in.byte() % 10u};
    const Status status = planner.plan(request, result);
    check(status == result.status && status != Status::InProgress);
    if (isSuccess(status)) {
      check(!result.controlPoints.empty() && std::isfinite(result.length) && std::isfinite(result.smoothed.length()));
      for (const Vec2& p : result.controlPoints) {
        check(finite(p) && (p.array() >= low.array()).all() && (p.array() <= high.array()).all());
      }
      PathFollower follower(result.smoothed);
      check(finite(follower.advance(double(in.rawFloat())).position));
    } else {
      check(!result.reason.empty() && result.controlPoints.empty());
    }
    const SegmentProbe probe = probeSegment(map, request.mobility, request.start, request.goal, request.radius);
    check(!probe.clear || std::isfinite(probe.cost));
    (void)hasLineOfSight(map, request.mobility, request.start, request.goal);
    const Cell goal = layout.tileAt(request.goal);
    const Cell goals[] = {goal};
    field.setGoals(goals);
    check(finite(field.flowAt(request.start)));
    const FieldFollower::Step step = FieldFollower::advance(field, request.start, double(request.radius));
    check(finite(step.heading));
  }
  check(std::vector<TerrainId>(map.tiles().begin(), map.tiles().end()) == before);
  return 0;
}
