// SPDX-License-Identifier: MIT
#include "core/study/studyspec.h"

#include "core/io/graphio.h"
#include "core/profile/profilefile.h"
#include "core/timing/machine.h"
#include "core/timing/retime.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace sl {

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr const char* kStudyFormat = "schedlab-study";
constexpr int kStudyVersion = 1;

std::vector<std::string> graphFilesIn(const fs::path& folder) {
    static const std::set<std::string> extensions{".json", ".dot", ".gv", ".stg", ".onnx", ".hlo", ".jss", ".txt", ".et"};
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(folder)) {
        if (!e.is_regular_file() || !extensions.contains(e.path().extension().string())) continue;
        const std::string name = e.path().filename().string();
        if (name.ends_with(".schedule.json") || name.ends_with(".card.json") || name.ends_with(".sweep.json") ||
            name.ends_with(".study.json") || name == "NOTICE.txt")
            continue;
        files.push_back(e.path().string());
    }
    std::sort(files.begin(), files.end());
    return files;
}

Platform machineTypesPlatform(const Graph& g) {
    int maxType = 0;
    for (const Op& op : g.ops()) maxType = std::max(maxType, op.machineType);
    Platform p = Platform::identical(maxType + 1);
    for (int t = 0; t <= maxType; ++t) p.devices[static_cast<std::size_t>(t)].machineType = t;
    return p;
}

StudyMethod methodFromJson(const json& e, const std::string& where, MethodCheck check) {
    if (!e.is_object() || !e.contains("name") || !e["name"].is_string()) throw IoError(where + " must be an object with a \"name\"");
    StudyMethod m;
    m.name = e["name"].get<std::string>();
    const OptimizerInfo* info = OptimizerRegistry::instance().find(m.name);
    if (!info && check == MethodCheck::Registered) throw IoError(where + ": unknown method \"" + m.name + "\" (see 'schedlab-cli methods')");
    if (e.contains("budget")) m.options.budget = e["budget"].get<std::int64_t>();
    if (e.contains("time_limit")) m.options.timeLimit = e["time_limit"].get<double>();
    std::string suffix;
    if (e.contains("options")) {
        if (!e["options"].is_object()) throw IoError(where + ": \"options\" must be an object of numbers");
        for (const auto& [key, value] : e["options"].items()) {
            if (!value.is_number()) throw IoError(where + ": option \"" + key + "\" must be a number");
            const bool declared = !info || std::any_of(info->options.begin(), info->options.end(), [&](const OptionSpec& o) { return o.key == key; });
            if (!declared) throw IoError(where + ": " + m.name + " has no option \"" + key + "\"");
            m.options.values[key] = value.get<double>();
            std::ostringstream v;
            v << value.get<double>();
            suffix += " " + key + "=" + v.str();
        }
    }
    if (e.contains("strings"))
        for (const auto& [key, value] : e["strings"].items()) m.options.strings[key] = value.get<std::string>();
    if (m.options.budget > 0) suffix += " budget=" + std::to_string(m.options.budget);
    m.label = e.contains("label") ? e["label"].get<std::string>() : m.name + suffix;
    return m;
}

/// Each method must be built for the study's objective, as `optimize` requires.
void checkObjectives(const StudySpec& s, const std::string& sourceName) {
    for (std::size_t i = 0; i < s.methods.size(); ++i) {
        const OptimizerInfo* info = OptimizerRegistry::instance().find(s.methods[i].name);
        const auto& declared = info->objectives;
        if (std::find(declared.begin(), declared.end(), s.objective.kind) != declared.end()) continue;
        std::string names;
        for (const Objective o : declared) names += (names.empty() ? "" : "|") + toString(o);
        throw IoError(sourceName + ": \"methods\"[" + std::to_string(i) + "]: " + s.methods[i].name + " does not optimise " +
                      toString(s.objective.kind) + ": it declares " + names);
    }
}

