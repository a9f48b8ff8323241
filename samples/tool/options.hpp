// SPDX-License-Identifier: MIT
#pragma once
// The command line of one rpgnav subcommand: its options and positional arguments, declared once
// and read in one place, so that every command words a bad, unknown or missing argument the same
// way: "rpgnav CMD: what is wrong", then the command's usage, exit code kExitUsage.

#include "commands.hpp"

#include "rpgnav/core/types.hpp"

#include <charconv>
#include <functional>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace rpgnav::tool {

// Exit codes shared by every command.
inline constexpr int kExitFailure = 1;  // the command ran and failed (a bad file, no path, a mismatch)
inline constexpr int kExitUsage = 2;    // the command line itself is wrong

// Stores an option's value; false when the text does not have the option's form.
using ValueReader = std::function<bool(std::string_view)>;

class CommandLine {
 public:
  // `command` names the command in messages ("rpgnav path"); `usage` follows every usage error
  // and is what --help prints.
  CommandLine(std::string_view command, std::string_view usage);

  // An option without a value: `out` becomes true when it is given.
  void flag(std::string_view name, bool& out);
  // An option with a value; `form` says what the value must look like, for the message when it
  // does not ("X,Y in world units"). Given more than once, each value is read in turn.
  void option(std::string_view name, std::string_view form, ValueReader read);
  // An option whose value is any text: a file or mobility name.
  void option(std::string_view name, std::string& out);
  // The next positional argument, named for messages ("MAP"). Optional ones come after the rest.
  void positional(std::string_view name, std::string& out, bool required = true);

  // Reads `args` into the declared places. Nothing when the command should go on; otherwise the
  // exit code to return at once: 0 after --help printed the usage, kExitUsage after a usage error
  // (said on stderr, with the usage).
  std::optional<int> parse(Arguments args);

  // For what a command checks after parse() (a required option missing, options that exclude
  // each other): prints "COMMAND: message" and the usage on stderr; returns kExitUsage.
  int usageError(std::string_view message) const;

 private:
  struct Option {
    std::string name;
    std::string form;  // empty for a flag
    ValueReader read;
  };
  struct Positional {
    std::string name;
    std::string* out;
    bool required;
  };

  const Option* find(std::string_view name) const;
  int unknownOption(std::string_view name) const;

  std::string m_command;
  std::string m_usage;
  std::vector<Option> m_options;
  std::vector<Positional> m_positionals;
};

// The candidate nearest to `typed` by edit distance (a swap of two neighbouring letters counts
// as one edit), when it is near enough to be what was meant; candidates tie in their order.
std::optional<std::string_view> closestName(std::string_view typed, std::span<const std::string_view> candidates);

// Value readers: the whole text must be the value. Numbers as std::from_chars reads them (no
// leading '+' or spaces; "nan" and "inf" are numbers, for the library to judge).
template <class T>
bool readNumber(std::string_view text, T& out) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  return error == std::errc() && end == text.data() + text.size();
}
// "X,Y" as two numbers.
bool readPoint(std::string_view text, Vec2& out);
// "X,Y" as two whole numbers.
bool readCell(std::string_view text, Cell& out);
// A danger factor: a whole number from 0 to 255.
bool readDangerFactor(std::string_view text, std::optional<std::uint8_t>& out);

}  // namespace rpgnav::tool
