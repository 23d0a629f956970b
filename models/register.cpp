// SPDX-License-Identifier: MIT
#include "models/register.h"

#include "models/distributed/gloogroup.h"

#include "models/gflownet/optimizer.h"
#include "models/prioritysampler/optimizer.h"
#include "models/regal/optimizer.h"
#include "models/topoformer/register.h"

#include "core/plugin/neuralmodule.h"

namespace sl {

void registerNeuralOptimizers() {
    ps::registerPrioritySampler();
    models::registerTopoformer();
    gfn::registerGflowNet();
    regal::registerRegal();
    models::registerGlooCommunicator();   // core/dist's distributed runs
    neural::markNeuralMethodsLinkedIn();
}

} // namespace sl
