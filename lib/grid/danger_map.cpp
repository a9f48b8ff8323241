// SPDX-License-Identifier: MIT
#include "rpgnav/grid/danger_map.hpp"

#include "rpgnav/grid/terrain_table.hpp"
#include "rpgnav/grid/tile_map.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rpgnav {

struct RPGNAV_HIDDEN DangerMap::Impl {
  Impl(const Layout& layout, std::int32_t width, std::int32_t height);
  Impl(const TileMap& map);
  Status setDanger(int layer, Cell cell, std::uint8_t danger);
  Status setLayer(int layer, std::span<const std::uint8_t> values);
  Result<std::uint32_t> addStamp(const Stamp& stamp);
  Status removeStamp(std::uint32_t id);
  std::size_t stampCount() const noexcept { return m_stamps.size(); }
  std::uint8_t danger(Cell cell) const noexcept {
    return cell.x >= 0 && cell.y >= 0 && cell.x < m_width && cell.y < m_height
               ? m_sum[std::size_t(cell.y) * std::size_t(m_width) + std::size_t(cell.x)]
               : 0;
  }
  bool clear() const noexcept { return m_dangerousTiles == 0; }
  std::int32_t width() const noexcept { return m_width; }
  std::int32_t height() const noexcept { return m_height; }
  std::span<const Cell> lastTouched() const noexcept { return m_touched; }
  std::uint64_t version() const noexcept { return m_version; }
  bool changesSince(std::uint64_t version, std::vector<Change>& out) const;

  Layout m_layout;
  std::int32_t m_width = 0;
  std::int32_t m_height = 0;
  std::vector<std::vector<std::uint8_t>> m_layers;  // per layer (empty until used), row-major
  std::vector<std::int32_t> m_stamped;              // the stamps' sum per tile (empty until used)
  std::vector<std::uint8_t> m_sum;                  // clamped sum of layers and stamps
  std::size_t m_dangerousTiles = 0;                 // tiles of m_sum above 0
  std::vector<std::pair<std::uint32_t, Stamp>> m_stamps;
  std::uint32_t m_nextStampId = 1;
  std::vector<Cell> m_touched;
  std::uint64_t m_version = 0;
  std::vector<Change> m_journal;  // oldest first, at most kJournalLimit
  std::uint64_t m_forgotten = 0;  // the newest version dropped from the journal

  void recount(std::size_t tile) noexcept;
  void applyStamp(const Stamp& stamp, int sign);
  void journalTouched();
};

DangerMap::Impl::Impl(const Layout& layout, std::int32_t width, std::int32_t height)
    : m_layout(layout),
      m_width(std::max(width, 0)),
      m_height(std::max(height, 0)),
      m_sum(std::size_t(m_width) * std::size_t(m_height), 0) {}

DangerMap::Impl::Impl(const TileMap& map) : Impl(map.layout(), map.width(), map.height()) {}

float DangerMap::weightedCost(float cost, std::uint8_t danger, std::uint8_t factor) noexcept {
  // (A cost beyond the search's range stays as it is, for the search to refuse, not capped.)
  if (factor == 0 || danger == 0 || !(cost < kMaxSearchCost)) return cost;
  return std::min(cost + float(factor) * float(danger) / float(256 - int(factor)), kMaxSearchCost);
}

void DangerMap::Impl::recount(std::size_t tile) noexcept {
  int sum = m_stamped.empty() ? 0 : m_stamped[tile];
  for (const std::vector<std::uint8_t>& layer : m_layers) sum += layer.empty() ? 0 : layer[tile];
  const auto value = std::uint8_t(std::clamp(sum, 0, 255));
  m_dangerousTiles += std::size_t(value != 0) - std::size_t(m_sum[tile] != 0);
  m_sum[tile] = value;
}

void DangerMap::Impl::journalTouched() {
  ++m_version;
  if (m_touched.empty()) return;
  Change change{m_version, m_touched.front(), m_touched.front()};
  for (const Cell cell : m_touched) {
    change.low = {std::min(change.low.x, cell.x), std::min(change.low.y, cell.y)};
    change.high = {std::max(change.high.x, cell.x), std::max(change.high.y, cell.y)};
  }
  if (m_journal.size() == kJournalLimit) {
    // Drop the older half at once, so journalling stays amortised constant.
    const std::size_t drop = kJournalLimit / 2;
    m_forgotten = m_journal[drop - 1].version;
    m_journal.erase(m_journal.begin(), m_journal.begin() + std::ptrdiff_t(drop));
  }
  m_journal.push_back(change);
}

