// SPDX-License-Identifier: MIT
#include "core/graph/fingerprint.h"

#include "core/util/fnv.h"

#include <bit>
#include <charconv>
#include <cstdio>

namespace sl {
namespace {

/// The fields of a graph into FNV-1a, each length- or tag-delimited so that ("ab", "c") and
/// ("a", "bc") differ.
class FieldHash {
public:
    void text(std::string_view s) {
        integer(s.size());
        m_hash.bytes(s);
    }
    void integer(std::uint64_t v) {
        for (int i = 0; i < 8; ++i) {   // little-endian on every host
            const auto b = static_cast<unsigned char>(v >> (8 * i));
            m_hash.bytes(&b, 1);
        }
    }
    void number(double x) { integer(x == 0 ? 0 : std::bit_cast<std::uint64_t>(x)); }
    std::uint64_t value() const { return m_hash.value(); }

private:
    Fnv1a64 m_hash;
};

constexpr std::string_view kPrefix = "fnv1a64:";
constexpr std::string_view kModelPrefix = "model-fnv1a64:";

void hashTensors(FieldHash& h, const Graph& g) {
    h.integer(static_cast<std::uint64_t>(g.tensorCount()));
    for (const Tensor& t : g.tensors()) {
        h.text(t.name);
        h.integer(static_cast<std::uint64_t>(t.producer));
        h.integer(t.consumers.size());
        for (OpId c : t.consumers) h.integer(static_cast<std::uint64_t>(c));
        h.number(t.bytes);
    }
}

std::string prefixedHex(std::string_view prefix, std::uint64_t value) {
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(value));
    return std::string(prefix) + hex;
}

std::optional<std::uint64_t> parsePrefixedHex(std::string_view prefix, std::string_view text) {
    if (!text.starts_with(prefix) || text.size() != prefix.size() + 16) return std::nullopt;
    std::uint64_t v = 0;
    const char* b = text.data() + prefix.size();
    const auto r = std::from_chars(b, text.data() + text.size(), v, 16);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size()) return std::nullopt;
    return v;
}

} // namespace

std::uint64_t graphFingerprint(const Graph& g) {
    FieldHash h;
    h.integer(static_cast<std::uint64_t>(g.opCount()));
    for (const Op& op : g.ops()) {
        h.text(op.name);
        h.text(op.type);
        h.number(op.duration);
        h.number(op.paramBytes);
        h.number(op.resourceDemand);
        h.integer(static_cast<std::uint64_t>(op.machineType));
        h.integer(op.deviceDurations.size());
        for (double d : op.deviceDurations) h.number(d);
    }
    hashTensors(h, g);
    return h.value();
}

std::uint64_t modelFingerprint(const Graph& g) {
    FieldHash h;
    h.text(kModelPrefix);   // a graph whose durations are all 0 must still hash apart from graphFingerprint
    h.integer(static_cast<std::uint64_t>(g.opCount()));
    for (const Op& op : g.ops()) {
        h.text(op.name);
        h.text(op.type);
    }
    hashTensors(h, g);
    return h.value();
}

std::string fingerprintText(std::uint64_t fingerprint) { return prefixedHex(kPrefix, fingerprint); }

std::optional<std::uint64_t> parseFingerprint(std::string_view text) { return parsePrefixedHex(kPrefix, text); }

std::string modelFingerprintText(std::uint64_t fingerprint) { return prefixedHex(kModelPrefix, fingerprint); }

std::optional<std::uint64_t> parseModelFingerprint(std::string_view text) { return parsePrefixedHex(kModelPrefix, text); }

} // namespace sl
