// SPDX-License-Identifier: MIT
#pragma once
#include "core/platform/platform.h"

#include <QString>

namespace sl::gui {

/// Platform JSON (core/io/graphio.h contract): {"devices": [{"name", "machine_type", "memory_bytes",
/// "resource_capacity"}], "interconnect": {"latency", "bandwidth"}}, read by sl::loadPlatform.
/// Throws std::exception naming the file.
Platform readPlatformFile(const QString& path);

}   // namespace sl::gui
