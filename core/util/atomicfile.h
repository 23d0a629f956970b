// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Writes a whole file or nothing: the content goes to a temporary file in the same folder, which
/// is flushed and renamed over the target. Throws IoError (core/io/graphio.h) naming the path.
///
/// Only regular files are replaced. A symbolic link is followed: the file it points to is
/// replaced and the link stays. A device, pipe or socket (/dev/stdout, /dev/null, a FIFO) is
/// written directly, in place, since it cannot be renamed over; a write error there (e.g. /dev/full)
/// is reported. A folder is refused.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sl {

void writeFileAtomically(const std::string& path, std::string_view content);

/// Several outputs of one command, written all or none: commit() stages every regular file as a
/// temporary first, then writes the streams (devices, pipes), then renames the temporaries. Any
/// failure before the renames leaves every target as it was.
class OutputSet {
public:
    void add(std::string path, std::string content);
    void commit();

private:
    std::vector<std::pair<std::string, std::string>> m_files;
};
/// Reads a whole file; throws IoError naming the path. Refuses files above `maxBytes`.
std::string readFile(const std::string& path, std::size_t maxBytes = std::size_t(2) << 30);

} // namespace sl
