// SPDX-License-Identifier: MIT
#include "core/timing/catalog.h"

#include "core/io/jsonfields.h"
#include "core/timing/builtincatalog.h"
#include "core/util/atomicfile.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <mutex>

namespace sl {

using namespace io_detail;
using json = nlohmann::json;

namespace {

constexpr int kPresetVersion = 1;
const char* const kFabricKinds[] = {"switch", "pcie", "nic-per-device", "nic-per-host"};

Fabric fabricFromJson(const json& j, const std::string& where, bool inside) {
    if (!j.is_object()) fail(where, "must be an object, got " + jsonKind(j));
    const JsonFields f{j, where};
    Fabric fab;
    fab.kind = f.string("kind");
    const bool known = std::find(std::begin(kFabricKinds), std::end(kFabricKinds), fab.kind) != std::end(kFabricKinds);
    const bool hostKind = fab.kind == "switch" || fab.kind == "pcie";
    if (!known || hostKind != inside)
        fail(where, "\"kind\" \"" + fab.kind + "\" is not " + (inside ? "\"switch\" or \"pcie\"" : "\"nic-per-device\" or \"nic-per-host\""));
    fab.bandwidthGBps = f.number("bandwidth_GBps");
    fab.latencyUs = f.number("latency_us");
    fab.source = f.string("source");
    if (!(fab.bandwidthGBps > 0)) fail(where, "\"bandwidth_GBps\" must be positive");
    if (fab.latencyUs < 0) fail(where, "\"latency_us\" must not be negative");
    return fab;
}

std::string idList(const auto& items) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : ", ") + item.id;
    return out;
}

template <typename T>
void addOrReplace(std::vector<T>& list, T item) {
    auto it = std::find_if(list.begin(), list.end(), [&](const T& x) { return x.id == item.id; });
    if (it == list.end()) list.push_back(std::move(item));
    else *it = std::move(item);
}

} // namespace

PlatformPreset parsePreset(std::string_view text, const std::string& sourceName) {
    const json doc = parseJsonObject(text, sourceName, "schedlab-preset", kPresetVersion, "a preset");
    const JsonFields f{doc, sourceName};
    PlatformPreset p;
    p.id = f.string("id");
    p.name = f.string("name");
    p.source = f.string("source");
    p.device = f.string("device");
    p.hosts = f.integer("hosts");
    p.devicesPerHost = f.integer("devices_per_host");
    if (p.hosts < 1 || p.devicesPerHost < 1) fail(sourceName, "\"hosts\" and \"devices_per_host\" must be at least 1");
    if (p.hosts > 4096 || p.devicesPerHost > 4096) fail(sourceName, "more than 4096 hosts or devices per host");
    if (const json* intra = f.find("intra_host")) p.intraHost = fabricFromJson(*intra, sourceName + ": intra_host", true);
    if (const json* inter = f.find("inter_host")) p.interHost = fabricFromJson(*inter, sourceName + ": inter_host", false);
    if (p.devicesPerHost > 1 && !p.intraHost) fail(sourceName, "several devices per host need an \"intra_host\" fabric");
    if (p.hosts > 1 && !p.interHost) fail(sourceName, "several hosts need an \"inter_host\" fabric");
    return p;
}

DeviceCatalog DeviceCatalog::load(const std::string& userDirectory) {
    DeviceCatalog cat;
    for (const auto& [name, text] : timing_detail::builtinCatalogFiles()) {
        if (name.rfind("devices/", 0) == 0) cat.m_devices.push_back(parseDeviceSpec(text, "resources/" + std::string(name)));
        else cat.m_presets.push_back(parsePreset(text, "resources/" + std::string(name)));
    }
    namespace fs = std::filesystem;
    std::error_code ec;
    if (userDirectory.empty() || !fs::is_directory(userDirectory, ec)) return cat;
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(userDirectory, ec))
        if (entry.path().extension() == ".json") files.push_back(entry.path());
    std::sort(files.begin(), files.end());   // a stable order whatever the directory's
    for (const fs::path& file : files) {
        try {
            cat.addDevice(parseDeviceSpec(readFile(file.string(), 1 << 20), file.string()));
        } catch (const std::exception& e) {
            cat.m_warnings.push_back(std::string(e.what()) + " (left out of the catalogue)");
        }
    }
    return cat;
}

std::string DeviceCatalog::userDirectory() {
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg) return std::string(xdg) + "/schedlab/devices";
    if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.local/share/schedlab/devices";
    return {};
}

std::string DeviceCatalog::userEntryPath(const std::string& id) {
    const bool fileNameSafe = !id.empty() && id.front() != '.' && std::all_of(id.begin(), id.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
    });
    if (!fileNameSafe)
        throw IoError("device id '" + id + "': use letters, digits, '-', '_' and '.' (it names the entry's file)");
    const std::string dir = userDirectory();
    if (dir.empty())
        throw IoError("neither XDG_DATA_HOME nor HOME is set: there is no catalogue directory of yours to write '" +
                      id + "' to");
    return dir + "/" + id + ".json";
}

namespace {

/// The catalogue in force. Earlier ones are leaked on purpose: instance() hands out references.
std::atomic<const DeviceCatalog*> g_current{nullptr};
std::mutex g_reloading;

}   // namespace

const DeviceCatalog& DeviceCatalog::instance() {
    if (const DeviceCatalog* cat = g_current.load(std::memory_order_acquire)) return *cat;
    std::lock_guard lock(g_reloading);
    if (!g_current.load(std::memory_order_relaxed))
        g_current.store(new DeviceCatalog(load(userDirectory())), std::memory_order_release);
    return *g_current.load(std::memory_order_acquire);
}

const DeviceCatalog& DeviceCatalog::reload() {
    std::lock_guard lock(g_reloading);
    const DeviceCatalog* fresh = new DeviceCatalog(load(userDirectory()));
    g_current.store(fresh, std::memory_order_release);
    return *fresh;
}

const DeviceSpec* DeviceCatalog::findDevice(const std::string& id) const {
    auto it = std::find_if(m_devices.begin(), m_devices.end(), [&](const DeviceSpec& d) { return d.id == id; });
    return it == m_devices.end() ? nullptr : &*it;
}

const PlatformPreset* DeviceCatalog::findPreset(const std::string& id) const {
    auto it = std::find_if(m_presets.begin(), m_presets.end(), [&](const PlatformPreset& p) { return p.id == id; });
    return it == m_presets.end() ? nullptr : &*it;
}

const DeviceSpec& DeviceCatalog::device(const std::string& id) const {
    if (const DeviceSpec* d = findDevice(id)) return *d;
    throw IoError("unknown device '" + id + "' (one of: " + idList(m_devices) + ")");
}

const PlatformPreset& DeviceCatalog::preset(const std::string& id) const {
    if (const PlatformPreset* p = findPreset(id)) return *p;
    throw IoError("unknown preset '" + id + "' (one of: " + idList(m_presets) + ")");
}

void DeviceCatalog::addDevice(DeviceSpec d) { addOrReplace(m_devices, std::move(d)); }

} // namespace sl
