// SPDX-License-Identifier: MIT
#pragma once
/// schedlab-cli subcommands. Each command lives in its own cmd_*.cpp and registers itself with
/// SL_CLI_COMMAND; main() dispatches by name and maps exceptions to exit codes
/// (0 ok, 1 bad input, 2 usage).

#include "args.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sl::cli {

/// A command's --help: fixed text, or made when asked (from the registries, which are complete only
/// once main() has registered every method).
struct HelpText {
    HelpText(std::string text) : make([s = std::move(text)] { return s; }) {}
    HelpText(const char* text) : HelpText(std::string(text)) {}
    HelpText(std::string (*fn)()) : make(fn) {}
    std::function<std::string()> make;
};

struct Command {
    std::string name;
    std::string summary;              ///< one line for the command list
    HelpText help;                    ///< full text for `schedlab-cli NAME --help`
    std::vector<std::string> flags;   ///< options that take no value
    std::function<int(Args&)> run;
    /// Loads the neural module (app/cli/neural.h) before its help and its run: the command lists
    /// or runs neural methods whatever its arguments.
    bool needsNeuralMethods = false;
    /// For a command that runs named items (`bench NAME`): `COMMAND NAME --help` prints
    /// itemHelp(NAME) when that has a value, before any method is registered or module loaded.
    std::function<std::optional<std::string>(const std::string&)> itemHelp;
};

std::vector<Command>& commands();

struct CommandRegistrar {
    explicit CommandRegistrar(Command c) { commands().push_back(std::move(c)); }
};

} // namespace sl::cli

#define SL_CLI_CONCAT2(a, b) a##b
#define SL_CLI_CONCAT(a, b) SL_CLI_CONCAT2(a, b)
/// Registers a command: SL_CLI_COMMAND({"name", "summary", "help", {"flag"}, &runFn});
#define SL_CLI_COMMAND(...) \
    static const ::sl::cli::CommandRegistrar SL_CLI_CONCAT(slCliCommand_, __COUNTER__)(::sl::cli::Command __VA_ARGS__)
