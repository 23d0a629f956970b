// SPDX-License-Identifier: MIT
#include "core/profile/learnedmachine.h"

#include "core/io/graphio.h"
#include "core/profile/profilefile.h"

#include <filesystem>

namespace sl {

namespace {

std::string fileName(const std::string& path) { return std::filesystem::path(path).filename().string(); }

/// Where a profile was measured: its tool and device, as the profile names them.
std::string runtimeOf(const Profile& p) { return p.tool + (p.device.empty() ? "" : ", " + p.device); }

}   // namespace

std::string ProfiledModel::describe() const {
    return fileName(modelPath) + " with " + fileName(profilePath) + ": " + runtimeOf(profile) + " (" +
        std::to_string(profile.ops.size()) + " ops measured)";
}

ProfiledModel loadProfiledModel(const std::string& modelPath, const std::string& profilePath) {
    ProfiledModel m{modelPath, profilePath, loadGraph(modelPath).graph, {}};
    Graph copy = *m.graph;   // applying maps an ORT trace onto the op names and checks the model
    m.profile = applyProfileFile(copy, profilePath).profile;
    return m;
}

std::vector<FitSample> fitSamples(const DeviceSpec& base, const ProfiledModel& m) {
    const Graph& g = *m.graph;
    std::vector<FitSample> out;
    for (const OpMeasurement& measured : m.profile.ops) {
        const OpId v = g.findOp(measured.name);
        if (v == kNoOp) continue;
        const Op& op = g.op(v);
        const double body = rooflineBodyMicroseconds(base, op.work);
        if (body > 0 && measured.medianUs > 0) out.push_back({op.type, op.work.opClass, body, measured.medianUs});
    }
    return out;
}

DeviceSpec learnedDevice(const DeviceSpec& base, const std::vector<ProfiledModel>& models, const std::string& id) {
    if (models.empty()) throw IoError("a learned machine needs at least one profile");
    std::vector<FitSample> samples;
    for (const ProfiledModel& m : models) {
        if (runtimeOf(m.profile) != runtimeOf(models.front().profile))
            throw IoError(m.profilePath + ": measured with " + runtimeOf(m.profile) + ", but " +
                          models.front().profilePath + " with " + runtimeOf(models.front().profile) +
                          ": fit one runtime on one machine at a time");
        const std::vector<FitSample> own = fitSamples(base, m);
        samples.insert(samples.end(), own.begin(), own.end());
    }
    DeviceSpec d = base;
    d.id = id;
    d.name = base.name + ", " + models.front().profile.tool + " (fitted to " + std::to_string(models.size()) +
        " profile" + (models.size() == 1 ? "" : "s") + ")";
    d.source = "schedlab-cli calibrate --from: " + base.id + "'s roofline fitted to " + std::to_string(samples.size()) +
        " measured ops of " + runtimeOf(models.front().profile);
    d.fit = fitTimes(samples);
    if (d.fit.empty())
        throw IoError(models.front().profilePath +
                      ": too few measured ops with known work to fit (at least 3 of one op type or class)");
    for (const ProfiledModel& m : models) d.fit.sources.push_back(m.describe());
    return d;
}

}   // namespace sl
