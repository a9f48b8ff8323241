// SPDX-License-Identifier: MIT
#include "rpgnav/debug/svg.hpp"

#include <cstdio>
#include <fstream>

namespace rpgnav {
namespace {

std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", value);
  std::string text = buffer;
  while (!text.empty() && text.back() == '0') text.pop_back();
  if (!text.empty() && text.back() == '.') text.pop_back();
  return text == "-0" ? "0" : text;
}

bool contains(std::string_view name, std::string_view word) { return name.find(word) != std::string_view::npos; }

// A colour a reader recognises for common terrain names; neutral tones otherwise.
std::string terrainColour(const TerrainTable& table, TerrainId id, MobilityId mobility) {
  const std::string& name = table.terrainName(id);
  if (!table.passable(id, mobility)) {
    if (contains(name, "water") || contains(name, "lake") || contains(name, "river")) return "#4a78b5";
    if (contains(name, "tree") || contains(name, "forest")) return "#2f5d34";
    return "#3a3a3a";
  }
  if (contains(name, "water") || contains(name, "ford")) return "#8fb8e6";
  if (contains(name, "bridge")) return "#b08a5a";
  if (contains(name, "road") || contains(name, "cobble") || contains(name, "market")) return "#cfc8b8";
  if (contains(name, "forest") || contains(name, "tree")) return "#6f9e5b";
  if (contains(name, "grass")) return "#b8d69a";
  if (contains(name, "swamp")) return "#8a9a5b";
  if (contains(name, "hill")) return "#c9b07a";
  if (contains(name, "mountain")) return "#9a8c7a";
  if (contains(name, "rubble")) return "#b3a48f";
  if (contains(name, "pit")) return "#5c4a3a";
  // Unknown passable terrain: lighter for cheaper.
  const float cost = table.cost(id, mobility);
  return cost <= 1.0f ? "#efe8d8" : cost <= 2.0f ? "#ddd0b0" : "#c4b08a";
}

}  // namespace

SvgPicture::SvgPicture(const TileMap& map, MobilityId mobility, float pixelsPerTile)
    : m_map(map), m_scale(pixelsPerTile / map.layout().tileSize()) {
  const Layout& layout = map.layout();
  const TerrainTable& terrain = map.terrain();
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
                  number(size * float(end - x)) + "\" height=\"" + number(size) + "\" fill=\"" +
                  terrainColour(terrain, id, mobility) + "\" shape-rendering=\"crispEdges\"/>\n";
        x = end;
      }
    }
  } else {
    for (std::int32_t y = 0; y < map.height(); ++y) {
      for (std::int32_t x = 0; x < map.width(); ++x) {
        const TilePolygon polygon = layout.tilePolygon({x, y});
        m_body += "<polygon points=\"";
        for (int i = 0; i < polygon.count; ++i) {
          m_body += (i ? " " : "") + number(polygon.corners[std::size_t(i)].x()) + "," +
                    number(polygon.corners[std::size_t(i)].y());
        }
        m_body += "\" fill=\"" + terrainColour(terrain, map.terrainAt({x, y}), mobility) +
                  "\" stroke=\"#00000022\" stroke-width=\"" + number(0.02 * layout.tileSize()) + "\"/>\n";
      }
    }
  }
}

void SvgPicture::tiles(const std::vector<Cell>& cells, std::string_view colour, std::string_view label) {
  const float width = 0.06f * m_map.layout().tileSize();
  for (const Cell& cell : cells) {
    const TilePolygon polygon = m_map.layout().tilePolygon(cell);
    m_body += "<polygon points=\"";
    for (int i = 0; i < polygon.count; ++i) {
      m_body += (i ? " " : "") + number(polygon.corners[std::size_t(i)].x()) + "," +
                number(polygon.corners[std::size_t(i)].y());
    }
    m_body += "\" fill=\"" + std::string(colour) + "\" fill-opacity=\"0.25\" stroke=\"" + std::string(colour) +
              "\" stroke-width=\"" + number(width) + "\"/>\n";
  }
  if (!label.empty()) m_legend.emplace_back(colour, label);
}

