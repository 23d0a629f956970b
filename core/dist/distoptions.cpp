// SPDX-License-Identifier: MIT
#include "core/dist/distoptions.h"

#include "core/util/random.h"

#include <charconv>
#include <cstdlib>
#include <stdexcept>

namespace sl::dist {

namespace {

/// The flag's value if given, else the environment variable's, else nothing; `origin` names it.
std::optional<std::string> pick(const std::optional<std::string>& flag, const char* flagName, const char* variable,
                                std::string& origin) {
    if (flag) {
        origin = flagName;
        return flag;
    }
    if (const char* v = std::getenv(variable); v && *v) {
        origin = std::string("the environment variable ") + variable;
        return std::string(v);
    }
    return std::nullopt;
}

long long integerIn(const std::string& text, long long lo, long long hi, const std::string& origin) {
    long long v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || v < lo || v > hi)
        throw std::invalid_argument(origin + ": expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                                    "], got '" + text + "'");
    return v;
}

/// A launcher's pair of variables: the world size and this process's rank.
struct Launcher {
    const char* name;
    const char* size;
    const char* rank;
};

/// The innermost launcher first: the processes torchrun or mpirun start inside a Slurm job inherit
/// the job's SLURM_NTASKS and the batch script's SLURM_PROCID=0.
constexpr Launcher kLaunchers[] = {
    {"torchrun", "WORLD_SIZE", "RANK"},
    {"Open MPI", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK"},
    {"PMI", "PMI_SIZE", "PMI_RANK"},
    {"Slurm", "SLURM_NTASKS", "SLURM_PROCID"},
};

/// The first launcher whose size variable is set; torchrun when none is (RANK alone, as before).
const Launcher& launcherInUse() {
    for (const Launcher& l : kLaunchers)
        if (const char* v = std::getenv(l.size); v && *v) return l;
    return kLaunchers[0];
}

/// "flags", "Slurm (SLURM_NTASKS, SLURM_PROCID)", "flags and torchrun (RANK)" or "".
std::string sourceText(bool flagUsed, const Launcher& l, bool sizeRead, bool rankRead) {
    if (!sizeRead && !rankRead) return flagUsed ? "flags" : "";
    const std::string variables = sizeRead && rankRead ? std::string(l.size) + ", " + l.rank : sizeRead ? l.size : l.rank;
    return (flagUsed ? "flags and " : "") + std::string(l.name) + " (" + variables + ")";
}

/// The world size and rank: each from its flag, else from the launcher's variable.
void resolveWorldAndRank(const DistFlags& flags, DistOptions& o) {
    const Launcher& l = launcherInUse();
    std::string origin;
    const std::optional<std::string> size = pick(flags.worldSize, "--world-size", l.size, origin);
    if (size) o.worldSize = static_cast<int>(integerIn(*size, 1, kMaxWorldSize, origin));
    const std::optional<std::string> rank = pick(flags.rank, "--rank", l.rank, origin);
    if (rank) {
        o.rank = static_cast<int>(integerIn(*rank, 0, kMaxWorldSize - 1, origin));
        if (o.rank >= o.worldSize)
            throw std::invalid_argument(origin + ": rank " + *rank + " is outside a world of " + std::to_string(o.worldSize) +
                                        " (ranks are 0-" + std::to_string(o.worldSize - 1) + ")");
    }
    o.source = sourceText(flags.worldSize || flags.rank, l, size && !flags.worldSize, rank && !flags.rank);
}

} // namespace

std::string DistOptions::describe() const {
    return "rank " + std::to_string(rank) + " of " + std::to_string(worldSize) + " (master " + master() + ")" +
           (source.empty() ? "" : " from " + source);
}

DistOptions resolveDistOptions(const DistFlags& flags) {
    DistOptions o;
    resolveWorldAndRank(flags, o);
    std::string origin;
    if (flags.master) {
        const std::string& m = *flags.master;
        const auto colon = m.rfind(':');
        if (colon == std::string::npos || colon == 0)
            throw std::invalid_argument("--master: expected HOST:PORT, got '" + m + "'");
        o.host = m.substr(0, colon);
        o.port = static_cast<int>(integerIn(m.substr(colon + 1), 1, 65535, "--master's port"));
    } else {
        if (const char* h = std::getenv("MASTER_ADDR"); h && *h) o.host = h;
        if (auto p = pick(std::nullopt, "", "MASTER_PORT", origin)) o.port = static_cast<int>(integerIn(*p, 1, 65535, origin));
    }
    if (auto v = pick(flags.timeout, "--dist-timeout", "SCHEDLAB_DIST_TIMEOUT", origin)) {
        double t = 0;
        const auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), t);
        if (ec != std::errc() || end != v->data() + v->size() || !(t > 0 && t <= 86400))
            throw std::invalid_argument(origin + ": expected seconds in (0, 86400], got '" + *v + "'");
        o.timeoutSeconds = t;
    }
    return o;
}

std::string launcherWorldSize() {
    const char* v = std::getenv(launcherInUse().size);
    return v ? std::string(v) : std::string();
}

std::uint64_t rankSeed(std::uint64_t seed, int rank) {
    return rank == 0 ? seed : deriveSeed(seed ^ 0xD157'0000'0000ULL, static_cast<std::uint64_t>(rank));
}

const char* distFlagsHelp() {
    return "  --world-size N       ranks in a distributed run (default 1, or $WORLD_SIZE,\n"
           "                       $OMPI_COMM_WORLD_SIZE, $PMI_SIZE, $SLURM_NTASKS: the first set)\n"
           "  --rank R             this process's rank, 0 to N-1 (default 0, or the same launcher's\n"
           "                       $RANK, $OMPI_COMM_WORLD_RANK, $PMI_RANK or $SLURM_PROCID)\n"
           "  --master HOST:PORT   where rank 0 hosts the rendezvous (default 127.0.0.1:29500, or\n"
           "                       $MASTER_ADDR and $MASTER_PORT)\n"
           "  --dist-timeout S     seconds to wait for a peer at the rendezvous and in every\n"
           "                       collective (default 300, or $SCHEDLAB_DIST_TIMEOUT)\n"
           "  A loopback master opens no port beyond 127.0.0.1; any other listens on every\n"
           "  interface and trusts whoever connects: trusted networks only (docs/distributed.md).\n";
}

} // namespace sl::dist
