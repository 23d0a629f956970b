// SPDX-License-Identifier: MIT
#include "core/study/studystore.h"

#include <sqlite3.h>

#include <filesystem>
#include <stdexcept>

namespace sl {

namespace {

constexpr int kSchema = 1;
constexpr const char* kKind = "schedlab-study";

/// A prepared statement, finalized on scope exit. step() throws on anything but a row or done.
class Statement {
public:
    Statement(sqlite3* db, const char* sql, const std::string& path) : m_db(db), m_path(path) {
        if (sqlite3_prepare_v2(db, sql, -1, &m_stmt, nullptr) != SQLITE_OK)
            throw std::runtime_error(path + ": " + sqlite3_errmsg(db));
    }
    ~Statement() { sqlite3_finalize(m_stmt); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    sqlite3_stmt* get() const { return m_stmt; }
    void text(int i, const std::string& s) { sqlite3_bind_text(m_stmt, i, s.c_str(), static_cast<int>(s.size()), SQLITE_TRANSIENT); }
    void integer(int i, std::int64_t v) { sqlite3_bind_int64(m_stmt, i, v); }
    void real(int i, double v) { sqlite3_bind_double(m_stmt, i, v); }
    /// True for a row, false when done; a busy, locked, read-only or corrupt database throws.
    bool step() const {
        const int rc = sqlite3_step(m_stmt);
        if (rc == SQLITE_ROW) return true;
        if (rc == SQLITE_DONE) return false;
        throw std::runtime_error(m_path + ": " + sqlite3_errstr(rc) + " (" + sqlite3_errmsg(m_db) + ")");
    }
    std::string columnText(int i) const {
        const auto* t = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, i));
        return t ? std::string(t, static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, i))) : std::string();
    }

private:
    sqlite3* m_db;
    const std::string& m_path;
    sqlite3_stmt* m_stmt = nullptr;
};

sqlite3* openDatabase(const std::string& path, int flags) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, flags, nullptr) != SQLITE_OK) {
        const std::string why = db ? sqlite3_errmsg(db) : "out of memory";
        sqlite3_close(db);
        throw std::runtime_error(path + ": cannot open the study: " + why);
    }
    sqlite3_busy_timeout(db, 5000);
    return db;
}

} // namespace

StudyStore::StudyStore(std::string path, sqlite3* db) : m_path(std::move(path)), m_db(db) {}

StudyStore::StudyStore(StudyStore&& o) noexcept : m_path(std::move(o.m_path)), m_db(o.m_db), m_spec(std::move(o.m_spec)) { o.m_db = nullptr; }

StudyStore& StudyStore::operator=(StudyStore&& o) noexcept {
    std::swap(m_path, o.m_path);
    std::swap(m_db, o.m_db);
    std::swap(m_spec, o.m_spec);
    return *this;
}

StudyStore::~StudyStore() { sqlite3_close(m_db); }

void StudyStore::exec(const char* sql) const {
    char* error = nullptr;
    if (sqlite3_exec(m_db, sql, nullptr, nullptr, &error) != SQLITE_OK) {
        const std::string why = error ? error : "unknown error";
        sqlite3_free(error);
        throw std::runtime_error(m_path + ": " + why);
    }
}

std::string StudyStore::meta(const char* key) const {
    Statement s(m_db, "SELECT value FROM study WHERE key = ?", m_path);
    s.text(1, key);
    return s.step() ? s.columnText(0) : std::string();
}

StudyStore StudyStore::create(const std::string& path, const StudySpec& spec) {
    if (std::filesystem::exists(path)) throw std::runtime_error(path + ": exists already (open it to resume)");
    StudyStore store(path, openDatabase(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE));
    store.exec("PRAGMA journal_mode = WAL; BEGIN;"
               "CREATE TABLE study (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
               "CREATE TABLE runs (graph TEXT NOT NULL, fingerprint INTEGER NOT NULL, method TEXT NOT NULL, seed INTEGER NOT NULL,"
               " ok INTEGER NOT NULL, error TEXT, cost REAL, makespan REAL, peak_memory REAL, bound REAL, evaluations INTEGER, seconds REAL,"
               " settings TEXT, schedule TEXT, PRIMARY KEY (graph, method, seed));");
    Statement put(store.m_db, "INSERT INTO study (key, value) VALUES (?, ?), ('schema', ?), ('kind', ?), ('base', ?)", path);
    put.text(1, "spec");
    put.text(2, studySpecJson(spec));
    put.text(3, std::to_string(kSchema));
    put.text(4, kKind);
    put.text(5, spec.baseDir);
    if (put.step()) throw std::runtime_error(path + ": the spec's insert returned a row");
    store.exec("COMMIT;");
    store.m_spec = spec;
    return store;
}

StudyStore StudyStore::open(const std::string& path, Access access) {
    if (!std::filesystem::exists(path)) throw std::runtime_error(path + ": no such study");
    StudyStore store(path, openDatabase(path, access == Access::ReadOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE));
    try {
        if (store.meta("kind") != kKind) throw std::runtime_error("no SchedLab study in it");
    } catch (const std::runtime_error& e) {   // not SQLite at all, or another program's database
        throw std::runtime_error(path + ": not a SchedLab study (" + std::string(e.what()) + ")");
    }
    if (std::stoi(store.meta("schema")) > kSchema)
        throw std::runtime_error(path + ": a study of a newer SchedLab (schema " + store.meta("schema") + ")");
    store.m_spec = parseStudySpec(store.meta("spec"), path + " (its spec)", MethodCheck::AsStored);
    store.m_spec.baseDir = store.meta("base");
    return store;
}

