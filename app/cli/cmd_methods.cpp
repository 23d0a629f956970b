// SPDX-License-Identifier: MIT
#include "command.h"

#include "core/optimizer/optimizer.h"

#include <iostream>

namespace sl::cli {
namespace {

int runMethods(Args& args) {
    args.finish(0);
    for (const OptimizerInfo& m : OptimizerRegistry::instance().list()) {
        std::cout << m.name << std::string(m.name.size() < 20 ? 20 - m.name.size() : 1, ' ') << m.summary << "\n";
    }
    return 0;
}

SL_CLI_COMMAND({"methods", "list every registered optimizer with one line",
                "Usage: schedlab-cli methods\nLists every registered optimizer, one per line.\n", {}, &runMethods});

} // namespace
} // namespace sl::cli
