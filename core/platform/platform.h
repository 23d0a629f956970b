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

struct Platform {
    std::vector<Device> devices;
    Interconnect link;

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
