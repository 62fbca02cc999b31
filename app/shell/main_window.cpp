// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/shell/main_window.h"

#include "app/accounting/accounting_page.h"
#include "app/benchmarks/benchmarks_page.h"
#include "app/benchmarks/matmul_sweep_panel.h"
#include "app/benchmarks/training_run_panel.h"
#include "app/classroom/caption_banner.h"
#include "app/classroom/classroom_controller.h"
#include "app/document/scenario_controller.h"
#include "app/document/scenario_undo.h"
#include "app/export/export_controller.h"
#include "app/formats/number_formats_page.h"
#include "app/hardware/session_gpu_catalog.h"
#include "app/inference/inference_page.h"
#include "app/roofline/roofline_page.h"
#include "app/shell/help_menu.h"
#include "app/shell/measured_run_controller.h"
#include "app/shell/model_config_controller.h"
#include "app/shell/page_command.h"
#include "app/shell/tour_answer_widget.h"
#include "app/tensor/tensor_page.h"
#include "app/training/training_page.h"
#include "widgets/charts/decode_throughput_chart.h"
#include "widgets/charts/dynamic_range_chart.h"
#include "widgets/charts/flop_chart.h"
#include "widgets/charts/inference_memory_chart.h"
#include "widgets/charts/loss_chart.h"
#include "widgets/charts/memory_chart.h"
#include "widgets/charts/memory_timeline_chart.h"
#include "widgets/charts/roofline_chart.h"
#include "widgets/charts/throughput_chart.h"
#include "widgets/controls/wheel_guard.h"

#include <QAction>
#include <QClipboard>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QGuiApplication>
#include <QMenuBar>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QStringList>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <iterator>
#include <utility>

namespace {

// The tabs' order; a scenario names its page, not its position.
constexpr napkin::ScenarioPage kTabPages[] = {
    napkin::ScenarioPage::accounting, napkin::ScenarioPage::inference,  napkin::ScenarioPage::formats,
    napkin::ScenarioPage::tensor,     napkin::ScenarioPage::benchmarks, napkin::ScenarioPage::roofline,
    napkin::ScenarioPage::training};

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_pages(new QTabWidget(this))
    , m_accounting(new AccountingPage(m_pages))
    , m_inference(new InferencePage(m_pages))
    , m_formats(new NumberFormatsPage(m_pages))
    , m_tensor(new TensorPage(m_pages))
    , m_benchmarks(new BenchmarksPage(m_pages))
    , m_roofline(new RooflinePage(m_pages))
    , m_training(new TrainingPage(m_pages))
    , m_scenarios(new ScenarioController(*this, this))
    , m_undo(new ScenarioUndo(*this, this))
    , m_modelConfigs(new ModelConfigController(*this, *m_accounting, *m_inference, this))
    , m_measuredRuns(new MeasuredRunController(*this, *m_pages, *m_accounting, this))
    , m_exports(new ExportController(
          this, m_pages,
          {m_accounting->memoryChart(), m_accounting->flopChart(), m_formats->rangeChart(),
           m_benchmarks->sweepPanel()->chart(), m_benchmarks->trainingPanel()->chart(),
           m_accounting->timelineChart(), m_benchmarks->trainingPanel()->timelineChart(),
           m_inference->memoryChart(), m_inference->throughputChart(), m_roofline->chart()},
          this))
    , m_classroom(new ClassroomController(*this, m_pages, this))
    , m_help(new HelpMenu(
          *this, [this] { return scenario().page; }, this)) {
    setWindowTitle(tr("Napkin"));
    m_pages->addTab(m_accounting, tr("Accounting"));
    m_pages->addTab(m_inference, tr("Inference"));
    m_pages->addTab(m_formats, tr("Number formats"));
    m_pages->addTab(m_tensor, tr("Tensor layout"));
    m_pages->addTab(m_benchmarks, tr("Benchmarks"));
    m_pages->addTab(m_roofline, tr("Roofline"));
    // Measured GEMMs land on the roofline as soon as a sweep finishes.
    connect(m_benchmarks, &BenchmarksPage::sweepFinished, m_roofline, &RooflinePage::addMeasuredSweep);
    // The roofline plots the Inference tab's decode and prefill points: its setting now, then each change.
    if (const auto& input = m_inference->lastInput(); input && m_inference->lastResult())
        m_roofline->setInferenceSetting(*input, *m_inference->lastResult());
    connect(m_inference, &InferencePage::settingChanged, m_roofline, &RooflinePage::setInferenceSetting);
    m_pages->addTab(m_training, tr("Training"));
    // The tour's caption sits above the tabs; the tabs stay the pages' only parent.
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_classroom->banner());
    layout->addWidget(m_pages, 1);
    setCentralWidget(central);
    // Every page's panels scroll under the wheel; a control changes only once the user focused it.
    (new WheelGuard(this))->guard(*m_pages);
    // A first window fits the screen it opens on: a projector at 1024×768 is smaller than 1200×800, and
    // without a window manager to shrink it the charts and formulas ran off its right and bottom edges.
    const QSize preferred(1200, 800);
    resize(screen() ? preferred.boundedTo(screen()->availableGeometry().size()) : preferred);
    setAcceptDrops(true);
    // A page export's caption is the page's setup: the napkin-cli line that reproduces it, or its name.
    m_exports->setPageCaption([this] {
        const QString caption = pageCaption(pageCommand());
        return !caption.isEmpty() ? caption : m_pages->tabText(m_pages->currentIndex()).remove(QLatin1Char('&'));
    });
    m_scenarios->setRecentOpener([this](const QString& path) { return openFile(path); });
    addMenus();
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    m_accounting->restoreSettings(settings);
}

