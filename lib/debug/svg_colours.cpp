// SPDX-License-Identifier: MIT
// SvgPicture's colours: terrain colours by name, the palettes replacements come from, and the
// CIELAB distance that keeps a legend's entries apart.
#include "debug/svg_impl.hpp"

#include "debug/svg_colours.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <limits>
#include <span>

namespace rpgnav {
namespace {

using Kind = SvgLegendEntry::Kind;

bool contains(std::string_view name, std::string_view word) { return name.find(word) != std::string_view::npos; }

// Where a terrain's own colour comes too close to another's: light tones that stay behind the
// overlays.
constexpr std::array<std::string_view, 12> kTerrainPalette = {"#e0d0f0", "#d0f0e0", "#f0d0c0", "#c0d8f0",
                                                              "#e8e0a0", "#d8c0a8", "#a8c8b8", "#c8a8c8",
                                                              "#b8b8e0", "#f0c8a0", "#a0b8a0", "#d0a0a0"};
// Where an overlay's colour comes too close to an entry already in the legend: saturated
// colours, far from the terrain tones and from each other (no yellow or magenta, so that start
// and goal markers drawn after a replaced overlay still keep theirs).
constexpr std::array<std::string_view, 20> kMarkPalette = {
    "#0050ff", "#00a0a0", "#8b4513", "#000080", "#ff7f0e", "#006400", "#00c0ff", "#ff4500", "#9acd32", "#4b0082",
    "#ff1493", "#808000", "#800000", "#00ff7f", "#d2691e", "#2f4f4f", "#b8860b", "#ba55d3", "#40e0d0", "#a52a2a"};

// The colours a replacement is chosen from: the palette, then a spread of hues at a few
// saturations and brightnesses (pale ones for terrain), so a crowded legend still finds one.
const std::vector<std::string>& candidateColours(bool terrain) {
  auto build = [](std::span<const std::string_view> palette, std::initializer_list<std::pair<double, double>> tones,
                  int hueStep) {
    std::vector<std::string> out(palette.begin(), palette.end());
    for (const auto& [saturation, value] : tones) {
      for (int hue = 0; hue < 360; hue += hueStep) {
        const double c = value * saturation, h = hue / 60.0, x = c * (1.0 - std::abs(std::fmod(h, 2.0) - 1.0));
        const int sector = hue / 60;
        const double r = sector == 0 || sector == 5 ? c : sector == 1 || sector == 4 ? x : 0.0;
        const double g = sector == 1 || sector == 2 ? c : sector == 0 || sector == 3 ? x : 0.0;
        const double b = sector == 3 || sector == 4 ? c : sector == 2 || sector == 5 ? x : 0.0;
        const double m = value - c;
        char colour[8];
        std::snprintf(colour, sizeof colour, "#%02x%02x%02x", int(std::lround((r + m) * 255)),
                      int(std::lround((g + m) * 255)), int(std::lround((b + m) * 255)));
        out.emplace_back(colour);
      }
    }
    return out;
  };
  static const std::vector<std::string> marks = build(kMarkPalette, {{1.0, 1.0}, {1.0, 0.55}, {0.55, 0.95}, {1.0, 0.3}}, 15);
  static const std::vector<std::string> tones = build(kTerrainPalette, {{0.25, 0.95}, {0.35, 0.8}, {0.2, 0.65}}, 30);
  return terrain ? tones : marks;
}

struct Lab {
  double l, a, b;
};

bool toLab(std::string_view colour, Lab& out) {
  std::array<int, 3> rgb{};
  if (!detail::toRgb(colour, rgb)) return false;
  double linear[3];
  for (std::size_t i = 0; i < 3; ++i) {
    const double v = rgb[i] / 255.0;
    linear[i] = v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
  }
  // sRGB to XYZ (D65), then to CIELAB.
  const double x = (0.4124 * linear[0] + 0.3576 * linear[1] + 0.1805 * linear[2]) / 0.95047;
  const double y = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2];
  const double z = (0.0193 * linear[0] + 0.1192 * linear[1] + 0.9505 * linear[2]) / 1.08883;
  auto f = [](double t) { return t > 216.0 / 24389.0 ? std::cbrt(t) : (24389.0 / 27.0 * t + 16.0) / 116.0; };
  out = {116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)), 200.0 * (f(y) - f(z))};
  return true;
}
}  // namespace