bool DangerMap::Impl::changesSince(std::uint64_t version, std::vector<Change>& out) const {
  if (version < m_forgotten) return false;
  for (const Change& change : m_journal) {
    if (change.version > version) out.push_back(change);
  }
  return true;
}

Status DangerMap::Impl::setDanger(int layer, Cell cell, std::uint8_t danger) {
  if (layer < 0 || layer >= kMaxDangerLayers || cell.x < 0 || cell.y < 0 || cell.x >= m_width || cell.y >= m_height) {
    return Status::InvalidArgument;
  }
  if (m_layers.size() <= std::size_t(layer)) m_layers.resize(std::size_t(layer) + 1);
  std::vector<std::uint8_t>& values = m_layers[std::size_t(layer)];
  if (values.empty()) values.assign(m_sum.size(), 0);
  const std::size_t tile = std::size_t(cell.y) * std::size_t(m_width) + std::size_t(cell.x);
  values[tile] = danger;
  recount(tile);
  m_touched.assign(1, cell);
  journalTouched();
  return Status::Ok;
}

Status DangerMap::Impl::setLayer(int layer, std::span<const std::uint8_t> values) {
  if (layer < 0 || layer >= kMaxDangerLayers || values.size() != m_sum.size()) return Status::InvalidArgument;
  if (m_layers.size() <= std::size_t(layer)) m_layers.resize(std::size_t(layer) + 1);
  std::vector<std::uint8_t>& mine = m_layers[std::size_t(layer)];
  if (mine.empty()) mine.assign(m_sum.size(), 0);
  m_touched.clear();
  for (std::size_t tile = 0; tile < values.size(); ++tile) {
    if (mine[tile] == values[tile]) continue;
    mine[tile] = values[tile];
    recount(tile);
    m_touched.push_back({std::int32_t(tile % std::size_t(m_width)), std::int32_t(tile / std::size_t(m_width))});
  }
  journalTouched();
  return Status::Ok;
}

Result<std::uint32_t> DangerMap::Impl::addStamp(const Stamp& stamp) {
  if (!stamp.centre.allFinite() || !std::isfinite(stamp.radius) || stamp.radius < 0.0f || !(stamp.falloff >= 0.0f) ||
      !(stamp.falloff <= 1.0f)) {
    return Error{Status::InvalidArgument, "a danger stamp needs a finite centre, a finite radius >= 0 and a falloff in [0, 1]"};
  }
  const std::uint32_t id = m_nextStampId++;
  m_stamps.push_back({id, stamp});
  applyStamp(stamp, 1);
  return id;
}

Status DangerMap::Impl::removeStamp(std::uint32_t id) {
  const auto found = std::find_if(m_stamps.begin(), m_stamps.end(), [id](const auto& each) { return each.first == id; });
  if (found == m_stamps.end()) return Status::InvalidArgument;
  const Stamp stamp = found->second;
  m_stamps.erase(found);
  applyStamp(stamp, -1);
  return Status::Ok;
}