StudyStore StudyStore::openOrCreate(const std::string& db, const std::optional<std::string>& specPath) {
    if (std::filesystem::exists(db)) {
        StudyStore store = open(db);
        if (specPath && studySpecJson(loadStudySpec(*specPath, MethodCheck::AsStored)) != studySpecJson(store.spec()))
            throw std::runtime_error(db + " holds another study than " + *specPath + " (a new database for a new study)");
        return store;
    }
    if (!specPath) throw std::runtime_error(db + ": no such study (give STUDY.json to create it)");
    return create(db, loadStudySpec(*specPath));
}

StudySpec StudyStore::specToRun(const std::string& db, const std::optional<std::string>& specPath) {
    if (std::filesystem::exists(db)) return open(db, Access::ReadOnly).spec();
    return specPath ? loadStudySpec(*specPath, MethodCheck::AsStored) : StudySpec{};
}

void StudyStore::setBusyTimeout(int milliseconds) { sqlite3_busy_timeout(m_db, milliseconds); }

int StudyStore::merge(const std::string& out, const std::vector<std::string>& inputs) {
    if (inputs.empty()) throw std::runtime_error("study merge: no databases to merge");
    std::vector<StudyStore> sources;
    for (const std::string& in : inputs) sources.push_back(open(in));
    const std::string spec = studySpecJson(sources.front().spec());
    for (const StudyStore& s : sources)
        if (studySpecJson(s.spec()) != spec)
            throw std::runtime_error(s.path() + ": another study than " + sources.front().path() + " (their specs differ)");
    StudyStore target = std::filesystem::exists(out) ? open(out) : create(out, sources.front().spec());
    if (studySpecJson(target.spec()) != spec) throw std::runtime_error(out + ": another study than the ones merged into it");
    int added = 0;
    target.exec("BEGIN;");
    for (const StudyStore& s : sources)
        for (const StudyRun& r : s.runs())
            if (!target.has(r.graph, r.method, r.seed)) {
                target.store(r, s.schedule(r.graph, r.method, r.seed));
                ++added;
            }
    target.exec("COMMIT;");
    return added;
}

bool StudyStore::has(const std::string& graph, const std::string& method, std::uint64_t seed) const {
    Statement s(m_db, "SELECT 1 FROM runs WHERE graph = ? AND method = ? AND seed = ?", m_path);
    s.text(1, graph);
    s.text(2, method);
    s.integer(3, static_cast<std::int64_t>(seed));
    return s.step();
}

void StudyStore::store(const StudyRun& r, const std::string& scheduleJson) {
    Statement s(m_db,
                "INSERT OR REPLACE INTO runs (graph, fingerprint, method, seed, ok, error, cost, makespan, peak_memory, bound, evaluations,"
                " seconds, settings, schedule) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                m_path);
    s.text(1, r.graph);
    s.integer(2, static_cast<std::int64_t>(r.fingerprint));
    s.text(3, r.method);
    s.integer(4, static_cast<std::int64_t>(r.seed));
    s.integer(5, r.ok ? 1 : 0);
    s.text(6, r.error);
    s.real(7, r.cost);
    s.real(8, r.makespan);
    s.real(9, r.peakMemory);
    s.real(10, r.bound);
    s.integer(11, r.evaluations);
    s.real(12, r.seconds);
    s.text(13, r.settings);
    s.text(14, scheduleJson);
    s.step();
}

std::vector<StudyRun> StudyStore::runs() const {
    Statement s(m_db,
                "SELECT graph, fingerprint, method, seed, ok, error, cost, makespan, peak_memory, bound, evaluations, seconds, settings"
                " FROM runs ORDER BY rowid",
                m_path);
    std::vector<StudyRun> out;
    while (s.step()) {
        StudyRun r;
        r.graph = s.columnText(0);
        r.fingerprint = static_cast<std::uint64_t>(sqlite3_column_int64(s.get(), 1));
        r.method = s.columnText(2);
        r.seed = static_cast<std::uint64_t>(sqlite3_column_int64(s.get(), 3));
        r.ok = sqlite3_column_int(s.get(), 4) != 0;
        r.error = s.columnText(5);
        r.cost = sqlite3_column_double(s.get(), 6);
        r.makespan = sqlite3_column_double(s.get(), 7);
        r.peakMemory = sqlite3_column_double(s.get(), 8);
        r.bound = sqlite3_column_double(s.get(), 9);
        r.evaluations = sqlite3_column_int64(s.get(), 10);
        r.seconds = sqlite3_column_double(s.get(), 11);
        r.settings = s.columnText(12);
        out.push_back(std::move(r));
    }
    return out;
}

std::string StudyStore::schedule(const std::string& graph, const std::string& method, std::uint64_t seed) const {
    Statement s(m_db, "SELECT schedule FROM runs WHERE graph = ? AND method = ? AND seed = ?", m_path);
    s.text(1, graph);
    s.text(2, method);
    s.integer(3, static_cast<std::int64_t>(seed));
    return s.step() ? s.columnText(0) : std::string();
}

} // namespace sl
