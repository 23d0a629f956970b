// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Platforms of real machines: a preset's devices and topology, or N devices of one catalogue
/// entry (docs/time.md, "Topologies"). Link times are in the graph's time unit.
///
/// \code
///   const auto& cat = sl::DeviceCatalog::instance();
///   sl::Platform p = sl::presetPlatform(cat.preset("2x-dgx-h100"), cat, sl::TimeUnit::Microseconds);
///   // 16 devices "h0.gpu0" .. "h1.gpu7"; h0.gpu0 -> h1.gpu0 crosses h0.gpu0's NIC and h1.gpu0's
/// \endcode

#include "core/platform/platform.h"
#include "core/timing/catalog.h"
#include "core/util/errors.h"

namespace sl {

/// Microseconds per unit of `u` (Abstract units are read as microseconds).
double microsecondsPerUnit(TimeUnit u);

/// The preset's devices (memory capacity from the catalogue, model = the device id) and its
/// topology: each device has an outgoing and an incoming port on the host's fabric, each NIC an
/// outgoing and an incoming port on the network; a transfer inside a host crosses the sender's
/// out-port and the receiver's in-port, between hosts the two NICs' ports. The fabric's latency
/// is split evenly over the two ports, so a pair's latency is the fabric's. Throws IoError for an
/// unknown device.
/// Its links are shared (Topology::shared: one transfer at a time), as on the real machine.
Platform presetPlatform(const PlatformPreset& preset, const DeviceCatalog& catalog, TimeUnit unit);

/// The first `count` devices of `p` and the routes between them (4 GPUs of a DGX). Throws
/// std::invalid_argument when `count` is not in 1 .. p.deviceCount().
Platform firstDevices(const Platform& p, int count);

/// `count` devices of catalogue entry `deviceId`, joined by `link` (free by default).
Platform catalogPlatform(const std::string& deviceId, int count, const DeviceCatalog& catalog, Interconnect link = {});

/// A machine as the user names it: a preset or a catalogue device, and how many devices.
struct MachineName {
    std::string preset;   ///< a preset id, or empty
    std::string device;   ///< a catalogue device id, or empty (one of the two is set)
    int devices = 0;      ///< a preset's first N (0: all of them); N of the device (0: one)
    Interconnect link;    ///< between the device's copies (a preset has its own links)
};

/// More devices than a preset has, or fewer than one.
class MachineSizeError : public IoError {
public:
    using IoError::IoError;
};

/// Throws MachineSizeError for a device count below 0 (0 stands for the name's default): the words
/// of resolveMachine, for a count given before the machine is named (a study's "devices").
void checkDeviceCount(int devices);

/// The one rule that turns a machine's name into a Platform, for the CLI (--preset, --device,
/// --devices), studies ("preset", "device", "devices") and the explorer's Platform dock. Throws
/// IoError for an unknown preset or device (the catalogue's message, naming the ids), and
/// MachineSizeError for more devices than the preset has, or fewer than one: "preset 'dgx-a100'
/// has 8 devices, not 16".
Platform resolveMachine(const MachineName& name, const DeviceCatalog& catalog, TimeUnit unit);

} // namespace sl
