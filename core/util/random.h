// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Portable seeded random numbers: std::mt19937_64 bits turned into values by our own formulas, so a
/// seed gives the same numbers with any standard library (std:: distributions are not portable).

#include <cmath>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace sl {

class Rng {
public:
    explicit Rng(std::uint64_t seed) : m_engine(seed) {}
    std::uint64_t bits() { return m_engine(); }
    /// Uniform in [0, 1).
    double uniform() { return static_cast<double>(m_engine() >> 11) * 0x1.0p-53; }
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
    /// Uniform integer in [lo, hi], inclusive (rejection sampling, unbiased).
    std::int64_t integer(std::int64_t lo, std::int64_t hi) {
        const auto span = static_cast<std::uint64_t>(hi - lo) + 1;
        if (span == 0) return static_cast<std::int64_t>(m_engine());
        const std::uint64_t limit = UINT64_MAX - UINT64_MAX % span;
        std::uint64_t x;
        do x = m_engine();
        while (x >= limit);
        return lo + static_cast<std::int64_t>(x % span);
    }
    /// Standard normal (Box-Muller; no cached second value, so the stream stays simple).
    double normal() {
        const double u = 1.0 - uniform();   // (0, 1]
        const double v = uniform();
        return std::sqrt(-2.0 * std::log(u)) * std::cos(6.283185307179586 * v);
    }
    /// Gumbel(0, 1).
    double gumbel() {
        const double u = (static_cast<double>(m_engine() >> 11) + 0.5) * 0x1.0p-53;   // (0, 1)
        return -std::log(-std::log(u));
    }
    template <typename T>
    void shuffle(std::vector<T>& v) {
        for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[static_cast<std::size_t>(integer(0, static_cast<std::int64_t>(i - 1)))]);
    }

private:
    std::mt19937_64 m_engine;
};

/// A well-mixed seed for stream `index` derived from `seed` (SplitMix64), e.g. one stream per
/// individual so that results do not depend on which thread evaluates it.
inline std::uint64_t deriveSeed(std::uint64_t seed, std::uint64_t index) {
    std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (index + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

} // namespace sl
