// SPDX-License-Identifier: MIT
#include "rpgnav/avoid/local_avoidance.hpp"

#include "half_plane_lp.hpp"
#include "obstacle_planes.hpp"
#include "passages.hpp"
#include "rpgnav/nav/nav_data.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace rpgnav {

using avoid::HalfPlane;

namespace {

// Below this fraction of the speed an agent counts as idle (no preferred velocity) or as held up.
constexpr float kIdleFraction = 0.05f;
// The yield rule's clocks (seconds) and speeds (fractions of the max speed).
constexpr float kYieldAfter = 0.3f;     // held up this long with a partner in front: a conflict
constexpr float kYieldMinimum = 0.5f;   // a yield lasts at least this long...
constexpr float kYieldTimeout = 3.0f;   // ...and at most this long
constexpr float kRightOfWay = 1.5f;     // a winner keeps going first this long
constexpr float kPassageTurn = 4.0f;   // a side waiting this long at a passage gets the next turn
constexpr float kCommitPatience = 2.0f;   // held up this long short of its passage: gives its turn up
constexpr float kMouthClearance = 1.25f;  // tiles kept between a waiting body and the passage
constexpr std::int32_t kMaxSides = 8;    // passage mouths told apart (more: treated as unknown)
constexpr float kAsideSpeed = 0.5f;
constexpr float kBackSpeed = 0.6f;
// Shares of the avoiding between a yielding agent and the one it makes way for.
constexpr float kYielderShare = 0.9f;
// Keep right: a head-on neighbour turns the preferred velocity by 15 degrees (cos, sin), no trig.
constexpr float kKeepRightCos = 0.96592583f, kKeepRightSin = 0.25881905f;
// Held up this long (seconds, not yielding, not waiting): its wish turns 40 degrees aside.
constexpr float kWiggleAfter = 0.8f;
constexpr float kWiggleCos = 0.76604444f, kWiggleSin = 0.64278761f;
// The most planes an agent builds: neighbours plus obstacles.
constexpr std::size_t kMaxNeighbours = 32;
constexpr std::size_t kMaxObstaclePlanes = 64;
// Obstacle planes gathered before the nearest kMaxObstaclePlanes are kept.
constexpr std::size_t kMaxGathered = 512;
// Steps shorter than this are taken as this long where an overlap is undone (no overflow).
constexpr double kShortestStep = 1e-4;
// Agents faster than this many times the mean max speed are looked for by everyone apart, so
// that one fast agent does not widen everyone's neighbour search.
constexpr float kFastFactor = 2.0f;

float cross(Vec2 a, Vec2 b) noexcept { return a.x() * b.y() - a.y() * b.x(); }

Vec2 clampLength(Vec2 v, float length) noexcept {
  const float squared = v.squaredNorm();
  if (squared <= length * length) return v;
  return v * (length / std::sqrt(squared));
}

// What the avoidance remembers of an agent between frames (the yield rule).
struct Memory {
  std::uint64_t frame = 0;  // the last frame it was seen in
  std::uint32_t index = 0;  // its place in that frame's agents
  float heldUp = 0.0f;      // seconds below a third of its preferred speed while it wanted to move
  float waited = 0.0f;      // seconds held up or yielding since it last went at speed
  float rightOfWay = 0.0f;  // seconds it still goes first after winning a conflict
  YieldKind yield = YieldKind::None;
  EntityId yieldTo{0};
  float yieldAge = 0.0f;
  Vec2 yieldDirection = Vec2::Zero();
  // The passage rule: the passage ahead (-1: none), the mouth it comes from (-1: unknown),
  // whether it holds the passage for its side or waits, and for how long it has waited.
  std::int32_t passage = -1;
  std::uint64_t passageGeneration = 0;  // PassageMap::generation() when `passage` was found
  std::int32_t side = -1;
  bool committed = false;
  bool waiting = false;
  bool queued = false;  // held up behind one who waits at a passage (reported as waiting)
  float waitedAtPassage = 0.0f;
  Vec2 entry = Vec2::Zero();  // where its way enters the passage
};

}  // namespace

