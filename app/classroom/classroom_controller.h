// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The classroom behaviour of a window, in its View menu: presentation mode (F5: full screen, large type,
// thick lines, high contrast, and the lecture tour), the tour on its own (Shift+F5), and the dark palette
// (remembered between runs). The window only places the caption banner above its pages.
#include <QObject>

class CaptionBanner;
class DrillPanel;
class LectureTourController;
class PresentationMode;
class QAction;
class QMenu;
class QMenuBar;
class QWidget;
class ScenarioHost;
class TourFileController;

class ClassroomController : public QObject {
    Q_OBJECT
public:
    /// `keyAnchor` takes the keyboard during the tour (see LectureTourController).
    ClassroomController(ScenarioHost& host, QWidget* keyAnchor, QObject* parent = nullptr);

    /// Adds the View menu to `menuBar`, with its shortcuts, and reapplies a remembered dark palette.
    void addViewMenu(QMenuBar* menuBar);
    /// The tour's caption, for the window to place above its pages.
    CaptionBanner* banner() const { return m_banner; }
    LectureTourController* tour() const { return m_tour; }
    TourFileController* tourFiles() const { return m_tourFiles; }
    /// The Drill panel (View ▸ Napkin-math drill…), made on first use.
    DrillPanel* drillPanel();
    /// Adds Open tour… and the recording actions to the File menu.
    void addTourActions(QMenu* fileMenu);

    bool isPresentationMode() const;
    void setPresentationMode(bool on);
    void setDarkPalette(bool dark);

private:
    QWidget* m_window;
    CaptionBanner* m_banner;
    LectureTourController* m_tour;
    PresentationMode* m_presentation;
    QAction* m_presentationAction = nullptr;
    QAction* m_darkAction = nullptr;
    TourFileController* m_tourFiles;
    ScenarioHost& m_host;
    DrillPanel* m_drill = nullptr;
};
