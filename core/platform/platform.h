// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The machine a graph is scheduled on: devices and the interconnect between them.

#include "core/graph/graph.h"

#include <string>
#include <vector>

namespace sl {

struct Device {
    std::string name;
    int machineType = 0;
    double memoryCapacity = kInfinity;   ///< bytes; infinity = unlimited
    double resourceCapacity = 1;         ///< sum of resourceDemand of ops running at once
    std::string model;                   ///< catalogue id ("a100-sxm4-80gb"); empty for abstract devices
};

/// Transfer time = latency + bytes / bandwidth between two different devices; 0 on one device.
struct Interconnect {
    double latency = 0;
    double bandwidth = kInfinity;   ///< bytes per time unit
    double transferTime(double bytes) const {
        if (latency == 0 && bandwidth == kInfinity) return 0;
        return latency + (bandwidth == kInfinity ? 0.0 : bytes / bandwidth);
    }
    bool free() const { return latency == 0 && bandwidth == kInfinity; }
};

/// One direction of a physical link (an NVLink port, a PCIe slot, a NIC), in the graph's time
/// unit: latency in units, bandwidth in bytes per unit.
struct Link {
    std::string name;
    double latency = 0;
    double bandwidth = kInfinity;
};

/// The interconnect as links and the route of a transfer between every ordered pair of devices
/// (docs/time.md, "Topologies"). A transfer from a to b takes the sum of its route's latencies
/// plus bytes over the route's narrowest bandwidth.
struct Topology {
    std::vector<Link> links;
    /// routes[a * n + b]: the links a transfer from device a to device b crosses; empty for a == b.
    std::vector<std::vector<int>> routes;
    /// A link carries one transfer at a time (docs/time.md, "Shared links"; core/costmodel/sharedlinks.h).
    bool shared = false;

    bool empty() const { return links.empty(); }
    /// Checks the routes for `n` devices (every pair routed, ids in range, positive bandwidths)
    /// and precomputes each pair's latency and bandwidth. Throws GraphError naming the pair.
    void finalize(int n);
    double pairLatency(int a, int b) const { return m_latency[static_cast<size_t>(a * m_n + b)]; }
    double pairBandwidth(int a, int b) const { return m_bandwidth[static_cast<size_t>(a * m_n + b)]; }
    const std::vector<int>& route(int a, int b) const { return routes[static_cast<size_t>(a * m_n + b)]; }

private:
    int m_n = 0;
    std::vector<double> m_latency, m_bandwidth;
};

struct Platform {
    std::vector<Device> devices;
    Interconnect link;       ///< every pair of devices, when there is no topology
    Topology topology;       ///< when not empty: per-pair routes over links (replaces `link`)
    std::string name;        ///< the preset it came from ("DGX A100: ..."), for the status bar

    /// Time for `bytes` produced on device `from` to reach device `to`: 0 on one device. The one
    /// definition of a transfer's time every method, the validator and the views use.
    double transferTime(int from, int to, double bytes) const {
        if (from == to) return 0;
        if (topology.empty()) return link.transferTime(bytes);
        const double bw = topology.pairBandwidth(from, to);
        return topology.pairLatency(from, to) + (bw == kInfinity ? 0.0 : bytes / bw);
    }
    /// The latency and bandwidth between two distinct devices (the link's, or the route's).
    double pairLatency(int from, int to) const { return topology.empty() ? link.latency : topology.pairLatency(from, to); }
    double pairBandwidth(int from, int to) const { return topology.empty() ? link.bandwidth : topology.pairBandwidth(from, to); }
    /// True when some device names a catalogue model (a machine of --preset or --device).
    bool hasCatalogueModels() const {
        for (const Device& d : devices)
            if (!d.model.empty()) return true;
        return false;
    }
    /// True when every transfer is free (then placement never delays an op).
    bool transfersFree() const;
    /// Mean transfer time over ordered pairs of distinct devices (HEFT's average communication
    /// cost); 0 with one device.
    double meanTransferTime(double bytes) const;
    /// Longest transfer time over pairs of distinct devices (bounds); 0 with one device.
    double maxTransferTime(double bytes) const;

    int deviceCount() const { return static_cast<int>(devices.size()); }
    /// `n` identical devices of machine type 0, capacity 1, zero-cost transfers (the papers' default).
    static Platform identical(int n, double memoryCapacity = kInfinity);
    /// Throws GraphError if some op of `g` has no device of its machine type, needs more resource
    /// than any such device has, or has a per-device duration table of the wrong length.
    void checkCompatible(const Graph& g) const;
    /// Devices of each machine type: result[type] = device indices.
    std::vector<std::vector<int>> devicesByType() const;
};

} // namespace sl
