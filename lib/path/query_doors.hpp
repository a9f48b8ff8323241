// SPDX-License-Identifier: MIT
#pragma once
// What the doors of a World mean for one query: the door policy's decisions (asked at most once
// per door and query), the search's gate rule built from them, the doors that are walls for the
// geometric stages, and where a path that reaches a stopping door ends.

#include "path/stage_context.hpp"
#include "search/search_context.hpp"
#include "rpgnav/world/world.hpp"

#include <optional>
#include <vector>

namespace rpgnav::detail {

class QueryDoors final : public GateRule, public BarrierSource {
 public:
  /// Starts a query: forgets earlier decisions. `policy`: the query's own door policy (its
  /// QueryFilter's), nullptr for the world's.
  void begin(const World& world, const Traveller& traveller, const DoorPolicy* policy);

  /// The policy's decision for a door, asked once per query.
  DoorDecision decision(DoorId door) const;
  /// True when a door the search has asked about (crossing()) in this query has changed state
  /// since (a suspended search built on that answer must start again).
  bool consultedDoorChanged() const;

  GateCrossing crossing(std::uint32_t gate) const override;
  bool segmentMeetsGate(Vec2 from, Vec2 to, float radius) const override;

  /// Fills `out` with the doors near the box [low, high] (grown by `reach`) that are walls for
  /// the path: those not passed, and with `costlyToo` also those passed at a cost (the straight
  /// line stage must not cross them: a way round might be cheaper).
  void barriersNear(Vec2 low, Vec2 high, float reach, bool costlyToo, std::vector<Barrier>& out) const;
  /// The doors not passed (BarrierSource).
  void barriersNear(Vec2 low, Vec2 high, float reach, std::vector<Barrier>& out) const override {
    barriersNear(low, high, reach, false, out);
  }

  /// The first door on a tile path that stops the character: its id and the index of the last
  /// tile before it.
  struct Stop {
    DoorId door;
    std::size_t lastTile;
  };
  std::optional<Stop> firstStop(const std::vector<Cell>& tiles) const;

  /// The point in front of a door, on `side`'s side: the radius plus `gap` from the door's edge
  /// (at most the tile's centre).
  Vec2 approachPoint(DoorId door, Cell side, float radius, float gap) const;

 private:
  const World* m_world = nullptr;
  const DoorPolicy* m_policy = nullptr;
  Traveller m_traveller;
  mutable std::vector<std::uint32_t> m_stamp;  // query number per door when decided
  mutable std::vector<DoorDecision> m_decisions;
  mutable std::vector<DoorState> m_decidedState;  // the door's state when decided
  mutable std::vector<std::uint32_t> m_searchStamp;  // query number per door the search asked about
  mutable std::vector<DoorId> m_scratch;
  std::uint32_t m_query = 0;
};

}  // namespace rpgnav::detail
