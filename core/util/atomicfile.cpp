// SPDX-License-Identifier: MIT
#include "core/util/atomicfile.h"

#include "core/io/graphio.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include <fcntl.h>
#include <unistd.h>

namespace sl {
namespace {

std::string systemError() { return std::strerror(errno); }

/// A name beside `path` that no other writer picks: same folder, so rename() stays atomic.
std::string temporaryNameFor(const std::string& path) {
    static thread_local std::mt19937_64 rng{std::random_device{}()};
    char suffix[24];
    std::snprintf(suffix, sizeof suffix, ".tmp%08llx", static_cast<unsigned long long>(rng() & 0xffffffffu));
    return path + suffix;
}

} // namespace

void writeFileAtomically(const std::string& path, std::string_view content) {
    if (path.empty()) throw IoError("cannot write a file with an empty name");
    const std::string tmp = temporaryNameFor(path);
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) throw IoError(path + ": cannot write: " + systemError());
    std::size_t written = 0;
    while (written < content.size()) {
        const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
        if (n < 0) {
            if (errno == EINTR) continue;
            const std::string why = systemError();
            ::close(fd);
            ::unlink(tmp.c_str());
            throw IoError(path + ": write failed: " + why);
        }
        written += static_cast<std::size_t>(n);
    }
    // fsync before rename: after a crash the target holds the old or the new content, never a mix.
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        const std::string why = systemError();
        ::unlink(tmp.c_str());
        throw IoError(path + ": write failed: " + why);
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        const std::string why = systemError();
        ::unlink(tmp.c_str());
        throw IoError(path + ": cannot replace: " + why);
    }
}

std::string readFile(const std::string& path, std::size_t maxBytes) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw IoError(path + ": is a folder, not a file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw IoError(path + ": cannot open: " + systemError());
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    if (size < 0) throw IoError(path + ": cannot read its size");
    if (static_cast<std::uintmax_t>(size) > maxBytes)
        throw IoError(path + ": " + std::to_string(size) + " bytes is larger than the " + std::to_string(maxBytes) +
                      "-byte limit for this kind of file");
    std::string data(static_cast<std::size_t>(size), '\0');
    in.seekg(0);
    in.read(data.data(), size);
    if (in.gcount() != size) throw IoError(path + ": read failed (file changed while reading?)");
    return data;
}

} // namespace sl
