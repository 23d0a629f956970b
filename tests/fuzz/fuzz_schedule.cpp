// SPDX-License-Identifier: MIT
// libFuzzer target: the schedule JSON reader against a fixed four-op, two-device problem, as
// `evaluate` uses it: the origin, the schedule, then the validator, and scoring if it is valid.
#include "common/workedexample.h"
#include "core/costmodel/cost.h"
#include "core/costmodel/validator.h"
#include "core/io/graphio.h"
#include "core/io/scheduleio.h"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const sl::Problem problem = sl::reference::gflownetWorkedExample();
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        (void)sl::parseScheduleOrigin(text, "fuzz");
    } catch (const sl::GraphError&) {
    } catch (const std::invalid_argument&) {
    }
    try {
        sl::Schedule s = sl::parseScheduleJson(problem, text, "fuzz");
        if (sl::validateSchedule(problem, s).ok()) {
            (void)sl::scoreSchedule(problem, s);
            (void)sl::scheduleToJson(problem, s);
        }
    } catch (const sl::GraphError&) {
    } catch (const std::invalid_argument&) {
    }
    return 0;
}
