// SPDX-License-Identifier: MIT
#include "rpgnav/world/world.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace rpgnav {

DoorDecision DefaultDoorPolicy::decide(const Door& door, const Traveller&) const {
  switch (door.state) {
    case DoorState::Open: return {DoorAction::Pass, openCost};
    case DoorState::Closed: return {DoorAction::Stop, closedCost};
    case DoorState::Locked: return {DoorAction::Stop, lockedCost};
  }
  return {DoorAction::Avoid, 0.0f};
}

struct RPGNAV_HIDDEN World::Impl {
  explicit Impl(const TileMap& map) : m_map(&map), m_danger(map) {
    // Buckets cover the map's world extent (hex maps reach half a tile further) plus one spare.
    m_bucketsX = (map.width() + 1) / kBucket + 2;
    m_bucketsY = (map.height() + 1) / kBucket + 2;
    m_buckets.resize(std::size_t(m_bucketsX) * std::size_t(m_bucketsY));
  }

  static std::uint64_t edgeKey(Cell a, Cell b) noexcept;
  std::int64_t bucketOf(std::int32_t bx, std::int32_t by) const noexcept;

  const TileMap* m_map;
  std::vector<Door> m_doors;
  std::unordered_map<std::uint64_t, std::uint32_t> m_doorByEdge;
  // Coarse index: doors by the kBucket × kBucket block of tiles their first tile lies in.
  static constexpr std::int32_t kBucket = 8;
  std::int32_t m_bucketsX = 0;
  std::int32_t m_bucketsY = 0;
  std::vector<std::vector<std::uint32_t>> m_buckets;
  std::uint64_t m_doorLayoutVersion = 0;
  std::uint64_t m_doorChanges = 0;
  EntityRegistry m_entities;
  DangerMap m_danger;
  std::uint8_t m_dangerFactor = 0;
  const EntitySource* m_source = nullptr;
  DesignSettings m_design;
  DefaultDoorPolicy m_defaultPolicy;
  const DoorPolicy* m_policy = nullptr;
  DoorListener* m_listener = nullptr;
};

World::World(const TileMap& map) : m_impl(std::make_unique<Impl>(map)) {}
World::~World() = default;

const TileMap& World::map() const noexcept { return *m_impl->m_map; }
std::span<const Door> World::doors() const noexcept { return m_impl->m_doors; }
std::uint64_t World::doorLayoutVersion() const noexcept { return m_impl->m_doorLayoutVersion; }
std::uint64_t World::mapVersion() const noexcept { return m_impl->m_map->version() + m_impl->m_doorChanges; }
EntityRegistry& World::entities() noexcept { return m_impl->m_entities; }
const EntityRegistry& World::entities() const noexcept { return m_impl->m_entities; }
void World::setEntitySource(const EntitySource* source) noexcept { m_impl->m_source = source; }
const EntitySource& World::entitySource() const noexcept {
  return m_impl->m_source ? *m_impl->m_source : m_impl->m_entities;
}
DangerMap& World::danger() noexcept { return m_impl->m_danger; }
const DangerMap& World::danger() const noexcept { return m_impl->m_danger; }
void World::setDangerFactor(std::uint8_t factor) noexcept { m_impl->m_dangerFactor = factor; }
std::uint8_t World::dangerFactor() const noexcept { return m_impl->m_dangerFactor; }
const DesignSettings& World::designSettings() const noexcept { return m_impl->m_design; }
void World::setDoorPolicy(const DoorPolicy* policy) noexcept { m_impl->m_policy = policy; }
const DoorPolicy& World::doorPolicy() const noexcept {
  return m_impl->m_policy ? *m_impl->m_policy : m_impl->m_defaultPolicy;
}
void World::setDoorListener(DoorListener* listener) noexcept { m_impl->m_listener = listener; }
DoorListener* World::doorListener() const noexcept { return m_impl->m_listener; }

std::uint64_t World::Impl::edgeKey(Cell a, Cell b) noexcept {
  if (b < a) std::swap(a, b);
  // Tiles are at most kMaxMapSide (2^15) per side: 16 bits per coordinate.
  return (std::uint64_t(std::uint16_t(a.x)) << 48) | (std::uint64_t(std::uint16_t(a.y)) << 32) |
         (std::uint64_t(std::uint16_t(b.x)) << 16) | std::uint64_t(std::uint16_t(b.y));
}

