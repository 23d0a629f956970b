// SPDX-License-Identifier: MIT
#pragma once
// The runs in flight of a session: each a RunJob (widgets/session/runjob.h) on a problem of the
// Document, scored on its target, its finished record added to the Document's results. The
// newest run started is the watched one (the convergence view follows it). Several run at once;
// cancelAll() stops them all, each landing with its best so far.
#include "widgets/session/types.h"

#include <QList>
#include <QObject>

#include <memory>

namespace sl::gui {

class Document;
class RunJob;

class Runs : public QObject {
    Q_OBJECT
public:
    explicit Runs(Document* document);
    ~Runs() override;

    /// Starts `method` on `problem` as result Document::nextRunId(). Throws std::exception naming
    /// why when the method cannot keep the problem's pins (checkPins): nothing starts.
    RunJob* start(std::shared_ptr<const Problem> problem, const QString& method, RunOptions options);
    void cancelAll();
    int active() const { return static_cast<int>(m_jobs.size()); }
    /// The run the convergence view follows: the newest started, until it ends.
    const RunJob* watched() const { return m_watched; }

Q_SIGNALS:
    void started(sl::gui::RunJob* job);
    /// `job` ended with a schedule, added to the results as `added`.
    void finished(sl::gui::RunJob* job, const sl::gui::RunRecord& added);
    void failed(sl::gui::RunJob* job, const QString& message);
    /// After finished() or failed(): `job` is gone at the next event loop pass.
    void ended(sl::gui::RunJob* job);

private:
    void forget(RunJob* job);

    Document* m_document;
    QList<RunJob*> m_jobs;
    RunJob* m_watched = nullptr;
};

}   // namespace sl::gui