struct RPGNAV_HIDDEN LocalAvoidance::Impl {
  const World* world;
  float tile;
  std::uint64_t frame = 0;
  double dt = 0.0;
  // The frame.
  std::vector<AvoidanceAgent> agents;
  std::vector<Memory*> memory;      // per agent
  std::vector<float> avoidRadius;   // body radius + margin
  std::vector<float> reach;         // neighbour search distance
  std::vector<std::int32_t> front;  // the nearest agent in its way (index), -1: none
  std::vector<Entity> discs;        // static entities
  std::vector<std::array<Vec2, 2>> doors;  // closed doors
  std::unordered_map<std::uint32_t, Memory> memories;
  // The uniform grid: agents by the cell of their position; discs and doors in every cell their
  // reach overlaps (so an agent looks at its own cell only for them).
  // In double: positions far apart (up to the float range) must not overflow the extents.
  double gridLowX = 0.0, gridLowY = 0.0;
  double cell = 1.0;
  std::int32_t columns = 0, rows = 0;
  std::vector<std::uint32_t> agentStart, agentOrder;
  std::vector<std::uint32_t> obstacleStart, obstacleOrder;  // items: discs, then doors (index + discs.size())
  std::vector<std::uint32_t> counts;
  struct Proposal {
    std::int32_t winner = -1;
    YieldKind kind = YieldKind::None;
  };
  std::vector<Proposal> proposals;  // finish(): the loser makes way for the best winner proposed
  // The passage rule's state.
  avoid::PassageMap passages;
  struct Traffic {
    std::uint64_t frame = 0;  // the frame these counts are of (older: all zero)
    std::array<std::int32_t, kMaxSides> occupants{};
    std::array<float, kMaxSides> waited{};
  };
  std::vector<Traffic> traffic;  // by passage number
  Traffic& trafficOf(std::int32_t passage) {
    if (std::size_t(passage) >= traffic.size()) traffic.resize(std::size_t(passage) + 1);
    Traffic& t = traffic[std::size_t(passage)];
    if (t.frame != frame) t = Traffic{frame};
    return t;
  }
  // Fast agents (see kFastFactor), looked for apart; the cap on the others' speeds.
  std::vector<std::uint32_t> fast;
  std::vector<std::uint8_t> isFast;
  float slowCap = 0.0f;
  std::vector<std::uint32_t> candidates;
  std::vector<std::uint8_t> queueState;  // finish(): 0 not looked at, 1 looking, 2 queued, 3 not

  explicit Impl(const World& w) : world(&w), tile(w.map().layout().tileSize()) {}

  std::int32_t cellX(double x) const noexcept { return cellOf((x - gridLowX) / cell, columns); }
  std::int32_t cellY(double y) const noexcept { return cellOf((y - gridLowY) / cell, rows); }
  static std::int32_t cellOf(double at, std::int32_t count) noexcept {
    return at >= 0.0 ? std::int32_t(std::min(std::floor(at), double(count - 1))) : 0;
  }

  Status prepare(std::span<const AvoidanceAgent> input, std::span<const Entity> obstacles, double step);
  void buildGrid(float obstacleReach);
  void passageRule();
  void solveOne(std::size_t i, AvoidanceResult& out);
  void finish(std::span<const AvoidanceResult> out);
  float shareOf(std::size_t a, std::size_t b) const noexcept;
  // The frame's index of the agent with this id, or -1.
  std::int32_t indexOf(EntityId id) const noexcept {
    const auto it = memories.find(id.value);
    return it != memories.end() && it->second.frame == frame ? std::int32_t(it->second.index) : -1;
  }
  bool room(const AvoidanceAgent& agent, Vec2 direction, float distance) const noexcept;
};

