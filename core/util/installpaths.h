// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Where an installed SchedLab keeps its files, found from the running executable (bin/schedlab ->
/// share/schedlab, lib/schedlab), so that a package relocated into any root (dpkg -x) works
/// without the source or build tree. A build tree has no such folders: callers then look for the
/// source tree the build sits in (buildSourceTree()). No path of the machine that built the
/// binary is compiled in.

#include <filesystem>

namespace sl {

/// The folder of the running executable (from /proc/self/exe); empty if it cannot be read.
std::filesystem::path executableDir();

/// <executable>/../share/schedlab if that folder exists, else empty.
std::filesystem::path installedDataDir();

/// <executable>/../lib/schedlab if that folder exists, else empty (the neural module's home).
std::filesystem::path installedLibDir();

/// The source tree of a build-tree executable: <executable>/../.. (build/app, build/tests,
/// build-asan/app, ...) if it holds `relative` (e.g. "tests/data"), else empty.
std::filesystem::path buildSourceTree(const std::filesystem::path& relative);

} // namespace sl
