// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "rpgnav/grid/layout.hpp"
#include "support/test_maps.hpp"

#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <set>
#include <random>

using namespace rpgnav;

namespace {

bool near(const Eigen::Vector2d& a, const Eigen::Vector2d& b, double tolerance = 1e-9) {
  return (a - b).norm() <= tolerance;
}

}  // namespace

TEST_CASE("square layout geometry", "[grid]") {
  const Layout layout = Layout::square(2.0f, 8, Vec2(-4.0f, 6.0f));
  CHECK(layout.tileCenter({0, 0}) == Vec2(-3.0f, 7.0f));
  CHECK(layout.tileCenter({3, 2}) == Vec2(3.0f, 11.0f));
  const TilePolygon polygon = layout.tilePolygon({1, 1});
  REQUIRE(polygon.count == 4);
  CHECK(polygon.corners[0] == Vec2(-2.0f, 8.0f));
  CHECK(polygon.corners[2] == Vec2(0.0f, 10.0f));
  CHECK(layout.tileAt(Vec2(-4.0f, 6.0f)) == Cell{0, 0});
  CHECK(layout.tileAt(Vec2(-2.0f, 6.5f)) == Cell{1, 0});  // on the border: the larger column
  CHECK(layout.tileAt(Vec2(-4.1f, 5.9f)) == Cell{-1, -1});
  // Far off any map: saturated, never an overflowed (wrapped) index that could land on a map.
  constexpr std::int32_t kLowest = std::numeric_limits<std::int32_t>::min(), kHighest = std::numeric_limits<std::int32_t>::max();
  CHECK(layout.tileAt(Vec2(1e30f, -1e30f)) == Cell{kHighest, kLowest});
  CHECK(layout.tileAt(Vec2(-5e9f, 5e9f)) == Cell{kLowest, kHighest});  // (tiles of 2: -2.5e9 columns)
  CHECK(Layout::floorToIndex(std::numeric_limits<double>::quiet_NaN()) == kLowest);
  CHECK(Layout::floorToIndex(-0.5) == -1);
  CHECK(Layout::floorToIndex(2147483646.5) == 2147483646);
  CHECK(layout.moves({0, 0}).size() == 8);
  CHECK(Layout::square(1.0f, 4).moves({0, 0}).size() == 4);
  CHECK(Layout::square(1.0f, 4).touching({0, 0}).size() == 8);
  CHECK(layout.stepDistance({0, 0}, {3, -5}) == 5);
  CHECK(Layout::square(1.0f, 4).stepDistance({0, 0}, {3, -5}) == 8);
}

TEST_CASE("hex layouts: neighbours are exactly one step apart and share an edge", "[grid]") {
  for (const Layout& layout : test::allLayouts()) {
    if (!layout.isHex()) continue;
    for (Cell c : {Cell{0, 0}, Cell{1, 0}, Cell{0, 1}, Cell{5, 7}, Cell{-3, -2}, Cell{-4, 3}}) {
      const auto steps = layout.moves(c);
      REQUIRE(steps.size() == 6);
      std::array<Eigen::Vector2d, 6> mine;
      REQUIRE(layout.localCorners(c, mine) == 6);
      for (const NeighbourStep& step : steps) {
        const Cell n{c.x + step.dx, c.y + step.dy};
        CHECK((layout.localCenter(n) - layout.localCenter(c)).norm() == Approx(1.0).margin(1e-12));
        CHECK(layout.stepDistance(c, n) == 1);
        // The neighbour lists c back (symmetry) and the two hexes share exactly two corners.
        bool back = false;
        for (const NeighbourStep& s : layout.moves(n)) back = back || (Cell{n.x + s.dx, n.y + s.dy} == c);
        CHECK(back);
        std::array<Eigen::Vector2d, 6> theirs;
        layout.localCorners(n, theirs);
        int shared = 0;
        for (const auto& p : mine) {
          for (const auto& q : theirs) shared += near(p, q) ? 1 : 0;
        }
        CHECK(shared == 2);
      }
      // Corners lie at the circumradius 1/√3 from the centre.
      for (const auto& corner : mine) CHECK((corner - layout.localCenter(c)).norm() == Approx(1.0 / std::sqrt(3.0)));
      CHECK(layout.toAxial(c) == layout.toAxial(layout.fromAxial(layout.toAxial(c))));
      CHECK(layout.fromAxial(layout.toAxial(c)) == c);
    }
  }
}

