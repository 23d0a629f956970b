// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// FNV-1a, 64 bits: a portable, stable hash for fingerprints and checksums that must not change
/// between builds or hosts (std::hash may). Not for adversaries: nothing hashed here is secret.

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace sl {

/// FNV-1a's 64-bit offset basis.
inline constexpr std::uint64_t kFnv1a64Basis = 0xcbf29ce484222325ULL;

class Fnv1a64 {
public:
    explicit Fnv1a64(std::uint64_t basis = kFnv1a64Basis) : m_hash(basis) {}
    void bytes(const void* data, std::size_t n) {
        const auto* p = static_cast<const unsigned char*>(data);
        for (std::size_t i = 0; i < n; ++i) m_hash = (m_hash ^ p[i]) * 0x100000001b3ULL;
    }
    void bytes(std::string_view s) { bytes(s.data(), s.size()); }
    std::uint64_t value() const { return m_hash; }

private:
    std::uint64_t m_hash;
};

/// The hash of `s` alone.
inline std::uint64_t fnv1a64(std::string_view s, std::uint64_t basis = kFnv1a64Basis) {
    Fnv1a64 h(basis);
    h.bytes(s);
    return h.value();
}

} // namespace sl
