// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The collectives torch-free code needs in a distributed run (sharded benchmarks and batch
/// optimisation gather their rows at rank 0). The implementation is LibTorch's c10d with the Gloo
/// backend, in the neural module (models/distributed/gloogroup.h); it registers a factory here
/// when the module loads. A world of one needs no module: connect() returns a local communicator.
///
/// \code
///   auto comm = sl::dist::connect(options);              // throws DistError if a peer never comes
///   auto all = comm->allGather(myRowsAsBytes);            // all[r] = rank r's bytes, on every rank
/// \endcode

#include "core/dist/distoptions.h"

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace sl::dist {

/// A rendezvous or collective that failed: a peer never joined, died, or the timeout passed. The
/// message names the rank, the master address and what to check.
class DistError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class Communicator {
public:
    virtual ~Communicator() = default;
    virtual const DistOptions& options() const = 0;
    int rank() const { return options().rank; }
    int worldSize() const { return options().worldSize; }
    bool isRoot() const { return options().rank == 0; }

    /// Every rank's `bytes`, indexed by rank, on every rank.
    virtual std::vector<std::string> allGather(const std::string& bytes) = 0;
    /// True on every rank if `flag` is true on any rank (one rank's stop request stops all).
    virtual bool anyTrue(bool flag) = 0;
    virtual void barrier() = 0;
};

using CommunicatorFactory = std::function<std::unique_ptr<Communicator>(const DistOptions&)>;

/// Called by the neural module when it registers its methods.
void setCommunicatorFactory(CommunicatorFactory factory);

/// A communicator for `options`: a local one for a world of one; otherwise loads the neural module
/// (core/plugin/neuralmodule.h) and joins the rendezvous. Throws DistError.
std::unique_ptr<Communicator> connect(const DistOptions& options);

/// Ranks own work items round-robin: item i belongs to rank i mod world size.
inline bool ownsItem(const DistOptions& o, std::size_t item) {
    return item % static_cast<std::size_t>(o.worldSize) == static_cast<std::size_t>(o.rank);
}

} // namespace sl::dist
