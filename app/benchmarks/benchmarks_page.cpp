// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/benchmarks/benchmarks_page.h"

#include "app/benchmarks/backend_cache.h"
#include "app/benchmarks/explain_benchmark.h"
#include "app/benchmarks/matmul_sweep_panel.h"
#include "app/benchmarks/recipe_comparison_panel.h"
#include "app/benchmarks/task_progress.h"
#include "app/benchmarks/training_run_panel.h"
#include "app/jobs/task_runner.h"
#include "engine/benchmarks/backend_registry.h"
#include "engine/benchmarks/matmul_sweep.h"
#include "engine/numerics/quantity_format.h"
#include "widgets/controls/explain_pane.h"
#include "widgets/text/engine_text.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <utility>

using namespace napkin;

BenchmarksPage::BenchmarksPage(QWidget* parent)
    : QWidget(parent)
    , m_runner(new TaskRunner(this))
    , m_backends(std::make_shared<BackendCache>())
    , m_sweep(new MatmulSweepPanel(this))
    , m_training(new TrainingRunPanel(this))
    , m_recipes(new RecipeComparisonPanel(this))
    , m_explain(new ExplainPane(this)) {
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_sweep);
    splitter->addWidget(m_training);
    splitter->addWidget(m_recipes);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setStretchFactor(2, 2);
    // The panels need more height than a 1280×720 projector leaves: they scroll rather than squeeze.
    m_panels = new QScrollArea(this);
    m_panels->setWidget(splitter);
    m_panels->setWidgetResizable(true);
    m_panels->setFrameShape(QFrame::NoFrame);
    m_panels->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(makeDeviceRow());
    layout->addWidget(m_panels, 1);
    layout->addWidget(m_explain);

    connect(m_sweep, &MatmulSweepPanel::runClicked, this, [this] {
        if (const auto cases = m_sweep->cases())
            startSweep(*cases);
    });
    connect(m_training, &TrainingRunPanel::trainClicked, this,
            [this] { startTraining(m_training->request()); });
    connect(m_training, &TrainingRunPanel::compareClicked, this,
            [this] { startRecipeComparison(m_training->request()); });
    connect(m_cancel, &QPushButton::clicked, this, &BenchmarksPage::cancel);
    connect(m_runner, &TaskRunner::progress, this, &BenchmarksPage::onProgress);
    connect(m_runner, &TaskRunner::failed, this, [this](const QString& message) {
        setRunning(false, tr("Failed: %1").arg(message));
        emit runFailed(message);
    });
    connect(m_device, &QComboBox::currentIndexChanged, this, &BenchmarksPage::refreshSupport);
    connect(m_cpuBackend, &QComboBox::currentIndexChanged, this, &BenchmarksPage::refreshSupport);
    refreshSupport();
    m_explain->setHtml(explainBenchmarks(std::nullopt));
    setRunning(false, tr("Ready. The first run also measures the FMA peak (about a second)."));
}

BenchmarksPage::~BenchmarksPage() = default;

