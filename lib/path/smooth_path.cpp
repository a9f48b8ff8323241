// SPDX-License-Identifier: MIT
#include "rpgnav/path/smooth_path.hpp"

#include <algorithm>
#include <cmath>

namespace rpgnav {
namespace {

using Point = Eigen::Vector2d;


// Flattening: a span is cut into n equal parameter steps, with n chosen so that every chord
// stays within `tolerance` of the curve. A chord over a parameter step h is within h²/8 · max|B''|
// of the curve, and |B''| is at most 6 × the larger second difference |D| of the control points:
// n = ceil(sqrt(6 |D| / (8 tolerance))), as one fourth root of |D|² · stepScale(tolerance).
double stepScale(double tolerance) { return 0.5625 / (tolerance * tolerance); }
int flatteningSteps(const CubicSpan& span, double scale) {
  const Point p0 = span.p[0].cast<double>(), p1 = span.p[1].cast<double>(), p2 = span.p[2].cast<double>(),
              p3 = span.p[3].cast<double>();
  const double x = std::max((p0 - 2.0 * p1 + p2).squaredNorm(), (p1 - 2.0 * p2 + p3).squaredNorm()) * scale;
  if (x <= 1.0) return 1;  // straight spans (many), without the roots
  const double steps = std::ceil(std::sqrt(std::sqrt(x)));
  return steps < 65536.0 ? int(steps) : 1 << 16;  // capped before converting
}

// Calls emit(t, point) for the ends of the n steps (the last is the span's end point exactly).
template <class Emit>
void flatten(const CubicSpan& span, int n, Emit&& emit) {
  const Point p0 = span.p[0].cast<double>(), p1 = span.p[1].cast<double>(), p2 = span.p[2].cast<double>(),
              p3 = span.p[3].cast<double>();
  // Power form c0 + t(c1 + t(c2 + t c3)): three multiply-adds per point (at() converts and
  // weighs all four points each time).
  const Point c1 = 3.0 * (p1 - p0), c2 = 3.0 * (p0 - 2.0 * p1 + p2), c3 = p3 - p0 + 3.0 * (p1 - p2);
  const double step = 1.0 / double(n);
  for (int k = 1; k < n; ++k) {
    const double t = double(k) * step;
    emit(t, Point(p0 + t * (c1 + t * (c2 + t * c3))).cast<float>());
  }
  emit(1.0, span.p[3]);
}

}  // namespace

Vec2 CubicSpan::at(double t) const noexcept {
  const double u = 1.0 - t;
  const Point q = u * u * u * p[0].cast<double>() + 3.0 * u * u * t * p[1].cast<double>() +
                  3.0 * u * t * t * p[2].cast<double>() + t * t * t * p[3].cast<double>();
  return q.cast<float>();
}

Vec2 CubicSpan::derivative(double t) const noexcept {
  const double u = 1.0 - t;
  const Point q = 3.0 * u * u * (p[1] - p[0]).cast<double>() + 6.0 * u * t * (p[2] - p[1]).cast<double>() +
                  3.0 * t * t * (p[3] - p[2]).cast<double>();
  return q.cast<float>();
}

double CubicSpan::spread() const noexcept {
  // The larger distance of the two handles from the chord: one division and one root. Kept out
  // of line on purpose: inlined next to the code that builds a span, GCC 12 -O3 (its SLP
  // vectorizer) computed it from the handles before their rounding to float, differing from the
  // stored span by that rounding (Clang, -O2 and this out-of-line call agree).
  const Point a = p[0].cast<double>(), ab = p[3].cast<double>() - a;
  const double length2 = ab.squaredNorm();
  const double scale = length2 > 0.0 ? 1.0 / length2 : 0.0;
  auto squared = [&](const Point& x) {
    const double t = std::clamp((x - a).dot(ab) * scale, 0.0, 1.0);
    return (a + t * ab - x).squaredNorm();
  };
  return std::sqrt(std::max(squared(p[1].cast<double>()), squared(p[2].cast<double>())));
}

std::array<CubicSpan, 2> CubicSpan::split() const noexcept {
  const Point a = p[0].cast<double>(), b = p[1].cast<double>(), c = p[2].cast<double>(), d = p[3].cast<double>();
  const Point ab = 0.5 * (a + b), bc = 0.5 * (b + c), cd = 0.5 * (c + d);
  const Point abc = 0.5 * (ab + bc), bcd = 0.5 * (bc + cd), middle = 0.5 * (abc + bcd);
  CubicSpan first, second;
  first.p = {p[0], ab.cast<float>(), abc.cast<float>(), middle.cast<float>()};
  second.p = {middle.cast<float>(), bcd.cast<float>(), cd.cast<float>(), p[3]};
  return {first, second};
}

void SmoothPath::clear() {
  m_spans.clear();
  m_samples.clear();
  m_knots.clear();
}

void SmoothPath::assign(std::span<const CubicSpan> spans, double tolerance) {
  m_spans.assign(spans.begin(), spans.end());
  m_samples.clear();
  m_knots.clear();
  tolerance = std::isfinite(tolerance) && tolerance > 0.0 ? tolerance : 1e-3;
  m_tolerance = tolerance;
  if (m_spans.empty()) return;
  // Every span's steps first (their roots do not wait on one another, nor the points on them);
  // then the points, every span's own entry at t = 0 included (same point and arc length as the
  // previous span's end, so interpolation never mixes two spans' parameters); then the arc
  // lengths in one pass (independent roots, no dependency on the table's growth).
  m_knots.resize(m_spans.size());
  std::size_t total = 1;
  const double scale = stepScale(tolerance);
  for (std::size_t k = 0; k < m_spans.size(); ++k) {
    const int steps = flatteningSteps(m_spans[k], scale);
    m_knots[k] = double(steps);
    total += std::size_t(steps) + 1;
  }
  m_samples.reserve(total);
  for (std::size_t k = 0; k < m_spans.size(); ++k) {
    const int steps = int(m_knots[k]);
    m_knots[k] = double(m_samples.size());  // the entry's index for now
    m_samples.push_back({std::uint32_t(k), 0.0f, 0.0, m_spans[k].p[0]});
    flatten(m_spans[k], steps, [&](double t, Vec2 point) { m_samples.push_back({std::uint32_t(k), float(t), 0.0, point}); });
  }
  double s = 0.0;
  for (std::size_t i = 1; i < m_samples.size(); ++i) {
    s += double((m_samples[i].point - m_samples[i - 1].point).norm());
    m_samples[i].s = s;
  }
  for (double& knot : m_knots) knot = m_samples[std::size_t(knot)].s;
  m_knots.push_back(s);
}

double SmoothPath::knot(std::size_t i) const noexcept { return i < m_knots.size() ? m_knots[i] : length(); }

std::size_t SmoothPath::sampleBefore(double s, std::size_t hint) const noexcept {
  if (m_samples.empty()) return 0;
  std::size_t i = std::min(hint, m_samples.size() - 1);
  if (m_samples[i].s > s) i = 0;
  // Walk forward from the hint: followers move a little per frame.
  while (i + 1 < m_samples.size() && m_samples[i + 1].s <= s) {
    if (i + 64 < m_samples.size() && m_samples[i + 64].s <= s) {
      const auto it = std::upper_bound(m_samples.begin() + std::ptrdiff_t(i), m_samples.end(), s,
                                       [](double value, const Sample& sample) { return value < sample.s; });
      return std::size_t(it - m_samples.begin()) - 1;
    }
    ++i;
  }
  return i;
}

Vec2 SmoothPath::positionAt(std::size_t i, double s) const noexcept {
  if (m_samples.empty()) return Vec2::Zero();
  if (i + 1 >= m_samples.size()) return m_samples.back().point;
  const Sample& a = m_samples[i];
  const Sample& b = m_samples[i + 1];
  const double gap = b.s - a.s;
  if (gap <= 0.0) return a.point;
  const double f = std::clamp((s - a.s) / gap, 0.0, 1.0);
  return m_spans[b.span].at(double(a.t) + (double(b.t) - double(a.t)) * f);
}

Vec2 SmoothPath::tangentAt(std::size_t i, double s) const noexcept {
  if (m_samples.size() < 2) return Vec2::Zero();
  i = std::min(i, m_samples.size() - 2);
  // Skip the zero-length join between two spans.
  while (i + 2 < m_samples.size() && m_samples[i + 1].s - m_samples[i].s <= 0.0) ++i;
  const Sample& a = m_samples[i];
  const Sample& b = m_samples[i + 1];
  const double gap = b.s - a.s;
  const double f = gap > 0.0 ? std::clamp((s - a.s) / gap, 0.0, 1.0) : 0.0;
  const Vec2 d = m_spans[b.span].derivative(double(a.t) + (double(b.t) - double(a.t)) * f);
  if (d.squaredNorm() > 0.0f) return d.normalized();
  const Vec2 chord = b.point - a.point;
  return chord.squaredNorm() > 0.0f ? Vec2(chord.normalized()) : Vec2::Zero();
}

Vec2 SmoothPath::position(double s) const noexcept {
  if (m_samples.empty()) return Vec2::Zero();
  s = std::clamp(std::isfinite(s) ? s : 0.0, 0.0, length());
  return positionAt(sampleBefore(s), s);
}

Vec2 SmoothPath::tangent(double s) const noexcept {
  if (m_samples.empty()) return Vec2::Zero();
  s = std::clamp(std::isfinite(s) ? s : 0.0, 0.0, length());
  return tangentAt(sampleBefore(s), s);
}

void SmoothPath::sample(double tolerance, std::vector<Vec2>& out) const {
  out.clear();
  if (m_spans.empty()) return;
  tolerance = std::isfinite(tolerance) && tolerance > 0.0 ? tolerance : 1e-3;
  if (tolerance >= m_tolerance) {  // the table is fine enough: its points, joins once
    // Written through a pointer into room made first (Vec2's constructor leaves it as it was):
    // no capacity check per point.
    out.resize(m_samples.size());
    Vec2* next = out.data();
    *next++ = m_samples.front().point;
    for (std::size_t i = 1; i < m_samples.size(); ++i) {
      if (m_samples[i].point != next[-1]) *next++ = m_samples[i].point;
    }
    out.resize(std::size_t(next - out.data()));
    return;
  }
  out.push_back(m_spans.front().p[0]);
  const double scale = stepScale(tolerance);
  for (const CubicSpan& span : m_spans) {
    flatten(span, flatteningSteps(span, scale), [&](double, Vec2 point) { out.push_back(point); });
  }
}

void SmoothPath::sampleEvery(double spacing, std::vector<Vec2>& out) const {
  out.clear();
  if (m_spans.empty()) return;
  const double total = length();
  if (!(spacing > 0.0) || !std::isfinite(spacing)) spacing = std::max(total, 1e-9);
  std::size_t hint = 0;
  for (double s = 0.0; s < total; s += spacing) {
    hint = sampleBefore(s, hint);
    out.push_back(positionAt(hint, s));
  }
  out.push_back(m_samples.back().point);
}

void PathFollower::follow(const SmoothPath& path, Ending ending) noexcept {
  m_path = &path;
  m_ending = ending;
  m_s = 0.0;
  m_sample = 0;
  m_nextKnot = 1;
  m_arrived = path.empty();
}

PathFollower::Step PathFollower::advance(double distance) noexcept {
  Step step;
  step.ending = m_ending;
  if (m_path == nullptr || m_path->empty()) {
    step.arrived = !m_arrived && m_path != nullptr;
    m_arrived = true;
    return step;
  }
  const double total = m_path->length();
  moveTo(std::min(total, m_s + (std::isfinite(distance) && distance > 0.0 ? distance : 0.0)), step);
  step.position = m_path->positionAt(m_sample, m_s);
  if (!m_arrived && m_s >= total) {
    m_arrived = true;
    step.arrived = true;
    step.position = m_path->samples().back().point;
  }
  return step;
}

void PathFollower::moveTo(double s, Step& step) noexcept {
  step.travelled = s - m_s;
  m_s = s;
  m_sample = m_path->sampleBefore(m_s, m_sample);
  step.heading = m_path->tangentAt(m_sample, m_s);
  step.firstReached = std::int32_t(m_nextKnot);
  while (m_nextKnot < m_path->knotCount() && m_path->knot(m_nextKnot) <= m_s) {
    ++m_nextKnot;
    ++step.reached;
  }
}

Vec2 PathFollower::preferredVelocity(Vec2 position, double speed, double lead, double slowRadius) const noexcept {
  if (m_path == nullptr || m_path->empty() || m_arrived || !(speed > 0.0) || !finite(position)) return Vec2::Zero();
  const double total = m_path->length();
  const double ahead = std::min(total, m_s + (std::isfinite(lead) && lead > 0.0 ? lead : 0.0));
  const Vec2 target = pointAhead(lead);
  const Vec2 offset = target - position;
  const double distance = double(offset.norm());
  if (!(distance > 0.0)) {
    return ahead >= total ? Vec2::Zero() : Vec2(m_path->tangentAt(m_sample, m_s) * float(speed));
  }
  // Full speed until the end (the target then) is within slowRadius, then in proportion to the
  // distance left.
  double wanted = speed;
  if (ahead >= total && slowRadius > 0.0 && distance < slowRadius) wanted = speed * distance / slowRadius;
  return offset * float(wanted / distance);
}

Vec2 PathFollower::pointAhead(double distance) const noexcept {
  if (m_path == nullptr || m_path->empty()) return Vec2::Zero();
  const double s = std::min(m_path->length(), m_s + (std::isfinite(distance) && distance > 0.0 ? distance : 0.0));
  return m_path->positionAt(m_path->sampleBefore(s, m_sample), s);
}

PathFollower::Step PathFollower::track(Vec2 position, double window, double arriveDistance) noexcept {
  Step step;
  step.ending = m_ending;
  if (m_path == nullptr || m_path->empty() || !finite(position)) return advance(0.0);
  step.position = position;
  const double total = m_path->length();
  const double limit = std::min(total, m_s + (std::isfinite(window) && window > 0.0 ? window : 0.0));
  // The nearest point of the arc length table's chords from the place to the limit (the first
  // of equals: never further than it needs).
  const std::span<const SmoothPath::Sample> samples = m_path->samples();
  double best = m_s;
  float bestDistance = (m_path->positionAt(m_sample, m_s) - position).squaredNorm();
  for (std::size_t i = m_sample; i + 1 < samples.size() && samples[i].s < limit; ++i) {
    const Vec2 a = samples[i].point, b = samples[i + 1].point;
    const Vec2 ab = b - a;
    const float lengthSquared = ab.squaredNorm();
    const float t = lengthSquared > 0.0f ? std::clamp((position - a).dot(ab) / lengthSquared, 0.0f, 1.0f) : 0.0f;
    // The chord's ends exactly (the end of the path must be reachable bit for bit).
    const double along = t <= 0.0f   ? samples[i].s
                         : t >= 1.0f ? samples[i + 1].s
                                     : samples[i].s + double(t) * (samples[i + 1].s - samples[i].s);
    const double s = std::clamp(along, m_s, limit);
    const float d = (a + t * ab - position).squaredNorm();
    if (d < bestDistance) {
      bestDistance = d;
      best = s;
    }
  }
  // Within arriveDistance of the end, body and place: there (the place jumps to the end).
  const bool there = total - best <= arriveDistance && double((samples.back().point - position).norm()) <= arriveDistance;
  moveTo(there ? total : best, step);
  if (!m_arrived && there) {
    m_arrived = true;
    step.arrived = true;
  }
  return step;
}

}  // namespace rpgnav
