// SPDX-License-Identifier: MIT
#pragma once
// The rpgnav tool's subcommands. Each returns the process exit code; errors go to stderr.

#include <span>
#include <string>
#include <string_view>

namespace rpgnav::tool {

using Arguments = std::span<const std::string_view>;

int infoCommand(Arguments args);
int demoCommand(Arguments args);
int scenCommand(Arguments args);
int pathCommand(Arguments args);
int simCommand(Arguments args);
int fieldCommand(Arguments args);
int replayCommand(Arguments args);

/// Where the bundled sample maps are: PREFIX/share/rpgnav/maps for an installed tool, else the
/// source tree's samples/maps.
std::string sampleMapsDir();

}  // namespace rpgnav::tool
