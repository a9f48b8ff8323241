// SPDX-License-Identifier: MIT
#include "debug/svg_impl.hpp"

#include "debug/svg_colours.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <utility>

namespace rpgnav {
namespace {

using detail::terrainColour;
using detail::toRgb;
using Kind = SvgLegendEntry::Kind;

std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", value);
  std::string text = buffer;
  while (!text.empty() && text.back() == '0') text.pop_back();
  if (!text.empty() && text.back() == '.') text.pop_back();
  return text == "-0" ? "0" : text;
}

// Labels come from callers and map files: keep them from breaking the document.
std::string escaped(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string points(std::span<const Vec2> line) {
  std::string out;
  for (std::size_t i = 0; i < line.size(); ++i) out += (i ? " " : "") + number(line[i].x()) + "," + number(line[i].y());
  return out;
}

std::string polygonOf(const TilePolygon& polygon) {
  return points(std::span<const Vec2>(polygon.corners.data(), std::size_t(polygon.count)));
}


constexpr std::string_view kOutline = "#202020";  // the dark edge of start and goal markers
// The opacity of danger 255 over a crowd field's distance colours: strong, yet the colour under it shows.
constexpr double kDangerOpacity = 0.75;


// Legend entries name their kind in the document, for readers and checks.
const char* kindName(Kind kind) {
  switch (kind) {
    case Kind::Terrain: return "terrain";
    case Kind::Tiles: return "tiles";
    case Kind::Line: return "line";
    case Kind::Route: return "route";
    case Kind::Trail: return "trail";
    case Kind::Door: return "door";
    case Kind::Entity: return "entity";
    case Kind::Ring: return "ring";
    case Kind::Start: return "start";
    case Kind::Goal: return "goal";
    case Kind::Gradient: return "gradient";
    case Kind::Arrow: return "arrow";
    case Kind::Ramp: return "ramp";
  }
  return "mark";
}

// Glyphs shared by the picture and its legend, so the legend shows exactly what the map shows.
std::string startGlyph(Vec2 at, double radius, double outline, std::string_view colour) {
  return "<circle class=\"start\" cx=\"" + number(at.x()) + "\" cy=\"" + number(at.y()) + "\" r=\"" + number(radius) +
         "\" fill=\"" + std::string(colour) + "\" stroke=\"" + std::string(kOutline) +
         "\" stroke-width=\"" + number(outline) + "\"/>\n";
}

std::string goalGlyph(Vec2 at, double radius, double width, std::string_view goalColour) {
  const std::string cx = number(at.x()), cy = number(at.y()), r = number(radius), colour(goalColour);
  // A dark ring under the coloured one keeps it visible on light and dark ground alike.
  return "<g class=\"goal\"><circle cx=\"" + cx + "\" cy=\"" + cy + "\" r=\"" + r + "\" fill=\"" + colour +
         "\" fill-opacity=\"0.2\" stroke=\"" + std::string(kOutline) + "\" stroke-width=\"" + number(width * 1.8) +
         "\"/><circle cx=\"" + cx + "\" cy=\"" + cy + "\" r=\"" + r + "\" fill=\"none\" stroke=\"" + colour +
         "\" stroke-width=\"" + number(width) + "\"/><circle cx=\"" + cx + "\" cy=\"" + cy + "\" r=\"" +
         number(std::max(width, radius * 0.25)) + "\" fill=\"" + colour + "\" stroke=\"" + std::string(kOutline) +
         "\" stroke-width=\"" + number(width * 0.4) + "\"/></g>\n";
}

std::string ringGlyph(Vec2 at, double radius, double width, std::string_view colour) {
  return "<circle cx=\"" + number(at.x()) + "\" cy=\"" + number(at.y()) + "\" r=\"" + number(radius) +
         "\" fill=\"none\" stroke=\"" + std::string(colour) + "\" stroke-width=\"" + number(width) + "\"/>\n";
}

std::string entityGlyph(Vec2 at, double radius, double width, std::string_view colour, bool flat) {
  return "<circle cx=\"" + number(at.x()) + "\" cy=\"" + number(at.y()) + "\" r=\"" + number(radius) + "\" fill=\"" +
         (flat ? "none" : std::string(colour)) + "\" fill-opacity=\"0.5\" stroke=\"" + std::string(colour) +
         "\" stroke-width=\"" + number(width) + "\"" +
         (flat ? " stroke-dasharray=\"" + number(width * 3.75) + "," + number(width * 2.5) + "\"" : "") + "/>\n";
}

std::string doorGlyph(Vec2 a, Vec2 b, double width, std::string_view colour) {
  return "<line x1=\"" + number(a.x()) + "\" y1=\"" + number(a.y()) + "\" x2=\"" + number(b.x()) + "\" y2=\"" +
         number(b.y()) + "\" stroke=\"" + std::string(colour) + "\" stroke-width=\"" + number(width) +
         "\" stroke-linecap=\"round\"/>\n";
}

std::string arrowGlyph(Vec2 from, Vec2 tip, double width, std::string_view colour) {
  const Vec2 along = tip - from;
  const float length = along.norm();
  if (length <= 0.0f) return {};
  const Vec2 flow = along / length, side(-flow.y(), flow.x());
  const float head = float(width) * 4.0f;
  const Vec2 left = tip - flow * head + side * (head * 0.5f), right = tip - flow * head - side * (head * 0.5f);
  return "<line x1=\"" + number(from.x()) + "\" y1=\"" + number(from.y()) + "\" x2=\"" + number(tip.x()) + "\" y2=\"" +
         number(tip.y()) + "\" stroke=\"" + std::string(colour) + "\" stroke-width=\"" + number(width) + "\"/>\n" +
         "<polygon points=\"" + number(tip.x()) + "," + number(tip.y()) + " " + number(left.x()) + "," +
         number(left.y()) + " " + number(right.x()) + "," + number(right.y()) + "\" fill=\"" + std::string(colour) +
         "\"/>\n";
}

// A line of a class over an optional band (the body's width) of the same colour.
std::string bandedLine(std::span<const Vec2> line, std::string_view cls, std::string_view colour, double width,
                       double band, double bandOpacity) {
  std::string out;
  const std::string common = "fill=\"none\" stroke=\"" + std::string(colour) +
                             "\" stroke-linejoin=\"round\" stroke-linecap=\"round\" points=\"" + points(line) + "\"/>\n";
  if (band > 0.0) {
    out += "<polyline class=\"" + std::string(cls) + "-band\" stroke-opacity=\"" + number(bandOpacity) +
           "\" stroke-width=\"" + number(band) + "\" " + common;
  }
  out += "<polyline class=\"" + std::string(cls) + "\" stroke-width=\"" + number(width) + "\" " + common;
  return out;
}

// Douglas-Peucker: the points of `line` a polyline within `tolerance` of it needs (trails are
// sampled densely so that no chord cuts a corner; most of their points lie on straight runs).
std::vector<Vec2> simplified(const std::vector<Vec2>& line, float tolerance) {
  if (line.size() <= 2) return line;
  std::vector<bool> keep(line.size(), false);
  keep.front() = keep.back() = true;
  std::vector<std::pair<std::size_t, std::size_t>> pending{{0, line.size() - 1}};
  while (!pending.empty()) {
    const auto [first, last] = pending.back();
    pending.pop_back();
    const Vec2 a = line[first], ab = line[last] - a;
    const float length = ab.norm();
    float farthest = -1.0f;
    std::size_t at = first;
    for (std::size_t i = first + 1; i < last; ++i) {
      const Vec2 ap = line[i] - a;
      const float distance = length > 0.0f ? std::abs(ab.x() * ap.y() - ab.y() * ap.x()) / length : ap.norm();
      if (distance > farthest) farthest = distance, at = i;
    }
    if (farthest > tolerance) {
      keep[at] = true;
      pending.push_back({first, at});
      pending.push_back({at, last});
    }
  }
  std::vector<Vec2> out;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (keep[i]) out.push_back(line[i]);
  }
  return out;
}

// A label that says what a mark shows of the body (radius in tiles); none for no label.
std::string bodyLabel(std::string_view label, std::string_view what, float radius, float tile) {
  if (label.empty() || radius <= 0.0f) return std::string(label);
  return std::string(label) + " (" + std::string(what) + ", radius " + number(radius / tile) + ")";
}

}  // namespace


