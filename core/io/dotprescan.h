// SPDX-License-Identifier: MIT
#pragma once
// A linear pass over DOT text before cgraph sees it. cgraph's lexer is quadratic in the length of
// a quoted string, and its parser spends tens of seconds and gigabytes on a long a -> b -> c chain
// before it gives up; both are refused here in milliseconds, naming the line and the limit.
#include <string>
#include <string_view>

namespace sl::io_detail {

/// Throws IoError("<source>:<line>: ...") when a line, a quoted or HTML string, or an edge chain
/// exceeds sl::limits() (line-bytes, token-bytes, edge-chain).
void prescanDot(std::string_view text, const std::string& source);

} // namespace sl::io_detail
