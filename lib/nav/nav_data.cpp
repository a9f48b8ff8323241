// SPDX-License-Identifier: MIT
#include "nav/nav_data_impl.hpp"

#include "nav/nav_layer.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>

namespace rpgnav {

SizeClass sizeClassOf(const Layout& layout, float radius) noexcept {
  return widerThanHalfHexEdge(layout, radius) ? SizeClass::WideHex : SizeClass::Narrow;
}

std::size_t NavLayer::memoryBytes() const noexcept {
  return sizeof(*this) + m_grid.memoryBytes() + m_lines.memoryBytes() + m_corners.memoryBytes();
}

NavData::Impl::Impl(const World& world, NavDataSettings settings)
    : m_world(&world),
      m_settings(settings),
      m_mapVersion(world.map().version()),
      m_doorLayoutVersion(world.doorLayoutVersion()),
      m_dangerVersion(world.danger().version()) {}
NavData::Impl::~Impl() = default;

// The public calls, each handed to the Impl.
NavData::NavData(const World& world, NavDataSettings settings) : m_impl(std::make_unique<Impl>(world, settings)) {}
NavData::~NavData() = default;
Status NavData::prepare(MobilityId mobility, float radius) { return m_impl->prepare(mobility, radius); }
Status NavData::prepare(MobilityId mobility, float radius, std::span<const TerrainCost> costs,
                        std::optional<std::uint8_t> dangerFactor) {
  return m_impl->prepare(mobility, radius, costs, dangerFactor);
}
bool NavData::ready(MobilityId mobility, float radius, std::span<const TerrainCost> costs,
                    std::optional<std::uint8_t> dangerFactor) const noexcept {
  return m_impl->ready(mobility, radius, costs, dangerFactor);
}
const NavLayer* NavData::layer(MobilityId mobility, float radius, std::span<const TerrainCost> costs,
                               std::optional<std::uint8_t> dangerFactor) const noexcept {
  return m_impl->layer(mobility, radius, costs, dangerFactor);
}
const Clearance* NavData::clearance(MobilityId mobility, std::span<const TerrainCost> costs,
                                    std::optional<std::uint8_t> dangerFactor) const noexcept {
  return m_impl->clearance(mobility, costs, dangerFactor);
}
NavUpdate NavData::update() { return m_impl->update(); }
bool NavData::current() const noexcept { return m_impl->current(); }
std::uint64_t NavData::mapVersion() const noexcept { return m_impl->m_mapVersion; }
std::uint64_t NavData::doorLayoutVersion() const noexcept { return m_impl->m_doorLayoutVersion; }
bool NavData::refreshLandmarks(int sweeps) { return m_impl->refreshLandmarks(sweeps); }
const World& NavData::world() const noexcept { return *m_impl->m_world; }
const TileMap& NavData::map() const noexcept { return m_impl->m_world->map(); }
const NavDataSettings& NavData::settings() const noexcept { return m_impl->m_settings; }
std::size_t NavData::memoryBytes() const noexcept { return m_impl->memoryBytes(); }

std::vector<SearchGate> NavData::Impl::gates() const {
  // Every door is a gate of the grid, in door order, so gate i is door i (a door taken away
  // keeps its index, as a gate that is not there).
  std::vector<SearchGate> gates;
  for (const Door& door : m_world->doors()) gates.push_back({door.a, door.b, door.removed});
  return gates;
}

Result<std::unique_ptr<NavLayer>> NavData::Impl::build(const TileMap& map, MobilityId mobility, SizeClass size) const {
  SearchGridSettings search;
  search.landmarks = m_settings.landmarks;
  search.clearance = size == SizeClass::WideHex ? kHexHalfEdge : 0.0f;
  const std::vector<SearchGate> doors = gates();
  auto grid = SearchGrid::build(map, mobility, search, doors);
  if (!grid) return grid.error();
  return std::unique_ptr<NavLayer>(
      new NavLayer(map, std::move(grid.value()), SegmentTester(map, mobility), ConvexCorners(map, mobility), size));
}

Status NavData::Impl::prepare(MobilityId mobility, float radius) { return prepare(mobility, radius, {}); }

Status NavData::Impl::preparePlain(MobilityId mobility, float radius) {
  const TileMap& map = m_world->map();
  if (!map.terrain().valid(mobility)) return Status::InvalidArgument;
  if (!std::isfinite(radius) || radius < 0.0f || radius > kMaxRadiusTiles * map.layout().tileSize()) return Status::InvalidArgument;
  if (m_settings.landmarks < 0 || m_settings.landmarks > kMaxLandmarks) return Status::InvalidArgument;
  if (!current()) update();
  if (widerThanHalfTile(map.layout(), radius)) {
    const std::size_t index = mobility.value;
    if (m_clearances.size() <= index) m_clearances.resize(index + 1);
    if (!m_clearances[index]) m_clearances[index] = std::make_unique<Clearance>(Clearance::build(map, mobility));
  }
  const std::size_t index = slot(mobility, sizeClassOf(map.layout(), radius));
  if (m_layers.size() <= index) m_layers.resize(index + 1);
  if (m_layers[index]) return Status::Ok;
  auto built = build(map, mobility, sizeClassOf(map.layout(), radius));
  if (!built) return built.status();
  m_layers[index] = std::move(built.value());
  return Status::Ok;
}

namespace {

// pairTerrain's mark for a (terrain, danger) pair without a terrain of its own yet.
constexpr std::uint8_t kNoPair = 0xFF;

bool sameCosts(std::span<const TerrainCost> a, std::span<const TerrainCost> b) noexcept {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const TerrainCost& x, const TerrainCost& y) {
    return x.terrain == y.terrain && std::bit_cast<std::uint32_t>(x.cost) == std::bit_cast<std::uint32_t>(y.cost);
  });
}

}  // namespace

