// SPDX-License-Identifier: MIT
#pragma once
// File ▸ Open Schedule: reads a schedule JSON for the open graph on a worker. The schedule's own
// platform wins over the Platform panel's (the caller then shows it), and a schedule made for
// another graph is refused in the window's words, naming both graphs.
#include "widgets/session/types.h"

#include <optional>

namespace sl::gui {

/// The graph on screen, as the schedule is checked against it.
struct ShownGraph {
    QString title;
    std::uint64_t fingerprint = 0;
};

struct OpenedSchedule {
    RunRecord record;                  ///< re-timed and re-scored by the cost model
    std::optional<Platform> adopted;   ///< set when the schedule's platform differs from the panel's
};

/// Off the GUI thread. `current` is the open graph with the panel's platform and objective.
/// Throws std::exception with a sentence naming the file and what does not match.
OpenedSchedule openScheduleFile(const QString& path, const Problem& current, const ShownGraph& shown, int id,
                                const ScoringTarget& target);
/// The same for a schedule JSON in memory (a study's stored run); `name` stands for the file.
OpenedSchedule openScheduleText(const std::string& json, const QString& name, const Problem& current,
                                const ShownGraph& shown, int id, const ScoringTarget& target);

/// Same devices (names, machine types, capacities, catalogue models) and the same links, shared
/// or free alike.
bool samePlatform(const Platform& a, const Platform& b);

}   // namespace sl::gui
