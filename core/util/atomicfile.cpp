// SPDX-License-Identifier: MIT
#include "core/util/atomicfile.h"

#include "core/util/errors.h"

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

/// Where the bytes for `path` go: the file a symbolic link points to, and whether it is a stream
/// (device, pipe, socket) to write in place rather than a regular file to replace.
struct Destination {
    std::string path;
    bool stream = false;
};

Destination destinationOf(const std::string& path) {
    namespace fs = std::filesystem;
    if (path.empty()) throw IoError("cannot write a file with an empty name");
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);   // follows links: what the bytes would reach
    if (fs::is_directory(st)) throw IoError(path + ": cannot write: is a folder");
    // /dev/stdout -> /proc/self/fd/1 -> "pipe:[...]": open() follows such links, canonical() cannot
    if (fs::is_character_file(st) || fs::is_block_file(st) || fs::is_fifo(st) || fs::is_socket(st)) return {path, true};
    fs::path target = path;   // the end of the chain of links, even when it does not exist yet
    for (int hops = 0; fs::is_symlink(fs::symlink_status(target, ec)); ++hops) {
        if (hops == 40) throw IoError(path + ": cannot write: too many levels of symbolic links");
        const fs::path next = fs::read_symlink(target, ec);
        if (ec) throw IoError(path + ": cannot follow the symbolic link: " + ec.message());
        target = next.is_absolute() ? next : target.parent_path() / next;
    }
    return {target.string(), false};
}

void writeAll(int fd, std::string_view content, const std::string& path, const std::string& cleanup) {
    std::size_t written = 0;
    while (written < content.size()) {
        const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
        if (n < 0) {
            if (errno == EINTR) continue;
            const std::string why = systemError();
            ::close(fd);
            if (!cleanup.empty()) ::unlink(cleanup.c_str());
            throw IoError(path + ": write failed: " + why);
        }
        written += static_cast<std::size_t>(n);
    }
}

/// Writes a device or pipe in place (no temporary, no rename).
void writeStream(const std::string& shownPath, const std::string& target, std::string_view content) {
    const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) throw IoError(shownPath + ": cannot write: " + systemError());
    writeAll(fd, content, shownPath, {});
    if (::close(fd) != 0) throw IoError(shownPath + ": write failed: " + systemError());
}

/// The content in a fresh temporary beside `target`, flushed to disk; returns its name.
std::string stageTemporary(const std::string& shownPath, const std::string& target, std::string_view content) {
    const std::string tmp = temporaryNameFor(target);
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) throw IoError(shownPath + ": cannot write: " + systemError());
    writeAll(fd, content, shownPath, tmp);
    // fsync before rename: after a crash the target holds the old or the new content, never a mix.
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        const std::string why = systemError();
        ::unlink(tmp.c_str());
        throw IoError(shownPath + ": write failed: " + why);
    }
    return tmp;
}

void renameOver(const std::string& shownPath, const std::string& tmp, const std::string& target) {
    if (std::rename(tmp.c_str(), target.c_str()) != 0) {
        const std::string why = systemError();
        ::unlink(tmp.c_str());
        throw IoError(shownPath + ": cannot replace: " + why);
    }
}

} // namespace

void writeFileAtomically(const std::string& path, std::string_view content) {
    const Destination d = destinationOf(path);
    if (d.stream) return writeStream(path, d.path, content);
    renameOver(path, stageTemporary(path, d.path, content), d.path);
}

void OutputSet::add(std::string path, std::string content) {
    m_files.emplace_back(std::move(path), std::move(content));
}

void OutputSet::commit() {
    struct Staged {
        const std::string* shown;
        std::string tmp, target;
    };
    std::vector<Staged> staged;
    auto discard = [&] {
        for (const Staged& s : staged) ::unlink(s.tmp.c_str());
    };
    try {
        std::vector<std::pair<const std::pair<std::string, std::string>*, std::string>> streams;
        for (const auto& file : m_files) {
            const Destination d = destinationOf(file.first);
            if (d.stream) streams.emplace_back(&file, d.path);
            else staged.push_back({&file.first, stageTemporary(file.first, d.path, file.second), d.path});
        }
        for (const auto& [file, target] : streams) writeStream(file->first, target, file->second);
    } catch (...) {
        discard();
        throw;
    }
    for (std::size_t i = 0; i < staged.size(); ++i) {
        try {
            renameOver(*staged[i].shown, staged[i].tmp, staged[i].target);
        } catch (...) {   // rare (the folder vanished): the rest are dropped, what was renamed stays
            for (std::size_t j = i + 1; j < staged.size(); ++j) ::unlink(staged[j].tmp.c_str());
            throw;
        }
    }
    m_files.clear();
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
