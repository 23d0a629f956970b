// SPDX-License-Identifier: MIT
#include "distargs.h"

#include <cerrno>
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

void reportShare(const dist::DistOptions& options, const std::string& what) {
    const std::string line = "schedlab-cli: " + options.describe() + ": " + what + "; rank 0 prints the table\n";
    for (std::size_t done = 0; done < line.size();) {   // one call unless interrupted (a pipe takes up to PIPE_BUF at once)
        const ssize_t n = ::write(STDERR_FILENO, line.data() + done, line.size() - done);
        if (n <= 0 && errno != EINTR) return;
        if (n > 0) done += static_cast<std::size_t>(n);
    }
}

} // namespace sl::cli
