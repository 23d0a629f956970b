// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Runs a study's missing runs and stores each as it finishes (core/study/studystore.h): a run
/// already stored is never run again, a run that fails stores its error. Graphs are loaded once
/// each; runs are made one after the other in (graph, method, seed) order, each with its seed and
/// one thread, so a study resumed after a stop stores the same results as one never stopped (to
/// the bit, for methods bounded by evaluations).

#include "core/study/studystore.h"

#include <functional>
#include <stop_token>

namespace sl {

struct StudyProgress {
    int done = 0;       ///< runs stored, this call and before
    int total = 0;      ///< runs in the study
    const StudyRun* last = nullptr;   ///< the run just stored (null at the start)
};

/// Runs what `store` lacks until done or `stop` fires (the run in flight is finished and stored).
/// Returns the number of runs made by this call.
int runStudy(StudyStore& store, const std::function<void(const StudyProgress&)>& progress = {}, std::stop_token stop = {});

} // namespace sl