void DangerMap::Impl::applyStamp(const Stamp& stamp, int sign) {
  m_touched.clear();
  if (m_width == 0 || m_height == 0) {
    journalTouched();
    return;
  }
  if (m_stamped.empty()) m_stamped.assign(m_sum.size(), 0);
  // The tiles round the disc's bounding box (one more on every side: hex tiles reach past their
  // centres' box), clamped to the map before any tile is looked at, so a huge radius costs the
  // map and no more.
  const Layout& layout = m_layout;
  const double reach = std::min<double>(stamp.radius, 4.0 * (double(m_width) + m_height) * layout.tileSize());
  std::int64_t low[2] = {std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::max()};
  std::int64_t high[2] = {std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::min()};
  for (const Vec2& corner : {Vec2(-1.0f, -1.0f), Vec2(1.0f, -1.0f), Vec2(-1.0f, 1.0f), Vec2(1.0f, 1.0f)}) {
    const Vec2 point = stamp.centre + float(reach) * corner;
    const Vec2 local = (point - layout.origin()) / layout.tileSize();
    // Far outside the map tileAt's integers could overflow: clamp in floating point first.
    const Cell cell = layout.tileAt(layout.origin() + layout.tileSize() * Vec2(std::clamp(local.x(), -4.0f, float(m_width) * 2 + 4),
                                                                               std::clamp(local.y(), -4.0f, float(m_height) * 2 + 4)));
    low[0] = std::min<std::int64_t>(low[0], cell.x), low[1] = std::min<std::int64_t>(low[1], cell.y);
    high[0] = std::max<std::int64_t>(high[0], cell.x), high[1] = std::max<std::int64_t>(high[1], cell.y);
  }
  const std::int32_t x0 = std::int32_t(std::max<std::int64_t>(low[0] - 1, 0)), y0 = std::int32_t(std::max<std::int64_t>(low[1] - 1, 0));
  const std::int32_t x1 = std::int32_t(std::min<std::int64_t>(high[0] + 1, m_width - 1));
  const std::int32_t y1 = std::int32_t(std::min<std::int64_t>(high[1] + 1, m_height - 1));
  const Cell holder = layout.tileAt(stamp.centre);
  for (std::int32_t y = y0; y <= y1; ++y) {
    for (std::int32_t x = x0; x <= x1; ++x) {
      const double d = double((layout.tileCenter({x, y}) - stamp.centre).norm());
      if (d > double(stamp.radius) && !(Cell{x, y} == holder)) continue;
      const double share = stamp.radius > 0.0f ? std::max(0.0, 1.0 - double(stamp.falloff) * std::min(d / double(stamp.radius), 1.0)) : 1.0;
      const auto value = std::int32_t(std::lround(double(stamp.peak) * share));
      if (value == 0) continue;
      const std::size_t tile = std::size_t(y) * std::size_t(m_width) + std::size_t(x);
      m_stamped[tile] += sign * value;
      recount(tile);
      m_touched.push_back({x, y});
    }
  }
  journalTouched();
}

DangerMap::DangerMap() : m_impl(std::make_unique<Impl>(Layout(), 0, 0)) {}
DangerMap::DangerMap(const DangerMap& other) : m_impl(std::make_unique<Impl>(*other.m_impl)) {}
DangerMap& DangerMap::operator=(const DangerMap& other) {
  if (this != &other) *m_impl = *other.m_impl;
  return *this;
}
DangerMap::DangerMap(DangerMap&&) noexcept = default;
DangerMap& DangerMap::operator=(DangerMap&&) noexcept = default;
DangerMap::~DangerMap() = default;
DangerMap::DangerMap(const Layout& layout, std::int32_t width, std::int32_t height)
    : m_impl(std::make_unique<Impl>(layout, width, height)) {}
DangerMap::DangerMap(const TileMap& map) : m_impl(std::make_unique<Impl>(map)) {}
Status DangerMap::setDanger(int layer, Cell cell, std::uint8_t danger) {
  return m_impl->setDanger(layer, cell, danger);
}
Status DangerMap::setLayer(int layer, std::span<const std::uint8_t> values) {
  return m_impl->setLayer(layer, values);
}
Result<std::uint32_t> DangerMap::addStamp(const Stamp& stamp) { return m_impl->addStamp(stamp); }
Status DangerMap::removeStamp(std::uint32_t id) { return m_impl->removeStamp(id); }
std::size_t DangerMap::stampCount() const noexcept { return m_impl->stampCount(); }
std::uint8_t DangerMap::danger(Cell cell) const noexcept { return m_impl->danger(cell); }
std::span<const std::uint8_t> DangerMap::values() const noexcept { return m_impl->m_sum; }
bool DangerMap::clear() const noexcept { return m_impl->clear(); }
std::int32_t DangerMap::width() const noexcept { return m_impl->width(); }
std::int32_t DangerMap::height() const noexcept { return m_impl->height(); }
std::span<const Cell> DangerMap::lastTouched() const noexcept { return m_impl->lastTouched(); }
std::uint64_t DangerMap::version() const noexcept { return m_impl->version(); }
bool DangerMap::changesSince(std::uint64_t version, std::vector<Change>& out) const {
  return m_impl->changesSince(version, out);
}

}  // namespace rpgnav