bool validAvoidanceSettings(const AvoidanceSettings& s) noexcept {
  return s.margin >= 0.0f && s.margin <= 0.5f && s.maxNeighbours >= 1 && s.maxNeighbours <= 32 &&
         s.timeHorizon > 0.0f && s.timeHorizon <= 10.0f && s.obstacleTimeHorizon > 0.0f &&
         s.obstacleTimeHorizon <= 10.0f;
}

Status LocalAvoidance::Impl::prepare(std::span<const AvoidanceAgent> input, std::span<const Entity> obstacles,
                                     double step) {
  if (!(step > 0.0) || !std::isfinite(step)) return Status::InvalidArgument;
  const float maxRadius = NavData::kMaxRadiusTiles * tile;
  for (const AvoidanceAgent& agent : input) {
    if (agent.id.value == 0 || !finite(agent.position) || !finite(agent.velocity) ||
        !finite(agent.preferred) || !(agent.radius >= 0.0f && agent.radius <= maxRadius) ||
        !(agent.maxSpeed > 0.0f) || !std::isfinite(agent.maxSpeed) || !validAvoidanceSettings(agent.settings)) {
      return Status::InvalidArgument;
    }
  }
  ++frame;
  // Ids must be unique: each finds (or makes) its memory, stamped with this frame.
  memory.resize(input.size());
  for (std::size_t i = 0; i < input.size(); ++i) {
    Memory& m = memories[input[i].id.value];
    if (m.frame == frame) {
      // A duplicate: undo this frame's stamps so that nothing half-prepared is left.
      for (std::size_t j = 0; j < i; ++j) memory[j]->frame = frame - 1;
      --frame;
      return Status::InvalidArgument;
    }
    if (m.frame + 1 != frame) m = Memory{};  // absent last frame: a fresh start
    m.frame = frame;
    m.index = std::uint32_t(i);
    memory[i] = &m;
  }
  dt = step;
  agents.assign(input.begin(), input.end());
  avoidRadius.resize(agents.size());
  reach.resize(agents.size());
  front.assign(agents.size(), -1);
  float largestRadius = 0.0f, fastest = 0.0f;
  double speeds = 0.0;
  for (std::size_t i = 0; i < agents.size(); ++i) {
    avoidRadius[i] = agents[i].radius + agents[i].settings.margin * tile;
    largestRadius = std::max(largestRadius, avoidRadius[i]);
    fastest = std::max(fastest, agents[i].maxSpeed);
    speeds += double(agents[i].maxSpeed);
  }
  // The fast few are looked for apart; everyone else's search reaches as far as agents up to
  // the cap can come.
  slowCap = agents.empty() ? 0.0f : std::min(fastest, kFastFactor * float(speeds / double(agents.size())));
  fast.clear();
  isFast.assign(agents.size(), 0);
  float obstacleReach = 0.0f;
  for (std::size_t i = 0; i < agents.size(); ++i) {
    const AvoidanceAgent& a = agents[i];
    if (a.maxSpeed > slowCap) {
      fast.push_back(std::uint32_t(i));
      isFast[i] = 1;
    }
    reach[i] = avoidRadius[i] + largestRadius + (a.maxSpeed + slowCap) * a.settings.timeHorizon;
    obstacleReach = std::max(obstacleReach, avoidRadius[i] + a.maxSpeed * a.settings.obstacleTimeHorizon);
  }
  discs.clear();
  for (const Entity& entity : obstacles) {
    if (!entity.flat() && finite(entity.position) && entity.radius >= 0.0f && std::isfinite(entity.radius)) {
      discs.push_back(entity);
    }
  }
  doors.clear();
  for (const Door& door : world->doors()) {
    if (!door.removed && door.state != DoorState::Open) doors.push_back(door.edge);
  }
  buildGrid(obstacleReach);
  passageRule();
  return Status::Ok;
}

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