json methodToJson(const StudyMethod& m) {
    json e = {{"name", m.name}, {"label", m.label}};
    if (m.options.budget > 0) e["budget"] = m.options.budget;
    if (m.options.timeLimit > 0) e["time_limit"] = m.options.timeLimit;
    if (!m.options.values.empty()) e["options"] = m.options.values;
    if (!m.options.strings.empty()) e["strings"] = m.options.strings;
    return e;
}

} // namespace

std::string StudySpec::resolve(const std::string& graphFile) const {
    const fs::path p(graphFile);
    return p.is_absolute() || baseDir.empty() ? graphFile : (fs::path(baseDir) / p).lexically_normal().string();
}

std::vector<std::string> StudySpec::graphFiles() const {
    std::vector<std::string> files;
    for (const std::string& g : graphs) {
        if (fs::is_directory(resolve(g))) {
            for (const std::string& inside : graphFilesIn(resolve(g))) files.push_back((fs::path(g) / fs::path(inside).filename()).string());
        } else {
            files.push_back(g);
        }
    }
    return files;
}

namespace {

/// The profiles of `spec` that are of `g` applied to it (core/profile/profilefile.h's rule, as
/// the CLI's --profile and the explorer's Profile…; ONNX Runtime traces too); the others are of
/// other graphs.
std::shared_ptr<Graph> withProfiles(const StudySpec& spec, std::shared_ptr<Graph> g) {
    for (const std::string& file : spec.profiles) {
        auto measured = std::make_shared<Graph>(*g);
        if (applyProfileFileIfOf(*measured, spec.resolve(file))) g = std::move(measured);
    }
    return g;
}

/// The study's machine for a graph (core's one rule), or nullopt for the abstract devices of "devices".
std::optional<Platform> catalogueMachine(const StudySpec& spec, const Graph& g) {
    if (!spec.preset && !spec.device) return std::nullopt;
    return resolveMachine({spec.preset.value_or(""), spec.device.value_or(""), spec.devices}, DeviceCatalog::instance(),
                          g.timeUnit());
}

} // namespace

Problem StudySpec::problemFor(const std::string& graphFile) const {
    LoadedGraph loaded = loadGraph(resolve(graphFile));
    loaded.graph = withProfiles(*this, loaded.graph);
    Problem p;
    p.objective = objective;
    p.graph = training ? std::make_shared<Graph>(makeTrainingGraph(*loaded.graph, {.rule = *training})) : loaded.graph;
    if (auto machine = catalogueMachine(*this, p.g())) p.platform = *machine;
    else if (devices > 0) p.platform = Platform::identical(devices);
    else if (loaded.platform && !training) p.platform = *loaded.platform;
    else p.platform = machineTypesPlatform(p.g());
    if (const TimedGraph timed = retimeGraph(p.g(), p.platform, DeviceCatalog::instance()); timed.retimed) p.graph = timed.retimed;
    try {
        p.check();
    } catch (const GraphError& e) {
        throw IoError(graphFile + ": does not fit the study's platform: " + e.what());
    }
    return p;
}