void SvgPicture::polyline(const std::vector<Vec2>& points, std::string_view colour, float width, bool dashed,
                          std::string_view label) {
  if (points.empty()) return;
  const float tile = m_map.layout().tileSize();
  m_body += "<polyline fill=\"none\" stroke=\"" + std::string(colour) + "\" stroke-width=\"" +
            number(width * tile) + "\" stroke-linejoin=\"round\"";
  if (dashed) m_body += " stroke-dasharray=\"" + number(0.3 * tile) + "," + number(0.2 * tile) + "\"";
  m_body += " points=\"";
  for (std::size_t i = 0; i < points.size(); ++i) {
    m_body += (i ? " " : "") + number(points[i].x()) + "," + number(points[i].y());
  }
  m_body += "\"/>\n";
  for (const Vec2& p : points) {
    m_body += "<circle cx=\"" + number(p.x()) + "\" cy=\"" + number(p.y()) + "\" r=\"" + number(width * 1.6 * tile) +
              "\" fill=\"" + std::string(colour) + "\"/>\n";
  }
  if (!label.empty()) m_legend.emplace_back(colour, label);
}

void SvgPicture::curve(const std::vector<Vec2>& points, std::string_view colour, float width, std::string_view label) {
  if (points.empty()) return;
  const float tile = m_map.layout().tileSize();
  m_body += "<polyline fill=\"none\" stroke=\"" + std::string(colour) + "\" stroke-width=\"" + number(width * tile) +
            "\" stroke-linejoin=\"round\" stroke-linecap=\"round\" points=\"";
  for (std::size_t i = 0; i < points.size(); ++i) {
    m_body += (i ? " " : "") + number(points[i].x()) + "," + number(points[i].y());
  }
  m_body += "\"/>\n";
  if (!label.empty()) m_legend.emplace_back(colour, label);
}

void SvgPicture::world(const World& world) {
  const Layout& layout = m_map.layout();
  for (const Door& door : world.doors()) {
    if (door.removed) continue;
    const char* colour = door.state == DoorState::Open ? "#3cb043" : door.state == DoorState::Closed ? "#e0a010" : "#d02020";
    m_body += "<line x1=\"" + number(door.edge[0].x()) + "\" y1=\"" + number(door.edge[0].y()) + "\" x2=\"" +
              number(door.edge[1].x()) + "\" y2=\"" + number(door.edge[1].y()) + "\" stroke=\"" + colour +
              "\" stroke-width=\"" + number(0.25 * layout.tileSize()) + "\" stroke-linecap=\"round\"/>\n";
  }
  if (!world.doors().empty()) {
    m_legend.emplace_back("#3cb043", "door open");
    m_legend.emplace_back("#e0a010", "door closed");
    m_legend.emplace_back("#d02020", "door locked");
  }
  bool moving = false, other = false;
  for (const Entity& entity : world.entities().all()) {
    const bool isMoving = (entity.flags & kEntityMoving) != 0;
    moving = moving || isMoving;
    other = other || !isMoving;
    const char* colour = isMoving ? "#e377c2" : "#7a4f9a";
    m_body += "<circle cx=\"" + number(entity.position.x()) + "\" cy=\"" + number(entity.position.y()) + "\" r=\"" +
              number(entity.radius) + "\" fill=\"" + (entity.flat() ? "none" : colour) + "\" fill-opacity=\"0.5\"" +
              " stroke=\"" + colour + "\" stroke-width=\"" + number(0.04 * layout.tileSize()) + "\"" +
              (entity.flat() ? " stroke-dasharray=\"0.15,0.1\"" : "") + "/>\n";
  }
  if (other) m_legend.emplace_back("#7a4f9a", "entities (dashed: flat)");
  if (moving) m_legend.emplace_back("#e377c2", "moving entities");
}

