// SPDX-License-Identifier: MIT
#include "shard.h"

#include "app/cli/distargs.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <limits>
#include <map>
#include <stdexcept>
#include <unistd.h>

namespace sl::cli {

namespace {

enum class Mode { Alone, Collect, Replay };

struct ShardState {
    Mode mode = Mode::Alone;
    dist::DistOptions options;
    std::size_t next = 0;                                 ///< the next item's index
    std::map<std::size_t, std::vector<double>> results;   ///< Collect: this rank's; Replay: all
};

ShardState& state() {
    static ShardState s;
    return s;
}

/// Standard output goes to /dev/null while it lives (the collecting pass prints nothing).
class SilencedStdout {
public:
    SilencedStdout() {
        std::fflush(stdout);
        std::cout.flush();
        m_saved = ::dup(STDOUT_FILENO);
        stdoutToNull();
    }
    ~SilencedStdout() {
        std::fflush(stdout);
        std::cout.flush();
        if (m_saved >= 0) {
            ::dup2(m_saved, STDOUT_FILENO);
            ::close(m_saved);
        }
    }
    SilencedStdout(const SilencedStdout&) = delete;
    SilencedStdout& operator=(const SilencedStdout&) = delete;

private:
    int m_saved = -1;
};

// Wire format of one rank's items: (index, count, count doubles)*, native byte order (the ranks
// run the same build).
template <typename T>
void put(std::string& out, T v) {
    out.append(reinterpret_cast<const char*>(&v), sizeof v);
}
template <typename T>
T get(const std::string& in, std::size_t& at) {
    if (at + sizeof(T) > in.size()) throw std::runtime_error("distributed bench: a rank sent a truncated result");
    T v;
    std::memcpy(&v, in.data() + at, sizeof v);
    at += sizeof v;
    return v;
}

std::string encode(const std::map<std::size_t, std::vector<double>>& items) {
    std::string out;
    for (const auto& [index, values] : items) {
        put<std::uint64_t>(out, index);
        put<std::uint64_t>(out, values.size());
        for (double v : values) put(out, v);
    }
    return out;
}

void decodeInto(const std::string& in, std::map<std::size_t, std::vector<double>>& items) {
    for (std::size_t at = 0; at < in.size();) {
        const auto index = static_cast<std::size_t>(get<std::uint64_t>(in, at));
        const auto count = get<std::uint64_t>(in, at);
        if (count > in.size()) throw std::runtime_error("distributed bench: a rank sent a malformed result");
        std::vector<double> values(static_cast<std::size_t>(count));
        for (double& v : values) v = get<double>(in, at);
        items[index] = std::move(values);
    }
}

} // namespace

std::vector<double> shardItem(std::size_t width, const std::function<std::vector<double>()>& compute) {
    ShardState& s = state();
    const std::size_t index = s.next++;
    switch (s.mode) {
    case Mode::Alone:
        return compute();
    case Mode::Collect:
        if (!dist::ownsItem(s.options, index)) return std::vector<double>(width, std::numeric_limits<double>::quiet_NaN());
        return s.results[index] = compute();
    case Mode::Replay: {
        const auto it = s.results.find(index);
        if (it == s.results.end())
            throw std::runtime_error("distributed bench: item " + std::to_string(index) +
                                     " came from no rank (the ranks enumerated different work: same options on every rank?)");
        return it->second;
    }
    }
    return compute();
}

bool shardingActive() { return state().mode != Mode::Alone; }

int runSharded(const std::function<int()>& bench, dist::Communicator& comm) {
    ShardState& s = state();
    if (comm.worldSize() == 1) return bench();
    struct Reset {
        ~Reset() { state() = ShardState{}; }
    } reset;   // alone again afterwards, also when a pass throws
    s = ShardState{Mode::Collect, comm.options(), 0, {}};
    int rc = 0;
    {
        const SilencedStdout quiet;
        rc = bench();
    }
    const std::size_t items = s.next, mine = s.results.size();
    const std::vector<std::string> all = comm.allGather(encode(s.results));
    if (!comm.isRoot()) {
        reportShare(comm.options(), "computed " + std::to_string(mine) + " of " + std::to_string(items) + " items");
        return rc;
    }
    s.results.clear();
    for (const std::string& bytes : all) decodeInto(bytes, s.results);
    s.mode = Mode::Replay;
    s.next = 0;
    return bench();
}

} // namespace sl::cli
