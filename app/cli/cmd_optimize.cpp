// SPDX-License-Identifier: MIT
// `schedlab-cli optimize GRAPH --method M --out SCHEDULE.json`: runs one registered optimizer.
#include "command.h"
#include "distargs.h"
#include "interrupt.h"
#include "neural.h"
#include "optimizebatch.h"
#include "problemargs.h"

#include "core/analysis/bounds.h"
#include "core/costmodel/sharedlinks.h"
#include "core/costmodel/validator.h"
#include "core/graph/durationtext.h"
#include "core/io/scheduleio.h"
#include "core/optimizer/candidates.h"
#include "core/optimizer/optimizer.h"
#include "core/optimizer/resultbound.h"
#include "core/profile/measuredschedule.h"
#include "core/util/atomicfile.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

namespace sl::cli {
namespace {

double parseNumber(const std::string& key, const std::string& text) {
    try {
        std::size_t used = 0;
        const double d = std::stod(text, &used);
        if (used == text.size()) return d;
    } catch (const std::exception&) {
    }
    throw UsageError("--" + key + " expects a number, got '" + text + "'");
}

/// Declared method options from the command line into RunOptions (range-checked).
void takeMethodOptions(Args& args, const OptimizerInfo& info, RunOptions& o) {
    for (const OptionSpec& spec : info.options) {
        const auto text = args.take(spec.key);
        if (!text) continue;
        if (spec.kind == OptionSpec::Kind::Choice) {
            auto it = std::find(spec.choices.begin(), spec.choices.end(), *text);
            if (it == spec.choices.end()) throw UsageError("--" + spec.key + ": unknown choice '" + *text + "'");
            o.strings[spec.key] = *text;
            o.values[spec.key] = static_cast<double>(it - spec.choices.begin());
            continue;
        }
        double x;
        if (spec.kind == OptionSpec::Kind::Bool) x = (*text == "1" || *text == "true" || *text == "yes") ? 1 : 0;
        else x = parseNumber(spec.key, *text);
        if (x < spec.min || x > spec.max)
            throw UsageError("--" + spec.key + " expects a value in [" + std::to_string(spec.min) + ", " +
                             std::to_string(spec.max) + "]");
        o.values[spec.key] = x;
    }
}

/// Throws IoError naming `path` when its folder does not exist (the file itself is written later).
void checkWritable(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path folder = fs::path(path).parent_path();
    if (fs::is_directory(fs::path(path), ec)) throw IoError(path + ": cannot write: is a folder");
    if (!folder.empty() && !fs::is_directory(folder, ec))
        throw IoError(path + ": cannot write: the folder " + folder.string() + " does not exist");
}

std::string join(const std::vector<std::string>& items, const char* separator) {
    std::string out;
    for (const std::string& x : items) out += (out.empty() ? "" : separator) + x;
    return out;
}

std::vector<std::string> objectiveNames(const OptimizerInfo& m) {
    std::vector<std::string> out;
    for (const Objective o : m.objectives) out.push_back(toString(o));
    return out;
}

/// One declared option as it goes on the command line, with its default: "--population 100".
std::string optionLine(const OptionSpec& s) {
    std::ostringstream usage;
    usage << "--" << s.key << " ";
    if (s.kind == OptionSpec::Kind::Choice) usage << s.choices.at(static_cast<std::size_t>(s.defaultValue));
    else if (s.kind == OptionSpec::Kind::Double) usage << s.defaultValue;
    else usage << static_cast<long long>(s.defaultValue);
    std::string line = "    " + usage.str();
    line += std::string(line.size() < 30 ? 30 - line.size() : 1, ' ') + s.help;
    if (s.kind == OptionSpec::Kind::Choice) line += " (" + join(s.choices, ", ") + ")";
    return line + "\n";
}

/// Every registered method, its declared objectives and its own options, from the registry.
std::string methodOptionsHelp() {
    loadNeuralMethods();
    std::string out;
    for (const OptimizerInfo& m : OptimizerRegistry::instance().list()) {
        out += "  " + m.name + " (--objective " + join(objectiveNames(m), "|") + ")" + (m.options.empty() ? ": no options\n" : ":\n");
        for (const OptionSpec& s : m.options) out += optionLine(s);
    }
    return out;
}

/// 100 * gap, with a gap that rounds to zero at two decimals printed as +0.00, not +-0.00 (a
/// result at its bound is a hair below it after rounding).
double percentPoints(double gap) { return std::abs(100 * gap) < 0.005 ? 0.0 : 100 * gap; }

/// How far the result can at most be from the optimum: "gap to lower bound 55 units (machines): +10.91%"
/// for makespan, the peak memory on the problem's clock against the memory bound for a memory
/// objective; the tightest bound known (core/optimizer/resultbound.h), which a run may have proved.
void printGapToBound(const Problem& p, const RunResult& r) {
    const bool memory = p.objective.kind == Objective::Memory;
    const CostBound bound = tightestBound(p, r, lowerBounds(p));
    const double gap = gapToBound(memory ? r.schedule.peakMemory() : r.schedule.makespan, bound.value);
    if (std::isnan(gap)) return;
    std::ostringstream value;
    value << std::setprecision(12) << bound.value << " bytes";
    std::cout << "gap to lower bound " << (memory ? value.str() : formatDuration(bound.value, p.g().timeUnit())) << " ("
              << bound.source << "): " << std::showpos << std::fixed << std::setprecision(2) << percentPoints(gap)
              << "%" << std::noshowpos << std::defaultfloat << "\n";
}

/// --target needs what the protocol assumes: a makespan run on the proxy (free transfers).
void checkTargetRun(const Problem& p, const TargetArgs& targets) {
    if (targets.models.empty()) return;
    if (p.objective.kind != Objective::Makespan)
        throw UsageError("--target judges schedules by their makespan: use it with --objective makespan");
    const bool onlyMeasured = std::all_of(targets.models.begin(), targets.models.end(), [](TargetModel m) { return m == TargetModel::Measured; });
    if (!onlyMeasured && !p.platform.transfersFree())
        throw UsageError("--target compares against the proxy, which has free transfers: the platform's "
                         "interconnect has a latency or a finite bandwidth (a measured target alone judges "
                         "on the machine's own links)");
}

/// The candidate protocol (Zhang et al. 2023, §5 "Candidate sampler", Fig. 1): the top k
/// candidates by proxy speedup, the best of them on each target, and their diversity.
void printCandidateReport(const Problem& p, const RunResult& r, const TargetArgs& targets, int topK) {
    if (targets.models.empty()) return;
    CandidateOptions o{.topK = topK, .targets = targets.models, .targetSeed = targets.seed};
    if (targets.measured()) {
        o.measuredGraph = targets.measuredGraph(p);
        o.rankOnProblem = !p.platform.transfersFree();   // the estimate with the machine's links is the proxy
    }
    const CandidateReport c = evaluateCandidates(p, candidatesOf(r), o);
    std::cout << std::setprecision(6) << "candidates: top " << c.kept << " of " << c.candidates
              << " by " << (o.rankOnProblem ? "estimated" : "proxy") << " speedup | " << (o.rankOnProblem ? "estimated" : "proxy") << " speedup: top-1 " << c.proxyTop1 << ", top-" << c.kept << " mean "
              << c.proxyTopKMean << "\n";
    for (const TargetOutcome& t : c.targets)
        std::cout << "target " << toString(t.model) << ": best of " << c.kept << " " << t.bestOfK << " (candidate "
                  << t.best << ") | proxy top-1 there " << t.ofProxyTop1 << "\n";
    const Diversity& d = c.diversity;
    std::cout << "diversity of the top " << c.kept << ": GED " << d.ged << " | d_inv " << d.dInv << " | d_sen " << d.dSen
              << " | distinct " << d.distinct << " (" << d.distinctUpToRelabelling << " up to device relabelling)\n";
}

/// ONNX Runtime's own order (a --profile that is its trace), timed on the problem, beside the result.
void printAsMeasured(const LoadedProblem& lp) {
    if (!lp.profile || !lp.profile->ort || lp.training) return;
    const auto& threads = lp.profile->ort->measuredOrderPerThread;
    const Schedule s = asMeasuredSchedule(lp.problem, threads);
    std::cout << std::setprecision(12) << "as measured (ONNX Runtime's order, " << threads.size()
              << (threads.size() == 1 ? " thread" : " threads") << "): makespan "
              << formatDurationWithExact(s.makespan, lp.problem.g().timeUnit()) << "\n";
}

/// The schedule of `--start FILE`: read, valid for this problem, and for a method that takes one.
std::shared_ptr<const Schedule> loadStart(const Problem& p, const std::string& path, const OptimizerInfo& info) {
    RunOptions probe;
    probe.start = std::make_shared<Schedule>();
    try {
        checkStart(info, probe);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    auto start = std::make_shared<Schedule>(loadScheduleJson(p, path));
    const ValidationReport v = validateSchedule(p, *start);
    if (!v.ok()) throw UsageError(path + " is not a valid schedule of this graph on this platform: " + v.errors.front());
    return start;
}

int runOptimize(Args& args) {
    const auto method = args.take("method");
    if (!method) throw UsageError("--method is required (see 'schedlab-cli methods')");
    const OptimizerInfo* info = findMethod(*method);
    if (!info) throw UsageError("unknown method '" + *method + "' (see 'schedlab-cli methods')" + neuralUnavailableNote());
    RunOptions o;
    const std::int64_t seed = args.takeInt("seed", 1);
    if (seed < 0) throw UsageError("--seed expects a non-negative whole number");
    o.seed = static_cast<std::uint64_t>(seed);
    o.budget = args.takeInt("budget", 0);
    o.timeLimit = args.takeDouble("time-limit", 0);
    o.threads = args.takeThreads(1);
    if (o.budget < 0 || o.timeLimit < 0 || o.threads < 1) throw UsageError("--budget, --time-limit, --threads must be positive");
    if (const auto weights = args.take("weights")) {
        if (info->family != "neural") throw UsageError("--weights applies to the neural methods only");
        o.strings["weights"] = *weights;
    }
    takeMethodOptions(args, *info, o);
    const auto start = args.take("start");
    const auto pins = args.take("pins");
    const auto outDir = args.take("out-dir");
    if (isBatch(args, outDir.has_value())) {
        if (start || pins) throw UsageError("--start and --pins name a schedule of one graph: give one graph, not several");
        return runOptimizeBatch(args, {*method, o, outDir});
    }
    const auto out = args.take("out");
    if (!out) throw UsageError("--out SCHEDULE.json is required");
    const auto trace = args.take("trace");
    const auto csv = args.take("csv");
    const bool progress = args.takeFlag("progress");
    const bool force = args.takeFlag("force");
    const TargetArgs targets = takeTargets(args);
    const std::int64_t topK = args.takeInt("top-k", 100);
    if (topK < 1 || topK > 1'000'000) throw UsageError("--top-k expects 1..1000000");
    if (!targets.models.empty()) o.candidates = static_cast<int>(topK);
    LoadedProblem lp = takeProblem(args);
    args.finish(1);
    if (pins) lp.problem.pins = loadSchedulePins(lp.problem, *pins);
    try {
        checkPins(*info, lp.problem);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    const Problem& p = lp.problem;
    const auto& declared = info->objectives;
    if (std::find(declared.begin(), declared.end(), p.objective.kind) == declared.end())
        throw UsageError(*method + " does not optimise " + toString(p.objective.kind) + ": it declares --objective " +
                         join(objectiveNames(*info), "|"));
    checkTargetRun(p, targets);
    if (start) o.start = loadStart(p, *start, *info);
    // Fail before a long run, not after it, when an output cannot be written.
    for (const auto& target : {std::optional<std::string>(out), trace, csv})
        if (target) checkWritable(*target);

    // Ctrl-C requests a stop; the optimizer returns its best schedule so far.
    std::optional<InterruptStop> interrupt(std::in_place, std::initializer_list<int>{SIGINT});
    ProgressFn report;
    if (progress)
        report = [](const Progress& pr) {
            std::cerr << "  " << std::fixed << std::setprecision(2) << pr.seconds << " s  " << pr.evaluations
                      << " evaluations  best " << std::defaultfloat << std::setprecision(10) << pr.best << "\n";
        };
    const RunResult r = OptimizerRegistry::instance().create(*method)->run(p, o, report, interrupt->token());
    interrupt.reset();   // Ctrl-C from here on ends the process as usual

    const ValidationReport v = requireValidResult(p, r.schedule, *method);
    if (r.cancelled && !force && std::filesystem::exists(*out)) {
        std::cerr << "schedlab-cli optimize: the run was stopped; kept the existing " << *out
                  << " (the stopped run's best, cost " << std::setprecision(12) << r.cost
                  << ", was not written; --force replaces it)\n";
        return 1;
    }
    // every output or none: a --trace or --csv that cannot be written leaves --out untouched too
    OutputSet outputs;
    outputs.add(*out, scheduleToJson(p, r.schedule));
    if (trace) outputs.add(*trace, chromeTraceJson(p, r.schedule, *trace));
    if (csv) outputs.add(*csv, scheduleToCsv(p, r.schedule, *csv));
    outputs.commit();
    std::cout << std::setprecision(12) << *method << ": cost " << r.cost << " | makespan "
              << formatDurationWithExact(r.schedule.makespan, p.g().timeUnit()) << " | peak memory "
              << r.schedule.stepMemory.peak << " bytes (step), " << r.schedule.timeMemory.peak << " bytes (time) | "
              << r.evaluations << " evaluations | " << std::fixed << std::setprecision(3) << r.seconds << " s"
              << std::defaultfloat << (r.cancelled ? " | cancelled" : "") << (r.note.empty() ? "" : " | " + r.note)
              << " -> " << *out << "\n";
    printGapToBound(p, r);
    printAsMeasured(lp);
    std::cout << "times: " << lp.timing << (p.platform.name.empty() ? "" : " (" + p.platform.name + ")") << "\n";
    if (const std::string links = linksDescription(p.platform); !links.empty()) std::cout << "links: " << links << "\n";
    for (const std::string& w : v.warnings) std::cout << "warning: " << w << "\n";
    printCandidateReport(p, r, targets, static_cast<int>(topK));
    return 0;
}

std::string optimizeHelp() {
    return std::string("Usage: schedlab-cli optimize GRAPH --method M --out SCHEDULE.json [options]\n"
                       "       schedlab-cli optimize GRAPH... | FOLDER --method M [--out-dir DIR] [options]\n"
                       "Runs one optimizer ('schedlab-cli methods' lists them), re-validates its schedule,\n"
                       "writes it and prints a one-line summary. Ctrl-C stops the run and keeps the best\n"
                       "schedule found so far.\n\n"
                       "Options:\n"
                       "  --method M            the optimizer, e.g. list-cp, heft, mem-xla-list, random-search\n"
                       "  --out FILE            schedule JSON to write (required)\n"
                       "  --trace FILE          also write a Chrome trace (chrome://tracing, Perfetto)\n"
                       "  --csv FILE            also write one CSV row per op\n"
                       "                        (all outputs are written, or none of them)\n"
                       "  --force               let a run stopped with Ctrl-C replace an existing --out\n"
                       "                        (without it the existing file is kept)\n"
                       "  --seed S              random seed (default 1)\n"
                       "  --budget EVALS        evaluations for search methods (default: the method's)\n"
                       "  --time-limit SEC      stop after this many seconds (default: none)\n"
                       "  --threads T           worker threads for methods that use them (default 1)\n"
                       "  --progress            print progress to stderr\n"
                       "  --weights FILE        weight file of a neural method (default: its shipped weights)\n"
                       "  --start FILE          a schedule of this graph to start from (a hand-edited one, say):\n"
                       "                        tabu searches from it, brkga-chains seeds its population with it;\n"
                       "                        neither returns a costlier schedule. Other methods refuse it\n"
                       "  --pins FILE           keep the ops a schedule file pins (its \"pins\") where they are pinned:\n"
                       "                        list-cp, list-mopnr, list-spt and tabu can; other methods refuse them\n") +
           problemOptionsHelp() + targetOptionsHelp() +
           "  --top-k K             with --target: the candidates kept by proxy speedup and judged on\n"
           "                        the targets (default 100, as in Zhang et al. 2023, §5): BRKGA's final\n"
           "                        population, priority-sampler's samples, other methods' one schedule.\n"
           "                        Prints proxy top-1 and top-k mean, each target's best of k and the\n"
           "                        top k's diversity (GED, d_inv, d_sen, distinct schedules). Needs\n"
           "                        --objective makespan and free transfers; --out gets the proxy's best schedule.\n" +
           batchOptionsHelp() + dist::distFlagsHelp() +
           "\nMethods, the objectives each is built for (others are refused) and their own options with\n"
           "their defaults (an option applies only to its method):\n" + methodOptionsHelp();
}

SL_CLI_COMMAND({"optimize", "schedule a graph with one optimizer and write the schedule", &optimizeHelp,
                {"progress", "force"}, &runOptimize});

} // namespace
} // namespace sl::cli
