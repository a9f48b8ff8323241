// SPDX-License-Identifier: MIT
// SVG pictures read on their own: legend colours far apart, every terrain present named, start and
// goal markers and a scale bar, routes drawn as the smoothed curve, trails no wider than the body.
#include <catch2/catch.hpp>

#include "rpgnav/debug/svg.hpp"
#include "rpgnav/io/rpgmap.hpp"
#include "support/test_maps.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <set>
#include <string>
#include <vector>

using namespace rpgnav;

namespace {

using Kind = SvgLegendEntry::Kind;

// The opening tags of the elements of a class.
std::vector<std::string> elementsOf(const std::string& svg, std::string_view cls) {
  std::vector<std::string> out;
  const std::string needle = "class=\"" + std::string(cls) + "\"";
  for (std::size_t at = svg.find(needle); at != std::string::npos; at = svg.find(needle, at + 1)) {
    const std::size_t begin = svg.rfind('<', at), end = svg.find('>', at);
    out.push_back(svg.substr(begin, end - begin + 1));
  }
  return out;
}

std::string attribute(const std::string& tag, std::string_view name) {
  const std::string needle = " " + std::string(name) + "=\"";
  const std::size_t at = tag.find(needle);
  if (at == std::string::npos) return {};
  const std::size_t begin = at + needle.size();
  return tag.substr(begin, tag.find('"', begin) - begin);
}

std::size_t pointCount(const std::string& points) {
  std::size_t count = 0;
  for (std::size_t at = 0; at < points.size(); ++count) {
    at = points.find(' ', at);
    if (at == std::string::npos) return count + 1;
    ++at;
  }
  return count;
}

MapDocument sampleMap(const char* name) {
  auto document = readMapFile(test::sampleMapsDir() / name);
  REQUIRE(document);
  return std::move(*document);
}

// A curve with a bend, as stage 8 makes them.
SmoothPath bentPath(Vec2 from) {
  const CubicSpan spans[] = {{{from, from + Vec2(2.0f, 0.0f), from + Vec2(3.0f, 0.0f), from + Vec2(4.0f, 1.0f)}},
                             {{from + Vec2(4.0f, 1.0f), from + Vec2(5.0f, 2.0f), from + Vec2(5.0f, 3.0f), from + Vec2(5.0f, 5.0f)}}};
  SmoothPath path;
  path.assign(spans, 1e-3);
  return path;
}

// Everything a picture can hold, in the colours the path command asks for (some of them close to
// the doors' and to water).
SvgPicture busyPicture(const MapDocument& document, World& world) {
  SvgPicture picture(document.map, TerrainTable::kWalk);
  picture.world(world);
  const Vec2 a = document.map.layout().tileCenter({2, 2}), b = document.map.layout().tileCenter({6, 7});
  picture.tiles({{2, 2}, {3, 3}}, "#1f77b4", "A* tiles");
  picture.polyline({a, b}, "#7f7f7f", 0.05f, true, "control points (stage 3)");
  picture.polyline({a, b}, "#ff7f0e", 0.07f, true, "corner routing (5)");
  picture.polyline({a, b}, "#2ca02c", 0.08f, true, "straightened from the goal (6)");
  picture.polyline({a, b}, "#d62728", 0.06f, true, "control points (7: detours)");
  picture.route(bentPath(a), 0.3f, "#9400d3", "smoothed path (8)");
  picture.trail({a, b}, 0.25f, "#d02020", "trails", false);
  picture.marker(b, "#e0a010", "stops at a door");
  picture.start(a, 0.3f);
  picture.goal(b, 0.3f);
  return picture;
}

}  // namespace

