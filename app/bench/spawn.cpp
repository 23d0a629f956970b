// SPDX-License-Identifier: MIT
#include "spawn.h"

#include <chrono>
#include <fcntl.h>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace sl::cli {

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

} // namespace

Started spawnProcess(const std::vector<std::string>& argv, const SpawnOptions& o) {
    std::vector<std::string> envStore;
    for (char** e = environ; *e; ++e) envStore.emplace_back(*e);
    for (const std::string& kv : o.extraEnv) {
        const std::string key = kv.substr(0, kv.find('=') + 1);
        std::erase_if(envStore, [&](const std::string& have) { return have.rfind(key, 0) == 0; });
        envStore.push_back(kv);
    }
    std::vector<char*> env, args;
    for (std::string& s : envStore) env.push_back(s.data());
    env.push_back(nullptr);
    std::vector<std::string> argStore = argv;
    for (std::string& s : argStore) args.push_back(s.data());
    args.push_back(nullptr);

    int pipeFds[2] = {-1, -1};
    if (o.captureStdout && pipe(pipeFds) != 0) throw std::runtime_error("pipe failed");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, o.stderrFile.empty() ? "/dev/null" : o.stderrFile.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (o.captureStdout) {
        posix_spawn_file_actions_adddup2(&actions, pipeFds[1], 1);
        posix_spawn_file_actions_addclose(&actions, pipeFds[0]);
    } else {
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    }
    Started s;
    s.startedAt = now();
    const int rc = posix_spawn(&s.pid, args[0], &actions, nullptr, args.data(), env.data());
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) throw std::runtime_error("cannot start " + argv[0]);
    if (o.captureStdout) {
        close(pipeFds[1]);
        s.stdoutFd = pipeFds[0];
    }
    return s;
}

Finished waitFor(const Started& s) {
    Finished out;
    if (s.stdoutFd >= 0) {
        char buffer[4096];
        for (ssize_t n; (n = read(s.stdoutFd, buffer, sizeof buffer)) > 0;) out.output.append(buffer, static_cast<std::size_t>(n));
        close(s.stdoutFd);
    }
    int status = 0;
    waitpid(s.pid, &status, 0);
    out.seconds = now() - s.startedAt;
    out.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return out;
}

Finished spawnAndWait(const std::vector<std::string>& argv, const SpawnOptions& options) {
    return waitFor(spawnProcess(argv, options));
}

} // namespace sl::cli
