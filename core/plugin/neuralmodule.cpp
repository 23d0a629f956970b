// SPDX-License-Identifier: MIT
#include "core/plugin/neuralmodule.h"

#include "core/util/installpaths.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <mutex>

namespace sl::neural {

namespace {

namespace fs = std::filesystem;

std::atomic<bool> g_linkedIn{false};

/// The module's state: opened once, registered once, never unloaded (its code backs the
/// registries' factories until exit).
struct Module {
    std::mutex mutex;
    void* handle = nullptr;
    bool opened = false;       ///< an attempt was made (handle or openError set)
    bool registered = false;   ///< status is final
    std::string path;
    std::string openError;
    ModuleStatus status;
};

Module& module() {
    static Module m;
    return m;
}

/// dlopen of the first candidate that exists; the caller holds the mutex.
void openLocked(Module& m) {
    if (m.opened) return;
    m.opened = true;
    std::string tried;
    for (const std::string& path : moduleCandidates()) {
        if (!fs::exists(path)) {
            tried += (tried.empty() ? "" : ", ") + path;
            continue;
        }
        // RTLD_NOW: a module that does not fit this executable fails here, with the symbol named
        m.handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        m.path = path;
        if (!m.handle) {
            const char* why = dlerror();
            m.openError = "cannot load " + path + ": " + (why ? why : "unknown error");
        }
        return;
    }
    m.openError = "the neural module " + std::string(kModuleFile) + " is not installed (looked for " +
                  (tried.empty() ? std::string("nothing: SCHEDLAB_NEURAL_MODULE=none") : tried) + ")";
}

ModuleStatus registerLocked(Module& m) {
    if (!m.handle) return {.available = false, .error = m.openError};
    using Entry = int (*)(int);
    auto entry = reinterpret_cast<Entry>(dlsym(m.handle, kEntrySymbol));
    if (!entry) return {.available = false, .error = m.path + " has no " + kEntrySymbol + ": not a SchedLab neural module"};
    switch (entry(kModuleApi)) {
    case 0: return {.available = true, .error = {}};
    case 1: return {.available = false, .error = m.path + " was built for another version of SchedLab (module API mismatch)"};
    default: return {.available = false, .error = m.path + ": registering the neural methods failed"};
    }
}

} // namespace

std::vector<std::string> moduleCandidates() {
    if (const char* env = std::getenv("SCHEDLAB_NEURAL_MODULE"); env && *env)
        return std::string(env) == "none" ? std::vector<std::string>{} : std::vector<std::string>{env};
    std::vector<std::string> out;
    if (const fs::path bin = executableDir(); !bin.empty()) out.push_back((bin / kModuleFile).string());
    if (const fs::path lib = installedLibDir(); !lib.empty()) out.push_back((lib / kModuleFile).string());
    return out;
}

void preloadNeuralModule() {
    if (g_linkedIn) return;
    Module& m = module();
    std::lock_guard lock(m.mutex);
    openLocked(m);
}

const ModuleStatus& ensureNeuralMethods() {
    Module& m = module();
    std::lock_guard lock(m.mutex);
    if (m.registered) return m.status;
    if (g_linkedIn) {
        m.status = {.available = true, .error = {}};
    } else {
        openLocked(m);
        m.status = registerLocked(m);
    }
    m.registered = true;
    return m.status;
}

void markNeuralMethodsLinkedIn() { g_linkedIn = true; }

} // namespace sl::neural
