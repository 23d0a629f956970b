// SPDX-License-Identifier: MIT
#pragma once
// The command line's hand edits, for scripted screenshots (docs/explorer-tour.md): `--move
// OP,DEVICE,POSITION` makes an edit of the schedule on show as a drop would, `--drag
// OP,DEVICE,POSITION` leaves a drag under way in the Gantt chart, its preview painted.
#include <QString>
#include <QStringList>

namespace sl::gui {

class MainWindow;

/// "OP,DEVICE,POSITION" read; false (with `error`) when malformed.
bool parseEditSpec(const QString& text, QString* op, int* device, int* position, QString* error);
/// Makes every move of `moves` in order, then starts `drag` (if any). False with `error` on the
/// first that cannot be made (an unknown op, a refused move: the reason).
bool applyScriptedEdits(MainWindow& w, const QStringList& moves, const QString& drag, QString* error);

} // namespace sl::gui