void LocalAvoidance::Impl::buildGrid(float obstacleReach) {
  if (agents.empty()) {
    columns = rows = 0;
    return;
  }
  double lowX = double(agents[0].position.x()), lowY = double(agents[0].position.y()), highX = lowX, highY = lowY;
  double widest = 0.0;
  for (std::size_t i = 0; i < agents.size(); ++i) {
    lowX = std::min(lowX, double(agents[i].position.x()));
    lowY = std::min(lowY, double(agents[i].position.y()));
    highX = std::max(highX, double(agents[i].position.x()));
    highY = std::max(highY, double(agents[i].position.y()));
    if (!isFast[i]) widest = std::max(widest, double(reach[i]));
  }
  // Cells of half the widest reach: an agent scans about 5 x 5 of them. Far-flung agents get
  // coarser cells, so that the grid never has many more cells than agents.
  cell = std::max(widest * 0.5, 0.25 * double(tile));
  const double limit = 4.0 * double(agents.size()) + 4096.0;
  auto span = [&](double extent) { return extent / cell + 1.0; };
  while (span(highX - lowX) * span(highY - lowY) > limit) cell *= 2.0;
  gridLowX = lowX;
  gridLowY = lowY;
  columns = std::int32_t(span(highX - lowX));
  rows = std::int32_t(span(highY - lowY));
  const std::size_t cells = std::size_t(columns) * std::size_t(rows);
  // Agents, by counting sort (stable: input order within a cell; the answers do not depend on
  // it, the neighbour choice breaks ties on ids).
  agentStart.assign(cells + 1, 0);
  for (const AvoidanceAgent& agent : agents) {
    ++agentStart[std::size_t(cellY(agent.position.y())) * std::size_t(columns) + std::size_t(cellX(agent.position.x())) + 1];
  }
  for (std::size_t c = 0; c < cells; ++c) agentStart[c + 1] += agentStart[c];
  counts.assign(agentStart.begin(), agentStart.end() - 1);
  agentOrder.resize(agents.size());
  for (std::size_t i = 0; i < agents.size(); ++i) {
    const std::size_t c = std::size_t(cellY(agents[i].position.y())) * std::size_t(columns) + std::size_t(cellX(agents[i].position.x()));
    agentOrder[counts[c]++] = std::uint32_t(i);
  }
  // Obstacles: into every cell their box, grown by the largest obstacle reach, overlaps.
  obstacleStart.assign(cells + 1, 0);
  const double gridHighX = gridLowX + double(columns) * cell, gridHighY = gridLowY + double(rows) * cell;
  auto forCells = [&](Vec2 boxLow, Vec2 boxHigh, auto&& visit) {
    boxLow -= Vec2::Constant(obstacleReach);
    boxHigh += Vec2::Constant(obstacleReach);
    if (double(boxHigh.x()) < gridLowX || double(boxHigh.y()) < gridLowY || double(boxLow.x()) > gridHighX ||
        double(boxLow.y()) > gridHighY) {
      return;
    }
    const std::int32_t x0 = cellX(boxLow.x()), x1 = cellX(boxHigh.x()), y0 = cellY(boxLow.y()), y1 = cellY(boxHigh.y());
    for (std::int32_t y = y0; y <= y1; ++y) {
      for (std::int32_t x = x0; x <= x1; ++x) visit(std::size_t(y) * std::size_t(columns) + std::size_t(x));
    }
  };
  auto forItems = [&](auto&& visit) {
    for (std::size_t k = 0; k < discs.size(); ++k) {
      const Vec2 r = Vec2::Constant(discs[k].radius);
      forCells(discs[k].position - r, discs[k].position + r, [&](std::size_t c) { visit(c, std::uint32_t(k)); });
    }
    for (std::size_t k = 0; k < doors.size(); ++k) {
      forCells(doors[k][0].cwiseMin(doors[k][1]), doors[k][0].cwiseMax(doors[k][1]),
               [&](std::size_t c) { visit(c, std::uint32_t(discs.size() + k)); });
    }
  };
  forItems([&](std::size_t c, std::uint32_t) { ++obstacleStart[c + 1]; });
  for (std::size_t c = 0; c < cells; ++c) obstacleStart[c + 1] += obstacleStart[c];
  counts.assign(obstacleStart.begin(), obstacleStart.end() - 1);
  obstacleOrder.resize(obstacleStart.back());
  forItems([&](std::size_t c, std::uint32_t item) { obstacleOrder[counts[c]++] = item; });
}

