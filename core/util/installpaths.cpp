// SPDX-License-Identifier: MIT
#include "core/util/installpaths.h"

#include <system_error>

namespace sl {

namespace fs = std::filesystem;

namespace {

fs::path existingFolder(const fs::path& relativeToBin) {
    const fs::path bin = executableDir();
    if (bin.empty()) return {};
    std::error_code ec;
    const fs::path folder = fs::weakly_canonical(bin / relativeToBin, ec);
    return !ec && fs::is_directory(folder, ec) ? folder : fs::path();
}

} // namespace

fs::path executableDir() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : exe.parent_path();
}

fs::path installedDataDir() { return existingFolder("../share/schedlab"); }

fs::path installedLibDir() { return existingFolder("../lib/schedlab"); }

fs::path buildSourceTree(const fs::path& relative) {
    const fs::path root = existingFolder("../..");
    std::error_code ec;
    return !root.empty() && fs::exists(root / relative, ec) ? root : fs::path();
}

} // namespace sl
