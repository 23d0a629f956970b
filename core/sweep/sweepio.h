// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Sweep files (docs/sweep.md):
///  - JSON `{"format": "schedlab-sweep", "version": 1, ...}`: every number of every point and the
///    best schedule's device chains, so a reopened sweep shows the same table, plot and schedules;
///  - CSV: one row per temperature, for spreadsheets and plotting scripts (not read back).
/// Writes are atomic (core/util/atomicfile.h). Reading checks everything: a bad file throws
/// IoError naming the file and the line (syntax) or the field (e.g. `points[3].proxy_top1`).

#include "core/sweep/sweep.h"

#include <string>

namespace sl {

inline constexpr int kSweepFormatVersion = 1;

std::string sweepToJson(const Sweep& s);
/// `source` names the text in messages (a file path).
Sweep sweepFromJson(const std::string& text, const std::string& source);
void saveSweepJson(const Sweep& s, const std::string& path);
Sweep loadSweepJson(const std::string& path);

/// Header plus one row per point; target columns follow SweepOptions::targets.
std::string sweepToCsv(const Sweep& s);
void saveSweepCsv(const Sweep& s, const std::string& path);

}   // namespace sl
