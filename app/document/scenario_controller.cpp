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
    QAction* open = menu->addAction(tr("&Open scenario…"));
    open->setShortcut(QKeySequence::Open);
    connect(open, &QAction::triggered, this, [this, window] {
        const QString path =
            chooseOpenFile(window, tr("Open scenario"), tr("Napkin scenarios (*.json);;All files (*)"));
        if (!path.isEmpty())
            openScenario(path);
    });
    QAction* save = menu->addAction(tr("&Save scenario as…"));
    save->setShortcut(QKeySequence::SaveAs);
    connect(save, &QAction::triggered, this, [this, window] {
        QString path =
            chooseSaveFile(window, tr("Save scenario"), tr("scenario.json"), tr("Napkin scenarios (*.json)"));
        if (path.isEmpty())
            return;
        if (QFileInfo(path).suffix().isEmpty())
            path += QStringLiteral(".json");
        const QString error = saveScenario(path);
        if (!error.isEmpty())
            showMessage(tr("Save scenario"), error);
    });
    m_recentMenu = menu->addMenu(tr("Open &recent"));
    rebuildRecentMenu();
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
        connect(action, &QAction::triggered, this, [this, path] { openScenario(path); });
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