std::int64_t World::Impl::bucketOf(std::int32_t bx, std::int32_t by) const noexcept {
  return std::int64_t(std::clamp(by, 0, m_bucketsY - 1)) * m_bucketsX + std::clamp(bx, 0, m_bucketsX - 1);
}

Result<DoorId> World::addDoor(const DoorSpec& spec) {
  const TileMap& map = *m_impl->m_map;
  if (!map.contains(spec.a) || !map.contains(spec.b)) return Error{Status::InvalidArgument, "door tile outside the map"};
  const auto edge = map.layout().sharedEdge(spec.a, spec.b);
  if (!edge) return Error{Status::InvalidArgument, "door tiles do not share an edge"};
  const std::uint64_t key = Impl::edgeKey(spec.a, spec.b);
  if (m_impl->m_doorByEdge.count(key) != 0) return Error{Status::InvalidArgument, "a door already sits on this edge"};
  if (m_impl->m_doors.size() >= kMaxDoors) return Error{Status::LimitExceeded, "the world has 2^20 doors, the most it takes"};
  const DoorId id{std::uint32_t(m_impl->m_doors.size() + 1)};  // 0 means "no door" everywhere
  Door door;
  door.id = id;
  door.name = spec.name;
  door.a = spec.a;
  door.b = spec.b;
  door.state = spec.state;
  door.key = spec.key;
  door.edge = *edge;
  m_impl->m_doors.push_back(std::move(door));
  m_impl->m_doorByEdge.emplace(key, std::uint32_t(m_impl->m_doors.size() - 1));
  const float bucketSize = float(Impl::kBucket) * map.layout().tileSize();
  const Vec2 middle = ((*edge)[0] + (*edge)[1]) * 0.5f - map.layout().origin();
  m_impl->m_buckets[std::size_t(m_impl->bucketOf(std::int32_t(std::floor(middle.x() / bucketSize)),
                                 std::int32_t(std::floor(middle.y() / bucketSize))))]
      .push_back(id.value);
  ++m_impl->m_doorLayoutVersion;
  ++m_impl->m_doorChanges;
  return id;
}

Status World::removeDoor(DoorId id) {
  if (id.value == 0 || id.value > m_impl->m_doors.size() || m_impl->m_doors[id.value - 1].removed) return Status::InvalidArgument;
  Door& door = m_impl->m_doors[id.value - 1];
  m_impl->m_doorByEdge.erase(Impl::edgeKey(door.a, door.b));
  for (std::vector<std::uint32_t>& bucket : m_impl->m_buckets) {
    const auto found = std::find(bucket.begin(), bucket.end(), id.value);
    if (found != bucket.end()) {
      bucket.erase(found);
      break;
    }
  }
  door.removed = true;
  door.state = DoorState::Open;
  ++m_impl->m_doorLayoutVersion;
  ++m_impl->m_doorChanges;
  return Status::Ok;
}

Status World::setDoorState(DoorId id, DoorState state) {
  if (id.value == 0 || id.value > m_impl->m_doors.size() || m_impl->m_doors[id.value - 1].removed) return Status::InvalidArgument;
  Door& door = m_impl->m_doors[id.value - 1];
  if (door.state != state) {
    door.state = state;
    ++m_impl->m_doorChanges;
  }
  return Status::Ok;
}

Status World::setDoorGameData(DoorId id, std::uint64_t data) {
  if (id.value == 0 || id.value > m_impl->m_doors.size()) return Status::InvalidArgument;
  m_impl->m_doors[id.value - 1].gameData = data;
  return Status::Ok;
}

const Door* World::door(DoorId id) const noexcept {
  return id.value != 0 && id.value <= m_impl->m_doors.size() ? &m_impl->m_doors[id.value - 1] : nullptr;
}

const Door* World::doorBetween(Cell a, Cell b) const noexcept {
  if (m_impl->m_doors.empty()) return nullptr;
  const auto found = m_impl->m_doorByEdge.find(Impl::edgeKey(a, b));
  return found == m_impl->m_doorByEdge.end() ? nullptr : &m_impl->m_doors[found->second];
}

