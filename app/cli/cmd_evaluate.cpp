// SPDX-License-Identifier: MIT
// `schedlab-cli evaluate GRAPH SCHEDULE.json`: re-checks a schedule from any source.
#include "command.h"
#include "problemargs.h"

#include "core/costmodel/cost.h"
#include "core/costmodel/validator.h"
#include "core/io/scheduleio.h"

#include <iomanip>
#include <iostream>

namespace sl::cli {
namespace {

int runEvaluate(Args& args) {
    LoadedProblem lp = takeProblem(args);
    const std::string path = args.positional(1, "schedule file");
    args.finish(2);
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
              << "makespan            " << scored.makespan << "\n"
              << "peak memory (step)  " << scored.stepMemory.peak << " bytes\n"
              << "peak memory (time)  " << scored.timeMemory.peak << " bytes\n"
              << std::left << std::setw(20)
              << "cost (" + toString(p.objective.kind) + ", " + toString(p.objective.memoryClock) + " clock)" << " "
              << cost << "\n";
    if (!s.method.empty()) std::cout << "method              " << s.method << " (seed " << s.seed << ")\n";
    for (const std::string& w : v.warnings) std::cout << "warning: " << w << "\n";
    return 0;
}

SL_CLI_COMMAND({"evaluate", "re-validate a schedule and print its makespan and peak memories",
                std::string("Usage: schedlab-cli evaluate GRAPH SCHEDULE.json [problem options]\n"
                            "Checks the schedule against the graph and platform (devices, machine types,\n"
                            "durations, precedence with transfer times, resource capacity, a topological\n"
                            "order, transfer steps) and prints the makespan, the peak memory on both\n"
                            "clocks and the cost, computed exactly as every optimizer computes it.\n"
                            "Exit code 1 when the schedule is invalid; the message names the faults.\n\n"
                            "Options:\n") +
                    problemOptionsHelp(),
                {}, &runEvaluate});

} // namespace
} // namespace sl::cli
