// SPDX-License-Identifier: MIT
// `schedlab-cli train MODEL [OPTIONS]`: trains a neural method. The models register their trainers
// in models/train/trainers.h when the neural module registers; this command only dispatches.
#include "command.h"
#include "distargs.h"
#include "interrupt.h"
#include "neural.h"

#include "models/train/trainers.h"

#include <filesystem>
#include <iostream>

namespace sl::cli {
namespace {

/// A model card is read beside the repository it ships in, not on the machine that trained it: an
/// absolute path inside the working directory is written relative to it, any other absolute path
/// as its file name (a comma-separated list item by item).
std::string portableOptionValue(const std::string& value) {
    namespace fs = std::filesystem;
    std::string out;
    for (size_t start = 0; start <= value.size();) {
        const size_t comma = std::min(value.find(',', start), value.size());
        const fs::path item = value.substr(start, comma - start);
        std::error_code ec;
        const fs::path relative = item.is_absolute() ? fs::relative(item, fs::current_path(ec), ec) : item;
        const bool inside = !ec && !relative.empty() && *relative.begin() != "..";
        out += item.is_absolute() ? (inside ? relative : item.filename()).string() : item.string();
        if (comma < value.size()) out += ',';
        start = comma + 1;
    }
    return out;
}

std::string modelList() {
    std::string out;
    for (const auto& t : models::trainers())
        out += "  " + t.name + std::string(t.name.size() < 18 ? 18 - t.name.size() : 1, ' ') + t.summary + "\n";
    return out.empty() ? "  (none registered)\n" : out;
}

int runTrain(Args& args) {
    const std::string name = args.positional(0, "model name (one of:\n" + modelList() + ")");
    const models::Trainer* trainer = models::findTrainer(name);
    if (!trainer) throw UsageError("unknown model '" + name + "'; one of:\n" + modelList() + neuralUnavailableNote());
    if (args.positionalCount() > 1 && args.positional(1, "") == "help") {
        std::cout << "Usage: schedlab-cli train " << name << " [OPTIONS]\n" << trainer->summary << "\n\nOptions:\n"
                  << trainer->help;
        return 0;
    }
    models::TrainArgs ta;
    ta.dist = takeDistOptions(args);
    ta.options = args.takeRest();
    args.finish(1);
    ta.commandLine = "schedlab-cli train " + name;
    for (const auto& [k, v] : ta.options) ta.commandLine += " --" + k + " " + portableOptionValue(v);
    quietUnlessRoot(ta.dist);   // rank 0 prints the progress lines
    const InterruptStop interrupt({SIGINT, SIGTERM});
    ta.stop = interrupt.token();
    try {
        return trainer->run(ta);
    } catch (const models::TrainUsageError& e) {
        throw UsageError(e.what());
    }
}

std::string trainHelp() {
    return "Usage: schedlab-cli train MODEL [OPTIONS]\n"
           "Trains a neural method and writes its weights and model card.\n"
           "'schedlab-cli train MODEL --help' (or 'train MODEL help') lists the model's options.\n"
           "Ctrl-C or SIGTERM stops a run after its current step with a last checkpoint (all ranks at\n"
           "the same step); --resume 1 continues it.\n\n"
           "Models:\n" + modelList() +
           "\nData-parallel training over several processes or machines (LibTorch's c10d, Gloo): each rank\n"
           "draws its own graphs, gradients are averaged before every step, rank 0 writes the checkpoints\n"
           "and the model card; every rank resumes from the same checkpoint. scripts/launch-local.sh N\n"
           "starts N ranks on this machine (docs/distributed.md):\n" + dist::distFlagsHelp();
}

SL_CLI_COMMAND({"train", "train a neural method ('schedlab-cli train --help' lists the models)", &trainHelp, {}, &runTrain,
                /*needsNeuralMethods=*/true});

} // namespace
} // namespace sl::cli
