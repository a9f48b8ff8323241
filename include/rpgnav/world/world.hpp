// SPDX-License-Identifier: MIT
#pragma once
/// @file
/// World: everything on a map besides its terrain — doors, entities — and the game's hooks for
/// them. The Planner reads it; the game edits it between queries.

#include "rpgnav/core/export.hpp"
#include "rpgnav/core/limits.hpp"
#include "rpgnav/core/status.hpp"
#include "rpgnav/grid/danger_map.hpp"
#include "rpgnav/grid/tile_map.hpp"
#include "rpgnav/world/design_settings.hpp"
#include "rpgnav/world/doors.hpp"
#include "rpgnav/world/entities.hpp"

#include <span>
#include <string_view>
#include <memory>
#include <vector>

namespace rpgnav {

/// A map's doors and entities, with the policy, listener and entity source the planner uses.
///
/// Keeps the TileMap by reference (it must outlive the world). Thread-safety: any number of
/// planners may read one World at once; edits (doors, entities, hooks) must not overlap with
/// planning. Hooks are not owned and must outlive their registration.
class RPGNAV_API World {
 public:
  explicit World(const TileMap& map);
  // Planners, navigation data and schedulers keep a World by address: it is neither copied nor
  // moved (which also keeps a DLL export from trying to copy its fields).
  World(const World&) = delete;
  World& operator=(const World&) = delete;
  ~World();

  const TileMap& map() const noexcept;

  // --- Doors ---
  /// Adds a door on the edge between spec.a and spec.b. InvalidArgument when the tiles are not
  /// both on the map, do not share an edge, or the edge already has a door; LimitExceeded when
  /// the world has kMaxDoors (core/limits.hpp) already.
  Result<DoorId> addDoor(const DoorSpec& spec);
  /// Takes a door away (a door smashed or bricked up): its edge is free again (another door may
  /// be added there) and it is open from now on; its id is not reused (Door::removed).
  /// InvalidArgument for an unknown or already removed door. Bumps doorLayoutVersion().
  Status removeDoor(DoorId id);
  /// InvalidArgument for an unknown door. Bumps mapVersion() when the state changes.
  Status setDoorState(DoorId id, DoorState state);
  Status setDoorGameData(DoorId id, std::uint64_t data);
  const Door* door(DoorId id) const noexcept;
  std::span<const Door> doors() const noexcept;
  /// The door on the edge between two tiles (either order), or nullptr.
  const Door* doorBetween(Cell a, Cell b) const noexcept;
  /// The door of that name (the one in place when a removed door had the name too), or nullptr.
  const Door* findDoor(std::string_view name) const noexcept;
  /// Appends the doors whose edge may come within `reach` of the box [low, high] (a superset:
  /// callers test exactly). Cost: the coarse index cells the box covers.
  void doorsNear(Vec2 low, Vec2 high, float reach, std::vector<DoorId>& out) const;
  /// Changes when doors are added or removed (not when their state changes): navigation data
  /// built with the doors' places must then be updated (NavData::update).
  std::uint64_t doorLayoutVersion() const noexcept;

  /// The map's version as seen by anything caching paths: bumped by every tile edit and every
  /// door state change.
  std::uint64_t mapVersion() const noexcept;

  // --- Entities ---
  /// The built-in registry (used unless an entity source is set).
  EntityRegistry& entities() noexcept;
  const EntityRegistry& entities() const noexcept;
  /// The game's own source of entities instead of the registry (nullptr: back to the registry).
  void setEntitySource(const EntitySource* source) noexcept;
  const EntitySource& entitySource() const noexcept;

  // --- Danger ---
  /// How dangerous each tile is, for characters that plan with a danger factor
  /// (PathRequest::dangerFactor): layers and stamps the game edits between queries; then
  /// NavData::update() brings the navigation data of every factor up to date.
  DangerMap& danger() noexcept;
  const DangerMap& danger() const noexcept;
  /// Sets the authored danger layers (from a map file) as layers 0, 1, ... InvalidArgument (and
  /// nothing set) for more than kMaxDangerLayers or a layer without one value per tile.
  Status setDangerLayers(std::span<const DangerLayerSpec> layers);
  /// The designer's danger factor (a map file's `danger-factor`): what plans weigh danger with
  /// when their request names no factor (PathRequest::dangerFactor, CharacterSpec::dangerFactor
  /// unset), and what NavData::prepare() prepares when it is given none. 0 by default.
  void setDangerFactor(std::uint8_t factor) noexcept;
  std::uint8_t dangerFactor() const noexcept;

  // --- Designer settings ---
  /// The map's designer settings (a map file's `[settings]`): the defaults of every planner and
  /// scheduler on this world, read at each plan, in place of their PlannerSettings' and
  /// SchedulerSettings' values (comfort, smoothing.maxDeviation, detours.margin; interval,
  /// stickiness); a request's own value (PathRequest::comfort) still wins. The door costs set
  /// the default door rule's (DefaultDoorPolicy; a policy of the game's own decides for itself).
  /// InvalidArgument (and nothing set) for a value its limits do not allow (designSettingKeys).
  /// Code that wants its own settings to win clears them: setDesignSettings({}).
  Status setDesignSettings(const DesignSettings& settings);
  const DesignSettings& designSettings() const noexcept;

  // --- Hooks ---
  /// The door policy (nullptr: back to DefaultDoorPolicy with its default costs, or the designer
  /// settings' door costs).
  void setDoorPolicy(const DoorPolicy* policy) noexcept;
  const DoorPolicy& doorPolicy() const noexcept;
  void setDoorListener(DoorListener* listener) noexcept;
  DoorListener* doorListener() const noexcept;

  /// Adds authored doors and entities (from a map file): entities get ids 1, 2, ... in order,
  /// flagged flat, or static otherwise. Stops at the first invalid one (InvalidArgument).
  Status addFeatures(std::span<const DoorSpec> doors, std::span<const EntitySpec> entities);
  /// The same plus the map file's danger: its layers (setDangerLayers) and factor
  /// (setDangerFactor).
  Status addFeatures(std::span<const DoorSpec> doors, std::span<const EntitySpec> entities,
                     std::span<const DangerLayerSpec> dangerLayers, std::uint8_t dangerFactor);
  /// The same plus the map file's designer settings (setDesignSettings): a map document's whole,
  /// `world.addFeatures(d.doors, d.entities, d.dangerLayers, d.dangerFactor, d.settings)`.
  Status addFeatures(std::span<const DoorSpec> doors, std::span<const EntitySpec> entities,
                     std::span<const DangerLayerSpec> dangerLayers, std::uint8_t dangerFactor,
                     const DesignSettings& settings);

 private:
  // The doors, their edge and area indexes, the entity registry, danger and hooks (lib/world).
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace rpgnav
