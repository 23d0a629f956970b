// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// A study's database (SQLite): its spec and one row per (graph, method, seed) run, stored as each
/// run finishes, in its own transaction, so that a study stopped, killed or crashed loses at most
/// the runs in flight and resumes where it was. The CLI and the explorer share it.
///
/// Tables: `study` (key, value: the spec as JSON, the schema version) and `runs` (graph file,
/// graph fingerprint, method label, seed, ok, error, cost, makespan, peak memory, the cost's lower bound, evaluations,
/// seconds, the method's settings as JSON, the schedule as schedule JSON). A file that is not an
/// SQLite database, or one that is not a SchedLab study, is refused with a message naming it. Every
/// SQLite result other than a row or the end of one is an error naming the file and SQLite's reason
/// (busy, locked, read-only, corrupt): a run is never taken as missing, nor a list as complete, when
/// the database could not say.

#include "core/study/studyspec.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace sl {

struct StudyRun {
    std::string graph;            ///< the graph file, as the spec lists it
    std::uint64_t fingerprint = 0;
    std::string method;           ///< the method's label
    std::uint64_t seed = 0;
    bool ok = false;
    std::string error;            ///< why it failed (ok == false)
    double cost = 0, makespan = 0, peakMemory = 0;
    double bound = 0;             ///< the problem's lower bound on the cost (core/analysis/bounds.h); 0: none
    std::int64_t evaluations = 0;
    double seconds = 0;
    std::string settings;         ///< the method's name and options, JSON
};

class StudyStore {
public:
    /// Creates `path` (which must not exist) holding `spec`. Throws std::runtime_error.
    static StudyStore create(const std::string& path, const StudySpec& spec);
    enum class Access { ReadWrite, ReadOnly };
    /// Opens an existing study (its methods need not be registered: MethodCheck::AsStored). Throws
    /// std::runtime_error naming the file when it is not one.
    static StudyStore open(const std::string& path, Access access = Access::ReadWrite);
    /// What `study run` and the explorer's New Study do: opens `db` when it exists (refusing it when
    /// `specPath` names another study), else creates it from `specPath`. Throws std::runtime_error.
    static StudyStore openOrCreate(const std::string& db, const std::optional<std::string>& specPath);
    /// The spec openOrCreate would run, read without its methods registered: the database's when
    /// it exists, else the file's (empty with neither). To learn which methods a run needs.
    static StudySpec specToRun(const std::string& db, const std::optional<std::string>& specPath);
    /// Joins the runs of `inputs` (the databases of a sharded study's ranks, or any studies of the
    /// same spec) into `out`, created when missing; a run `out` already has is kept. Throws
    /// std::runtime_error naming a file whose spec differs. Returns the runs added.
    static int merge(const std::string& out, const std::vector<std::string>& inputs);
    StudyStore(StudyStore&&) noexcept;
    StudyStore& operator=(StudyStore&&) noexcept;
    ~StudyStore();

    const StudySpec& spec() const { return m_spec; }
    const std::string& path() const { return m_path; }
    /// How long a statement waits for another connection's lock before it fails (default 5 s).
    void setBusyTimeout(int milliseconds);
    bool has(const std::string& graph, const std::string& method, std::uint64_t seed) const;
    /// Stores one finished run and its schedule JSON (empty for a failed run), in one transaction.
    void store(const StudyRun& run, const std::string& scheduleJson);
    /// Every stored run, without schedules, in the order stored.
    std::vector<StudyRun> runs() const;
    /// The schedule JSON of one run; empty when it failed or is not stored.
    std::string schedule(const std::string& graph, const std::string& method, std::uint64_t seed) const;

private:
    StudyStore(std::string path, sqlite3* db);
    void exec(const char* sql) const;
    std::string meta(const char* key) const;

    std::string m_path;
    sqlite3* m_db = nullptr;
    StudySpec m_spec;
};

} // namespace sl
