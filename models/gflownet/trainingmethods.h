// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The GFlowNet's two training methods for the shared loop (models/train/loop.h): what they share
/// (the data, the step's graph and temperature, validation against list-cp, the card) and the two
/// batch steps, per-state (the paper's) and encode-once. Includes LibTorch.

#include "models/gflownet/training.h"

#include "models/train/loop.h"

#include "core/costmodel/problem.h"
#include "core/util/random.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace sl::gfn {

struct TrainingSet {
    std::vector<Problem> train, validation;
    std::vector<std::string> validationNames;   ///< for the card: families and files
    std::string description;
};
TrainingSet makeTrainingSet(const GflowNetTrainConfig& c);

/// One step's graph and temperature, drawn from (rank seed, step).
struct StepDraw {
    Problem problem;
    size_t graph = 0;        ///< index into the training set
    bool subgraph = false;   ///< a random window of it
    double sigma = 0;
    std::uint64_t seed = 0;  ///< the step's own seed, for its trajectories
};

class GflowNetMethod : public models::TrainingMethod {
public:
    GflowNetMethod(const GflowNetTrainConfig& c, TrainingSet data) : m_c(c), m_data(std::move(data)) {}
    std::string describeWindow(const std::vector<double>& means) const override;
    models::Validation validate() override;
    models::ModelCard card() const override;

protected:
    StepDraw drawStep(std::int64_t step, std::uint64_t rankSeed) const;
    /// The step's stats: mean and best U of the batch, std and mean of zeta, n, m, sigma.
    static std::vector<double> stepStats(const std::vector<double>& speedups, const torch::Tensor& zeta, const StepDraw& d);
    /// Speedups of `seeds.size()` samples of `p` at `sigma` (no gradient).
    virtual std::vector<double> sampleSpeedups(const Problem& p, double sigma, const std::vector<std::uint64_t>& seeds) = 0;
    virtual std::string architectureJson() const = 0;
    virtual std::string featuresText() const = 0;
    virtual std::string objectiveText() const = 0;

    const GflowNetTrainConfig& m_c;
    TrainingSet m_data;

private:
    std::vector<double> m_listSpeedups;   ///< list-cp on each validation graph, computed at the first validation
};

std::unique_ptr<models::TrainingMethod> makePerStateMethod(const GflowNetTrainConfig& c, TrainingSet data);
std::unique_ptr<models::TrainingMethod> makeReadyMethod(const GflowNetTrainConfig& c, TrainingSet data);

/// "; initialised from FILE, trained on ...": the trained_on text of a model fine-tuned from `file`.
std::string initialisedText(const std::string& file, const std::string& data, const std::string& before);
/// The model-size options (--width, --layers, ...) on an encoder config.
void applyEncoderSize(const GflowNetTrainConfig& c, models::EncoderConfig& e);
/// Copies `from`'s parameters into `to` (the same architecture), without gradient.
void copyParameters(torch::nn::Module& to, const torch::nn::Module& from);

} // namespace sl::gfn
