// SPDX-License-Identifier: MIT
#include "widgets/session/scheduleedits.h"

#include "widgets/session/document.h"
#include "widgets/session/schedulerecord.h"

#include <algorithm>
#include <stdexcept>

namespace sl::gui {

ScheduleEdits::ScheduleEdits(Document* document, QObject* parent) : QObject(parent), m_document(document) {}

ScheduleEditor* ScheduleEdits::shownEditor() {
    const std::optional<RunRecord>& shown = m_document->shown();
    if (!shown || !shown->result || !shown->problem) return nullptr;
    if (const auto it = m_editors.find(shown->id); it != m_editors.end()) {
        it->second->setPins(m_document->pins());   // pins set since: edits keep them
        return it->second.get();
    }
    if (m_refusals.count(shown->id)) return nullptr;
    try {
        auto editor = std::make_unique<ScheduleEditor>(shown->problem, shown->schedule());
        editor->setPins(m_document->pins());
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
    RunRecord withPins = base;
    withPins.problem = editor.sharedProblem();   // saved with the pins it was edited under
    if (!added) {
        Q_EMIT resultReplaced(editedRecord(withPins, base.id, base.name, editor.schedule(), editor.cost()));
        return;
    }
    // The draft becomes the new result's editor; the base result keeps its schedule (and a fresh
    // draft on its next edit).
    const int id = m_document->nextRunId();
    auto node = m_editors.extract(base.id);
    m_editors.emplace(id, std::move(node.mapped()));
    m_edited[id] = true;
    Q_EMIT resultAdded(editedRecord(withPins, id, tr("%1, edited").arg(base.name), editor.schedule(), editor.cost()));
}

const Pins& ScheduleEdits::pins() const { return m_document->pins(); }

void ScheduleEdits::pin(OpId v, bool atItsPlace) {
    const std::optional<RunRecord>& shown = m_document->shown();
    if (!shown || !shown->result || v < 0 || static_cast<std::size_t>(v) >= shown->schedule().ops.size()) return;
    const Schedule& s = shown->schedule();
    const int device = s.ops[static_cast<std::size_t>(v)].device;
    Pins pins = m_document->pins();
    pins.pin(v, device, atItsPlace ? 0 : -1);
    if (atItsPlace) {   // the device's ranked pins, numbered again by where the shown schedule runs them
        std::vector<OpId> ranked = pins.ranked(device);
        std::sort(ranked.begin(), ranked.end(), [&](OpId a, OpId b) {
            return s.ops[static_cast<std::size_t>(a)].start < s.ops[static_cast<std::size_t>(b)].start;
        });
        for (std::size_t k = 0; k < ranked.size(); ++k) pins.pin(ranked[k], device, static_cast<int>(k));
    }
    m_document->setPins(std::move(pins));
}

void ScheduleEdits::unpin(OpId v) {
    Pins pins = m_document->pins();
    pins.unpin(v);
    m_document->setPins(std::move(pins));
}

void ScheduleEdits::unpinAll() { m_document->setPins({}); }

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

}   // namespace sl::gui
