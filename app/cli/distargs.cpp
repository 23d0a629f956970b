// SPDX-License-Identifier: MIT
#include "distargs.h"

#include <cstdio>
#include <iostream>
#include <fcntl.h>
#include <unistd.h>

namespace sl::cli {

dist::DistOptions takeDistOptions(Args& args) {
    dist::DistFlags f;
    f.worldSize = args.take("world-size");
    f.rank = args.take("rank");
    f.master = args.take("master");
    f.timeout = args.take("dist-timeout");
    try {
        return dist::resolveDistOptions(f);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
}

void stdoutToNull() {
    std::fflush(stdout);
    std::cout.flush();
    const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null < 0) return;
    ::dup2(null, STDOUT_FILENO);
    ::close(null);
}

void quietUnlessRoot(const dist::DistOptions& options) {
    if (!options.isRoot()) stdoutToNull();
}

} // namespace sl::cli
