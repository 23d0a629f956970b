// SPDX-License-Identifier: MIT
#include "core/util/jsonlines.h"

#include "core/util/atomicfile.h"

#include <nlohmann/json.hpp>

#include <sstream>
#include <stdexcept>

namespace sl {

void forEachJsonLine(const std::string& path, const std::function<void(int lineNumber, const nlohmann::json& line)>& onLine) {
    std::istringstream in(readFile(path));
    std::string line;
    for (int lineNo = 1; std::getline(in, line); ++lineNo) {
        try {
            onLine(lineNo, nlohmann::json::parse(line));
        } catch (const std::exception& e) {
            throw std::runtime_error(path + ":" + std::to_string(lineNo) + ": " + e.what());
        }
    }
}

} // namespace sl
