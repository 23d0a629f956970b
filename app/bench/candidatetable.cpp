// SPDX-License-Identifier: MIT
#include "candidatetable.h"
#include "shard.h"

#include "app/cli/args.h"

#include "core/optimizer/optimizer.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>

namespace sl::cli {

std::vector<std::string> splitList(const std::string& text, char separator) {
    std::vector<std::string> out;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, separator);)
        if (!item.empty()) out.push_back(item);
    return out;
}

namespace {

std::int64_t parseBudget(const std::string& value, const std::string& spec) {
    try {
        size_t used = 0;
        const long long budget = std::stoll(value, &used);
        if (used == value.size() && budget > 0) return budget;
    } catch (const std::exception&) {
    }
    throw UsageError("method option 'budget=" + value + "' in '" + spec + "': expected a positive whole number");
}

} // namespace

MethodSpec parseMethodSpec(const std::string& text) {
    MethodSpec m;
    m.label = text;
    const size_t colon = text.find(':');
    m.name = text.substr(0, colon);
    const OptimizerInfo* info = OptimizerRegistry::instance().find(m.name);
    if (!info) throw UsageError("unknown method '" + m.name + "' (see 'schedlab-cli methods')");
    if (colon == std::string::npos) return m;
    for (const std::string& option : splitList(text.substr(colon + 1), ';')) {
        const size_t eq = option.find('=');
        if (eq == std::string::npos || eq == 0)
            throw UsageError("method option '" + option + "' in '" + text + "': expected key=value");
        const std::string key = option.substr(0, eq), value = option.substr(eq + 1);
        if (key == "weights" && info->family == "neural") {   // as optimize --weights
            m.options.strings[key] = value;
            continue;
        }
        if (key == "label") {
            m.label = value;
            continue;
        }
        if (key == "budget") {
            m.options.budget = parseBudget(value, text);
            continue;
        }
        const bool declared = std::any_of(info->options.begin(), info->options.end(),
                                          [&](const OptionSpec& spec) { return spec.key == key; });
        if (!declared) throw UsageError("method '" + m.name + "' has no option '" + key + "' (see 'schedlab-cli optimize --help')");
        try {
            size_t used = 0;
            const double number = std::stod(value, &used);
            if (used == value.size()) {
                m.options.values[key] = number;
                continue;
            }
        } catch (const std::exception&) {
        }
        m.options.strings[key] = value;
    }
    return m;
}

namespace {

/// A protocol run's numbers, in Tally's order: top-1, top-k mean, GED, d_inv, d_sen, distinct,
/// seconds, then each target's best of k (one item of a distributed bench, shard.h).
std::vector<double> protocolNumbers(const CandidateReport& r, double runSeconds) {
    std::vector<double> v{r.proxyTop1, r.proxyTopKMean, r.diversity.ged, r.diversity.dInv, r.diversity.dSen,
                          static_cast<double>(r.diversity.distinct), runSeconds};
    for (const TargetOutcome& t : r.targets) v.push_back(t.bestOfK);
    return v;
}

} // namespace

void Tally::add(const std::vector<double>& n) {
    top1 += n[0];
    topKMean += n[1];
    ged += n[2];
    dInv += n[3];
    dSen += n[4];
    distinct += n[5];
    seconds += n[6];
    targets.resize(n.size() - 7, 0.0);
    for (size_t i = 7; i < n.size(); ++i) targets[i - 7] += n[i];
    ++count;
}

void runProtocol(const MethodSpec& method, const Problem& p, const ProtocolSetup& setup, std::uint64_t seed, Tally& tally) {
    tally.add(shardItem(7 + setup.targets.size(), [&] {
        RunOptions o = method.options;
        o.seed = seed;
        if (o.budget <= 0) o.budget = setup.budget;
        o.candidates = setup.topK;
        const auto begin = std::chrono::steady_clock::now();
        const RunResult r = OptimizerRegistry::instance().create(method.name)->run(p, o, {}, {});
        const CandidateReport report = evaluateCandidates(
            p, candidatesOf(r), {.topK = setup.topK, .targets = setup.targets, .targetSeed = setup.targetSeed});
        return protocolNumbers(report, std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count());
    }));
}

void printTableHeader(const std::vector<TargetModel>& targets) {
    std::printf("%-38s %7s %9s", "method", "proxy 1", "proxy top");
    for (TargetModel m : targets) std::printf(" %10s", toString(m).c_str());
    std::printf(" %7s %7s %7s %9s %9s\n", "GED", "d_inv", "d_sen", "distinct", "seconds");
}

void printTableRow(const std::string& label, const Tally& t) {
    const double n = std::max(t.count, 1);
    std::printf("%-38s %7.3f %9.3f", label.c_str(), t.top1 / n, t.topKMean / n);
    for (double x : t.targets) std::printf(" %10.3f", x / n);
    std::printf(" %7.2f %7.2f %7.2f %9.1f %9.3f\n", t.ged / n, t.dInv / n, t.dSen / n, t.distinct / n, t.seconds / n);
    std::fflush(stdout);
}

void printTargetOnlyRow(const std::string& label, const std::vector<double>& targetSpeedups) {
    std::printf("%-38s %7s %9s", label.c_str(), "-", "-");
    for (double x : targetSpeedups) std::printf(" %10.3f", x);
    std::printf(" %7s %7s %7s %9s %9s\n", "-", "-", "-", "-", "-");
    std::fflush(stdout);
}

void printTableLegend() {
    std::printf("proxy 1 / proxy top: best and mean proxy speedup (total work / makespan) of the top k;\n"
                "target columns: best speedup of the top k on that target; GED (%%), d_inv, d_sen (time units):\n"
                "mean pairwise distances in the top k; distinct: different schedules among them; seconds: run\n"
                "and protocol, per graph.\n");
}

} // namespace sl::cli
