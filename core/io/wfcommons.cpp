// SPDX-License-Identifier: MIT
// WfCommons workflow instances (docs/formats.md, "WfCommons" and "Format details we rely on"),
// schema 1.4 (flat: tasks under "workflow", parents/children by task name, files inline) and 1.5+
// (workflow.specification + workflow.execution, parents/children by task id, files by id). One op
// per task, named by its id; duration = runtimeInSeconds. One tensor per file a task writes and
// some of its children read (bytes = sizeInBytes, consumers = those children); a parent -> child
// edge that carries no file becomes a zero-byte control tensor. Files read but written by no task
// (workflow inputs) count as parameter bytes of the tasks that read them.
#include "core/io/importers.h"
#include "core/io/ioutil.h"

#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace sl::io_detail {

using json = nlohmann::json;

namespace {

struct WfTask {
    std::string id;
    std::string type;
    double runtime = 0;
    bool hasRuntime = false;
    std::vector<std::string> parents, children;   // resolved to ids
    std::vector<std::string> inputs, outputs;     // file keys
};

const json& member(const json& obj, const char* key, const std::string& where) {
    auto it = obj.find(key);
    if (it == obj.end()) fail(where, std::string("missing field \"") + key + "\"");
    return *it;
}

const json& arrayMember(const json& obj, const char* key, const std::string& where, bool required = true) {
    static const json empty = json::array();
    auto it = obj.find(key);
    if (it == obj.end() || (!required && it->is_null())) {
        if (required) fail(where, std::string("missing field \"") + key + "\"");
        return empty;
    }
    if (!it->is_array()) fail(where, std::string("\"") + key + "\" must be an array, got " + jsonKind(*it));
    return *it;
}

std::string stringMember(const json& obj, const char* key, const std::string& where) {
    const json& v = member(obj, key, where);
    if (!v.is_string()) fail(where, std::string("\"") + key + "\" must be a string, got " + jsonKind(v));
    return v.get<std::string>();
}

std::vector<std::string> strings(const json& arr, const char* key, const std::string& where) {
    std::vector<std::string> out;
    for (const json& v : arr) {
        if (!v.is_string()) fail(where, std::string("\"") + key + "\" must hold strings, got " + jsonKind(v));
        out.push_back(v.get<std::string>());
    }
    return out;
}

double sizeOf(const json& file, const std::string& where) {
    auto it = file.find("sizeInBytes");
    if (it == file.end() || it->is_null()) return 0;
    if (!it->is_number()) fail(where, "\"sizeInBytes\" must be a number, got " + jsonKind(*it));
    const double s = it->get<double>();
    if (!std::isfinite(s) || s < 0) fail(where, "\"sizeInBytes\" must be a non-negative number");
    return s;
}

void readRuntime(const json& obj, WfTask& t, const std::string& where) {
    for (const char* key : {"runtimeInSeconds", "runtime"}) {
        auto it = obj.find(key);
        if (it == obj.end() || it->is_null()) continue;
        if (!it->is_number()) fail(where, std::string("\"") + key + "\" must be a number, got " + jsonKind(*it));
        t.runtime = it->get<double>();
        t.hasRuntime = true;
        return;
    }
}

std::string typeOf(const json& obj, const std::string& id) {
    if (auto c = obj.find("category"); c != obj.end() && c->is_string()) return c->get<std::string>();
    if (auto c = obj.find("command"); c != obj.end() && c->is_object())
        if (auto p = c->find("program"); p != c->end() && p->is_string()) return p->get<std::string>();
    // "split_fasta_ID000001" -> "split_fasta"
    const auto cut = id.rfind("_ID");
    return cut == std::string::npos || cut == 0 ? std::string("task") : id.substr(0, cut);
}

void checkCount(std::size_t n, const std::string& where, const char* what) {
    if (static_cast<std::int64_t>(n) > limits().ops)
        fail(where, std::to_string(n) + " " + what + " is more than this reader accepts (" + std::to_string(limits().ops) + ")");
}

/// Schema 1.5+: workflow.specification.{tasks, files} and workflow.execution.tasks.
std::vector<WfTask> readSpecification(const json& wf, const std::string& source, std::unordered_map<std::string, double>& fileSize) {
    const json& spec = member(wf, "specification", source + ": workflow");
    if (!spec.is_object()) fail(source, "\"workflow.specification\" must be an object, got " + jsonKind(spec));
    const json& tasks = arrayMember(spec, "tasks", source + ": workflow.specification");
    const json& files = arrayMember(spec, "files", source + ": workflow.specification", false);
    checkCount(tasks.size(), source, "tasks");
    checkCount(files.size(), source, "files");
    for (std::size_t i = 0; i < files.size(); ++i) {
        const std::string where = source + ": file #" + std::to_string(i);
        if (!files[i].is_object()) fail(where, "must be an object, got " + jsonKind(files[i]));
        fileSize[stringMember(files[i], "id", where)] = sizeOf(files[i], where);
    }
    std::vector<WfTask> out;
    std::unordered_map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        std::string where = source + ": task #" + std::to_string(i);
        const json& t = tasks[i];
        if (!t.is_object()) fail(where, "must be an object, got " + jsonKind(t));
        WfTask task;
        task.id = stringMember(t, "id", where);
        where += " ('" + task.id + "')";
        task.type = typeOf(t, task.id);
        task.parents = strings(arrayMember(t, "parents", where, false), "parents", where);
        task.children = strings(arrayMember(t, "children", where, false), "children", where);
        task.inputs = strings(arrayMember(t, "inputFiles", where, false), "inputFiles", where);
        task.outputs = strings(arrayMember(t, "outputFiles", where, false), "outputFiles", where);
        for (const auto* list : {&task.inputs, &task.outputs})
            for (const std::string& f : *list)
                if (!fileSize.count(f)) fail(where, "file '" + f + "' is not listed in workflow.specification.files (dangling reference)");
        index.emplace(task.id, out.size());
        out.push_back(std::move(task));
    }
    if (auto ex = wf.find("execution"); ex != wf.end() && ex->is_object()) {
        const json& etasks = arrayMember(*ex, "tasks", source + ": workflow.execution", false);
        for (std::size_t i = 0; i < etasks.size(); ++i) {
            std::string where = source + ": workflow.execution task #" + std::to_string(i);
            if (!etasks[i].is_object()) fail(where, "must be an object, got " + jsonKind(etasks[i]));
            const std::string id = stringMember(etasks[i], "id", where);
            auto it = index.find(id);
            if (it == index.end()) fail(where, "task id '" + id + "' is not in workflow.specification.tasks (dangling reference)");
            readRuntime(etasks[i], out[it->second], where + " ('" + id + "')");
            if (out[it->second].type == "task") out[it->second].type = typeOf(etasks[i], id);
        }
    }
    return out;
}

