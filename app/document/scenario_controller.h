#pragma once
// Scenario files in the File menu: Open, Save as and Open recent, applied to and taken from the
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

    /// Adds Open, Save as and Open recent to `menu`.
    void addActions(QMenu* menu);
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
