// SPDX-License-Identifier: MIT
#pragma once
// The DAG's details panel: everything we know about the selected op (type, category, duration,
// parameters, tensors in and out with their producers and consumers, the ops folded into it) and,
// for the shown schedule, its device, start, end, slack and whether it is critical. Producer and
// consumer names are links that select that op.
#include "widgets/session/types.h"

#include <QTextBrowser>

#include <memory>
#include <optional>
#include <vector>

namespace sl::gui {

/// Latest start of every op that keeps the makespan, given the schedule's placement and device
/// sequence: walking back from the makespan over data successors (plus their transfer time) and
/// the next op on the same device. Slack = latest start - start; 0 on the critical path.
std::vector<double> latestStarts(const Problem& p, const Schedule& s);

class OpDetails : public QTextBrowser {
    Q_OBJECT
public:
    explicit OpDetails(QWidget* parent = nullptr);
    /// `folded[v]`: the ops folded into v (empty lists when nothing is folded).
    void setGraph(std::shared_ptr<const Graph> g, std::vector<std::vector<OpId>> folded);
    void setRecord(const std::optional<RunRecord>& r);
    void showOp(OpId v);
    OpId op() const { return m_op; }

Q_SIGNALS:
    /// A producer, consumer or folded op's link was clicked.
    void opActivated(sl::OpId v);

private:
    QString opLink(OpId v) const;
    QString tensorRows(OpId v) const;
    QString scheduleRows(OpId v) const;

    std::shared_ptr<const Graph> m_graph;
    std::vector<std::vector<OpId>> m_folded;
    std::optional<RunRecord> m_record;
    std::vector<double> m_latestStart;
    std::vector<char> m_critical;
    OpId m_op = kNoOp;
};

}   // namespace sl::gui
