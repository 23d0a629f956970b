// SPDX-License-Identifier: MIT
#pragma once
// The schedules on show follow the open graph's times and machine: when the Document's machine or
// profile changes, each schedule that was on show is re-timed there with its placement and order
// kept (widgets/session/graphtiming.h), on a worker, as scoring it computes bounds (60 ms at 10,000
// ops). A re-timing made for that machine before is shown again, not made twice. Only the newest
// re-timing lands (LatestRequest). Owned by the Document, which forwards what lands.
#include "widgets/session/latestrequest.h"
#include "widgets/session/types.h"

#include <QObject>
#include <QStringList>

#include <optional>
#include <vector>

namespace sl::gui {

class Document;

/// What a re-timing of the schedules on show gives the views.
struct RetimedShow {
    QList<int> ids;                   ///< the results to show (re-timed, or re-timed for this machine before)
    std::optional<RunRecord> loose;   ///< a sample on show re-timed: shown, not added to the results
    QStringList dropped;              ///< "list-cp #1: why it does not fit"
    QString machine;                  ///< the machine's label, ", measured" with a profile
    QString notFitting;               ///< not empty: the graph does not fit the machine, nothing is shown
};

class ShownRetiming : public QObject {
    Q_OBJECT
public:
    explicit ShownRetiming(Document* document);

    /// Re-times `before` (Document::onShow() before the change) on the open graph's new times and
    /// machine; landed() follows (at once when nothing needs a worker).
    void retime(const std::vector<RunRecord>& before);
    bool inFlight() const { return m_inFlight > 0; }
    /// The schedules the newest re-timing in flight started from (empty when none is in flight).
    const std::vector<RunRecord>& retiming() const { return m_retiming; }

Q_SIGNALS:
    void landed(const sl::gui::RetimedShow& shown);

private:
    /// The result row that re-times `root` for `p`'s machine, made before; -1 if none.
    int rowRetiming(int root, const Problem& p) const;

    Document* m_document;
    LatestRequest m_requests;
    int m_inFlight = 0;
    std::vector<RunRecord> m_retiming;
};

}   // namespace sl::gui

Q_DECLARE_METATYPE(sl::gui::RetimedShow)
