#include "app/benchmarks/benchmarks_page.h"

#include "app/benchmarks/benchmarks_export.h"
#include "app/export/chart_export.h"
#include "app/benchmarks/explain_benchmark.h"
#include "engine/benchmarks/matmul_sweep.h"
#include "widgets/controls/explain_pane.h"
#include "engine/benchmarks/backend_registry.h"
#include "engine/compute/cruncher_config.h"
#include "engine/numerics/quantity_format.h"
#include "engine/scenario/control_ranges.h"
#include "widgets/charts/loss_chart.h"
#include "widgets/charts/throughput_chart.h"
#include "widgets/controls/spin_box_range.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

QTableWidget* makeTable(const QStringList& headers, QWidget* parent) {
    auto* table = new QTableWidget(0, static_cast<int>(headers.size()), parent);
    table->setHorizontalHeaderLabels(headers);
    table->verticalHeader()->setVisible(false);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setStretchLastSection(true);
    return table;
}

void setCell(QTableWidget* table, int row, int column, const QString& text, const QString& tip = {}) {
    auto* item = new QTableWidgetItem(text);
    if (!tip.isEmpty())
        item->setToolTip(tip);
    // Numbers right-aligned; names, status and verdicts (first and last columns) left-aligned.
    if (column > 0 && column < table->columnCount() - 1)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    table->setItem(row, column, item);
}

} // namespace

BenchmarksPage::BenchmarksPage(QWidget* parent)
    : QWidget(parent)
    , m_service(new BenchmarkService(this)) {
    auto* controls = new QVBoxLayout;
    controls->addWidget(makeSweepControls());
    controls->addWidget(makeTrainingControls());
    controls->addStretch(1);
    auto* controlsWidget = new QWidget(this);
    controlsWidget->setLayout(controls);
    controlsWidget->setMaximumWidth(340);

    m_throughput = new ThroughputChart(this);
    m_basis = new QLabel(this);
    m_basis->setWordWrap(true);
    m_results = makeTable({tr("dtype"), tr("n"), tr("FLOPs"), tr("median"), tr("FLOP/s"), tr("MFU"),
                           tr("rel. err"), tr("status")},
                          this);
    m_results->setObjectName(QStringLiteral("results"));
    m_loss = new LossChart(this);
    m_trainingSummary = new QLabel(tr("No training run yet."), this);
    m_trainingSummary->setWordWrap(true);
    m_trainingSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_memory = makeTable({tr("component"), tr("predicted"), tr("measured"), tr("agree")}, this);

    auto* sweepBox = new QGroupBox(tr("Matmul throughput"), this);
    auto* sweepLayout = new QHBoxLayout(sweepBox);
    auto* chartColumn = new QVBoxLayout;
    chartColumn->addWidget(m_throughput, 1);
    chartColumn->addWidget(m_basis);
    sweepLayout->addLayout(chartColumn, 1);
    sweepLayout->addWidget(m_results, 1);

    auto* trainBox = new QGroupBox(tr("Cruncher training"), this);
    auto* trainLayout = new QHBoxLayout(trainBox);
    trainLayout->addWidget(m_loss, 1);
    auto* trainNumbers = new QVBoxLayout;
    trainNumbers->addWidget(m_trainingSummary);
    trainNumbers->addWidget(m_memory, 1);
    trainLayout->addLayout(trainNumbers, 1);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(sweepBox);
    splitter->addWidget(trainBox);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);

    auto* layout = new QHBoxLayout(this);
    layout->addWidget(controlsWidget);
    auto* rightColumn = new QVBoxLayout;
    rightColumn->addWidget(splitter, 1);
    m_explain = new ExplainPane(this);
    rightColumn->addWidget(m_explain);
    layout->addLayout(rightColumn, 1);

    connect(m_service, &BenchmarkService::progress, this, &BenchmarksPage::onProgress);
    connect(m_service, &BenchmarkService::sweepFinished, this, &BenchmarksPage::onSweepFinished);
    connect(m_service, &BenchmarkService::trainingFinished, this, &BenchmarksPage::onTrainingFinished);
    connect(m_service, &BenchmarkService::failed, this, &BenchmarksPage::onFailed);
    // Only available backends can be chosen (the others are disabled rows with their reason).
    connect(m_device, &QComboBox::currentIndexChanged, this,
            [this] { m_service->setDevice(m_device->currentData().toString().toStdString()); });
    showResults();
    setRunning(false, tr("Ready. The first run also measures the FMA peak (about a second)."));
}

