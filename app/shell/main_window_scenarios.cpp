// MainWindow's scenario actions: open, save, recent files, and the mapping of the window's pages.
#include "app/accounting/accounting_page.h"
#include "app/benchmarks/benchmarks_page.h"
#include "app/shell/main_window.h"
#include "app/formats/number_formats_page.h"
#include "app/document/recent_files.h"
#include "app/document/scenario_file.h"
#include "app/tensor/tensor_page.h"
#include "app/training/training_page.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QTabWidget>

namespace {

// Tab order of the window; the scenario names the page, not its position.
constexpr napkin::ScenarioPage kTabPages[] = {napkin::ScenarioPage::accounting, napkin::ScenarioPage::formats,
                                              napkin::ScenarioPage::tensor, napkin::ScenarioPage::benchmarks,
                                              napkin::ScenarioPage::training};

} // namespace

void MainWindow::addScenarioActions(QMenu* file) {
    QAction* open = file->addAction(tr("&Open scenario…"));
    open->setShortcut(QKeySequence::Open);
    connect(open, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open scenario"), QString(),
                                                          tr("Napkin scenarios (*.json);;All files (*)"));
        if (!path.isEmpty())
            openScenario(path);
    });
    QAction* save = file->addAction(tr("&Save scenario as…"));
    save->setShortcut(QKeySequence::SaveAs);
    connect(save, &QAction::triggered, this, [this] {
        QString path = QFileDialog::getSaveFileName(this, tr("Save scenario"), tr("scenario.json"),
                                                    tr("Napkin scenarios (*.json)"));
        if (path.isEmpty())
            return;
        if (QFileInfo(path).suffix().isEmpty())
            path += QStringLiteral(".json");
        const QString error = saveScenario(path);
        if (!error.isEmpty())
            showMessage(tr("Save scenario"), error);
    });
    m_recentMenu = file->addMenu(tr("Open &recent"));
    rebuildRecentMenu();
    file->addSeparator();
}

void MainWindow::rebuildRecentMenu() {
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

napkin::Scenario MainWindow::scenario() const {
    napkin::Scenario s;
    s.page =
        kTabPages[std::max(0, std::min(m_pages->currentIndex(), static_cast<int>(std::size(kTabPages)) - 1))];
    s.accounting = m_accounting->scenario();
    s.formats = m_formats->scenario();
    s.tensor = m_tensor->scenario();
    s.benchmarks = m_benchmarks->scenario();
    s.training = m_training->scenario();
    return s;
}

QStringList MainWindow::applyScenario(const napkin::Scenario& s) {
    QStringList warnings = m_accounting->applyScenario(s.accounting);
    m_formats->applyScenario(s.formats);
    warnings += m_tensor->applyScenario(s.tensor);
    warnings += m_benchmarks->applyScenario(s.benchmarks);
    warnings += m_training->applyScenario(s.training);
    for (int i = 0; i < static_cast<int>(std::size(kTabPages)); ++i)
        if (kTabPages[i] == s.page)
            m_pages->setCurrentIndex(i);
    return warnings;
}

QString MainWindow::openScenario(const QString& path) {
    const ScenarioLoad load = loadScenarioFile(path);
    if (!load.ok()) {
        showMessage(tr("Open scenario"),
                    tr("Could not open the scenario; nothing was changed.\n\n%1").arg(load.error));
        return load.error;
    }
    const QStringList warnings = load.warnings + applyScenario(*load.scenario);
    setWindowFilePath(path);
    QSettings settings;
    RecentFiles::add(settings, path);
    rebuildRecentMenu();
    if (!warnings.isEmpty())
        showMessage(
            tr("Open scenario"),
            tr("Opened %1, except:\n\n%2").arg(QFileInfo(path).fileName(), warnings.join(QLatin1Char('\n'))));
    return {};
}

QString MainWindow::saveScenario(const QString& path) {
    QString error = saveScenarioFile(scenario(), path);
    if (!error.isEmpty())
        return error;
    setWindowFilePath(path);
    QSettings settings;
    RecentFiles::add(settings, path);
    rebuildRecentMenu();
    return {};
}

// Non-blocking, so that a scenario given on the command line or opened by a test never waits on a click.
void MainWindow::showMessage(const QString& title, const QString& text) {
    auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("scenarioMessage"));
    box->open();
}
