// SPDX-License-Identifier: MIT
// SvgPicture's public face: every call goes to the document it holds (svg_impl.hpp).
#include "debug/svg_impl.hpp"

namespace rpgnav {

SvgPicture::SvgPicture(const TileMap& map, MobilityId mobility, float pixelsPerTile)
    : m_impl(std::make_unique<Impl>(map, mobility, pixelsPerTile)) {}
SvgPicture::SvgPicture(SvgPicture&&) noexcept = default;
SvgPicture& SvgPicture::operator=(SvgPicture&&) noexcept = default;
SvgPicture::~SvgPicture() = default;
const std::vector<SvgLegendEntry>& SvgPicture::legend() const noexcept { return m_impl->m_legend; }
void SvgPicture::tiles(const std::vector<Cell>& cells, std::string_view colour, std::string_view label) {
  m_impl->tiles(cells, colour, label);
}
void SvgPicture::polyline(const std::vector<Vec2>& points, std::string_view colour, float width, bool dashed,
                          std::string_view label) {
  m_impl->polyline(points, colour, width, dashed, label);
}
void SvgPicture::curve(const std::vector<Vec2>& points, std::string_view colour, float width,
                       std::string_view label) {
  m_impl->curve(points, colour, width, label);
}
void SvgPicture::route(const SmoothPath& path, float radius, std::string_view colour, std::string_view label,
                       std::span<const Vec2> controlPoints) {
  m_impl->route(path, radius, colour, label, controlPoints);
}
void SvgPicture::trail(const std::vector<Vec2>& points, float radius, std::string_view colour,
                       std::string_view label, bool markEnds) {
  m_impl->trail(points, radius, colour, label, markEnds);
}
void SvgPicture::start(Vec2 point, float radius, std::string_view label) { m_impl->start(point, radius, label); }
void SvgPicture::goal(Vec2 point, float radius, std::string_view label) { m_impl->goal(point, radius, label); }
void SvgPicture::world(const World& world, bool movingEntities) { m_impl->world(world, movingEntities); }
void SvgPicture::field(const CrowdField& field, int arrowEvery) { m_impl->field(field, arrowEvery); }
void SvgPicture::danger(const DangerMap& danger, std::uint8_t factor) { m_impl->danger(danger, factor); }
void SvgPicture::marker(Vec2 point, std::string_view colour, std::string_view label) {
  m_impl->marker(point, colour, label);
}
std::string SvgPicture::str() const { return m_impl->str(); }
Status SvgPicture::save(const std::filesystem::path& path) const { return m_impl->save(path); }

}  // namespace rpgnav
