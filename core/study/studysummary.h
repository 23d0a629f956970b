// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// What a study says per method, over its graphs: a method's cost on a graph is its mean over the
/// seeds that ran; its ratio is that cost over the best method's on the graph; the summary is the
/// geometric mean of the ratios, the wins, ties (equal to the best within a relative 1e-9, with
/// another method) and losses, and the mean time. A failed run (any seed) counts as a loss and
/// as never within any factor of the best (the performance profile of Dolan and Moré, 2002).

#include "core/study/studystats.h"
#include "core/study/studystore.h"

#include <map>
#include <string>
#include <vector>

namespace sl {

struct MethodSummary {
    std::string method;
    double geomeanRatio = 0;   ///< over the graphs where it ran
    double low = 0, high = 0;  ///< its 95 % bootstrap interval over those graphs (studystats.h)
    double geomeanToBound = 0; ///< geometric mean of cost over the graph's lower bound (NaN: no bounds)
    int wins = 0, ties = 0, losses = 0, failed = 0;
    double meanSeconds = 0;
};

struct StudySummary {
    std::vector<std::string> graphs;    ///< in the spec's order
    std::vector<std::string> methods;   ///< labels, in the spec's order
    /// cost[method][graph]: mean over its seeds; NaN when a run failed or is missing.
    std::map<std::string, std::vector<double>> cost;
    std::vector<double> bound;          ///< per graph: the lower bound on the cost (0: none)
    std::vector<MethodSummary> rows;
};

/// From the runs of `spec`'s graphs and methods (runs of others are ignored).
StudySummary summarize(const StudySpec& spec, const std::vector<StudyRun>& runs);
/// The same from costs given directly: cost[m][g] (NaN: failed).
StudySummary summarizeCosts(std::vector<std::string> methods, std::vector<std::string> graphs,
                            std::map<std::string, std::vector<double>> cost, std::map<std::string, double> meanSeconds = {},
                            std::vector<double> bound = {});

/// `method`'s cost on graph `g` over the best method's there; infinity for a failed run.
double ratioToBest(const StudySummary& s, const std::string& method, std::size_t g);

/// Dolan and Moré's performance profile: the share of graphs on which `method`'s cost is within a
/// factor `tau` of the best (ratio <= tau); failed runs never are.
double performanceProfile(const StudySummary& s, const std::string& method, double tau);

/// The two-sided Wilcoxon signed-rank test of methods `a` and `b`'s per-graph costs over the graphs
/// where both ran (studystats.h). Throws std::invalid_argument for an unknown method.
WilcoxonResult compareMethods(const StudySummary& s, const std::string& a, const std::string& b);

/// The summary as text: "table" (aligned columns), "csv", "json" or "latex" (a booktabs tabular).
std::string formatSummary(const StudySummary& s, const std::string& format);

} // namespace sl