float LocalAvoidance::Impl::shareOf(std::size_t a, std::size_t b) const noexcept {
  const AvoidanceAgent& A = agents[a];
  const AvoidanceAgent& B = agents[b];
  if (!B.settings.responsive) return 1.0f;
  if (memory[a]->yield != YieldKind::None && memory[a]->yieldTo == B.id) return kYielderShare;
  if (memory[b]->yield != YieldKind::None && memory[b]->yieldTo == A.id) return 1.0f - kYielderShare;
  // One waiting at a passage keeps out of the way of those going about.
  if (memory[a]->waiting != memory[b]->waiting) return memory[a]->waiting ? kYielderShare : 1.0f - kYielderShare;
  if (A.settings.priority == B.settings.priority) return 0.5f;
  return A.settings.priority > B.settings.priority ? 0.25f : 0.75f;
}

bool LocalAvoidance::Impl::room(const AvoidanceAgent& agent, Vec2 direction, float distance) const noexcept {
  // Tiles the mobility can enter all along, a quarter tile apart, out to the body's far side.
  const TileMap& map = world->map();
  const float total = distance + agent.radius;
  for (float along = 0.25f * tile; along <= total + 1e-3f * tile; along += 0.25f * tile) {
    const std::optional<Cell> at = map.tileAt(agent.position + direction * along);
    if (!at || !map.passable(*at, agent.mobility)) return false;
  }
  return true;
}

