// SPDX-License-Identifier: MIT
// Landmarks: exact distances from a few far-apart tiles (Dijkstra sweeps), whose differences
// bound a tile's remaining cost from below; refreshed a few sweeps at a time after edits.
#include "search/search_grid.hpp"

#include "rpgnav/core/assert.hpp"
#include "rpgnav/field/cost_field.hpp"
#include "rpgnav/field/crowd_field.hpp"

#include <algorithm>
#include <limits>

namespace rpgnav {

void SearchGrid::sweep(std::int32_t source, std::optional<CrowdField>& field, std::vector<std::int64_t>& distance) const {
  // The library's one tile Dijkstra is the crowd field's: a field over this grid's tiles and costs
  // with the source as its goal holds every tile's cost to the source, which is the cost from it
  // (a step costs the same both ways: half at each tile, the same two tiles gating a diagonal),
  // priced as the search prices steps (grid/step_cost.hpp).
  if (!field) {
    std::vector<float> costs(std::size_t(m_width) * std::size_t(m_height));
    for (std::int32_t y = 0; y < m_height; ++y) {
      for (std::int32_t x = 0; x < m_width; ++x) {
        const std::uint8_t costClass = m_class[std::size_t(padded({x, y}))];
        costs[std::size_t(y) * std::size_t(m_width) + std::size_t(x)] =
            costClass == 0 ? TerrainTable::kImpassable : m_classCost[costClass];
      }
    }
    auto costField = CostField::fromCosts(m_layout, m_width, m_height, costs, m_mobility);
    RPGNAV_ASSERT(costField.ok(), "the grid's own costs make a cost field");
    field.emplace(costField.value());
  }
  const Cell goal = cellOf(source);
  field->setGoals(std::span<const Cell>(&goal, 1));
  distance.assign(std::size_t(paddedCount()), -1);
  for (std::int32_t y = 0; y < m_height; ++y) {
    for (std::int32_t x = 0; x < m_width; ++x) {
      const std::int64_t d = field->distance({x, y});
      if (d != CrowdField::kUnreachable) distance[std::size_t(padded({x, y}))] = d;
    }
  }
}

void SearchGrid::buildLandmarks() { refreshLandmarks(std::numeric_limits<int>::max()); }


int SearchGrid::refreshLandmarks(int sweeps) {
  if (landmarksCurrent()) return 0;
  const int budget = sweeps;
  LandmarkRefresh& r = m_refresh;
  if (!r.active || r.version != m_mapVersion) {
    // Start over: landmarks go into the largest region (they bound nothing elsewhere), ties to
    // the region whose first tile comes first in row order, as a fresh build labels them; the
    // first is the tile farthest from that region's first tile, each next one the tile farthest
    // from all chosen so far (farthest-point selection spreads them to the map's extremities,
    // where they work best).
    r = LandmarkRefresh{};
    r.active = true;
    r.version = m_mapVersion;
    std::vector<std::uint8_t> seen(m_regions.labelCount(), 0);
    std::uint32_t bestSize = 0;
    for (std::int32_t y = 0; y < m_height; ++y) {
      for (std::int32_t x = 0; x < m_width; ++x) {
        const std::uint32_t label = m_regions.regionOf({x, y});
        if (label == RegionMap::kNoRegion || seen[label]) continue;
        seen[label] = 1;
        if (m_regions.regionSize(label) > bestSize) {
          bestSize = m_regions.regionSize(label);
          r.seed = padded({x, y});
        }
      }
    }
    if (r.seed < 0) {  // nothing passable: no landmarks
      r.active = false;
      m_landmarkCount = 0;
      m_landmarks.clear();
      m_landmarkDistances.clear();
      m_landmarksStale = false;
      m_landmarkVersion = m_mapVersion;
      return 0;
    }
    r.staged.assign(std::size_t(paddedCount()) * std::size_t(m_settings.landmarks), kLandmarkUnknown);
    r.nearest.assign(std::size_t(paddedCount()), std::numeric_limits<std::int64_t>::max());
  }
  const int count = m_settings.landmarks;
  for (; sweeps > 0 && r.active; --sweeps) {
    if (r.picked.empty() && r.distance.empty()) {
      sweep(r.seed, r.field, r.distance);
      continue;
    }
    // Pick the tile maximising the distance to the nearest chosen landmark (ties: lowest index).
    const std::size_t k = r.picked.size();
    std::int32_t pick = r.seed;
    std::int64_t best = -1;
    for (std::int32_t i = 0; i < paddedCount(); ++i) {
      const std::int64_t d = k == 0 ? r.distance[std::size_t(i)] : r.nearest[std::size_t(i)];
      if (r.distance[std::size_t(i)] >= 0 && d > best) {
        best = d;
        pick = i;
      }
    }
    r.picked.push_back(cellOf(pick));
    sweep(pick, r.field, r.distance);
    for (std::int32_t i = 0; i < paddedCount(); ++i) {
      const std::int64_t d = r.distance[std::size_t(i)];
      const std::int64_t q = d / kLandmarkQuantum;
      r.staged[std::size_t(i) * std::size_t(count) + k] =
          d < 0 || q >= std::int64_t(kLandmarkUnknown) ? kLandmarkUnknown : std::uint32_t(q);
      if (d >= 0) r.nearest[std::size_t(i)] = std::min(r.nearest[std::size_t(i)], d);
    }
    if (int(r.picked.size()) == count) {
      m_landmarkCount = count;
      m_landmarks = std::move(r.picked);
      m_landmarkDistances = std::move(r.staged);
      m_landmarksStale = false;
      m_landmarkVersion = r.version;
      r = LandmarkRefresh{};
    }
  }
  return budget - sweeps;
}

}  // namespace rpgnav