BenchmarksPage::~BenchmarksPage() = default;

QWidget* BenchmarksPage::makeSweepControls() {
    auto* box = new QGroupBox(tr("Matmul sweep"), this);
    auto* form = new QFormLayout(box);
    m_device = new QComboBox(box);
    m_device->setObjectName(QStringLiteral("device"));
    m_deviceNote = new QLabel(box);
    m_deviceNote->setWordWrap(true);
    for (const napkin::BackendEntry& e : napkin::listBackends()) {
        m_device->addItem(q(e.name), q(e.name));
        if (!e.available) {
            // Listed so the user sees it exists, disabled with the registry's reason.
            const int row = m_device->count() - 1;
            m_device->setItemData(row, q(e.unavailableReason), Qt::ToolTipRole);
            m_device->setItemData(row, 0, Qt::UserRole - 1); // Qt::ItemIsEnabled cleared
            m_deviceNote->setText(m_deviceNote->text() + tr("%1: %2").arg(q(e.name), q(e.unavailableReason)));
        }
    }
    form->addRow(tr("Device"), m_device);
    form->addRow(m_deviceNote);
    auto* dtypeRow = new QHBoxLayout;
    for (napkin::BenchDtype d : {napkin::BenchDtype::fp32, napkin::BenchDtype::fp64, napkin::BenchDtype::bf16,
                                 napkin::BenchDtype::fp16}) {
        auto* check = new QCheckBox(q(std::string(napkin::benchDtypeName(d))), box);
        check->setChecked(d == napkin::BenchDtype::fp32 || d == napkin::BenchDtype::fp64);
        connect(check, &QCheckBox::toggled, this, &BenchmarksPage::updateFp16Warning);
        m_dtypes[d] = check;
        dtypeRow->addWidget(check);
    }
    form->addRow(tr("Types"), dtypeRow);
    m_fp16Warning =
        new QLabel(tr("fp16 on the CPU is very slow: Eigen::half has no fast path (0.1–0.4 GFLOP/s, "
                      "about 600× below fp32), so n = 1024 takes seconds per GEMM and every case runs "
                      "at least 2 warm-up and 11 timed GEMMs. Keep fp16 sizes at 256 or below."),
                   box);
    m_fp16Warning->setWordWrap(true);
    m_fp16Warning->setStyleSheet(QStringLiteral("color: #b35c00"));
    form->addRow(m_fp16Warning);
    m_sizes = new QLineEdit(QStringLiteral("128,256,512,1024"), box);
    m_sizes->setObjectName(QStringLiteral("sizes"));
    m_sizes->setToolTip(tr("Square sizes n, comma-separated: each case is an n×n×n GEMM (2·n³ FLOPs)"));
    form->addRow(tr("Sizes n"), m_sizes);
    auto* buttons = new QHBoxLayout;
    m_run = new QPushButton(tr("Run"), box);
    m_cancel = new QPushButton(tr("Cancel"), box);
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    form->addRow(buttons);
    m_progress = new QProgressBar(box);
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    form->addRow(m_progress);
    m_status = new QLabel(box);
    m_status->setWordWrap(true);
    form->addRow(m_status);
    auto* exports = new QHBoxLayout;
    const QStringList names = {tr("PNG…"), tr("CSV…"), tr("JSON…")};
    for (int kind = 0; kind < 3; ++kind) {
        auto* b = new QPushButton(names[kind], box);
        b->setToolTip(kind == 0 ? tr("Export the throughput chart as PNG")
                                : tr("Export every number of the page"));
        connect(b, &QPushButton::clicked, this, [this, kind] { exportWithDialog(kind); });
        exports->addWidget(b);
    }
    form->addRow(tr("Export"), exports);
    connect(m_run, &QPushButton::clicked, this, &BenchmarksPage::runSweep);
    connect(m_cancel, &QPushButton::clicked, this, &BenchmarksPage::cancel);
    updateFp16Warning();
    return box;
}

