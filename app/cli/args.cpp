// SPDX-License-Identifier: MIT
#include "args.h"

#include "core/util/limits.h"

#include <algorithm>
#include <charconv>

namespace sl::cli {

Args::Args(std::vector<std::string> argv, const std::vector<std::string>& flags) {
    for (std::size_t i = 0; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        if (a.size() > 2 && a.rfind("--", 0) == 0) {
            std::string key = a.substr(2), value = "1";
            if (auto eq = key.find('='); eq != std::string::npos) {
                value = key.substr(eq + 1);
                key = key.substr(0, eq);
            } else if (std::find(flags.begin(), flags.end(), key) == flags.end()) {
                if (i + 1 >= argv.size()) throw UsageError("option --" + key + " needs a value");
                value = argv[++i];
            }
            m_options[key] = value;
        } else {
            m_positional.push_back(a);
        }
    }
}

std::string Args::positional(std::size_t i, const std::string& what) const {
    if (i >= m_positional.size()) throw UsageError("missing " + what);
    return m_positional[i];
}

std::optional<std::string> Args::take(const std::string& key) {
    auto it = m_options.find(key);
    if (it == m_options.end()) return std::nullopt;
    std::string v = it->second;
    m_options.erase(it);
    return v;
}

std::string Args::take(const std::string& key, const std::string& fallback) {
    return take(key).value_or(fallback);
}

double Args::takeDouble(const std::string& key, double fallback) {
    auto v = take(key);
    if (!v) return fallback;
    try {
        std::size_t used = 0;
        double d = std::stod(*v, &used);
        if (used != v->size()) throw std::invalid_argument(*v);
        return d;
    } catch (const std::exception&) {
        throw UsageError("--" + key + " expects a number, got '" + *v + "'");
    }
}

std::int64_t Args::takeInt(const std::string& key, std::int64_t fallback) {
    auto v = take(key);
    if (!v) return fallback;
    std::int64_t x = 0;
    auto [p, ec] = std::from_chars(v->data(), v->data() + v->size(), x);
    if (ec != std::errc() || p != v->data() + v->size())
        throw UsageError("--" + key + " expects a whole number, got '" + *v + "'");
    return x;
}

std::int64_t Args::takeIntIn(const std::string& key, std::int64_t fallback, std::int64_t min, std::int64_t max) {
    const std::int64_t x = takeInt(key, fallback);
    if (x < min || x > max) throw UsageError("--" + key + " expects " + std::to_string(min) + ".." + std::to_string(max) + ", got " + std::to_string(x));
    return x;
}

int Args::takeThreads(std::int64_t fallback) {
    return static_cast<int>(takeIntIn("threads", fallback, 1, limits().threads));
}

std::vector<int> Args::takeIntList(const std::string& key, const std::string& fallback, int min) {
    const std::string text = take(key, fallback);
    std::vector<int> out;
    std::size_t begin = 0;
    while (begin <= text.size()) {
        const std::size_t end = std::min(text.find(',', begin), text.size());
        int x = 0;
        auto [p, ec] = std::from_chars(text.data() + begin, text.data() + end, x);
        if (ec != std::errc() || p != text.data() + end)
            throw UsageError("--" + key + " expects comma-separated whole numbers, got '" + text + "'");
        if (x < min) throw UsageError("--" + key + " values must be at least " + std::to_string(min));
        out.push_back(x);
        begin = end + 1;
    }
    return out;
}

bool Args::takeFlag(const std::string& key) {
    auto v = take(key);
    return v && *v != "0" && *v != "false";
}

std::map<std::string, std::string> Args::takeRest() {
    auto rest = std::move(m_options);
    m_options.clear();
    return rest;
}

void Args::finish(std::size_t maxPositionals) const {
    if (!m_options.empty()) throw UsageError("unknown option --" + m_options.begin()->first);
    if (m_positional.size() > maxPositionals) throw UsageError("unexpected argument '" + m_positional[maxPositionals] + "'");
}

} // namespace sl::cli
