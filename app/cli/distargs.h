// SPDX-License-Identifier: MIT
#pragma once
/// The distributed flags of `train`, `bench` and a batch `optimize` (core/dist/distoptions.h):
/// --world-size, --rank, --master, --dist-timeout, else torchrun's environment variables.

#include "args.h"

#include "core/dist/distoptions.h"

namespace sl::cli {

/// Takes the flags from `args`; UsageError for a bad value (naming the flag or variable).
dist::DistOptions takeDistOptions(Args& args);

/// Points file descriptor 1 at /dev/null (stdio's buffer flushed first).
void stdoutToNull();

/// On ranks other than 0, sends standard output to /dev/null for the rest of the process (rank 0
/// prints the tables and progress lines; errors still reach every rank's standard error).
void quietUnlessRoot(const dist::DistOptions& options);

} // namespace sl::cli