std::string SvgPicture::Impl::mark(SvgLegendEntry wanted) {
  if (wanted.label.empty()) {
    const auto replaced = m_replaced.find(wanted.colour);
    return replaced != m_replaced.end() ? replaced->second : wanted.colour;
  }
  for (const SvgLegendEntry& entry : m_legend) {
    if (entry.kind == wanted.kind && entry.label == wanted.label) return entry.colour;
  }
  const std::string drawn = distinctColour(wanted.colour, wanted.kind);
  if (drawn != wanted.colour) m_replaced.emplace(wanted.colour, drawn);
  wanted.colour = drawn;
  m_legend.push_back(std::move(wanted));
  return drawn;
}

float SvgPicture::Impl::markerRadius(float radius) const {
  // A body is drawn at its size unless that would hide it; a point has none, so it gets a glyph
  // large enough to find.
  return radius > 0.0f ? std::max(radius, 2.5f / m_scale) : 4.0f / m_scale;
}

SvgPicture::Impl::Impl(const TileMap& map, MobilityId mobility, float pixelsPerTile)
    : m_map(map), m_scale(pixelsPerTile / map.layout().tileSize()) {
  const Layout& layout = map.layout();
  const TerrainTable& terrain = map.terrain();
  // The legend names each terrain colour present: terrains that ask for the same colour share an
  // entry; one too close to an earlier entry takes a tone of its own.
  std::vector<bool> present(std::size_t(terrain.terrainCount()), false);
  for (const TerrainId id : map.tiles()) present[id.value] = true;
  std::vector<std::string> colours(present.size());
  std::vector<std::string> wanted;  // per legend entry so far
  std::vector<std::vector<TerrainId>> members;
  for (std::uint32_t value = 0; value < present.size(); ++value) {
    if (!present[value]) continue;
    const TerrainId id{std::uint8_t(value)};
    const std::string own = terrainColour(terrain, id, mobility);
    const auto same = std::find(wanted.begin(), wanted.end(), own);
    if (same != wanted.end()) {
      members[std::size_t(same - wanted.begin())].push_back(id);
      colours[value] = m_legend[std::size_t(same - wanted.begin())].colour;
      continue;
    }
    colours[value] = distinctColour(own, Kind::Terrain);
    wanted.push_back(own);
    members.push_back({id});
    m_legend.push_back({Kind::Terrain, colours[value], {}, false, false, {}});
  }
  for (std::size_t i = 0; i < members.size(); ++i) {
    std::string label;
    for (const TerrainId id : members[i]) label += (label.empty() ? "" : ", ") + terrain.terrainName(id);
    const float cost = terrain.cost(members[i].front(), mobility);
    const bool sameCost = std::all_of(members[i].begin(), members[i].end(),
                                      [&](TerrainId id) { return terrain.cost(id, mobility) == cost; });
    if (!terrain.passable(members[i].front(), mobility)) {
      label += " (impassable for " + terrain.mobilityName(mobility) + ")";
    } else if (sameCost) {
      label += " (cost " + number(cost) + ")";
    }
    m_legend[i].label = label;
  }

  if (layout.kind() == LayoutKind::Square) {
    const float size = layout.tileSize();
    for (std::int32_t y = 0; y < map.height(); ++y) {
      std::int32_t x = 0;
      while (x < map.width()) {
        const TerrainId id = map.terrainAt({x, y});
        std::int32_t end = x + 1;
        while (end < map.width() && map.terrainAt({end, y}) == id) ++end;
        const Vec2 corner = layout.tilePolygon({x, y}).corners[0];
        m_body += "<rect x=\"" + number(corner.x()) + "\" y=\"" + number(corner.y()) + "\" width=\"" +
                  number(size * float(end - x)) + "\" height=\"" + number(size) + "\" fill=\"" + colours[id.value] +
                  "\" shape-rendering=\"crispEdges\"/>\n";
        x = end;
      }
    }
  } else {
    for (std::int32_t y = 0; y < map.height(); ++y) {
      for (std::int32_t x = 0; x < map.width(); ++x) {
        m_body += "<polygon points=\"" + polygonOf(layout.tilePolygon({x, y})) + "\" fill=\"" +
                  colours[map.terrainAt({x, y}).value] + "\" stroke=\"#00000022\" stroke-width=\"" +
                  number(0.02 * layout.tileSize()) + "\"/>\n";
      }
    }
  }
}