const NavData::Impl::Filtered* NavData::Impl::filtered(MobilityId mobility, std::span<const TerrainCost> costs,
                                           std::uint8_t dangerFactor) const noexcept {
  const auto found = std::find_if(m_filtered.begin(), m_filtered.end(), [&](const Filtered& entry) {
    return entry.mobility == mobility && entry.dangerFactor == dangerFactor && sameCosts(entry.costs, costs);
  });
  return found != m_filtered.end() ? &*found : nullptr;
}

Result<std::unique_ptr<TileMap>> NavData::Impl::filteredMap(MobilityId mobility, std::span<const TerrainCost> costs,
                                                      std::uint8_t dangerFactor, std::vector<std::uint8_t>& pairTerrain) const {
  auto map = std::make_unique<TileMap>(m_world->map());
  for (const TerrainCost& entry : costs) {
    // In the list's order: a terrain named twice takes its last cost.
    const bool forbidden = !(entry.cost > 0.0f) || entry.cost == TerrainTable::kImpassable;
    if (std::isnan(entry.cost) || !map->terrain().valid(entry.terrain) ||
        map->setTerrainCost(entry.terrain, mobility, forbidden ? TerrainTable::kImpassable : entry.cost) != Status::Ok) {
      return Error{Status::InvalidArgument, "a terrain cost override names an unknown terrain or a cost out of range"};
    }
  }
  pairTerrain.clear();
  const DangerMap& danger = m_world->danger();
  if (dangerFactor == 0 || danger.clear()) return map;
  // Each (terrain, danger) pair on the map becomes a terrain of the copy's own, costing the
  // weighted cost for every mobility; tiles without danger keep their terrain.
  TerrainTable table = map->terrain();
  pairTerrain.assign(std::size_t(256) * 256, kNoPair);
  std::vector<TerrainId> tiles(map->tiles().begin(), map->tiles().end());
  const std::span<const std::uint8_t> values = danger.values();
  for (std::int32_t index = 0; index < map->tileCount(); ++index) {
    const std::uint8_t value = values[std::size_t(index)];
    if (value == 0) continue;
    const TerrainId terrain = tiles[std::size_t(index)];
    std::uint8_t& pair = pairTerrain[std::size_t(terrain.value) * 256 + value];
    if (pair == kNoPair) {
      auto added = table.addTerrain("danger." + std::to_string(terrain.value) + "." + std::to_string(value));
      if (!added) {
        return Error{Status::LimitExceeded, "the map's terrains and danger values make more than " +
                                                std::to_string(kMaxTerrains) +
                                                " (terrain, danger) pairs, or a terrain is named danger.T.D"};
      }
      for (int m = 0; m < table.mobilityCount(); ++m) {
        const MobilityId each{std::uint8_t(m)};
        const float cost = table.cost(terrain, each);
        if (cost != TerrainTable::kImpassable) (void)table.setCost(added.value(), each, DangerMap::weightedCost(cost, value, dangerFactor));
      }
      pair = added.value().value;
    }
    tiles[std::size_t(index)] = TerrainId{pair};
  }
  auto weighted = TileMap::create(map->layout(), map->width(), map->height(), std::move(table), std::move(tiles));
  if (!weighted) return weighted.error();
  return std::make_unique<TileMap>(std::move(weighted.value()));
}

