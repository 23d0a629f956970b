// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// What an HLO instruction computes (its FLOPs, class, dtype, bytes; a collective's kind and
/// group): the roofline estimate of the reader and the `work` a device model re-times. Private to
/// core/io.

#include "core/graph/opwork.h"
#include "core/io/hlotext.h"

#include <string>
#include <vector>

namespace sl::io_detail {

/// FLOPs of an instruction: dot 2 x output x prod(lhs contracting dims), convolution 2 x output x
/// kernel elements / output features, reduce the input elements, data movement 0, anything else one
/// per output element. `operands` may hold null for an operand without a known shape.
double hloFlops(const HloInstruction& in, const std::vector<const HloShape*>& operands);

OpClass hloOpClass(const std::string& opcode);

/// The op's work from its FLOPs and the bytes it reads; a collective's kind, group and buffer.
OpWork hloWork(const HloInstruction& in, const std::vector<const HloShape*>& operands, double flops, double bytesRead);

} // namespace sl::io_detail
