// SPDX-License-Identifier: MIT
#pragma once

namespace sl::gui {

struct CommandLine;

/// `schedlab FILE --bench-startup`: open -> first painted DAG layout and the longest event-loop
/// stall meanwhile; DAG zoom and pan steps (median / max, repaint included); the Gantt of a list-cp
/// schedule: showing it, zoom and pan steps; the longest stall during a 3 s BRKGA run; peak RSS.
/// Prints one Markdown table (measure, value, target); exit 0.
int runStartupBenchmark(const CommandLine& cli);

} // namespace sl::gui
