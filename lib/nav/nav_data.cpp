// SPDX-License-Identifier: MIT
#include "rpgnav/nav/nav_data.hpp"

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
  return sizeof(*this) + m_grid.memoryBytes() + m_lines.memoryBytes() + m_corners.memoryBytes() + m_costs.memoryBytes();
}

NavData::NavData(const World& world, NavDataSettings settings)
    : m_world(&world),
      m_settings(settings),
      m_mapVersion(world.map().version()),
      m_doorLayoutVersion(world.doorLayoutVersion()) {}
NavData::~NavData() = default;

std::vector<SearchGate> NavData::gates() const {
  // Every door is a gate of the grid, in door order, so gate i is door i (a door taken away
  // keeps its index, as a gate that is not there).
  std::vector<SearchGate> gates;
  for (const Door& door : m_world->doors()) gates.push_back({door.a, door.b, door.removed});
  return gates;
}

Result<std::unique_ptr<NavLayer>> NavData::build(const TileMap& map, MobilityId mobility, SizeClass size) const {
  SearchGridSettings search;
  search.landmarks = m_settings.landmarks;
  search.clearance = size == SizeClass::WideHex ? kHexHalfEdge : 0.0f;
  const std::vector<SearchGate> doors = gates();
  auto grid = SearchGrid::build(map, mobility, search, doors);
  if (!grid) return grid.error();
  auto costs = CostField::build(map, mobility);
  if (!costs) return costs.error();
  return std::unique_ptr<NavLayer>(new NavLayer(map, std::move(grid.value()), SegmentTester(map, mobility),
                                                ConvexCorners(map, mobility), std::move(costs.value()), size));
}

Status NavData::prepare(MobilityId mobility, float radius) {
  const TileMap& map = m_world->map();
  if (!map.terrain().valid(mobility)) return Status::InvalidArgument;
  if (!std::isfinite(radius) || radius < 0.0f || radius > kMaxRadiusTiles * map.layout().tileSize()) return Status::InvalidArgument;
  if (m_settings.landmarks < 0 || m_settings.landmarks > 16) return Status::InvalidArgument;
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

bool sameCosts(std::span<const TerrainCost> a, std::span<const TerrainCost> b) noexcept {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const TerrainCost& x, const TerrainCost& y) {
    return x.terrain == y.terrain && std::bit_cast<std::uint32_t>(x.cost) == std::bit_cast<std::uint32_t>(y.cost);
  });
}

}  // namespace

const NavData::Filtered* NavData::filtered(MobilityId mobility, std::span<const TerrainCost> costs) const noexcept {
  const auto found = std::find_if(m_filtered.begin(), m_filtered.end(), [&](const Filtered& entry) {
    return entry.mobility == mobility && sameCosts(entry.costs, costs);
  });
  return found != m_filtered.end() ? &*found : nullptr;
}

Result<std::unique_ptr<TileMap>> NavData::filteredMap(MobilityId mobility, std::span<const TerrainCost> costs) const {
  auto map = std::make_unique<TileMap>(m_world->map());
  for (const TerrainCost& entry : costs) {
    // In the list's order: a terrain named twice takes its last cost.
    const bool forbidden = !(entry.cost > 0.0f) || entry.cost == TerrainTable::kImpassable;
    if (std::isnan(entry.cost) || !map->terrain().valid(entry.terrain) ||
        map->setTerrainCost(entry.terrain, mobility, forbidden ? TerrainTable::kImpassable : entry.cost) != Status::Ok) {
      return Error{Status::InvalidArgument, "a terrain cost override names an unknown terrain or a cost out of range"};
    }
  }
  return map;
}