TEST_CASE("svg: no two legend entries look alike, and marks are drawn in their entry's colour", "[debug][svg]") {
  for (const char* name : {"dungeon.rpgmap", "town.rpgmap", "wilderness.rpgmap"}) {
    CAPTURE(name);
    const MapDocument document = sampleMap(name);
    World world(document.map);
    REQUIRE(world.addFeatures(document.doors, document.entities) == Status::Ok);
    const SvgPicture picture = busyPicture(document, world);
    const std::vector<SvgLegendEntry>& legend = picture.legend();
    REQUIRE(legend.size() > 10);
    for (std::size_t i = 0; i < legend.size(); ++i) {
      for (std::size_t k = i + 1; k < legend.size(); ++k) {
        CAPTURE(legend[i].label, legend[i].colour, legend[k].label, legend[k].colour);
        const bool bothTerrain = legend[i].kind == Kind::Terrain && legend[k].kind == Kind::Terrain;
        CHECK(SvgPicture::colourDistance(legend[i].colour, legend[k].colour) >=
              (bothTerrain ? SvgPicture::kTerrainContrast : SvgPicture::kMarkContrast));
      }
    }
    // The stop marker asked for the closed door's colour: it got another, and is drawn in it.
    const std::string svg = picture.str();
    for (const SvgLegendEntry& entry : legend) {
      if (entry.label != "stops at a door") continue;
      CHECK(entry.colour != "#e0a010");
      CHECK(svg.find("stroke=\"" + entry.colour + "\"") != std::string::npos);
    }
  }
}

TEST_CASE("svg: the legend names each terrain on the map once, with its colour", "[debug][svg]") {
  for (const char* name : {"dungeon.rpgmap", "town.rpgmap", "wilderness.rpgmap"}) {
    CAPTURE(name);
    const MapDocument document = sampleMap(name);
    const TerrainTable& terrain = document.map.terrain();
    const SvgPicture picture(document.map, TerrainTable::kWalk);
    std::set<std::string> present, named;
    for (const TerrainId id : document.map.tiles()) present.insert(terrain.terrainName(id));
    const std::string svg = picture.str();
    for (const SvgLegendEntry& entry : picture.legend()) {
      REQUIRE(entry.kind == Kind::Terrain);
      // "a, b (cost 1)" or "a (impassable for walk)": the names before the parenthesis.
      const std::string names = entry.label.substr(0, entry.label.find(" ("));
      for (std::size_t begin = 0; begin <= names.size();) {
        const std::size_t end = std::min(names.find(", ", begin), names.size());
        CHECK(named.insert(names.substr(begin, end - begin)).second);
        begin = end + 2;
      }
      // The map is painted in the entry's colour (square runs or hexes).
      const bool painted = svg.find("fill=\"" + entry.colour + "\" shape-rendering") != std::string::npos ||
                           svg.find("fill=\"" + entry.colour + "\" stroke=\"#00000022\"") != std::string::npos;
      CHECK(painted);
    }
    CHECK(named == present);
  }
}

TEST_CASE("svg: start and goal markers, and a scale bar in tiles", "[debug][svg]") {
  const MapDocument document = sampleMap("dungeon.rpgmap");
  World world(document.map);
  REQUIRE(world.addFeatures(document.doors, document.entities) == Status::Ok);
  const std::string svg = busyPicture(document, world).str();
  REQUIRE(elementsOf(svg, "start").size() == 2);  // on the map and in the legend
  REQUIRE(elementsOf(svg, "goal").size() == 2);
  // The start is the body: a disc of the character's radius.
  CHECK(attribute(elementsOf(svg, "start").front(), "r") == "0.3");
  CHECK(svg.find(">start (the body, radius 0.3)</text>") != std::string::npos);
  CHECK(svg.find(">goal (the body, radius 0.3)</text>") != std::string::npos);
  REQUIRE(elementsOf(svg, "scale-bar").size() == 1);
  CHECK(svg.find(">5 tiles</text>") != std::string::npos);  // 56 tiles wide: an eighth, rounded down to 5
}

