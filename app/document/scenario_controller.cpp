// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/document/scenario_controller.h"

#include "app/document/recent_files.h"
#include "app/document/scenario_file.h"
#include "app/document/scenario_host.h"
#include "app/export/file_dialogs.h"

#include <QAction>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QWidget>

ScenarioController::ScenarioController(ScenarioHost& host, QObject* parent)
    : QObject(parent)
    , m_host(host) {}

void ScenarioController::addActions(QMenu* menu) {
    QWidget* window = m_host.hostWindow();
    // Keys spelled out: QKeySequence::SaveAs has no key in some platform themes (the offscreen one).
    QAction* open = menu->addAction(tr("&Open scenario…"));
    open->setObjectName(QStringLiteral("openScenario"));
    open->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_O));
    connect(open, &QAction::triggered, this, [this, window] {
        const QString path =
            chooseOpenFile(window, tr("Open scenario"), tr("Napkin scenarios (*.json);;All files (*)"));
        if (!path.isEmpty())
            openScenario(path);
    });
    m_recentMenu = menu->addMenu(tr("Open &recent"));
    m_recentMenu->menuAction()->setObjectName(QStringLiteral("openRecent"));
    rebuildRecentMenu();
    // It listed the scenarios this controller saved or opened, as they were when the window was built:
    // greyed for whoever opened configs, runs and tours but never saved a scenario.
    connect(menu, &QMenu::aboutToShow, this, &ScenarioController::rebuildRecentMenu);
    QAction* save = menu->addAction(tr("&Save scenario"));
    save->setObjectName(QStringLiteral("saveScenario"));
    save->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_S));
    save->setStatusTip(tr("Write every control to the scenario file opened or saved last"));
    connect(save, &QAction::triggered, this, &ScenarioController::save);
    QAction* saveAs = menu->addAction(tr("Save scenario &as…"));
    saveAs->setObjectName(QStringLiteral("saveScenarioAs"));
    saveAs->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    connect(saveAs, &QAction::triggered, this, &ScenarioController::saveAs);
}

void ScenarioController::save() {
    const QString path = m_host.hostWindow()->windowFilePath();
    if (path.isEmpty()) {
        saveAs();
        return;
    }
    const QString error = saveScenario(path);
    if (!error.isEmpty())
        showMessage(tr("Save scenario"), error);
}

void ScenarioController::saveAs() {
    QString path = chooseSaveFile(m_host.hostWindow(), tr("Save scenario"), tr("scenario.json"),
                                  tr("Napkin scenarios (*.json)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".json");
    const QString error = saveScenario(path);
    if (!error.isEmpty())
        showMessage(tr("Save scenario"), error);
}

void ScenarioController::rebuildRecentMenu() {
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList files = RecentFiles::list(QSettings());
    for (const QString& path : files) {
        QAction* action = m_recentMenu->addAction(QFileInfo(path).fileName());
        action->setToolTip(path);
        action->setStatusTip(path);
        connect(action, &QAction::triggered, this, [this, path] {
            if (m_openRecent)
                m_openRecent(path);
            else
                openScenario(path);
        });
    }
    m_recentMenu->setEnabled(!files.isEmpty());
}

QString ScenarioController::openScenario(const QString& path) {
    const ScenarioLoad load = loadScenarioFile(path);
    if (!load.ok()) {
        showMessage(tr("Open scenario"),
                    tr("Could not open the scenario; nothing was changed.\n\n%1").arg(load.error));
        return load.error;
    }
    const QStringList warnings = load.warnings + m_host.applyScenario(*load.scenario);
    m_host.hostWindow()->setWindowFilePath(path);
    QSettings settings;
    RecentFiles::add(settings, path);
    rebuildRecentMenu();
    if (!warnings.isEmpty())
        showMessage(
            tr("Open scenario"),
            tr("Opened %1, except:\n\n%2").arg(QFileInfo(path).fileName(), warnings.join(QLatin1Char('\n'))));
    return {};
}

QString ScenarioController::saveScenario(const QString& path) {
    QString error = saveScenarioFile(m_host.scenario(), path);
    if (!error.isEmpty())
        return error;
    m_host.hostWindow()->setWindowFilePath(path);
    QSettings settings;
    RecentFiles::add(settings, path);
    rebuildRecentMenu();
    return {};
}

void ScenarioController::showMessage(const QString& title, const QString& text) {
    auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, m_host.hostWindow());
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("scenarioMessage"));
    box->open();
}