namespace detail {

// A colour a reader recognises for common terrain names; neutral tones otherwise. Chosen to keep
// kTerrainContrast from each other where they usually meet (floor and road, grass and forest,
// ford and deep water); SvgPicture moves any that still come too close.
std::string terrainColour(const TerrainTable& table, TerrainId id, MobilityId mobility) {
  const std::string& name = table.terrainName(id);
  if (!table.passable(id, mobility)) {
    if (contains(name, "water") || contains(name, "lake") || contains(name, "river")) return "#4a78b5";
    if (contains(name, "tree") || contains(name, "forest")) return "#2f5d34";
    return "#3a3a3a";
  }
  if (contains(name, "water") || contains(name, "ford")) return "#8fb8e6";
  if (contains(name, "bridge")) return "#9a7245";
  if (contains(name, "road") || contains(name, "cobble") || contains(name, "market")) return "#b8b1a0";
  if (contains(name, "forest") || contains(name, "tree")) return "#6f9e5b";
  if (contains(name, "grass")) return "#b8d69a";
  if (contains(name, "garden")) return "#e8c8d8";
  if (contains(name, "swamp")) return "#5f8a78";
  if (contains(name, "hill")) return "#d8bc7c";
  if (contains(name, "mountain")) return "#9a8c7a";
  if (contains(name, "rubble")) return "#a89a84";
  if (contains(name, "pit")) return "#5c4a3a";
  // Unknown passable terrain: lighter for cheaper.
  const float cost = table.cost(id, mobility);
  return cost <= 1.0f ? "#f2ecdf" : cost <= 2.0f ? "#ddd0b0" : "#c4b08a";
}

// The channels of a #rrggbb colour.
bool toRgb(std::string_view colour, std::array<int, 3>& out) {
  if (colour.size() != 7 || colour[0] != '#') return false;
  for (std::size_t i = 0; i < 3; ++i) {
    out[i] = 0;
    for (std::size_t k = 1 + 2 * i; k < 3 + 2 * i; ++k) {
      const char c = colour[k];
      const int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (digit < 0) return false;
      out[i] = out[i] * 16 + digit;
    }
  }
  return true;
}

}  // namespace detail

double SvgPicture::colourDistance(std::string_view a, std::string_view b) {
  Lab x{}, y{};
  if (!toLab(a, x) || !toLab(b, y)) return std::numeric_limits<double>::infinity();
  return std::sqrt((x.l - y.l) * (x.l - y.l) + (x.a - y.a) * (x.a - y.a) + (x.b - y.b) * (x.b - y.b));
}

std::string SvgPicture::Impl::distinctColour(std::string_view wanted, Kind kind) const {
  const bool terrain = kind == Kind::Terrain;
  // The smallest difference from the legend's entries: terrain against terrain may be closer.
  auto margin = [&](std::string_view colour) {
    double smallest = std::numeric_limits<double>::infinity();
    for (const SvgLegendEntry& entry : m_legend) {
      const double needed = terrain && entry.kind == Kind::Terrain ? kTerrainContrast : kMarkContrast;
      smallest = std::min(smallest, colourDistance(colour, entry.colour) - needed);
    }
    return smallest;
  };
  if (margin(wanted) >= 0.0) return std::string(wanted);
  // A replacement must be plainly different, not just past the line: the candidate nearest the
  // colour asked for among those half as far again from every entry; else among those far
  // enough; else the one farthest from them all. Replacements keep clear of the start and goal
  // colours too, so that markers drawn later keep theirs.
  auto room = [&](std::string_view colour) {
    return terrain ? margin(colour)
                   : std::min({margin(colour), colourDistance(colour, kStartColour) - kMarkContrast,
                               colourDistance(colour, kGoalColour) - kMarkContrast});
  };
  std::string_view best, widest;
  double widestRoom = -std::numeric_limits<double>::infinity();
  const double plain = 0.5 * (terrain ? kTerrainContrast : kMarkContrast);
  for (const double needed : {plain, 0.0}) {
    double bestDistance = std::numeric_limits<double>::infinity();
    for (const std::string& candidate : candidateColours(terrain)) {
      const double space = room(candidate);
      if (space >= needed && colourDistance(candidate, wanted) < bestDistance) {
        bestDistance = colourDistance(candidate, wanted);
        best = candidate;
      }
      if (space > widestRoom) widestRoom = space, widest = candidate;
    }
    if (!best.empty()) break;
  }
  return std::string(best.empty() ? widest : best);
}

}  // namespace rpgnav
