// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Gzipped Chakra traces (`.et.gz`, `.json.gz`): their content, inflated with zlib. Private to
/// core/io (chakraformat.cpp).

#include <string>
#include <string_view>

namespace sl::io_detail::chakra {

/// The content of a gzip file (all its members), at most limits().textBytes.
std::string gunzip(std::string_view bytes, const std::string& source);

}   // namespace sl::io_detail::chakra
