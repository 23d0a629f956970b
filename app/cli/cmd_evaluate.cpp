// SPDX-License-Identifier: MIT
// `schedlab-cli evaluate GRAPH SCHEDULE.json`: re-checks a schedule from any source.
#include "command.h"
#include "problemargs.h"

#include "core/costmodel/cost.h"
#include "core/costmodel/sharedlinks.h"
#include "core/costmodel/target.h"
#include "core/costmodel/validator.h"
#include "core/graph/durationtext.h"
#include "core/io/scheduleio.h"

#include <iomanip>
#include <iostream>

namespace sl::cli {
namespace {

/// The schedule's speedup on the proxy and on each target (its device chains re-timed there).
void printTargetSpeedups(const Problem& p, const Schedule& s, const TargetArgs& targets) {
    if (targets.models.empty()) return;
    auto line = [](const std::string& label, double value) {
        std::cout << std::left << std::setw(20) << "speedup (" + label + ")" << value << "\n";
    };
    line("proxy", proxySpeedup(p, s));
    for (TargetModel m : targets.models)
        if (m != TargetModel::Proxy) line(toString(m), targetSpeedup(targets.problemFor(p, m), s));
}

int runEvaluate(Args& args) {
    const TargetArgs targets = takeTargets(args);
    ProblemSpec spec = takeProblemSpec(args);
    const std::string path = args.positional(1, "schedule file");
    // A schedule made on a catalogue machine (--preset, --device) is evaluated there unless the
    // command line names another: the file carries the machine, its ops' times follow from it.
    if (!spec.namesMachine())
        if (const auto origin = loadScheduleOrigin(path); origin.platform && origin.platform->hasCatalogueModels())
            spec.platform = origin.platform;
    LoadedProblem lp = loadProblem(args.positional(0, "graph file"), spec);
    args.finish(2);
    lp.problem.pins = loadSchedulePins(lp.problem, path);   // a schedule is checked against the pins it carries
    const Problem& p = lp.problem;
    const Schedule s = loadScheduleJson(p, path);
    const ValidationReport v = validateSchedule(p, s);
    if (!v.ok()) {
        std::cerr << path << ": invalid schedule:\n";
        for (const std::string& e : v.errors) std::cerr << "  " << e << "\n";
        return 1;
    }
    Schedule scored = s;
    const double cost = scoreSchedule(p, scored);
    std::cout << std::setprecision(12);   // bytes and times in full, not 2.28593e+07
    std::cout << path << ": valid\n"
              << "makespan            " << formatExactWithScaled(scored.makespan, p.g().timeUnit()) << "\n"
              << "peak memory (step)  " << scored.stepMemory.peak << " bytes\n"
              << "peak memory (time)  " << scored.timeMemory.peak << " bytes\n"
              << std::left << std::setw(20)
              << "cost (" + toString(p.objective.kind) + ", " + toString(p.objective.memoryClock) + " clock)"
              << " " << cost << "\n";
    printTargetSpeedups(p, s, targets);
    std::cout << "times               " << lp.timing << (p.platform.name.empty() ? "" : " (" + p.platform.name + ")") << "\n";
    if (const std::string links = linksDescription(p.platform); !links.empty())
        std::cout << "links               " << links << "\n";
    if (!s.method.empty()) std::cout << "method              " << s.method << " (seed " << s.seed << ")\n";
    for (const std::string& w : v.warnings) std::cout << "warning: " << w << "\n";
    return 0;
}

SL_CLI_COMMAND({"evaluate", "re-validate a schedule and print its makespan and peak memories",
                std::string("Usage: schedlab-cli evaluate GRAPH SCHEDULE.json [problem options]\n"
                            "Checks the schedule against the graph and platform (devices, machine types,\n"
                            "durations, precedence with transfer times, resource capacity, a topological\n"
                            "order, transfer steps) and prints the makespan, the peak memory on both\n"
                            "clocks and the cost, computed exactly as every optimizer computes it. A\n"
                            "schedule made on a catalogue machine (--preset, --device) is evaluated on the\n"
                            "machine it carries unless a machine option names another.\n"
                            "With --target, also the speedup (total work / makespan) of the schedule's\n"
                            "placement and per-device order re-timed on the proxy (free transfers) and\n"
                            "on each target model.\n"
                            "Exit code 1 when the schedule is invalid; the message names the faults.\n\n"
                            "Options:\n") +
                    problemOptionsHelp() + targetOptionsHelp(),
                {}, &runEvaluate});

} // namespace
} // namespace sl::cli
