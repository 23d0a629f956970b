// SPDX-License-Identifier: MIT
#include "models/weightfiles.h"

#include "models/gflownet/sampler.h"
#include "models/prioritysampler/optimizer.h"

#include "core/util/installpaths.h"

#include <cstdlib>
#include <filesystem>

namespace sl {

std::string models::modelsDir() {
    if (const char* env = std::getenv("SCHEDLAB_MODELS_DIR"); env && *env) return env;
    if (const std::filesystem::path installed = installedDataDir(); !installed.empty() && std::filesystem::is_directory(installed / "models"))
        return (installed / "models").string();
    if (const std::filesystem::path source = buildSourceTree("models/weights"); !source.empty())
        return (source / "models" / "weights").string();
    return "models/weights";
}

std::string gfn::defaultWeightsFor(const Problem&) {
    const std::string path = (std::filesystem::path(models::modelsDir()) / "gflownet.slw").string();
    return std::filesystem::exists(path) ? path : std::string();
}

std::string ps::shippedWeights(const std::string& task) {
    return (std::filesystem::path(models::modelsDir()) / ("priority-sampler-" + task + ".slw")).string();
}

} // namespace sl