TEST_CASE("hex offset conventions: odd-r and odd-q", "[grid]") {
  const Layout pointy = Layout::hexPointy();
  // Odd rows sit half a tile to the right.
  CHECK(pointy.localCenter({0, 1}).x() - pointy.localCenter({0, 0}).x() == Approx(0.5));
  CHECK(pointy.localCenter({0, 1}).y() - pointy.localCenter({0, 0}).y() == Approx(std::sqrt(3.0) / 2));
  const Layout flat = Layout::hexFlat();
  CHECK(flat.localCenter({1, 0}).y() - flat.localCenter({0, 0}).y() == Approx(0.5));
  CHECK(flat.localCenter({1, 0}).x() - flat.localCenter({0, 0}).x() == Approx(std::sqrt(3.0) / 2));
  // Tile (0,0)'s bounding box touches the origin.
  for (const Layout& layout : {pointy, flat}) {
    std::array<Eigen::Vector2d, 6> corners;
    layout.localCorners({0, 0}, corners);
    double minX = 1e9, minY = 1e9;
    for (const auto& p : corners) {
      minX = std::min(minX, p.x());
      minY = std::min(minY, p.y());
    }
    CHECK(minX == Approx(0.0).margin(1e-12));
    CHECK(minY == Approx(0.0).margin(1e-12));
  }
}

TEST_CASE("hex offset conventions: even-r and even-q shift the even rows and columns", "[grid]") {
  const Vec2 origin(0.0f, 0.0f);
  const Layout pointy = Layout::hexPointy(1.0f, origin, HexStagger::Even), odd = Layout::hexPointy();
  CHECK(pointy.hexStagger() == HexStagger::Even);
  CHECK(odd.hexStagger() == HexStagger::Odd);
  CHECK(Layout::square().hexStagger() == HexStagger::Odd);
  CHECK_FALSE(pointy == odd);
  // Row 0 sits half a tile right of row 1; row 1 starts at x = 0.
  CHECK(pointy.localCenter({0, 0}).x() - pointy.localCenter({0, 1}).x() == Approx(0.5));
  CHECK(pointy.localCenter({0, 1}).x() == Approx(0.5));
  CHECK(pointy.localCenter({0, 2}).x() == Approx(1.0));
  CHECK(pointy.localCenter({0, -1}).x() == Approx(0.5));
  // Rows keep their height: only the shifted ones change.
  CHECK(pointy.localCenter({3, 1}) == odd.localCenter({3, 1}) - Eigen::Vector2d(0.5, 0.0));
  CHECK(pointy.localCenter({3, 2}) == odd.localCenter({3, 2}) + Eigen::Vector2d(0.5, 0.0));
  // The neighbours of a shifted row 0 tile reach right (even-r), of an unshifted row left.
  auto neighbours = [](const Layout& layout, Cell c) {
    std::set<std::pair<int, int>> out;
    for (const NeighbourStep& s : layout.moves(c)) out.insert({s.dx, s.dy});
    return out;
  };
  const std::set<std::pair<int, int>> right{{1, 0}, {-1, 0}, {0, 1}, {1, 1}, {0, -1}, {1, -1}};
  const std::set<std::pair<int, int>> left{{1, 0}, {-1, 0}, {0, 1}, {-1, 1}, {0, -1}, {-1, -1}};
  CHECK(neighbours(pointy, {2, 0}) == right);
  CHECK(neighbours(pointy, {2, 1}) == left);
  CHECK(neighbours(pointy, {2, -2}) == right);
  CHECK(neighbours(odd, {2, 0}) == left);
  const Layout flat = Layout::hexFlat(1.0f, origin, HexStagger::Even);
  CHECK(flat.localCenter({0, 0}).y() - flat.localCenter({1, 0}).y() == Approx(0.5));
  CHECK(flat.localCenter({1, 0}).y() == Approx(0.5));
  // Axial (0,0) is tile (0,0) for either stagger, and steps count the same way.
  for (const Layout& layout : {pointy, flat}) {
    CHECK(layout.toAxial({0, 0}) == Axial{0, 0});
    CHECK(layout.fromAxial({0, 0}) == Cell{0, 0});
    CHECK(layout.stepDistance({0, 0}, {0, 1}) == 1);
    CHECK(layout.stepDistance({0, 0}, {4, 0}) == 4);
  }
  CHECK(pointy.stepDistance({0, 0}, {1, 1}) == 1);   // down-right of a shifted row
  CHECK(pointy.stepDistance({0, 0}, {-1, 1}) == 2);
  CHECK(odd.stepDistance({0, 0}, {-1, 1}) == 1);     // down-left of an unshifted row
}

