// SPDX-License-Identifier: MIT
#include "simulation.hpp"

#include "grid/clearance.hpp"
#include "path/stages.hpp"
#include "rpgnav/grid/line_of_sight.hpp"
#include "rpgnav/grid/regions.hpp"

#include <algorithm>
#include <cmath>
#include <chrono>
#include <limits>
#include <optional>
#include <random>

namespace rpgnav::sample {
namespace {

// FNV-1a over the bytes of plain values.
struct Digest {
  std::uint64_t value = 1469598103934665603ull;
  template <class T>
  void add(const T& item) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(&item);
    for (std::size_t i = 0; i < sizeof(T); ++i) value = (value ^ bytes[i]) * 1099511628211ull;
  }
};

// Labels the tiles a body of `bodyTiles` fits on by what it can reach under the search's step rule
// (Clearance::stepFits); -1 where it does not fit.
std::vector<std::int32_t> bodyComponents(const TileMap& map, const Clearance& clearance, double bodyTiles) {
  const Layout& layout = map.layout();
  std::vector<std::int32_t> label(std::size_t(map.width()) * std::size_t(map.height()), -1);
  std::vector<Cell> queue;
  std::int32_t next = 0;
  for (std::int32_t y = 0; y < map.height(); ++y) {
    for (std::int32_t x = 0; x < map.width(); ++x) {
      if (label[std::size_t(map.index({x, y}))] >= 0 || !clearance.fits({x, y}, bodyTiles)) continue;
      label[std::size_t(map.index({x, y}))] = next;
      queue.assign(1, Cell{x, y});
      while (!queue.empty()) {
        const Cell cell = queue.back();
        queue.pop_back();
        const auto moves = layout.moves(cell);
        for (std::size_t m = 0; m < moves.size(); ++m) {
          const Cell to{cell.x + moves[m].dx, cell.y + moves[m].dy};
          if (!clearance.stepFits(layout, cell, m, bodyTiles) || label[std::size_t(map.index(to))] >= 0) continue;
          label[std::size_t(map.index(to))] = next;
          queue.push_back(to);
        }
      }
      ++next;
    }
  }
  return label;
}

}  // namespace

Spread spreadOf(std::vector<double> values) {
  Spread out;
  if (values.empty()) return out;
  std::sort(values.begin(), values.end());
  out.median = values[values.size() / 2];
  out.p99 = values[std::min(values.size() - 1, values.size() * 99 / 100)];
  out.max = values.back();
  return out;
}

