// SPDX-License-Identifier: MIT
#pragma once
/// Child processes for the benchmarks that time whole commands (bench startup, bench
/// distributed): started with posix_spawn, the environment extended, stdin on /dev/null.

#include <string>
#include <sys/types.h>
#include <vector>

namespace sl::cli {

struct SpawnOptions {
    std::vector<std::string> extraEnv;   ///< "KEY=VALUE", replacing any KEY already set
    bool captureStdout = false;          ///< else stdout goes to /dev/null
    std::string stderrFile;              ///< empty: /dev/null
};

struct Started {
    pid_t pid = -1;
    int stdoutFd = -1;   ///< the read end, when captured
    double startedAt = 0;
};

struct Finished {
    double seconds = 0;     ///< from start to exit
    int exitCode = -1;      ///< -1 if killed by a signal
    std::string output;     ///< stdout, when captured
};

/// Starts `argv` (argv[0] a path); throws std::runtime_error if it cannot.
Started spawnProcess(const std::vector<std::string>& argv, const SpawnOptions& options);
/// Reads its captured stdout to the end and waits for it.
Finished waitFor(const Started& started);
/// spawnProcess then waitFor.
Finished spawnAndWait(const std::vector<std::string>& argv, const SpawnOptions& options);

} // namespace sl::cli
