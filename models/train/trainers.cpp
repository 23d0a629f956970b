// SPDX-License-Identifier: MIT
#include "models/train/trainers.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace sl::models {

namespace {
std::vector<Trainer>& registry() {
    static std::vector<Trainer> list;
    return list;
}
} // namespace

void addTrainer(Trainer trainer) {
    auto& list = registry();
    auto it = std::find_if(list.begin(), list.end(), [&](const Trainer& t) { return t.name == trainer.name; });
    if (it != list.end()) *it = std::move(trainer);
    else list.push_back(std::move(trainer));
}

const std::vector<Trainer>& trainers() { return registry(); }

const Trainer* findTrainer(const std::string& name) {
    const auto& list = registry();
    auto it = std::find_if(list.begin(), list.end(), [&](const Trainer& t) { return t.name == name; });
    return it == list.end() ? nullptr : &*it;
}

std::string TrainOptionReader::text(const std::string& key, const std::string& fallback) {
    auto it = options.find(key);
    if (it == options.end()) return fallback;
    std::string v = it->second;
    options.erase(it);
    return v;
}

double TrainOptionReader::number(const std::string& key, double fallback) {
    auto it = options.find(key);
    if (it == options.end()) return fallback;
    const std::string v = it->second;
    options.erase(it);
    try {
        size_t used = 0;
        const double d = std::stod(v, &used);
        if (used == v.size() && std::isfinite(d)) return d;
    } catch (const std::exception&) {
    }
    throw TrainUsageError("--" + key + " expects a number, got '" + v + "'");
}

long long TrainOptionReader::integer(const std::string& key, long long fallback) {
    const double d = number(key, static_cast<double>(fallback));
    if (d != std::floor(d)) throw TrainUsageError("--" + key + " expects an integer");
    return static_cast<long long>(d);
}

bool TrainOptionReader::flag(const std::string& key, bool fallback) {
    auto it = options.find(key);
    if (it == options.end()) return fallback;
    const std::string v = it->second;
    options.erase(it);
    if (v == "1" || v == "true" || v == "yes") return true;
    if (v == "0" || v == "false" || v == "no") return false;
    throw TrainUsageError("--" + key + " expects 1/0, true/false or yes/no, got '" + v + "'");
}

void TrainOptionReader::rejectUnknown() const {
    if (options.empty()) return;
    std::string keys;
    for (const auto& [k, v] : options) keys += (keys.empty() ? "--" : ", --") + k;
    throw TrainUsageError("unknown option(s): " + keys);
}

std::vector<std::string> splitList(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');)
        if (!item.empty()) out.push_back(item);
    if (out.empty()) throw std::invalid_argument("empty list '" + text + "'");
    return out;
}

std::pair<int, int> parseRange(const std::string& text) {
    try {
        const auto dash = text.find('-');
        size_t used = 0;
        const int lo = std::stoi(text.substr(0, dash), &used);
        const int hi = dash == std::string::npos ? lo : std::stoi(text.substr(dash + 1));
        if (lo < 1 || hi < lo) throw std::invalid_argument("order");
        return {lo, hi};
    } catch (const std::exception&) {
        throw std::invalid_argument("expected N or LO-HI with 1 <= LO <= HI, got '" + text + "'");
    }
}

} // namespace sl::models