QWidget* BenchmarksPage::makeTrainingControls() {
    auto* box = new QGroupBox(tr("Cruncher training (fp32)"), this);
    auto* form = new QFormLayout(box);
    const napkin::BenchmarksScenario defaults;
    auto spin = [box](long value, napkin::ControlRange range) {
        auto* s = new QSpinBox(box);
        setRangeOf(s, range);
        s->setValue(static_cast<int>(value));
        return s;
    };
    m_dim = spin(defaults.dim, napkin::ranges::benchmarks::dim);
    m_layers = spin(defaults.layers, napkin::ranges::benchmarks::layers);
    m_batch = spin(defaults.batch, napkin::ranges::benchmarks::batch);
    m_steps = spin(defaults.steps, napkin::ranges::benchmarks::steps);
    m_dim->setObjectName(QStringLiteral("dim"));
    m_layers->setObjectName(QStringLiteral("layers"));
    m_batch->setObjectName(QStringLiteral("batch"));
    m_steps->setObjectName(QStringLiteral("steps"));
    form->addRow(tr("Width D"), m_dim);
    form->addRow(tr("Layers L"), m_layers);
    form->addRow(tr("Batch B"), m_batch);
    form->addRow(tr("Steps"), m_steps);
    m_optimizer = new QComboBox(box);
    for (napkin::OptimizerKind k : napkin::allOptimizers())
        m_optimizer->addItem(q(std::string(napkin::optimizerName(k))), static_cast<int>(k));
    m_optimizer->setCurrentText(QStringLiteral("adagrad"));
    form->addRow(tr("Optimizer"), m_optimizer);
    m_train = new QPushButton(tr("Train"), box);
    form->addRow(m_train);
    connect(m_train, &QPushButton::clicked, this, &BenchmarksPage::runTraining);
    return box;
}

void BenchmarksPage::updateFp16Warning() {
    m_fp16Warning->setVisible(m_dtypes[napkin::BenchDtype::fp16]->isChecked());
}

std::vector<long> BenchmarksPage::sizes(QString* error) const {
    const napkin::SizeList list = napkin::parseSizeList(m_sizes->text().toStdString(), napkin::matmulSizeRules());
    if (!list.ok() && error)
        *error = tr("Sizes: %1").arg(QString::fromStdString(list.error));
    return {list.sizes.begin(), list.sizes.end()};
}

void BenchmarksPage::runSweep() {
    QString error;
    const std::vector<long> ns = sizes(&error);
    if (ns.empty()) {
        m_status->setText(error);
        return;
    }
    std::vector<napkin::MatmulCase> cases;
    for (const auto& [dtype, check] : m_dtypes)
        if (check->isChecked())
            for (long n : ns)
                cases.push_back({n, n, n, dtype});
    if (cases.empty()) {
        m_status->setText(tr("Tick at least one type."));
        return;
    }
    m_sweep.reset();
    showResults();
    m_service->startSweep(cases);
    setRunning(true, tr("Starting %n case(s)…", nullptr, static_cast<int>(cases.size())));
}

void BenchmarksPage::runTraining() {
    napkin::CruncherConfig c;
    c.dim = m_dim->value();
    c.layers = m_layers->value();
    c.batch = m_batch->value();
    c.optimizer = static_cast<napkin::OptimizerKind>(m_optimizer->currentData().toInt());
    c.hyper.learningRate = napkin::defaultLearningRate(c.optimizer, c.dim);
    m_training.reset();
    showTraining();
    m_service->startTraining(c, m_steps->value());
    setRunning(true, tr("Training…"));
}

void BenchmarksPage::cancel() {
    if (!m_running)
        return;
    m_service->cancel(); // whatever the worker still delivers for this run is dropped
    setRunning(false, tr("Cancelled."));
}

void BenchmarksPage::setRunning(bool running, const QString& status) {
    m_running = running;
    m_run->setEnabled(!running);
    m_train->setEnabled(!running);
    m_cancel->setEnabled(running);
    if (!running)
        m_progress->setValue(0);
    m_status->setText(status);
}

void BenchmarksPage::onProgress(const BenchmarkProgressReport& r) {
    m_progress->setValue(static_cast<int>(std::lround(r.fraction * 1000)));
    QString text = tr("%1 · %2 % · elapsed %3")
                       .arg(r.phase)
                       .arg(std::lround(r.fraction * 100))
                       .arg(q(napkin::formatDuration(r.elapsedSeconds)));
    if (r.remainingSeconds)
        text += tr(" · about %1 left").arg(q(napkin::formatDuration(*r.remainingSeconds)));
    m_status->setText(text);
}

void BenchmarksPage::onSweepFinished(const napkin::MatmulSweep& sweep) {
    m_sweep = sweep;
    showResults();
    const auto failed =
        std::count_if(sweep.results.begin(), sweep.results.end(), [](const auto& r) { return !r.ok; });
    setRunning(false, failed
                          ? tr("Done; %n case(s) failed (see the table).", nullptr, static_cast<int>(failed))
                          : tr("Done."));
}

