#pragma once
// Scenario files in the File menu: Open, Open recent, Save and Save as, applied to and taken from the
// window's pages through a ScenarioHost. A refused file changes nothing; its message is shown in a
// non-blocking message box (so a file given on the command line, or a test, never waits on a click).
#include <QObject>
#include <QString>

class QMenu;
class ScenarioHost;

class ScenarioController : public QObject {
    Q_OBJECT
public:
    ScenarioController(ScenarioHost& host, QObject* parent = nullptr);

    /// Adds Open (Ctrl+O), Open recent, Save (Ctrl+S) and Save as (Ctrl+Shift+S) to `menu`.
    void addActions(QMenu* menu);
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
};
