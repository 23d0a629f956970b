// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Portable seeded random numbers: MT19937-64 bits turned into values by our own formulas, so a
/// seed gives the same numbers with any standard library (std:: distributions are not portable).

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace sl {

/// MT19937-64, bit for bit the numbers of std::mt19937_64 (same seeding, same output), with a
/// branch-free state refill: std's `(y & 1) ? matrix : 0` mispredicts half the time, which made
/// the refill the costliest part of BRKGA's crossover.
class Mt19937_64 {
public:
    explicit Mt19937_64(std::uint64_t seed) {
        m_state[0] = seed;
        for (std::size_t i = 1; i < kN; ++i)
            m_state[i] = 6364136223846793005ULL * (m_state[i - 1] ^ (m_state[i - 1] >> 62)) + i;
    }
    std::uint64_t operator()() {
        if (m_next == kN) refill();
        return temper(m_state[m_next++]);
    }

private:
    static constexpr std::size_t kN = 312, kM = 156;
    static constexpr std::uint64_t kMatrix = 0xB5026F5AA96619E9ULL, kUpper = ~0ULL << 31, kLower = ~kUpper;

    static std::uint64_t twist(std::uint64_t current, std::uint64_t next, std::uint64_t far) {
        const std::uint64_t y = (current & kUpper) | (next & kLower);
        return far ^ (y >> 1) ^ (kMatrix & (0 - (y & 1)));
    }
    static std::uint64_t temper(std::uint64_t z) {
        z ^= (z >> 29) & 0x5555555555555555ULL;
        z ^= (z << 17) & 0x71D67FFFEDA60000ULL;
        z ^= (z << 37) & 0xFFF7EEE000000000ULL;
        return z ^ (z >> 43);
    }
    void refill() {
        std::size_t k = 0;
        for (; k < kN - kM; ++k) m_state[k] = twist(m_state[k], m_state[k + 1], m_state[k + kM]);
        for (; k < kN - 1; ++k) m_state[k] = twist(m_state[k], m_state[k + 1], m_state[k + kM - kN]);
        m_state[kN - 1] = twist(m_state[kN - 1], m_state[0], m_state[kM - 1]);
        m_next = 0;
    }

    std::uint64_t m_state[kN];
    std::size_t m_next = kN;
};

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
    Mt19937_64 m_engine;
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
