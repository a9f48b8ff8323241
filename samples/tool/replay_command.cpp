// SPDX-License-Identifier: MIT
// rpgnav replay MAP SCRIPT [--json] : world events applied in order to one map (tile and rectangle
// edits, terrain costs, doors opened, closed, locked, added and taken away) and paths planned
// between them on shared navigation data kept up to date in place — a game's session, or the bug
// report that became a test.
#include "commands.hpp"
#include "options.hpp"
#include "path_json.hpp"

#include "rpgnav/io/rpgmap.hpp"
#include "rpgnav/nav/nav_data.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace rpgnav::tool {
namespace {

constexpr const char* kUsage =
    "usage: rpgnav replay MAP SCRIPT|- [--json] [--verify]\n"
    "  SCRIPT: one event per line, applied in order (a line starting with '#' is a comment):\n"
    "    tile X Y TERRAIN                      one tile's terrain (tile coordinates)\n"
    "    rect X0 Y0 X1 Y1 TERRAIN              every tile of a rectangle, corners included\n"
    "    cost TERRAIN MOBILITY COST|none       a terrain's cost for a mobility (none: impassable)\n"
    "    door NAME open|closed|locked|removed  a door's state, or the door taken away\n"
    "    door NAME at AX AY BX BY [STATE]      a new door on the edge between two tiles (closed)\n"
    "    path SX SY GX GY [radius R] [mobility M] [costs TERRAIN=COST,...]\n"
    "                                          a plan (world coordinates); prints the plan as\n"
    "                                          'rpgnav path --json' does, with edit_us (applying the\n"
    "                                          events since the last path), prepare_us (data built\n"
    "                                          for a mobility, size or cost list met for the first\n"
    "                                          time) and plan_us; costs: the query's own terrain\n"
    "                                          costs (QueryFilter::costs; none: forbidden)\n"
    "  TERRAIN: a legend symbol or a terrain name (Moving AI maps: @ . T S W)\n"
    "  --verify: plans each path again on navigation data built afresh for the world as it is then;\n"
    "            exit 1 at the first plan that differs in any bit\n";

using Clock = std::chrono::steady_clock;

double microsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

// The state of the replay: the map, its world and navigation data, one planner on that data.
class Replay {
 public:
  Replay(MapDocument& document, bool asJson, bool verify)
      : m_map(document.map), m_entities(document.entities), m_dangerLayers(document.dangerLayers),
        m_dangerFactor(document.dangerFactor), m_settings(document.settings), m_world(document.map), m_data(m_world),
        m_asJson(asJson), m_verify(verify) {
    for (const EntitySpec& entity : document.entities) m_names.push_back(entity.name);
  }

  Status addFeatures(const MapDocument& document) {
    return m_world.addFeatures(document.doors, document.entities, m_dangerLayers, m_dangerFactor, m_settings);
  }

  // Runs one line; false with `error` set when it is malformed or the library refuses it.
  bool run(const std::string& line, std::string& error) {
    std::istringstream fields(line);
    std::string verb;
    if (!(fields >> verb)) return true;
    if (verb == "tile") return tile(fields, error);
    if (verb == "rect") return rect(fields, error);
    if (verb == "cost") return cost(fields, error);
    if (verb == "door") return door(fields, error);
    if (verb == "path") return path(fields, error);
    error = "expected tile, rect, cost, door or path, found '" + verb + "'";
    return false;
  }

 private:
  // Reads the line's remaining words; false when there are more.
  static bool atEnd(std::istringstream& fields) {
    std::string extra;
    return !(fields >> extra);
  }

  std::optional<TerrainId> terrain(const std::string& word) const {
    const TerrainTable& table = m_map.terrain();
    if (word.size() == 1) {
      if (auto bySymbol = table.findTerrainBySymbol(word[0])) return bySymbol;
    }
    return table.findTerrain(word);
  }

  bool terrainOrError(const std::string& word, TerrainId& out, std::string& error) const {
    const auto found = terrain(word);
    if (!found) {
      error = "unknown terrain '" + word + "' (a legend symbol or a terrain name)";
      return false;
    }
    out = *found;
    return true;
  }

  // Times an edit of the map or the world: it counts towards the next path's edit_us.
  template <class Edit>
  Status edit(Edit&& apply) {
    const Clock::time_point start = Clock::now();
    const Status status = apply();
    m_editMicros += microsSince(start);
    return status;
  }

