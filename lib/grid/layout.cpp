// SPDX-License-Identifier: MIT
#include "rpgnav/grid/layout.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace rpgnav {
namespace {

constexpr float kSqrt2 = 1.41421356237309515f;
constexpr double kHexRadius = kHexCircumradius;

// Orthogonal steps first, so the 4-connected table is a prefix of the 8-connected one.
constexpr NeighbourStep kSquare[8] = {
    {1, 0, 1.0f, -1, -1, true},     {0, 1, 1.0f, -1, -1, true},
    {-1, 0, 1.0f, -1, -1, true},    {0, -1, 1.0f, -1, -1, true},
    {1, 1, kSqrt2, 0, 1, false},    {-1, 1, kSqrt2, 2, 1, false},
    {-1, -1, kSqrt2, 2, 3, false},  {1, -1, kSqrt2, 0, 3, false},
};
// Hex tables, clockwise on screen starting east (pointy) or north (flat); index = whether the
// tile's row (pointy) or column (flat) is shifted half a tile.
constexpr NeighbourStep kHexPointy[2][6] = {
    {{1, 0}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}},  // unshifted row
    {{1, 0}, {1, 1}, {0, 1}, {-1, 0}, {0, -1}, {1, -1}},    // shifted row
};
constexpr NeighbourStep kHexFlat[2][6] = {
    {{0, -1}, {1, -1}, {1, 0}, {0, 1}, {-1, 0}, {-1, -1}},  // unshifted column
    {{0, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}},    // shifted column
};

}  // namespace

Layout::Layout(LayoutKind kind, float tileSize, int connectivity, Vec2 origin, HexStagger stagger)
    : m_kind(kind),
      m_evenShifted(kind != LayoutKind::Square && stagger == HexStagger::Even ? 1 : 0),
      m_tileSize(tileSize),
      m_connectivity(connectivity),
      m_origin(origin) {
  // Derive the edge-line families from tile (0,0): each edge is the bisector of two centres 1
  // apart, so it lies at distance 1/2 from the centre along the unit normal between them.
  const double spacing = kind == LayoutKind::Square ? 1.0 : 0.5;
  const Cell home{0, 0};
  const Eigen::Vector2d c = localCenter(home);
  for (const NeighbourStep& step : touching(home)) {
    if (!step.sharesEdge) continue;
    Eigen::Vector2d n = (localCenter({step.dx, step.dy}) - c).normalized();
    if (n.x() < -1e-9 || (std::abs(n.x()) <= 1e-9 && n.y() < 0)) n = -n;
    bool known = false;
    for (int i = 0; i < m_familyCount; ++i) known = known || (m_families[i].normal - n).norm() < 1e-9;
    if (known) continue;
    double offset = std::fmod(n.dot(c) + 0.5, spacing);
    if (offset < 0) offset += spacing;
    m_families[m_familyCount++] = {n, offset, spacing};
  }
}

Layout Layout::square(float tileSize, int connectivity, Vec2 origin) {
  return Layout(LayoutKind::Square, tileSize, connectivity == 4 ? 4 : 8, origin);
}
Layout Layout::hexPointy(float tileSize, Vec2 origin, HexStagger stagger) {
  return Layout(LayoutKind::HexPointy, tileSize, 6, origin, stagger);
}
Layout Layout::hexFlat(float tileSize, Vec2 origin, HexStagger stagger) {
  return Layout(LayoutKind::HexFlat, tileSize, 6, origin, stagger);
}

std::span<const NeighbourStep> Layout::touching(Cell cell) const noexcept {
  switch (m_kind) {
    case LayoutKind::Square: return {kSquare, 8};
    case LayoutKind::HexPointy: return {kHexPointy[shifted(cell.y)], 6};
    case LayoutKind::HexFlat: return {kHexFlat[shifted(cell.x)], 6};
  }
  return {};
}

std::span<const NeighbourStep> Layout::moves(Cell cell) const noexcept {
  if (m_kind == LayoutKind::Square) return {kSquare, std::size_t(m_connectivity)};
  return touching(cell);
}

