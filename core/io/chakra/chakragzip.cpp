// SPDX-License-Identifier: MIT
// Gzipped Chakra traces (chakragzip.h), inflated with zlib member by member.
#include "core/io/chakra/chakragzip.h"
#include "core/io/ioutil.h"

#include <zlib.h>

#include <algorithm>
#include <climits>

namespace sl::io_detail::chakra {

std::string gunzip(std::string_view bytes, const std::string& source) {
    z_stream z{};
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) fail(source, "cannot start zlib");
    struct End {
        z_stream* z;
        ~End() { inflateEnd(z); }
    } end{&z};
    const auto cap = static_cast<std::size_t>(limits().textBytes);
    std::string out;
    std::size_t consumed = 0;
    char buffer[1 << 16];
    while (true) {
        if (z.avail_in == 0 && consumed < bytes.size()) {
            const std::size_t chunk = std::min<std::size_t>(bytes.size() - consumed, UINT_MAX);
            z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data() + consumed));
            z.avail_in = static_cast<uInt>(chunk);
            consumed += chunk;
        }
        z.next_out = reinterpret_cast<Bytef*>(buffer);
        z.avail_out = sizeof buffer;
        const int rc = inflate(&z, Z_NO_FLUSH);
        out.append(buffer, sizeof buffer - z.avail_out);
        if (out.size() > cap)
            fail(source,
                 "decompresses to more than " + std::to_string(cap) + " bytes" +
                     limitNote("text-bytes", static_cast<double>(cap)));
        if (rc == Z_STREAM_END) {
            if (z.avail_in == 0 && consumed == bytes.size()) return out;
            if (inflateReset(&z) != Z_OK) fail(source, "cannot restart zlib");   // another gzip member follows
            continue;
        }
        if (rc == Z_BUF_ERROR && z.avail_in == 0 && consumed == bytes.size())
            fail(source, "the gzip data ends early (truncated file?)");
        if (rc != Z_OK && rc != Z_BUF_ERROR)
            fail(source, std::string("not valid gzip data: ") + (z.msg ? z.msg : "zlib error " + std::to_string(rc)));
    }
}

}   // namespace sl::io_detail::chakra