void SvgPicture::Impl::tiles(const std::vector<Cell>& cells, std::string_view colour, std::string_view label) {
  const std::string drawn = mark({Kind::Tiles, std::string(colour), std::string(label)});
  const float width = 0.06f * m_map.layout().tileSize();
  for (const Cell& cell : cells) {
    m_body += "<polygon points=\"" + polygonOf(m_map.layout().tilePolygon(cell)) + "\" fill=\"" + drawn +
              "\" fill-opacity=\"0.25\" stroke=\"" + drawn + "\" stroke-width=\"" + number(width) + "\"/>\n";
  }
}

void SvgPicture::Impl::polyline(const std::vector<Vec2>& line, std::string_view colour, float width, bool dashed,
                          std::string_view label) {
  if (line.empty()) return;
  const std::string drawn = mark({Kind::Line, std::string(colour), std::string(label), dashed});
  const float tile = m_map.layout().tileSize();
  m_body += "<polyline fill=\"none\" stroke=\"" + drawn + "\" stroke-width=\"" + number(width * tile) +
            "\" stroke-linejoin=\"round\"";
  if (dashed) m_body += " stroke-dasharray=\"" + number(0.3 * tile) + "," + number(0.2 * tile) + "\"";
  m_body += " points=\"" + points(line) + "\"/>\n";
  for (const Vec2& p : line) {
    m_body += "<circle cx=\"" + number(p.x()) + "\" cy=\"" + number(p.y()) + "\" r=\"" + number(width * 1.6 * tile) +
              "\" fill=\"" + drawn + "\"/>\n";
  }
}

