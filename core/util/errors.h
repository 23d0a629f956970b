// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The errors core throws for bad input: GraphError for a graph that breaks its rules (thrown by
/// Graph::finalize and the importers), IoError for a file, field or value that cannot be read
/// (its message starts with the file name, and the line or node at fault when known). Here, below
/// every other folder of core, so that a module that only reports bad input (timing, profiles,
/// atomic files) does not pull in the readers of core/io.

#include <stdexcept>

namespace sl {

/// Thrown by finalize() and by importers; the message names the file/op/tensor at fault.
class GraphError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class IoError : public GraphError {
public:
    using GraphError::GraphError;
};

}   // namespace sl