/// Schema 1.4: workflow.tasks with inline files; parents/children by task name.
std::vector<WfTask> readFlat(const json& wf, const std::string& source, std::unordered_map<std::string, double>& fileSize) {
    const json& tasks = arrayMember(wf, "tasks", source + ": workflow");
    checkCount(tasks.size(), source, "tasks");
    std::unordered_map<std::string, std::string> idOfName;
    std::vector<WfTask> out;
    std::vector<std::string> names;
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        std::string where = source + ": task #" + std::to_string(i);
        const json& t = tasks[i];
        if (!t.is_object()) fail(where, "must be an object, got " + jsonKind(t));
        const std::string name = stringMember(t, "name", where);
        WfTask task;
        task.id = t.contains("id") ? stringMember(t, "id", where) : name;
        where += " ('" + task.id + "')";
        task.type = typeOf(t, name);
        task.parents = strings(arrayMember(t, "parents", where, false), "parents", where);
        task.children = strings(arrayMember(t, "children", where, false), "children", where);
        readRuntime(t, task, where);
        const json& files = arrayMember(t, "files", where, false);
        for (const json& f : files) {
            if (!f.is_object()) fail(where, "\"files\" must hold objects, got " + jsonKind(f));
            const std::string fname = stringMember(f, "name", where + ": file");
            const std::string link = f.contains("link") ? stringMember(f, "link", where + ": file '" + fname + "'") : "input";
            const double size = sizeOf(f, where + ": file '" + fname + "'");
            double& known = fileSize[fname];
            known = std::max(known, size);
            (link == "output" ? task.outputs : task.inputs).push_back(fname);
        }
        if (!idOfName.emplace(name, task.id).second) fail(where, "duplicate task name '" + name + "'");
        names.push_back(name);
        out.push_back(std::move(task));
    }
    // parents/children name tasks by "name" in 1.4: map them to ids.
    for (std::size_t i = 0; i < out.size(); ++i)
        for (auto* list : {&out[i].parents, &out[i].children})
            for (std::string& ref : *list) {
                auto it = idOfName.find(ref);
                if (it == idOfName.end())
                    fail(source + ": task '" + names[i] + "'", "refers to task '" + ref + "', which does not exist (dangling reference)");
                ref = it->second;
            }
    return out;
}

} // namespace