namespace {

// A danger entry's copy brought up to the world's terrain and danger on the tiles of `rects`;
// false when a (terrain, danger) pair is new to its table: the copy must then be built afresh.
bool restamp(TileMap& copy, const std::vector<std::uint8_t>& pairTerrain, const TileMap& world, const DangerMap& danger,
             std::span<const std::pair<Cell, Cell>> rects) {
  for (const auto& [low, high] : rects) {
    for (std::int32_t y = low.y; y <= high.y; ++y) {
      for (std::int32_t x = low.x; x <= high.x; ++x) {
        const TerrainId terrain = world.terrainAt({x, y});
        const std::uint8_t value = danger.danger({x, y});
        TerrainId wanted = terrain;
        if (value != 0) {
          if (pairTerrain.empty()) return false;
          const std::uint8_t pair = pairTerrain[std::size_t(terrain.value) * 256 + value];
          if (pair == kNoPair) return false;
          wanted = TerrainId{pair};
        }
        if (copy.terrainAt({x, y}) != wanted) (void)copy.setTerrain(Cell{x, y}, wanted);
      }
    }
  }
  return true;
}

}  // namespace

Status NavData::Impl::prepare(MobilityId mobility, float radius, std::span<const TerrainCost> costs,
                        std::optional<std::uint8_t> factor) {
  const std::uint8_t dangerFactor = factorOf(factor);
  if (costs.empty() && dangerFactor == 0) return preparePlain(mobility, radius);
  const TileMap& map = m_world->map();
  if (!map.terrain().valid(mobility)) return Status::InvalidArgument;
  if (!std::isfinite(radius) || radius < 0.0f || radius > kMaxRadiusTiles * map.layout().tileSize()) return Status::InvalidArgument;
  if (m_settings.landmarks < 0 || m_settings.landmarks > kMaxLandmarks) return Status::InvalidArgument;
  if (!current()) update();
  const Filtered* known = filtered(mobility, costs, dangerFactor);
  Filtered* entry = known != nullptr ? &m_filtered[std::size_t(known - m_filtered.data())] : nullptr;
  if (entry == nullptr) {
    std::vector<std::uint8_t> pairTerrain;
    auto copy = filteredMap(mobility, costs, dangerFactor, pairTerrain);
    if (!copy) return copy.status();
    m_filtered.push_back({mobility, {costs.begin(), costs.end()}, dangerFactor, std::move(copy.value()), {}, nullptr,
                          std::move(pairTerrain)});
    entry = &m_filtered.back();
  }
  if (widerThanHalfTile(map.layout(), radius) && !entry->clearance) {
    entry->clearance = std::make_unique<Clearance>(Clearance::build(*entry->map, mobility));
  }
  const SizeClass size = sizeClassOf(map.layout(), radius);
  std::unique_ptr<NavLayer>& layer = entry->layers[std::size_t(size)];
  if (layer) return Status::Ok;
  auto built = build(*entry->map, mobility, size);
  if (!built) return built.status();
  layer = std::move(built.value());
  return Status::Ok;
}