const Door* World::findDoor(std::string_view name) const noexcept {
  // A door taken away keeps its name, and a new one may take it again: the door in place wins.
  const Door* found = nullptr;
  for (const Door& door : m_impl->m_doors) {
    if (door.name != name) continue;
    if (!door.removed) return &door;
    if (found == nullptr) found = &door;
  }
  return found;
}

void World::doorsNear(Vec2 low, Vec2 high, float reach, std::vector<DoorId>& out) const {
  if (m_impl->m_doors.empty() || !low.allFinite() || !high.allFinite()) return;
  const Layout& layout = m_impl->m_map->layout();
  // A door's edge lies within half a tile of its middle, by which it is bucketed.
  const float grow = std::max(reach, 0.0f) + layout.tileSize();
  const float bucketSize = float(Impl::kBucket) * layout.tileSize();
  const Vec2 lo = (low - layout.origin()).array() - grow, hi = (high - layout.origin()).array() + grow;
  const float limit = float(std::max(m_impl->m_bucketsX, m_impl->m_bucketsY));
  auto toBucket = [&](float v) { return std::int32_t(std::clamp(std::floor(v / bucketSize), -1.0f, limit)); };
  const std::int32_t x0 = std::max(toBucket(lo.x()), 0), x1 = std::min(toBucket(hi.x()), m_impl->m_bucketsX - 1);
  const std::int32_t y0 = std::max(toBucket(lo.y()), 0), y1 = std::min(toBucket(hi.y()), m_impl->m_bucketsY - 1);
  for (std::int32_t by = y0; by <= y1; ++by) {
    for (std::int32_t bx = x0; bx <= x1; ++bx) {
      for (std::uint32_t id : m_impl->m_buckets[std::size_t(m_impl->bucketOf(bx, by))]) out.push_back(DoorId{id});
    }
  }
}

Status World::setDangerLayers(std::span<const DangerLayerSpec> layers) {
  if (layers.size() > std::size_t(kMaxDangerLayers)) return Status::InvalidArgument;
  for (const DangerLayerSpec& layer : layers) {
    if (layer.values.size() != std::size_t(m_impl->m_map->tileCount())) return Status::InvalidArgument;
  }
  for (std::size_t index = 0; index < layers.size(); ++index) {
    if (const Status status = m_impl->m_danger.setLayer(int(index), layers[index].values); status != Status::Ok) return status;
  }
  return Status::Ok;
}

Status World::setDesignSettings(const DesignSettings& settings) {
  if (!invalidDesignSetting(settings).empty()) return Status::InvalidArgument;
  m_impl->m_design = settings;
  const DefaultDoorPolicy defaults;
  m_impl->m_defaultPolicy.openCost = settings.openDoorCost.value_or(defaults.openCost);
  m_impl->m_defaultPolicy.closedCost = settings.closedDoorCost.value_or(defaults.closedCost);
  m_impl->m_defaultPolicy.lockedCost = settings.lockedDoorCost.value_or(defaults.lockedCost);
  return Status::Ok;
}

Status World::addFeatures(std::span<const DoorSpec> doors, std::span<const EntitySpec> entities,
                          std::span<const DangerLayerSpec> dangerLayers, std::uint8_t dangerFactor,
                          const DesignSettings& settings) {
  if (const Status status = setDesignSettings(settings); status != Status::Ok) return status;
  return addFeatures(doors, entities, dangerLayers, dangerFactor);
}

Status World::addFeatures(std::span<const DoorSpec> doors, std::span<const EntitySpec> entities,
                          std::span<const DangerLayerSpec> dangerLayers, std::uint8_t dangerFactor) {
  if (const Status status = setDangerLayers(dangerLayers); status != Status::Ok) return status;
  setDangerFactor(dangerFactor);
  return addFeatures(doors, entities);
}

Status World::addFeatures(std::span<const DoorSpec> doors, std::span<const EntitySpec> entities) {
  for (const DoorSpec& spec : doors) {
    if (auto added = addDoor(spec); !added) return added.status();
  }
  std::uint32_t next = 1;
  for (const EntitySpec& spec : entities) {
    const Entity entity{EntityId{next++}, spec.position, spec.radius,
                        std::uint8_t(spec.flat ? kEntityFlat : kEntityStatic)};
    if (const Status status = m_impl->m_entities.add(entity); status != Status::Ok) return status;
  }
  return Status::Ok;
}

}  // namespace rpgnav
