// SPDX-License-Identifier: MIT
// `schedlab-cli info GRAPH`: size, work, critical path, lower bounds, machine types and memory.
#include "command.h"
#include "problemargs.h"

#include "core/analysis/bounds.h"
#include "core/analysis/levels.h"
#include "core/costmodel/sharedlinks.h"
#include "core/graph/durationtext.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>
#include <map>

namespace sl::cli {
namespace {

int runInfo(Args& args) {
    const bool json = args.takeFlag("json");
    LoadedProblem lp = takeProblem(args);
    args.finish(1);
    const Problem& p = lp.problem;
    const Graph& g = p.g();
    const LowerBounds lb = lowerBounds(p);
    const TimeUnit unit = g.timeUnit();
    const std::vector<double> bl = bottomLevels(g);
    const double criticalPath = bl.empty() ? 0 : *std::max_element(bl.begin(), bl.end());
    std::map<int, int> opsPerType;
    std::map<std::string, int> folded;   // ops that own no buffer and take no time, by type
    double tensorBytes = 0, paramBytes = 0;
    int sources = 0, sinks = 0;
    for (OpId v = 0; v < g.opCount(); ++v) {
        ++opsPerType[g.op(v).machineType];
        if (g.op(v).work.opClass == OpClass::Alias) ++folded[g.op(v).type];
        paramBytes += g.op(v).paramBytes;
        sources += g.predecessors(v).empty();
        sinks += g.successors(v).empty();
    }
    for (const Tensor& t : g.tensors()) tensorBytes += t.bytes;
    const std::vector<int> depth = depths(g);
    const int levels = depth.empty() ? 0 : 1 + *std::max_element(depth.begin(), depth.end());

    if (json) {
        nlohmann::json j;
        j["file"] = lp.loaded.sourcePath;
        j["training"] = lp.training ? nlohmann::json(std::string(updateRuleName(*lp.training))) : nlohmann::json();
        j["ops"] = g.opCount();
        j["tensors"] = g.tensorCount();
        j["edges"] = g.edgeCount();
        j["sources"] = sources;
        j["sinks"] = sinks;
        j["levels"] = levels;
        j["total_work"] = g.totalWork();
        j["critical_path"] = criticalPath;
        j["bounds"] = {{"critical_path", lb.criticalPath},
                       {"work_per_device", lb.workPerDevice},
                       {"machines", lb.machines},
                       {"critical_path_with_transfers", lb.transferPath},
                       {"busiest_link", lb.busiestLink},
                       {"makespan", lb.makespan},
                       {"makespan_source", lb.makespanSource},
                       {"memory", lb.memory},
                       {"memory_source", lb.memorySource}};
        nlohmann::json types = nlohmann::json::object();
        for (auto [type, count] : opsPerType) types[std::to_string(type)] = count;
        j["ops_per_machine_type"] = types;
        j["devices"] = p.platform.deviceCount();
        j["memory"] = {{"tensor_bytes", tensorBytes}, {"param_bytes", paramBytes}, {"largest_op_footprint", lb.footprint}};
        j["folded_ops"] = folded;
        j["warnings"] = lp.loaded.warnings;
        std::cout << j.dump(2) << "\n";
        return 0;
    }
    std::cout << "file            " << lp.loaded.sourcePath << "\n";
    if (lp.training) std::cout << "graph           its training step (" << updateRuleName(*lp.training) << ")\n";
    std::cout << "ops             " << g.opCount() << " (" << sources << " sources, " << sinks << " sinks, " << levels
              << " levels)\n"
              << "tensors         " << g.tensorCount() << "\n"
              << "edges           " << g.edgeCount() << "\n"
              << "total work      " << formatDuration(g.totalWork(), unit) << "\n"
              << "critical path   " << formatDuration(criticalPath, unit) << " (mean durations)\n"
              << "machine types  ";
    for (auto [type, count] : opsPerType) std::cout << " " << type << ": " << count << " ops;";
    std::cout << "\ndevices         " << p.platform.deviceCount()
              << (p.platform.name.empty() ? "" : " (" + p.platform.name + ")") << "\n"
              << "times           " << lp.timing << "\n"
              << (linksDescription(p.platform).empty() ? "" : "links           " + linksDescription(p.platform) + "\n")
              << "lower bounds    makespan >= " << formatDuration(lb.makespan, unit) << " (critical path "
              << formatDuration(lb.criticalPath, unit) << ", work / capacity " << formatDuration(lb.workPerDevice, unit)
              << ", machines " << formatDuration(lb.machines, unit) << ", with transfers "
              << formatDuration(lb.transferPath, unit);
    if (linksShared(p.platform)) std::cout << ", busiest link " << formatDuration(lb.busiestLink, unit);
    std::cout << "); peak memory >= " << lb.memory << " bytes (" << lb.memorySource << "; largest op footprint "
              << lb.footprint << ")\n"
              << "memory          " << tensorBytes << " tensor bytes, " << paramBytes << " parameter bytes\n";
    if (!folded.empty()) {   // docs/formats.md, "Buffers and folded ops"
        int total = 0;
        for (const auto& [type, count] : folded) total += count;
        std::cout << "folded ops      " << total << " own no buffer and take no time:";
        for (const auto& [type, count] : folded) std::cout << " " << type << " " << count << ";";
        std::cout << "\n";
    }
    for (const std::string& w : lp.loaded.warnings) std::cout << "warning         " << w << "\n";
    return 0;
}

SL_CLI_COMMAND({"info", "size, work, critical path, lower bounds and memory of a graph",
                std::string("Usage: schedlab-cli info GRAPH [--json] [problem options]\n"
                            "Prints ops, tensors, edges, total work, the critical path, lower bounds on the\n"
                            "makespan (critical path, work / devices, machines) and on peak memory (the\n"
                            "tensors resident across an op, and the largest single-op footprint), ops per\n"
                            "machine type and memory totals.\n\n"
                            "Options:\n"
                            "  --json                machine-readable output\n") +
                    problemOptionsHelp(),
                {"json"}, &runInfo});

} // namespace
} // namespace sl::cli