bool NavData::Impl::rebuild(Filtered& entry, NavUpdate& result) {
  auto copy = filteredMap(entry.mobility, entry.costs, entry.dangerFactor, entry.pairTerrain);
  if (!copy) {  // a cost edit of the world's table left an override out of range, or too many pairs
    result.status = copy.status();
    result.reason = copy.error().message;
    entry.layers = {};
    entry.clearance.reset();
    return false;
  }
  // The layers keep pointing at the map: it is edited in place, then they are rebuilt on it.
  *entry.map = std::move(*copy.value());
  bool built = true;
  for (std::size_t size = 0; size < entry.layers.size(); ++size) {
    if (!entry.layers[size]) continue;
    auto layer = build(*entry.map, entry.mobility, SizeClass(size));
    if (!layer) {
      result.status = layer.status();
      result.reason = layer.error().message;
      entry.layers[size].reset();
      built = false;
      continue;
    }
    entry.layers[size] = std::move(layer.value());
  }
  if (entry.clearance) *entry.clearance = Clearance::build(*entry.map, entry.mobility);
  return built;
}

void NavData::Impl::rebuildFiltered(NavUpdate& result) {
  for (Filtered& entry : m_filtered) rebuild(entry, result);
}

const NavLayer* NavData::Impl::layer(MobilityId mobility, float radius, std::span<const TerrainCost> costs,
                               std::optional<std::uint8_t> factor) const noexcept {
  const std::uint8_t dangerFactor = factorOf(factor);
  const Layout& layout = m_world->map().layout();
  if (!std::isfinite(radius) || radius < 0.0f || radius > kMaxRadiusTiles * layout.tileSize()) return nullptr;
  const SizeClass size = sizeClassOf(layout, radius);
  const NavLayer* found = nullptr;
  if (!costs.empty() || dangerFactor != 0) {
    const Filtered* entry = filtered(mobility, costs, dangerFactor);
    found = entry != nullptr ? entry->layers[std::size_t(size)].get() : nullptr;
  } else {
    const std::size_t index = slot(mobility, size);
    found = index < m_layers.size() ? m_layers[index].get() : nullptr;
  }
  // A wide body reads the clearance too, which its size class's layer does not hold: the layer
  // of a narrow character prepared earlier is no answer for it.
  if (found != nullptr && widerThanHalfTile(layout, radius) && clearance(mobility, costs, dangerFactor) == nullptr) return nullptr;
  return found;
}

bool NavData::Impl::ready(MobilityId mobility, float radius, std::span<const TerrainCost> costs,
                    std::optional<std::uint8_t> dangerFactor) const noexcept {
  return current() && layer(mobility, radius, costs, dangerFactor) != nullptr;
}

const Clearance* NavData::Impl::clearance(MobilityId mobility, std::span<const TerrainCost> costs,
                                    std::optional<std::uint8_t> factor) const noexcept {
  const std::uint8_t dangerFactor = factorOf(factor);
  if (!costs.empty() || dangerFactor != 0) {
    const Filtered* entry = filtered(mobility, costs, dangerFactor);
    return entry != nullptr ? entry->clearance.get() : nullptr;
  }
  return mobility.value < m_clearances.size() ? m_clearances[mobility.value].get() : nullptr;
}

bool NavData::Impl::current() const noexcept {
  return m_mapVersion == m_world->map().version() && m_doorLayoutVersion == m_world->doorLayoutVersion() &&
         m_dangerVersion == m_world->danger().version();
}

