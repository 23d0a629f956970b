// SPDX-License-Identifier: MIT
#include "models/distributed/localrendezvous.h"

#include "core/dist/communicator.h"

#include <torch/csrc/distributed/c10d/FileStore.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sl::models {

using dist::DistError;

namespace {

std::string describeErrno() { return std::strerror(errno); }

/// An open descriptor of `path` (created 0600 if missing), or throws.
int openLockFile(const std::string& path, const std::string& who) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) throw DistError(who + ": cannot open " + path + " (" + describeErrno() + ")");
    return fd;
}

/// True if another process holds an exclusive lock on `path` (a missing file: false).
bool heldByAnother(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    const bool held = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    ::close(fd);   // also drops the shared lock, if we got it
    return held;
}

std::string readRunFile(const std::string& path) {
    std::ifstream in(path);
    std::string nonce;
    in >> nonce;
    return nonce;
}

std::string freshNonce() {
    std::random_device device;
    char text[17];
    std::snprintf(text, sizeof text, "%08x%08x", device(), device());
    return text;
}

void closeFd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

} // namespace

std::string LocalRendezvous::folder() {
    const char* runtime = std::getenv("XDG_RUNTIME_DIR");
    const std::string path = runtime && *runtime ? std::string(runtime) + "/schedlab" : "/tmp/schedlab-" + std::to_string(::getuid());
    const std::string who = "distributed: the local rendezvous folder " + path;
    if (::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST) throw DistError(who + " cannot be made (" + describeErrno() + ")");
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) throw DistError(who + " cannot be read (" + describeErrno() + ")");
    // Another user's folder, a symbolic link or a folder others may enter would let them into the run.
    if (!S_ISDIR(st.st_mode) || st.st_uid != ::getuid() || (st.st_mode & 077) != 0)
        throw DistError(who + " is not a folder of this user's that only it may enter (mode 0700); remove it");
    return path;
}

LocalRendezvous::LocalRendezvous(const dist::DistOptions& o, std::chrono::steady_clock::time_point deadline)
    : m_options(o), m_folder(folder()), m_base(m_folder + "/" + std::to_string(o.port)) {
    const std::string who = "distributed: " + o.describe();
    if (o.isRoot()) openRun(who);
    else joinRun(who, deadline);
    m_aliveFd = openLockFile(aliveFile(o.rank), who);
    ::flock(m_aliveFd, LOCK_EX);
}

void LocalRendezvous::openRun(const std::string& who) {
    m_lockFd = openLockFile(m_base + ".lock", who);
    if (::flock(m_lockFd, LOCK_EX | LOCK_NB) != 0)
        throw DistError(who + ": another run is using the local rendezvous on port " + std::to_string(m_options.port) +
                        "; pick another with --master 127.0.0.1:PORT");
    // What a run that died left: its run file and stores (nobody else can be using them now).
    std::filesystem::remove(m_base + ".run");
    const std::string runPrefix = std::to_string(m_options.port) + "-";
    for (const auto& entry : std::filesystem::directory_iterator(m_folder))
        if (entry.path().filename().string().rfind(runPrefix, 0) == 0) std::filesystem::remove(entry.path());
    const std::string nonce = freshNonce();
    openStore(nonce);
    m_liveFd = openLockFile(m_base + ".live", who);
    if (::flock(m_liveFd, LOCK_EX) != 0) throw DistError(who + ": cannot lock " + m_base + ".live (" + describeErrno() + ")");
    const std::string tmp = m_base + ".run.tmp";
    std::ofstream(tmp) << nonce << "\n";
    std::filesystem::rename(tmp, m_base + ".run");
}

void LocalRendezvous::joinRun(const std::string& who, std::chrono::steady_clock::time_point deadline) {
    // Held first, read second: a held PORT.live means the run file is rank 0's, or not yet written.
    std::string nonce;
    while (!(heldByAnother(m_base + ".live") && !(nonce = readRunFile(m_base + ".run")).empty())) {
        if (std::chrono::steady_clock::now() >= deadline)
            throw DistError(who + ": rank 0 did not open the local rendezvous on port " + std::to_string(m_options.port) +
                            " within " + std::to_string(static_cast<int>(m_options.timeoutSeconds)) +
                            " s; is rank 0 running with the same --master?");
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    openStore(nonce);
}

void LocalRendezvous::openStore(const std::string& nonce) {
    m_run = m_base + "-" + nonce;
    m_store = c10::make_intrusive<c10d::FileStore>(m_run + ".store", m_options.worldSize);
}

std::string LocalRendezvous::aliveFile(int rank) const { return m_run + ".rank" + std::to_string(rank) + ".alive"; }

LocalRendezvous::~LocalRendezvous() {
    m_store.reset();   // the last rank's FileStore removes the store file
    std::error_code ec;
    if (m_aliveFd >= 0) std::filesystem::remove(aliveFile(m_options.rank), ec);
    closeFd(m_aliveFd);
    if (m_options.isRoot())   // the run file first: late joiners must not find a finished run
        for (const char* suffix : {".run", ".live", ".lock"}) std::filesystem::remove(m_base + suffix, ec);
    closeFd(m_liveFd);
    closeFd(m_lockFd);
}

void LocalRendezvous::setFromAnotherThread(const std::string& key, const std::string& value) const {
    // Never destroyed on purpose: a FileStore's destructor counts a rank as finished, and the
    // last one to finish deletes the file under the peers still using it.
    auto* handle = new c10d::FileStore(m_run + ".store", m_options.worldSize);
    handle->set(key, std::vector<std::uint8_t>(value.begin(), value.end()));
}

std::vector<int> LocalRendezvous::departedRanks() const {
    std::vector<int> gone;
    for (int r = 0; r < m_options.worldSize; ++r)
        if (r != m_options.rank && !heldByAnother(aliveFile(r))) gone.push_back(r);
    return gone;
}

} // namespace sl::models