  bool tile(std::istringstream& fields, std::string& error) {
    std::int32_t x = 0, y = 0;
    std::string name;
    TerrainId id;
    if (!(fields >> x >> y >> name) || !atEnd(fields)) return error = "expected 'tile X Y TERRAIN'", false;
    if (!terrainOrError(name, id, error)) return false;
    const Status status = edit([&] { return m_map.setTerrain(Cell{x, y}, id); });
    if (status == Status::OutOfBounds) return error = "tile " + std::to_string(x) + "," + std::to_string(y) + " lies off the map", false;
    return status == Status::Ok || (error = "the map refused the edit", false);
  }

  bool rect(std::istringstream& fields, std::string& error) {
    std::int32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    std::string name;
    TerrainId id;
    if (!(fields >> x0 >> y0 >> x1 >> y1 >> name) || !atEnd(fields)) {
      return error = "expected 'rect X0 Y0 X1 Y1 TERRAIN'", false;
    }
    if (!terrainOrError(name, id, error)) return false;
    const Cell low{std::min(x0, x1), std::min(y0, y1)}, high{std::max(x0, x1), std::max(y0, y1)};
    const Status status = edit([&] { return m_map.setTerrain(low, high, id); });
    if (status == Status::OutOfBounds) return error = "the rectangle reaches off the map", false;
    return status == Status::Ok || (error = "the map refused the edit", false);
  }

  bool cost(std::istringstream& fields, std::string& error) {
    std::string terrainName, mobilityName, costText;
    TerrainId id;
    if (!(fields >> terrainName >> mobilityName >> costText) || !atEnd(fields)) {
      return error = "expected 'cost TERRAIN MOBILITY COST|none'", false;
    }
    if (!terrainOrError(terrainName, id, error)) return false;
    const auto mobility = m_map.terrain().findMobility(mobilityName);
    if (!mobility) return error = "unknown mobility '" + mobilityName + "'", false;
    float value = 0.0f;
    if (!costValue(costText, value)) return error = "expected a cost above 0 or 'none', found '" + costText + "'", false;
    const Status status = edit([&] { return m_map.setTerrainCost(id, *mobility, value); });
    return status == Status::Ok || (error = "the map refused the cost " + costText, false);
  }

  bool door(std::istringstream& fields, std::string& error) {
    std::string name, what;
    if (!(fields >> name >> what)) return error = "expected 'door NAME open|closed|locked|removed' or 'door NAME at AX AY BX BY'", false;
    if (what == "at") {
      DoorSpec spec;
      spec.name = name;
      std::string state = "closed";
      if (!(fields >> spec.a.x >> spec.a.y >> spec.b.x >> spec.b.y)) return error = "expected 'door NAME at AX AY BX BY [STATE]'", false;
      fields >> state;
      if (!atEnd(fields) || !doorState(state, spec.state)) return error = "expected 'door NAME at AX AY BX BY [open|closed|locked]'", false;
      if (const Door* same = m_world.findDoor(name); same != nullptr && !same->removed) {
        return error = "a door named '" + name + "' exists already", false;
      }
      std::string message;
      edit([&] {
        const Result<DoorId> added = m_world.addDoor(spec);
        message = added.message();
        return added.status();
      });
      return message.empty() || (error = "no door added: " + message, false);
    }
    if (!atEnd(fields)) return error = "expected 'door NAME open|closed|locked|removed'", false;
    const Door* found = m_world.findDoor(name);
    if (found == nullptr || found->removed) return error = "no door named '" + name + "'", false;
    const DoorId id = found->id;
    if (what == "removed") {
      edit([&] { return m_world.removeDoor(id); });
      return true;
    }
    DoorState state;
    if (!doorState(what, state)) return error = "expected open, closed, locked or removed, found '" + what + "'", false;
    edit([&] { return m_world.setDoorState(id, state); });
    return true;
  }

  static bool doorState(const std::string& word, DoorState& out) {
    for (DoorState state : {DoorState::Open, DoorState::Closed, DoorState::Locked}) {
      if (word == toString(state)) return out = state, true;
    }
    return false;
  }

