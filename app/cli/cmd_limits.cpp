// SPDX-License-Identifier: MIT
// `schedlab-cli limits`: the input limits in force (core/util/limits.h).
#include "command.h"

#include "core/util/limits.h"

#include <iostream>

namespace sl::cli {
namespace {

int runLimits(Args& args) {
    args.finish(0);
    for (const std::string& line : describeLimits(limits())) std::cout << line << "\n";
    return 0;
}

SL_CLI_COMMAND({"limits", "print the input limits in force (sizes, counts, numeric ranges)",
                "Usage: schedlab-cli [--limit KEY=VALUE ...] limits\n"
                "Prints the limits every reader and command enforces, one per line: key = value (what it\n"
                "bounds). A file or option beyond one is refused with a message naming the file, the item\n"
                "and the limit. Raise or lower them for one call with --limit KEY=VALUE (any command, any\n"
                "position; repeatable) or for a shell with SCHEDLAB_LIMITS=\"ops=10000000,devices=64\".\n",
                {}, &runLimits});

} // namespace
} // namespace sl::cli
