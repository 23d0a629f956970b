// SPDX-License-Identifier: MIT
#include "core/study/studysummary.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <tuple>

namespace sl {

namespace {

constexpr double kTie = 1e-9;
const double kNaN = std::numeric_limits<double>::quiet_NaN();

double bestOf(const StudySummary& s, std::size_t g) {
    double best = std::numeric_limits<double>::infinity();
    for (const auto& m : s.methods)
        if (const double c = s.cost.at(m)[g]; !std::isnan(c)) best = std::min(best, c);
    return best;
}

double ratio(double cost, double best) {
    if (std::isnan(cost)) return std::numeric_limits<double>::infinity();
    if (best == 0) return cost == 0 ? 1.0 : std::numeric_limits<double>::infinity();
    return cost / best;
}

bool equal(double a, double b) { return std::abs(a - b) <= kTie * std::max(std::abs(a), std::abs(b)); }

} // namespace

StudySummary summarizeCosts(std::vector<std::string> methods, std::vector<std::string> graphs,
                            std::map<std::string, std::vector<double>> cost, std::map<std::string, double> meanSeconds,
                            std::vector<double> bound) {
    bound.resize(graphs.size(), 0.0);
    StudySummary s{std::move(graphs), std::move(methods), std::move(cost), std::move(bound), {}};
    for (const std::string& m : s.methods) {
        MethodSummary row{.method = m, .meanSeconds = meanSeconds.count(m) ? meanSeconds.at(m) : 0};
        double logSum = 0;
        int counted = 0;
        std::vector<double> ratios;
        for (std::size_t g = 0; g < s.graphs.size(); ++g) {
            const double c = s.cost.at(m)[g], best = bestOf(s, g);
            if (std::isnan(c)) {
                ++row.failed;
                ++row.losses;
                continue;
            }
            logSum += std::log(ratio(c, best));
            ratios.push_back(ratio(c, best));
            ++counted;
            if (!equal(c, best)) {
                ++row.losses;
                continue;
            }
            int atBest = 0;
            for (const std::string& other : s.methods)
                if (const double o = s.cost.at(other)[g]; !std::isnan(o) && equal(o, best)) ++atBest;
            (atBest > 1 ? row.ties : row.wins) += 1;
        }
        row.geomeanRatio = counted ? std::exp(logSum / counted) : kNaN;
        double logToBound = 0;
        int bounded = 0;
        for (std::size_t g = 0; g < s.graphs.size(); ++g)
            if (const double c = s.cost.at(m)[g]; !std::isnan(c) && s.bound[g] > 0) logToBound += std::log(c / s.bound[g]), ++bounded;
        row.geomeanToBound = bounded ? std::exp(logToBound / bounded) : kNaN;
        std::tie(row.low, row.high) = bootstrapGeomeanInterval(ratios);
        s.rows.push_back(row);
    }
    return s;
}

StudySummary summarize(const StudySpec& spec, const std::vector<StudyRun>& runs) {
    const std::vector<std::string> graphs = spec.graphFiles();
    std::vector<std::string> methods;
    for (const StudyMethod& m : spec.methods) methods.push_back(m.label);
    std::map<std::string, std::vector<double>> sum, cost;
    std::map<std::string, std::vector<int>> count;
    std::map<std::string, std::vector<char>> failed;
    std::map<std::string, double> seconds, runsOf;
    std::vector<double> bound(graphs.size(), 0.0);
    for (const std::string& m : methods) {
        sum[m].assign(graphs.size(), 0);
        count[m].assign(graphs.size(), 0);
        failed[m].assign(graphs.size(), 0);
    }
    for (const StudyRun& r : runs) {
        const auto g = std::find(graphs.begin(), graphs.end(), r.graph);
        if (g == graphs.end() || !sum.count(r.method)) continue;
        const auto i = static_cast<std::size_t>(g - graphs.begin());
        if (r.ok) bound[i] = std::max(bound[i], r.bound);   // the graph's best bound any run knows
        if (!r.ok) failed[r.method][i] = 1;
        else sum[r.method][i] += r.cost, ++count[r.method][i];
        seconds[r.method] += r.seconds;
        runsOf[r.method] += 1;
    }
    std::map<std::string, double> meanSeconds;
    for (const std::string& m : methods) {
        cost[m].assign(graphs.size(), kNaN);
        for (std::size_t i = 0; i < graphs.size(); ++i)
            if (!failed[m][i] && count[m][i] > 0) cost[m][i] = sum[m][i] / count[m][i];
        meanSeconds[m] = runsOf[m] > 0 ? seconds[m] / runsOf[m] : 0;
    }
    return summarizeCosts(methods, graphs, std::move(cost), std::move(meanSeconds), std::move(bound));
}

double ratioToBest(const StudySummary& s, const std::string& method, std::size_t g) { return ratio(s.cost.at(method)[g], bestOf(s, g)); }

double performanceProfile(const StudySummary& s, const std::string& method, double tau) {
    const auto it = s.cost.find(method);
    if (it == s.cost.end() || s.graphs.empty()) return 0;
    int within = 0;
    for (std::size_t g = 0; g < s.graphs.size(); ++g) within += ratio(it->second[g], bestOf(s, g)) <= tau;
    return static_cast<double>(within) / static_cast<double>(s.graphs.size());
}

WilcoxonResult compareMethods(const StudySummary& s, const std::string& a, const std::string& b) {
    if (!s.cost.count(a) || !s.cost.count(b)) throw std::invalid_argument("no method labelled " + (s.cost.count(a) ? b : a) + " in this study");
    std::vector<double> x, y;
    for (std::size_t g = 0; g < s.graphs.size(); ++g)
        if (!std::isnan(s.cost.at(a)[g]) && !std::isnan(s.cost.at(b)[g])) x.push_back(s.cost.at(a)[g]), y.push_back(s.cost.at(b)[g]);
    return wilcoxonSignedRank(x, y);
}

std::string formatSummary(const StudySummary& s, const std::string& format) {
    if (format == "json") {
        nlohmann::json rows = nlohmann::json::array();
        for (const MethodSummary& r : s.rows)
            rows.push_back({{"method", r.method}, {"geomean_ratio_to_best", r.geomeanRatio}, {"interval_95", {r.low, r.high}},
                            {"geomean_ratio_to_bound", std::isnan(r.geomeanToBound) ? nlohmann::json() : nlohmann::json(r.geomeanToBound)}, {"wins", r.wins}, {"ties", r.ties},
                            {"losses", r.losses}, {"failed", r.failed}, {"mean_seconds", r.meanSeconds}});
        return nlohmann::json{{"graphs", s.graphs.size()}, {"methods", rows}}.dump(1) + "\n";
    }
    if (format == "latex") {   // a booktabs table for a paper
        std::string out = "\\begin{tabular}{lrrrrrrrr}\n\\toprule\nMethod & Cost / best & 95\\,\\% interval & Cost / bound & Wins & Ties & Losses & Failed & Mean s \\\\\n\\midrule\n";
        char line[512];
        for (const MethodSummary& r : s.rows) {
            std::string name;
            for (char c : r.method) name += (c == '_' || c == '&' || c == '%' || c == '#') ? std::string("\\") + c : std::string(1, c);
            std::snprintf(line, sizeof line, "%s & %.4f & %.4f--%.4f & %.4f & %d & %d & %d & %d & %.3g \\\\\n", name.c_str(), r.geomeanRatio, r.low, r.high,
                          r.geomeanToBound, r.wins, r.ties, r.losses, r.failed, r.meanSeconds);
            out += line;
        }
        return out + "\\bottomrule\n\\end{tabular}\n";
    }
    if (format != "csv" && format != "table") throw std::invalid_argument("--format expects table, csv, json or latex");
    const bool csv = format == "csv";
    std::string out = csv ? "method,geomean_ratio_to_best,interval_95_low,interval_95_high,geomean_ratio_to_bound,wins,ties,losses,failed,mean_seconds\n"
                          : "method                          | cost / best (geomean) | 95 % interval | cost / bound | wins | ties | losses | failed | mean s\n";
    char line[512];
    for (const MethodSummary& r : s.rows) {
        if (csv)
            std::snprintf(line, sizeof line, "%s,%.9g,%.9g,%.9g,%.9g,%d,%d,%d,%d,%.6g\n", r.method.c_str(), r.geomeanRatio, r.low, r.high,
                          r.geomeanToBound, r.wins, r.ties, r.losses, r.failed, r.meanSeconds);
        else
            std::snprintf(line, sizeof line, "%-31s | %21.4f | %6.4f-%-6.4f | %12.4f | %4d | %4d | %6d | %6d | %.3g\n", r.method.c_str(), r.geomeanRatio,
                          r.low, r.high, r.geomeanToBound, r.wins, r.ties, r.losses, r.failed, r.meanSeconds);
        out += line;
    }
    return out;
}

} // namespace sl