void SvgPicture::Impl::curve(const std::vector<Vec2>& line, std::string_view colour, float width, std::string_view label) {
  if (line.empty()) return;
  const std::string drawn = mark({Kind::Line, std::string(colour), std::string(label)});
  m_body += bandedLine(line, "curve", drawn, width * m_map.layout().tileSize(), 0.0, 0.0);
}

void SvgPicture::Impl::route(const SmoothPath& path, float radius, std::string_view colour, std::string_view label,
                       std::span<const Vec2> controlPoints) {
  if (path.empty()) return;
  const float tile = m_map.layout().tileSize();
  const std::string drawn =
      mark({Kind::Route, std::string(colour), bodyLabel(label, "band: the body's width", radius, tile), false, radius > 0.0f});
  std::vector<Vec2> line;
  path.sample(0.01 * double(tile), line);
  m_body += bandedLine(line, "route", drawn, 0.09 * tile, 2.0 * radius, 0.25);
  for (const Vec2& p : controlPoints) {
    m_body += "<circle class=\"control-point\" cx=\"" + number(p.x()) + "\" cy=\"" + number(p.y()) + "\" r=\"" +
              number(0.08 * tile) + "\" fill=\"" + drawn + "\" stroke=\"white\" stroke-width=\"" + number(0.03 * tile) +
              "\"/>\n";
  }
}

void SvgPicture::Impl::trail(const std::vector<Vec2>& line, float radius, std::string_view colour, std::string_view label,
                       bool markEnds) {
  if (line.empty()) return;
  const float tile = m_map.layout().tileSize();
  const std::string drawn =
      mark({Kind::Trail, std::string(colour), bodyLabel(label, "band: the body's width", radius, tile), false, radius > 0.0f});
  // A fifth of the body's width: thin enough to see where in a corridor it went.
  const double width = radius > 0.0f ? std::min(0.4 * radius, 0.1 * tile) : 0.08 * tile;
  m_body += bandedLine(simplified(line, 0.02f * tile), "trail", drawn, width, 2.0 * radius, 0.12);
  if (markEnds) {
    start(line.front(), radius, "start of a trail");
    goal(line.back(), radius, "end of the run");
  }
}

void SvgPicture::Impl::start(Vec2 point, float radius, std::string_view label) {
  const float tile = m_map.layout().tileSize();
  const std::string colour = mark({Kind::Start, std::string(kStartColour), bodyLabel(label, "the body", radius, tile)});
  m_body += startGlyph(point, markerRadius(radius), 0.04 * tile, colour);
}