// Undo watches the application's input and reads the pages on each; it goes before the pages do.
MainWindow::~MainWindow() {
    delete m_undo;
}

void MainWindow::addMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    m_scenarios->addActions(file);
    m_modelConfigs->addActions(file);
    m_measuredRuns->addActions(file);
    m_classroom->addTourActions(file);
    file->addSeparator();
    m_exports->addActions(file);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"));
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    m_undo->addActions(edit);
    edit->addSeparator();
    QAction* copyCommand = edit->addAction(tr("Copy as &command"));
    copyCommand->setObjectName(QStringLiteral("copyAsCommand"));
    copyCommand->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    copyCommand->setStatusTip(tr("Put the napkin-cli line that reproduces this page on the clipboard"));
    // Enabled on every page: one without a line says so in the status bar (a disabled action said nothing
    // and left the previous copy's message there).
    connect(copyCommand, &QAction::triggered, this, &MainWindow::copyPageCommand);
    m_classroom->addViewMenu(menuBar());
    m_help->addTo(*menuBar());
}

bool MainWindow::showPageNamed(const QString& name) {
    const std::pair<QStringList, QWidget*> pages[] = {
        {{QStringLiteral("accounting"), QStringLiteral("memory"), QStringLiteral("flops"),
          QStringLiteral("timeline")},
         m_accounting},
        {{QStringLiteral("inference")}, m_inference},
        {{QStringLiteral("formats")}, m_formats},
        {{QStringLiteral("tensor")}, m_tensor},
        {{QStringLiteral("benchmarks")}, m_benchmarks},
        {{QStringLiteral("roofline")}, m_roofline},
        {{QStringLiteral("training")}, m_training}};
    for (const auto& [names, page] : pages)
        if (names.contains(name)) {
            m_pages->setCurrentWidget(page);
            return true;
        }
    return false;
}

QString MainWindow::pageCommand(QString* error) const {
    napkin::Scenario s = scenario();
    // A ticked type the backend refuses stays in the scenario but is not run: no line that exits 2.
    s.benchmarks.dtypes = m_benchmarks->sweepPanel()->runnableDtypes();
    // An opened config is named by its file (it was the nearest published model with flags on top: the
    // right numbers under another model's name), while the page still shows it.
    const bool onConfig = (s.page == napkin::ScenarioPage::accounting && m_accounting->showsOpenedModel()) ||
                          (s.page == napkin::ScenarioPage::inference && m_inference->showsOpenedModel());
    return pageCommandLine(s, s.page, onConfig ? m_modelConfigs->openedConfig() : nullptr, error);
}

