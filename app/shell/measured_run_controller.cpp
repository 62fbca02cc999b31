// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/shell/measured_run_controller.h"

#include "app/accounting/accounting_page.h"
#include "app/document/recent_files.h"
#include "app/export/file_dialogs.h"
#include "engine/measured/measured_timeline.h"

#include <QAction>
#include <QFile>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>

MeasuredRunController::MeasuredRunController(QMainWindow& window, QTabWidget& pages, AccountingPage& accounting,
                                             QObject* parent)
    : QObject(parent)
    , m_window(window)
    , m_pages(pages)
    , m_accounting(accounting) {}

void MeasuredRunController::addActions(QMenu* menu) {
    QAction* open = menu->addAction(tr("Open measured r&un…"));
    open->setObjectName(QStringLiteral("openMeasuredRun"));
    open->setStatusTip(tr("Draw a torch.profiler trace (profile_memory=True) or a CUDA memory snapshot over "
                          "the Accounting page's memory over one step (or drop one on the window)"));
    connect(open, &QAction::triggered, this, [this] {
        const QString path = chooseOpenFile(
            &m_window, tr("Open measured run"),
            tr("Measured runs (*.json *.pickle *.pkl);;Profiler traces (*.json);;Memory snapshots (*.pickle "
               "*.pkl);;All files (*)"));
        if (!path.isEmpty())
            openMeasuredRun(path);
    });
    m_clear = menu->addAction(tr("C&lear measured run"));
    m_clear->setObjectName(QStringLiteral("clearMeasuredRun"));
    m_clear->setStatusTip(tr("Take the measured run off the Accounting page"));
    m_clear->setEnabled(m_accounting.hasMeasuredRun());
    connect(m_clear, &QAction::triggered, &m_accounting, &AccountingPage::clearMeasuredRun);
    connect(&m_accounting, &AccountingPage::measuredRunChanged, m_clear, &QAction::setEnabled);
}

QString MeasuredRunController::openMeasuredRun(const QString& path) {
    const napkin::MeasuredRunRead read = napkin::readMeasuredRun(QFile::encodeName(path).toStdString());
    m_pages.setCurrentWidget(&m_accounting);
    if (!read.ok()) {
        QString error = QString::fromStdString(read.error);
        m_accounting.showMeasuredRunError(error);
        m_window.statusBar()->showMessage(tr("Measured run not opened: %1").arg(error), 8000);
        return error;
    }
    const QString label = QFileInfo(path).fileName();
    m_accounting.setMeasuredRun(read.run, label);
    QSettings settings;
    RecentFiles::add(settings, path); // File ▸ Open recent opens it again
    m_window.statusBar()->showMessage(
        tr("Opened %1 (%2) over the Accounting page's memory over one step")
            .arg(label, QString::fromStdString(read.run.format)),
        8000);
    return {};
}

bool MeasuredRunController::isMeasuredRunFile(const QString& path) {
    if (!QFileInfo(path).isFile()) // a FIFO or a device is never read, not even its first bytes
        return false;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const QByteArray head = file.read(qint64{64} * 1024);
    return napkin::looksLikeMeasuredRun(std::string_view(head.constData(), static_cast<std::size_t>(head.size())));
}