TEST_CASE("stepDistance equals breadth-first distance on an empty grid", "[grid][property]") {
  for (const Layout& layout : test::allLayouts()) {
    const Cell origin{6, 7};
    std::map<Cell, int> distance{{origin, 0}};
    std::deque<Cell> queue{origin};
    while (!queue.empty()) {
      const Cell c = queue.front();
      queue.pop_front();
      if (distance[c] == 6) continue;
      for (const NeighbourStep& step : layout.moves(c)) {
        const Cell n{c.x + step.dx, c.y + step.dy};
        if (distance.emplace(n, distance[c] + 1).second) queue.push_back(n);
      }
    }
    for (const auto& [cell, steps] : distance) CHECK(layout.stepDistance(origin, cell) == steps);
  }
}

TEST_CASE("tileAt finds the nearest centre, ties to the larger row then column", "[grid][property]") {
  std::mt19937 random(77);
  for (const Layout& layout : {Layout::square(1.5f, 8, Vec2(3.0f, -2.0f)), Layout::hexPointy(0.75f, Vec2(1.0f, 1.0f)),
                               Layout::hexFlat(2.0f, Vec2(-5.0f, 0.5f))}) {
    std::uniform_real_distribution<float> coordinate(-20.0f, 40.0f);
    for (int i = 0; i < 3000; ++i) {
      const Vec2 p(coordinate(random), coordinate(random));
      const Eigen::Vector2d local = layout.toLocal(p);
      const Cell found = layout.tileAt(p);
      // Brute force over a window of cells.
      Cell best{0, 0};
      double bestDistance = 1e300;
      // Offset indices lie between coordinate and coordinate / (√3/2) for every layout.
      auto low = [](double v) { return int(std::floor(std::min(v, v / 0.866))) - 3; };
      auto high = [](double v) { return int(std::ceil(std::max(v, v / 0.866))) + 3; };
      for (int y = low(local.y()); y <= high(local.y()); ++y) {
        for (int x = low(local.x()); x <= high(local.x()); ++x) {
          const double d = (layout.localCenter({x, y}) - local).squaredNorm();
          if (d < bestDistance || (d == bestDistance && best < Cell{x, y})) {
            best = {x, y};
            bestDistance = d;
          }
        }
      }
      REQUIRE(found == best);
    }
  }
  // Points just inside and outside a tile's inscribed circle (where tileAtLocal stops comparing
  // with the neighbours), near the origin and far out: the nearest of the tile and its six
  // neighbours, ties to the larger row then column.
  for (const Layout& layout : {Layout::hexPointy(), Layout::hexFlat(1.0f, Vec2::Zero(), HexStagger::Even)}) {
    std::uniform_real_distribution<double> angle(0.0, 6.283185307179586), scale(1.0 - 1e-5, 1.0 + 1e-5);
    std::uniform_int_distribution<std::int32_t> index(-(1 << 20), 1 << 20);
    for (int i = 0; i < 20000; ++i) {
      const Cell home = i % 2 == 0 ? Cell{index(random) % 50, index(random) % 50} : Cell{index(random), index(random)};
      const double a = angle(random), rho = 0.5 * scale(random);
      const Eigen::Vector2d local = layout.localCenter(home) + rho * Eigen::Vector2d(std::cos(a), std::sin(a));
      Cell best = home;
      double bestDistance = (layout.localCenter(home) - local).squaredNorm();
      for (const NeighbourStep& step : layout.touching(home)) {
        const Cell other{home.x + step.dx, home.y + step.dy};
        const double d = (layout.localCenter(other) - local).squaredNorm();
        if (d < bestDistance || (d == bestDistance && best < other)) {
          best = other;
          bestDistance = d;
        }
      }
      REQUIRE(layout.tileAtLocal(local) == best);
    }
  }
  // Exact border points.
  const Layout pointy = Layout::hexPointy();
  // The vertical edge between (0,0) and (1,0) at x = 1: the larger column wins.
  CHECK(pointy.tileAtLocal(Eigen::Vector2d(1.0, pointy.localCenter({0, 0}).y())) == Cell{1, 0});
  CHECK(Layout::square().tileAtLocal(Eigen::Vector2d(2.0, 3.0)) == Cell{2, 3});
}

TEST_CASE("edge-line families carry every tile edge", "[grid]") {
  for (const Layout& layout : test::allLayouts()) {
    const auto families = layout.edgeLineFamilies();
    CHECK(families.size() == (layout.isHex() ? 3u : 2u));
    for (int y = -2; y < 3; ++y) {
      for (int x = -2; x < 3; ++x) {
        std::array<Eigen::Vector2d, 6> corners;
        const int count = layout.localCorners({x, y}, corners);
        for (int i = 0; i < count; ++i) {
          const Eigen::Vector2d& p = corners[std::size_t(i)];
          const Eigen::Vector2d& q = corners[std::size_t((i + 1) % count)];
          bool carried = false;
          for (const auto& family : families) {
            const double k = (family.normal.dot(p) - family.offset) / family.spacing;
            const double k2 = (family.normal.dot(q) - family.offset) / family.spacing;
            carried = carried || (std::abs(k - std::round(k)) < 1e-9 && std::abs(k2 - k) < 1e-9);
          }
          CHECK(carried);
        }
      }
    }
  }
}

