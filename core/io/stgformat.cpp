// SPDX-License-Identifier: MIT
// Standard Task Graph Set (docs/formats.md, "STG" and "Format details we rely on"). The header
// count is unreliable (some files exclude the two dummy tasks, some include them), so records are
// read as a token stream - id, time, k, then k predecessors - until the first line starting with
// '#'. Ops are named by the task number as written; edges carry zero bytes (the STG model has no
// communication cost).
#include "core/io/importers.h"
#include "core/io/ioutil.h"

#include <memory>
#include <vector>

namespace sl::io_detail {

LoadedGraph readStg(std::string_view text, const std::string& source) {
    TokenReader tokens(text);
    const auto headerTok = tokens.next('#');
    if (!headerTok) fail(source, "empty file; an STG file starts with the number of tasks");
    const auto header = parseInteger(*headerTok);
    if (!header) failAt(source, tokens.line(), "the task count must be a whole number, got '" + std::string(*headerTok) + "'");
    if (*header < 0) failAt(source, tokens.line(), "negative task count " + std::to_string(*header));
    if (*header > limits().ops) failAt(source, tokens.line(), std::to_string(*header) + " tasks is more than this reader accepts (" +
                                                              std::to_string(limits().ops) + ")");
    const std::int64_t headerLine = tokens.line();

    struct Task {
        std::int64_t line;
        double time;
        std::vector<std::int64_t> preds;
    };
    std::vector<Task> tasks;
    std::int64_t edges = 0;
    while (auto idTok = tokens.next('#')) {
        const std::int64_t line = tokens.line();
        const auto id = parseInteger(*idTok);
        if (!id) failAt(source, line, "expected a task number, got '" + std::string(*idTok) + "'");
        if (*id != static_cast<std::int64_t>(tasks.size()))
            failAt(source, line, "task " + std::to_string(*id) + " is out of sequence (expected task " + std::to_string(tasks.size()) +
                                     "; tasks are numbered consecutively from 0)");
        if (static_cast<std::int64_t>(tasks.size()) >= *header + 2)
            failAt(source, line, "more tasks than the header's " + std::to_string(*header) + " (+2 dummy tasks)");
        auto word = [&](const char* what) {
            const auto t = tokens.next('#');
            if (!t)
                failAt(source, tokens.currentLine(), "task " + std::to_string(*id) + ": the record ends before its " + what +
                                                         " (truncated file?)");
            return *t;
        };
        const std::string_view timeTok = word("processing time");
        const auto time = parseNumber(timeTok);
        if (!time || *time < 0)
            failAt(source, tokens.line(), "task " + std::to_string(*id) + ": processing time '" + std::string(timeTok) +
                                              "' is not a non-negative number");
        const std::string_view kTok = word("predecessor count");
        const auto k = parseInteger(kTok);
        if (!k || *k < 0)
            failAt(source, tokens.line(), "task " + std::to_string(*id) + ": predecessor count '" + std::string(kTok) +
                                              "' is not a non-negative whole number");
        if (*k > *header + 2 || edges + *k > limits().edges)
            failAt(source, tokens.line(), "task " + std::to_string(*id) + ": " + std::to_string(*k) + " predecessors is more than there are tasks");
        Task task{line, *time, {}};
        task.preds.reserve(static_cast<std::size_t>(*k));
        for (std::int64_t i = 0; i < *k; ++i) {
            const std::string_view pTok = word("predecessors");
            const auto p = parseInteger(pTok);
            if (!p || *p < 0)
                failAt(source, tokens.line(), "task " + std::to_string(*id) + ": predecessor '" + std::string(pTok) + "' is not a task number");
            task.preds.push_back(*p);
        }
        edges += *k;
        tasks.push_back(std::move(task));
    }
    const auto n = static_cast<std::int64_t>(tasks.size());
    if (n == 0) failAt(source, headerLine + 1, "no task records");
    // Random graphs give the count without the two dummies, application graphs with them.
    if (n != *header + 2 && n != *header)
        fail(source, "the header announces " + std::to_string(*header) + " tasks but " + std::to_string(n) +
                         " records were read (truncated file?)");
    // A random graph cut after exactly `header` records would pass as the dummy-inclusive layout:
    // there the last record must be the zero-time exit task.
    if (n == *header && n != *header + 2 && tasks.back().time != 0)
        fail(source, "the header announces " + std::to_string(*header) + " tasks and " + std::to_string(n) +
                         " records were read, but the last is not a zero-time exit task (truncated file?)");
    std::vector<std::string> warnings;
    if (tasks.front().time != 0 || tasks.back().time != 0)
        warnings.push_back("the first or last task is not a zero-time dummy task");

    auto g = std::make_shared<Graph>();
    for (std::int64_t i = 0; i < n; ++i)
        g->addOp({.name = std::to_string(i), .type = "task", .duration = tasks[static_cast<std::size_t>(i)].time});
    for (std::int64_t i = 0; i < n; ++i) {
        const Task& t = tasks[static_cast<std::size_t>(i)];
        for (std::int64_t p : t.preds) {
            if (p >= n) failAt(source, t.line, "task " + std::to_string(i) + ": predecessor " + std::to_string(p) + " does not exist");
            g->addEdge(static_cast<OpId>(p), static_cast<OpId>(i), 0);
        }
    }
    finalizeGraph(*g, source);
    LoadedGraph out;
    out.graph = std::move(g);
    out.warnings = std::move(warnings);
    return out;
}

} // namespace sl::io_detail
