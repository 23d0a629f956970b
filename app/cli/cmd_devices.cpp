// SPDX-License-Identifier: MIT
// `schedlab-cli devices`: the device catalogue and the platform presets (core/timing/catalog.h).
#include "command.h"

#include "core/timing/catalog.h"

#include <cstdio>
#include <iostream>

namespace sl::cli {
namespace {

std::string rate(double flopsPerSecond) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", flopsPerSecond / 1e12);
    return buf;
}

/// "fp32 19.5, bf16 312 (matrix), ..." in TFLOP/s.
std::string peakList(const DeviceSpec& d) {
    std::string out;
    for (const ComputePeak& p : d.peaks)
        out += (out.empty() ? "" : ", ") + std::string(toString(p.dtype)) + " " + rate(p.flopsPerSecond) +
               (p.unit == ComputeUnit::Matrix ? " (matrix)" : "");
    return out;
}

void printDevice(const DeviceSpec& d, bool sources) {
    std::printf("%-18s %-34s %6.0f GB/s %6.0f GiB  launch %.3g us\n", d.id.c_str(), d.name.c_str(), d.memoryBandwidth / 1e9,
                d.memoryBytes / (1024.0 * 1024 * 1024), d.launchOverheadUs);
    std::printf("%-18s TFLOP/s: %s\n", "", peakList(d).c_str());
    if (!d.fit.empty())
        std::printf("%-18s fitted to %zu profile%s of its runtime (%zu op types, %zu op classes)\n", "",
                    d.fit.sources.size(), d.fit.sources.size() == 1 ? "" : "s", d.fit.byType.size(),
                    d.fit.byClass.size());
    if (!sources) return;
    std::printf("%-18s source: %s\n%-18s memory: %s\n%-18s launch: %s\n%-18s efficiency: %s\n", "", d.source.c_str(), "",
                d.memorySource.c_str(), "", d.launchSource.c_str(), "", d.efficiencySource.c_str());
    for (const ComputePeak& p : d.peaks)
        std::printf("%-18s %s %s: %s\n", "", std::string(toString(p.dtype)).c_str(), p.unit == ComputeUnit::Matrix ? "matrix" : "vector", p.source.c_str());
    for (const std::string& profile : d.fit.sources) std::printf("%-18s fitted to: %s\n", "", profile.c_str());
}

void printPreset(const PlatformPreset& p) {
    std::printf("%-18s %s\n", p.id.c_str(), p.name.c_str());
    if (p.intraHost)
        std::printf("%-18s in a host: %s, %.4g GB/s per direction, %.3g us (%s)\n", "", p.intraHost->kind.c_str(),
                    p.intraHost->bandwidthGBps, p.intraHost->latencyUs, p.intraHost->source.c_str());
    if (p.interHost)
        std::printf("%-18s between hosts: %s, %.4g GB/s per direction, %.3g us (%s)\n", "", p.interHost->kind.c_str(),
                    p.interHost->bandwidthGBps, p.interHost->latencyUs, p.interHost->source.c_str());
}

int runDevices(Args& args) {
    const bool sources = args.takeFlag("sources");
    args.finish(0);
    const DeviceCatalog& catalog = DeviceCatalog::instance();
    for (const std::string& w : catalog.warnings()) std::cerr << "warning: " << w << "\n";
    std::cout << "Devices (--device ID):\n";
    for (const DeviceSpec& d : catalog.devices()) printDevice(d, sources);
    std::cout << "\nPresets (--preset ID):\n";
    for (const PlatformPreset& p : catalog.presets()) printPreset(p);
    std::cout
        << "\nYour own entries: " << DeviceCatalog::userDirectory()
        << " (schedlab-cli calibrate writes this-machine.json, calibrate --from a machine learned from profiles)\n";
    return 0;
}

SL_CLI_COMMAND({"devices", "list the device catalogue and the machine presets (--device, --preset)",
                "Usage: schedlab-cli devices [--sources]\n"
                "Lists the catalogue's devices (peak rates per dtype in TFLOP/s, memory bandwidth and\n"
                "capacity, launch overhead) and the machine presets with their links (docs/time.md).\n"
                "--sources prints where every number comes from.\n",
                {"sources"}, &runDevices});

} // namespace
} // namespace sl::cli
