// SPDX-License-Identifier: MIT
#pragma once
/// The quality benches' tally: the mean gap of makespans to a reference (optimum or bound) and the
/// share that reach it.

namespace sl::cli {

struct GapTally {
    double gapSum = 0;
    int reached = 0, count = 0;
    void add(double makespan, double reference) {
        gapSum += (makespan - reference) / reference;
        reached += makespan <= reference + 1e-9;
        ++count;
    }
    double meanGap() const { return count ? gapSum / count : 0; }
    double share() const { return count ? static_cast<double>(reached) / count : 0; }
};

} // namespace sl::cli
