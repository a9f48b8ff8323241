// SPDX-License-Identifier: MIT
// SectorFields: crowd fields for big maps, built a sector at a time over a portal graph.
#include "rpgnav/field/crowd_field.hpp"

#include "grid/clearance.hpp"
#include "grid/step_cost.hpp"

#include <algorithm>
#include <map>
#include <queue>

namespace rpgnav {
namespace {

constexpr std::int64_t kInfinity = CrowdField::kUnreachable;

// The fixed-point cost of the straight step between two enterable tiles of costs `a` and `b`
// (no danger): half of it on each, at the cost the fields give them (CrowdField's rates).
std::int64_t stepCost(float a, float b) {
  const auto half = [](float cost) { return halfStraightCost(std::clamp(cost, kMinSearchCost, kMaxSearchCost)); };
  return half(a) + half(b);
}

}  // namespace

struct RPGNAV_HIDDEN SectorFields::Impl {
  Impl(const CostField& costs, int size);
  Status setGoal(Cell goal);
  std::uint8_t direction(Cell cell);
  Vec2 flow(Cell cell);
  std::int64_t distance(Cell cell);
  void prepare(Cell cell);
  int sectorsBuilt() const noexcept;

  struct Node {  // one side of a portal: its middle tile, in its sector
    Cell cell;
    int sector;
    int partner;  // the node across the border
    std::int64_t crossing;  // the step from this node's tile onto the partner's
    std::vector<std::pair<int, std::int64_t>> inward;  // (node v of this sector, cost v → this)
  };
  int sectorOf(Cell cell) const noexcept { return (cell.y / m_size) * m_columns + cell.x / m_size; }
  Cell originOf(int sector) const noexcept { return {(sector % m_columns) * m_size - 2, (sector / m_columns) * m_size - 2}; }
  CrowdField& fieldOf(int sector);
  // The sector's tiles with a ring of two round it, all closed (impassable).
  CostField sectorCosts(int sector) const;

