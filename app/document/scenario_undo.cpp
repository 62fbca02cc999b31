// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/document/scenario_undo.h"

#include "app/document/scenario_edit_command.h"
#include "app/document/scenario_host.h"

#include <QAction>
#include <QApplication>
#include <QEvent>
#include <QKeyEvent>
#include <QKeySequence>
#include <QMenu>
#include <QTimer>
#include <QUndoStack>

#include <string_view>

using napkin::Scenario;
using napkin::ScenarioPage;

namespace {

QString pageName(ScenarioPage page) {
    const std::string_view name = napkin::scenarioPageName(page);
    return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
}

} // namespace

Scenario withPageReset(Scenario scenario, ScenarioPage page) {
    const Scenario fresh;
    switch (page) {
    case ScenarioPage::accounting:
        scenario.accounting = fresh.accounting;
        break;
    case ScenarioPage::formats:
        scenario.formats = fresh.formats;
        break;
    case ScenarioPage::tensor:
        scenario.tensor = fresh.tensor;
        break;
    case ScenarioPage::benchmarks:
        scenario.benchmarks = fresh.benchmarks;
        break;
    case ScenarioPage::training:
        scenario.training = fresh.training;
        break;
    case ScenarioPage::inference:
        scenario.inference = fresh.inference;
        break;
    case ScenarioPage::roofline:
        scenario.roofline = fresh.roofline;
        break;
    }
    return scenario;
}

ScenarioUndo::ScenarioUndo(ScenarioHost& host, QObject* parent)
    : QObject(parent)
    , m_host(host)
    , m_stack(new QUndoStack(this)) {
    qApp->installEventFilter(this);
}

void ScenarioUndo::addActions(QMenu* menu) {
    QAction* undo = m_stack->createUndoAction(menu, tr("&Undo"));
    undo->setObjectName(QStringLiteral("undo"));
    // Spelled out rather than QKeySequence::Undo/Redo, whose keys depend on the platform theme (the
    // offscreen one has no Ctrl+Shift+Z).
    undo->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Z));
    QAction* redo = m_stack->createRedoAction(menu, tr("&Redo"));
    redo->setObjectName(QStringLiteral("redo"));
    redo->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    menu->addAction(undo);
    menu->addAction(redo);
    QAction* reset = menu->addAction(tr("Re&set page"));
    reset->setObjectName(QStringLiteral("resetPage"));
    reset->setStatusTip(tr("Set every control of this page as a new window has it (Undo brings them back)"));
    connect(reset, &QAction::triggered, this, &ScenarioUndo::resetPage);
}

void ScenarioUndo::resetPage() {
    record(); // what came before the reset is a step of its own
    const Scenario now = m_host.scenario();
    m_host.applyScenario(withPageReset(now, now.page));
    record(tr("reset of the %1 page").arg(pageName(now.page)));
}

QString ScenarioUndo::editText(ScenarioPage page) const {
    return tr("edit on the %1 page").arg(pageName(page));
}

void ScenarioUndo::record(const QString& text, TypedEdit typed) {
    Scenario now = m_host.scenario();
    const QString name = text.isEmpty() ? editText(now.page) : text;
    if (!m_last) {
        m_last = std::move(now);
        return;
    }
    if (ScenarioEditCommand::sameControls(*m_last, now))
        return;
    // Undo shows the page the edit was made on.
    Scenario before = *m_last;
    before.page = now.page;
    m_last = now;
    m_stack->push(new ScenarioEditCommand(std::move(before), std::move(now), name, typed,
                                          [this](const Scenario& s) { apply(s); }));
}

void ScenarioUndo::apply(const Scenario& scenario) {
    m_host.applyScenario(scenario);
    m_last = m_host.scenario();
}

bool ScenarioUndo::eventFilter(QObject* watched, QEvent* event) {
    const QEvent::Type type = event->type();
    // A drag's changes come before its release: whatever came before them is a step of its own.
    if (type == QEvent::MouseButtonPress && !m_checkQueued)
        record();
    const bool typed = type == QEvent::KeyPress || type == QEvent::Wheel;
    if ((typed || type == QEvent::MouseButtonRelease || type == QEvent::Drop) && !m_checkQueued) {
        // Seen before the input is handled: a change since the last step came from elsewhere.
        record();
        m_checkQueued = true;
        m_input = {typed ? QApplication::focusWidget() : nullptr, m_entries};
        if (type == QEvent::KeyPress) {
            const int key = static_cast<const QKeyEvent*>(event)->key();
            if (key == Qt::Key_Return || key == Qt::Key_Enter || key == Qt::Key_Tab || key == Qt::Key_Backtab)
                ++m_entries; // this key's change still joins the typing before it; the next keys do not
        }
        QTimer::singleShot(0, this, [this] {
            m_checkQueued = false;
            record({}, m_input);
        });
    }
    return QObject::eventFilter(watched, event);
}