void LocalAvoidance::Impl::solveOne(std::size_t i, AvoidanceResult& out) {
  const AvoidanceAgent& a = agents[i];
  const Memory& m = *memory[i];
  const float speed = a.maxSpeed;
  out = AvoidanceResult{};
  Vec2 preferred = clampLength(a.preferred, speed);
  if (!a.settings.responsive) {
    out.velocity = preferred;
    return;
  }
  if (m.waiting) {
    // Waits clear of the passage's mouth, so that those coming out can get by.
    out.yield = YieldKind::Wait;
    const Vec2 away = a.position - m.entry;
    const float distance = away.norm();
    preferred = distance > 0.0f && distance < a.radius + kMouthClearance * tile ? Vec2(away * (kAsideSpeed * speed / distance))
                                                                                : Vec2::Zero();
  } else if (m.queued && m.yield == YieldKind::None) {
    out.yield = YieldKind::Wait;
  } else if (m.yield != YieldKind::None) {
    out.yield = m.yield;
    out.yieldingTo = m.yieldTo;
    preferred = m.yieldDirection * (speed * (m.yield == YieldKind::Aside ? kAsideSpeed : kBackSpeed));
  }
  const float radius = avoidRadius[i];
  const float tau = a.settings.timeHorizon;
  // Held up for long in a knot of agents: try sideways, to one side then the other (by id and
  // time, deterministic), so that a knot where every wish blocks another comes undone.
  if (m.yield == YieldKind::None && !m.waiting && m.heldUp >= kWiggleAfter) {
    const bool left = ((a.id.value + std::uint32_t(m.heldUp / kWiggleAfter)) & 1u) != 0;
    const float sine = left ? -kWiggleSin : kWiggleSin;
    preferred = Vec2(kWiggleCos * preferred.x() - sine * preferred.y(), sine * preferred.x() + kWiggleCos * preferred.y());
  }

  // The nearest agents within reach, by (distance squared, id).
  struct Near {
    float d2;
    std::uint32_t id;
    std::uint32_t index;
  };
  std::array<Near, kMaxNeighbours> near;
  std::size_t found = 0;
  const std::size_t wanted = std::size_t(a.settings.maxNeighbours);
  auto consider = [&](std::uint32_t j, float within) {
    const float d2 = (agents[j].position - a.position).squaredNorm();
    if (!(d2 < within * within)) return;
    const Near candidate{d2, agents[j].id.value, j};
    auto before = [](const Near& p, const Near& q) { return p.d2 != q.d2 ? p.d2 < q.d2 : p.id < q.id; };
    if (found == wanted && !before(candidate, near[found - 1])) return;
    std::size_t at = found < wanted ? found++ : found - 1;
    while (at > 0 && before(candidate, near[at - 1])) {
      near[at] = near[at - 1];
      --at;
    }
    near[at] = candidate;
  };
  // Within reach of each other in the horizon, at both speeds.
  auto pairReach = [&](std::uint32_t j) {
    return radius + avoidRadius[j] + (speed + agents[j].maxSpeed) * a.settings.timeHorizon;
  };
  if (isFast[i]) {
    // A fast agent reaches beyond the grid's rings: it looks at everyone.
    for (std::uint32_t j = 0; j < agents.size(); ++j) {
      if (j != i) consider(j, pairReach(j));
    }
  } else {
    const std::int32_t ring = std::int32_t(std::ceil(double(reach[i]) / cell));
    const std::int32_t cx = cellX(a.position.x()), cy = cellY(a.position.y());
    for (std::int32_t y = std::max(0, cy - ring); y <= std::min(rows - 1, cy + ring); ++y) {
      for (std::int32_t x = std::max(0, cx - ring); x <= std::min(columns - 1, cx + ring); ++x) {
        const std::size_t c = std::size_t(y) * std::size_t(columns) + std::size_t(x);
        for (std::uint32_t k = agentStart[c]; k < agentStart[c + 1]; ++k) {
          const std::uint32_t j = agentOrder[k];
          if (j != i && !isFast[j]) consider(j, reach[i]);
        }
      }
    }
    for (const std::uint32_t j : fast) consider(j, pairReach(j));
  }
  out.neighbours = std::uint8_t(found);

  // Who stands in its way (for the yield rule), and keep right against one coming head-on.
  const float prefLength = a.preferred.norm();
  if (prefLength > kIdleFraction * speed) {
    const Vec2 heading = a.preferred / prefLength;
    for (std::size_t k = 0; k < found; ++k) {
      const AvoidanceAgent& b = agents[near[k].index];
      const Vec2 offset = b.position - a.position;
      const float distance = std::sqrt(near[k].d2);
      const float ahead = offset.dot(heading);
      if (ahead <= 0.3f * distance) continue;
      if (front[i] < 0 && distance < radius + avoidRadius[near[k].index] + 0.5f * tile) front[i] = std::int32_t(near[k].index);
      if (m.yield == YieldKind::None && b.velocity.dot(heading) < -0.25f * b.velocity.norm() &&
          std::fabs(cross(heading, offset)) < radius + avoidRadius[near[k].index] &&
          distance < radius + avoidRadius[near[k].index] + speed * tau) {
        // Each turns to its own right (y grows downwards on screen): they pass on opposite sides.
        preferred = Vec2(kKeepRightCos * preferred.x() - kKeepRightSin * preferred.y(),
                         kKeepRightSin * preferred.x() + kKeepRightCos * preferred.y());
        break;
      }
    }
  }

  // Hard planes first: walls, closed doors, static entities; all gathered, the nearest kept.
  std::array<HalfPlane, kMaxObstaclePlanes + kMaxNeighbours> planes;
  std::array<HalfPlane, kMaxGathered> gathered;
  std::size_t count = 0;
  if (columns > 0) {
    const std::size_t c = std::size_t(cellY(a.position.y())) * std::size_t(columns) + std::size_t(cellX(a.position.x()));
    avoid::ObstacleBody body{a.position, a.radius, speed, a.settings.obstacleTimeHorizon};
    count = avoid::wallPlanes(world->map(), a.mobility, body, std::span<HalfPlane>(gathered.data(), kMaxGathered));
    for (std::uint32_t k = obstacleStart[c]; k < obstacleStart[c + 1] && count + 1 < kMaxGathered; ++k) {
      const std::uint32_t item = obstacleOrder[k];
      if (item < discs.size()) {
        if (discs[item].id == a.id) continue;
        avoid::discPlane(body, discs[item].position, discs[item].radius, gathered.data(), count);
        // Two discs too close for the body to pass between: the notch between them is closed
        // too (a capsule from one to the other), so that nobody stands in it, where no way round
        // the pair could start.
        for (std::uint32_t l = obstacleStart[c]; l < k && count < kMaxGathered; ++l) {
          const std::uint32_t other = obstacleOrder[l];
          if (other >= discs.size() || discs[other].id == a.id) continue;
          const Entity& p = discs[item];
          const Entity& q = discs[other];
          if ((p.position - q.position).norm() - p.radius - q.radius < 2.0f * radius) {
            avoid::capsulePlane(body, p.position, q.position, std::min(p.radius, q.radius), gathered.data(), count);
          }
        }
      } else {
        avoid::doorPlane(body, doors[item - discs.size()], gathered.data(), count);
      }
    }
  }
  if (count > kMaxObstaclePlanes) {
    // The nearest ones (the smallest offsets: the gap over the horizon), ties to the earlier,
    // in their gathered order.
    std::array<std::uint16_t, kMaxGathered> order;
    for (std::size_t k = 0; k < count; ++k) order[k] = std::uint16_t(k);
    auto nearer = [&](std::uint16_t p, std::uint16_t q) {
      return gathered[p].offset != gathered[q].offset ? gathered[p].offset < gathered[q].offset : p < q;
    };
    std::nth_element(order.begin(), order.begin() + kMaxObstaclePlanes, order.begin() + std::ptrdiff_t(count), nearer);
    std::sort(order.begin(), order.begin() + kMaxObstaclePlanes);
    for (std::size_t k = 0; k < kMaxObstaclePlanes; ++k) planes[k] = gathered[order[k]];
    count = kMaxObstaclePlanes;
  } else {
    std::copy(gathered.begin(), gathered.begin() + std::ptrdiff_t(count), planes.begin());
  }
  const std::size_t hard = count;
  out.obstacles = std::uint8_t(hard);

  // ORCA planes against the neighbours.
  const float invTau = 1.0f / tau;
  const float invStep = float(1.0 / std::max(dt, kShortestStep));
  for (std::size_t k = 0; k < found; ++k) {
    const std::size_t j = near[k].index;
    const AvoidanceAgent& b = agents[j];
    const Vec2 relPos = b.position - a.position;
    const Vec2 relVel = a.velocity - b.velocity;
    const float combined = radius + avoidRadius[j];
    const float distSq = relPos.squaredNorm();
    Vec2 direction, u;
    if (distSq > combined * combined) {
      const Vec2 w = relVel - invTau * relPos;  // from the cut-off circle's centre
      const float wSq = w.squaredNorm();
      const float dot = w.dot(relPos);
      if (dot < 0.0f && dot * dot > combined * combined * wSq) {
        const float wLength = std::sqrt(wSq);
        const Vec2 unitW = w / wLength;
        direction = Vec2(unitW.y(), -unitW.x());
        u = (combined * invTau - wLength) * unitW;
      } else {
        const float leg = std::sqrt(distSq - combined * combined);
        if (cross(relPos, w) > 0.0f) {
          direction = Vec2(relPos.x() * leg - relPos.y() * combined, relPos.x() * combined + relPos.y() * leg) / distSq;
        } else {
          direction = -Vec2(relPos.x() * leg + relPos.y() * combined, -relPos.x() * combined + relPos.y() * leg) / distSq;
        }
        u = relVel.dot(direction) * direction - relVel;
      }
    } else {
      // Overlapping already: get apart within this step.
      Vec2 w = relVel - invStep * relPos;
      float wLength = w.norm();
      Vec2 unitW;
      if (wLength > 1e-6f * speed) {
        unitW = w / wLength;
      } else {  // the same place and motion: the lower id goes one way, the other the other
        unitW = a.id.value < b.id.value ? Vec2(1.0f, 0.0f) : Vec2(-1.0f, 0.0f);
        wLength = 0.0f;
      }
      direction = Vec2(unitW.y(), -unitW.x());
      u = (combined * invStep - wLength) * unitW;
    }
    const Vec2 point = a.velocity + shareOf(i, j) * u;
    // Allowed: left of `direction` through `point`.
    const Vec2 normal(direction.y(), -direction.x());
    planes[count++] = HalfPlane{normal, normal.dot(point)};
  }

  // Solve in units of the max speed.
  const float scale = 1.0f / speed;
  for (std::size_t k = 0; k < count; ++k) planes[k].offset *= scale;
  avoid::LpAnswer answer = avoid::solveVelocity(std::span<const HalfPlane>(planes.data(), count), hard, preferred * scale);
  if (answer.hardFailed) {
    // Walls on both sides closer than the radius (it was pushed in): stand still may always.
    for (std::size_t k = 0; k < hard; ++k) planes[k].offset = std::max(planes[k].offset, 0.0f);
    answer = avoid::solveVelocity(std::span<const HalfPlane>(planes.data(), count), hard, preferred * scale);
    if (answer.hardFailed) answer.velocity = Vec2::Zero();
  }
  out.infeasible = answer.relaxed;
  out.velocity = clampLength(answer.velocity * speed, speed);
  if (!finite(out.velocity)) out.velocity = Vec2::Zero();  // only rounding of extreme inputs
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

LocalAvoidance::LocalAvoidance(const World& world) : m_impl(std::make_unique<Impl>(world)) {}
LocalAvoidance::~LocalAvoidance() = default;
LocalAvoidance::LocalAvoidance(LocalAvoidance&&) noexcept = default;
LocalAvoidance& LocalAvoidance::operator=(LocalAvoidance&&) noexcept = default;

Status LocalAvoidance::prepare(std::span<const AvoidanceAgent> agents, std::span<const Entity> obstacles, double dt) {
  return m_impl->prepare(agents, obstacles, dt);
}

void LocalAvoidance::solve(std::size_t first, std::size_t count, std::span<AvoidanceResult> out) const {
  const std::size_t size = std::min(m_impl->agents.size(), out.size());
  if (first >= size) return;
  const std::size_t end = first + std::min(count, size - first);
  for (std::size_t i = first; i < end; ++i) m_impl->solveOne(i, out[i]);
}

void LocalAvoidance::finish(std::span<const AvoidanceResult> out) {
  if (out.size() != m_impl->agents.size()) return;
  m_impl->finish(out);
}

Status LocalAvoidance::step(std::span<const AvoidanceAgent> agents, std::span<const Entity> obstacles, double dt,
                            std::span<AvoidanceResult> out) {
  if (out.size() != agents.size()) return Status::InvalidArgument;
  const Status status = prepare(agents, obstacles, dt);
  if (status != Status::Ok) return status;
  solve(0, agents.size(), out);
  finish(out);
  return Status::Ok;
}

std::size_t LocalAvoidance::size() const noexcept { return m_impl->agents.size(); }

}  // namespace rpgnav
