// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Edit ▸ Undo, Redo and Reset page over the window's controls. Nothing here knows a control: after each
// key press, click, wheel turn or drop the window's scenario (ScenarioHost) is compared with the one
// before, and a difference is one step on a QUndoStack, so every control of every page is undoable,
// today's and tomorrow's. A step is taken when the input has been handled (a slider's drag ends at its
// release: one step); keys and wheel turns in the same control merge (a number typed is one step). A
// change made between inputs (an opened file, a finished dialog) is a step of its own, taken before the
// next input's.
#include "app/document/scenario_edit_command.h"
#include "engine/scenario/scenario.h"

#include <QObject>
#include <QString>

#include <optional>

class QAction;
class QMenu;
class QUndoStack;
class ScenarioHost;

class ScenarioUndo : public QObject {
    Q_OBJECT
public:
    /// Watches the application's input from now on; the first input finds the window as it opened.
    explicit ScenarioUndo(ScenarioHost& host, QObject* parent = nullptr);

    /// Adds Undo (Ctrl+Z), Redo (Ctrl+Shift+Z, Ctrl+Y) and Reset page to `menu`.
    void addActions(QMenu* menu);
    QUndoStack* stack() const { return m_stack; }

    /// Sets the page in front to what a fresh window shows there, as one undoable step.
    void resetPage();
    /// Takes whatever changed since the last step as one step named `text` ("edit on the PAGE page" when
    /// empty); nothing when nothing changed. `typed`: see ScenarioEditCommand.
    void record(const QString& text = {}, TypedEdit typed = {});

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void apply(const napkin::Scenario& scenario);
    QString editText(napkin::ScenarioPage page) const;

    ScenarioHost& m_host;
    QUndoStack* m_stack;
    std::optional<napkin::Scenario> m_last; ///< the controls as the last step left them
    bool m_checkQueued = false;
    TypedEdit m_input; ///< the queued input's: its control when typed, null for a click
    int m_entries = 0; ///< Enter and Tab keys seen
};

/// `scenario` with `page`'s section as a fresh window has it (Scenario{}'s), the other pages' untouched.
napkin::Scenario withPageReset(napkin::Scenario scenario, napkin::ScenarioPage page);