void SvgPicture::Impl::goal(Vec2 point, float radius, std::string_view label) {
  const float tile = m_map.layout().tileSize();
  const std::string colour = mark({Kind::Goal, std::string(kGoalColour), bodyLabel(label, "the body", radius, tile)});
  m_body += goalGlyph(point, markerRadius(radius), 0.05 * tile, colour);
}

void SvgPicture::Impl::world(const World& world, bool movingEntities) {
  const float tile = m_map.layout().tileSize();
  constexpr std::array<std::string_view, 3> kDoorColours = {"#3cb043", "#e0a010", "#d02020"};
  constexpr std::array<std::string_view, 3> kDoorLabels = {"door open", "door closed", "door locked"};
  auto stateIndex = [](DoorState state) { return state == DoorState::Open ? 0 : state == DoorState::Closed ? 1 : 2; };
  std::array<bool, 3> present{};
  for (const Door& door : world.doors()) {
    if (!door.removed) present[std::size_t(stateIndex(door.state))] = true;
  }
  std::array<std::string, 3> colours;
  for (std::size_t i = 0; i < 3; ++i) {
    if (present[i]) colours[i] = mark({Kind::Door, std::string(kDoorColours[i]), std::string(kDoorLabels[i])});
  }
  for (const Door& door : world.doors()) {
    if (!door.removed) m_body += doorGlyph(door.edge[0], door.edge[1], 0.25 * tile, colours[std::size_t(stateIndex(door.state))]);
  }
  bool moving = false, other = false;
  for (const Entity& entity : world.entities().all()) {
    const bool isMoving = (entity.flags & kEntityMoving) != 0;
    moving = moving || (isMoving && movingEntities);
    other = other || !isMoving;
  }
  const std::string still = other ? mark({Kind::Entity, "#7a4f9a", "entities (dashed: flat)", true}) : std::string();
  const std::string walking = moving ? mark({Kind::Entity, "#e377c2", "moving entities"}) : std::string();
  for (const Entity& entity : world.entities().all()) {
    const bool isMoving = (entity.flags & kEntityMoving) != 0;
    if (isMoving && !movingEntities) continue;
    m_body += entityGlyph(entity.position, entity.radius, 0.04 * tile, isMoving ? walking : still, entity.flat());
  }
}

void SvgPicture::Impl::field(const CrowdField& field, int arrowEvery) {
  const Layout& layout = m_map.layout();
  const float tile = layout.tileSize();
  // The distances present, for the colour scale and its legend: reachable tiles only.
  std::int64_t nearest = CrowdField::kUnreachable, farthest = 0;
  for (std::int32_t i = 0; i < m_map.tileCount(); ++i) {
    const std::int64_t d = field.distance(m_map.cellAt(i));
    if (d != CrowdField::kUnreachable) nearest = std::min(nearest, d), farthest = std::max(farthest, d);
  }
  if (nearest == CrowdField::kUnreachable) nearest = 0;
  const bool hasDanger = !field.dangerMap().clear();
  // A step between tiles of cost 1 costs kStep: distances are told in such steps, so a field
  // without danger or dear terrain reads in tiles.
  const double plainStep = double(CrowdField::kStep);
  auto tiles = [&](std::int64_t d) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", double(d) / plainStep);
    return std::string(text);
  };
  constexpr std::string_view kFar = "#8c0000";
  const std::string near = mark({Kind::Gradient, "#f0dc3c",
                                 "distance to the goals: " + tiles(nearest) + " (near) to " + tiles(farthest) +
                                     " tiles (far), weighted by terrain cost" +
                                     (hasDanger && field.dangerFactor() > 0 ? " and danger" : ""),
                                 false, false, std::string(kFar)});
  const std::string danger = dangerMark(field.dangerMap(), field.dangerFactor());
  const std::string arrows =
      arrowEvery > 0 ? mark({Kind::Arrow, "#000080", "flow direction (every " + std::to_string(arrowEvery) + " tiles)"})
                     : std::string();
  const std::string goals =
      field.goals().empty() ? std::string()
                            : mark({Kind::Goal, std::string(kGoalColour), field.goals().size() == 1 ? "goal tile" : "goal tiles"});
  std::array<int, 3> from{}, to{};
  toRgb(near, from);
  toRgb(kFar, to);
  // Distance colours first, danger over them, then arrows and goals on top, so none hides another.
  for (std::int32_t i = 0; i < m_map.tileCount(); ++i) {
    const Cell cell = m_map.cellAt(i);
    const std::int64_t d = field.distance(cell);
    if (d == CrowdField::kUnreachable) continue;
    // Yellow (near) to dark red (far).
    const double t = farthest > nearest ? double(d - nearest) / double(farthest - nearest) : 0.0;
    const auto channel = [&](std::size_t k) { return int(std::lround(from[k] + (to[k] - from[k]) * t)); };
    char colour[16];
    std::snprintf(colour, sizeof colour, "#%02x%02x%02x", channel(0), channel(1), channel(2));
    m_body += "<polygon points=\"" + polygonOf(layout.tilePolygon(cell)) + "\" fill=\"" + colour +
              "\" fill-opacity=\"0.55\" stroke=\"none\"/>\n";
  }
  dangerTiles(field.dangerMap(), danger);
  for (std::int32_t i = 0; arrowEvery > 0 && i < m_map.tileCount(); ++i) {
    const Cell cell = m_map.cellAt(i);
    if ((cell.x % arrowEvery) != 0 || (cell.y % arrowEvery) != 0) continue;
    const Vec2 flow = field.flow(cell);
    if (flow == Vec2::Zero()) continue;
    const Vec2 centre = layout.tileCenter(cell);
    m_body += arrowGlyph(centre, centre + flow * (0.4f * tile * float(arrowEvery)), 0.06 * tile, arrows);
  }
  // A goal is a tile: its marker fills most of it, to be found at a glance on a large map.
  for (const Cell goalTile : field.goals()) {
    m_body += goalGlyph(layout.tileCenter(goalTile), std::max(0.4 * tile, 4.0 / m_scale), 0.08 * tile, goals);
  }
}

