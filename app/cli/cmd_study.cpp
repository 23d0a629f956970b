// SPDX-License-Identifier: MIT
// `schedlab-cli study run STUDY.json --db FILE` and `study print FILE`: many graphs, methods and
// seeds in one SQLite database (core/study), each run stored as it finishes; a study stopped with
// Ctrl-C (or killed) resumes where it was.
#include "command.h"
#include "distargs.h"
#include "interrupt.h"
#include "neural.h"

#include "core/study/studyrunner.h"
#include "core/study/studysummary.h"

#include <csignal>
#include <iostream>
#include <thread>

namespace sl::cli {
namespace {

/// The neural methods are in their module (core/plugin/neuralmodule.h), loaded only when the study
/// names one of them: a study of classic methods never maps LibTorch.
void loadNeuralMethodsIfNamed(const std::string& db, const std::optional<std::string>& specPath) {
    const StudySpec spec = StudyStore::specToRun(db, specPath);
    if (unregisteredMethods(spec).empty()) return;
    loadNeuralMethods();
    if (const std::vector<std::string> missing = unregisteredMethods(spec); !missing.empty())
        throw std::runtime_error("unknown method \"" + missing.front() + "\" (see 'schedlab-cli methods')" + neuralUnavailableNote());
}

/// "--compare A,B": the Wilcoxon signed-rank test of two methods' per-graph costs.
void printComparison(const StudySummary& s, const std::string& pair) {
    const auto comma = pair.find(',');
    if (comma == std::string::npos) throw UsageError("--compare expects two method labels: A,B");
    const std::string a = pair.substr(0, comma), b = pair.substr(comma + 1);
    WilcoxonResult w;
    try {
        w = compareMethods(s, a, b);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    std::cout << "\n" << a << " against " << b << ": Wilcoxon signed-rank test over " << w.pairs
              << " graphs with a difference, V = " << w.plus << ", two-sided p = " << w.pValue
              << (w.exact ? " (exact)" : " (normal approximation, tie-corrected)") << "\n";
}

int runStudyCommand(Args& args) {
    const std::string action = args.positional(0, "action (run or print)");
    const auto db = args.take("db");
    const std::string format = args.take("format").value_or("table");
    const bool progress = args.takeFlag("progress");
    const int threads = args.takeThreads(static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
    const dist::DistOptions ranks = takeDistOptions(args);   // a shard per rank, each its own --db: no rendezvous
    const auto compare = args.take("compare");
    if (action == "print") {
        const std::string path = db ? *db : args.positional(1, "study database");
        args.finish(db ? 1 : 2);
        const StudyStore store = StudyStore::open(path, StudyStore::Access::ReadOnly);
        const StudySummary summary = summarize(store.spec(), store.runs());
        std::cout << formatSummary(summary, format);
        if (compare) printComparison(summary, *compare);
        return 0;
    }
    if (action == "merge") {
        const std::string out = args.positional(1, "output database");
        std::vector<std::string> inputs;
        for (std::size_t i = 2; i < args.positionalCount(); ++i) inputs.push_back(args.positional(i, "database"));
        args.finish(args.positionalCount());
        if (inputs.empty()) throw UsageError("study merge OUT.db IN.db...: name the databases to merge");
        const int added = StudyStore::merge(out, inputs);
        const StudyStore merged = StudyStore::open(out);
        std::cerr << "study merge: " << added << " runs added, " << merged.runs().size() << " in " << out << "\n";
        std::cout << formatSummary(summarize(merged.spec(), merged.runs()), format);
        return 0;
    }
    if (action != "run") throw UsageError("study: the action is run, print or merge, not " + action);
    const std::optional<std::string> spec = args.positionalCount() > 1 ? std::optional(args.positional(1, "study file")) : std::nullopt;
    args.finish(spec ? 2 : 1);
    if (!db) throw UsageError("--db FILE is required (the study's database; created when missing)");
    loadNeuralMethodsIfNamed(*db, spec);
    StudyStore store = StudyStore::openOrCreate(*db, spec);
    if (ranks.worldSize > 1)
        std::cerr << "study: " << ranks.describe() << ": runs " << ranks.rank << ", " << ranks.rank + ranks.worldSize
                  << ", ... of the study into " << *db << "\n";
    InterruptStop interrupt({SIGINT, SIGTERM});   // the run in flight finishes and is stored
    const int made = runStudy(store, [&](const StudyProgress& p) {
        if (progress && p.last)
            std::cerr << "  " << p.done << "/" << p.total << "  " << p.last->graph << "  " << p.last->method << "  seed "
                      << p.last->seed << (p.last->ok ? "" : "  failed: " + p.last->error) << "\n";
    }, interrupt.token(), threads, {ranks.worldSize, ranks.rank});
    const std::vector<StudyRun> runs = store.runs();
    std::cerr << "study: " << made << " runs made, " << runs.size() << " stored in " << *db << "\n";
    std::cout << formatSummary(summarize(store.spec(), runs), format);
    return 0;
}

const char* const kStudyHelp =
    "Usage: schedlab-cli study run [STUDY.json] --db FILE [--threads N] [--progress] [--format F]\n"
    "       schedlab-cli study print FILE [--format F] [--compare A,B]\n"
    "       schedlab-cli study merge OUT.db IN.db... [--format F]\n"
    "A study is many graphs, methods and seeds on one kind of problem (docs/studies.md). 'run' creates\n"
    "the database FILE from STUDY.json when it does not exist, else resumes it: every run not yet\n"
    "stored is made and stored as it finishes (Ctrl-C stops after the run in flight; a run already\n"
    "stored never runs again). Then, as 'print' does, per method: the geometric mean of its cost over\n"
    "the best method's per graph (mean over seeds), wins, ties (equal to the best within 1e-9), losses\n"
    "(a failed run loses), failed runs and the mean time. Sharded: with --world-size N --rank R a\n"
    "process makes runs R, R + N, R + 2N, ... of the study into its own --db (no shared file system,\n"
    "no rendezvous); 'merge' joins the ranks' databases into OUT.db (created when missing).\n\n"
    "Options:\n"
    "  --db FILE       the study's SQLite database\n"
    "  --progress      print each run as it is stored (stderr)\n"
    "  --threads N     runs made at once (default: the machine's cores); each run has one thread and\n"
    "                  its seed, so the results do not depend on N\n"
    "  --format F      table (default), csv, json or latex (a booktabs tabular)\n"
    "  --compare A,B   also the two-sided Wilcoxon signed-rank test of methods A and B over the graphs\n"
    "                  (per-graph means; exact up to 25 graphs, else the normal approximation)\n";

SL_CLI_COMMAND({"study", "many graphs x methods x seeds in one database: resumable runs and a summary per method", kStudyHelp,
                {"progress"}, &runStudyCommand});

} // namespace
} // namespace sl::cli
