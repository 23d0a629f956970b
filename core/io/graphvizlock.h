// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Graphviz (cgraph/gvc) is not thread safe ("man cgraph"): every caller in the process locks this
/// one mutex around all gvc/cgraph calls.
#include <mutex>

namespace sl {

/// The process-wide Graphviz mutex (function-local static: one instance, initialised on first use).
inline std::mutex& graphvizMutex() {
    static std::mutex m;
    return m;
}

} // namespace sl
