// SPDX-License-Identifier: MIT
#include "models/encoder/maththreads.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <mutex>
#include <set>

#include <dlfcn.h>

namespace sl::models {

namespace {

// Looked up at run time: LibTorch links OpenBLAS here, but no link flag or header is needed, and a
// build against another BLAS simply skips this part.
using SetFn = void (*)(int);
using GetFn = int (*)();

SetFn openBlasSet() {
    static const auto fn = reinterpret_cast<SetFn>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
    return fn;
}

GetFn openBlasGet() {
    static const auto fn = reinterpret_cast<GetFn>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
    return fn;
}

std::mutex g_mutex;
std::multiset<int> g_live;   // counts asked for by the live guards
int g_blasBefore = 0;        // OpenBLAS count before the first of them

// The smallest live count wins: a pinned inference stays pinned while a training run overlaps it.
void applyBlas() {
    if (!openBlasSet()) return;
    if (!g_live.empty()) openBlasSet()(*g_live.begin());
    else if (g_blasBefore > 0) openBlasSet()(g_blasBefore);
}

} // namespace

int openBlasThreads() { return openBlasGet() ? openBlasGet()() : 0; }

MathThreads::MathThreads(int threads) : m_torchBefore(at::get_num_threads()) {
    threads = std::max(threads, 1);
    at::set_num_threads(threads);
    std::lock_guard lock(g_mutex);
    if (g_live.empty()) g_blasBefore = openBlasThreads();
    g_live.insert(threads);
    m_threads = threads;
    applyBlas();
}

MathThreads::~MathThreads() {
    at::set_num_threads(m_torchBefore);
    std::lock_guard lock(g_mutex);
    g_live.erase(g_live.find(m_threads));
    applyBlas();
}

} // namespace sl::models
