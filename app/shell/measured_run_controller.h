// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// File ▸ Open measured run… / Clear measured run, and a trace or snapshot dropped on the window: the
// engine's readers (engine/measured/, the ones `napkin-cli compare` uses) turn a torch.profiler Chrome
// trace or a CUDA memory snapshot into a measured run, which the Accounting page draws over its predicted
// step and compares in its answers. A file the readers refuse (cut, too deep or too large, a pickle that
// names code, no memory events) changes nothing: its one line is shown under the timeline and in the
// status bar.
#include <QObject>
#include <QString>

class AccountingPage;
class QAction;
class QMainWindow;
class QMenu;
class QTabWidget;

class MeasuredRunController : public QObject {
    Q_OBJECT
public:
    MeasuredRunController(QMainWindow& window, QTabWidget& pages, AccountingPage& accounting,
                          QObject* parent = nullptr);

    /// Adds "Open measured run…" and "Clear measured run" to `menu`.
    void addActions(QMenu* menu);
    /// Reads `path` and shows it on the Accounting page (which it brings forward); returns the engine's
    /// one-line message ("" when read).
    QString openMeasuredRun(const QString& path);
    /// Whether a dropped file is a measured run rather than a scenario or a config.json, from its first
    /// bytes (a regular file only; engine's looksLikeMeasuredRun).
    static bool isMeasuredRunFile(const QString& path);

private:
    QMainWindow& m_window;
    QTabWidget& m_pages;
    AccountingPage& m_accounting;
    QAction* m_clear = nullptr;
};
