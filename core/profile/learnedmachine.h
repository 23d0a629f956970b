// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// A machine learned from the user's own profiles (docs/time.md, "A machine learned from
/// profiles"): models with a measured profile each (ONNX Runtime's trace or `schedlab-cli profile`
/// output), a base catalogue entry, and a fit of how the runtime departs from that entry's
/// roofline (core/timing/timefit.h), written as a new catalogue entry.
///
/// \code
///   std::vector<sl::ProfiledModel> runs = {sl::loadProfiledModel("resnet50.onnx", "resnet50.ort.json")};
///   sl::DeviceSpec learned = sl::learnedDevice(catalog.device("this-machine"), runs, "ort-this-machine");
///   sl::saveDeviceSpec(learned, path);
/// \endcode

#include "core/graph/graph.h"
#include "core/profile/profile.h"
#include "core/timing/devicespec.h"

#include <memory>
#include <string>
#include <vector>

namespace sl {

struct ProfiledModel {
    std::string modelPath, profilePath;
    std::shared_ptr<const Graph> graph;   ///< as read (its estimates untouched)
    Profile profile;                      ///< mapped onto the graph's op names (an ORT trace too)
    /// "resnet50.onnx: onnxruntime, CPUExecutionProvider (176 ops measured)", for the entry's sources
    std::string describe() const;
};

/// Reads the model and its profile and checks the profile is of that model (applyProfile's rules).
/// Throws IoError naming the file at fault.
ProfiledModel loadProfiledModel(const std::string& modelPath, const std::string& profilePath);

/// The model's measured ops with known work and a roofline body on `base`: fit samples.
std::vector<FitSample> fitSamples(const DeviceSpec& base, const ProfiledModel& m);

/// `base` with a fit on every model's samples, named `id`. Refuses (IoError) profiles of two
/// runtimes or machines (their tool or device differ), naming both files: one machine at a time.
DeviceSpec learnedDevice(const DeviceSpec& base, const std::vector<ProfiledModel>& models, const std::string& id);

}   // namespace sl
