// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Where a process stands in a distributed run: its rank, the world size and the rendezvous
/// address (rank 0 hosts LibTorch's TCPStore there). From flags (`--world-size`, `--rank`,
/// `--master HOST:PORT`, `--dist-timeout S`) or, for any flag not given, from the environment:
/// the world size and rank from one launcher's pair of variables (torchrun's WORLD_SIZE and RANK,
/// Open MPI's, PMI's or Slurm's), the rendezvous from MASTER_ADDR and MASTER_PORT. Torch-free: the
/// CLI parses these for commands that never load LibTorch when they run alone.
///
/// \code
///   sl::dist::DistFlags f;
///   f.worldSize = "2"; f.rank = "1"; f.master = "10.0.0.5:29500";
///   const sl::dist::DistOptions o = sl::dist::resolveDistOptions(f);   // o.distributed() == true
/// \endcode

#include <cstdint>
#include <optional>
#include <string>

namespace sl::dist {

inline constexpr int kDefaultPort = 29500;            ///< torchrun's
inline constexpr double kDefaultTimeoutSeconds = 300; ///< rendezvous and every collective
inline constexpr int kMaxWorldSize = 4096;

struct DistOptions {
    int worldSize = 1;
    int rank = 0;
    std::string host = "127.0.0.1";
    int port = kDefaultPort;
    double timeoutSeconds = kDefaultTimeoutSeconds;
    /// Where the world size and rank came from: "flags", "Slurm (SLURM_NTASKS, SLURM_PROCID)",
    /// "flags and torchrun (RANK)", ...; empty when neither was given.
    std::string source;

    bool distributed() const { return worldSize > 1; }
    bool isRoot() const { return rank == 0; }
    std::string master() const { return host + ":" + std::to_string(port); }
    /// "rank 1 of 2 (master 127.0.0.1:29500) from Slurm (SLURM_NTASKS, SLURM_PROCID)"; without
    /// " from ..." when the source is empty.
    std::string describe() const;
};

/// The flags as given (unset: not on the command line).
struct DistFlags {
    std::optional<std::string> worldSize, rank, master, timeout;
};

/// Flags first, then the environment, then the defaults. The world size and rank not given as
/// flags come from the first launcher whose size variable is set, the innermost launcher first:
/// WORLD_SIZE (torchrun), OMPI_COMM_WORLD_SIZE (Open MPI), PMI_SIZE (MPICH, Intel MPI),
/// SLURM_NTASKS (Slurm, whose variables every process of a job inherits, mpirun's too); the rank
/// from that launcher's variable only (RANK, OMPI_COMM_WORLD_RANK, PMI_RANK, SLURM_PROCID), never
/// another's. With no size variable set, RANK is read. Throws std::invalid_argument naming the
/// flag or variable for a malformed or out-of-range value (rank outside [0, world size), port
/// outside 1-65535, a master without a port, a timeout not in (0, 86400]).
DistOptions resolveDistOptions(const DistFlags& flags);

/// The world size the environment gives, as resolveDistOptions reads it (its launcher's size
/// variable); empty when no launcher's is set.
std::string launcherWorldSize();

/// The seed rank `rank` draws its data from: `seed` itself on rank 0, so that one rank reproduces
/// a single-process run exactly; an independent stream on the others.
std::uint64_t rankSeed(std::uint64_t seed, int rank);

/// The flags' help text, one line each, for `--help` pages.
const char* distFlagsHelp();

} // namespace sl::dist
