// SPDX-License-Identifier: MIT
#include "options.hpp"

#include <algorithm>
#include <cstdio>

namespace rpgnav::tool {
namespace {

// Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`: the optimal string
// alignment distance. Swaps count once because "--raduis" is one slip of the fingers, not two.
std::size_t editDistance(std::string_view a, std::string_view b) {
  const std::size_t columns = b.size() + 1;
  std::vector<std::size_t> rows(3 * columns);  // the rows for a's prefixes i - 2, i - 1 and i
  auto at = [&](std::size_t i, std::size_t j) -> std::size_t& { return rows[(i % 3) * columns + j]; };
  for (std::size_t i = 0; i <= a.size(); ++i) {
    for (std::size_t j = 0; j <= b.size(); ++j) {
      if (i == 0 || j == 0) {
        at(i, j) = i + j;
        continue;
      }
      const std::size_t replace = at(i - 1, j - 1) + (a[i - 1] == b[j - 1] ? 0 : 1);
      std::size_t best = std::min({at(i - 1, j) + 1, at(i, j - 1) + 1, replace});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) best = std::min(best, at(i - 2, j - 2) + 1);
      at(i, j) = best;
    }
  }
  return at(a.size(), b.size());
}

std::string_view withoutDashes(std::string_view name) {
  return name.substr(std::min(name.find_first_not_of('-'), name.size()));
}

bool looksLikeOption(std::string_view arg) { return arg.size() > 1 && arg[0] == '-'; }

}  // namespace

std::optional<std::string_view> closestName(std::string_view typed, std::span<const std::string_view> candidates) {
  // A unique candidate that begins with what was typed is what was meant ("--rad": "--radius").
  if (withoutDashes(typed).size() >= 2) {
    const auto begins = [&](std::string_view name) { return name.starts_with(typed); };
    if (std::count_if(candidates.begin(), candidates.end(), begins) == 1) {
      return *std::find_if(candidates.begin(), candidates.end(), begins);
    }
  }
  // About one slip per three letters; closer than that to nothing, the word was not a typo.
  const std::size_t allowed = (withoutDashes(typed).size() + 2) / 3;
  std::optional<std::string_view> best;
  std::size_t bestDistance = allowed + 1;
  for (std::string_view name : candidates) {
    if (const std::size_t distance = editDistance(typed, name); distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

bool readPoint(std::string_view text, Vec2& out) {
  const std::size_t comma = text.find(',');
  float x = 0.0f, y = 0.0f;
  if (comma == std::string_view::npos || !readNumber(text.substr(0, comma), x) ||
      !readNumber(text.substr(comma + 1), y)) {
    return false;
  }
  out = Vec2(x, y);
  return true;
}

bool readDangerFactor(std::string_view text, std::optional<std::uint8_t>& out) {
  int factor = 0;
  if (!readNumber(text, factor) || factor < 0 || factor > 255) return false;
  out = std::uint8_t(factor);
  return true;
}

bool readCell(std::string_view text, Cell& out) {
  const std::size_t comma = text.find(',');
  return comma != std::string_view::npos && readNumber(text.substr(0, comma), out.x) &&
         readNumber(text.substr(comma + 1), out.y);
}

CommandLine::CommandLine(std::string_view command, std::string_view usage) : m_command(command), m_usage(usage) {}

void CommandLine::flag(std::string_view name, bool& out) {
  m_options.push_back({std::string(name), "", [&out](std::string_view) { return out = true; }});
}

void CommandLine::option(std::string_view name, std::string_view form, ValueReader read) {
  m_options.push_back({std::string(name), std::string(form), std::move(read)});
}

void CommandLine::option(std::string_view name, std::string& out) {
  option(name, "a value", [&out](std::string_view value) {
    out = std::string(value);
    return true;
  });
}

void CommandLine::positional(std::string_view name, std::string& out, bool required) {
  m_positionals.push_back({std::string(name), &out, required});
}

const CommandLine::Option* CommandLine::find(std::string_view name) const {
  const auto found = std::find_if(m_options.begin(), m_options.end(), [&](const Option& o) { return o.name == name; });
  return found == m_options.end() ? nullptr : &*found;
}

int CommandLine::usageError(std::string_view message) const {
  std::fprintf(stderr, "%s: %.*s\n%s", m_command.c_str(), int(message.size()), message.data(), m_usage.c_str());
  return kExitUsage;
}

int CommandLine::unknownOption(std::string_view name) const {
  std::vector<std::string_view> names{"--help"};
  for (const Option& option : m_options) names.push_back(option.name);
  std::string message = "unknown option '" + std::string(name) + "'";
  if (const auto meant = closestName(name, names)) message += " (did you mean '" + std::string(*meant) + "'?)";
  return usageError(message);
}

std::optional<int> CommandLine::parse(Arguments args) {
  std::size_t nextPositional = 0;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(m_usage.c_str(), stdout);
      return 0;
    }
    if (!looksLikeOption(arg)) {  // "-" alone is a value: standard input
      if (nextPositional == m_positionals.size()) return usageError("unexpected argument '" + std::string(arg) + "'");
      *m_positionals[nextPositional++].out = std::string(arg);
      continue;
    }
    const Option* option = find(arg);
    if (option == nullptr) return unknownOption(arg);
    // A value may start with one '-' (a negative number, "-" for standard input) but not two:
    // "--radius --json" forgot the radius rather than meaning a radius of "--json".
    const bool flag = option->form.empty();
    if (!flag && (i + 1 == args.size() || args[i + 1].starts_with("--"))) {
      return usageError("option '" + option->name + "' needs a value");
    }
    const std::string_view value = flag ? std::string_view() : args[++i];
    if (!option->read(value)) {
      return usageError(option->name + " expects " + option->form + ", got '" + std::string(value) + "'");
    }
  }
  for (std::size_t p = nextPositional; p < m_positionals.size(); ++p) {
    if (m_positionals[p].required) return usageError("missing " + m_positionals[p].name);
  }
  return std::nullopt;
}

}  // namespace rpgnav::tool
