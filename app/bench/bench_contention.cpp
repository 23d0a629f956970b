// SPDX-License-Identifier: MIT
// `schedlab-cli bench contention`: what shared links cost the schedules, and what planning with
// them wins back (docs/time.md, "Shared links"). Per graph and machine: list-cp planned on free
// links, that schedule on the shared links, list-cp, HEFT, tabu and brkga-order planned on the
// shared links (tabu and brkga-order for equal seconds), one device, the lower bound; and the
// time of one evaluation with and without contention.
#include "bench.h"

#include "core/analysis/bounds.h"
#include "core/costmodel/listscheduler.h"
#include "core/costmodel/sharedlinks.h"
#include "core/generators/generators.h"
#include "core/generators/hlotrainingstep.h"
#include "core/heuristics/priorities.h"
#include "core/io/graphio.h"
#include "core/localsearch/chainschedule.h"
#include "core/optimizer/optimizer.h"
#include "core/timing/catalog.h"
#include "core/timing/machine.h"
#include "core/timing/retime.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>

namespace sl::cli {
namespace bench_contention {
namespace {

struct Workload {
    std::string name;
    std::shared_ptr<const Graph> graph;
};

/// Generated PyTorch/XLA-shaped training steps with tensor parallelism (the kind).
std::vector<Workload> generatedSteps(bool quick) {
    std::vector<Workload> out;
    auto add = [&](const std::string& name, const HloStepSpec& spec) {
        const HloStepModule m = generateHloTrainingStep(spec);
        out.push_back({name, parseGraph(m.text, GraphFormat::Hlo, name).graph});
    };
    add("transformer L2 TP4",
        {.model = HloStepSpec::Model::Transformer,
         .layers = 2,
         .batch = 8,
         .sequence = 128,
         .hidden = 512,
         .heads = 8,
         .vocab = 8000,
         .tensorParallel = 4,
         .seed = 1});
    if (quick) return out;
    add("transformer L4 TP8",
        {.model = HloStepSpec::Model::Transformer,
         .layers = 4,
         .batch = 4,
         .sequence = 256,
         .hidden = 1024,
         .heads = 16,
         .vocab = 16000,
         .tensorParallel = 8,
         .adam = true,
         .seed = 2});
    add("transformer L2 TP2",
        {.model = HloStepSpec::Model::Transformer,
         .layers = 2,
         .batch = 16,
         .sequence = 128,
         .hidden = 768,
         .heads = 12,
         .vocab = 30000,
         .tensorParallel = 2,
         .bf16 = true,
         .seed = 3});
    add("MLP L6 TP4",
        {.model = HloStepSpec::Model::Mlp, .layers = 6, .batch = 256, .hidden = 2048, .tensorParallel = 4, .seed = 4});
    return out;
}

/// Files given with --files (HLO dumps, ONNX models: any format the readers take).
std::vector<Workload> fileSteps(const std::vector<std::string>& paths) {
    std::vector<Workload> out;
    for (const std::string& path : paths)
        out.push_back({std::filesystem::path(path).filename().string(), loadGraph(path).graph});
    return out;
}

std::vector<std::string> commaList(const std::string& text) {
    std::vector<std::string> out;
    for (size_t begin = 0; begin < text.size();) {
        const size_t end = std::min(text.find(',', begin), text.size());
        if (end > begin) out.push_back(text.substr(begin, end - begin));
        begin = end + 1;
    }
    return out;
}

RunResult runMethod(const Problem& p, const std::string& method, double seconds, std::uint64_t seed) {
    RunOptions o;
    o.seed = seed;
    o.timeLimit = seconds;
    o.budget = seconds > 0 ? std::int64_t(1) << 40 : 0;   // the time limit ends the searches
    return OptimizerRegistry::instance().create(method)->run(p, o, {}, {});
}

/// Microseconds per evaluation: the median of `runs` list schedules of list-cp's priorities.
double listEvaluationUs(const Problem& p, int runs) {
    ListScheduler ls(p);
    const std::vector<double> priority = criticalPathPriorities(p.g());
    return 1000 * medianMs(runs, [&] { (void)ls.makespan(priority); });
}

/// Microseconds per retime() of a chain search (tabu's evaluation) of `s`'s chains.
double chainEvaluationUs(const Problem& p, const Schedule& s, int runs) {
    ChainSchedule chains(p, deviceChains(s, p.platform.deviceCount()));
    return 1000 * medianMs(runs, [&] { (void)chains.retime(); });
}

struct Row {
    double freeListCp, retimed, listCp, heft, tabu, brkga, oneDevice, bound;
    double listUsFree, listUsShared, chainUsFree, chainUsShared;
};

Row measure(const Problem& shared, double seconds, int runs) {
    Problem free = shared;
    free.platform.topology.shared = false;
    Row r{};
    const RunResult planned = runMethod(free, "list-cp", 0, 1);
    r.freeListCp = planned.schedule.makespan;
    r.retimed = timeOnSharedLinks(shared, planned.schedule).makespan;
    r.listCp = runMethod(shared, "list-cp", 0, 1).schedule.makespan;
    r.heft = runMethod(shared, "heft", 0, 1).schedule.makespan;
    r.tabu = runMethod(shared, "tabu", seconds, 1).schedule.makespan;
    r.brkga = runMethod(shared, "brkga-order", seconds, 1).schedule.makespan;
    Problem one = shared;
    one.platform = firstDevices(shared.platform, 1);
    r.oneDevice = runMethod(one, "list-cp", 0, 1).schedule.makespan;
    r.bound = lowerBounds(shared).makespan;
    r.listUsFree = listEvaluationUs(free, runs);
    r.listUsShared = listEvaluationUs(shared, runs);
    r.chainUsFree = chainEvaluationUs(free, planned.schedule, runs);
    r.chainUsShared = chainEvaluationUs(shared, planned.schedule, runs);
    return r;
}

/// A layered graph whose ops carry work (as bench retime's), timed on `platform`.
Problem layeredOn(int ops, const Platform& platform) {
    const std::shared_ptr<Graph> g = graphWithWork(ops, 1);
    const TimedGraph timed = retimeGraph(*g, platform, DeviceCatalog::instance());
    return Problem{timed.retimed ? timed.retimed : g, platform, {}};
}

/// The cost of one evaluation at the sizes of real steps, free and shared, and the ratio.
void printEvaluationCost(const std::vector<int>& sizes, int runs) {
    const DeviceCatalog& catalog = DeviceCatalog::instance();
    std::printf(
        "\nOne evaluation, layered graphs whose ops carry work, median of %d, us (target: shared <= 1.5x free):\n",
        runs);
    std::printf("%8s %-12s %12s %12s %6s %12s %12s %6s\n", "ops", "machine", "list free", "list shared", "x",
                "chain free", "chain shared", "x");
    for (int n : sizes)
        for (const char* machine : {"dgx-a100", "2x-dgx-h100"}) {
            const Problem shared =
                layeredOn(n, presetPlatform(catalog.preset(machine), catalog, TimeUnit::Microseconds));
            Problem free = shared;
            free.platform.topology.shared = false;
            const Schedule planned = ListScheduler(free).schedule(criticalPathPriorities(free.g()));
            const double lf = listEvaluationUs(free, runs), ls = listEvaluationUs(shared, runs);
            const double cf = chainEvaluationUs(free, planned, runs), cs = chainEvaluationUs(shared, planned, runs);
            std::printf("%8d %-12s %12.0f %12.0f %6.2f %12.0f %12.0f %6.2f\n", n, machine, lf, ls, ls / lf, cf, cs,
                        cs / cf);
            std::fflush(stdout);
        }
}

int runContentionBench(Args& args) {
    const bool quick = args.takeFlag("quick");
    const double seconds = args.takeDouble("seconds", quick ? 1 : 20);
    const int runs = static_cast<int>(args.takeIntIn("runs", quick ? 3 : 21, 1, 1000));
    const std::vector<int> sizes = args.takeIntList("sizes", quick ? "1000" : "1000,10000");
    const std::vector<std::string> files = commaList(args.take("files", ""));
    const std::vector<std::string> machines =
        commaList(args.take("machines", quick ? "4x-l4-pcie4" : "4x-l4-pcie4,dgx-a100,2x-dgx-h100"));
    args.finish(1);
    std::vector<Workload> workloads = generatedSteps(quick);
    for (Workload& w : fileSteps(files)) workloads.push_back(std::move(w));
    const DeviceCatalog& catalog = DeviceCatalog::instance();
    std::printf(
        "Makespans (the graph's time unit) with the machine's links shared; the contention-free plan of list-cp\n"
        "beside its own times on the shared links; tabu and brkga-order %.0f s each, seed 1; bound: the\n"
        "analytic lower bound (valid under contention). Evaluation: median of %d, us (list schedule of list-cp's\n"
        "priorities; a chain search's retime of its chains), free -> shared.\n\n",
        seconds, runs);
    std::printf("%-20s %-12s %5s %10s %10s %6s %10s %10s %10s %10s %10s %10s %6s %16s %16s\n", "graph", "machine",
                "ops", "list free", "re-timed", "x", "list-cp", "heft", "tabu", "brkga-ord", "1 device", "bound",
                "new/re", "list eval", "chain eval");
    double ratioSum = 0;
    int ratioCount = 0, improvedTabu = 0, improvedBrkga = 0, worse = 0, rows = 0;
    for (const Workload& w : workloads)
        for (const std::string& machine : machines) {
            const Platform platform = presetPlatform(catalog.preset(machine), catalog, w.graph->timeUnit());
            const TimedGraph timed = retimeGraph(*w.graph, platform, catalog);
            const Problem shared{timed.retimed ? timed.retimed : w.graph, platform, {}};
            const Row r = measure(shared, seconds, runs);
            const double contention = r.retimed / r.freeListCp;
            std::printf(
                "%-20s %-12s %5d %10.1f %10.1f %6.2f %10.1f %10.1f %10.1f %10.1f %10.1f %10.1f %6.2f %7.0f ->%7.0f %7.0f ->%7.0f\n",
                w.name.c_str(), machine.c_str(), shared.g().opCount(), r.freeListCp, r.retimed, contention, r.listCp,
                r.heft, r.tabu, r.brkga, r.oneDevice, r.bound, r.listCp / r.retimed, r.listUsFree, r.listUsShared,
                r.chainUsFree, r.chainUsShared);
            std::fflush(stdout);
            ++rows;
            if (contention > 1.5) {
                ratioSum += r.listCp / r.retimed;
                ++ratioCount;
            }
            improvedTabu += r.tabu < r.listCp;
            improvedBrkga += r.brkga < r.listCp;
            worse += (r.tabu > r.listCp) + (r.brkga > r.listCp);
        }
    std::printf("\nwhere contention costs the free plan > 1.5x: contention-aware list-cp / re-timed, mean %.2f over %d "
                "(target <= 0.7)\n",
                ratioCount ? ratioSum / ratioCount : std::nan(""), ratioCount);
    std::printf("tabu below list-cp on %d of %d, brkga-order on %d of %d; a search ended worse than list-cp %d times\n",
                improvedTabu, rows, improvedBrkga, rows, worse);
    printEvaluationCost(sizes, runs);
    return 0;
}

SL_CLI_BENCH({"contention",
              "what shared links cost a contention-free plan, and what planning with them wins back",
              "Usage: schedlab-cli bench contention [--seconds 20] [--runs 21] [--machines A,B]\n"
              "                                     [--files F1,F2] [--sizes 1000,10000] [--quick]\n"
              "Per graph and machine (links shared): list-cp planned on free links and the same\n"
              "schedule on the shared links, list-cp, HEFT, tabu and brkga-order planned on the\n"
              "shared links (tabu and brkga-order --seconds each), one device, the analytic lower\n"
              "bound, and the median time of one evaluation (list schedule; chain retime) free and\n"
              "shared. Graphs: generated PyTorch/XLA-shaped transformer and MLP steps with tensor\n"
              "parallelism, and --files (HLO dumps, ONNX models). Machines: 4x-l4-pcie4, dgx-a100,\n"
              "2x-dgx-h100. Then one evaluation's time free and shared on layered graphs of --sizes\n"
              "ops on dgx-a100 and 2x-dgx-h100. --quick: one step, one machine, 1 s searches, 1,000 ops.\n",
              {"quick"},
              &runContentionBench});

}   // namespace
}   // namespace bench_contention
}   // namespace sl::cli
