// SPDX-License-Identifier: MIT
// Landmarks: exact distances from a few far-apart tiles (Dijkstra sweeps), whose differences
// bound a tile's remaining cost from below; refreshed a few sweeps at a time after edits.
#include "search/search_grid.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>

namespace rpgnav {

void SearchGrid::sweep(std::int32_t source, std::vector<std::int64_t>& distance) const {
  distance.assign(std::size_t(paddedCount()), -1);
  using Item = std::pair<std::int64_t, std::int32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
  distance[std::size_t(source)] = 0;
  open.push({0, source});
  const std::int32_t pw = paddedWidth();
  while (!open.empty()) {
    const auto [d, v] = open.top();
    open.pop();
    if (d != distance[std::size_t(v)]) continue;
    const auto moves = m_layout.moves(cellOf(v));
    for (const NeighbourStep& step : moves) {
      const std::int32_t u = v + step.dx + step.dy * pw;
      if (m_class[std::size_t(u)] == 0) continue;
      if (!step.sharesEdge) {  // diagonal: the same two orthogonal tiles gate both directions
        const NeighbourStep& a = moves[std::size_t(step.requiresA)];
        const NeighbourStep& b = moves[std::size_t(step.requiresB)];
        if (m_class[std::size_t(v + a.dx + a.dy * pw)] == 0 || m_class[std::size_t(v + b.dx + b.dy * pw)] == 0) continue;
      }
      const std::int64_t next = d + stepCost(m_class[std::size_t(v)], m_class[std::size_t(u)], !step.sharesEdge);
      std::int64_t& slot = distance[std::size_t(u)];
      if (slot < 0 || next < slot) {
        slot = next;
        open.push({next, u});
      }
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
      sweep(r.seed, r.distance);
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
    sweep(pick, r.distance);
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
