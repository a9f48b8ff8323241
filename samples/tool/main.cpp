// SPDX-License-Identifier: MIT
// rpgnav: command-line tool over the rpgnav library.
#include "commands.hpp"

#include <cstdio>
#include <string_view>
#include <vector>

namespace {

constexpr const char* kUsage =
    "usage: rpgnav <command> [arguments]\n"
    "\n"
    "commands:\n"
    "  info MAP          layout, size, terrain histogram and connected regions of a .map or .rpgmap\n"
    "  path MAP (--from X,Y --to X,Y | --queries FILE|-) [--mobility NAME] [--radius R] [--json]\n"
    "                    the character pipeline: control points, lengths, costs, stage timings\n"
    "  scen MAP SCEN [--limit N] [--csv] [--mobility NAME] [--no-jump-points] [--pipeline]\n"
    "                    A* on Moving AI scenario lines; exit 1 on any mismatch with the optimum\n"
    "  sim MAP [--characters N] [--seconds S] [--fps F] [--seed K] [--svg FILE]\n"
    "                    characters wander under the replan scheduler; its cost per frame and events\n"
    "  field MAP --goal X,Y [--danger FILE] [--factor F] [--svg FILE]\n"
    "                    a crowd field towards the goal: build time, reachable tiles, digest, picture\n"
    "  demo [--maps DIR] walk through the bundled sample dungeon\n"
    "  help              this text\n";

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
};

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string_view> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  if (args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  for (const Command& command : kCommands) {
    if (command.name == args[0]) return command.run(rpgnav::tool::Arguments(args).subspan(1));
  }
  std::fprintf(stderr, "rpgnav: unknown command '%.*s'\n\n%s", int(args[0].size()), args[0].data(), kUsage);
  return 2;
}
