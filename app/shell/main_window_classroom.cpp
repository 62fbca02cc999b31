// The classroom half of the main window (issue 8): the View menu, presentation mode, the lecture tour
// and its caption banner, and the dark palette. Kept apart from main_window.cpp, which wires the pages.
#include "app/shell/main_window.h"

#include "app/accounting/accounting_page.h"
#include "app/benchmarks/benchmarks_page.h"
#include "app/classroom/caption_banner.h"
#include "app/classroom/colour_scheme.h"
#include "app/classroom/lecture_tour_controller.h"
#include "app/formats/number_formats_page.h"
#include "app/classroom/presentation_mode.h"
#include "app/tensor/tensor_page.h"

#include <QAction>
#include <QApplication>
#include <QMenuBar>
#include <QSettings>
#include <QTabWidget>
#include <QVBoxLayout>

namespace {

template <typename Page> Page* findPage(QTabWidget* tabs) {
    for (int i = 0; i < tabs->count(); ++i)
        if (auto* page = qobject_cast<Page*>(tabs->widget(i)))
            return page;
    return nullptr;
}

constexpr const char* kDarkKey = "view/darkPalette";

} // namespace

void MainWindow::setUpClassroom() {
    // The banner sits above the tabs; the tabs stay the pages' only parent.
    TourPages pages{m_pages, m_accounting, findPage<NumberFormatsPage>(m_pages),
                    findPage<TensorPage>(m_pages), findPage<BenchmarksPage>(m_pages)};
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    m_banner = new CaptionBanner(central);
    layout->addWidget(m_banner);
    QWidget* tabs = takeCentralWidget();
    tabs->setParent(central);
    layout->addWidget(tabs, 1);
    setCentralWidget(central);

    m_tour = new LectureTourController(pages, m_banner, this);
    m_presentation = new PresentationMode(this);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    m_presentationAction = view->addAction(tr("&Presentation mode"));
    m_presentationAction->setCheckable(true);
    m_presentationAction->setShortcut(Qt::Key_F5);
    m_presentationAction->setToolTip(
        tr("Full screen, large type, thick lines, high contrast; starts the lecture tour"));
    connect(m_presentationAction, &QAction::toggled, this, &MainWindow::setPresentationMode);
    QAction* tour = view->addAction(tr("Start the &lecture tour"));
    tour->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
    connect(tour, &QAction::triggered, m_tour, [this] { m_tour->start(0); });
    // Esc leaves presentation mode when no tour is running (the tour handles Esc itself).
    auto* leave = new QAction(tr("Leave presentation mode"), this);
    leave->setShortcut(Qt::Key_Escape);
    leave->setEnabled(false);
    addAction(leave);
    connect(leave, &QAction::triggered, this, [this] { setPresentationMode(false); });
    connect(m_presentation, &PresentationMode::toggled, leave, &QAction::setEnabled);
    connect(m_tour, &LectureTourController::escapePressed, this, [this] { setPresentationMode(false); });
    view->addSeparator();
    m_darkAction = view->addAction(tr("&Dark palette"));
    m_darkAction->setCheckable(true);
    m_darkAction->setToolTip(tr("Fusion style with a dark palette, whatever the desktop theme"));
    connect(m_darkAction, &QAction::toggled, this, &MainWindow::setDarkPalette);
    if (QSettings().value(QLatin1String(kDarkKey), false).toBool())
        m_darkAction->setChecked(true);
}

void MainWindow::setPresentationMode(bool on) {
    if (m_presentationAction->isChecked() != on) {
        m_presentationAction->setChecked(on); // re-enters through toggled
        return;
    }
    m_presentation->setOn(on);
    if (on && !m_tour->isActive())
        m_tour->start(0);
    if (!on)
        m_tour->stop();
}

void MainWindow::setDarkPalette(bool dark) {
    if (m_darkAction->isChecked() != dark) {
        m_darkAction->setChecked(dark);
        return;
    }
    applyDarkPalette(dark);
    m_presentation->refreshPalette();
    QSettings().setValue(QLatin1String(kDarkKey), dark);
}

bool MainWindow::isPresentationMode() const {
    return m_presentation->isOn();
}