QWidget* BenchmarksPage::makeDeviceRow() {
    auto* row = new QWidget(this);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    m_device = new QComboBox(row);
    m_device->setObjectName(QStringLiteral("device"));
    m_deviceNote = new QLabel(row);
    m_deviceNote->setWordWrap(true);
    QStringList notes;
    for (const BackendEntry& e : listBackends()) {
        m_device->addItem(toQString(e.name), toQString(e.name));
        if (!e.available) {
            // Listed so the user sees it exists, disabled with the registry's reason.
            const int index = m_device->count() - 1;
            m_device->setItemData(index, toQString(e.unavailableReason), Qt::ToolTipRole);
            m_device->setItemData(index, 0, Qt::UserRole - 1); // Qt::ItemIsEnabled cleared
            notes << tr("%1: %2").arg(toQString(e.name), toQString(e.unavailableReason));
        }
    }
    // The CPU's GEMM library: every one listed, a missing one disabled with its reason; the default is the
    // faster one present. Only the cpu device has a choice.
    m_cpuBackend = new QComboBox(row);
    m_cpuBackend->setObjectName(QStringLiteral("cpuBackend"));
    m_cpuBackend->setToolTip(tr("The library that runs the CPU's GEMMs: oneDNN (PyTorch's own CPU kernels: "
                                "AVX-512, bf16 dot products) or Eigen (portable; the numerical reference)."));
    for (const BackendEntry& e : listCpuBackends()) {
        m_cpuBackend->addItem(toQString(e.name), toQString(e.name));
        if (!e.available) {
            const int index = m_cpuBackend->count() - 1;
            m_cpuBackend->setItemData(index, toQString(e.unavailableReason), Qt::ToolTipRole);
            m_cpuBackend->setItemData(index, 0, Qt::UserRole - 1); // Qt::ItemIsEnabled cleared
            notes << tr("%1: %2").arg(toQString(e.name), toQString(e.unavailableReason));
        }
    }
    m_cpuBackend->setCurrentIndex(
        m_cpuBackend->findData(toQString(std::string(cpuBackendKindName(defaultCpuBackend())))));
    connect(m_device, &QComboBox::currentIndexChanged, m_cpuBackend,
            [this] { m_cpuBackend->setEnabled(device() == "cpu"); });
    m_deviceNote->setText(notes.join(QLatin1Char('\n')));
    m_progress = new QProgressBar(row);
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setMaximumWidth(200);
    m_status = new QLabel(row);
    m_status->setObjectName(QStringLiteral("status"));
    m_status->setWordWrap(true);
    m_cancel = new QPushButton(tr("Cancel"), row);
    layout->addWidget(new QLabel(tr("Device"), row));
    layout->addWidget(m_device);
    layout->addWidget(new QLabel(tr("CPU backend"), row));
    layout->addWidget(m_cpuBackend);
    layout->addWidget(m_deviceNote, 1);
    layout->addWidget(m_progress);
    layout->addWidget(m_status, 1);
    layout->addWidget(m_cancel);
    return row;
}

std::string BenchmarksPage::device() const {
    return m_device->currentData().toString().toStdString();
}

CpuBackendKind BenchmarksPage::cpuBackend() const {
    return cpuBackendKindFromName(m_cpuBackend->currentData().toString().toStdString())
        .value_or(defaultCpuBackend());
}

BackendOptions BenchmarksPage::backendOptions() const {
    BackendOptions options;
    // The default library runs what oneDNN lacks (fp64, fp16) on Eigen and says so per result; one the user
    // picked runs only what it can.
    if (cpuBackend() != defaultCpuBackend())
        options.cpuBackend = cpuBackend();
    return options;
}

void BenchmarksPage::refreshSupport() {
    // A device with no backend here (cuda without a GPU) is already disabled with the registry's reason
    // in the device box, and a run on it fails with that reason: its types are not all disabled too.
    const BackendSupport support = m_backends->supportFor(device(), backendOptions());
    m_sweep->setUnsupportedDtypes(support.unsupportedDtypes);
    m_training->setUnsupportedRecipes(support.unsupportedRecipes);
    m_recipes->setRefusedRecipes(support.refusedRecipes);
}

