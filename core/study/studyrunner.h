// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Runs a study's missing runs and stores each as it finishes (core/study/studystore.h): a run
/// already stored is never run again, a run that fails stores its error. Runs are taken in
/// (graph, method, seed) order by `threads` workers; each run has its seed and one thread of its
/// own, so what is stored does not depend on the worker count or on stops and resumes (to the
/// bit, for methods bounded by evaluations; only the order of the rows does). A graph is loaded
/// once, by the first run that needs it, and dropped after its last.

#include "core/study/studystore.h"

#include <functional>
#include <stop_token>

namespace sl {

/// A rank's share of a sharded study: run k of the study's (graph, method, seed) enumeration
/// belongs to rank k mod count. Each rank writes its own database; StudyStore::merge joins them.
struct StudyShard {
    int count = 1;
    int index = 0;
};

struct StudyProgress {
    int done = 0;       ///< runs stored, this call and before
    int total = 0;      ///< runs in the study
    const StudyRun* last = nullptr;   ///< the run just stored (null at the start)
};

/// Runs what `store` lacks until done or `stop` fires (a run cut short by the stop is not stored:
/// it runs again on resume). `progress` is called under a lock, one stored run at a time. Returns
/// the number of runs made by this call.
int runStudy(StudyStore& store, const std::function<void(const StudyProgress&)>& progress = {}, std::stop_token stop = {},
             int threads = 1, StudyShard shard = {});

} // namespace sl
