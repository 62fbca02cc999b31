// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Help menu: what the page in front shows and which lecture idea it teaches, the keyboard shortcuts
// (read from the window's own actions, so the list cannot go stale), the command-line contract, and the
// versions this build runs on. The texts are plain functions so that tests read them without a dialog.
#include "engine/scenario/scenario.h"

#include <QObject>
#include <QString>

#include <functional>

class QMenuBar;
class QWidget;

class HelpMenu : public QObject {
    Q_OBJECT
public:
    /// `currentPage` says which page is in front when "What is this page?" is asked.
    HelpMenu(QWidget& window, std::function<napkin::ScenarioPage()> currentPage, QObject* parent = nullptr);

    /// Adds Help ▸ What is this page?, Keyboard shortcuts, The command line, About.
    void addTo(QMenuBar& bar);

    /// A few lines (HTML): what `page` shows and the lecture concept behind it.
    static QString pageHelp(napkin::ScenarioPage page);
    /// Every action of `window` that has a shortcut, then the lecture tour's keys (tour_keys.h), as
    /// "shortcut — action" rows (HTML).
    static QString shortcutsHelp(const QWidget& window);
    /// napkin-cli: where its contract is written and how a page becomes a command (HTML).
    static QString commandLineHelp();
    /// Napkin's version and the libraries this build runs on, as the engine's registry reports them.
    static QString aboutText();

private:
    void show(const QString& title, const QString& html);

    QWidget& m_window;
    std::function<napkin::ScenarioPage()> m_currentPage;
};
