// SPDX-License-Identifier: MIT
// The hlo-step generator (core/generators/hlotrainingstep.h): checks the spec, lets the model
// write its forward and backward passes, then the optimizer update of every weight and the ROOT
// tuple (updated weights, then Adam's states, then the loss) with its input_output_alias.
#include "core/generators/hlotrainingstep.h"

#include "core/generators/hlotrainingstep_models.h"

#include <stdexcept>
#include <string>

namespace sl {
namespace {

void requireRange(long value, long low, long high, const char* field) {
    if (value < low || value > high)
        throw std::invalid_argument(std::string("hlo-step: ") + field + " must be " + std::to_string(low) + ".." + std::to_string(high) +
                                    ", not " + std::to_string(value));
}

void requireMultiple(long value, const char* field, long divisor, const char* divisorField) {
    if (value % divisor != 0)
        throw std::invalid_argument(std::string("hlo-step: ") + field + " (" + std::to_string(value) + ") must be a multiple of " + divisorField +
                                    " (" + std::to_string(divisor) + ")");
}

/// Sizes that keep every tensor's element count well inside 64 bits.
void validateSpec(const HloStepSpec& s) {
    requireRange(s.layers, 1, 128, "layers");
    requireRange(s.batch, 1, 4096, "batch");
    requireRange(s.hidden, 1, 65536, "hidden");
    requireRange(s.tensorParallel, 1, 64, "tensorParallel");
    if (s.model == HloStepSpec::Model::Mlp) {
        requireRange(s.inputs, 1, 1 << 20, "inputs");
        requireRange(s.classes, 2, 1 << 20, "classes");
        return;
    }
    requireRange(s.sequence, 1, 32768, "sequence");
    requireRange(s.heads, 1, 256, "heads");
    requireRange(s.ffn, 0, 1 << 20, "ffn");
    requireRange(s.vocab, 2, 1 << 20, "vocab");
    requireMultiple(s.hidden, "hidden", s.heads, "heads");
    requireMultiple(s.heads, "heads", s.tensorParallel, "tensorParallel");
}

} // namespace

HloStepModule generateHloTrainingStep(const HloStepSpec& spec) {
    validateSpec(spec);
    Rng rng(spec.seed);
    hlostep::HloEmitter e(spec.tensorParallel, spec.bf16);
    const hlostep::ModelStep step = spec.model == HloStepSpec::Model::Mlp ? hlostep::emitMlpStep(e, spec, rng)
                                                                          : hlostep::emitTransformerStep(e, spec, rng);
    const double decay = rng.uniform() < 0.5 ? 0.0 : rng.uniform() < 0.5 ? 1e-4 : 1e-2;
    hlostep::StepOutputs out = hlostep::applyOptimizer(e, step.trainables, {.adam = spec.adam, .weightDecay = decay});
    out.outputs.push_back(step.loss);
    e.root(out.outputs, out.aliases);
    return {e.moduleText(), e.ops()};
}

} // namespace sl