void MainWindow::copyPageCommand() {
    QString error;
    const QString command = pageCommand(&error);
    if (command.isEmpty()) {
        statusBar()->showMessage(tr("No napkin-cli line reproduces the %1 page; nothing was copied.")
                                     .arg(m_pages->tabText(m_pages->currentIndex()).remove(QLatin1Char('&'))),
                                 8000);
        return;
    }
    QGuiApplication::clipboard()->setText(command);
    const QStringList lines = command.split(QLatin1Char('\n')); // the Benchmarks page: one per run
    if (!error.isEmpty()) { // the line lacks --gpu-catalog: napkin-cli will not know the GPU
        statusBar()->showMessage(tr("Copied, without the custom GPU's catalog file: %1").arg(error), 8000);
        return;
    }
    statusBar()->showMessage(lines.size() == 1
                                 ? tr("Copied: %1").arg(command)
                                 : tr("Copied %1 lines: %2 …").arg(lines.size()).arg(lines.front()),
                             8000);
}

napkin::Scenario MainWindow::scenario() const {
    napkin::Scenario s;
    s.page = kTabPages[std::clamp(m_pages->currentIndex(), 0, static_cast<int>(std::size(kTabPages)) - 1)];
    s.accounting = m_accounting->scenario();
    s.formats = m_formats->scenario();
    s.tensor = m_tensor->scenario();
    s.benchmarks = m_benchmarks->scenario();
    s.roofline = m_roofline->scenario();
    s.training = m_training->scenario();
    s.inference = m_inference->scenario();
    s.gpus.parts = SessionGpuCatalog::instance().userParts(); // the file carries the GPUs its pages name
    return s;
}

QWidget* MainWindow::answerWidget(std::string_view field) {
    return tourAnswerWidget(*this, field);
}

QList<QWidget*> MainWindow::answerBearers(std::string_view field) {
    return tourAnswerBearers(*this, field);
}

QStringList MainWindow::applyScenario(const napkin::Scenario& s) {
    for (const napkin::GpuSpec& gpu : s.gpus.parts) // before any page names one
        SessionGpuCatalog::instance().add(gpu);
    QStringList warnings = m_accounting->applyScenario(s.accounting);
    m_formats->applyScenario(s.formats);
    warnings += m_tensor->applyScenario(s.tensor);
    warnings += m_benchmarks->applyScenario(s.benchmarks);
    warnings += m_roofline->applyScenario(s.roofline);
    warnings += m_training->applyScenario(s.training);
    warnings += m_inference->applyScenario(s.inference);
    for (int i = 0; i < static_cast<int>(std::size(kTabPages)); ++i)
        if (kTabPages[i] == s.page)
            m_pages->setCurrentIndex(i);
    return warnings;
}

QString MainWindow::openScenario(const QString& path) {
    return m_scenarios->openScenario(path);
}

QString MainWindow::saveScenario(const QString& path) {
    return m_scenarios->saveScenario(path);
}

QString MainWindow::exportCurrentPage(const QString& path) {
    return m_exports->exportCurrentPage(path);
}

QString MainWindow::openModelConfig(const QString& path) {
    return m_modelConfigs->openModelConfig(path);
}

QString MainWindow::openMeasuredRun(const QString& path) {
    return m_measuredRuns->openMeasuredRun(path);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (!ModelConfigController::droppedFiles(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QStringList files = ModelConfigController::droppedFiles(event->mimeData());
    if (files.isEmpty())
        return;
    event->acceptProposedAction();
    // One file: the first, whatever the drag carried. The scenario reader is bounded (1 MiB, regular
    // files only) like the config reader, so a hostile file costs neither of them more than that.
    openFile(files.front());
}

QString MainWindow::openFile(const QString& path) {
    if (napkin::readScenarioFile(QFile::encodeName(path).toStdString()).ok())
        return openScenario(path);
    if (MeasuredRunController::isMeasuredRunFile(path)) // a trace or a snapshot
        return openMeasuredRun(path);
    return openModelConfig(path);
}

LectureTourController* MainWindow::tour() const {
    return m_classroom->tour();
}

TourFileController* MainWindow::tourFiles() const {
    return m_classroom->tourFiles();
}

CaptionBanner* MainWindow::captionBanner() const {
    return m_classroom->banner();
}

bool MainWindow::isPresentationMode() const {
    return m_classroom->isPresentationMode();
}

void MainWindow::setPresentationMode(bool on) {
    m_classroom->setPresentationMode(on);
}

void MainWindow::setDarkPalette(bool dark) {
    m_classroom->setDarkPalette(dark);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    m_accounting->saveSettings(settings);
    QMainWindow::closeEvent(event);
}
