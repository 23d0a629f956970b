// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Schedule files: schedule JSON (read and write), CSV, Chrome Trace Event JSON, annotated DOT.
/// All writers write atomically (temporary file + rename): a failed export never leaves a
/// truncated file behind. Formats: docs/formats.md.
///
/// Schedule JSON contract (stable; other tools read it):
///   { "format": "schedlab-schedule", "version": 1 (2 when it has "pins"),
///     "makespan": number, "peak_memory_bytes": number, "memory_clock": "time"|"step",
///     "peak_memory_step_bytes": number, "peak_memory_time_bytes": number,
///     "method": string, "seed": number, "devices": [device names],
///     "platform": platform JSON (docs/formats.md) of the problem the schedule was made on,
///     "graph": {"ops": count, "tensors": count, "fingerprint": "fnv1a64:<16 hex digits>"},
///     "order": [op names in the total order],
///     "ops": [{"id": op name, "device": index into devices, "start": number, "end": number}],
///     "transfers": [{"tensor": name, "from": index, "to": index, "start": number, "end": number,
///                    "step": position in the step sequence (optional)}] }
/// plus, when known, "device_peak_memory_bytes": [bytes per device, on memory_clock], and when the
/// problem has pins, "pins": [{"op": name, "device": index, "rank": place (optional)}] with
/// version 2 (older readers refuse the file rather than drop the pins). On reading
/// only "ops" is required: a missing order is the ops by start time, missing transfers the ones
/// the placement implies. The objective values written are informative: reading ignores them and
/// sl::scoreSchedule recomputes them after validation. Unknown keys are ignored; "platform" and
/// "graph" (written since SchedLab 0.2) are optional and only read by sl::parseScheduleOrigin.

#include "core/costmodel/problem.h"
#include "core/schedule/schedule.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sl {

std::string scheduleToJson(const Problem& p, const Schedule& s);
void saveScheduleJson(const Problem& p, const Schedule& s, const std::string& path);
/// Maps op names back to ids; throws IoError naming the file and the fault (not JSON / truncated,
/// unknown, missing or duplicate op, device index out of range, a field of the wrong type).
/// Reading does not validate the schedule: use sl::validateSchedule (core/costmodel/validator.h).
Schedule parseScheduleJson(const Problem& p, std::string_view json, const std::string& sourceName);
Schedule loadScheduleJson(const Problem& p, const std::string& path);
/// The pins a schedule file carries ("pins", version 2; none in older files), checked against the
/// problem's graph and platform (core/costmodel/pins.h). Throws IoError naming the file and entry.
Pins parseSchedulePins(const Problem& p, std::string_view json, const std::string& sourceName);
Pins loadSchedulePins(const Problem& p, const std::string& path);

/// Where a schedule file says it belongs, read without a problem so that a reader can pick the
/// platform before parsing the schedule and tell "another graph" apart. Fields absent from the
/// file (older files) stay empty. Text that is not JSON gives an empty origin (parseScheduleJson
/// then names the fault); a malformed "platform" or "graph" throws IoError naming the file.
struct ScheduleOrigin {
    int deviceCount = 0;                           ///< entries of "devices"
    std::optional<Platform> platform;              ///< "platform"
    std::optional<std::uint64_t> graphFingerprint; ///< "graph".fingerprint (core/graph/fingerprint.h)
    int graphOps = -1;                             ///< "graph".ops; -1 when absent
};
ScheduleOrigin parseScheduleOrigin(std::string_view json, const std::string& sourceName);
ScheduleOrigin loadScheduleOrigin(const std::string& path);

/// One row per op: op,type,device,start,end,duration,position.
void saveScheduleCsv(const Problem& p, const Schedule& s, const std::string& path);
/// The text saveScheduleCsv writes; `sourceName` names the output in errors.
std::string scheduleToCsv(const Problem& p, const Schedule& s, const std::string& sourceName);
/// Chrome Trace Event JSON: one track per device ("X" events), transfers, memory as a counter track.
void saveChromeTrace(const Problem& p, const Schedule& s, const std::string& path);
/// The text saveChromeTrace writes.
std::string chromeTraceJson(const Problem& p, const Schedule& s, const std::string& sourceName);
/// The graph as DOT with ops coloured by device and labelled with their position in the order.
void saveAnnotatedDot(const Problem& p, const Schedule& s, const std::string& path);

} // namespace sl