LoadedGraph readWfCommons(const json& doc, const std::string& source) {
    if (!doc.is_object()) fail(source, "a WfCommons instance must be a JSON object, got " + jsonKind(doc));
    const json& wf = member(doc, "workflow", source);
    if (!wf.is_object()) fail(source, "\"workflow\" must be an object, got " + jsonKind(wf));
    std::unordered_map<std::string, double> fileSize;
    const bool split = wf.contains("specification");
    std::vector<WfTask> tasks = split ? readSpecification(wf, source, fileSize) : readFlat(wf, source, fileSize);
    if (tasks.empty()) fail(source, "the workflow has no tasks");

    auto g = std::make_shared<Graph>();
    g->setTimeUnit(TimeUnit::Seconds);   // task runtimes
    std::unordered_map<std::string, OpId> opOf;
    int missingRuntime = 0;
    for (const WfTask& t : tasks) {
        if (!opOf.emplace(t.id, g->opCount()).second) fail(source, "duplicate task id '" + t.id + "'");
        if (!t.hasRuntime) ++missingRuntime;
        g->addOp({.name = t.id, .type = t.type, .duration = t.runtime});
    }
    // Dependency edges from both parents and children lists.
    std::vector<std::set<OpId>> children(tasks.size());
    std::int64_t edges = 0;
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        auto resolve = [&](const std::string& id) {
            auto it = opOf.find(id);
            if (it == opOf.end())
                fail(source + ": task '" + tasks[i].id + "'", "refers to task '" + id + "', which does not exist (dangling reference)");
            return it->second;
        };
        for (const std::string& c : tasks[i].children) children[i].insert(resolve(c));
        for (const std::string& p : tasks[i].parents) children[static_cast<std::size_t>(resolve(p))].insert(static_cast<OpId>(i));
        edges += static_cast<std::int64_t>(tasks[i].children.size() + tasks[i].parents.size());
        if (edges > limits().edges) fail(source, "more than " + std::to_string(limits().edges) + " dependencies");
    }
    // Which tasks write each file; workflow inputs (written by none) are parameter bytes.
    std::unordered_map<std::string, std::vector<OpId>> writers;
    for (std::size_t i = 0; i < tasks.size(); ++i)
        for (const std::string& f : std::set<std::string>(tasks[i].outputs.begin(), tasks[i].outputs.end()))
            writers[f].push_back(static_cast<OpId>(i));
    // uses[{writer, file}] = the writer's children that read the file. Work is bounded: a file with
    // many writers read by a task with many inputs could otherwise take quadratic time.
    std::map<std::pair<OpId, std::string>, std::vector<OpId>> uses;
    std::vector<std::set<OpId>> carried(tasks.size());
    std::int64_t work = 0;
    for (std::size_t v = 0; v < tasks.size(); ++v) {
        double inputBytes = 0;
        for (const std::string& f : std::set<std::string>(tasks[v].inputs.begin(), tasks[v].inputs.end())) {
            auto w = writers.find(f);
            if (w == writers.end()) {
                inputBytes += fileSize[f];
                continue;
            }
            work += static_cast<std::int64_t>(w->second.size());
            if (work > limits().edges) fail(source, "too many file dependencies (more than " + std::to_string(limits().edges) + ")");
            for (OpId u : w->second)
                if (children[static_cast<std::size_t>(u)].count(static_cast<OpId>(v))) {
                    uses[{u, f}].push_back(static_cast<OpId>(v));
                    carried[static_cast<std::size_t>(u)].insert(static_cast<OpId>(v));
                }
        }
        g->mutableOp(static_cast<OpId>(v)).paramBytes = inputBytes;
    }
    for (const auto& [key, readers] : uses) {
        const TensorId t = g->addTensor(key.second, key.first, fileSize[key.second]);
        for (OpId c : readers) g->addConsumer(t, c);
    }
    for (std::size_t u = 0; u < tasks.size(); ++u)
        for (OpId c : children[u])
            if (!carried[u].count(c)) g->addEdge(static_cast<OpId>(u), c, 0);
    finalizeGraph(*g, source);
    LoadedGraph out;
    out.graph = std::move(g);
    if (missingRuntime > 0) out.warnings.push_back(std::to_string(missingRuntime) + " tasks had no runtime; 0 used");
    return out;
}

} // namespace sl::io_detail
