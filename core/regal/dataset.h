// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The graphs REGAL trains, validates and is benchmarked on (docs/regal.md, 'Training'; the paper's
/// TensorFlow graphs are not public): training steps (core/graph/traininggraph.h) of generated
/// network-like graphs and augmented copies of real ONNX models (the tensor-size noise of Paliwal
/// et al., ICLR 2020, App. A.1), each on `devices` identical devices with the peak-memory objective
/// by default. Training, validation and held-out graphs come from disjoint seed ranges
/// (3,000,000 + i, 4,000,000 + i, 5,000,000 + i), so the benchmark's graphs are never trained on.
/// Seeded and reproducible; torch-free (the trainer and `bench regal` share it).

#include "core/costmodel/problem.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sl::regal {

struct DatasetSpec {
    std::vector<std::string> families{"nn"};   ///< generator families (core/generators)
    int minNodes = 20, maxNodes = 120;        ///< forward ops of the generated graphs
    int graphs = 256;                         ///< generated graphs per split
    std::vector<std::string> onnxFiles;       ///< real models: augmented copies join the split
    int onnxCopies = 0;                       ///< copies per ONNX model per split
    int devices = 2;
    std::vector<int> deviceCounts;            ///< not empty: generated graph i gets deviceCounts[i % size]
    Objective objective = Objective::Memory;
    bool inference = false;                   ///< true: the graphs as generated, no training step
};

enum class Split { Training, Validation, HeldOut };

struct Instance {
    std::string name;   ///< e.g. "nn:57:3000012 adam" or "light_resnet50.onnx #3 sgd"
    Problem problem;
};

/// Throws std::invalid_argument (bad spec) or sl::IoError (unreadable ONNX file).
std::vector<Instance> makeDataset(const DatasetSpec& spec, Split split);

/// The SGD and the Adam training step of each model file, at its own tensor sizes: what REGAL is
/// validated and benchmarked on. Names like "light_resnet50.onnx adam". Throws sl::IoError.
std::vector<Instance> realTrainingSteps(const std::vector<std::string>& files, int devices, Objective objective);

/// The problem REGAL solves on a graph: `devices` identical devices, `objective`.
Problem regalProblem(std::shared_ptr<const Graph> graph, int devices, Objective objective);

} // namespace sl::regal
