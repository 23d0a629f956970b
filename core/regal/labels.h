// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// REGAL's labelled set (docs/regal.md, "Learning from the long search"): generated problems, each
/// with the best schedule of one long plain BRKGA run over REGAL's chromosome (the oracle's guide,
/// core/regal/oracle.h), kept in a file and computed once. Graphs are not stored: an entry names
/// its generator, size, seed, update rule, device count and objective, and is rebuilt from them; the
/// label is the guide's placement and its decoded sequence of ops and transfers, which decode back
/// to the recorded cost to the bit (checked on load). Budget-bound, so the same on any machine.
/// Building appends each finished entry to FILE.partial, so an interrupted build resumes where it
/// stopped. Torch-free.
///
/// The mix, entry by entry: `nn` SGD and Adam training steps of 40-700 forward ops (four in five)
/// and layered graphs of 100-1,000 ops (one in five); each on 2, 3, 4 or 8 identical devices, the
/// peak-memory objective for three in five, the makespan for the others (drawn from the entry's
/// seed). Seeds: training 3,100,000 + i, validation 4,100,000 + i, inside REGAL's training and
/// validation ranges (core/regal/dataset.h) and away from the held-out 5,000,000 + i.

#include "core/brkga/regaldecoder.h"
#include "core/costmodel/problem.h"

#include <cstdint>
#include <functional>
#include <stop_token>
#include <string>
#include <vector>

namespace sl::regal {

inline constexpr std::uint64_t kOracleTrainSeedBase = 3'100'000;
inline constexpr std::uint64_t kOracleValidationSeedBase = 4'100'000;

struct OracleSpec {
    std::string family;     ///< "nn" or "layered"
    int nodes = 0;          ///< forward ops (nn) or ops (layered)
    std::uint64_t seed = 0;
    std::string training;   ///< "sgd" or "adam" (nn), "" (layered: the graph itself)
    int devices = 2;
    Objective objective = Objective::Memory;
};

/// Entry i of the training (validation = false) or validation part.
OracleSpec oracleSpec(int i, bool validation);
/// The problem an entry names. Throws std::invalid_argument for an unknown family or rule.
Problem problemOf(const OracleSpec& spec);
/// "nn:412:3100007 adam, 4 devices, memory".
std::string describe(const OracleSpec& spec);

struct OracleLabel {
    OracleSpec spec;
    Problem problem;              ///< problemOf(spec), built once (not stored in the file)
    int ops = 0;
    std::vector<int> placement;   ///< per op, the guide's device
    /// The guide's decoded sequence: op j as j, the transfer of tensor t to device q as
    /// -1 - (t * devices + q).
    std::vector<int> sequence;
    double cost = 0;              ///< the guide's best, on the entry's objective
    double plainCost = 0;         ///< plain BRKGA at 5,000 evaluations, seed 1: the room is between the two
};

/// The ops of `label.sequence` in order.
std::vector<OpId> orderOf(const OracleLabel& label);
/// REGAL chromosome keys that decode (RegalDecoder, symmetry on) to exactly the label's placement
/// and sequence: affinity 1 on the placed device, priorities falling along the sequence.
std::vector<double> keysOf(const OracleLabel& label, const RegalLayout& layout);

struct OracleLabelSetSize {
    int train = 480;
    int validation = 32;
    std::int64_t guideBudget = 100'000;   ///< evaluations of the long run
    int threads = 1;                      ///< entries labelled side by side (one BRKGA thread each)
};

struct OracleLabelSet {
    std::vector<OracleLabel> train, validation;
    std::int64_t guideBudget = 0;
    double cpuSeconds = 0;   ///< summed over the entries' runs
};

/// The long run on one entry (seed = the entry's seed) and plain BRKGA at 5,000 evaluations.
OracleLabel labelEntry(const OracleSpec& spec, std::int64_t guideBudget, std::stop_token stop = {});

/// Builds FILE (resuming from FILE.partial), then writes it atomically and removes the partial
/// file; `log` gets a line every few entries. Throws std::runtime_error when stopped (the partial
/// file keeps what was done).
void buildOracleLabelSet(const std::string& path, const OracleLabelSetSize& size,
                         const std::function<void(const std::string&)>& log, std::stop_token stop = {});
/// Throws std::runtime_error naming the file and line for a malformed entry, and for a label whose
/// keys do not decode to its recorded cost.
OracleLabelSet loadOracleLabelSet(const std::string& path);

} // namespace sl::regal
