// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Scenario files in the File menu: Open, Open recent (every kind of file the window opened), Save and Save as, applied to and taken from the
// window's pages through a ScenarioHost. A refused file changes nothing; its message is shown in a
// non-blocking message box (so a file given on the command line, or a test, never waits on a click).
#include <QObject>
#include <QString>

#include <functional>
#include <utility>

class QMenu;
class ScenarioHost;

class ScenarioController : public QObject {
    Q_OBJECT
public:
    ScenarioController(ScenarioHost& host, QObject* parent = nullptr);

    /// Adds Open (Ctrl+O), Open recent, Save (Ctrl+S) and Save as (Ctrl+Shift+S) to `menu`. Open recent
    /// is read again each time `menu` opens, so a file another controller opened is there.
    void addActions(QMenu* menu);
    /// How an Open recent entry is opened: by its kind, as a dropped file is (a scenario, a model config,
    /// a measured run); returns the error shown. Without one, each entry opens as a scenario.
    void setRecentOpener(std::function<QString(const QString&)> open) { m_openRecent = std::move(open); }
    /// Writes the scenario to the file opened or saved last (the window's file path); asks where when
    /// there is none. A failure is shown in a message box.
    void save();
    /// Asks where, then writes the scenario there.
    void saveAs();
    /// Loads `path` and applies it; returns the error shown (empty on success). What the file asked for
    /// but this machine cannot show (a device, a missing token file) is shown as a warning.
    QString openScenario(const QString& path);
    /// Writes every page's controls to `path` atomically; returns an error message or an empty string.
    QString saveScenario(const QString& path);

private:
    void rebuildRecentMenu();
    void showMessage(const QString& title, const QString& text);

    ScenarioHost& m_host;
    QMenu* m_recentMenu = nullptr;
    std::function<QString(const QString&)> m_openRecent;
};
