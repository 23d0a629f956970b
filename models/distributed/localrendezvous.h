// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The rendezvous of a run whose ranks all share this machine (a loopback master): c10d's
/// FileStore in a folder only this user can enter, so no socket listens for it (c10d's TCPStore
/// listens on every interface and trusts whoever connects). docs/distributed.md has the files.
///
/// Rank 0 owns the run: it takes PORT.lock (a second rank 0 on the port is refused), removes what
/// a dead run left, makes a fresh store PORT-NONCE.store, takes PORT.live and names the store in
/// PORT.run. The other ranks wait until PORT.live is held, then open the store PORT.run names:
/// PORT.live is taken only after the clean-up, so they never open a dead run's store. Every rank
/// holds PORT-NONCE.rankR.alive for its life, so its peers can tell a rank that left from a slow
/// one. flock(2) locks are released by the kernel when a process dies, however it dies.

#include "core/dist/distoptions.h"

#include <torch/csrc/distributed/c10d/Store.hpp>

#include <chrono>
#include <string>
#include <vector>

namespace sl::models {

class LocalRendezvous {
public:
    /// Opens (rank 0) or joins the run's store; joining waits until `deadline`, polling every
    /// 20 ms. Throws dist::DistError: the folder is not private, the port's run is taken, or rank 0
    /// did not open it in time.
    LocalRendezvous(const dist::DistOptions& options, std::chrono::steady_clock::time_point deadline);
    ~LocalRendezvous();
    LocalRendezvous(const LocalRendezvous&) = delete;
    LocalRendezvous& operator=(const LocalRendezvous&) = delete;

    const c10::intrusive_ptr<c10d::Store>& store() const { return m_store; }
    /// Sets `key` through a handle of its own, for a thread other than the one using store()
    /// (a rank that leaves while its own thread is blocked in a collective).
    void setFromAnotherThread(const std::string& key, const std::string& value) const;
    /// Ranks whose process is gone (their alive lock is free).
    std::vector<int> departedRanks() const;

    /// The private folder: $XDG_RUNTIME_DIR/schedlab, else /tmp/schedlab-UID (mode 0700, ours).
    static std::string folder();

private:
    void openRun(const std::string& who);   ///< rank 0
    void joinRun(const std::string& who, std::chrono::steady_clock::time_point deadline);
    void openStore(const std::string& nonce);
    std::string aliveFile(int rank) const;

    dist::DistOptions m_options;
    std::string m_folder;
    std::string m_base;   ///< folder/PORT
    std::string m_run;    ///< folder/PORT-NONCE: the store and the alive files are named after it
    int m_lockFd = -1, m_liveFd = -1, m_aliveFd = -1;
    c10::intrusive_ptr<c10d::Store> m_store;
};

} // namespace sl::models