StudySpec parseStudySpec(std::string_view text, const std::string& sourceName, MethodCheck check) {
    json j;
    try {
        j = json::parse(text.begin(), text.end());
    } catch (const json::exception& e) {
        throw IoError(sourceName + ": not valid JSON: " + e.what());
    }
    auto fail = [&](const std::string& why) { throw IoError(sourceName + ": " + why); };
    if (!j.is_object()) fail("a study is a JSON object with \"graphs\" and \"methods\"");
    if (j.contains("format") && j["format"] != kStudyFormat) fail("not a SchedLab study (\"format\" is " + j["format"].dump() + ")");
    if (j.contains("version") && (!j["version"].is_number_integer() || j["version"].get<int>() > kStudyVersion))
        fail("study version " + j["version"].dump() + " is newer than this SchedLab reads (" + std::to_string(kStudyVersion) + ")");
    StudySpec s;
    try {
        if (!j.contains("graphs") || !j["graphs"].is_array() || j["graphs"].empty()) fail("\"graphs\" must list files or folders");
        for (const json& g : j["graphs"]) s.graphs.push_back(g.get<std::string>());
        if (!j.contains("methods") || !j["methods"].is_array() || j["methods"].empty()) fail("\"methods\" must list methods");
        for (std::size_t i = 0; i < j["methods"].size(); ++i)
            s.methods.push_back(methodFromJson(j["methods"][i], sourceName + ": \"methods\"[" + std::to_string(i) + "]", check));
        if (j.contains("seeds")) {
            s.seeds.clear();
            for (const json& seed : j["seeds"]) {
                if (!seed.is_number_unsigned()) fail("\"seeds\" must be whole numbers >= 0");
                s.seeds.push_back(seed.get<std::uint64_t>());
            }
            if (s.seeds.empty()) fail("\"seeds\" is empty");
        }
        if (j.contains("devices")) s.devices = j["devices"].get<int>();
        try {   // core's words for a machine's size (resolveMachine)
            checkDeviceCount(s.devices);
        } catch (const MachineSizeError& e) {
            fail(std::string("\"devices\": ") + e.what());
        }
        if (j.contains("objective")) s.objective.kind = objectiveFromString(j["objective"].get<std::string>());
        if (j.contains("training")) {
            s.training = parseUpdateRule(j["training"].get<std::string>());
            if (!s.training) fail("\"training\" must be sgd or adam");
        }
        if (j.contains("preset")) s.preset = j["preset"].get<std::string>();
        if (j.contains("device")) s.device = j["device"].get<std::string>();
        if (s.preset && s.device) fail("give \"preset\" or \"device\", not both");
        if (s.preset) DeviceCatalog::instance().preset(*s.preset);   // unknown: refused now, naming the ids
        if (s.device) DeviceCatalog::instance().device(*s.device);
        if (j.contains("profiles"))
            for (const json& f : j["profiles"]) s.profiles.push_back(f.get<std::string>());
    } catch (const json::exception& e) {
        fail(std::string("a field of the wrong type: ") + e.what());
    } catch (const std::invalid_argument& e) {
        fail(e.what());
    } catch (const IoError& e) {   // an unknown preset or device: the catalogue's ids
        fail(e.what());
    }
    if (check == MethodCheck::Registered) checkObjectives(s, sourceName);
    std::set<std::string> labels;
    for (const StudyMethod& m : s.methods)
        if (!labels.insert(m.label).second) fail("two methods are labelled \"" + m.label + "\" (give one a \"label\")");
    return s;
}

StudySpec loadStudySpec(const std::string& path, MethodCheck check) {
    std::ifstream in(path);
    if (!in) throw IoError(path + ": cannot open");
    std::stringstream text;
    text << in.rdbuf();
    StudySpec spec = parseStudySpec(text.str(), path, check);
    spec.baseDir = fs::absolute(path).parent_path().string();
    return spec;
}

std::vector<std::string> unregisteredMethods(const StudySpec& spec) {
    std::vector<std::string> missing;
    for (const StudyMethod& m : spec.methods)
        if (!OptimizerRegistry::instance().find(m.name) && std::find(missing.begin(), missing.end(), m.name) == missing.end())
            missing.push_back(m.name);
    return missing;
}

std::string studySpecJson(const StudySpec& s) {
    json j = {{"format", kStudyFormat}, {"version", kStudyVersion}, {"graphs", s.graphs}, {"seeds", s.seeds},
              {"devices", s.devices}, {"objective", toString(s.objective.kind)}};
    json methods = json::array();
    for (const StudyMethod& m : s.methods) methods.push_back(methodToJson(m));
    j["methods"] = std::move(methods);
    if (s.training) j["training"] = std::string(updateRuleName(*s.training));
    // only when set: the studies made before machines existed keep their identity
    if (s.preset) j["preset"] = *s.preset;
    if (s.device) j["device"] = *s.device;
    if (!s.profiles.empty()) j["profiles"] = s.profiles;
    return j.dump(1);
}

} // namespace sl