int Layout::localCorners(Cell cell, std::array<Eigen::Vector2d, 6>& out) const noexcept {
  const Eigen::Vector2d c = localCenter(cell);
  constexpr double r = kHexRadius, h = kHexRadius / 2;
  switch (m_kind) {
    case LayoutKind::Square:
      out[0] = {cell.x + 0.0, cell.y + 0.0};
      out[1] = {cell.x + 1.0, cell.y + 0.0};
      out[2] = {cell.x + 1.0, cell.y + 1.0};
      out[3] = {cell.x + 0.0, cell.y + 1.0};
      return 4;
    case LayoutKind::HexPointy: {
      const Eigen::Vector2d d[6] = {{0, -r}, {0.5, -h}, {0.5, h}, {0, r}, {-0.5, h}, {-0.5, -h}};
      for (int i = 0; i < 6; ++i) out[i] = c + d[i];
      return 6;
    }
    case LayoutKind::HexFlat: {
      const Eigen::Vector2d d[6] = {{r, 0}, {h, 0.5}, {-h, 0.5}, {-r, 0}, {-h, -0.5}, {h, -0.5}};
      for (int i = 0; i < 6; ++i) out[i] = c + d[i];
      return 6;
    }
  }
  return 0;
}

Eigen::Vector2d Layout::toLocal(Vec2 world) const noexcept {
  return (world.cast<double>() - m_origin.cast<double>()) / double(m_tileSize);
}

Vec2 Layout::toWorld(const Eigen::Vector2d& local) const noexcept {
  return (m_origin.cast<double>() + local * double(m_tileSize)).cast<float>();
}

Vec2 Layout::tileCenter(Cell cell) const noexcept { return toWorld(localCenter(cell)); }

TilePolygon Layout::tilePolygon(Cell cell) const noexcept {
  std::array<Eigen::Vector2d, 6> local;
  TilePolygon polygon;
  polygon.count = localCorners(cell, local);
  for (int i = 0; i < polygon.count; ++i) polygon.corners[i] = toWorld(local[i]);
  return polygon;
}

std::optional<std::array<Vec2, 2>> Layout::sharedEdge(Cell a, Cell b) const noexcept {
  const auto local = localSharedEdge(a, b);
  if (!local) return std::nullopt;
  return std::array<Vec2, 2>{toWorld((*local)[0]), toWorld((*local)[1])};
}

std::optional<std::array<Eigen::Vector2d, 2>> Layout::localSharedEdge(Cell a, Cell b) const noexcept {
  bool neighbours = false;
  for (const NeighbourStep& step : touching(a)) {
    neighbours = neighbours || (step.sharesEdge && Cell{a.x + step.dx, a.y + step.dy} == b);
  }
  if (!neighbours) return std::nullopt;
  // The two corners the tiles have in common, compared in layout space (exact up to rounding).
  std::array<Eigen::Vector2d, 6> ca, cb;
  const int na = localCorners(a, ca), nb = localCorners(b, cb);
  std::array<Eigen::Vector2d, 2> edge{Eigen::Vector2d::Zero(), Eigen::Vector2d::Zero()};
  int found = 0;
  for (int i = 0; i < na && found < 2; ++i) {
    for (int j = 0; j < nb; ++j) {
      if ((ca[std::size_t(i)] - cb[std::size_t(j)]).norm() < 1e-6) {
        edge[std::size_t(found++)] = ca[std::size_t(i)];
        break;
      }
    }
  }
  if (found != 2) return std::nullopt;
  return edge;
}