TEST_CASE("svg: a route is the smoothed curve over the body's width", "[debug][svg]") {
  const MapDocument document = sampleMap("town.rpgmap");
  SvgPicture picture(document.map, TerrainTable::kWalk);
  const SmoothPath path = bentPath(Vec2(3.5f, 10.5f));
  const std::vector<Vec2> controlPoints{Vec2(3.5f, 10.5f), Vec2(7.5f, 11.5f), Vec2(8.5f, 15.5f)};
  picture.route(path, 0.25f, "#0050ff", "walk", controlPoints);
  const std::string svg = picture.str();
  std::vector<Vec2> samples;
  path.sample(0.01, samples);
  REQUIRE(samples.size() > 10);
  const std::vector<std::string> routes = elementsOf(svg, "route"), bands = elementsOf(svg, "route-band");
  REQUIRE(routes.size() == 1);
  CHECK(pointCount(attribute(routes[0], "points")) == samples.size());
  REQUIRE(bands.size() == 1);
  CHECK(attribute(bands[0], "stroke-width") == "0.5");
  CHECK(elementsOf(svg, "control-point").size() == controlPoints.size());
  CHECK(svg.find(">walk (band: the body's width, radius 0.25)</text>") != std::string::npos);
}

TEST_CASE("svg: trails are no wider than the body", "[debug][svg]") {
  const MapDocument document = sampleMap("town.rpgmap");
  for (const float radius : {0.0f, 0.1f, 0.25f, 0.45f}) {
    CAPTURE(radius);
    SvgPicture picture(document.map, TerrainTable::kWalk);
    std::vector<Vec2> walk;
    for (int i = 0; i <= 40; ++i) walk.push_back(Vec2(2.5f + 0.1f * float(i), 10.5f + 0.02f * float(i % 7)));
    picture.trail(walk, radius, "#0050ff", "trail");
    const std::string svg = picture.str();
    std::vector<std::string> drawn = elementsOf(svg, "trail");
    const std::vector<std::string> bands = elementsOf(svg, "trail-band");
    REQUIRE(drawn.size() == 1);
    REQUIRE(bands.size() == (radius > 0.0f ? 1u : 0u));
    drawn.insert(drawn.end(), bands.begin(), bands.end());
    for (const std::string& tag : drawn) {
      const double width = std::strtod(attribute(tag, "stroke-width").c_str(), nullptr);
      CHECK(width > 0.0);
      CHECK(width <= (radius > 0.0f ? 2.0 * radius + 1e-6 : 0.1));
    }
    // Start and end of the trail, the end being the body.
    CHECK(elementsOf(svg, "start").size() == 2);
    CHECK(elementsOf(svg, "goal").size() == 2);
  }
}

TEST_CASE("svg: colour differences", "[debug][svg]") {
  CHECK(SvgPicture::colourDistance("#123456", "#123456") == 0.0);
  CHECK(SvgPicture::colourDistance("#000000", "#ffffff") == Approx(100.0).epsilon(1e-3));
  CHECK(SvgPicture::colourDistance("#d02020", "#d62728") < 5.0);  // two reds the eye cannot tell apart
  CHECK(SvgPicture::colourDistance("red", "#ffffff") == std::numeric_limits<double>::infinity());
}