std::string SvgPicture::Impl::dangerMark(const DangerMap& danger, std::uint8_t factor) {
  int low = 256, high = 0;
  for (std::int32_t i = 0; i < m_map.tileCount(); ++i) {
    if (const int value = danger.danger(m_map.cellAt(i)); value > 0) low = std::min(low, value), high = std::max(high, value);
  }
  if (high == 0) return {};
  return mark({Kind::Ramp, std::string(kDangerColour),
               "danger 0 (none) to 255; here " + std::to_string(low) + " to " + std::to_string(high) +
                   " (layers summed, factor " + std::to_string(factor) + ")"});
}

void SvgPicture::Impl::dangerTiles(const DangerMap& danger, const std::string& colour) {
  const Layout& layout = m_map.layout();
  for (std::int32_t i = 0; !colour.empty() && i < m_map.tileCount(); ++i) {
    const Cell cell = m_map.cellAt(i);
    const int value = danger.danger(cell);
    if (value == 0) continue;
    m_body += "<polygon class=\"danger\" data-danger=\"" + std::to_string(value) + "\" points=\"" +
              polygonOf(layout.tilePolygon(cell)) + "\" fill=\"" + colour + "\" fill-opacity=\"" +
              number(kDangerOpacity * double(value) / 255.0) + "\" stroke=\"none\"/>\n";
  }
}

void SvgPicture::Impl::danger(const DangerMap& danger, std::uint8_t factor) { dangerTiles(danger, dangerMark(danger, factor)); }

void SvgPicture::Impl::marker(Vec2 point, std::string_view colour, std::string_view label) {
  const float tile = m_map.layout().tileSize();
  m_body += ringGlyph(point, 0.3 * tile, 0.08 * tile, mark({Kind::Ring, std::string(colour), std::string(label)}));
}

Status SvgPicture::Impl::save(const std::filesystem::path& path) const {
  std::ofstream out(path);
  out << str();
  return out ? Status::Ok : Status::IoError;
}

