// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The text of an XLA HLO module as the reader needs it (docs/formats.md, "XLA HLO text"): the
/// ENTRY computation's instructions and the module's `input_output_alias`. Private to core/io.

#include "core/graph/opwork.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sl::io_detail {

/// An HLO shape: an array, or a tuple of shapes (one level is kept: a nested tuple is one element).
struct HloShape {
    std::vector<double> dims;   ///< of an array shape; empty for scalars and tuples
    double elements = 0;
    double bytes = 0;           ///< a tuple's: the sum of its elements'
    DType dtype = DType::Unknown;   ///< of an array; a tuple's first element's
    bool tuple = false;
    /// An array whose layout is the default major-to-minor one ({n-1,...,0}, or none written):
    /// a reshape between two such arrays is a bitcast (XLA's ShapeUtil::ReshapeIsBitcast).
    bool defaultLayout = true;
    std::vector<double> elementBytes;   ///< a tuple's, per element; {bytes} for an array
};

struct HloInstruction {
    std::int64_t line = 0;
    std::string name, opcode;
    HloShape shape;
    std::vector<std::string> operands;
    std::string attrs;   ///< everything after the operand list
    bool root = false;
    std::int64_t parameterNumber = -1;   ///< `parameter(N)`
    std::int64_t tupleIndex = -1;        ///< a get-tuple-element's `index=K`
};

/// `input_output_alias={ {0}: (2, {}, must-alias), ... }`: output tuple index -> parameter number.
struct HloOutputAlias {
    std::int64_t outputIndex = -1;   ///< -1 for `{}` (the whole, non-tuple output)
    std::int64_t parameter = 0;
};

struct HloModuleText {
    std::vector<HloInstruction> entry;
    std::vector<HloOutputAlias> aliases;
};

/// Reads a module; throws IoError naming `source` and the line at fault.
HloModuleText parseHloModule(std::string_view text, const std::string& source);

/// The integers of `key={a,b,c}` in an attribute list; empty when absent.
std::vector<double> hloIntList(const std::string& attrs, const std::string& key);

} // namespace sl::io_detail