TEST_CASE("hex layouts: points far off any map, infinite or NaN land far off the map, without overflow", "[grid]") {
  // Found by the query fuzzer: cube rounding of 1e30 converted an out-of-range double to int
  // (undefined behaviour, which the sanitizer job in CI reports).
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  for (const Layout& layout : {Layout::hexPointy(), Layout::hexFlat(0.5f, Vec2(3.0f, -7.0f))}) {
    for (const Vec2& p : {Vec2(1e30f, -1e30f), Vec2(-3e38f, 3e38f), Vec2(inf, 0.0f), Vec2(-inf, -inf), Vec2(nan, 1.0f),
                         Vec2(1.0f, nan), Vec2(5e9f, 5e9f)}) {
      const Cell cell = layout.tileAt(p);
      INFO(p.transpose() << " -> " << cell.x << "," << cell.y);
      CHECK(std::max(std::abs(std::int64_t(cell.x)), std::abs(std::int64_t(cell.y))) > std::int64_t(1) << 26);
    }
    // Ordinary points still find their tile.
    CHECK(layout.tileAt(layout.tileCenter({7, -3})) == Cell{7, -3});
  }
}

TEST_CASE("segmentExit: where a segment leaves a tile, told apart from tileAt along the segment", "[grid][property]") {
  // Stage 3's exit points. The reference is independent of the clipping: the segment sampled
  // finely and each sample's tile found by tileAtLocal (nearest centre). An exit is expected
  // exactly when the samples enter the tile and the segment ends outside it, and it must lie
  // where the samples leave; just before it the segment is in the tile, just after it is not.
  std::mt19937 rng(50);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (const Layout& layout : {Layout::square(), Layout::hexPointy(), Layout::hexFlat(),
                               Layout::hexPointy(1.0f, Vec2(0.0f, 0.0f), HexStagger::Even),
                               Layout::hexFlat(1.0f, Vec2(0.0f, 0.0f), HexStagger::Even)}) {
    int exits = 0, misses = 0, endsInside = 0;
    for (int trial = 0; trial < 4000; ++trial) {
      const Cell cell{int(rng() % 7) - 3, int(rng() % 7) - 3};
      const Eigen::Vector2d centre = layout.localCenter(cell);
      const Eigen::Vector2d from = centre + Eigen::Vector2d(unit(rng), unit(rng)) * 1.2;
      const Eigen::Vector2d to = from + Eigen::Vector2d(unit(rng), unit(rng)) * 2.5;
      constexpr int kSamples = 4000;
      int firstInside = -1, lastInside = -1, runs = 0;
      bool was = false;
      for (int k = 0; k <= kSamples; ++k) {
        const bool inside = layout.tileAtLocal(from + (to - from) * (double(k) / kSamples)) == cell;
        if (inside && firstInside < 0) firstInside = k;
        if (inside) lastInside = k;
        runs += inside && !was ? 1 : 0;
        was = inside;
      }
      const auto exit = layout.segmentExit(cell, from, to);
      INFO(toString(layout.kind()) << " cell " << cell.x << "," << cell.y << " from " << from.transpose() << " to "
                                     << to.transpose());
      if (firstInside < 0 || firstInside == lastInside) {
        // Misses the tile, or grazes it at most one sample long: only a sliver can be cut.
        if (exit) CHECK((*exit - from).norm() <= (to - from).norm());
        ++misses;
        continue;
      }
      REQUIRE(runs == 1);  // a convex tile: one stretch inside
      if (lastInside == kSamples) {
        CHECK_FALSE(exit.has_value());  // ends inside: it does not leave
        ++endsInside;
        continue;
      }
      REQUIRE(exit.has_value());
      const double length = (to - from).norm();
      const double t = (*exit - from).norm() / length;
      CHECK(t >= double(lastInside) / kSamples - 1e-9);
      CHECK(t <= double(lastInside + 1) / kSamples + 1e-9);
      const Eigen::Vector2d along = (to - from) / length;
      CHECK(layout.tileAtLocal(*exit - along * 1e-7) == cell);
      CHECK(layout.tileAtLocal(*exit + along * 1e-7) != cell);
      ++exits;
    }
    CHECK(exits > 1000);
    CHECK(misses > 100);
    CHECK(endsInside > 100);
  }
}
