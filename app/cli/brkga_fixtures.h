// SPDX-License-Identifier: MIT
#pragma once
/// The STG and job-shop fixtures used by `bench brkga`, `bench heuristics` and `tune`: the graphs
/// come from core/io's loaders (sl::loadGraph, which throws IoError naming the file and line); the
/// optimum tables (STG CSVs, job-shop bounds.json) are read here and throw InputError.

#include "core/graph/graph.h"
#include "core/platform/platform.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace sl::cli {

/// STG task graph (sl::loadGraph): one op per task named by its number (dummies included,
/// duration 0), zero-byte edges pred -> task.
std::shared_ptr<Graph> readStg(const std::string& path);

struct StgOptimum {
    std::string file;   ///< e.g. "rand0000.stg" (the directory prefix of the CSV is dropped)
    double lower = 0;   ///< == upper when proven
    double upper = 0;
};
/// `file,P,optimum` or `file,P,lower,upper` rows.
std::vector<StgOptimum> readStgOptima(const std::string& path);

struct JobShop {
    std::shared_ptr<Graph> graph;   ///< op "j<j>_o<k>", machine type = machine, chain per job
    Platform platform;              ///< one device per machine, device m of machine type m
};
/// Standard text format (sl::loadGraph): `jobs machines`, then per job `machine duration` pairs.
JobShop readJobShop(const std::string& path);
/// bounds.json: [{"instance", "upper_bound", ...}] -> (instance, upper bound), in file order.
std::vector<std::pair<std::string, double>> readJobShopBounds(const std::string& path);

} // namespace sl::cli
