// SPDX-License-Identifier: MIT
#pragma once
/// The distributed flags of `train`, `bench` and a batch `optimize` (core/dist/distoptions.h):
/// --world-size, --rank, --master, --dist-timeout, else torchrun's environment variables.

#include "args.h"

#include "core/dist/distoptions.h"

#include <string>

namespace sl::cli {

/// Takes the flags from `args`; UsageError for a bad value (naming the flag or variable).
dist::DistOptions takeDistOptions(Args& args);

/// Points file descriptor 1 at /dev/null (stdio's buffer flushed first).
void stdoutToNull();

/// On ranks other than 0, sends standard output to /dev/null for the rest of the process (rank 0
/// prints the tables and progress lines; errors still reach every rank's standard error).
void quietUnlessRoot(const dist::DistOptions& options);

/// A rank other than 0 says what it did: "schedlab-cli: rank R of N (master ...): WHAT; rank 0
/// prints the table", in one write(2), so the lines of ranks sharing a terminal or pipe do not
/// interleave (unbuffered stderr would write each piece separately).
void reportShare(const dist::DistOptions& options, const std::string& what);

} // namespace sl::cli