// What one update() brings to every layer.
struct NavData::Impl::Patch {
  bool tiles = false;         // tiles changed terrain, or a terrain its cost
  bool costsChanged = false;  // a terrain's cost changed: every tile is looked at again
  std::vector<TileRect> rects;  // the tiles that changed terrain
  std::span<const std::pair<Cell, Cell>> pairs;  // the same, as NavUpdate::rects
  bool doorsChanged = false;
  std::vector<SearchGate> doors;  // the gates, when doorsChanged
};

std::optional<Error> NavLayer::patchTiles(const TileMap& map, std::span<const TileRect> rects,
                                          std::span<const std::pair<Cell, Cell>> pairs, bool costsChanged) {
  if (auto error = m_grid.update(map, rects, costsChanged)) return error;
  m_lines.update(map, pairs, costsChanged);
  const std::pair<Cell, Cell> whole[] = {{Cell{0, 0}, Cell{map.width() - 1, map.height() - 1}}};
  m_corners.update(map, costsChanged ? std::span<const std::pair<Cell, Cell>>(whole) : pairs);
  return std::nullopt;
}

bool NavData::Impl::patchLayer(NavLayer& layer, const TileMap& map, const Patch& patch, NavUpdate& result) {
  if (patch.tiles) {
    if (auto error = layer.patchTiles(map, patch.rects, patch.pairs, patch.costsChanged)) {
      result.status = error->status;
      result.reason = error->message;
      return false;
    }
  }
  if (patch.doorsChanged) {
    if (auto error = layer.setGates(map, patch.doors)) {
      result.status = error->status;
      result.reason = error->message;
      return false;
    }
  }
  return true;
}

void NavData::Impl::patchFiltered(const Patch& patch, NavUpdate& result) {
  // The tiles whose danger changed since the last update (all of them when the journal no
  // longer reaches back), for the entries that weigh danger.
  const DangerMap& danger = m_world->danger();
  std::vector<DangerMap::Change> changes;
  const bool dangerJournalled = danger.changesSince(m_dangerVersion, changes);
  for (Filtered& entry : m_filtered) {
    if (entry.dangerFactor == 0) {
      // The copy replays the world's tile edits, in order (the journal keeps each one's terrain);
      // its terrain table keeps the overrides. Then its layers are patched like the plain ones.
      for (const TileEdit& edit : m_edits) {
        if (!edit.costEdit) (void)entry.map->setTerrain(edit.low, edit.high, edit.terrain);
      }
    }
    const Patch* patched = &patch;
    Patch weighted;
    if (entry.dangerFactor != 0) {
      // The copy's tiles follow the world's terrain and danger wherever either changed.
      std::vector<std::pair<Cell, Cell>> pairs(patch.pairs.begin(), patch.pairs.end());
      for (const DangerMap::Change& change : changes) pairs.push_back({change.low, change.high});
      if (!dangerJournalled || !restamp(*entry.map, entry.pairTerrain, m_world->map(), danger, pairs)) {
        result.rebuilt = true;
        rebuild(entry, result);
        continue;
      }
      weighted = {!pairs.empty(), false, {}, {}, patch.doorsChanged, patch.doors};
      for (const auto& [low, high] : pairs) weighted.rects.push_back({low, high});
      m_dangerPairs = std::move(pairs);
      weighted.pairs = m_dangerPairs;
      patched = &weighted;
    }
    for (std::unique_ptr<NavLayer>& layer : entry.layers) {
      if (layer && !patchLayer(*layer, *entry.map, *patched, result)) layer.reset();
    }
    if (entry.clearance) {
      for (const TileRect& rect : patched->rects) entry.clearance->update(*entry.map, rect.low, rect.high);
    }
  }
}

