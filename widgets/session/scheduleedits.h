// SPDX-License-Identifier: MIT
#pragma once
// Hand edits of the schedule on show (core/edit/scheduleeditor.h): what the Gantt chart and the
// Memory view ask while an op is dragged (a preview: nothing changes), and the edit itself. The
// first edit of a result makes a new result, "<name>, edited", which later edits, undo and redo
// update in place. One editor per edited result, so each keeps its own undo history.
#include "widgets/session/types.h"

#include "core/edit/scheduleeditor.h"

#include <QObject>

#include <map>
#include <memory>
#include <optional>

namespace sl::gui {

class Document;

class ScheduleEdits : public QObject {
    Q_OBJECT
public:
    explicit ScheduleEdits(Document* document, QObject* parent = nullptr);

    /// Empty when the shown schedule can be edited, else why not (nothing shown, several ops at
    /// once on a device).
    QString refusal();
    /// The shown schedule's editor (made on first use); null when refusal() is not empty.
    const ScheduleEditor* editor();
    /// What moving `v` to `to` would give; changes nothing.
    EditOutcome preview(OpId v, OpPlace to);
    /// Moves `v` to `to` when allowed: a new result on the first edit of a result (resultAdded),
    /// else the shown one updated (resultReplaced). Returns the outcome (its refusal when refused).
    EditOutcome commit(OpId v, OpPlace to);

    /// Pins `v` (in the document's pins) to its device in the shown schedule; `atItsPlace` also
    /// to its place among that device's ranked pins, renumbered by their starts in the schedule.
    void pin(OpId v, bool atItsPlace);
    void unpin(OpId v);
    void unpinAll();
    const Pins& pins() const;

    bool canUndo();
    bool canRedo();
    void undo();
    void redo();

Q_SIGNALS:
    /// The first edit of a result: add `r` to the results and show it.
    void resultAdded(const RunRecord& r);
    /// A later edit, an undo or a redo of the shown edited result `r` (same id): replace and show it.
    void resultReplaced(const RunRecord& r);

private:
    ScheduleEditor* shownEditor();
    void publish(const RunRecord& base, ScheduleEditor& editor, bool added);

    Document* m_document;
    /// By the id of the result they edit: the edited results', and one draft per result on show
    /// that is not edited yet (it becomes the new result's on the first edit).
    std::map<int, std::unique_ptr<ScheduleEditor>> m_editors;
    std::map<int, QString> m_refusals;   ///< results that cannot be edited, and why
    std::map<int, bool> m_edited;        ///< ids of results made by editing
};

}   // namespace sl::gui
