// SPDX-License-Identifier: MIT
// Jump point search on hex maps (SearchContext's hex jumps), for characters under half a hex
// edge in radius.
//
// The symmetry. Among tiles of one cost, a shortest route between two tiles uses at most two
// directions, neighbours in the table's rotation: a steps of direction i and b of direction i+1
// (mod 6), in any order — C(a+b, a) routes of equal cost. The canonical one takes all the i steps
// first ("primary"), then turns once, by one sixth, and takes the i+1 steps ("secondary"); a
// secondary run never turns again (two more turns would be a detour: D(i) + D(i+2) = D(i+1)).
// In open ground every tile then has exactly one canonical route from the start, as with the
// diagonal-first order of square jump point search (Harabor & Grastien 2011), with primary runs
// in the diagonals' part and secondary runs in the straight runs'.
//
// Forced neighbours. A run that steps into tile x from p = x - D(e) passes the two neighbours of
// x beside its way ahead, x + D(e-1) and x + D(e+1). The canonical route to x + D(e±1) comes
// from x + D(e±2) (= p + D(e±1)), the tile beside p; when that tile is blocked and x + D(e±1) is
// open, the route must come through x, which becomes a jump point. On a primary run the e+1 side
// is the run's own turn (natural), so only the e-1 side can force. A jump point expands its
// natural continuations and a primary run toward each forced neighbour (whose secondaries cover
// the ground behind the obstacle); a forced right side of a secondary run continues it as a
// primary run (the turn it needs is a primary run's own).
//
// Weighted maps and doors. Runs cross uniform tiles only (SearchGrid::uniform: the tile and all
// it touches cost the same, away from gates), where the argument above holds as on a map of one
// cost. A tile where costs change stops a run and starts a primary run toward each of its
// canonical successors for the way the route came in (SearchGrid::canonicalSuccessors: the
// neighbours whose cheapest way from the tile before, among the tiles round this one, runs
// through it, ties broken in the runs' order, as weighted jump point search does on squares);
// tiles at gates are expanded step by step by expandAll, which asks the gate rule. A
// run's steps all cost its first tile's class: a uniform tile's neighbours cost what it costs.
//
// The grid's tables (search_grid_hex.cpp) say where a secondary run stops, and which tiles of a
// primary run must be looked at; the goal, which they cannot know, is found by arithmetic on
// axial coordinates.
//
// Nodes keep no direction bits: a node's arrival is its displacement from its parent, which
// splits into a steps of i and b of i+1 in exactly one way (b > 0: it arrived on a secondary run
// of direction i+1; b = 0: on a primary run of direction i). Routes between linked nodes are
// rebuilt the same way (fillHexJumpRoute).
#include "search/search_context.hpp"

#include <array>
#include <cstdlib>

