// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The neural methods (LibTorch) live in a module, libschedlab-neural.so, loaded the first time
/// something needs them, so that the classic methods, importers and views start without mapping
/// LibTorch (and the OpenCV and Qt 5 that Debian's LibTorch pulls in). The module registers its
/// optimizers, samplers and trainers into the registries of the executable that loads it; it
/// links against no copy of core of its own (the executables export their symbols).
///
/// Where it is looked for, in order: $SCHEDLAB_NEURAL_MODULE (a file; "none" disables it), next
/// to the executable (a build tree), <executable>/../lib/schedlab (an installed tree).
///
/// \code
///   const sl::neural::ModuleStatus& s = sl::neural::ensureNeuralMethods();
///   if (!s.available) std::cerr << "neural methods unavailable: " << s.error << "\n";
/// \endcode

#include <string>
#include <vector>

namespace sl::neural {

/// Bumped whenever the registration interface changes: a stale module is refused, not run.
inline constexpr int kModuleApi = 1;
inline constexpr const char* kModuleFile = "libschedlab-neural.so";
inline constexpr const char* kEntrySymbol = "schedlab_neural_register";

struct ModuleStatus {
    bool available = false;   ///< the neural methods are registered
    std::string error;        ///< why they are unavailable (names the files tried)
};

/// Loads the module and registers its methods, once (thread-safe); later calls return the first
/// outcome. Call from the thread that owns the registries' readers (the GUI thread).
const ModuleStatus& ensureNeuralMethods();

/// Maps the module without registering anything: the slow part (about 0.3 s), for a background
/// thread; ensureNeuralMethods() then only registers.
void preloadNeuralModule();

/// For executables that link the neural methods in (the models tests): registerNeuralOptimizers()
/// calls it, and ensureNeuralMethods() then loads nothing.
void markNeuralMethodsLinkedIn();

/// The files ensureNeuralMethods() tries, in order.
std::vector<std::string> moduleCandidates();

} // namespace sl::neural