  // A cost above 0, or "none": impassable.
  static bool costValue(const std::string& text, float& out) {
    if (text == "none") return out = TerrainTable::kImpassable, true;
    char* end = nullptr;
    out = std::strtof(text.c_str(), &end);
    return !text.empty() && *end == '\0' && std::isfinite(out) && out > 0.0f;
  }

  // "TERRAIN=COST,..." into m_costs (COST a number, or none: forbidden).
  bool costList(const std::string& text, std::string& error) {
    m_costs.clear();
    if (!text.empty() && text.back() == ',') return error = "expected TERRAIN=COST after the last ',' of the cost list", false;
    std::istringstream items(text);
    for (std::string item; std::getline(items, item, ',');) {
      const std::size_t equals = item.find('=');
      TerrainId id;
      if (equals == std::string::npos) return error = "expected TERRAIN=COST in the cost list, found '" + item + "'", false;
      if (!terrainOrError(item.substr(0, equals), id, error)) return false;
      const std::string value = item.substr(equals + 1);
      float cost = 0.0f;
      if (!costValue(value, cost)) return error = "expected a cost above 0 or 'none' in the cost list, found '" + value + "'", false;
      m_costs.push_back({id, cost});
    }
    return !m_costs.empty() || (error = "expected TERRAIN=COST,... after 'costs'", false);
  }

  bool path(std::istringstream& fields, std::string& error) {
    float sx = 0, sy = 0, gx = 0, gy = 0, radius = 0;
    std::string mobilityName = "walk", costText;
    if (!(fields >> sx >> sy >> gx >> gy)) return error = "expected 'path SX SY GX GY [radius R] [mobility M] [costs LIST]'", false;
    m_costs.clear();
    for (std::string option; fields >> option;) {
      if (option == "radius" && (fields >> radius)) continue;
      if (option == "mobility" && (fields >> mobilityName)) continue;
      if (option == "costs" && (fields >> costText)) {
        if (!costList(costText, error)) return false;
        continue;
      }
      return error = "expected 'radius R', 'mobility M' or 'costs TERRAIN=COST,...' after the path's points", false;
    }
    const auto mobility = m_map.terrain().findMobility(mobilityName);
    if (!mobility) return error = "unknown mobility '" + mobilityName + "'", false;

    // The edits since the last path reach the shared data here, in place.
    Clock::time_point start = Clock::now();
    const NavUpdate update = m_data.update();
    m_editMicros += microsSince(start);
    if (update.status != Status::Ok) return error = "the navigation data refused the edits: " + update.reason, false;
    // What the plan reads for this mobility, radius and cost list is built (once) when it is not
    // ready, as a game does between frames.
    start = Clock::now();
    const bool fresh = !m_data.ready(*mobility, radius, m_costs);
    // A radius out of range fails here and in the plan below, which says why in its result; the
    // data refusing a valid radius is the cost list's doing (a cost the search cannot take).
    const bool radiusValid = std::isfinite(radius) && radius >= 0.0f &&
                             radius <= kMaxRadiusTiles * m_map.layout().tileSize();
    if (fresh && m_data.prepare(*mobility, radius, m_costs) != Status::Ok && radiusValid) {
      return error = "the navigation data refused the cost list (a cost outside the search's range?)", false;
    }
    const double prepareMicros = fresh ? microsSince(start) : 0.0;

    m_filter.costs = m_costs;
    PathRequest request{Vec2(sx, sy), Vec2(gx, gy), *mobility, radius};
    if (!m_costs.empty()) request.filter = &m_filter;
    start = Clock::now();
    m_planner.plan(request, m_result);
    const double planMicros = microsSince(start);
    if (m_verify && !verify(request, error)) return false;
    if (m_asJson) {
      std::string out = pathJsonFields(m_result, m_planner.diagnostics(), m_world, m_names);
      out += ",\"edit_us\":" + jsonNumber(m_editMicros) + ",\"prepare_us\":" + jsonNumber(prepareMicros) +
             ",\"plan_us\":" + jsonNumber(planMicros) + "}";
      std::puts(out.c_str());
    } else {
      std::printf("path %g,%g -> %g,%g: %s%s%s, length %.4f, cost %.4f, %zu control points; edits %.1f us, plan %.1f us\n",
                  double(sx), double(sy), double(gx), double(gy), std::string(toString(m_result.status)).c_str(),
                  m_result.reason.empty() ? "" : ": ", m_result.reason.c_str(), m_result.length, m_result.cost,
                  m_result.controlPoints.size(), m_editMicros, planMicros);
    }
    m_editMicros = 0.0;
    return true;
  }