std::string SvgPicture::Impl::str() const {
  const TileMap::WorldBox extent = m_map.worldBox();
  const float minX = extent.min.x(), minY = extent.min.y(), maxX = extent.max.x(), maxY = extent.max.y();
  const float tile = m_map.layout().tileSize();
  // The scale bar and legend are sized in pixels (u = 12 pixels), so they read the same on a
  // 50-tile map drawn at 12 pixels a tile and a 512-tile map drawn at 3.
  const float u = 12.0f / m_scale, font = 0.9f * u, rowHeight = 1.2f * u;
  // As many columns (filled top to bottom) as fit the map's width, each as wide as its longest
  // label (about half a font size per character).
  const float mapWidth = maxX - minX;
  std::size_t rows = std::max<std::size_t>(1, m_legend.size());
  std::vector<float> columnX{0.0f};  // where each column starts; the last entry is the total
  for (std::size_t columns = m_legend.size(); columns >= 1; --columns) {
    rows = (m_legend.size() + columns - 1) / columns;
    columnX.assign(1, 0.0f);
    for (std::size_t first = 0; first < m_legend.size(); first += rows) {
      float widest = 0.0f;
      for (std::size_t i = first; i < std::min(first + rows, m_legend.size()); ++i) {
        widest = std::max(widest, 3.0f * u + 0.52f * font * float(m_legend[i].label.size()));
      }
      columnX.push_back(columnX.back() + widest);
    }
    if (columnX.back() <= mapWidth) break;
  }
  const float width = std::max(mapWidth, columnX.back() + 0.4f * u);
  const float legendTop = maxY + 2.2f * u;
  const float height = legendTop - minY + float(rows) * rowHeight + 0.4f * u;
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"" + number(minX) + " " + number(minY) + " " +
                    number(width) + " " + number(height) + "\" width=\"" + number(width * m_scale) +
                    "\" height=\"" + number(height * m_scale) + "\">\n";
  out += "<rect x=\"" + number(minX) + "\" y=\"" + number(minY) + "\" width=\"" + number(width) + "\" height=\"" +
         number(height) + "\" fill=\"white\"/>\n";
  out += m_body;
  auto text = [&](float x, float centre, std::string_view label) {
    return "<text x=\"" + number(x) + "\" y=\"" + number(centre + 0.33f * font) + "\" font-size=\"" + number(font) +
           "\" font-family=\"sans-serif\">" + escaped(label) + "</text>\n";
  };

  // Scale bar: a round number of tiles near an eighth of the map's width, in tile-long (or
  // fifth-long) black and white pieces so tiles can be counted.
  const double mapTiles = double(mapWidth) / double(tile);
  int tiles = 1;
  for (const int candidate : {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000}) {
    if (candidate <= std::max(1.0, mapTiles / 8.0)) tiles = candidate;
  }
  const int pieces = tiles <= 10 ? tiles : 5;
  const float barY = maxY + 0.6f * u, barHeight = 0.35f * u, pieceWidth = float(tiles) * tile / float(pieces);
  out += "<g class=\"scale-bar\">\n";
  for (int i = 0; i < pieces; ++i) {
    out += "<rect x=\"" + number(minX + 0.4f * u + float(i) * pieceWidth) + "\" y=\"" + number(barY) + "\" width=\"" +
           number(pieceWidth) + "\" height=\"" + number(barHeight) + "\" fill=\"" + (i % 2 ? "white" : "black") +
           "\" stroke=\"black\" stroke-width=\"" + number(0.05f * u) + "\"/>\n";
  }
  out += text(minX + 0.9f * u + float(tiles) * tile, barY + 0.5f * barHeight,
              std::to_string(tiles) + (tiles == 1 ? " tile" : " tiles") +
                  (m_map.layout().kind() == LayoutKind::Square ? "" : " (hex centre to centre)"));
  out += "</g>\n<g class=\"legend\">\n";

  // Legend, column by column: each entry draws its mark as the map does.
  for (std::size_t i = 0; i < m_legend.size(); ++i) {
    const SvgLegendEntry& entry = m_legend[i];
    const float x = minX + 0.4f * u + columnX[i / rows];
    const float y = legendTop + float(i % rows) * rowHeight + 0.5f * rowHeight;
    const Vec2 left(x, y), right(x + 1.8f * u, y), middle(x + 0.9f * u, y);
    const std::string& c = entry.colour;
    out += "<g class=\"legend-entry\" data-kind=\"" + std::string(kindName(entry.kind)) + "\" data-colour=\"" + c + "\">\n";
    switch (entry.kind) {
      case Kind::Terrain:
        out += "<rect x=\"" + number(x) + "\" y=\"" + number(y - 0.35f * u) + "\" width=\"" + number(1.8f * u) +
               "\" height=\"" + number(0.7f * u) + "\" fill=\"" + c + "\" stroke=\"#00000040\" stroke-width=\"" +
               number(0.04f * u) + "\"/>\n";
        break;
      case Kind::Tiles:
        out += "<rect x=\"" + number(x + 0.5f * u) + "\" y=\"" + number(y - 0.4f * u) + "\" width=\"" + number(0.8f * u) +
               "\" height=\"" + number(0.8f * u) + "\" fill=\"" + c + "\" fill-opacity=\"0.25\" stroke=\"" + c +
               "\" stroke-width=\"" + number(0.06f * u) + "\"/>\n";
        break;
      case Kind::Line:
        out += "<line x1=\"" + number(left.x()) + "\" y1=\"" + number(y) + "\" x2=\"" + number(right.x()) + "\" y2=\"" +
               number(y) + "\" stroke=\"" + c + "\" stroke-width=\"" + number(0.12f * u) + "\"" +
               (entry.dashed ? " stroke-dasharray=\"" + number(0.3f * u) + "," + number(0.2f * u) + "\"" : "") + "/>\n";
        break;
      case Kind::Route:
      case Kind::Trail: {
        const std::array<Vec2, 2> line{left, right};
        out += bandedLine(line, "legend", c, (entry.kind == Kind::Route ? 0.12f : 0.06f) * u,
                          entry.band ? 0.6f * u : 0.0f, entry.kind == Kind::Route ? 0.25 : 0.12);
        break;
      }
      case Kind::Door: out += doorGlyph(left + Vec2(0.3f * u, 0.0f), right - Vec2(0.3f * u, 0.0f), 0.3f * u, c); break;
      case Kind::Entity:
        // A solid and, for an entry that says so, a dashed (flat) one.
        out += entityGlyph(left + Vec2(0.4f * u, 0.0f), 0.35f * u, 0.06f * u, c, false);
        if (entry.dashed) out += entityGlyph(right - Vec2(0.4f * u, 0.0f), 0.35f * u, 0.06f * u, c, true);
        break;
      case Kind::Ring: out += ringGlyph(middle, 0.3f * u, 0.08f * u, c); break;
      case Kind::Start: out += startGlyph(middle, 0.35f * u, 0.06f * u, c); break;
      case Kind::Goal: out += goalGlyph(middle, 0.35f * u, 0.08f * u, c); break;
      case Kind::Gradient:
        out += "<linearGradient id=\"legend-gradient-" + std::to_string(i) + "\"><stop offset=\"0\" stop-color=\"" + c +
               "\"/><stop offset=\"1\" stop-color=\"" + entry.colourTo + "\"/></linearGradient>\n<rect x=\"" +
               number(x) + "\" y=\"" + number(y - 0.35f * u) + "\" width=\"" + number(1.8f * u) + "\" height=\"" +
               number(0.7f * u) + "\" fill=\"url(#legend-gradient-" + std::to_string(i) + ")\" fill-opacity=\"0.8\"/>\n";
        break;
      case Kind::Arrow: out += arrowGlyph(left + Vec2(0.2f * u, 0.0f), right, 0.08f * u, c); break;
      case Kind::Ramp:
        // Drawn as the map draws it: transparent at 0 to the map's strongest opacity.
        out += "<linearGradient id=\"legend-gradient-" + std::to_string(i) + "\"><stop offset=\"0\" stop-color=\"" + c +
               "\" stop-opacity=\"0\"/><stop offset=\"1\" stop-color=\"" + c + "\" stop-opacity=\"" +
               number(kDangerOpacity) + "\"/></linearGradient>\n<rect x=\"" + number(x) + "\" y=\"" +
               number(y - 0.35f * u) + "\" width=\"" + number(1.8f * u) + "\" height=\"" + number(0.7f * u) +
               "\" fill=\"url(#legend-gradient-" + std::to_string(i) + ")\" stroke=\"#00000040\" stroke-width=\"" +
               number(0.04f * u) + "\"/>\n";
        break;
    }
    out += text(x + 2.2f * u, y, entry.label) + "</g>\n";
  }
  out += "</g>\n</svg>\n";
  return out;
}

}  // namespace rpgnav
