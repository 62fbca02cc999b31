// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/classroom/classroom_controller.h"

#include "app/classroom/caption_banner.h"
#include "app/classroom/colour_scheme.h"
#include "app/classroom/drill_panel.h"
#include "app/classroom/lecture_tour_controller.h"
#include "app/classroom/presentation_mode.h"
#include "app/classroom/tour_file_controller.h"
#include "app/document/scenario_host.h"

#include <QAction>
#include <QMenuBar>
#include <QSettings>

namespace {

constexpr const char* kDarkKey = "view/darkPalette";

} // namespace

ClassroomController::ClassroomController(ScenarioHost& host, QWidget* keyAnchor, QObject* parent)
    : QObject(parent)
    , m_window(host.hostWindow())
    , m_banner(new CaptionBanner(m_window))
    , m_tour(new LectureTourController(host, m_banner, keyAnchor, this))
    , m_presentation(new PresentationMode(m_window))
    , m_tourFiles(new TourFileController(host, *m_tour, this))
    , m_host(host) {}

DrillPanel* ClassroomController::drillPanel() {
    if (!m_drill)
        m_drill = new DrillPanel(m_host, m_window);
    return m_drill;
}

void ClassroomController::addTourActions(QMenu* fileMenu) {
    m_tourFiles->addActions(fileMenu);
}

void ClassroomController::addViewMenu(QMenuBar* menuBar) {
    QMenu* view = menuBar->addMenu(tr("&View"));
    m_presentationAction = view->addAction(tr("&Presentation mode"));
    m_presentationAction->setCheckable(true);
    m_presentationAction->setShortcut(Qt::Key_F5);
    m_presentationAction->setToolTip(
        tr("Full screen, large type, thick lines, high contrast; starts the lecture tour"));
    connect(m_presentationAction, &QAction::toggled, this, &ClassroomController::setPresentationMode);
    QAction* tour = view->addAction(tr("Start the &lecture tour"));
    tour->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
    connect(tour, &QAction::triggered, m_tour, [this] { m_tour->start(0); });
    QAction* hide = view->addAction(tr("&Hide answers until revealed"));
    hide->setCheckable(true);
    hide->setChecked(m_tour->isHidingEnabled());
    hide->setToolTip(
        tr("Predict, then reveal: each tour step opens with its answer hidden; Space reveals it"));
    connect(hide, &QAction::toggled, m_tour, &LectureTourController::setHidingEnabled);
    QAction* drill = view->addAction(tr("Napkin-math &drill…"));
    drill->setToolTip(tr("Questions with fresh numbers on the lecture's topics; answers checked with units"));
    connect(drill, &QAction::triggered, this, [this] {
        drillPanel()->show();
        drillPanel()->raise();
    });
    // Esc leaves presentation mode when no tour is running (the tour handles Esc itself).
    auto* leave = new QAction(tr("Leave presentation mode"), m_window);
    leave->setShortcut(Qt::Key_Escape);
    leave->setEnabled(false);
    m_window->addAction(leave);
    connect(leave, &QAction::triggered, this, [this] { setPresentationMode(false); });
    connect(m_presentation, &PresentationMode::toggled, leave, &QAction::setEnabled);
    connect(m_tour, &LectureTourController::escapePressed, this, [this] { setPresentationMode(false); });
    view->addSeparator();
    m_darkAction = view->addAction(tr("&Dark palette"));
    m_darkAction->setCheckable(true);
    m_darkAction->setToolTip(tr("Fusion style with a dark palette, whatever the desktop theme"));
    connect(m_darkAction, &QAction::toggled, this, &ClassroomController::setDarkPalette);
    if (QSettings().value(QLatin1String(kDarkKey), false).toBool())
        m_darkAction->setChecked(true);
}

void ClassroomController::setPresentationMode(bool on) {
    if (m_presentationAction && m_presentationAction->isChecked() != on) {
        m_presentationAction->setChecked(on); // re-enters through toggled
        return;
    }
    m_presentation->setOn(on);
    if (on && !m_tour->isActive())
        m_tour->start(0);
    if (!on)
        m_tour->stop();
}

void ClassroomController::setDarkPalette(bool dark) {
    if (m_darkAction && m_darkAction->isChecked() != dark) {
        m_darkAction->setChecked(dark);
        return;
    }
    applyDarkPalette(dark);
    m_presentation->refreshPalette();
    QSettings().setValue(QLatin1String(kDarkKey), dark);
}

bool ClassroomController::isPresentationMode() const {
    return m_presentation->isOn();
}
