// SPDX-License-Identifier: MIT
#include "brkga_fixtures.h"

#include "args.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace sl::cli {

namespace {

std::ifstream open(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw InputError(path + ": cannot open");
    return in;
}

} // namespace

std::shared_ptr<Graph> readStg(const std::string& path) {
    std::ifstream in = open(path);
    std::string line;
    std::getline(in, line);   // the task count is unreliable (spec §1.1): read records until '#'
    std::stringstream records;
    while (std::getline(in, line) && (line.empty() || line[0] != '#')) records << line << ' ';
    auto g = std::make_shared<Graph>();
    long id, time, k;
    while (records >> id >> time >> k) {
        if (id != g->opCount()) throw InputError(path + ": task ids are not consecutive at task " + std::to_string(id));
        const OpId v = g->addOp({.name = "t" + std::to_string(id), .duration = static_cast<double>(time)});
        for (long i = 0; i < k; ++i) {
            long pred;
            if (!(records >> pred) || pred < 0 || pred >= v)
                throw InputError(path + ": task " + std::to_string(id) + " has a bad predecessor");
            g->addEdge(static_cast<OpId>(pred), v);
        }
    }
    if (g->opCount() == 0) throw InputError(path + ": no tasks");
    g->finalize();
    return g;
}

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
        o.lower = std::stod(f[2]);
        o.upper = f.size() > 3 ? std::stod(f[3]) : o.lower;
        out.push_back(o);
    }
    return out;
}

JobShop readJobShop(const std::string& path) {
    std::ifstream in = open(path);
    int jobs = 0, machines = 0;
    if (!(in >> jobs >> machines) || jobs <= 0 || machines <= 0) throw InputError(path + ":1: expected 'jobs machines'");
    JobShop js;
    js.graph = std::make_shared<Graph>();
    for (int j = 0; j < jobs; ++j) {
        OpId prev = kNoOp;
        for (int k = 0; k < machines; ++k) {
            int m;
            double d;
            if (!(in >> m >> d) || m < 0 || m >= machines || d < 0)
                throw InputError(path + ":" + std::to_string(j + 2) + ": bad 'machine duration' pair " + std::to_string(k));
            const OpId v = js.graph->addOp({.name = "J" + std::to_string(j) + "." + std::to_string(k), .duration = d,
                                            .machineType = m});
            if (prev != kNoOp) js.graph->addEdge(prev, v);
            prev = v;
        }
    }
    js.graph->finalize();
    for (int m = 0; m < machines; ++m) js.platform.devices.push_back({.name = "M" + std::to_string(m), .machineType = m});
    return js;
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