  CostField m_costs;
  int m_size;
  int m_columns, m_rows;
  std::vector<Node> m_nodes;
  std::vector<std::pair<int, int>> m_portals;  // node pairs
  std::vector<std::vector<int>> m_sectorNodes;  // per sector
  Cell m_goal{-1, -1};
  std::vector<std::int64_t> m_price;  // per node: cost to the goal
  std::vector<std::unique_ptr<CrowdField>> m_fields;  // per sector, built on demand
};

SectorFields::Impl::Impl(const CostField& costs, int size)
    : m_costs(costs), m_size(std::clamp(size, kMinSectorSize, kMaxSectorSize) + std::clamp(size, kMinSectorSize, kMaxSectorSize) % 2) {
  m_columns = (costs.width() + m_size - 1) / m_size;
  m_rows = (costs.height() + m_size - 1) / m_size;
  const int sectors = m_columns * m_rows;
  m_sectorNodes.resize(std::size_t(sectors));
  m_fields.resize(std::size_t(sectors));
  const Layout& layout = costs.layout();

  // Every step between two enterable tiles of different sectors that share an edge, by sector
  // pair (in a fixed order: deterministic portals). Square diagonals are left out: the tiles
  // beside one lie in other sectors, closed in a sector's field; and whatever they join, the two
  // orthogonal steps round them join too.
  struct Crossing {
    Cell from, to;
  };
  std::map<std::pair<int, int>, std::vector<Crossing>> crossings;
  for (std::int32_t y = 0; y < costs.height(); ++y) {
    for (std::int32_t x = 0; x < costs.width(); ++x) {
      const Cell from{x, y};
      if (costs.at(from) == CostField::kImpassable) continue;
      const std::span<const NeighbourStep> moves = layout.moves(from);
      for (const NeighbourStep& step : moves) {
        const Cell to{x + step.dx, y + step.dy};
        if (!step.sharesEdge || !costs.contains(to) || costs.at(to) == CostField::kImpassable) continue;
        const int here = sectorOf(from), there = sectorOf(to);
        if (here < there) crossings[{here, there}].push_back({from, to});
      }
    }
  }
  // Runs of neighbouring crossings make one portal, with a node on each side at the middle.
  for (const auto& [sectors, list] : crossings) {
    std::size_t begin = 0;
    for (std::size_t i = 1; i <= list.size(); ++i) {
      // Neighbours along the border on both sides (orthogonal ones on squares: a diagonal pair
      // may be cut off): each side of a run is one chain of enterable tiles, joined inside its
      // sector, so every tile of it reaches the run's middle without leaving the sector.
      auto apart = [&](Cell a, Cell b) {
        return layout.isHex() ? layout.stepDistance(a, b) > 1 : std::abs(a.x - b.x) + std::abs(a.y - b.y) > 1;
      };
      const bool split = i == list.size() || apart(list[i].from, list[i - 1].from) || apart(list[i].to, list[i - 1].to);
      if (!split) continue;
      const Crossing& middle = list[begin + (i - begin) / 2];
      const int a = int(m_nodes.size()), b = a + 1;
      const std::int64_t crossing = stepCost(costs.cost(middle.from), costs.cost(middle.to));
      m_nodes.push_back({middle.from, sectors.first, b, crossing, {}});
      m_nodes.push_back({middle.to, sectors.second, a, crossing, {}});
      m_portals.push_back({a, b});
      m_sectorNodes[std::size_t(sectors.first)].push_back(a);
      m_sectorNodes[std::size_t(sectors.second)].push_back(b);
      begin = i;
    }
  }
  // The cost between the nodes of each sector, inside it: a field towards each node.
  for (int sector = 0; sector < sectors; ++sector) {
    const std::vector<int>& nodes = m_sectorNodes[std::size_t(sector)];
    if (nodes.size() < 2) continue;
    const Cell origin = originOf(sector);
    CrowdField field(sectorCosts(sector));
    for (const int u : nodes) {
      const Cell goal{m_nodes[std::size_t(u)].cell.x - origin.x, m_nodes[std::size_t(u)].cell.y - origin.y};
      field.setGoals(std::span<const Cell>(&goal, 1));
      for (const int v : nodes) {
        if (v == u) continue;
        const std::int64_t d = field.distance({m_nodes[std::size_t(v)].cell.x - origin.x, m_nodes[std::size_t(v)].cell.y - origin.y});
        if (d != kInfinity) m_nodes[std::size_t(u)].inward.push_back({v, d});
      }
    }
  }
}

Status SectorFields::Impl::setGoal(Cell goal) {
  if (!m_costs.contains(goal)) return Status::InvalidArgument;
  m_goal = goal;
  for (auto& field : m_fields) field.reset();
  m_price.assign(m_nodes.size(), kInfinity);
  // The goal's sector prices its own nodes; the portal graph prices the rest (Dijkstra backwards:
  // a node's price is the cheapest way from it to the goal).
  const int home = sectorOf(goal);
  CrowdField& local = fieldOf(home);  // the goal alone: no exits are priced yet
  using Entry = std::pair<std::int64_t, int>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
  const Cell origin = originOf(home);
  for (const int node : m_sectorNodes[std::size_t(home)]) {
    const std::int64_t d = local.distance({m_nodes[std::size_t(node)].cell.x - origin.x, m_nodes[std::size_t(node)].cell.y - origin.y});
    if (d == kInfinity) continue;
    m_price[std::size_t(node)] = d;
    open.push({d, node});
  }
  while (!open.empty()) {
    const std::int64_t price = open.top().first;  // not a structured binding: lambdas capture it
    const int node = open.top().second;
    open.pop();
    if (price != m_price[std::size_t(node)]) continue;
    auto relax = [&](int from, std::int64_t cost) {
      if (price + cost < m_price[std::size_t(from)]) {
        m_price[std::size_t(from)] = price + cost;
        open.push({price + cost, from});
      }
    };
    for (const auto& [from, cost] : m_nodes[std::size_t(node)].inward) relax(from, cost);
    const int partner = m_nodes[std::size_t(node)].partner;
    relax(partner, m_nodes[std::size_t(partner)].crossing);
  }
  m_fields[std::size_t(home)].reset();  // built again with its exits priced
  return Status::Ok;
}

CostField SectorFields::Impl::sectorCosts(int sector) const {
  const Cell origin = originOf(sector);
  CostField local = m_costs.crop(origin, m_size + 4, m_size + 4);
  for (std::int32_t y = 0; y < local.height(); ++y) {
    for (std::int32_t x = 0; x < local.width(); ++x) {
      const Cell global{origin.x + x, origin.y + y};
      if (!m_costs.contains(global) || sectorOf(global) != sector) (void)local.set({x, y}, CostField::kImpassable);
    }
  }
  return local;
}

CrowdField& SectorFields::Impl::fieldOf(int sector) {
  std::unique_ptr<CrowdField>& field = m_fields[std::size_t(sector)];
  if (field) return *field;
  // The sector and a ring of two tiles round it, where only the tiles across its portals' middles
  // are open: each a source priced by the portal graph (the goal too, if it lies here). Exits at
  // the priced tiles only: the portal graph's price of a tile is what the next sector's field
  // gives it, so a walk's value falls at every step, across borders too (no loops).
  const Cell origin = originOf(sector);
  CostField local = sectorCosts(sector);
  std::vector<CrowdField::Source> sources;
  if (!m_price.empty()) {
    for (const int node : m_sectorNodes[std::size_t(sector)]) {
      const Node& across = m_nodes[std::size_t(m_nodes[std::size_t(node)].partner)];
      const std::int64_t price = m_price[std::size_t(m_nodes[std::size_t(node)].partner)];
      if (price == kInfinity) continue;
      const Cell outside{across.cell.x - origin.x, across.cell.y - origin.y};
      (void)local.set(outside, m_costs.at(across.cell));
      sources.push_back({outside, price});
    }
  }
  if (m_costs.contains(m_goal) && sectorOf(m_goal) == sector) sources.push_back({{m_goal.x - origin.x, m_goal.y - origin.y}, 0});
  field = std::make_unique<CrowdField>(local);
  field->setSources(sources);
  return *field;
}

void SectorFields::Impl::prepare(Cell cell) {
  if (m_costs.contains(cell)) fieldOf(sectorOf(cell));
}

std::uint8_t SectorFields::Impl::direction(Cell cell) {
  if (!m_costs.contains(cell)) return CrowdField::kNoDirection;
  const int sector = sectorOf(cell);
  const Cell origin = originOf(sector);
  return fieldOf(sector).direction({cell.x - origin.x, cell.y - origin.y});
}

Vec2 SectorFields::Impl::flow(Cell cell) {
  if (!m_costs.contains(cell)) return Vec2::Zero();
  const int sector = sectorOf(cell);
  const Cell origin = originOf(sector);
  return fieldOf(sector).flow({cell.x - origin.x, cell.y - origin.y});
}

std::int64_t SectorFields::Impl::distance(Cell cell) {
  if (!m_costs.contains(cell)) return kInfinity;
  const int sector = sectorOf(cell);
  const Cell origin = originOf(sector);
  return fieldOf(sector).distance({cell.x - origin.x, cell.y - origin.y});
}

int SectorFields::Impl::sectorsBuilt() const noexcept {
  return int(std::count_if(m_fields.begin(), m_fields.end(), [](const auto& field) { return field != nullptr; }));
}

SectorFields::SectorFields(const CostField& costs, int size) : m_impl(std::make_unique<Impl>(costs, size)) {}
SectorFields::SectorFields(SectorFields&&) noexcept = default;
SectorFields& SectorFields::operator=(SectorFields&&) noexcept = default;
SectorFields::~SectorFields() = default;

Status SectorFields::setGoal(Cell goal) { return m_impl->setGoal(goal); }
std::uint8_t SectorFields::direction(Cell cell) { return m_impl->direction(cell); }
Vec2 SectorFields::flow(Cell cell) { return m_impl->flow(cell); }
std::int64_t SectorFields::distance(Cell cell) { return m_impl->distance(cell); }
void SectorFields::prepare(Cell cell) { m_impl->prepare(cell); }
int SectorFields::sectorCount() const noexcept { return m_impl->m_columns * m_impl->m_rows; }
int SectorFields::sectorsBuilt() const noexcept { return m_impl->sectorsBuilt(); }
int SectorFields::portalCount() const noexcept { return int(m_impl->m_portals.size()); }
int SectorFields::size() const noexcept { return m_impl->m_size; }

}  // namespace rpgnav
