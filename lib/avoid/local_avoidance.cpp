// SPDX-License-Identifier: MIT
// Local avoidance: the frame's agents and obstacles prepared, the grid of neighbours, and the
// public LocalAvoidance over its Impl (avoidance_impl.hpp).
#include "avoidance_impl.hpp"

#include <algorithm>
#include <cmath>

namespace rpgnav {

using namespace avoid;


bool validAvoidanceSettings(const AvoidanceSettings& s) noexcept {
  return s.margin >= 0.0f && s.margin <= 0.5f && s.maxNeighbours >= 1 && s.maxNeighbours <= 32 &&
         s.timeHorizon > 0.0f && s.timeHorizon <= 10.0f && s.obstacleTimeHorizon > 0.0f &&
         s.obstacleTimeHorizon <= 10.0f;
}

Status LocalAvoidance::Impl::prepare(std::span<const AvoidanceAgent> input, std::span<const Entity> obstacles,
                                     double step) {
  if (!(step > 0.0) || !std::isfinite(step)) return Status::InvalidArgument;
  const float maxRadius = kMaxRadiusTiles * tile;
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
