// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// A study: many graphs, many methods, many seeds, on one kind of problem (issue 43). Its spec is
/// typed fields, written into the study's database (core/study/studystore.h) and read from a JSON
/// file:
/// \code
///   {"format": "schedlab-study", "version": 1,
///    "graphs": ["tests/data/stg", "resources/examples/ft06.txt"],      // files and folders
///    "methods": [{"name": "list-cp"}, {"name": "tabu", "budget": 2000, "options": {"tenure-min": 8}}],
///    "seeds": [1, 2, 3],
///    "devices": 4, "objective": "makespan", "training": "adam"}      // all three optional
/// \endcode
/// A real machine (docs/time.md): "preset": "dgx-a100" (its first "devices" when given) or
/// "device": "h100-sxm5-80gb" ("devices" of it, default 1); "profiles": [files] applies each
/// profile to the graph it is of (a schedlab profile by the model's fingerprint, an ONNX Runtime
/// trace by its op names: sl::profileIsOf); other graphs keep their estimates.
/// Relative graph paths are read from the study file's folder. A method entry may also carry "label" (its column name; default: name, or name and options),
/// "time_limit" (seconds) and "strings" (text options).

#include "core/costmodel/problem.h"
#include "core/graph/traininggraph.h"
#include "core/optimizer/optimizer.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sl {

struct StudyMethod {
    std::string label;   ///< unique within the study
    std::string name;    ///< the registered optimizer
    RunOptions options;  ///< seed overwritten per run
};

struct StudySpec {
    std::vector<std::string> graphs;   ///< files and folders, as given
    std::vector<StudyMethod> methods;
    std::vector<std::uint64_t> seeds{1};
    int devices = 0;                   ///< 0: the file's machine, else one device per machine type
    ObjectiveSpec objective;
    std::optional<UpdateRule> training;
    std::optional<std::string> preset;   ///< a machine preset's id (core/timing/catalog.h)
    std::optional<std::string> device;   ///< a catalogue device's id, `devices` of it
    std::vector<std::string> profiles;   ///< profile files, relative to baseDir like graphs

    /// Where relative graph paths are read from: the study file's folder (loadStudySpec), kept
    /// in the database beside the spec; empty: the working directory. Not part of the spec's
    /// identity, so that ranks on other machines merge.
    std::string baseDir;

    /// The graph files as the runs name them: files as given, folders' graph files (sorted by
    /// name) under the folder as given, so relative names stay relative.
    std::vector<std::string> graphFiles() const;
    /// A graph file's path to read: relative ones under baseDir.
    std::string resolve(const std::string& graphFile) const;
    /// The problem of one graph file. Throws IoError / GraphError naming the file.
    Problem problemFor(const std::string& graphFile) const;
};

/// How a spec's methods are checked. A study file's are looked up in the optimizer registry (name
/// and options); a database's were checked when it was created, so reading, printing and merging a
/// study needs none of its methods registered (the neural ones come with their module).
enum class MethodCheck { Registered, AsStored };

/// Throws IoError naming `sourceName` and the field at fault (unknown method, bad seed, ...).
StudySpec parseStudySpec(std::string_view json, const std::string& sourceName, MethodCheck check = MethodCheck::Registered);
StudySpec loadStudySpec(const std::string& path, MethodCheck check = MethodCheck::Registered);
/// The names of the spec's methods that no optimizer is registered under, in the spec's order
/// (the neural methods while their module is not loaded).
std::vector<std::string> unregisteredMethods(const StudySpec& spec);
std::string studySpecJson(const StudySpec& spec);

} // namespace sl
