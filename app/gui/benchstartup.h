// SPDX-License-Identifier: MIT
#pragma once

namespace sl::gui {

struct CommandLine;

/// `schedlab FILE --bench-startup`: time from opening FILE to the first painted DAG layout, then
/// the longest event-loop stall while a BRKGA run goes. Prints a table; exit 0.
int runStartupBenchmark(const CommandLine& cli);

} // namespace sl::gui
