// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/document/scenario_edit_command.h"

#include <utility>

namespace {

constexpr int kTypedEdit = 0x5ce1; // QUndoStack merges commands of the same id only

} // namespace

ScenarioEditCommand::ScenarioEditCommand(napkin::Scenario before, napkin::Scenario after, const QString& text,
                                         TypedEdit typed, Apply apply)
    : QUndoCommand(text)
    , m_before(std::move(before))
    , m_after(std::move(after))
    , m_typed(typed)
    , m_apply(std::move(apply)) {}

void ScenarioEditCommand::undo() {
    m_apply(m_before);
    m_applied = false;
}

void ScenarioEditCommand::redo() {
    if (!m_applied)
        m_apply(m_after);
    m_applied = false;
}

int ScenarioEditCommand::id() const {
    return m_typed.control ? kTypedEdit : -1;
}

bool ScenarioEditCommand::mergeWith(const QUndoCommand* other) {
    const auto* next = dynamic_cast<const ScenarioEditCommand*>(other);
    if (!next || !(next->m_typed == m_typed) || next->m_after.page != m_after.page)
        return false;
    m_after = next->m_after;
    // Typed back to where it started (the field's own Ctrl+Z, a digit typed and deleted): no step at all.
    setObsolete(sameControls(m_before, m_after));
    return true;
}

bool ScenarioEditCommand::sameControls(const napkin::Scenario& a, const napkin::Scenario& b) {
    napkin::Scenario samePage = b;
    samePage.page = a.page;
    return samePage == a;
}