void SvgPicture::field(const CrowdField& field, int arrowEvery) {
  const Layout& layout = m_map.layout();
  const float tile = layout.tileSize();
  std::int64_t farthest = 1;
  for (std::int32_t i = 0; i < m_map.tileCount(); ++i) {
    const std::int64_t d = field.distance(m_map.cellAt(i));
    if (d != CrowdField::kUnreachable) farthest = std::max(farthest, d);
  }
  for (std::int32_t i = 0; i < m_map.tileCount(); ++i) {
    const Cell cell = m_map.cellAt(i);
    const std::int64_t d = field.distance(cell);
    if (d == CrowdField::kUnreachable) continue;
    // Yellow (near) to dark red (far).
    const double t = double(d) / double(farthest);
    char colour[16];
    std::snprintf(colour, sizeof colour, "#%02x%02x%02x", int(250 - 110 * t), int(220 * (1.0 - t)), int(60 * (1.0 - t)));
    const TilePolygon polygon = layout.tilePolygon(cell);
    m_body += "<polygon points=\"";
    for (int k = 0; k < polygon.count; ++k) {
      m_body += (k ? " " : "") + number(polygon.corners[std::size_t(k)].x()) + "," + number(polygon.corners[std::size_t(k)].y());
    }
    m_body += "\" fill=\"" + std::string(colour) + "\" fill-opacity=\"0.55\" stroke=\"none\"/>\n";
    if (arrowEvery > 0 && (cell.x % arrowEvery) == 0 && (cell.y % arrowEvery) == 0) {
      const Vec2 flow = field.flow(cell);
      if (flow != Vec2::Zero()) {
        const Vec2 centre = layout.tileCenter(cell);
        const Vec2 tip = centre + flow * (0.4f * tile * float(arrowEvery));
        const Vec2 side(-flow.y(), flow.x());
        const Vec2 left = tip - flow * (0.25f * tile) + side * (0.12f * tile), right = tip - flow * (0.25f * tile) - side * (0.12f * tile);
        m_body += "<line x1=\"" + number(centre.x()) + "\" y1=\"" + number(centre.y()) + "\" x2=\"" + number(tip.x()) +
                  "\" y2=\"" + number(tip.y()) + "\" stroke=\"#202020\" stroke-width=\"" + number(0.06 * tile) + "\"/>\n";
        m_body += "<polygon points=\"" + number(tip.x()) + "," + number(tip.y()) + " " + number(left.x()) + "," +
                  number(left.y()) + " " + number(right.x()) + "," + number(right.y()) + "\" fill=\"#202020\"/>\n";
      }
    }
  }
  for (const Cell goal : field.goals()) marker(layout.tileCenter(goal), "#1f77b4", "");
  m_legend.emplace_back("#f0dc3c", "distance to the goal (yellow near, red far)");
  m_legend.emplace_back("#1f77b4", "goal");
}

void SvgPicture::marker(Vec2 point, std::string_view colour, std::string_view label) {
  const float tile = m_map.layout().tileSize();
  m_body += "<circle cx=\"" + number(point.x()) + "\" cy=\"" + number(point.y()) + "\" r=\"" + number(0.3 * tile) +
            "\" fill=\"none\" stroke=\"" + std::string(colour) + "\" stroke-width=\"" + number(0.08 * tile) + "\"/>\n";
  if (!label.empty()) m_legend.emplace_back(colour, label);
}

Status SvgPicture::save(const std::filesystem::path& path) const {
  std::ofstream out(path);
  out << str();
  return out ? Status::Ok : Status::IoError;
}

std::string SvgPicture::str() const {
  // Extent: the union of all tile polygons.
  float minX = 1e30f, minY = 1e30f, maxX = -1e30f, maxY = -1e30f;
  for (Cell c : {Cell{0, 0}, Cell{m_map.width() - 1, 0}, Cell{0, m_map.height() - 1},
                 Cell{m_map.width() - 1, m_map.height() - 1}, Cell{0, 1}, Cell{1, 0},
                 Cell{m_map.width() - 1, std::max(0, m_map.height() - 2)}, Cell{std::max(0, m_map.width() - 2), m_map.height() - 1}}) {
    const TilePolygon polygon = m_map.layout().tilePolygon(c);
    for (int i = 0; i < polygon.count; ++i) {
      minX = std::min(minX, polygon.corners[std::size_t(i)].x());
      minY = std::min(minY, polygon.corners[std::size_t(i)].y());
      maxX = std::max(maxX, polygon.corners[std::size_t(i)].x());
      maxY = std::max(maxY, polygon.corners[std::size_t(i)].y());
    }
  }
  const float tile = m_map.layout().tileSize();
  const float legendHeight = tile * (1.2f * float(m_legend.size()) + 0.6f);
  const float width = maxX - minX, height = maxY - minY + legendHeight;
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"" + number(minX) + " " + number(minY) + " " +
                    number(width) + " " + number(height) + "\" width=\"" + number(width * m_scale) +
                    "\" height=\"" + number(height * m_scale) + "\">\n";
  out += "<rect x=\"" + number(minX) + "\" y=\"" + number(minY) + "\" width=\"" + number(width) + "\" height=\"" +
         number(height) + "\" fill=\"white\"/>\n";
  out += m_body;
  float y = maxY + tile * 1.0f;
  for (const auto& [colour, label] : m_legend) {
    out += "<rect x=\"" + number(minX + 0.3f * tile) + "\" y=\"" + number(y - 0.6f * tile) + "\" width=\"" +
           number(tile) + "\" height=\"" + number(0.6f * tile) + "\" fill=\"" + colour + "\"/>\n";
    out += "<text x=\"" + number(minX + 1.6f * tile) + "\" y=\"" + number(y) + "\" font-size=\"" + number(0.9f * tile) +
           "\" font-family=\"sans-serif\">" + label + "</text>\n";
    y += 1.2f * tile;
  }
  out += "</svg>\n";
  return out;
}

}  // namespace rpgnav
