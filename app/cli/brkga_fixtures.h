// SPDX-License-Identifier: MIT
#pragma once
/// Minimal readers for the STG and job-shop fixtures used by `bench brkga` and `tune`. They exist
/// because the bench had to run before core/io's loaders landed; they follow
/// spec/formats-and-prior-art.md §1.1-1.2 and throw InputError naming the file and line.

#include "core/graph/graph.h"
#include "core/platform/platform.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace sl::cli {

/// STG task graph: one op per task (dummies included, duration 0), zero-byte edges pred -> task.
std::shared_ptr<Graph> readStg(const std::string& path);

struct StgOptimum {
    std::string file;   ///< e.g. "rand0000.stg" (the directory prefix of the CSV is dropped)
    double lower = 0;   ///< == upper when proven
    double upper = 0;
};
/// `file,P,optimum` or `file,P,lower,upper` rows.
std::vector<StgOptimum> readStgOptima(const std::string& path);

struct JobShop {
    std::shared_ptr<Graph> graph;   ///< op "J<j>.<k>", machine type = machine, chain per job
    Platform platform;              ///< one device per machine, device m of machine type m
};
/// Standard text format: `jobs machines`, then per job `machine duration` pairs (0-based).
JobShop readJobShop(const std::string& path);
/// bounds.json: [{"instance", "upper_bound", ...}] -> (instance, upper bound), in file order.
std::vector<std::pair<std::string, double>> readJobShopBounds(const std::string& path);

} // namespace sl::cli
