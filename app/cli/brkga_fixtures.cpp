// SPDX-License-Identifier: MIT
#include "brkga_fixtures.h"

#include "args.h"

#include "core/io/graphio.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace sl::cli {

namespace {

std::ifstream open(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw InputError(path + ": cannot open");
    return in;
}

} // namespace

std::shared_ptr<Graph> readStg(const std::string& path) { return loadGraph(path, GraphFormat::Stg).graph; }

std::vector<StgOptimum> readStgOptima(const std::string& path) {
    std::ifstream in = open(path);
    std::vector<StgOptimum> out;
    std::string line;
    for (int lineNo = 1; std::getline(in, line); ++lineNo) {
        if (line.empty()) continue;
        std::vector<std::string> f;
        std::stringstream ss(line);
        for (std::string item; std::getline(ss, item, ',');) f.push_back(item);
        if (f.size() < 3) throw InputError(path + ":" + std::to_string(lineNo) + ": expected file,P,optimum");
        StgOptimum o;
        o.file = f[0].substr(f[0].find_last_of('/') + 1);
        try {
            o.lower = std::stod(f[2]);
            o.upper = f.size() > 3 ? std::stod(f[3]) : o.lower;
        } catch (const std::logic_error&) {
            throw InputError(path + ":" + std::to_string(lineNo) + ": the optimum is not a number");
        }
        out.push_back(o);
    }
    return out;
}

JobShop readJobShop(const std::string& path) {
    LoadedGraph lg = loadGraph(path, GraphFormat::JobShop);
    return {std::move(lg.graph), std::move(*lg.platform)};
}

std::vector<std::pair<std::string, double>> readJobShopBounds(const std::string& path) {
    std::ifstream in = open(path);
    std::vector<std::pair<std::string, double>> out;
    try {
        for (const auto& e : nlohmann::json::parse(in)) out.emplace_back(e.at("instance").get<std::string>(), e.at("upper_bound").get<double>());
    } catch (const nlohmann::json::exception& e) {
        throw InputError(path + ": " + e.what());
    }
    return out;
}

} // namespace sl::cli
