// SPDX-License-Identifier: MIT
// The plan's memo of the segment tester's answers (detail::ProbeMemo): every answer is the
// tester's own, bit for bit, whatever the order, the repeats, the number of distinct questions
// and the tester asked.
#include <catch2/catch.hpp>

#include "path/probe_memo.hpp"
#include "support/test_maps.hpp"

#include <random>
#include <vector>

using namespace rpgnav;

namespace {

void requireSame(const SegmentProbe& memo, const SegmentProbe& direct) {
  REQUIRE(memo.clear == direct.clear);
  REQUIRE(memo.cost == direct.cost);
  REQUIRE(memo.length == direct.length);
  REQUIRE(memo.hasBlocker == direct.hasBlocker);
  REQUIRE(memo.blocker == direct.blocker);
}

struct Question {
  int kind;  // 0 probe, 1 probeKeeping, 2 keeps
  Vec2 from, to;
  float radius, clearance;
};

// Asks `questions` in a random order, each several times, of the memo and of the tester.
void askAll(std::mt19937& random, detail::ProbeMemo& memo, const SegmentTester& tester, const std::vector<Question>& questions,
            int asks) {
  std::uniform_int_distribution<std::size_t> pick(0, questions.size() - 1);
  for (int i = 0; i < asks; ++i) {
    const Question& q = questions[pick(random)];
    INFO("kind " << q.kind << " from " << q.from.transpose() << " to " << q.to.transpose() << " radius " << q.radius
                 << " clearance " << q.clearance);
    if (q.kind == 0) {
      requireSame(memo.probe(tester, q.from, q.to, q.radius), tester.probe(q.from, q.to, q.radius));
    } else if (q.kind == 1) {
      bool memoKeeps = false, directKeeps = false;
      requireSame(memo.probeKeeping(tester, q.from, q.to, q.radius, q.clearance, memoKeeps),
                  tester.probeKeeping(q.from, q.to, q.radius, q.clearance, directKeeps));
      REQUIRE(memoKeeps == directKeeps);
    } else {
      REQUIRE(memo.keeps(tester, q.from, q.to, q.clearance) == tester.keeps(q.from, q.to, q.clearance));
    }
  }
}

}  // namespace

TEST_CASE("ProbeMemo answers as the segment tester does, on every layout", "[path][memo][property]") {
  std::mt19937 random(50);
  for (const Layout& layout : test::allLayouts()) {
    for (int trial = 0; trial < 6; ++trial) {
      const TileMap map = test::randomMap(random, layout, 24, 20, 0.15);
      const SegmentTester tester(map, TerrainTable::kWalk);
      detail::ProbeMemo memo;
      // Few distinct questions asked many times (the memo answers most), and the same ends at
      // several radii, clearances and kinds (which must not share an answer).
      std::vector<Question> questions;
      std::uniform_real_distribution<float> x(-1.0f, 25.0f), y(-1.0f, 21.0f);
      for (int i = 0; i < 120; ++i) {
        const Vec2 a(x(random), y(random)), b(x(random), y(random));
        for (const float radius : {0.0f, 0.2f}) {
          questions.push_back({0, a, b, radius, 0.0f});
          questions.push_back({1, a, b, radius, radius + 0.25f});
          questions.push_back({2, a, b, 0.0f, radius + 0.25f});
        }
        questions.push_back({0, b, a, 0.2f, 0.0f});  // (the reversed segment is its own question)
      }
      INFO(toString(layout.kind()) << " trial " << trial);
      askAll(random, memo, tester, questions, 3000);
      // A new plan: forgotten, and answered again.
      memo.clear();
      askAll(random, memo, tester, questions, 500);
    }
  }
}

TEST_CASE("ProbeMemo answers every question right beyond its slots, and keeps testers apart", "[path][memo]") {
  std::mt19937 random(51);
  const Layout layout = Layout::hexPointy();
  const TileMap walls = test::randomMap(random, layout, 30, 30, 0.3);
  const TileMap open = test::randomMap(random, layout, 30, 30, 0.0, false);  // (floor only)
  const SegmentTester wallsTester(walls, TerrainTable::kWalk), openTester(open, TerrainTable::kWalk);
  detail::ProbeMemo memo;
  // 5,000 distinct questions: ten times the memo's slots, most measured without a slot.
  std::vector<Question> questions;
  std::uniform_real_distribution<float> coordinate(1.0f, 27.0f), step(-3.0f, 3.0f);
  for (int i = 0; i < 5000; ++i) {
    const Vec2 a(coordinate(random), coordinate(random));
    questions.push_back({i % 3, a, a + Vec2(step(random), step(random)), 0.1f, 0.3f});
  }
  askAll(random, memo, wallsTester, questions, 20000);
  // The same questions of another map's tester in the same plan: its own answers.
  std::size_t differ = 0;
  for (std::size_t i = 0; i < 300; ++i) {
    const Question& q = questions[i];
    const SegmentProbe onWalls = memo.probe(wallsTester, q.from, q.to, q.radius);
    const SegmentProbe onOpen = memo.probe(openTester, q.from, q.to, q.radius);
    requireSame(onWalls, wallsTester.probe(q.from, q.to, q.radius));
    requireSame(onOpen, openTester.probe(q.from, q.to, q.radius));
    differ += onWalls.clear != onOpen.clear ? 1 : 0;
  }
  CHECK(differ > 30);  // (the two maps do disagree, so a shared answer would show)
}

TEST_CASE("ProbeMemo measures a segment's dearest terrain once per plan and per probe", "[path][memo]") {
  std::mt19937 random(52);
  const TileMap map = test::randomMap(random, Layout::hexFlat(), 20, 20, 0.1);
  const SegmentTester tester(map, TerrainTable::kWalk);
  detail::ProbeMemo memo;
  int measured = 0;
  auto dearest = [&](Vec2 from, Vec2 to, const SegmentProbe& probe, double answer) {
    return memo.dearest(tester, from, to, probe, [&] {
      ++measured;
      return answer;
    });
  };
  const Vec2 a(2.0f, 3.0f), b(9.5f, 7.25f);
  const SegmentProbe probe = tester.probe(a, b, 0.0f);
  CHECK(dearest(a, b, probe, 3.0) == 3.0);
  CHECK(dearest(a, b, probe, 99.0) == 3.0);  // remembered: not measured again
  CHECK(measured == 1);
  CHECK(dearest(b, a, probe, 2.0) == 2.0);  // another segment
  CHECK(measured == 2);
  SegmentProbe other = probe;
  other.cost += 1.0;
  CHECK(dearest(a, b, other, 5.0) == 5.0);  // a probe of another cost: measured for it
  CHECK(measured == 3);
  other.length += 1.0;
  CHECK(dearest(a, b, other, 6.0) == 6.0);  // and of another length
  CHECK(measured == 4);
  // Answers of one kind are not another kind's: a probe and a keeps() of the same segment.
  requireSame(memo.probe(tester, a, b, 0.0f), probe);
  CHECK(memo.keeps(tester, a, b, 0.0f) == tester.keeps(a, b, 0.0f));
  CHECK(dearest(a, b, other, 7.0) == 6.0);
  memo.clear();  // a new plan
  CHECK(dearest(a, b, other, 8.0) == 8.0);
  CHECK(measured == 5);
}
