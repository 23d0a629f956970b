// SPDX-License-Identifier: MIT
#pragma once
// Bit-for-bit comparison of doubles: "the same to the bit" in the tests' words (a cost model,
// a resumed study or another thread count must not move the last bit).
#include <bit>
#include <cstdint>

inline bool sameBits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }
