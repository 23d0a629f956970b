// SPDX-License-Identifier: MIT
#include "widgets/scheduleedits.h"

#include "widgets/document.h"
#include "widgets/schedulerecord.h"

#include <stdexcept>

namespace sl::gui {

ScheduleEdits::ScheduleEdits(Document* document, std::function<int()> nextId, QObject* parent)
    : QObject(parent), m_document(document), m_nextId(std::move(nextId)) {}

ScheduleEditor* ScheduleEdits::shownEditor() {
    const std::optional<RunRecord>& shown = m_document->shown();
    if (!shown || !shown->result || !shown->problem) return nullptr;
    if (const auto it = m_editors.find(shown->id); it != m_editors.end()) return it->second.get();
    if (m_refusals.count(shown->id)) return nullptr;
    try {
        auto editor = std::make_unique<ScheduleEditor>(shown->problem, shown->schedule());
        return m_editors.emplace(shown->id, std::move(editor)).first->second.get();
    } catch (const std::exception& e) {
        m_refusals[shown->id] = QString::fromStdString(e.what());
        return nullptr;
    }
}

QString ScheduleEdits::refusal() {
    if (shownEditor()) return {};
    const std::optional<RunRecord>& shown = m_document->shown();
    if (!shown || !shown->result) return tr("no schedule on show");
    return m_refusals[shown->id];
}

const ScheduleEditor* ScheduleEdits::editor() { return shownEditor(); }

EditOutcome ScheduleEdits::preview(OpId v, OpPlace to) {
    ScheduleEditor* editor = shownEditor();
    if (!editor) return {.refusal = refusal().toStdString()};
    return editor->preview(v, to);
}

EditOutcome ScheduleEdits::commit(OpId v, OpPlace to) {
    ScheduleEditor* editor = shownEditor();
    if (!editor) return {.refusal = refusal().toStdString()};
    const std::size_t before = editor->editCount();
    EditOutcome o = editor->move(v, to);
    if (!o.allowed() || editor->editCount() == before) return o;
    const RunRecord base = *m_document->shown();
    publish(base, *editor, !m_edited.count(base.id));
    return o;
}

void ScheduleEdits::publish(const RunRecord& base, ScheduleEditor& editor, bool added) {
    if (!added) {
        Q_EMIT resultReplaced(editedRecord(base, base.id, base.name, editor.schedule(), editor.cost()));
        return;
    }
    // The draft becomes the new result's editor; the base result keeps its schedule (and a fresh
    // draft on its next edit).
    const int id = m_nextId();
    auto node = m_editors.extract(base.id);
    m_editors.emplace(id, std::move(node.mapped()));
    m_edited[id] = true;
    Q_EMIT resultAdded(editedRecord(base, id, tr("%1, edited").arg(base.name), editor.schedule(), editor.cost()));
}

bool ScheduleEdits::canUndo() {
    const std::optional<RunRecord>& shown = m_document->shown();
    if (!shown || !m_edited.count(shown->id)) return false;
    const ScheduleEditor* e = shownEditor();
    return e && e->canUndo();
}

bool ScheduleEdits::canRedo() {
    const std::optional<RunRecord>& shown = m_document->shown();
    if (!shown || !m_edited.count(shown->id)) return false;
    const ScheduleEditor* e = shownEditor();
    return e && e->canRedo();
}

void ScheduleEdits::undo() {
    if (!canUndo()) return;
    ScheduleEditor* e = shownEditor();
    e->undo();
    publish(*m_document->shown(), *e, false);
}

void ScheduleEdits::redo() {
    if (!canRedo()) return;
    ScheduleEditor* e = shownEditor();
    e->redo();
    publish(*m_document->shown(), *e, false);
}

} // namespace sl::gui
