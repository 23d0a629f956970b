// SPDX-License-Identifier: MIT
#include "core/timing/retime.h"

#include "core/timing/collectives.h"
#include "core/timing/machine.h"
#include "core/util/errors.h"

#include <algorithm>

namespace sl {
namespace {

/// One catalogue entry per device, or none at all when no device names a model.
std::vector<const DeviceSpec*> deviceSpecs(const Platform& p, const DeviceCatalog& catalog) {
    std::vector<const DeviceSpec*> specs;
    if (!p.hasCatalogueModels()) return specs;
    for (const Device& d : p.devices) {
        if (d.model.empty()) throw IoError("device '" + d.name + "' names no catalogue model while others do");
        specs.push_back(&catalog.device(d.model));
    }
    return specs;
}

bool allSame(const std::vector<const DeviceSpec*>& specs) {
    return std::all_of(specs.begin(), specs.end(), [&](const DeviceSpec* s) { return s == specs.front(); });
}

std::string deviceSummary(const std::vector<const DeviceSpec*>& specs) {
    std::vector<const DeviceSpec*> distinct = specs;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    return distinct.size() == 1 ? distinct.front()->name : std::to_string(distinct.size()) + " device models";
}

} // namespace

std::string TimedGraph::describe() const {
    if (devices.empty()) {
        if (measured > 0) return "measured times";
        return nominal > 0 ? "the nominal device's roofline (1 TFLOP/s, 100 GB/s)" : "the file's own times";
    }
    std::string out = devices + " roofline: " + std::to_string(estimated) + " ops estimated";
    if (measured > 0) out += ", " + std::to_string(measured) + " measured";
    if (given > 0) out += ", " + std::to_string(given) + " as given";
    return out;
}

TimedGraph retimeGraph(const Graph& g, const Platform& p, const DeviceCatalog& catalog) {
    TimedGraph out;
    const std::vector<const DeviceSpec*> specs = deviceSpecs(p, catalog);
    for (const Op& o : g.ops()) {
        if (o.timeSource == TimeSource::Measured) ++out.measured;
        else if (!o.work.known()) ++out.given;
        else if (o.timeSource == TimeSource::Estimated && specs.empty()) ++out.nominal;
    }
    if (specs.empty() || out.measured + out.given == g.opCount()) return out;
    const double usPerUnit = microsecondsPerUnit(g.timeUnit());
    const bool uniform = allSame(specs);
    auto timed = std::make_shared<Graph>(g);
    for (OpId v = 0; v < timed->opCount(); ++v) {
        const Op& o = timed->op(v);
        if (o.timeSource == TimeSource::Measured || !o.work.known()) continue;
        ++out.estimated;
        if (o.work.opClass == OpClass::Collective) {   // the links' time, the same on every device
            timed->setTiming(v, collectiveTime(p, o.work) + specs.front()->launchOverheadUs / usPerUnit, {}, TimeSource::Estimated);
            continue;
        }
        if (uniform) {
            timed->setTiming(v, estimatedMicroseconds(*specs.front(), o.type, o.work) / usPerUnit, {},
                             TimeSource::Estimated);
            continue;
        }
        std::vector<double> perDevice;
        perDevice.reserve(specs.size());
        for (const DeviceSpec* s : specs) perDevice.push_back(estimatedMicroseconds(*s, o.type, o.work) / usPerUnit);
        const double fastest = *std::min_element(perDevice.begin(), perDevice.end());   // before the move below
        timed->setTiming(v, fastest, std::move(perDevice), TimeSource::Estimated);
    }
    out.devices = deviceSummary(specs);
    out.retimed = std::move(timed);
    return out;
}

} // namespace sl
