// SPDX-License-Identifier: MIT
// The entry point of libschedlab-neural.so (core/plugin/neuralmodule.h): the executable that
// dlopens the module calls it once to register the neural optimizers, samplers and trainers into
// its own registries.
#include "models/register.h"

#include "core/plugin/neuralmodule.h"

#include <cstdio>
#include <exception>

extern "C" __attribute__((visibility("default"))) int schedlab_neural_register(int moduleApi) {
    if (moduleApi != sl::neural::kModuleApi) return 1;
    try {
        sl::registerNeuralOptimizers();
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "schedlab: registering the neural methods failed: %s\n", e.what());
        return 2;
    }
}