void BenchmarksPage::onTrainingFinished(const TrainingReport& report) {
    m_training = report;
    showTraining();
    setRunning(false, tr("Training done."));
}

void BenchmarksPage::onFailed(const QString& message) {
    setRunning(false, tr("Failed: %1").arg(message));
}

void BenchmarksPage::showResults() {
    ThroughputChartData data;
    m_results->setRowCount(0);
    if (m_sweep) {
        data.promisedBasis = q(m_sweep->device.promisedBasis);
        for (const napkin::MatmulResult& r : m_sweep->results) {
            const QString dtype = q(std::string(napkin::benchDtypeName(r.shape.dtype)));
            auto series = std::find_if(data.series.begin(), data.series.end(),
                                       [&](const auto& s) { return s.dtype == dtype; });
            if (series == data.series.end()) {
                data.series.push_back({dtype, {}, r.promisedFlopsPerSecond});
                series = data.series.end() - 1;
            }
            if (r.ok)
                series->points.push_back({static_cast<double>(r.shape.n), r.flops, r.flopsPerSecond, r.mfu});
            const int row = m_results->rowCount();
            m_results->insertRow(row);
            setCell(m_results, row, 0, dtype);
            setCell(m_results, row, 1, QString::number(r.shape.n));
            setCell(m_results, row, 2, q(napkin::formatFlops(r.flops)),
                    tr("2·n³ = %1").arg(q(napkin::formatExact(r.flops))));
            if (r.ok) {
                setCell(m_results, row, 3, q(napkin::formatDuration(r.timing.medianSeconds)),
                        tr("p20 %1, p80 %2\n%3 samples of %4 call(s) after %5 warm-up run(s)")
                            .arg(q(napkin::formatDuration(r.timing.p20Seconds)),
                                 q(napkin::formatDuration(r.timing.p80Seconds)))
                            .arg(r.timing.samples)
                            .arg(r.callsPerSample)
                            .arg(r.warmupRuns));
                setCell(m_results, row, 4, q(napkin::formatFlops(r.flopsPerSecond, true)));
                setCell(m_results, row, 5,
                        r.mfu ? QString::number(*r.mfu * 100, 'f', 1) + QLatin1Char('%') : tr("–"));
                setCell(m_results, row, 6, QString::number(r.maxRelError, 'g', 2),
                        tr("max over %1 sampled entries of |c − ref| / Σ|a·b|, ref in long double")
                            .arg(r.verifiedEntries));
                setCell(m_results, row, 7, tr("ok"));
            } else {
                setCell(m_results, row, 7, tr("failed: %1").arg(q(r.error)), q(r.error));
            }
        }
        for (auto& s : data.series)
            std::sort(s.points.begin(), s.points.end(),
                      [](const auto& a, const auto& b) { return a.size < b.size; });
        m_basis->setText(
            tr("Dashed: promised peak per type — %1. Small sizes sit far below it: each call is "
               "dominated by fixed overhead (thread hand-off, packing, loop set-up), not arithmetic.")
                .arg(data.promisedBasis));
    } else {
        m_basis->setText(tr("Run a sweep to see measured FLOP/s against n and the promised peak."));
    }
    m_throughput->setData(data);
    m_explain->setHtml(explainBenchmarks(m_sweep));
}

void BenchmarksPage::showTraining() {
    m_memory->setRowCount(0);
    if (!m_training) {
        m_loss->setLosses({});
        m_trainingSummary->setText(tr("No training run yet."));
        return;
    }
    const TrainingReport& t = *m_training;
    m_loss->setLosses(t.losses);
    QString summary =
        tr("D=%1 L=%2 B=%3, %4 steps: loss %5 → %6\nstep %7 (median), %8 per step (6·B·P − 2·B·D²), %9")
            .arg(t.config.dim)
            .arg(t.config.layers)
            .arg(t.config.batch)
            .arg(t.steps)
            .arg(t.losses.empty() ? 0.0 : t.losses.front(), 0, 'g', 4)
            .arg(t.losses.empty() ? 0.0 : t.losses.back(), 0, 'g', 4)
            .arg(q(napkin::formatDuration(t.stepTiming.medianSeconds)),
                 q(napkin::formatFlops(t.flopsPerStep)), q(napkin::formatFlops(t.flopsPerSecond, true)));
    if (t.mfu)
        summary += tr(", MFU %1%").arg(*t.mfu * 100, 0, 'f', 1);
    m_trainingSummary->setText(summary);
    auto addRow = [this](const QString& name, double predicted, double measured) {
        const int row = m_memory->rowCount();
        m_memory->insertRow(row);
        setCell(m_memory, row, 0, name);
        setCell(m_memory, row, 1, q(napkin::formatBytes(predicted)),
                q(napkin::formatExact(predicted)) + tr(" B"));
        setCell(m_memory, row, 2, q(napkin::formatBytes(measured)),
                q(napkin::formatExact(measured)) + tr(" B"));
        setCell(m_memory, row, 3, predicted == measured ? tr("yes") : tr("no"));
    };
    for (const auto& m : t.memory)
        addRow(m.component, m.predictedBytes, m.measuredBytes);
    addRow(tr("total"), t.predictedTotalBytes, t.measuredTotalBytes);
    const int row = m_memory->rowCount();
    m_memory->insertRow(row);
    setCell(m_memory, row, 0, tr("not in the formula"),
            tr("the input batch and targets (inputs) and the head output, dL/dy and two B·D backward "
               "temporaries (workspace)"));
    setCell(m_memory, row, 2, q(napkin::formatBytes(t.inputsBytes + t.workspaceBytes)));
}