namespace {

const SvgLegendEntry* entryOf(const SvgPicture& picture, Kind kind) {
  for (const SvgLegendEntry& entry : picture.legend()) {
    if (entry.kind == kind) return &entry;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("svg: a crowd field shows its distance scale, goal tiles and danger under the arrows", "[debug][svg][field]") {
  const MapDocument document = sampleMap("town.rpgmap");
  const TileMap& map = document.map;
  CrowdField field(CostField::build(map, TerrainTable::kWalk).value());
  const std::vector<Cell> goals{{30, 45}, {2, 10}};
  REQUIRE(map.passable(goals[0], TerrainTable::kWalk));
  REQUIRE(map.passable(goals[1], TerrainTable::kWalk));

  SECTION("with danger: a ramp with the values present, drawn over the distances and under the arrows") {
    // Two layers overlapping on one tile (120 + 80 = 200) and a tile of 150 alone.
    REQUIRE(field.setDanger(0, {30, 20}, 120) == Status::Ok);
    REQUIRE(field.setDanger(1, {30, 20}, 80) == Status::Ok);
    REQUIRE(field.setDanger(0, {31, 20}, 150) == Status::Ok);
    field.setDangerFactor(100);
    field.setGoals(goals);
    SvgPicture picture(map, TerrainTable::kWalk);
    picture.field(field, 2);
    const std::string svg = picture.str();

    const SvgLegendEntry* ramp = entryOf(picture, Kind::Ramp);
    REQUIRE(ramp != nullptr);
    CHECK(ramp->label == "danger 0 (none) to 255; here 150 to 200 (layers summed, factor 100)");
    CHECK(svg.find("data-kind=\"ramp\"") != std::string::npos);
    const std::vector<std::string> danger = elementsOf(svg, "danger");
    REQUIRE(danger.size() == 2);
    CHECK(attribute(danger[0], "data-danger") == "200");
    CHECK(attribute(danger[0], "fill") == ramp->colour);
    CHECK(std::abs(std::atof(attribute(danger[0], "fill-opacity").c_str()) - 0.75 * 200.0 / 255.0) < 1e-3);
    CHECK(attribute(danger[1], "data-danger") == "150");
    // Distances first, danger over them, the arrows over both.
    const SvgLegendEntry* arrow = entryOf(picture, Kind::Arrow);
    REQUIRE(arrow != nullptr);
    const std::size_t lastDanger = svg.rfind("class=\"danger\""), firstArrow = svg.find("stroke=\"" + arrow->colour + "\"");
    CHECK(svg.find("fill-opacity=\"0.55\"") < svg.find("class=\"danger\""));
    CHECK(lastDanger < firstArrow);

    // The distance scale: from the goals (0) to the farthest reachable tile, in steps over plain
    // tiles (kStep each).
    std::int64_t farthest = 0;
    for (std::int32_t i = 0; i < map.tileCount(); ++i) {
      if (field.reachable(map.cellAt(i))) farthest = std::max(farthest, field.distance(map.cellAt(i)));
    }
    char far[32];
    std::snprintf(far, sizeof far, "%.1f", double(farthest) / double(CrowdField::kStep));
    const SvgLegendEntry* scale = entryOf(picture, Kind::Gradient);
    REQUIRE(scale != nullptr);
    CHECK(scale->label == "distance to the goals: 0.0 (near) to " + std::string(far) +
                              " tiles (far), weighted by terrain cost and danger");

    // Each goal tile marked, once in the legend.
    const SvgLegendEntry* goal = entryOf(picture, Kind::Goal);
    REQUIRE(goal != nullptr);
    CHECK(goal->label == "goal tiles");
    CHECK(elementsOf(svg, "goal").size() == goals.size() + 1);
  }

  SECTION("without danger: no ramp, no danger tiles, the scale in plain tiles") {
    field.setGoals(std::span<const Cell>(goals.data(), 1));
    SvgPicture picture(map, TerrainTable::kWalk);
    picture.field(field, 0);
    const std::string svg = picture.str();
    CHECK(entryOf(picture, Kind::Ramp) == nullptr);
    CHECK(entryOf(picture, Kind::Arrow) == nullptr);
    CHECK(elementsOf(svg, "danger").empty());
    const SvgLegendEntry* scale = entryOf(picture, Kind::Gradient);
    REQUIRE(scale != nullptr);
    CHECK_THAT(scale->label, Catch::StartsWith("distance to the goals: 0.0 (near) to ") &&
                                 Catch::EndsWith(" tiles (far), weighted by terrain cost"));
    const SvgLegendEntry* goal = entryOf(picture, Kind::Goal);
    REQUIRE(goal != nullptr);
    CHECK(goal->label == "goal tile");
    CHECK(elementsOf(svg, "goal").size() == 2);  // the tile and the legend
  }
}
