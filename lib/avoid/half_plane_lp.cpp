// SPDX-License-Identifier: MIT
#include "half_plane_lp.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace rpgnav::avoid {
namespace {

// Parallel planes and "already satisfied" tests allow this much (velocities are scaled to the
// unit disc).
constexpr float kEpsilon = 1e-6f;
// Most planes one agent sees: neighbours (32) and obstacles, with room to spare.
constexpr std::size_t kMaxPlanes = 128;

// Optimum on the boundary line of plane i, within the disc and the planes before i. `direction`:
// maximise along `target` (a unit vector) instead of getting near it.
bool onLine(std::span<const HalfPlane> planes, std::size_t i, Vec2 target, bool direction, Vec2& velocity) {
  const HalfPlane& line = planes[i];
  const Vec2 base = line.offset * line.normal;  // the line's point nearest the origin
  const Vec2 along(-line.normal.y(), line.normal.x());
  const float room = 1.0f - line.offset * line.offset;
  if (room < 0.0f) return false;  // the line misses the disc
  const float half = std::sqrt(room);
  float low = -half, high = half;
  for (std::size_t j = 0; j < i; ++j) {
    const float slope = planes[j].normal.dot(along);
    const float limit = planes[j].offset - planes[j].normal.dot(base);
    if (std::fabs(slope) <= kEpsilon) {
      if (limit < -kEpsilon) return false;  // parallel and excluding the whole line
      continue;
    }
    if (slope > 0.0f) {
      high = std::min(high, limit / slope);
    } else {
      low = std::max(low, limit / slope);
    }
    if (low > high) return false;
  }
  float t;
  if (direction) {
    t = target.dot(along) > 0.0f ? high : low;
  } else {
    t = std::clamp(target.dot(along), low, high);
  }
  velocity = base + t * along;
  return true;
}

// The incremental program: the index of the first plane that could not be met (planes.size()
// when all were).
std::size_t incremental(std::span<const HalfPlane> planes, Vec2 target, bool direction, Vec2& velocity) {
  if (direction) {
    velocity = target;
  } else {
    const float length = target.norm();
    velocity = length > 1.0f ? Vec2(target / length) : target;
  }
  for (std::size_t i = 0; i < planes.size(); ++i) {
    if (planes[i].normal.dot(velocity) <= planes[i].offset + kEpsilon) continue;
    const Vec2 kept = velocity;
    if (!onLine(planes, i, target, direction, velocity)) {
      velocity = kept;
      return i;
    }
  }
  return planes.size();
}

// No velocity meets every soft plane: the one that minimises the largest violation of the soft
// planes from `failed` on, keeping the hard ones (the paper's 3-D program, solved as a sequence
// of 2-D ones on the planes of equal violation).
Vec2 leastViolation(std::span<const HalfPlane> planes, std::size_t hard, std::size_t failed, Vec2 velocity) {
  std::array<HalfPlane, kMaxPlanes> projected;
  float worst = 0.0f;
  for (std::size_t i = failed; i < planes.size(); ++i) {
    if (planes[i].normal.dot(velocity) - planes[i].offset <= worst) continue;
    std::size_t count = 0;
    for (std::size_t j = 0; j < hard; ++j) projected[count++] = planes[j];
    for (std::size_t j = hard; j < i; ++j) {
      // Where planes j and i are violated equally.
      const Vec2 normal = planes[j].normal - planes[i].normal;
      const float length = normal.norm();
      if (length <= kEpsilon) continue;  // the same direction: j is no tighter than i here
      projected[count++] = HalfPlane{Vec2(normal / length), (planes[j].offset - planes[i].offset) / length};
    }
    const Vec2 kept = velocity;
    if (incremental(std::span<const HalfPlane>(projected.data(), count), Vec2(-planes[i].normal), true, velocity) < count) {
      velocity = kept;  // only rounding can get here: keep the last good answer
    }
    worst = planes[i].normal.dot(velocity) - planes[i].offset;
  }
  return velocity;
}

}  // namespace

LpAnswer solveVelocity(std::span<const HalfPlane> planes, std::size_t hard, Vec2 preferred) {
  LpAnswer answer;
  planes = planes.first(std::min(planes.size(), kMaxPlanes));
  hard = std::min(hard, planes.size());
  const std::size_t failed = incremental(planes, preferred, false, answer.velocity);
  if (failed == planes.size()) return answer;
  if (failed < hard) {
    answer.hardFailed = true;
    return answer;
  }
  answer.relaxed = true;
  answer.velocity = leastViolation(planes, hard, failed, answer.velocity);
  return answer;
}

}  // namespace rpgnav::avoid
