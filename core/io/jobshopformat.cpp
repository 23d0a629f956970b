// SPDX-License-Identifier: MIT
// Job-shop standard text format (docs/formats.md, "Job-shop" and "Format details we rely on"):
// "jobs machines", then one line per job of `machine duration` pairs, machines 0-based. Ops
// j<job>_o<k>, a chain per job, machine type = machine; the platform has one device of capacity 1
// per machine.
#include "core/graph/jobshopnames.h"
#include "core/io/importers.h"
#include "core/io/ioutil.h"

#include <memory>
#include <vector>

namespace sl::io_detail {

namespace {

constexpr std::int64_t kMaxJobs = 1'000'000;

/// The tokens of each non-blank, non-comment line, with its line number.
struct Line {
    std::int64_t number;
    std::vector<std::string_view> tokens;
};

std::vector<Line> dataLines(std::string_view text) {
    std::vector<Line> lines;
    std::int64_t number = 0;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        const std::size_t end = std::min(text.find('\n', pos), text.size());
        ++number;
        TokenReader reader(text.substr(pos, end - pos));
        Line line{number, {}};
        while (auto t = reader.next()) {
            if (line.tokens.empty() && t->front() == '#') break;   // comment line
            line.tokens.push_back(*t);
        }
        if (!line.tokens.empty()) lines.push_back(std::move(line));
        if (end == text.size()) break;
        pos = end + 1;
    }
    return lines;
}

std::int64_t count(const Line& line, std::size_t i, const char* what, std::int64_t max, const std::string& source) {
    const std::string_view tok = line.tokens[i];
    const auto v = parseInteger(tok);
    if (!v) failAt(source, line.number, std::string("the number of ") + what + " must be a whole number, got '" + std::string(tok) + "'");
    if (*v <= 0) failAt(source, line.number, std::string("the number of ") + what + " must be positive, got " + std::to_string(*v));
    if (*v > max)
        failAt(source, line.number, std::to_string(*v) + " " + what + " is more than this reader accepts" +
                                        (max == limits().devices ? limitNote("devices", static_cast<double>(max)) : " (" + std::to_string(max) + ")"));
    return *v;
}

} // namespace

LoadedGraph readJobShop(std::string_view text, const std::string& source) {
    const std::vector<Line> lines = dataLines(text);
    if (lines.empty()) fail(source, "empty file; a job-shop instance starts with 'jobs machines'");
    const Line& header = lines.front();
    if (header.tokens.size() != 2)
        failAt(source, header.number, "expected 'jobs machines' (two whole numbers), found " + std::to_string(header.tokens.size()) +
                                          " values; is this really a job-shop file?");
    const std::int64_t jobs = count(header, 0, "jobs", kMaxJobs, source);
    const std::int64_t machines = count(header, 1, "machines", limits().devices, source);   // a device each
    if (jobs * machines > limits().ops)
        failAt(source, header.number, std::to_string(jobs) + " jobs x " + std::to_string(machines) + " machines = " +
                                          std::to_string(jobs * machines) + " operations is more than this reader accepts" +
                                          limitNote("ops", static_cast<double>(limits().ops)));
    const auto jobLines = static_cast<std::int64_t>(lines.size()) - 1;
    if (jobLines < jobs)
        fail(source, "the header announces " + std::to_string(jobs) + " jobs but only " + std::to_string(jobLines) +
                         " job lines follow (truncated file?)");
    if (jobLines > jobs)
        failAt(source, lines[static_cast<std::size_t>(jobs) + 1].number,
               "unexpected data after the " + std::to_string(jobs) + " job lines (several instances in one file?)");

    auto g = std::make_shared<Graph>();
    for (std::int64_t j = 0; j < jobs; ++j) {
        const Line& line = lines[static_cast<std::size_t>(j) + 1];
        if (static_cast<std::int64_t>(line.tokens.size()) != 2 * machines)
            failAt(source, line.number, "job " + std::to_string(j) + " has " + std::to_string(line.tokens.size()) + " numbers, expected " +
                                            std::to_string(2 * machines) + " (" + std::to_string(machines) + " 'machine duration' pairs)");
        OpId prev = kNoOp;
        for (std::int64_t k = 0; k < machines; ++k) {
            const std::string_view mTok = line.tokens[static_cast<std::size_t>(2 * k)];
            const std::string_view dTok = line.tokens[static_cast<std::size_t>(2 * k + 1)];
            const std::string opName = jobShopOpName(static_cast<int>(j), static_cast<int>(k));
            const auto m = parseInteger(mTok);
            if (!m || *m < 0 || *m >= machines)
                failAt(source, line.number, "op " + opName + ": machine '" + std::string(mTok) + "' is not a whole number in 0.." +
                                                std::to_string(machines - 1));
            const auto d = parseNumber(dTok);
            if (!d || *d < 0)
                failAt(source, line.number, "op " + opName + ": duration '" + std::string(dTok) + "' is not a non-negative number");
            const OpId v = g->addOp({.name = opName, .type = "M" + std::to_string(*m), .duration = *d,
                                     .machineType = static_cast<int>(*m)});
            if (prev != kNoOp) g->addEdge(prev, v, 0);
            prev = v;
        }
    }
    finalizeGraph(*g, source);

    Platform p;
    for (std::int64_t m = 0; m < machines; ++m)
        p.devices.push_back({.name = "M" + std::to_string(m), .machineType = static_cast<int>(m), .resourceCapacity = 1});
    LoadedGraph out;
    out.graph = std::move(g);
    out.platform = std::move(p);
    return out;
}

} // namespace sl::io_detail
