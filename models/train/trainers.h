// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The dispatch table of `schedlab-cli train MODEL`: each neural method adds one Trainer (from its
/// register function, called by registerNeuralOptimizers()); app/cli/cmd_train.cpp looks models
/// up by name. Torch-free header: the CLI includes it.
///
/// \code
///   sl::models::addTrainer({.name = "topoformer", .summary = "...", .help = "...",
///                           .run = [](const sl::models::TrainArgs& a) { ...; return 0; }});
/// \endcode

#include "core/dist/distoptions.h"

#include <cstdio>
#include <functional>
#include <map>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

namespace sl::models {

struct TrainArgs {
    std::map<std::string, std::string> options;   ///< every `--key value` after the model name
    std::string commandLine;                      ///< the whole command line, for model cards
    /// The distributed run this process is a rank of (world size 1: a single process). Trainers
    /// train data-parallel over it (models/distributed/dataparallel.h).
    dist::DistOptions dist;
    /// Ctrl-C or SIGTERM: the trainer stops after the current step with a last checkpoint (every
    /// rank at the same step), so `--resume 1` continues from there.
    std::stop_token stop;
};

/// A bad training option: the CLI maps it to a usage error (exit code 2).
class TrainUsageError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

struct Trainer {
    std::string name;      ///< e.g. "topoformer"
    std::string summary;   ///< one line
    std::string help;      ///< options, one per line
    /// Trains; returns the exit code. Throws TrainUsageError for bad options, std::exception otherwise.
    std::function<int(const TrainArgs&)> run;
};

/// Adds a trainer (a second add with the same name replaces the first: registration is idempotent).
void addTrainer(Trainer trainer);
const std::vector<Trainer>& trainers();
const Trainer* findTrainer(const std::string& name);

/// Small helpers for trainers: take an option from `options` (erasing it), throwing
/// TrainUsageError on a malformed number; rejectUnknown() throws for anything left over.
struct TrainOptionReader {
    std::map<std::string, std::string> options;
    std::string text(const std::string& key, const std::string& fallback);
    double number(const std::string& key, double fallback);
    long long integer(const std::string& key, long long fallback);
    bool flag(const std::string& key, bool fallback);   ///< 1/0, true/false, yes/no
    void rejectUnknown() const;
};

/// "er,layered" -> {"er", "layered"} (empty items dropped); throws std::invalid_argument for an
/// empty list.
std::vector<std::string> splitList(const std::string& text);
/// "15-60" -> {15, 60}; "8" -> {8, 8}; throws std::invalid_argument unless 1 <= LO <= HI.
std::pair<int, int> parseRange(const std::string& text);

/// printf into a std::string, for progress lines and model cards (at most 1,023 characters).
template <typename... Args>
std::string formatText(const char* format, Args... args) {
    char buffer[1024];
    std::snprintf(buffer, sizeof buffer, format, args...);
    return buffer;
}

} // namespace sl::models