  // The same plan on data built afresh for the world as it is now (doors with the same ids and
  // states, entities with the same ids): false, with the difference, unless the two are equal.
  bool verify(const PathRequest& request, std::string& error) const {
    World fresh(m_map);
    for (const Door& door : m_world.doors()) {
      const Result<DoorId> added = fresh.addDoor(DoorSpec{door.name, door.a, door.b, door.state, door.key});
      if (!added || (door.removed && fresh.removeDoor(*added) != Status::Ok)) {
        return error = "--verify: cannot rebuild door '" + door.name + "'", false;
      }
    }
    if (fresh.addFeatures({}, m_entities, m_dangerLayers, m_dangerFactor, m_settings) != Status::Ok) {
      return error = "--verify: cannot rebuild the entities and the danger", false;
    }
    Planner planner(fresh, plannerSettings());
    PathResult expected;
    planner.plan(request, expected);
    const std::string a = pathJsonFields(m_result, m_planner.diagnostics(), m_world, m_names, false);
    const std::string b = pathJsonFields(expected, planner.diagnostics(), fresh, m_names, false);
    if (a == b) return true;
    std::size_t at = 0;
    while (at < a.size() && at < b.size() && a[at] == b[at]) ++at;
    const std::size_t from = at < 40 ? 0 : at - 40;
    error = "--verify: the plan on data updated in place differs from the plan on fresh data:\n  updated: ..." +
            a.substr(from, 120) + "\n  fresh:   ..." + b.substr(from, 120);
    return false;
  }

  static PlannerSettings plannerSettings() {
    PlannerSettings settings;
    settings.recordStages = true;  // the stage costs in the JSON
    return settings;
  }

  TileMap& m_map;
  const std::vector<EntitySpec>& m_entities;
  const std::vector<DangerLayerSpec>& m_dangerLayers;
  std::uint8_t m_dangerFactor;
  DesignSettings m_settings;
  World m_world;
  NavData m_data;
  Planner m_planner{m_data, plannerSettings()};
  PathResult m_result;
  std::vector<TerrainCost> m_costs;  // the current path line's cost list
  QueryFilter m_filter;              // its costs, when it has some
  EntityNames m_names;
  bool m_asJson;
  bool m_verify;
  double m_editMicros = 0.0;
};

}  // namespace

int replayCommand(Arguments args) {
  std::string mapPath, scriptPath;
  bool asJson = false, verify = false;
  CommandLine commandLine("rpgnav replay", kUsage);
  commandLine.positional("MAP", mapPath);
  commandLine.positional("SCRIPT", scriptPath);  // "-": standard input
  commandLine.flag("--json", asJson);
  commandLine.flag("--verify", verify);
  if (const auto exit = commandLine.parse(args)) return *exit;
  auto document = readMapFile(mapPath);
  if (!document) {
    std::fprintf(stderr, "rpgnav replay: %s\n", document.error().message.c_str());
    return 1;
  }
  std::ifstream file;
  std::istream* in = &std::cin;
  if (scriptPath != "-") {
    file.open(scriptPath);
    if (!file) return std::fprintf(stderr, "rpgnav replay: cannot open %s\n", scriptPath.c_str()), 1;
    in = &file;
  }
  Replay replay(*document, asJson, verify);
  if (replay.addFeatures(*document) != Status::Ok) {
    return std::fprintf(stderr, "rpgnav replay: the map's doors or entities are invalid\n"), 1;
  }
  // Stops at the first bad line: what follows it was written for a world it did not make.
  std::string line, error;
  for (int number = 1; std::getline(*in, line); ++number) {
    // Comments are whole lines ('#' is also a terrain symbol, the rpgmap walls').
    if (const std::size_t first = line.find_first_not_of(" \t"); first != std::string::npos && line[first] == '#') continue;
    if (!replay.run(line, error)) {
      std::fprintf(stderr, "rpgnav replay: %s:%d: %s\n", scriptPath.c_str(), number, error.c_str());
      return 1;
    }
  }
  return 0;
}

}  // namespace rpgnav::tool
