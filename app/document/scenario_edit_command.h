// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One undoable edit of the window's controls: the scenario before it and after it. Undo and redo hand
// the whole scenario back to the pages through their own applyScenario, so a step restores every control
// exactly as it was, whichever control the user moved. Key presses and wheel turns in one control merge
// into one step (typing "70e9" is one edit; a slider dragged is one already: it is seen at the release).
#include "engine/scenario/scenario.h"

#include <QUndoCommand>

#include <functional>

/// Which typed edit a step belongs to: steps with the same key merge.
struct TypedEdit {
    const void* control = nullptr; ///< the focused control the keys went to; compared, never followed
    int entry = 0;                 ///< counts Enter and Tab: a value entered ends the edit
    bool operator==(const TypedEdit&) const = default;
};

class ScenarioEditCommand : public QUndoCommand {
public:
    using Apply = std::function<void(const napkin::Scenario&)>;

    /// `before` and `after` are already on the pages: the first redo (QUndoStack::push's) does nothing.
    /// `typed`: the typed edit this step is part of, which later keys in it merge with; a null control for
    /// a step that merges with nothing (a click, a drag, a reset, an opened file).
    ScenarioEditCommand(napkin::Scenario before, napkin::Scenario after, const QString& text, TypedEdit typed,
                        Apply apply);

    void undo() override;
    void redo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand* other) override;

    /// Whether two scenarios hold the same controls, whichever page is in front.
    static bool sameControls(const napkin::Scenario& a, const napkin::Scenario& b);

private:
    napkin::Scenario m_before;
    napkin::Scenario m_after;
    TypedEdit m_typed;
    Apply m_apply;
    bool m_applied = true; ///< pushed after the pages changed
};