Result<SimulationReport> runSimulation(World& world, const SimulationOptions& options) {
  const TileMap& map = world.map();
  const Layout& layout = map.layout();
  const float tile = layout.tileSize();
  const MobilityId walk = TerrainTable::kWalk;
  if (options.characters < 0 || !(options.fps > 0.0) || !(options.seconds >= 0.0) || !(options.speed > 0.0f) ||
      !(options.radius >= 0.0f && options.radius <= kMaxRadiusTiles) || !(options.wanderMax >= options.wanderMin)) {
    return Error{Status::InvalidArgument, "simulation options out of range"};
  }
  const float radius = options.radius * tile;
  // Wide characters (half a tile or more) move between tiles their body fits on (see
  // SearchRequest::clearance): they stand and wander only there, within what such a body reaches.
  const bool wide = options.radius >= 0.5f;
  const Clearance clearance = wide ? Clearance::build(map, walk) : Clearance{};
  // Tiles a character may stand on: walkable, with room for its radius at the centre.
  std::vector<Cell> open;
  for (std::int32_t y = 0; y < map.height(); ++y) {
    for (std::int32_t x = 0; x < map.width(); ++x) {
      const Vec2 centre = layout.tileCenter({x, y});
      const bool room = wide ? clearance.fits({x, y}, options.radius) : probeSegment(map, walk, centre, centre, radius).clear;
      if (map.passable({x, y}, walk) && room) open.push_back({x, y});
    }
  }
  if (open.size() < std::size_t(options.characters) + 1) {
    return Error{Status::InvalidArgument, "the map has fewer open tiles than characters"};
  }
  // With avoidance, the world's furniture counts as walls where bodies cannot be led round it
  // (tile centres within detourReach, or in the notch between two pieces too close to pass
  // between): a room whose only way out squeezes past a millstone by less than that is a place
  // of its own, and goals are drawn where a route exists.
  std::vector<bool> furniture(std::size_t(map.width()) * std::size_t(map.height()), false);
  if (options.avoidance) {
    const std::span<const Entity> entities = world.entities().all();
    auto mark = [&](Vec2 a, Vec2 b, float reach) {  // tiles whose centre is within reach of a-b
      const std::optional<Cell> low = map.tileAt(a.cwiseMin(b) - Vec2::Constant(reach));
      const std::optional<Cell> high = map.tileAt(a.cwiseMax(b) + Vec2::Constant(reach));
      const Cell from{low ? low->x : 0, low ? low->y : 0};
      const Cell to{high ? high->x : map.width() - 1, high ? high->y : map.height() - 1};
      for (std::int32_t y = std::max(0, from.y - 1); y <= std::min(map.height() - 1, to.y + 1); ++y) {
        for (std::int32_t x = std::max(0, from.x - 1); x <= std::min(map.width() - 1, to.x + 1); ++x) {
          const Vec2 c = layout.tileCenter({x, y});
          const Vec2 ab = b - a;
          const float t = ab.squaredNorm() > 0.0f ? std::clamp((c - a).dot(ab) / ab.squaredNorm(), 0.0f, 1.0f) : 0.0f;
          if ((a + t * ab - c).norm() < reach) furniture[std::size_t(map.index({x, y}))] = true;
        }
      }
    };
    for (std::size_t i = 0; i < entities.size(); ++i) {
      if (entities[i].flat()) continue;
      const float reachI = detourReach(DetourSettings{}, entities[i].radius, radius, tile);
      mark(entities[i].position, entities[i].position, reachI);
      for (std::size_t j = 0; j < i; ++j) {
        if (entities[j].flat()) continue;
        const float reachJ = detourReach(DetourSettings{}, entities[j].radius, radius, tile);
        if ((entities[i].position - entities[j].position).norm() - reachI - reachJ < 2.0f * radius + 0.06f * tile) {
          mark(entities[i].position, entities[j].position, std::min(reachI, reachJ));
        }
      }
    }
  }
  auto furnished = [&]() -> TileMap {
    TileMap copy = map;
    std::optional<TerrainId> wall;
    for (int t = 0; t < map.terrain().terrainCount() && !wall; ++t) {
      if (!map.terrain().passable(TerrainId{std::uint8_t(t)}, walk)) wall = TerrainId{std::uint8_t(t)};
    }
    std::vector<Cell> blocked;
    for (std::int32_t i = 0; i < map.tileCount(); ++i) {
      if (furniture[std::size_t(i)]) blocked.push_back(map.cellAt(i));
    }
    if (wall && !blocked.empty()) (void)copy.setTerrain(blocked, *wall);
    return copy;
  };
  const RegionMap regions = wide ? RegionMap{} : RegionMap::compute(furnished(), walk);
  const std::vector<std::int32_t> bodyRegions = wide ? bodyComponents(map, clearance, options.radius) : std::vector<std::int32_t>{};
  auto connected = [&](Cell a, Cell b) {
    if (!wide) return regions.connected(a, b);
    return bodyRegions[std::size_t(map.index(a))] == bodyRegions[std::size_t(map.index(b))];
  };
  if (options.avoidance) {
    // Goals and starts clear of the furniture (a goal inside it cannot be reached), and starts on
    // distinct tiles (bodies do not start in each other).
    std::erase_if(open, [&](Cell cell) { return furniture[std::size_t(map.index(cell))]; });
    if (open.size() < std::size_t(options.characters) + 1) {
      return Error{Status::InvalidArgument, "the map has fewer open tiles than characters"};
    }
  }
  std::mt19937 random(options.seed);
  auto anyTile = [&] { return open[std::uniform_int_distribution<std::size_t>(0, open.size() - 1)(random)]; };
  std::vector<Cell> starts;
  if (options.avoidance) {
    starts = open;
    std::shuffle(starts.begin(), starts.end(), random);
  }
  // A goal within the wander distance, in the same region (the nearest try after 32 misses).
  auto goalFrom = [&](Vec2 from) {
    const Cell here = *map.tileAt(from);
    Cell best = here;
    double bestMiss = 1e300;
    for (int attempt = 0; attempt < 32; ++attempt) {
      const Cell candidate = anyTile();
      if (!connected(here, candidate)) continue;
      const double distance = double((layout.tileCenter(candidate) - from).norm()) / double(tile);
      const double miss = distance < options.wanderMin ? options.wanderMin - distance
                          : distance > options.wanderMax ? distance - options.wanderMax
                                                         : 0.0;
      if (miss < bestMiss) {
        bestMiss = miss;
        best = candidate;
      }
      if (miss == 0.0) break;
    }
    return layout.tileCenter(best);
  };

  ReplanScheduler scheduler(world, PlannerSettings{}, options.scheduler);
  std::uint32_t firstId = 1;
  for (const Entity& entity : world.entities().all()) firstId = std::max(firstId, entity.id.value + 1);
  std::vector<EntityId> ids;
  std::vector<Vec2> currentGoal;
  for (int i = 0; i < options.characters; ++i) {
    const EntityId id{firstId + std::uint32_t(i)};
    const Vec2 start = layout.tileCenter(options.avoidance ? starts[std::size_t(i)] : anyTile());
    const std::uint8_t flags = options.avoidance ? std::uint8_t(kEntityMoving | kEntityAvoiding) : std::uint8_t(kEntityMoving);
    if (world.entities().add(Entity{id, start, radius, flags}) != Status::Ok) {
      return Error{Status::InvalidArgument, "cannot register a character as an entity"};
    }
    currentGoal.push_back(goalFrom(start));
    CharacterSpec spec{id, walk, radius, options.speed * tile, start, Goal::at(currentGoal.back()), options.avoid};
    if (scheduler.add(spec) != Status::Ok) return Error{Status::InvalidArgument, "cannot register a character"};
    ids.push_back(id);
  }

  SimulationReport report;
  if (options.trailEvery > 0.0) report.trails.resize(ids.size());
  struct Opening {
    double at;
    DoorId door;
  };
  std::vector<Opening> openings;
  Digest digest;
  const int frames = int(std::ceil(options.seconds * options.fps));
  const double step = double(options.speed * tile) / options.fps;
  double nextToggle = options.doorToggleEvery;
  double nextTrail = 0.0;
  std::vector<double> lastPlanned(ids.size(), -1.0);
  std::vector<double> blockedSince(ids.size(), -1.0);
  // A new random goal for character i.
  auto retarget = [&](std::size_t i) {
    currentGoal[i] = goalFrom(scheduler.position(ids[i]));
    scheduler.setGoal(ids[i], Goal::at(currentGoal[i]));
  };  // standing at the end of a blocked path
  double intervalSum = 0.0;
  std::int64_t intervals = 0;
  // Stuck spells, and how long each has been near its goal without getting there.
  std::vector<double> slowFor(ids.size(), 0.0), nearGoalFor(ids.size(), 0.0);
  std::vector<YieldKind> yielding(ids.size(), YieldKind::None);
  std::vector<std::size_t> byX(ids.size());
  const double dt = 1.0 / options.fps;
  // The avoidance loop's game: every character moves at once; arrivals get new goals; a goal
  // held by another character for a second counts as taken; doors open after a wait.
  auto moveAll = [&](double now) {
    const std::span<const MoveStep> steps = scheduler.move(dt);
    report.moveMicros.push_back(scheduler.moveMicros());
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const MoveStep& moved = steps[i];
      const std::size_t k = moved.character.value - firstId;
      world.entities().move(moved.character, moved.position);
      if (moved.yield != YieldKind::None && yielding[k] == YieldKind::None) {
        ++report.yields;
        if (options.trailEvery > 0.0) (moved.yield == YieldKind::Wait ? report.waited : report.madeWay).push_back(moved.position);
      }
      yielding[k] = moved.yield;
      const PathResult* path = scheduler.path(moved.character);
      // Stuck: slow, not at its goal, not waiting at a door.
      const double speed = double(moved.velocity.norm());
      const double toGoal = double((currentGoal[k] - moved.position).norm());
      const bool atGoal = toGoal <= double(2.0f * radius + 0.25f * tile);
      const bool atDoor = path != nullptr && path->status == Status::StoppedAtDoor &&
                          (path->stopPoint - moved.position).norm() <= std::max(tile, 4.0f * radius);
      // Waiting its turn at a narrow passage (or queued behind one who does) is waiting at a door.
      const bool waiting = moved.yield == YieldKind::Wait;
      if (speed < options.stuckSpeed * double(options.speed * tile) && !atGoal && !atDoor && !waiting) {
        slowFor[k] += dt;
        if (slowFor[k] > options.stuckAfter) {
          // The whole spell counts, once it has lasted stuckAfter.
          report.stuckSeconds += slowFor[k] - dt <= options.stuckAfter ? slowFor[k] : dt;
          if (slowFor[k] - dt <= options.stuckAfter) ++report.stuckSpells;
        }
      } else {
        slowFor[k] = 0.0;
      }
      nearGoalFor[k] = atGoal && speed < 0.5 * double(options.speed * tile) ? nearGoalFor[k] + dt : 0.0;
      if (moved.path.arrived && moved.path.ending == PathFollower::Ending::Goal) {
        ++report.goalsReached;
        nearGoalFor[k] = 0.0;
        retarget(k);
      } else if (nearGoalFor[k] > 1.0 && path != nullptr && path->status == Status::Ok) {
        ++report.goalsTaken;
        nearGoalFor[k] = 0.0;
        retarget(k);
      } else if (moved.path.arrived && moved.path.ending == PathFollower::Ending::DoorStop) {
        openings.push_back({now + options.doorOpenDelay, path->door});
      } else if (moved.path.arrived && moved.path.ending == PathFollower::Ending::Blocked && blockedSince[k] < 0.0) {
        blockedSince[k] = now;  // in front of furniture: only static entities end a path now
      }
      if (moved.path.travelled > 0.0) blockedSince[k] = -1.0;
      if (blockedSince[k] >= 0.0 && now - blockedSince[k] > options.giveUpAfter) {
        blockedSince[k] = -1.0;
        ++report.gaveUp;
        retarget(k);
      }
    }
    // Overlaps: a sweep over the characters sorted by x.
    for (std::size_t i = 0; i < ids.size(); ++i) byX[i] = i;
    std::sort(byX.begin(), byX.end(), [&](std::size_t a, std::size_t b) {
      const float xa = scheduler.position(ids[a]).x(), xb = scheduler.position(ids[b]).x();
      return xa != xb ? xa < xb : a < b;
    });
    for (std::size_t i = 0; i < byX.size(); ++i) {
      const Vec2 p = scheduler.position(ids[byX[i]]);
      for (std::size_t j = i + 1; j < byX.size(); ++j) {
        const Vec2 q = scheduler.position(ids[byX[j]]);
        if (q.x() - p.x() >= 2.0f * radius) break;
        const double depth = double(2.0f * radius - (q - p).norm());
        if (depth <= 0.0) continue;
        const double fraction = depth / double(2.0f * radius);
        ++report.overlapPairFrames;
        if (fraction > 0.05) ++report.overlapsOver5;
        report.worstOverlap = std::max(report.worstOverlap, fraction);
      }
    }
  };
  for (int frame = 0; frame < frames; ++frame) {
    const double now = double(frame) / options.fps;
    if (options.avoidance) moveAll(now);
    report.characterSeconds += double(ids.size()) * dt;
    // The game: characters walk; arrivals get new goals; doors open after a wait.
    for (std::size_t i = 0; i < ids.size() && !options.avoidance; ++i) {
      const PathFollower::Step moved = scheduler.follow(ids[i], step);
      if (scheduler.path(ids[i]) == nullptr) continue;
      world.entities().move(ids[i], scheduler.position(ids[i]));
      // Someone else in the way for too long (two characters facing each other in a narrow
      // passage): this one gives up and wanders elsewhere, as a game's crowd logic would.
      if (moved.travelled > 0.0) blockedSince[i] = -1.0;
      if (blockedSince[i] >= 0.0 && now - blockedSince[i] > options.giveUpAfter) {
        blockedSince[i] = -1.0;
        ++report.gaveUp;
        retarget(i);
      }
      if (!moved.arrived) continue;
      if (moved.ending == PathFollower::Ending::Blocked && blockedSince[i] < 0.0) blockedSince[i] = now;
      if (moved.ending == PathFollower::Ending::Goal) {
        ++report.goalsReached;
        retarget(i);
      } else if (moved.ending == PathFollower::Ending::DoorStop) {
        openings.push_back({now + options.doorOpenDelay, scheduler.path(ids[i])->door});
      }
    }
    for (std::size_t k = 0; k < openings.size();) {
      if (openings[k].at <= now) {
        const Door* door = world.door(openings[k].door);
        if (door != nullptr && door->state != DoorState::Open) {
          world.setDoorState(door->id, DoorState::Open);
          ++report.doorsOpened;
        }
        openings[k] = openings.back();
        openings.pop_back();
      } else {
        ++k;
      }
    }
    if (options.doorToggleEvery > 0.0 && now >= nextToggle && !world.doors().empty()) {
      nextToggle += options.doorToggleEvery;
      const Door& door = world.doors()[std::uniform_int_distribution<std::size_t>(0, world.doors().size() - 1)(random)];
      world.setDoorState(door.id, door.state == DoorState::Open ? DoorState::Closed : DoorState::Open);
      ++report.doorToggles;
    }
    if (options.trailEvery > 0.0 && now >= nextTrail) {
      nextTrail += options.trailEvery;
      for (std::size_t i = 0; i < ids.size(); ++i) report.trails[i].push_back(scheduler.position(ids[i]));
    }

    scheduler.update(now, options.budget);

    const SchedulerStats& stats = scheduler.stats();
    report.frameMicros.push_back(stats.micros);
    report.plans += stats.plans;
    report.fullPlans += stats.fullPlans;
    report.kept += stats.kept;
    report.lateTurns += stats.lateTurns;
    report.longestLate = std::max(report.longestLate, stats.longestWait);
    report.fullMicros += stats.fullMicros;
    report.alongMicros += stats.alongMicros;
    report.noticeMicros += stats.noticeMicros;
    for (const ReplanEvent& event : scheduler.events()) {
      digest.add(event.character.value);
      digest.add(event.kind);
      digest.add(event.reason);
      digest.add(event.status);
      switch (event.kind) {
        case ReplanEventKind::NewPath: ++report.newPaths; break;
        case ReplanEventKind::StoppedAtDoor: ++report.doorStops; break;
        case ReplanEventKind::BlockedByEntity: ++report.blocked; break;
        case ReplanEventKind::GoalUnreachable:
          ++report.unreachable;
          retarget(event.character.value - firstId);
          break;
      }
    }
    for (std::size_t i = 0; i < ids.size(); ++i) {
      const ReplanScheduler::CharacterInfo info = scheduler.info(ids[i]);
      if (info.lastPlanned != lastPlanned[i]) {
        if (lastPlanned[i] >= 0.0) {
          const double gap = info.lastPlanned - lastPlanned[i];
          intervalSum += gap;
          ++intervals;
          report.longestInterval = std::max(report.longestInterval, gap);
        }
        lastPlanned[i] = info.lastPlanned;
      }
    }
  }
  for (const EntityId id : ids) {
    const Vec2 p = scheduler.position(id);
    digest.add(p.x());
    digest.add(p.y());
  }
  report.digest = digest.value;
  report.meanInterval = intervals > 0 ? intervalSum / double(intervals) : 0.0;
  return report;
}