Cell Layout::tileAtLocal(const Eigen::Vector2d& asked) const noexcept {
  if (m_kind == LayoutKind::Square) {
    return {floorToIndex(asked.x()), floorToIndex(asked.y())};
  }
  // Points far beyond any map (kMaxMapSide tiles) are pulled in to 2^29 so that the rounding below
  // stays in int range; NaN goes to the low corner, as floorToIndex sends it.
  static constexpr double kFar = double(1 << 29);
  auto saturate = [](double v) { return v >= -kFar ? std::min(v, kFar) : -kFar; };
  const Eigen::Vector2d p(saturate(asked.x()), saturate(asked.y()));
  // The nearest centre lies on one of the two lines of centres (rows of pointy hexes, columns of
  // flat ones) either side of the point: any other line is a whole pitch further across than
  // the nearer of them, whose nearest centre is at most half a tile along. On a line the nearest
  // centre is a floor away (a tie between two goes to the larger index, as the rule asks).
  const bool flat = m_kind == LayoutKind::HexFlat;
  const double u = flat ? p.y() : p.x(), v = flat ? p.x() : p.y();
  const auto below = std::int32_t(std::floor((v - kHexRadius) / kHexPitch));
  Cell best;
  double bestDistance = std::numeric_limits<double>::infinity();
  for (std::int32_t line = below; line <= below + 1; ++line) {
    const auto k = std::int32_t(std::floor(u - 0.5 * shifted(line)));
    const Cell candidate = flat ? Cell{line, k} : Cell{k, line};
    const double distance = (localCenter(candidate) - p).squaredNorm();
    if (distance < bestDistance || (distance == bestDistance && best < candidate)) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

Cell Layout::hexTileAt(Vec2 world) const noexcept { return tileAtLocal(toLocal(world)); }

Cell Layout::fromAxial(Axial a) const noexcept {
  switch (m_kind) {
    case LayoutKind::Square: return {a.q, a.r};
    case LayoutKind::HexPointy: return {a.q + alongShift(a.r, m_evenShifted), a.r};
    case LayoutKind::HexFlat: return {a.q, a.r + alongShift(a.q, m_evenShifted)};
  }
  return {};
}

std::int32_t Layout::stepDistance(Cell a, Cell b) const noexcept {
  if (m_kind == LayoutKind::Square) {
    const std::int32_t dx = std::abs(a.x - b.x), dy = std::abs(a.y - b.y);
    return m_connectivity == 8 ? std::max(dx, dy) : dx + dy;
  }
  const Axial p = toAxial(a), q = toAxial(b);
  const std::int32_t dq = p.q - q.q, dr = p.r - q.r;
  return (std::abs(dq) + std::abs(dr) + std::abs(dq + dr)) / 2;
}

std::string_view toString(LayoutKind kind) noexcept {
  switch (kind) {
    case LayoutKind::Square: return "square";
    case LayoutKind::HexPointy: return "hex-pointy";
    case LayoutKind::HexFlat: return "hex-flat";
  }
  return "unknown";
}

std::optional<Eigen::Vector2d> Layout::segmentExit(Cell cell, const Eigen::Vector2d& from,
                                                   const Eigen::Vector2d& to) const noexcept {
  // Cyrus-Beck clipping against the convex tile: the segment is inside between the last
  // entering and the first leaving edge crossing. Square tiles are axis-aligned slabs.
  const Eigen::Vector2d d = to - from;
  double t0 = 0.0, t1 = 1.0;
  auto clip = [&](double num, double den) {  // keep the part where num + den·t >= 0
    if (den == 0.0) return num >= 0.0;
    const double t = -num / den;
    if (den > 0.0) {
      t0 = std::max(t0, t);
    } else {
      t1 = std::min(t1, t);
    }
    return true;
  };
  if (m_kind == LayoutKind::Square) {
    if (!clip(from.x() - cell.x, d.x()) || !clip(cell.x + 1.0 - from.x(), -d.x()) || !clip(from.y() - cell.y, d.y()) ||
        !clip(cell.y + 1.0 - from.y(), -d.y())) {
      return std::nullopt;
    }
  } else {
    // A tile is the meet of one slab |n·(p - centre)| <= 1/2 per edge-line family (n its unit
    // normal): three for a hexagon.
    const Eigen::Vector2d r = from - localCenter(cell);
    for (const EdgeLineFamily& family : edgeLineFamilies()) {
      const double s = family.normal.dot(r), ds = family.normal.dot(d);
      if (!clip(0.5 - s, -ds) || !clip(0.5 + s, ds)) return std::nullopt;
    }
  }
  if (t1 - t0 <= 1e-9 || t1 >= 1.0 - 1e-9) return std::nullopt;
  return Eigen::Vector2d(from + d * t1);
}

}  // namespace rpgnav