QString BenchmarksPage::exportChartPng(const QString& path) const {
    return savePngAtomically(m_throughput->render(1600, 900, 1.0), path);
}

QString BenchmarksPage::exportCsv(const QString& path) const {
    return writeBenchmarksCsv(m_sweep, m_training, path);
}

QString BenchmarksPage::exportJson(const QString& path) const {
    return writeBenchmarksJson(m_sweep, m_training, path);
}

void BenchmarksPage::exportWithDialog(int kind) {
    const QStringList defaults = {tr("throughput.png"), tr("benchmarks.csv"), tr("benchmarks.json")};
    const QStringList filters = {tr("PNG images (*.png)"), tr("CSV files (*.csv)"),
                                 tr("JSON files (*.json)")};
    const QString path = QFileDialog::getSaveFileName(this, tr("Export"), defaults[kind], filters[kind]);
    if (path.isEmpty())
        return;
    const QString error = kind == 0 ? exportChartPng(path) : kind == 1 ? exportCsv(path) : exportJson(path);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Export"), error);
}

// --- scenario: this page's controls to its section of napkin::Scenario and back ---

using namespace napkin;

BenchmarksScenario BenchmarksPage::scenario() const {
    BenchmarksScenario s;
    s.device = m_device->currentData().toString().toStdString();
    s.dtypes.clear();
    for (BenchDtype d : allBenchDtypes()) // a fixed order, so that equal pages write equal files
        if (const auto it = m_dtypes.find(d); it != m_dtypes.end() && it->second->isChecked())
            s.dtypes.push_back(d);
    s.sizes = m_sizes->text().toStdString();
    s.dim = m_dim->value();
    s.layers = m_layers->value();
    s.batch = m_batch->value();
    s.steps = m_steps->value();
    s.optimizer = static_cast<OptimizerKind>(m_optimizer->currentData().toInt());
    return s;
}

QStringList BenchmarksPage::applyScenario(const BenchmarksScenario& s) {
    QStringList warnings;
    const int device = m_device->findData(QString::fromStdString(s.device));
    // Disabled entries are backends listed but not usable here (no GPU, not built): keep the current one.
    if (device < 0 || !(m_device->model()->flags(m_device->model()->index(device, 0)) & Qt::ItemIsEnabled))
        warnings << tr("benchmarks.device: '%1' is not available here; keeping %2")
                        .arg(QString::fromStdString(s.device), m_device->currentText());
    else
        m_device->setCurrentIndex(device);
    for (BenchDtype d : s.dtypes)
        if (!m_dtypes.contains(d))
            warnings << tr("benchmarks.dtypes: %1 has no tick box on this page; ignored")
                            .arg(QString::fromLatin1(benchDtypeName(d).data(), static_cast<qsizetype>(benchDtypeName(d).size())));
    for (const auto& [dtype, check] : m_dtypes)
        check->setChecked(std::find(s.dtypes.begin(), s.dtypes.end(), dtype) != s.dtypes.end());
    m_sizes->setText(QString::fromStdString(s.sizes));
    m_dim->setValue(static_cast<int>(s.dim));
    m_layers->setValue(static_cast<int>(s.layers));
    m_batch->setValue(static_cast<int>(s.batch));
    m_steps->setValue(static_cast<int>(s.steps));
    m_optimizer->setCurrentIndex(m_optimizer->findData(static_cast<int>(s.optimizer)));
    return warnings;
}
