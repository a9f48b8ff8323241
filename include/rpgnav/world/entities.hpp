// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// Entities: things standing on the map with a personal space paths keep out of, the callback
/// through which rpgnav asks the game for them, and an indexed registry for games that would
/// rather push positions.

#include "rpgnav/core/export.hpp"
#include "rpgnav/core/limits.hpp"
#include "rpgnav/core/status.hpp"
#include "rpgnav/core/types.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace rpgnav {

/// An entity as authored in a map file: something standing on the map. Non-flat entities have a personal space that paths avoid;
/// flat ones (rugs, corpses) never block.
struct EntitySpec {
  std::string name;
  Vec2 position = Vec2(0.0f, 0.0f);  ///< World units.
  float radius = 0.0f;               ///< Personal-space radius, world units.
  bool flat = false;
  friend bool operator==(const EntitySpec& a, const EntitySpec& b) {
    return a.name == b.name && a.position == b.position && a.radius == b.radius && a.flat == b.flat;
  }
};

struct EntityTag {};
/// The game's own id for an entity (any value it likes; ids are unique within one registry).
using EntityId = StrongId<EntityTag, std::uint32_t>;

/// What an entity is, as flags.
enum EntityFlag : std::uint8_t {
  kEntityFlat = 1,    ///< Rugs, corpses, puddles: walked over, never an obstacle.
  kEntityStatic = 2,  ///< Furniture: stays where it is.
  kEntityMoving = 4,  ///< Characters and monsters: may have moved by the next query.
  /// A character under local avoidance (LocalAvoidance, ReplanScheduler::move): it goes round
  /// others and makes way for them, so paths go round it where they can but never end in front
  /// of it (BlockedByEntity names only entities without this flag).
  kEntityAvoiding = 8,
};

/// Something on the map. A non-flat entity's personal space is the disc of `radius` round its
/// position; a path keeps a character's own radius away from that disc.
struct Entity {
  EntityId id;
  Vec2 position = Vec2(0.0f, 0.0f);  ///< World units.
  float radius = 0.0f;               ///< World units, >= 0.
  std::uint8_t flags = kEntityStatic;
  bool flat() const noexcept { return (flags & kEntityFlat) != 0; }
  friend bool operator==(const Entity& a, const Entity& b) {
    return a.id == b.id && a.position == b.position && a.radius == b.radius && a.flags == b.flags;
  }
};

/// Where the planner gets entities from: the EntityRegistry below, or the game's own ECS.
///
/// Thread and lifetime: called from the thread running a planner call (plan, continuePlan,
/// replanAlong: stages 7 and 8), only during that call, and possibly from several planners'
/// threads at once (worker threads running PlanJob::run included): implement it const and
/// thread-safe. The ReplanScheduler also calls it on its own thread, during update() and
/// collectDue() (corridor checks) and move() (obstacles). It must not change entities during a
/// call.
class RPGNAV_API EntitySource {
 public:
  virtual ~EntitySource() = default;
  /// Appends to `out` every entity whose disc comes within `reach` of the segment from→to (its
  /// distance to the segment is below radius + reach). Extra entities are harmless (callers test
  /// each exactly); missing ones make paths run into them. Flat ones may be left out.
  virtual void entitiesNear(Vec2 from, Vec2 to, float reach, std::vector<Entity>& out) const = 0;
};

/// True when the disc of `entity`, grown by `reach`, comes closer than its radius to the segment:
/// the exact test every EntitySource answer is filtered with.
RPGNAV_API bool entityTouchesSegment(const Entity& entity, Vec2 from, Vec2 to, float reach) noexcept;

/// Entities pushed by the game, in a spatial index (Boost.Geometry's R-tree) so that a query near
/// a segment costs a tree descent, not a scan, with thousands of entities.
///
/// Thread-safety: any number of threads may query at once; edits (add, move, remove) must not
/// overlap with queries. Every edit bumps version().
class RPGNAV_API EntityRegistry final : public EntitySource {
 public:
  EntityRegistry();
  ~EntityRegistry() override;
  EntityRegistry(EntityRegistry&&) noexcept;
  EntityRegistry& operator=(EntityRegistry&&) noexcept;

  /// InvalidArgument for a position that is not finite, a radius that is negative or not finite,
  /// or an id already registered; LimitExceeded when kMaxEntities (core/limits.hpp) are registered
  /// already.
  Status add(const Entity& entity);
  /// InvalidArgument for a non-finite position or an unknown id.
  Status move(EntityId id, Vec2 position);
  /// Replaces the position, radius and flags of the entity with entity.id (same checks as add;
  /// InvalidArgument for an unknown id).
  Status update(const Entity& entity);
  /// InvalidArgument for an unknown id.
  Status remove(EntityId id);
  void clear();

  /// The entity with this id, or nullptr.
  const Entity* find(EntityId id) const noexcept;
  std::size_t size() const noexcept;
  /// Every entity, in no particular order.
  std::span<const Entity> all() const noexcept;
  std::uint64_t version() const noexcept { return m_version; }

  void entitiesNear(Vec2 from, Vec2 to, float reach, std::vector<Entity>& out) const override;

 private:
  struct Index;  // the R-tree and the id lookup, kept out of the header (Boost stays private)
  std::unique_ptr<Index> m_index;
  std::uint64_t m_version = 0;
};

}  // namespace rpgnav