// Tiles the horde's field reaches past its farthest monster (steps of plain ground).
constexpr std::int32_t kHordeMargin = 4;

Result<HordeReport> runHorde(const TileMap& map, const SimulationOptions& options) {
  using Clock = std::chrono::steady_clock;
  auto micros = [](Clock::time_point begin) { return std::chrono::duration<double, std::micro>(Clock::now() - begin).count(); };
  const Layout& layout = map.layout();
  const float tile = layout.tileSize();
  const MobilityId walk = TerrainTable::kWalk;
  if (options.characters < 0 || !(options.fps > 0.0) || !(options.seconds >= 0.0) || !(options.speed > 0.0f)) {
    return Error{Status::InvalidArgument, "simulation options out of range"};
  }
  auto costs = CostField::build(map, walk);
  if (!costs) return costs.error();
  std::vector<Cell> open;
  for (std::int32_t i = 0; i < map.tileCount(); ++i) {
    if (map.passable(map.cellAt(i), walk)) open.push_back(map.cellAt(i));
  }
  if (open.size() < 2) return Error{Status::InvalidArgument, "the map has too few open tiles"};
  std::mt19937 random(options.seed);
  auto anyTile = [&] { return open[std::uniform_int_distribution<std::size_t>(0, open.size() - 1)(random)]; };
  CrowdField field(*costs);
  Cell target = anyTile();
  HordeReport report;
  auto begin = Clock::now();
  field.setGoals(std::vector<Cell>{target});
  if (options.hordeField == SimulationOptions::HordeField::tracked) (void)field.startTracking();
  report.buildMicros = micros(begin);
  std::vector<Vec2> monsters;
  for (int i = 0; i < options.characters; ++i) monsters.push_back(layout.tileCenter(anyTile()));
  // The field covers the monsters (and a margin), not the map: told their tiles every frame.
  std::vector<Cell> tiles;
  const bool tracked = options.hordeField == SimulationOptions::HordeField::tracked;
  auto followMonsters = [&] {
    if (tracked) return;
    tiles.clear();
    for (const Vec2& monster : monsters) tiles.push_back(layout.tileAt(monster));
    field.setFollowers(tiles, kHordeMargin);
  };
  followMonsters();
  if (options.trailEvery > 0.0) report.trails.resize(monsters.size() + 1);
  Digest digest;
  struct Wall {
    Cell cell;
    std::uint8_t cost;
    double until;
  };
  std::vector<Wall> walls;
  const int frames = int(std::ceil(options.seconds * options.fps));
  const double stepEvery = 1.0 / double(options.speed);  // the target's tile steps
  const double monsterStep = double(options.speed * tile) / options.fps;
  double nextStep = stepEvery, nextWall = options.doorToggleEvery, nextTrail = 0.0;
  for (int frame = 0; frame < frames; ++frame) {
    const double now = double(frame) / options.fps;
    begin = Clock::now();
    // The target wanders a tile at a time.
    if (now >= nextStep) {
      nextStep += stepEvery;
      std::vector<Cell> options;
      for (const NeighbourStep& step : layout.moves(target)) {
        const Cell next{target.x + step.dx, target.y + step.dy};
        if (map.canStep(target, step, walk) && field.costs().at(next) != CostField::kImpassable) options.push_back(next);
      }
      if (!options.empty()) {
        const Cell next = options[std::uniform_int_distribution<std::size_t>(0, options.size() - 1)(random)];
        const auto stepBegin = Clock::now();
        if (tracked) {
          field.trackGoal(next);
        } else {
          field.moveGoal(target, next);
        }
        report.goalStepMicros.push_back(micros(stepBegin));
        target = next;
        ++report.goalSteps;
      }
    }
    // Walls appear for a few seconds and go again.
    if (options.doorToggleEvery > 0.0 && now >= nextWall) {
      nextWall += options.doorToggleEvery;
      const Cell cell = anyTile();
      if (cell != target && field.costs().at(cell) != CostField::kImpassable) {
        walls.push_back({cell, field.costs().at(cell), now + 3.0 * options.doorToggleEvery});
        field.setCost(cell, CostField::kImpassable);
        ++report.wallsRaised;
      }
    }
    for (std::size_t k = 0; k < walls.size();) {
      if (walls[k].until <= now) {
        field.setCost(walls[k].cell, walls[k].cost);
        ++report.wallsCleared;
        walls[k] = walls.back();
        walls.pop_back();
      } else {
        ++k;
      }
    }
    followMonsters();
    if (tracked) {
      field.refreshTracking(options.fieldMicros > 0.0 ? std::numeric_limits<std::int64_t>::max() : options.fieldTiles,
                            options.fieldMicros);
    }
    report.fieldMicros.push_back(micros(begin));
    // Every monster takes a step along the field.
    begin = Clock::now();
    const Vec2 targetPoint = layout.tileCenter(target);
    for (Vec2& monster : monsters) {
      monster = FieldFollower::advance(field, monster, monsterStep).position;
      if ((monster - targetPoint).norm() <= tile) ++report.caught;
    }
    report.moveMicros.push_back(micros(begin));
    if (options.trailEvery > 0.0 && now >= nextTrail) {
      nextTrail += options.trailEvery;
      for (std::size_t i = 0; i < monsters.size(); ++i) report.trails[i].push_back(monsters[i]);
      report.trails.back().push_back(targetPoint);
    }
    digest.add(target.x);
    digest.add(target.y);
  }
  for (const Vec2& monster : monsters) {
    digest.add(monster.x());
    digest.add(monster.y());
  }
  digest.add(field.digest());
  report.refreshes = std::int64_t(field.refreshesLanded());
  report.digest = digest.value;
  // What the whole map's field costs, warm, for comparison with the goal steps.
  CrowdField whole = field;
  begin = Clock::now();
  if (tracked) {
    whole.rebuild();
  } else {
    whole.clearFollowers();
  }
  report.fullRebuildMicros = micros(begin);
  return report;
}

}  // namespace rpgnav::sample
