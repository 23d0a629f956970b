// SPDX-License-Identifier: MIT
// Fills the table of `schedlab-cli profile` and `calibrate` (models/timing/tools.h) when the neural
// module is loaded. A static registrar, as the benches register themselves (app/bench/bench.h):
// the table lives in the executable, so the module's constructor fills it during dlopen, before
// the CLI looks, and registerNeuralOptimizers() needs no list of tools.
#include "models/timing/calibration.h"
#include "models/timing/modelprofiler.h"
#include "models/timing/tools.h"

namespace sl::models::timing {
namespace {

const bool g_timingToolsRegistered = [] {
    setTimingTools({.profile = &profileOnnxModel, .calibrate = &calibrateMachine});
    return true;
}();

} // namespace
} // namespace sl::models::timing
