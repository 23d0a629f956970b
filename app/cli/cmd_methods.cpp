// SPDX-License-Identifier: MIT
#include "command.h"
#include "neural.h"

#include "core/optimizer/optimizer.h"

#include <iostream>

namespace sl::cli {
namespace {

std::string pad(const std::string& s, std::size_t width) { return s + std::string(s.size() < width ? width - s.size() : 1, ' '); }

int runMethods(Args& args) {
    args.finish(0);
    for (const OptimizerInfo& m : OptimizerRegistry::instance().list()) {
        std::string objectives;
        for (const Objective o : m.objectives) objectives += (objectives.empty() ? "" : ",") + toString(o);
        std::cout << pad(m.name, 18) << pad(objectives, 22) << m.summary;
        if (m.devices > 0) std::cout << " [" << m.devices << " devices]";
        std::cout << "\n";
    }
    if (const neural::ModuleStatus& s = loadNeuralMethods(); !s.available)
        std::cerr << "note: the neural methods are unavailable: " << s.error << "\n";
    return 0;
}

SL_CLI_COMMAND({"methods", "list every registered optimizer with the objectives it is built for",
                "Usage: schedlab-cli methods\n"
                "Lists every registered optimizer, one per line: its name, the objectives it is built for\n"
                "(the first is its natural one; 'optimize --objective' accepts only these) and a summary;\n"
                "'[N devices]' marks a learned model whose shipped weights fix the device count.\n"
                "'schedlab-cli optimize --help' lists each method's own options.\n",
                {}, &runMethods, /*needsNeuralMethods=*/true});

} // namespace
} // namespace sl::cli
