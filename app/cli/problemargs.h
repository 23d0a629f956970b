// SPDX-License-Identifier: MIT
#pragma once
/// Turns the common command-line description of a scheduling problem into a graph and an
/// sl::Problem, so that every command reads it the same way:
///
///   GRAPH [--format F] [--training sgd|adam] [--devices N | --platform P.json | --preset ID | --device ID]
///         [--profile FILE]
///         [--objective makespan|memory|both] [--memory-weight W] [--memory-cap BYTES]
///         [--memory-clock step|time]
///
/// --profile applies measured op times to the graph as read (before --training: the profile is
/// of the model's file); a profile of another model is refused.
/// --training replaces the graph by its training step (core/graph/traininggraph.h) right after
/// loading, so that every command schedules, evaluates and reports the training graph.
/// The format comes from the extension unless --format is given. The platform is, in order:
/// --preset (its first --devices N when given), --device (N of it), --platform, --devices N identical devices, the platform the file carries (job-shop, native
/// JSON), else one device per machine type the graph uses (one device for an untyped graph).
/// --memory-cap sets every device's memory capacity. With catalogue devices (--preset, --device, or
/// a platform file naming models), every op whose work is known is re-timed on them (core/timing).
/// Bad files throw sl::IoError (exit 1), bad options UsageError (exit 2).

#include "args.h"

#include "core/costmodel/problem.h"
#include "core/costmodel/target.h"
#include "core/graph/traininggraph.h"
#include "core/io/graphio.h"
#include "core/profile/profilefile.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sl::cli {

struct LoadedProblem {
    LoadedGraph loaded;   ///< the training step's graph with --training
    Problem problem;
    std::optional<UpdateRule> training;   ///< --training, if given
    std::optional<AppliedProfile> profile;   ///< --profile, as applied
    std::string timing;   ///< where the durations come from ("NVIDIA A100 ... roofline: 230 ops estimated")
};

/// --format F as a GraphFormat (Auto when absent); UsageError for an unknown name.
GraphFormat takeGraphFormat(Args& args);

/// --training sgd|adam (nullopt when absent); UsageError for any other value.
std::optional<UpdateRule> takeTraining(Args& args);
/// Replaces `loaded.graph` by its training step under `rule` (nothing for nullopt); IoError naming
/// the file and the op at fault.
void applyTraining(LoadedGraph& loaded, std::optional<UpdateRule> rule);
/// The help line for --training.
const char* trainingOptionHelp();

/// The options above, before any file is read (a batch applies them to every graph).
struct ProblemSpec {
    GraphFormat format = GraphFormat::Auto;
    std::optional<UpdateRule> training;
    std::int64_t devices = 0;   ///< 0: the file's platform or the default
    std::optional<std::string> platformPath;
    ObjectiveSpec objective;
    double memoryCap = 0;       ///< 0: unlimited
    std::optional<std::string> preset;   ///< --preset ID: a machine of the catalogue (docs/time.md)
    std::optional<std::string> device;   ///< --device ID: --devices N (default 1) of one catalogue device
    std::optional<std::string> profile;  ///< --profile FILE: measured op times (schedlab or ONNX Runtime)
    std::optional<Platform> platform;    ///< a machine already read (a schedule file's), used like --platform
    bool sharedLinks = false;            ///< --shared-links: the topology's links carry one transfer at a time
    bool freeLinks = false;              ///< --free-links: contention-free transfers on a topology

    /// True when the command line names a machine (--devices, --platform, --preset, --device).
    bool namesMachine() const { return devices > 0 || platformPath || preset || device; }
};
/// Takes the options above from `args` (UsageError for a bad one).
ProblemSpec takeProblemSpec(Args& args);
/// Reads `path` and builds its problem under `spec` (IoError naming the file).
LoadedProblem loadProblem(const std::string& path, const ProblemSpec& spec);
/// Takes positional `graphIndex` and the options above from `args` (other options stay).
LoadedProblem takeProblem(Args& args, std::size_t graphIndex = 0);

/// The help lines for the options above, to paste into a command's --help.
const char* problemOptionsHelp();

/// The target models a command reports against (Zhang et al. 2023, §5.1; docs/costmodel.md):
///   --target noisy|bandwidth|latency|proxy (a comma-separated list, or all)  --target-seed S
struct TargetArgs {
    std::vector<TargetModel> models;   ///< empty: no --target given
    std::uint64_t seed = 1;            ///< the noisy target's durations
    std::optional<std::string> measuredProfile;   ///< FILE of measured:FILE

    bool measured() const { return measuredProfile.has_value(); }
    /// `p`'s graph with the measured profile applied (IoError naming the file; a profile of
    /// another model is refused), for TargetModel::Measured.
    std::shared_ptr<const Graph> measuredGraph(const Problem& p) const;
    /// The target problem of `m` for `p` (the measured one built from measuredGraph(p)).
    Problem problemFor(const Problem& p, TargetModel m) const;
};
/// Takes --target and --target-seed from `args` (UsageError for an unknown model).
TargetArgs takeTargets(Args& args);
/// The help lines for --target and --target-seed.
const char* targetOptionsHelp();

} // namespace sl::cli