NavUpdate NavData::Impl::update() {
  const auto began = std::chrono::steady_clock::now();
  NavUpdate result;
  const TileMap& map = m_world->map();
  m_edits.clear();
  const bool journalled = map.editsSince(m_mapVersion, m_edits);
  const bool doorsChanged = m_doorLayoutVersion != m_world->doorLayoutVersion();
  const bool dangerChanged = m_dangerVersion != m_world->danger().version();
  result.doorsChanged = doorsChanged;
  result.tileEdits = m_edits.size();
  bool costsChanged = false;
  std::vector<TileRect> rects;
  for (const TileEdit& edit : m_edits) {
    if (edit.costEdit) {
      costsChanged = true;
      continue;
    }
    rects.push_back({edit.low, edit.high});
    result.rects.push_back({edit.low, edit.high});
    result.tilesChanged += std::size_t(edit.high.x - edit.low.x + 1) * std::size_t(edit.high.y - edit.low.y + 1);
  }
  Patch patch{!m_edits.empty(), costsChanged, rects, result.rects, doorsChanged,
              doorsChanged ? gates() : std::vector<SearchGate>{}};
  for (std::size_t index = 0; index < m_layers.size(); ++index) {
    std::unique_ptr<NavLayer>& layer = m_layers[index];
    if (!layer) continue;
    const MobilityId mobility{std::uint8_t(index / 2)};
    const SizeClass size = SizeClass(index % 2);
    if (!journalled) {
      // The journal no longer reaches back so far: this layer is built afresh.
      result.rebuilt = true;
      auto built = build(map, mobility, size);
      if (!built) {
        result.status = built.status();
        result.reason = built.error().message;
        layer.reset();
        continue;
      }
      layer = std::move(built.value());
      continue;
    }
    if (!patchLayer(*layer, map, patch, result)) layer.reset();  // unusable until prepared again
  }
  // Clearance: the tiles round each edited rectangle looked at again; built afresh when the
  // journal no longer reaches back or a terrain's cost changed (which may open or close it).
  for (std::size_t index = 0; index < m_clearances.size(); ++index) {
    std::unique_ptr<Clearance>& clearance = m_clearances[index];
    if (!clearance || (m_edits.empty() && journalled)) continue;
    if (!journalled || costsChanged) {
      *clearance = Clearance::build(map, MobilityId{std::uint8_t(index)});
      continue;
    }
    for (const TileRect& rect : rects) clearance->update(map, rect.low, rect.high);
  }
  if (!journalled || costsChanged) {
    rebuildFiltered(result);
  } else if (!m_edits.empty() || doorsChanged || dangerChanged) {
    patchFiltered(patch, result);
  }
  m_mapVersion = map.version();
  m_dangerVersion = m_world->danger().version();
  m_doorLayoutVersion = m_world->doorLayoutVersion();
  result.micros = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - began).count();
  return result;
}

bool NavData::Impl::refreshLandmarks(int sweeps) {
  bool done = true;
  for (std::unique_ptr<NavLayer>& layer : m_layers) {
    if (!layer) continue;
    sweeps -= layer->refreshLandmarks(std::max(sweeps, 0));
    done = done && layer->grid().landmarksCurrent();
  }
  return done;
}

std::size_t NavData::Impl::memoryBytes() const noexcept {
  std::size_t total = sizeof(*this);
  for (const std::unique_ptr<NavLayer>& layer : m_layers) total += layer ? layer->memoryBytes() : 0;
  for (const std::unique_ptr<Clearance>& clearance : m_clearances) total += clearance ? clearance->memoryBytes() : 0;
  for (const Filtered& entry : m_filtered) {
    total += sizeof(entry) + entry.costs.capacity() * sizeof(TerrainCost) + sizeof(TileMap) +
             std::size_t(entry.map->tileCount()) * sizeof(TerrainId) + entry.pairTerrain.capacity();
    for (const std::unique_ptr<NavLayer>& layer : entry.layers) total += layer ? layer->memoryBytes() : 0;
    total += entry.clearance ? entry.clearance->memoryBytes() : 0;
  }
  return total;
}

}  // namespace rpgnav
