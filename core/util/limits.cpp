// SPDX-License-Identifier: MIT
#include "core/util/limits.h"
#include "core/util/text.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace sl {
namespace {

Limits g_limits;

/// The table the parser, the help text and the docs read: one row per field.
struct Field {
    const char* key;
    std::int64_t Limits::* integer;
    double Limits::* real;
    const char* what;
};

constexpr Field kFields[] = {
    {"ops", &Limits::ops, nullptr, "ops in one graph"},
    {"edges", &Limits::edges, nullptr, "tensor edges in one graph"},
    {"devices", &Limits::devices, nullptr, "devices of a platform or job-shop machines"},
    {"threads", &Limits::threads, nullptr, "worker threads of one run"},
    {"text-bytes", &Limits::textBytes, nullptr, "bytes of one text file"},
    {"line-bytes", &Limits::lineBytes, nullptr, "bytes of one line of a text file"},
    {"token-bytes", &Limits::tokenBytes, nullptr, "bytes of one name, quoted string or attribute"},
    {"edge-chain", &Limits::edgeChain, nullptr, "edges in one DOT statement a -> b -> c"},
    {"duration", nullptr, &Limits::duration, "one op duration, in the graph's unit"},
    {"total-duration", nullptr, &Limits::totalDuration, "sum of all durations of a graph"},
    {"tensor-bytes", nullptr, &Limits::tensorBytes, "bytes of one tensor or one op's parameters"},
};

double parsePositive(std::string_view key, std::string_view text) {
    double v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) || v <= 0)
        throw std::invalid_argument("limit '" + std::string(key) + "': '" + std::string(text) + "' is not a positive number");
    return v;
}

std::string formatValue(double v) {
    std::ostringstream out;
    out << std::setprecision(15) << v;
    return out.str();
}

} // namespace

const Limits& limits() {
    return g_limits;
}

void setLimits(const Limits& l) {
    g_limits = l;
}

Limits parseLimits(std::string_view spec, Limits base) {
    while (!spec.empty()) {
        const auto comma = spec.find(',');
        const std::string_view item = trimBlanks(spec.substr(0, comma));
        spec = comma == std::string_view::npos ? std::string_view() : spec.substr(comma + 1);
        if (item.empty()) continue;
        const auto eq = item.find('=');
        if (eq == std::string_view::npos) throw std::invalid_argument("limit '" + std::string(item) + "': expected KEY=VALUE");
        const std::string_view key = trimBlanks(item.substr(0, eq)), value = trimBlanks(item.substr(eq + 1));
        const Field* field = nullptr;
        for (const Field& f : kFields)
            if (key == f.key) field = &f;
        if (!field) {
            std::string known;
            for (const Field& f : kFields) known += std::string(known.empty() ? "" : ", ") + f.key;
            throw std::invalid_argument("unknown limit '" + std::string(key) + "' (known: " + known + ")");
        }
        const double v = parsePositive(key, value);
        if (field->integer) {
            if (v != std::floor(v) || v > 9.2e18) throw std::invalid_argument("limit '" + std::string(key) + "' must be a whole number");
            base.*(field->integer) = static_cast<std::int64_t>(v);
        } else {
            base.*(field->real) = v;
        }
    }
    return base;
}

std::vector<std::string> describeLimits(const Limits& l) {
    std::vector<std::string> lines;
    for (const Field& f : kFields) {
        const std::string value = f.integer ? std::to_string(l.*(f.integer)) : formatValue(l.*(f.real));
        lines.push_back(std::string(f.key) + " = " + value + "  (" + f.what + ")");
    }
    return lines;
}

void applyLimitsFromEnvironment() {
    if (const char* spec = std::getenv("SCHEDLAB_LIMITS"); spec && *spec) {
        try {
            setLimits(parseLimits(spec, limits()));
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument(std::string("SCHEDLAB_LIMITS: ") + e.what());
        }
    }
}

} // namespace sl
