// SPDX-License-Identifier: MIT
#include "widgets/platformfile.h"

#ifdef SL_HAVE_GRAPHIO
#include "core/io/graphio.h"
#else
#include <QFile>

#include <nlohmann/json.hpp>
#endif

#include <stdexcept>

namespace sl::gui {

Platform readPlatformFile(const QString& path) {
#ifdef SL_HAVE_GRAPHIO
    return loadPlatform(path.toStdString());
#else
    const std::string name = path.toStdString();
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) throw std::runtime_error(name + ": cannot open");
    try {
        const auto j = nlohmann::json::parse(f.readAll().toStdString());
        Platform p;
        const auto& devices = j.at("devices");
        if (!devices.is_array() || devices.empty()) throw std::runtime_error("\"devices\" must be a non-empty array");
        for (size_t i = 0; i < devices.size(); ++i) {
            const auto& d = devices[i];
            Device dev;
            dev.name = d.value("name", "dev" + std::to_string(i));
            dev.machineType = d.value("machine_type", 0);
            dev.memoryCapacity = d.contains("memory_bytes") && !d["memory_bytes"].is_null() ? d["memory_bytes"].get<double>() : kInfinity;
            dev.resourceCapacity = d.value("resource_capacity", 1.0);
            if (dev.machineType < 0 || !(dev.memoryCapacity > 0) || !(dev.resourceCapacity > 0))
                throw std::runtime_error("device " + std::to_string(i) + " has a negative type or a non-positive capacity");
            p.devices.push_back(dev);
        }
        if (j.contains("interconnect")) {
            const auto& link = j["interconnect"];
            p.link.latency = link.value("latency", 0.0);
            if (link.contains("bandwidth") && !link["bandwidth"].is_null()) p.link.bandwidth = link["bandwidth"].get<double>();
            if (p.link.latency < 0 || !(p.link.bandwidth > 0)) throw std::runtime_error("interconnect needs latency >= 0 and bandwidth > 0");
        }
        return p;
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(name + ": " + e.what());
    } catch (const std::runtime_error& e) {
        const std::string msg = e.what();
        throw std::runtime_error(msg.rfind(name, 0) == 0 ? msg : name + ": " + msg);
    }
#endif
}

} // namespace sl::gui
