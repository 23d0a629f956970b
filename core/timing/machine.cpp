// SPDX-License-Identifier: MIT
#include "core/timing/machine.h"

#include "core/util/errors.h"

namespace sl {
namespace {

/// Two links (out, in) per port; returns the id of the out-link, in-link = out + 1.
int addPort(Topology& t, const std::string& name, const Fabric& f, TimeUnit unit) {
    const double usPerUnit = microsecondsPerUnit(unit);
    const double latency = f.latencyUs / 2 / usPerUnit;
    const double bandwidth = f.bandwidthGBps * 1e3 * usPerUnit;   // bytes per microsecond x us per unit
    t.links.push_back({name + ".out", latency, bandwidth});
    t.links.push_back({name + ".in", latency, bandwidth});
    return static_cast<int>(t.links.size()) - 2;
}

/// "gpu3", or "h1.gpu3" when the preset has several hosts.
std::string deviceName(const PlatformPreset& p, const std::string& kind, int host, int local) {
    return (p.hosts > 1 ? "h" + std::to_string(host) + "." : std::string()) + kind + std::to_string(local);
}

Topology presetTopology(const PlatformPreset& p, const std::string& kind, TimeUnit unit) {
    Topology t;
    const int n = p.deviceCount();
    std::vector<int> port(static_cast<size_t>(n), -1), nic(static_cast<size_t>(n), -1);
    for (int d = 0; d < n; ++d) {
        const int host = d / p.devicesPerHost;
        if (p.intraHost) port[static_cast<size_t>(d)] = addPort(t, deviceName(p, kind, host, d % p.devicesPerHost), *p.intraHost, unit);
        if (!p.interHost) continue;
        if (p.interHost->kind == "nic-per-device")
            nic[static_cast<size_t>(d)] = addPort(t, deviceName(p, kind, host, d % p.devicesPerHost) + ".nic", *p.interHost, unit);
        else if (d % p.devicesPerHost == 0)
            nic[static_cast<size_t>(d)] = addPort(t, "h" + std::to_string(host) + ".nic", *p.interHost, unit);
        else
            nic[static_cast<size_t>(d)] = nic[static_cast<size_t>(d - d % p.devicesPerHost)];
    }
    t.routes.assign(static_cast<size_t>(n) * static_cast<size_t>(n), {});
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) {
            if (a == b) continue;
            const bool sameHost = a / p.devicesPerHost == b / p.devicesPerHost;
            const auto& ports = sameHost ? port : nic;
            t.routes[static_cast<size_t>(a * n + b)] = {ports[static_cast<size_t>(a)], ports[static_cast<size_t>(b)] + 1};
        }
    if (n > 1) t.finalize(n);
    return t;
}

} // namespace

double microsecondsPerUnit(TimeUnit u) { return u == TimeUnit::Seconds ? 1e6 : 1.0; }

Platform presetPlatform(const PlatformPreset& preset, const DeviceCatalog& catalog, TimeUnit unit) {
    const DeviceSpec& spec = catalog.device(preset.device);
    Platform p;
    p.name = preset.name;
    for (int d = 0; d < preset.deviceCount(); ++d)
        p.devices.push_back({.name = deviceName(preset, spec.kind, d / preset.devicesPerHost, d % preset.devicesPerHost),
                             .memoryCapacity = spec.memoryBytes,
                             .model = spec.id});
    if (preset.deviceCount() > 1) {
        p.topology = presetTopology(preset, spec.kind, unit);
        p.topology.shared = true;   // real ports and NICs carry one transfer at a time (docs/time.md)
    }
    return p;
}

Platform firstDevices(const Platform& p, int count) {
    const int n = p.deviceCount();
    if (count < 1 || count > n)
        throw std::invalid_argument("the platform has " + std::to_string(n) + " devices; cannot take " + std::to_string(count));
    if (count == n) return p;
    Platform out = p;
    out.devices.resize(static_cast<size_t>(count));
    out.name = std::to_string(count) + " of " + p.name;
    if (p.topology.empty()) return out;
    out.topology.routes.clear();
    for (int a = 0; a < count; ++a)
        for (int b = 0; b < count; ++b) out.topology.routes.push_back(p.topology.route(a, b));
    out.topology.finalize(count);
    return out;
}

Platform catalogPlatform(const std::string& deviceId, int count, const DeviceCatalog& catalog, Interconnect link) {
    const DeviceSpec& spec = catalog.device(deviceId);
    Platform p;
    p.name = std::to_string(count) + " x " + spec.name;
    for (int d = 0; d < count; ++d)
        p.devices.push_back({.name = spec.kind + std::to_string(d), .memoryCapacity = spec.memoryBytes, .model = spec.id});
    p.link = link;
    return p;
}

void checkDeviceCount(int devices) {
    if (devices < 0) throw MachineSizeError("a machine of " + std::to_string(devices) + " devices: give 1 or more");
}

Platform resolveMachine(const MachineName& name, const DeviceCatalog& catalog, TimeUnit unit) {
    checkDeviceCount(name.devices);
    if (name.preset.empty() == name.device.empty())
        throw IoError("name a machine by a preset or by a device, one of the two");
    if (!name.device.empty()) return catalogPlatform(name.device, std::max(name.devices, 1), catalog, name.link);
    const Platform whole = presetPlatform(catalog.preset(name.preset), catalog, unit);
    if (name.devices > whole.deviceCount())
        throw MachineSizeError("preset '" + name.preset + "' has " + std::to_string(whole.deviceCount()) +
                               " devices, not " + std::to_string(name.devices));
    return name.devices > 0 ? firstDevices(whole, name.devices) : whole;
}

} // namespace sl
