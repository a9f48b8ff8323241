// SPDX-License-Identifier: MIT
// Who makes way: the passage rule (one side through a narrow passage at a time, turns by waiting
// time) and the yields settled after every agent's velocity is solved.
#include "avoidance_impl.hpp"

#include <algorithm>
#include <cmath>

namespace rpgnav {

using namespace avoid;

void LocalAvoidance::Impl::passageRule() {
  const TileMap& map = world->map();
  const Layout& layout = map.layout();
  const float step = float(dt);
  // Where each agent's way meets a passage, and from which side.
  for (std::size_t i = 0; i < agents.size(); ++i) {
    const AvoidanceAgent& a = agents[i];
    Memory& m = *memory[i];
    m.waiting = false;
    const std::int32_t widthClass = avoid::PassageMap::widthClass(avoidRadius[i] / tile);
    const std::int32_t crowdClass = avoid::PassageMap::crowdClass(avoidRadius[i] / tile);
    std::int32_t found = -1, side = -1;
    bool inside = false;
    if (crowdClass > 0) {
      // Where two cannot pass; or a stretch where two pass with little to spare. The way ahead's
      // points lie a quarter tile apart, so most fall in the tile of the one before: within its
      // inscribed circle (half a tile, less a hair for the tie rules at edges) that tile is the
      // answer without asking the layout (a hex look-up rounds against two lines of centres).
      // And a tile's answer holds for every point in it.
      std::optional<Cell> cell;
      Vec2 cellCentre = Vec2::Zero();
      std::int32_t cellPassage = -1;
      const float inside2 = 0.249f * tile * tile;
      auto passageIn = [&](Cell at) {
        const std::int32_t crowded = passages.passageAt(map, a.mobility, at, crowdClass);
        if (crowded >= 0 && passages.passage(crowded).isStretch(crowdClass)) return crowded;
        return passages.passageAt(map, a.mobility, at, widthClass);
      };
      auto passageOf = [&](Vec2 point) {
        if (cell && (point - cellCentre).squaredNorm() < inside2) return cellPassage;
        const std::optional<Cell> at = map.tileAt(point);
        if (!at) return -1;
        if (!cell || *at != *cell) {
          cell = at;
          cellCentre = layout.tileCenter(*at);
          cellPassage = passageIn(*at);
        }
        return cellPassage;
      };
      auto sideNear = [&](std::int32_t p, Vec2 point) {
        const Eigen::Vector2d local = layout.toLocal(point);
        const std::int32_t s = passages.passage(p).nearestSide(local.x(), local.y());
        return s < kMaxSides ? s : -1;
      };
      found = passageOf(a.position);
      inside = found >= 0;
      m.entry = a.position;
      for (std::size_t k = 0; k < a.route.size() && found < 0; ++k) {
        found = passageOf(a.route[k]);
        if (found >= 0) {
          side = sideNear(found, k > 0 ? a.route[k - 1] : a.position);
          m.entry = a.route[k];
        }
      }
      if (inside) {
        if (m.passage == found && m.side >= 0) {
          side = m.side;
        } else {
          // Inside already (pushed in, or it started there): it came from the mouth it is not
          // heading for, when the passage has two.
          for (const Vec2& point : a.route) {
            if (passageOf(point) == found) continue;
            const std::int32_t exit = sideNear(found, point);
            if (passages.passage(found).sides == 2 && exit >= 0) side = 1 - exit;
            break;
          }
        }
      }
    }
    if (found != m.passage || side != m.side || m.passageGeneration != passages.generation()) {
      m.committed = false;
      m.waitedAtPassage = 0.0f;
    }
    m.passage = found;
    m.passageGeneration = passages.generation();
    m.side = side;
    if (inside && side >= 0) m.committed = true;
    // Short of its passage and held up for long: its turn goes to whoever can use it.
    if (m.committed && !inside && m.heldUp > kCommitPatience) m.committed = false;
  }
  // Who holds each passage, and how long each side has waited.
  candidates.clear();
  for (std::size_t i = 0; i < agents.size(); ++i) {
    const Memory& m = *memory[i];
    if (m.passage < 0 || m.side < 0) continue;
    Traffic& t = trafficOf(m.passage);
    if (m.committed) ++t.occupants[std::size_t(m.side)];
    t.waited[std::size_t(m.side)] = std::max(t.waited[std::size_t(m.side)], m.waitedAtPassage);
    if (!m.committed) candidates.push_back(std::uint32_t(i));
  }
  // Newcomers in a fixed order: priority, then the longer wait, then the lower id.
  std::sort(candidates.begin(), candidates.end(), [&](std::uint32_t p, std::uint32_t q) {
    const AvoidanceAgent& A = agents[p];
    const AvoidanceAgent& B = agents[q];
    if (A.settings.priority != B.settings.priority) return A.settings.priority > B.settings.priority;
    if (memory[p]->waitedAtPassage != memory[q]->waitedAtPassage) return memory[p]->waitedAtPassage > memory[q]->waitedAtPassage;
    return A.id.value < B.id.value;
  });
  for (const std::uint32_t i : candidates) {
    Memory& m = *memory[i];
    Traffic& t = trafficOf(m.passage);
    const std::size_t own = std::size_t(m.side);
    bool wait = false;
    for (std::size_t s = 0; s < std::size_t(kMaxSides); ++s) {
      if (s == own) continue;
      // Someone from another mouth is in it or on the way; or another side has waited its turn.
      if (t.occupants[s] > 0 || (t.waited[s] > kPassageTurn && t.waited[s] > t.waited[own])) wait = true;
    }
    if (wait && agents[i].settings.responsive) {
      m.waiting = true;
      m.waitedAtPassage += step;
    } else {
      m.committed = true;
      ++t.occupants[own];
    }
  }
}


void LocalAvoidance::Impl::finish(std::span<const AvoidanceResult> out) {
  const float step = float(dt);
  proposals.assign(agents.size(), Proposal{});
  auto idle = [&](std::size_t k) {
    return memory[k]->waiting || agents[k].preferred.norm() <= kIdleFraction * agents[k].maxSpeed;
  };
  // True when agent p goes before agent q.
  auto first = [&](std::size_t p, std::size_t q) {
    const AvoidanceAgent& A = agents[p];
    const AvoidanceAgent& B = agents[q];
    if (A.settings.priority != B.settings.priority) return A.settings.priority > B.settings.priority;
    if (idle(p) != idle(q)) return !idle(p);
    const bool wayA = memory[p]->rightOfWay > 0.0f, wayB = memory[q]->rightOfWay > 0.0f;
    if (wayA != wayB) return wayA;
    if (memory[p]->waited != memory[q]->waited) return memory[p]->waited > memory[q]->waited;
    return A.id.value < B.id.value;
  };
  auto propose = [&](std::size_t loser, std::size_t winner, YieldKind kind) {
    Proposal& p = proposals[loser];
    if (p.winner < 0 || first(winner, std::size_t(p.winner))) p = Proposal{std::int32_t(winner), kind};
  };
  // First every clock, then the conflicts: each comparison sees everyone's clocks of this frame,
  // whatever the order of the agents.
  for (std::size_t i = 0; i < agents.size(); ++i) {
    const AvoidanceAgent& a = agents[i];
    Memory& m = *memory[i];
    m.rightOfWay = std::max(0.0f, m.rightOfWay - step);
    if (!a.settings.responsive || idle(i)) {
      m.heldUp = 0.0f;
      continue;
    }
    const float wanted = a.preferred.norm();
    const float progress = out[i].velocity.dot(a.preferred) / wanted;
    if (m.yield == YieldKind::None && progress < wanted / 3.0f) {
      m.heldUp += step;
      m.waited += step;
    } else {
      m.heldUp = 0.0f;
      if (m.yield == YieldKind::None && progress >= 2.0f * wanted / 3.0f) m.waited = 0.0f;
    }
    if (m.yield != YieldKind::None) m.waited += step;
  }
  for (std::size_t i = 0; i < agents.size(); ++i) {
    const AvoidanceAgent& a = agents[i];
    const Memory& m = *memory[i];
    if (!a.settings.responsive || idle(i)) continue;
    if (m.yield != YieldKind::None || m.heldUp < kYieldAfter || front[i] < 0) continue;
    const std::size_t j = std::size_t(front[i]);
    const AvoidanceAgent& b = agents[j];
    const Memory& n = *memory[j];
    if (n.yield != YieldKind::None) {
      // Its way is blocked by one that makes way itself: a queue backing off backs off too.
      if (n.yield == YieldKind::Back && n.yieldTo != a.id && b.preferred.dot(a.preferred) > 0.0f) {
        const std::int32_t w = indexOf(n.yieldTo);
        if (w >= 0 && !first(i, std::size_t(w))) propose(i, std::size_t(w), YieldKind::Back);
      }
      continue;
    }
    const bool opposing = idle(j) || b.preferred.dot(a.preferred) < 0.0f;
    if (!opposing || !b.settings.responsive) continue;
    if (first(i, j)) {
      propose(j, i, YieldKind::Aside);
    } else {
      propose(i, j, YieldKind::Aside);
    }
  }
  for (std::size_t i = 0; i < agents.size(); ++i) {
    Memory& m = *memory[i];
    if (m.yield != YieldKind::None) {
      m.yieldAge += step;
      // Done when the winner has passed (gone, behind, or out of reach) or the time is up.
      const std::int32_t k = indexOf(m.yieldTo);
      const bool passed = k < 0 || (agents[std::size_t(k)].position - agents[i].position).norm() >
                                       avoidRadius[i] + avoidRadius[std::size_t(k)] + 0.75f * tile;
      if ((passed && m.yieldAge >= kYieldMinimum) || m.yieldAge >= kYieldTimeout) {
        m.yield = YieldKind::None;
        m.yieldTo = EntityId{0};
        m.heldUp = 0.0f;
      }
      continue;
    }
    if (proposals[i].winner < 0) continue;
    const std::size_t w = std::size_t(proposals[i].winner);
    const AvoidanceAgent& a = agents[i];
    const AvoidanceAgent& winner = agents[w];
    memory[w]->rightOfWay = kRightOfWay;
    // Out of the winner's line, to the side it already is on if there is room.
    Vec2 line = winner.preferred;
    if (line.squaredNorm() == 0.0f) line = a.position - winner.position;
    if (line.squaredNorm() == 0.0f) line = Vec2(1.0f, 0.0f);
    line.normalize();
    Vec2 side(-line.y(), line.x());
    if (side.dot(a.position - winner.position) < 0.0f) side = -side;
    const float aside = avoidRadius[i] + avoidRadius[w];
    Vec2 back = a.preferred.squaredNorm() > 0.0f ? Vec2(-a.preferred.normalized()) : line;
    m.yieldTo = winner.id;
    m.yieldAge = 0.0f;
    m.heldUp = 0.0f;
    if (proposals[i].kind == YieldKind::Aside && room(a, side, aside)) {
      m.yield = YieldKind::Aside;
      m.yieldDirection = side;
    } else if (proposals[i].kind == YieldKind::Aside && room(a, -side, aside)) {
      m.yield = YieldKind::Aside;
      m.yieldDirection = -side;
    } else {
      m.yield = YieldKind::Back;
      m.yieldDirection = back;
    }
  }
  // Queues: held up (below a third of its preferred speed) behind one going the same way who
  // waits at a passage or queues itself.
  queueState.assign(agents.size(), 0);
  auto heldBack = [&](std::size_t k) {
    const float wanted = agents[k].preferred.norm();
    return !idle(k) && memory[k]->yield == YieldKind::None && out[k].velocity.dot(agents[k].preferred) < wanted * wanted / 3.0f;
  };
  for (std::size_t i = 0; i < agents.size(); ++i) {
    // Walk the chain of agents in front until one waits, or the chain breaks (or loops).
    std::size_t k = i;
    std::uint8_t verdict = 3;
    std::vector<std::uint32_t>& chain = candidates;  // scratch: the passage rule is done with it
    chain.clear();
    while (true) {
      if (queueState[k] >= 2) {
        verdict = queueState[k];
        break;
      }
      if (queueState[k] == 1 || !heldBack(k) || front[k] < 0) break;
      const std::size_t next = std::size_t(front[k]);
      if (agents[next].preferred.dot(agents[k].preferred) <= 0.0f) break;
      queueState[k] = 1;
      chain.push_back(std::uint32_t(k));
      if (memory[next]->waiting) {
        verdict = 2;
        break;
      }
      k = next;
    }
    for (const std::uint32_t c : chain) queueState[c] = verdict;
    if (queueState[i] == 0) queueState[i] = 3;
    memory[i]->queued = queueState[i] == 2;
  }
  // Agents absent from this frame are forgotten.
  for (auto it = memories.begin(); it != memories.end();) {
    it = it->second.frame == frame ? std::next(it) : memories.erase(it);
  }
}

}  // namespace rpgnav
