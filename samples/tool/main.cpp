// SPDX-License-Identifier: MIT
// rpgnav: command-line tool over the rpgnav library.
#include "commands.hpp"
#include "options.hpp"

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr const char* kUsage =
    "usage: rpgnav <command> [arguments]\n"
    "\n"
    "commands (MAP: .rpgmap, Moving AI .map, or Tiled .tmx/.tmj):\n"
    "  info MAP          layout, size, terrain histogram and costs, connected regions, doors and entities\n"
    "  path MAP (--from X,Y --to X,Y | --queries FILE|-) [--mobility NAME] [--radius R] [--json]\n"
    "           [--comfort C] [--svg FILE] [--any-angle | --8-way] [--entities FILE] [--danger-factor F]\n"
    "           [--nearest]\n"
    "                    the character pipeline: control points, lengths, costs, stage timings, picture\n"
    "                    (danger weighed in at the map's danger-factor, or F; --nearest: an unreachable\n"
    "                    goal leads to the nearest reachable tile)\n"
    "  scen MAP SCEN [--limit N] [--csv] [--mobility NAME] [--no-jump-points] [--pipeline]\n"
    "                [--any-angle | --8-way] [--radius R] [--jump-points-only]\n"
    "                    A* on Moving AI scenario lines; exit 1 on any mismatch with the optimum\n"
    "                    (--radius: a body R world units wide, checked against A* without jump points;\n"
    "                    --jump-points-only: the timed search returns its jump points, not every tile)\n"
    "  sim MAP [--characters N] [--seconds S] [--fps F] [--seed K] [--budget-us U | --budget-expansions E]\n"
    "          [--radius R] [--speed V] [--no-avoidance] [--horde [--horde-field tracked|bounded]\n"
    "          [--field-budget-us U | --field-budget T]] [--svg FILE] [--danger-factor F]\n"
    "                    characters wander under the replan scheduler, passing each other by local\n"
    "                    avoidance (--no-avoidance: each on its curve; --horde: chase one target along a\n"
    "                    shared crowd field that tracks it, refreshed in slices of U us or T tiles a frame,\n"
    "                    or bounded by the monsters); cost per frame, events, stuck time, overlaps, digest, trails\n"
    "  field MAP --goal X,Y [--goal X,Y ...] [--mobility NAME] [--danger FILE] [--factor F]\n"
    "        [--bash-doors TILES] [--svg FILE]\n"
    "                    a crowd field towards goal points (world units) with the map's danger layers,\n"
    "                    factor and doors: build time, reachable tiles, digest, picture\n"
    "  replay MAP SCRIPT|- [--json] [--verify]\n"
    "                    world events in order (tile, rect, cost and door edits) and the paths planned\n"
    "                    between them on navigation data updated in place: each plan, edit_us, plan_us\n"
    "  demo [--maps DIR] [--svg FILE]\n"
    "                    walk through the bundled sample dungeon\n"
    "  version           the tool's version (also --version)\n"
    "  help              this text (COMMAND --help: that command's usage)\n"
    "\n"
    "exit codes: 0 done, 1 failed (a bad file, no path, a mismatch), 2 a wrong command line\n";

struct Command {
  std::string_view name;
  int (*run)(rpgnav::tool::Arguments);
};

constexpr Command kCommands[] = {
    {"info", &rpgnav::tool::infoCommand},
    {"demo", &rpgnav::tool::demoCommand},
    {"scen", &rpgnav::tool::scenCommand},
    {"path", &rpgnav::tool::pathCommand},
    {"sim", &rpgnav::tool::simCommand},
    {"field", &rpgnav::tool::fieldCommand},
    {"replay", &rpgnav::tool::replayCommand},
};

}  // namespace

int main(int argc, char** argv) {
  using rpgnav::tool::kExitUsage;
  std::vector<std::string_view> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::fputs(kUsage, stderr);
    return kExitUsage;
  }
  if (args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (args[0] == "version" || args[0] == "--version") {
    std::puts("rpgnav " RPGNAV_VERSION);
    return 0;
  }
  std::vector<std::string_view> names{"help", "version"};
  for (const Command& command : kCommands) {
    if (command.name == args[0]) return command.run(rpgnav::tool::Arguments(args).subspan(1));
    names.push_back(command.name);
  }
  std::string message = "unknown command '" + std::string(args[0]) + "'";
  if (const auto meant = rpgnav::tool::closestName(args[0], names)) {
    message += " (did you mean '" + std::string(*meant) + "'?)";
  }
  std::fprintf(stderr, "rpgnav: %s\n\n%s", message.c_str(), kUsage);
  return kExitUsage;
}
