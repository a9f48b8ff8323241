// SPDX-License-Identifier: MIT
#include "rpgnav/world/entities.hpp"

#include <boost/iterator/function_output_iterator.hpp>
#include <boost/geometry.hpp>
#include <boost/geometry/index/rtree.hpp>

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace rpgnav {
namespace {

namespace bg = boost::geometry;
namespace bgi = boost::geometry::index;
using BoxPoint = bg::model::point<float, 2, bg::cs::cartesian>;
using Box = bg::model::box<BoxPoint>;
// An entity's disc as a box, with its slot in the dense entity array.
using Value = std::pair<Box, std::uint32_t>;

Box discBox(const Entity& entity) {
  return Box(BoxPoint(entity.position.x() - entity.radius, entity.position.y() - entity.radius),
             BoxPoint(entity.position.x() + entity.radius, entity.position.y() + entity.radius));
}

// The box kept in the tree: the disc's, grown for moving entities so that most moves stay inside
// it and cost no tree update (queries test the exact disc anyway).
Box storedBox(const Entity& entity) {
  const float slack = (entity.flags & kEntityMoving) != 0 ? 2.0f * entity.radius + 0.05f : 0.0f;
  const float r = entity.radius + slack;
  return Box(BoxPoint(entity.position.x() - r, entity.position.y() - r), BoxPoint(entity.position.x() + r, entity.position.y() + r));
}

bool inside(const Box& inner, const Box& outer) {
  return inner.min_corner().get<0>() >= outer.min_corner().get<0>() &&
         inner.min_corner().get<1>() >= outer.min_corner().get<1>() &&
         inner.max_corner().get<0>() <= outer.max_corner().get<0>() &&
         inner.max_corner().get<1>() <= outer.max_corner().get<1>();
}

bool validShape(Vec2 position, float radius) {
  return position.allFinite() && std::isfinite(radius) && radius >= 0.0f;
}

}  // namespace

bool entityTouchesSegment(const Entity& entity, Vec2 from, Vec2 to, float reach) noexcept {
  const Eigen::Vector2d a = from.cast<double>(), b = to.cast<double>(), c = entity.position.cast<double>();
  const Eigen::Vector2d ab = b - a;
  const double lengthSquared = ab.squaredNorm();
  const double t = lengthSquared > 0.0 ? std::clamp((c - a).dot(ab) / lengthSquared, 0.0, 1.0) : 0.0;
  const double limit = double(entity.radius) + double(reach);
  return (a + t * ab - c).squaredNorm() < limit * limit;
}

// The R-tree (quadratic splits: cheap inserts and removals, which moving entities need) holds one
// box per entity, `stored[slot]`: the disc's box, grown for moving entities so that a move within
// it changes no tree node; entities live densely in `entities`, found by id through `slotOf`.
// Removal swaps the last entity into the hole and re-indexes it.
struct EntityRegistry::Index {
  bgi::rtree<Value, bgi::quadratic<16>> tree;
  std::vector<Entity> entities;
  std::vector<Box> stored;
  std::unordered_map<std::uint32_t, std::uint32_t> slotOf;
  float maxRadius = 0.0f;  // largest radius ever registered (only grows; bounds query pieces)
};

EntityRegistry::EntityRegistry() : m_index(std::make_unique<Index>()) {}
EntityRegistry::~EntityRegistry() = default;
EntityRegistry::EntityRegistry(EntityRegistry&&) noexcept = default;
EntityRegistry& EntityRegistry::operator=(EntityRegistry&&) noexcept = default;

Status EntityRegistry::add(const Entity& entity) {
  if (!validShape(entity.position, entity.radius)) return Status::InvalidArgument;
  if (m_index->slotOf.count(entity.id.value) != 0) return Status::InvalidArgument;
  if (m_index->entities.size() >= kMaxEntities) return Status::LimitExceeded;
  const auto slot = std::uint32_t(m_index->entities.size());
  m_index->entities.push_back(entity);
  m_index->stored.push_back(storedBox(entity));
  m_index->slotOf.emplace(entity.id.value, slot);
  m_index->tree.insert(Value(m_index->stored.back(), slot));
  m_index->maxRadius = std::max(m_index->maxRadius, entity.radius);
  ++m_version;
  return Status::Ok;
}

Status EntityRegistry::move(EntityId id, Vec2 position) {
  const Entity* entity = find(id);
  if (entity == nullptr) return Status::InvalidArgument;
  Entity moved = *entity;
  moved.position = position;
  return update(moved);
}

Status EntityRegistry::update(const Entity& changed) {
  const auto found = m_index->slotOf.find(changed.id.value);
  if (found == m_index->slotOf.end() || !validShape(changed.position, changed.radius)) return Status::InvalidArgument;
  const std::uint32_t slot = found->second;
  m_index->entities[slot] = changed;
  Box& stored = m_index->stored[slot];
  if (!inside(discBox(changed), stored) || (changed.flags & kEntityMoving) == 0) {
    m_index->tree.remove(Value(stored, slot));
    stored = storedBox(changed);
    m_index->tree.insert(Value(stored, slot));
  }
  m_index->maxRadius = std::max(m_index->maxRadius, changed.radius);
  ++m_version;
  return Status::Ok;
}

Status EntityRegistry::remove(EntityId id) {
  const auto found = m_index->slotOf.find(id.value);
  if (found == m_index->slotOf.end()) return Status::InvalidArgument;
  const std::uint32_t slot = found->second;
  std::vector<Entity>& entities = m_index->entities;
  std::vector<Box>& stored = m_index->stored;
  m_index->tree.remove(Value(stored[slot], slot));
  m_index->slotOf.erase(found);
  const auto last = std::uint32_t(entities.size() - 1);
  if (slot != last) {
    m_index->tree.remove(Value(stored[last], last));
    entities[slot] = entities[last];
    stored[slot] = stored[last];
    m_index->slotOf[entities[slot].id.value] = slot;
    m_index->tree.insert(Value(stored[slot], slot));
  }
  entities.pop_back();
  stored.pop_back();
  ++m_version;
  return Status::Ok;
}

void EntityRegistry::clear() {
  m_index->tree.clear();
  m_index->entities.clear();
  m_index->stored.clear();
  m_index->slotOf.clear();
  m_index->maxRadius = 0.0f;
  ++m_version;
}

const Entity* EntityRegistry::find(EntityId id) const noexcept {
  const auto found = m_index->slotOf.find(id.value);
  return found == m_index->slotOf.end() ? nullptr : &m_index->entities[found->second];
}

std::size_t EntityRegistry::size() const noexcept { return m_index->entities.size(); }

std::span<const Entity> EntityRegistry::all() const noexcept { return m_index->entities; }

void EntityRegistry::entitiesNear(Vec2 from, Vec2 to, float reach, std::vector<Entity>& out) const {
  if (m_index->entities.empty() || !from.allFinite() || !to.allFinite() || !std::isfinite(reach)) return;
  reach = std::max(reach, 0.0f);
  // A long diagonal segment's bounding box holds far more than the entities near the segment, so
  // the segment is queried in pieces no longer than a few entity spaces; an entity near two
  // pieces is reported once.
  const float length = (to - from).norm();
  const float pieceLength = 64.0f * (reach + m_index->maxRadius) + 1e-3f;
  const int pieces = std::clamp(int(std::ceil(length / pieceLength)), 1, 1 << 16);
  const std::size_t first = out.size();
  // Hits go straight into `out` (no scratch: queries may run on several threads at once, and a
  // warm query allocates nothing).
  for (int i = 0; i < pieces; ++i) {
    const Vec2 a = from + (to - from) * (float(i) / float(pieces));
    const Vec2 b = i + 1 == pieces ? to : Vec2(from + (to - from) * (float(i + 1) / float(pieces)));
    const Box box(BoxPoint(std::min(a.x(), b.x()) - reach, std::min(a.y(), b.y()) - reach),
                  BoxPoint(std::max(a.x(), b.x()) + reach, std::max(a.y(), b.y()) + reach));
    auto take = [&](const Value& hit) {
      const Entity& entity = m_index->entities[hit.second];
      if (!entityTouchesSegment(entity, a, b, reach)) return;
      if (pieces > 1 && std::find_if(out.begin() + std::ptrdiff_t(first), out.end(), [&](const Entity& seen) {
                          return seen.id == entity.id;
                        }) != out.end()) {
        return;
      }
      out.push_back(entity);
    };
    m_index->tree.query(bgi::intersects(box), boost::make_function_output_iterator(take));
  }
}

}  // namespace rpgnav