Status NavData::prepare(MobilityId mobility, float radius, std::span<const TerrainCost> costs) {
  if (costs.empty()) return prepare(mobility, radius);
  const TileMap& map = m_world->map();
  if (!map.terrain().valid(mobility)) return Status::InvalidArgument;
  if (!std::isfinite(radius) || radius < 0.0f || radius > kMaxRadiusTiles * map.layout().tileSize()) return Status::InvalidArgument;
  if (m_settings.landmarks < 0 || m_settings.landmarks > 16) return Status::InvalidArgument;
  if (!current()) update();
  const Filtered* known = filtered(mobility, costs);
  Filtered* entry = known != nullptr ? &m_filtered[std::size_t(known - m_filtered.data())] : nullptr;
  if (entry == nullptr) {
    auto copy = filteredMap(mobility, costs);
    if (!copy) return copy.status();
    m_filtered.push_back({mobility, {costs.begin(), costs.end()}, std::move(copy.value()), {}, nullptr});
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

void NavData::rebuildFiltered(NavUpdate& result) {
  for (Filtered& entry : m_filtered) {
    auto copy = filteredMap(entry.mobility, entry.costs);
    if (!copy) {  // a cost edit of the world's table left an override out of range
      result.status = copy.status();
      result.reason = copy.error().message;
      entry.layers = {};
      entry.clearance.reset();
      continue;
    }
    // The layers keep pointing at the map: it is edited in place, then they are rebuilt on it.
    *entry.map = std::move(*copy.value());
    for (std::size_t size = 0; size < entry.layers.size(); ++size) {
      if (!entry.layers[size]) continue;
      auto built = build(*entry.map, entry.mobility, SizeClass(size));
      if (!built) {
        result.status = built.status();
        result.reason = built.error().message;
        entry.layers[size].reset();
        continue;
      }
      entry.layers[size] = std::move(built.value());
    }
    if (entry.clearance) *entry.clearance = Clearance::build(*entry.map, entry.mobility);
  }
}

const NavLayer* NavData::layer(MobilityId mobility, float radius, std::span<const TerrainCost> costs) const noexcept {
  const Layout& layout = m_world->map().layout();
  if (!std::isfinite(radius) || radius < 0.0f || radius > kMaxRadiusTiles * layout.tileSize()) return nullptr;
  const SizeClass size = sizeClassOf(layout, radius);
  const NavLayer* found = nullptr;
  if (!costs.empty()) {
    const Filtered* entry = filtered(mobility, costs);
    found = entry != nullptr ? entry->layers[std::size_t(size)].get() : nullptr;
  } else {
    const std::size_t index = slot(mobility, size);
    found = index < m_layers.size() ? m_layers[index].get() : nullptr;
  }
  // A wide body reads the clearance too, which its size class's layer does not hold: the layer
  // of a narrow character prepared earlier is no answer for it.
  if (found != nullptr && widerThanHalfTile(layout, radius) && clearance(mobility, costs) == nullptr) return nullptr;
  return found;
}

bool NavData::ready(MobilityId mobility, float radius, std::span<const TerrainCost> costs) const noexcept {
  return current() && layer(mobility, radius, costs) != nullptr;
}

const Clearance* NavData::clearance(MobilityId mobility, std::span<const TerrainCost> costs) const noexcept {
  if (!costs.empty()) {
    const Filtered* entry = filtered(mobility, costs);
    return entry != nullptr ? entry->clearance.get() : nullptr;
  }
  return mobility.value < m_clearances.size() ? m_clearances[mobility.value].get() : nullptr;
}

bool NavData::current() const noexcept {
  return m_mapVersion == m_world->map().version() && m_doorLayoutVersion == m_world->doorLayoutVersion();
}

// What one update() brings to every layer.
struct NavData::Patch {
  bool tiles = false;         // tiles changed terrain, or a terrain its cost
  bool costsChanged = false;  // a terrain's cost changed: every tile is looked at again
  std::vector<TileRect> rects;  // the tiles that changed terrain
  std::span<const std::pair<Cell, Cell>> pairs;  // the same, as NavUpdate::rects
  bool doorsChanged = false;
  std::vector<SearchGate> doors;  // the gates, when doorsChanged
};

bool NavData::patchLayer(NavLayer& layer, const TileMap& map, const Patch& patch, NavUpdate& result) {
  if (patch.tiles) {
    if (auto error = layer.m_grid.update(map, patch.rects, patch.costsChanged)) {
      result.status = error->status;
      result.reason = error->message;
      return false;
    }
    layer.m_lines.update(map, patch.pairs, patch.costsChanged);
    const std::pair<Cell, Cell> whole[] = {{Cell{0, 0}, Cell{map.width() - 1, map.height() - 1}}};
    layer.m_corners.update(map, patch.costsChanged ? std::span<const std::pair<Cell, Cell>>(whole) : patch.pairs);
    std::vector<Cell> changed;
    layer.m_costs.refresh(map, patch.costsChanged ? std::span<const std::pair<Cell, Cell>>() : patch.pairs,
                          patch.costsChanged, changed);
  }
  if (patch.doorsChanged) {
    if (auto error = layer.m_grid.setGates(map, patch.doors)) {
      result.status = error->status;
      result.reason = error->message;
      return false;
    }
  }
  return true;
}

void NavData::patchFiltered(const Patch& patch, NavUpdate& result) {
  for (Filtered& entry : m_filtered) {
    // The copy replays the world's tile edits, in order (the journal keeps each one's terrain);
    // its terrain table keeps the overrides. Then its layers are patched like the plain ones.
    for (const TileEdit& edit : m_edits) {
      if (!edit.costEdit) (void)entry.map->setTerrain(edit.low, edit.high, edit.terrain);
    }
    for (std::unique_ptr<NavLayer>& layer : entry.layers) {
      if (layer && !patchLayer(*layer, *entry.map, patch, result)) layer.reset();
    }
    if (entry.clearance) {
      for (const TileRect& rect : patch.rects) entry.clearance->update(*entry.map, rect.low, rect.high);
    }
  }
}

NavUpdate NavData::update() {
  const auto began = std::chrono::steady_clock::now();
  NavUpdate result;
  const TileMap& map = m_world->map();
  m_edits.clear();
  const bool journalled = map.editsSince(m_mapVersion, m_edits);
  const bool doorsChanged = m_doorLayoutVersion != m_world->doorLayoutVersion();
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
  } else if (!m_edits.empty() || doorsChanged) {
    patchFiltered(patch, result);
  }
  m_mapVersion = map.version();
  m_doorLayoutVersion = m_world->doorLayoutVersion();
  result.micros = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - began).count();
  return result;
}

bool NavData::refreshLandmarks(int sweeps) {
  bool done = true;
  for (std::unique_ptr<NavLayer>& layer : m_layers) {
    if (!layer) continue;
    sweeps -= layer->m_grid.refreshLandmarks(std::max(sweeps, 0));
    done = done && layer->m_grid.landmarksCurrent();
  }
  return done;
}

std::size_t NavData::memoryBytes() const noexcept {
  std::size_t total = sizeof(*this);
  for (const std::unique_ptr<NavLayer>& layer : m_layers) total += layer ? layer->memoryBytes() : 0;
  for (const std::unique_ptr<Clearance>& clearance : m_clearances) total += clearance ? clearance->memoryBytes() : 0;
  for (const Filtered& entry : m_filtered) {
    total += sizeof(entry) + entry.costs.capacity() * sizeof(TerrainCost) + sizeof(TileMap) +
             std::size_t(entry.map->tileCount()) * sizeof(TerrainId);
    for (const std::unique_ptr<NavLayer>& layer : entry.layers) total += layer ? layer->memoryBytes() : 0;
    total += entry.clearance ? entry.clearance->memoryBytes() : 0;
  }
  return total;
}

}  // namespace rpgnav