void BenchmarksPage::startSweep(const std::vector<MatmulCase>& cases) {
    m_sweep->showSweep(std::nullopt);
    m_explain->setHtml(explainBenchmarks(std::nullopt));
    setRunning(true, tr("Starting %n case(s)…", nullptr, static_cast<int>(cases.size())));
    m_stop = std::make_shared<std::atomic<bool>>(false);
    m_runner->start([this, cases, device = device(), options = backendOptions(), backends = m_backends,
                     stop = m_stop](const TaskContext& task) {
        task.progress(0, QStringLiteral("prepare"));
        BenchmarkBackend& backend = backends->backendFor(device, options);
        // Each case as it finishes: the chart and table grow while the sweep runs.
        MatmulSweep soFar;
        soFar.device = backend.deviceInfo();
        const auto showFinished = [this, &task, &soFar,
                                   total = static_cast<int>(cases.size())](const BenchmarkProgress& p) {
            if (!p.finishedCase)
                return;
            soFar.results.push_back(*p.finishedCase);
            task.deliverPartial([this, soFar, total] { m_sweep->showRunningSweep(soFar, total); });
        };
        const MatmulSweep sweep = runMatmulSweep(backend, cases, {}, reportTo(task, stop, showFinished));
        return TaskRunner::Deliver([this, sweep, total = cases.size()] {
            m_sweep->showSweep(sweep);
            m_explain->setHtml(explainBenchmarks(sweep));
            const auto failed = std::count_if(sweep.results.begin(), sweep.results.end(),
                                              [](const auto& r) { return !r.ok; });
            QString status =
                failed ? tr("Done; %n case(s) failed (see the table).", nullptr, static_cast<int>(failed))
                       : tr("Done.");
            if (sweep.cancelled)
                status = tr("Cancelled: a partial run, %1 of %2 case(s) finished and kept.")
                             .arg(sweep.results.size())
                             .arg(total);
            setRunning(false, status);
            emit sweepFinished(sweep);
        });
    });
}

void BenchmarksPage::cancel() {
    if (!m_running || !m_stop)
        return;
    // The run stops within one GEMM panel or training step and delivers what it finished.
    m_stop->store(true);
    m_cancel->setEnabled(false);
    m_status->setText(tr("Cancelling: finishing the current GEMM; the finished cases are kept…"));
}

void BenchmarksPage::setRunning(bool running, const QString& status) {
    m_running = running;
    m_sweep->setRunEnabled(!running);
    m_training->setTrainEnabled(!running);
    m_cancel->setEnabled(running);
    if (!running)
        m_progress->setValue(0);
    m_status->setText(status);
}

void BenchmarksPage::onProgress(const TaskProgress& r) {
    if (m_stop && m_stop->load())
        return; // "Cancelling…" stays until the partial run lands
    m_progress->setValue(static_cast<int>(std::lround(r.fraction * 1000)));
    QString text = tr("%1 · %2 % of the run · elapsed %3")
                       .arg(r.phase)
                       .arg(std::lround(r.fraction * 100))
                       .arg(toQString(formatDuration(r.elapsedSeconds)));
    if (r.remainingSeconds)
        text += tr(" · about %1 left").arg(toQString(formatDuration(*r.remainingSeconds)));
    m_status->setText(text);
}

// --- scenario: the page's controls to napkin::BenchmarksScenario and back ---

BenchmarksScenario BenchmarksPage::scenario() const {
    BenchmarksScenario s;
    s.device = device();
    s.cpuBackend = backendOptions().cpuBackend; // the default is written as unset: a build without oneDNN
                                                // opens the file on its own default
    m_sweep->writeScenario(s);
    m_training->writeScenario(s);
    return s;
}

QStringList BenchmarksPage::applyScenario(const BenchmarksScenario& s) {
    QStringList warnings;
    const int index = m_device->findData(QString::fromStdString(s.device));
    // Disabled entries are backends listed but not usable here (no GPU, not built): keep the current one.
    if (index < 0 || !(m_device->model()->flags(m_device->model()->index(index, 0)) & Qt::ItemIsEnabled))
        warnings << tr("benchmarks.device: '%1' is not available here; keeping %2")
                        .arg(QString::fromStdString(s.device), m_device->currentText());
    else
        m_device->setCurrentIndex(index);
    const QString library =
        toQString(std::string(cpuBackendKindName(s.cpuBackend.value_or(defaultCpuBackend()))));
    const int cpuIndex = m_cpuBackend->findData(library);
    if (cpuIndex < 0 ||
        !(m_cpuBackend->model()->flags(m_cpuBackend->model()->index(cpuIndex, 0)) & Qt::ItemIsEnabled))
        warnings << tr("benchmarks.cpuBackend: '%1' is not available here; keeping %2")
                        .arg(library, m_cpuBackend->currentText());
    else
        m_cpuBackend->setCurrentIndex(cpuIndex);
    warnings += m_sweep->readScenario(s);
    m_training->readScenario(s);
    return warnings;
}
