// SPDX-License-Identifier: MIT
// Plans as jobs for the game's worker threads: collected from the queue, run anywhere, accepted
// back on the scheduler's thread.
#include "schedule/scheduler_character.hpp"

#include <algorithm>
#include <chrono>

namespace rpgnav {

namespace {
using Clock = std::chrono::steady_clock;
}  // namespace

Status PlanJob::run(Planner& planner) {
  // The ignore list points at the job's own copy (the scheduler's character may change meanwhile).
  request.ignore = followed.value != 0 ? std::span<const EntityId>(&followed, 1) : std::span<const EntityId>();
  const Status status = previous != nullptr ? planner.replanAlong(request, *previous, result) : planner.plan(request, result);
  expansions = planner.diagnostics().stats(PathStage::Search).expansions;
  return status;
}


void ReplanScheduler::Impl::collectDue(double now, std::size_t maxJobs, std::vector<PlanJob>& jobs) {
  jobs.clear();
  m_events.clear();
  if (!std::isfinite(now)) return;
  m_now = now;
  m_stats = {};
  if (!m_data->current()) m_data->update();
  notice(now);
  while (jobs.size() < maxJobs) {
    Vec2 goal;
    Character* character = nextDue(now, goal);
    if (character == nullptr) break;
    const ReplanReason reason = take(*character);
    PlanJob& job = jobs.emplace_back();
    job.character = character->spec.id;
    job.request = requestFor(*character, goal);
    job.followed = character->spec.goal.follow;
    job.request.ignore = {};
    job.reason = reason;
    const bool along = planAlongAllowed(*character, reason, goal, now);
    job.previous = along ? &character->path : nullptr;
    character->forceFull = false;
    character->requestedGoal = goal;
    character->requestedGoalChanges = character->goalChanges;
    character->travelledSinceRequest = 0.0;
    character->jobOut = true;
    job.generation = character->generation;
  }
  tellListener();
}

void ReplanScheduler::Impl::acceptJobs(double now, std::span<PlanJob> jobs) {
  const auto begin = Clock::now();
  m_events.clear();
  m_stats = {};
  for (PlanJob& job : jobs) {
    Character* character = find(job.character);
    if (character == nullptr || !character->jobOut || character->generation != job.generation) continue;
    character->jobOut = false;
    m_stats.expansions += job.expansions;
    if (job.previous != nullptr && job.result.status == Status::NoPath) {
      // The route is no longer clear: search afresh, first thing.
      planAfreshFirst(*character, job.reason, now);
      continue;
    }
    accept(*character, job.reason, job.previous != nullptr, job.result, now);
  }
  // Retired characters whose jobs have all come back (or were cancelled) can go.
  if (std::none_of(m_characters.begin(), m_characters.end(), [](const auto& c) { return c->jobOut; })) m_retired.clear();
  m_stats.micros = std::chrono::duration<double, std::micro>(Clock::now() - begin).count();
  tellListener();
}

void ReplanScheduler::Impl::cancelJobs() {
  for (auto& character : m_characters) {
    if (!character->jobOut) continue;
    character->jobOut = false;
    character->forceFull = true;
    queue(*character, m_now - interval());
  }
  m_retired.clear();
}

}  // namespace rpgnav