namespace rpgnav {

void fillHexJumpRoute(const Layout& layout, std::span<const Cell> nodes, std::vector<Cell>& tiles) {
  tiles.clear();
  if (nodes.empty()) return;
  const HexDirections hex(layout, 0);
  // One pass: each node's axial coordinates are worked out once, and its row's (column's) shift
  // follows from the steps taken (a reused path vector keeps its capacity, so pushing allocates
  // nothing once warm).
  Cell at = nodes.front();
  bool shifted = hex.shifted(at);
  Axial from = layout.toAxial(at);
  tiles.push_back(at);
  for (std::size_t k = 1; k < nodes.size(); ++k) {
    const Axial to = layout.toAxial(nodes[k]);
    const HexDirections::Split split = hex.split({to.q - from.q, to.r - from.r});
    from = to;
    for (const auto& [direction, count] : {std::pair{split.direction, split.primary},
                                           std::pair{HexDirections::turn(split.direction, 1), split.secondary}}) {
      // Where the direction changes the shift, steps alternate between the offsets from the two
      // kinds of row (column).
      const bool flip = hex.flips[std::size_t(direction)];
      const std::array<Cell, 2> step{hex.cells[shifted][std::size_t(direction)], hex.cells[shifted != flip][std::size_t(direction)]};
      for (std::int32_t s = 0; s < count; ++s) {
        const Cell by = step[std::size_t(s & 1)];
        at = {at.x + by.x, at.y + by.y};
        tiles.push_back(at);
      }
      shifted = shifted != (flip && count % 2 == 1);
    }
  }
}

std::int32_t SearchContext::hexSecondaryRun(std::int32_t from, Axial fromAxial, bool shifted, int direction,
                                            std::int32_t& steps) const noexcept {
  // The grid's table says where the run stops (SearchGrid::jumpDistances); only the goal, which
  // the table cannot know, is looked for here: on the ray, at most as far as the stop.
  const SearchGrid& grid = *m_grid;
  const HexDirections& hex = grid.hexDirections();
  const Axial a = hex.axial[std::size_t(direction)];
  const Axial toGoal{m_goalAxial.q - fromAxial.q, m_goalAxial.r - fromAxial.r};
  const std::int32_t t = a.q != 0 ? toGoal.q * a.q : toGoal.r * a.r;  // (a's entries are 0 or ±1)
  const std::int32_t goalAt = t >= 1 && toGoal.q == t * a.q && toGoal.r == t * a.r ? t : 0;
  std::int32_t travelled = 0;
  while (true) {
    const std::int16_t entry = grid.jumpDistances(from)[direction];
    const std::int32_t reach = entry == SearchGrid::kJumpFar ? SearchGrid::kJumpFarReach : std::abs(entry);
    if (goalAt > travelled && goalAt - travelled <= reach) {
      steps = goalAt;
      return m_goal;
    }
    if (entry != SearchGrid::kJumpFar) {
      if (entry < 0) return -1;
      steps = travelled + entry;
      return from + hex.paddedSteps(shifted, direction, entry);
    }
    from += hex.paddedSteps(shifted, direction, reach);
    shifted = shifted != (hex.flips[std::size_t(direction)] && reach % 2 == 1);
    travelled += reach;
  }
}

void SearchContext::hexPrimaryRun(std::int32_t origin, Axial originAxial, bool shifted, std::int64_t g,
                                  int direction) {
  // The run goes from stop to stop (SearchGrid::hexPrimaryStop: the tiles where it is blocked,
  // has a forced neighbour or turns onto a jump point); between them it finds nothing. The goal,
  // which the grid cannot know, is one more stop: on the run itself, or on the turn of one of
  // its tiles (k steps along it, then t >= 1 along the turn) — both known before the run starts.
  const SearchGrid& grid = *m_grid;
  const std::uint8_t* cls = grid.classes();
  const HexDirections& hex = grid.hexDirections();
  const int turn = HexDirections::turn(direction, 1), left = HexDirections::turn(direction, -1);
  const int behindLeft = HexDirections::turn(direction, -2);
  const bool flip = hex.flips[std::size_t(direction)];
  const Axial a = hex.axial[std::size_t(direction)], t = hex.axial[std::size_t(turn)];
  // Costs: the run's first step from the origin's class to the next tile's, then every step in
  // that class (a tile a run goes on from is uniform: its neighbours cost what it costs, and the
  // tiles a run stops on too).
  const std::int32_t first = origin + hex.padded[shifted][std::size_t(direction)];
  if (cls[first] == 0) return;
  const std::int64_t firstStep = grid.stepCost(cls[origin], cls[first], false);
  const std::uint8_t* uniform = grid.uniform();
  if (uniform[first] == 0) {  // (the run would stop there at once: a plain step, no scan)
    relaxHexJump(first, direction, Axial{originAxial.q + a.q, originAxial.r + a.r}, g + firstStep, origin);
    return;
  }
  const std::int64_t step = 2 * grid.halfStraight(cls[first]);
  const HexDirections::Split toGoal = hex.splitAlong({m_goalAxial.q - originAxial.q, m_goalAxial.r - originAxial.r}, direction);
  const std::int32_t goalAt = toGoal.primary > 0 ? toGoal.primary : -1;  // on the run or its turn there
  SearchGrid::HexStopScan stops = grid.hexStopScan(originAxial, direction);
  // The offsets of the run's steps, and of its turns' from tiles of either shift, worked out once:
  // a run has about five stops.
  const HexDirections::Ray along = hex.ray(shifted, direction);
  const std::array<HexDirections::Ray, 2> turns{hex.ray(false, turn), hex.ray(true, turn)};
  auto axialAt = [&](std::int32_t k, Axial d, std::int32_t more) {
    return Axial{originAxial.q + k * a.q + more * d.q, originAxial.r + k * a.r + more * d.r};
  };
  std::int32_t k = 0;
  while (true) {
    const std::int32_t stop = k + stops.next();
    if (goalAt > k && goalAt < stop) {
      stops.skip(goalAt - stop);  // back to the goal's tile; the scan goes on from there
      k = goalAt;
    } else {
      k = stop;
    }
    const std::int32_t at = origin + along.steps(k);
    if (cls[at] == 0) return;
    const bool here = shifted != (flip && (k & 1) != 0);  // this tile's row (column) shift
    const std::int64_t gHere = g + firstStep + (k - 1) * step;
    const auto& around = hex.padded[here];
    if (at == m_goal || uniform[at] == 0 ||
        (cls[at + around[std::size_t(behindLeft)]] == 0 && cls[at + around[std::size_t(left)]] != 0)) {
      // The goal, a tile where costs change (or at a gate), or a forced neighbour: a jump point,
      // which goes on from here when expanded (if anywhere).
      relaxHexJump(at, direction, [&] { return axialAt(k, t, 0); }, gHere, origin);
      return;
    }
    // The turn from this tile: its secondary run's stop, from the table (or the goal before it).
    const std::int16_t entry = grid.jumpDistances(at)[turn];
    if (k == goalAt || entry == SearchGrid::kJumpFar) [[unlikely]] {
      std::int32_t steps = 0;
      const std::int32_t found = hexSecondaryRun(at, axialAt(k, t, 0), here, turn, steps);
      if (found >= 0) relaxHexJump(found, turn, axialAt(k, t, steps), gHere + steps * step, origin);
    } else if (entry > 0) {
      const std::int32_t found = at + turns[here].steps(entry);
      relaxHexJump(found, turn, [&] { return axialAt(k, t, entry); }, gHere + entry * step, origin);
    }
  }
}

void SearchContext::expandHexJumpPoint(std::int32_t index, const Node here) {
  const SearchGrid& grid = *m_grid;
  const Layout& layout = grid.layout();
  const HexDirections& hex = grid.hexDirections();
  const Cell cell = grid.cellOf(index);
  const Axial axial = layout.toAxial(cell);
  const bool shifted = hex.shifted(cell);
  const std::uint8_t* cls = grid.classes();
  const auto& around = hex.padded[shifted];
  auto forced = [&](int side, int behind) {
    return cls[index + around[std::size_t(behind)]] == 0 && cls[index + around[std::size_t(side)]] != 0;
  };
  auto primary = [&](int direction) { hexPrimaryRun(index, axial, shifted, here.g, direction); };
  // A secondary run from here (a uniform tile: every step costs its class's), its stop linked
  // to `parent`.
  auto secondary = [&](int direction, std::int32_t parent) {
    std::int32_t steps = 0;
    const std::int32_t found = hexSecondaryRun(index, axial, shifted, direction, steps);
    if (found >= 0) {
      const Axial d = hex.axial[std::size_t(direction)];
      relaxHexJump(found, direction, Axial{axial.q + steps * d.q, axial.r + steps * d.r},
                   here.g + steps * 2 * grid.halfStraight(cls[index]), parent);
    }
  };
  if (here.parent < 0) {  // the start: every way
    for (int d = 0; d < 6; ++d) primary(d);
    return;
  }
  const Axial from = layout.toAxial(grid.cellOf(here.parent));
  const HexDirections::Split arrival = hex.split({axial.q - from.q, axial.r - from.r});
  if (grid.uniform()[index] == 0) {
    // Where costs change: the canonical successors of the route's last step (JPSW's pruning,
    // SearchGrid::canonicalSuccessors), each the first step of a primary run.
    const int last = arrival.secondary > 0 ? HexDirections::turn(arrival.direction, 1) : arrival.direction;
    const std::uint8_t mask = grid.canonicalSuccessors(index, last);
    for (int d = 0; d < 6; ++d) {
      if ((mask >> d) & 1u) primary(d);
    }
    return;
  }
  if (arrival.secondary == 0) {
    // On a primary run: it goes on, turns, and may be forced round the tile behind on its left.
    // (A tile the turn finds is linked to this node's parent: the route there is one primary
    // run and one secondary, so the tile reads as reached on a secondary run.)
    const int d = arrival.direction;
    primary(d);
    secondary(HexDirections::turn(d, 1), here.parent);
    if (forced(HexDirections::turn(d, -1), HexDirections::turn(d, -2))) primary(HexDirections::turn(d, -1));
    return;
  }
  // On a secondary run: it goes on straight. A forced left side (e - 1) turns the route back by
  // a sixth, which the primary run that way (with its turns to e) covers. A forced right side
  // (e + 1) is the turn a primary run of direction e makes: from here the route goes on as one,
  // turning at every tile, and the turn from this tile itself is a secondary run.
  const int e = HexDirections::turn(arrival.direction, 1);
  if (forced(HexDirections::turn(e, 1), HexDirections::turn(e, 2))) {
    primary(e);
    secondary(HexDirections::turn(e, 1), index);
  } else {
    secondary(e, here.parent);  // (linked to this node's parent, as above)
  }
  if (forced(HexDirections::turn(e, -1), HexDirections::turn(e, -2))) primary(HexDirections::turn(e, -1));
}

}  // namespace rpgnav
