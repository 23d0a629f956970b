// SPDX-License-Identifier: MIT
// schedlab-cli: headless access to every SchedLab optimizer, importer and benchmark.
#include "command.h"
#include "neural.h"

#include "core/dist/distoptions.h"
#include "core/graph/graph.h"
#include "core/optimizer/optimizer.h"
#include "core/util/limits.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <optional>

namespace sl::cli {

std::vector<Command>& commands() {
    static std::vector<Command> list;
    return list;
}

namespace {

void printUsage(std::ostream& out) {
    out << "Usage: schedlab-cli COMMAND [ARGS...]\n"
           "Schedules computation graphs headless: the same optimizers as the SchedLab explorer.\n\n"
           "Commands:\n";
    auto list = commands();
    std::sort(list.begin(), list.end(), [](auto& a, auto& b) { return a.name < b.name; });
    for (const Command& c : list) {
        out << "  " << c.name << std::string(c.name.size() < 12 ? 12 - c.name.size() : 1, ' ') << c.summary << "\n";
    }
    out << "\nRun 'schedlab-cli COMMAND --help' for a command's options.\n"
           "Any command takes --limit KEY=VALUE to change an input limit ('schedlab-cli limits').\n"
           "Exit codes: 0 ok, 1 bad input (the message names the file and the fault), 2 usage error,\n"
           "130 or 143 a distributed rank interrupted while it waited for its peers.\n";
}

/// Applies SCHEDLAB_LIMITS, then takes every `--limit KEY=VALUE` (or `--limit=KEY=VALUE`) out of
/// `args`, whatever the command: the limits hold before any file is read.
void applyLimits(std::vector<std::string>& args) {
    applyLimitsFromEnvironment();
    for (std::size_t i = 0; i < args.size();) {
        std::string spec;
        if (args[i] == "--limit") {
            if (i + 1 >= args.size()) throw UsageError("--limit expects KEY=VALUE");
            spec = args[i + 1];
            args.erase(args.begin() + static_cast<std::ptrdiff_t>(i), args.begin() + static_cast<std::ptrdiff_t>(i + 2));
        } else if (args[i].rfind("--limit=", 0) == 0) {
            spec = args[i].substr(8);
            args.erase(args.begin() + static_cast<std::ptrdiff_t>(i));
        } else {
            ++i;
            continue;
        }
        try {
            setLimits(parseLimits(spec, limits()));
        } catch (const std::invalid_argument& e) {
            throw UsageError(e.what());
        }
    }
}

} // namespace
} // namespace sl::cli

/// A distributed run: c10d logs its connection retries and timeouts through glog, before and
/// beside our own message, which already quotes them (core/dist). Silence glog for such runs
/// unless the user set GLOG_minloglevel; it reads the variable when LibTorch is loaded, later.
static void quietLibTorchLogsIfDistributed(const std::vector<std::string>& args) {
    const std::string world = sl::dist::launcherWorldSize();
    const bool distributed = (!world.empty() && world != "1") ||
                             std::any_of(args.begin(), args.end(), [](const std::string& a) { return a.rfind("--world-size", 0) == 0; });
    if (distributed) ::setenv("GLOG_minloglevel", "3", /*overwrite=*/0);
}

int main(int argc, char** argv) {
    using namespace sl::cli;
    std::vector<std::string> rest(argv + 1, argv + argc);
    quietLibTorchLogsIfDistributed(rest);
    try {
        applyLimits(rest);
    } catch (const std::exception& e) {
        std::cerr << "schedlab-cli: " << e.what() << "\n";
        return 2;
    }
    if (rest.empty() || rest[0] == "--help" || rest[0] == "-h" || rest[0] == "help") {
        printUsage(rest.empty() ? std::cerr : std::cout);
        return rest.empty() ? 2 : 0;
    }
    const std::string name = rest[0];
    rest.erase(rest.begin());
    const auto& list = commands();
    auto it = std::find_if(list.begin(), list.end(), [&](const Command& c) { return c.name == name; });
    if (it == list.end()) {
        std::cerr << "schedlab-cli: unknown command '" << name << "'\n\n";
        printUsage(std::cerr);
        return 2;
    }
    const bool wantsHelp = std::find(rest.begin(), rest.end(), "--help") != rest.end() ||
                           std::find(rest.begin(), rest.end(), "-h") != rest.end();
    if (wantsHelp && it->itemHelp && !rest.empty() && rest[0] != "--help" && rest[0] != "-h")
        if (const std::optional<std::string> help = it->itemHelp(rest[0])) {
            std::cout << *help;
            return 0;
        }
    sl::registerCoreOptimizers();   // the neural methods come with their module, when a command needs them
    if (it->needsNeuralMethods) loadNeuralMethods();
    if (wantsHelp && name == "train" && !rest.empty() && rest[0].rfind('-', 0) != 0)
        rest = {rest[0], "help"};   // `train MODEL --help` is `train MODEL help`: that model's options
    else if (wantsHelp) {
        std::cout << it->help.make();
        return 0;
    }
    try {
        std::vector<std::string> flags = it->flags;
        flags.push_back("shared-links");
        flags.push_back("free-links");   // a problem option (problemargs.cpp): a flag wherever it is taken
        Args args(rest, flags);
        return it->run(args);
    } catch (const UsageError& e) {
        std::cerr << "schedlab-cli " << name << ": " << e.what() << "\n(see 'schedlab-cli " << name << " --help')\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "schedlab-cli " << name << ": " << e.what() << "\n";
        return 1;
    }
}
