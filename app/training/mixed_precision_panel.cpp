// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/training/mixed_precision_panel.h"

#include "app/jobs/task_runner.h"
#include "app/training/lesson_export.h"
#include "engine/benchmarks/backend_registry.h"
#include "engine/benchmarks/training_run.h"
#include "engine/lessons/mixed_precision_trainer.h"
#include "engine/numerics/quantity_format.h"
#include "engine/scenario/control_ranges.h"
#include "widgets/charts/series_chart.h"
#include "widgets/controls/spin_box_range.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <numeric>

using namespace napkin;

namespace {
QString name(PrecisionLesson r) {
    const std::string_view n = precisionLessonName(r);
    return QString::fromUtf8(n.data(), static_cast<qsizetype>(n.size()));
}

double meanOfFirst(const std::vector<double>& losses, std::size_t count) {
    const std::size_t head = std::min(count, losses.size());
    if (head == 0)
        return 0;
    return std::accumulate(losses.begin(), losses.begin() + static_cast<long>(head), 0.0) /
           static_cast<double>(head);
}

double meanOfLast(const std::vector<double>& losses, std::size_t count) {
    const std::size_t tail = std::min(count, losses.size());
    if (tail == 0)
        return 0;
    return std::accumulate(losses.end() - static_cast<long>(tail), losses.end(), 0.0) /
           static_cast<double>(tail);
}

// The real trainer next to the simulated recipes: the Benchmarks page's Cruncher at the lesson's sizes
// (D=16, L=3, B=32, SGD), trained on oneDNN in fp32 and in mixed bf16 through the same service as
// napkin-cli bench train. Its task differs from the lesson's (fresh random batches, targets of size 1):
// its rows compare with their own fp32 run. The task is exactly learnable, so fp32 falls towards 0 while
// mixed bf16 levels off where bf16 activations and weights resolve the outputs (about 1e-5 here).
struct MeasuredRuns {
    std::vector<TrainingRun> runs; ///< fp32, then mixed-bf16
    std::string unavailable;       ///< why there are none (a build without oneDNN)
};

MeasuredRuns trainMeasured(long steps, const TaskContext& task) {
    MeasuredRuns measured;
    BackendOptions options;
    options.cpuThreads = 1; // D = 16: one thread is faster than two handing tiny GEMMs back and forth
    options.cpuBackend = CpuBackendKind::onednn;
    options.cpuMeasurePeak = false; // no MFU here: the FMA loop would cost a second per click
    auto backend = makeBackend("cpu", options, &measured.unavailable);
    if (!backend)
        return measured;
    for (PrecisionRecipe recipe : {PrecisionRecipe::fp32, PrecisionRecipe::mixedBf16}) {
        TrainingRunRequest request;
        request.config.dim = 16;
        request.config.layers = 3;
        request.config.batch = 32;
        request.config.optimizer = OptimizerKind::sgd;
        request.config.hyper.learningRate = defaultLearningRate(OptimizerKind::sgd, 16);
        request.config.precision = recipe;
        request.steps = steps;
        measured.runs.push_back(runCruncherTraining(
            *backend, request, [&task](const BenchmarkProgress&) { return task.keepGoing(); }));
    }
    return measured;
}

// The measured rows under the simulated ones: the losses' ratio to the measured fp32 run, the GEMMs that
// ran, and the ledger's bytes against the recipe's prediction.
void appendMeasuredRows(QTableWidget* table, const MeasuredRuns& measured) {
    const auto cell = [table](int row, int column, const QString& text) {
        table->setItem(row, column, new QTableWidgetItem(text));
    };
    if (measured.runs.empty()) {
        const int row = table->rowCount();
        table->insertRow(row);
        cell(row, 0, MixedPrecisionPanel::tr("bf16 compute, fp32 master — measured"));
        cell(row, 7,
             MixedPrecisionPanel::tr("not measured: %1").arg(QString::fromStdString(measured.unavailable)));
        return;
    }
    for (const TrainingRun& run : measured.runs) {
        const bool mixed = run.request.config.precision == PrecisionRecipe::mixedBf16;
        const int row = table->rowCount();
        table->insertRow(row);
        const double meanLoss = meanOfLast(run.losses, 50);
        cell(row, 0,
             mixed ? MixedPrecisionPanel::tr("bf16 compute, fp32 master — measured")
                   : MixedPrecisionPanel::tr("fp32 — measured"));
        cell(row, 1, QString::number(meanLoss, 'g', 4));
        cell(row, 2, MixedPrecisionPanel::tr("not counted (real GEMMs)"));
        cell(row, 3, MixedPrecisionPanel::tr("–"));
        cell(row, 4, MixedPrecisionPanel::tr("–"));
        cell(row, 5, MixedPrecisionPanel::tr("none"));
        cell(row, 6, QString::number(meanOfFirst(run.losses, 20), 'g', 4));
        const MemoryComparison& m = run.memory;
        cell(row, 7,
             MixedPrecisionPanel::tr("measured: %1 %2 %3 GEMMs on %4; memory %5 measured, %6 predicted%7")
                 .arg(QString::fromStdString(run.device.cpuBackend),
                      QString::fromStdString(run.device.cpuBackendVersion),
                      mixed ? MixedPrecisionPanel::tr("bf16") : MixedPrecisionPanel::tr("fp32"),
                      QString::fromStdString(run.device.isa),
                      QString::fromStdString(formatBytes(m.total.measured)),
                      QString::fromStdString(formatBytes(m.total.predicted)),
                      m.total.measured == m.total.predicted ? MixedPrecisionPanel::tr(" (equal)")
                                                            : MixedPrecisionPanel::tr(" (differ!)")));
    }
}

} // namespace

MixedPrecisionPanel::MixedPrecisionPanel(QWidget* parent)
    : QWidget(parent)
    , m_steps(new QSpinBox(this))
    , m_run(new QPushButton(tr("Train all five"), this))
    , m_status(new QLabel(this))
    , m_chart(new SeriesChart(this))
    , m_underflows(new SeriesChart(this))
    , m_table(new QTableWidget(this))
    , m_runner(new TaskRunner(this)) {
    setRangeOf(m_steps, ranges::training::mixedPrecisionSteps);
    m_steps->setValue(static_cast<int>(TrainingScenario::MixedPrecision{}.steps));
    auto* exportButton = new QPushButton(tr("Export PNG…"), this);
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Steps"), this));
    controls->addWidget(m_steps);
    controls->addWidget(m_run);
    controls->addWidget(m_status, 1);
    controls->addWidget(exportButton);

    auto* intro = new QLabel(tr("The lesson Cruncher (D=16, L=3, B=32, SGD lr 0.1, targets of size 1e-3) "
                                "trained five ways on this CPU, every "
                                "value rounded to the recipe's format by napkin's exact codecs (matmuls "
                                "accumulate in fp32). Under them, two measured rows: the Benchmarks "
                                "page's Cruncher at the same sizes (fresh random batches, targets of size 1) "
                                "trained for real on oneDNN, in fp32 and with bf16 GEMMs and fp32 master "
                                "weights; compare those with their own fp32 run: both start alike, and fp32 "
                                "falls towards 0 where bf16 "
                                "levels off at its resolution. An underflow is a "
                                "gradient value that is non-zero in fp32 and 0 in the compute format. Loss "
                                "scaling follows PyTorch's "
                                "GradScaler: ×2^16 to start, halved on inf/NaN (that step skipped), doubled "
                                "after 100 clean steps."),
                             this);
    intro->setWordWrap(true);
    m_chart->setAxisLabels(tr("step"), tr("loss (MSE, before the update)"));
    m_chart->setLogY(true);
    m_chart->setLegendCorner(Qt::AlignTop | Qt::AlignRight);
    m_underflows->setAxisLabels(tr("step"), tr("gradient values flushed to 0 in the step"));
    m_underflows->setLegendVisible(false); // the same colours as the loss chart's legend, beside it
    auto* charts = new QHBoxLayout;
    charts->addWidget(m_chart, 3);
    charts->addWidget(m_underflows, 2);
    m_table->setColumnCount(8);
    m_table->setHorizontalHeaderLabels({tr("recipe"), tr("mean loss, last 50 steps"),
                                        tr("underflowed gradient values"), tr("steps with underflow"),
                                        tr("skipped steps"), tr("final loss scale"),
                                        tr("mean loss, first 20 steps"), tr("how")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->verticalHeader()->setVisible(false);
    // Room for the five simulated rows and the two measured ones under them, with the header and a
    // horizontal scroll bar (the "how" column is wide).
    m_table->setMaximumHeight(m_table->horizontalHeader()->sizeHint().height() +
                              7 * m_table->verticalHeader()->defaultSectionSize() + 24);
    m_table->setMinimumHeight(m_table->maximumHeight());

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(controls);
    layout->addLayout(charts, 1);
    layout->addWidget(m_table);

    connect(m_run, &QPushButton::clicked, this, &MixedPrecisionPanel::run);
    connect(exportButton, &QPushButton::clicked, this,
            [this] { exportLessonWidget(this, *this, QStringLiteral("mixed-precision")); });
    connect(m_runner, &TaskRunner::failed, this,
            [this](const QString& message) { m_status->setText(message); });
    connect(m_runner, &TaskRunner::busyChanged, m_run, [this](bool busy) { m_run->setEnabled(!busy); });
    run();
}

void MixedPrecisionPanel::run() {
    LessonCruncherConfig c;
    c.steps = m_steps->value();
    m_status->setText(tr("training…"));
    m_runner->start([this, c](const TaskContext& task) -> TaskRunner::Deliver {
        std::vector<LessonTrainingRun> runs;
        for (PrecisionLesson r : kPrecisionLessons)
            runs.push_back(trainPrecisionLesson(c, r, [&task](long) { return task.keepGoing(); }));
        MeasuredRuns measured = trainMeasured(c.steps, task);
        return [this, runs = std::move(runs), measured = std::move(measured)] {
            std::vector<ChartSeries> series, underflows;
            m_table->setRowCount(static_cast<int>(runs.size()));
            for (std::size_t i = 0; i < runs.size(); ++i) {
                const LessonTrainingRun& run = runs[i];
                ChartSeries s;
                s.name = name(run.recipe);
                s.dashed = run.recipe == PrecisionLesson::fp16NoScaling;
                for (std::size_t k = 0; k < run.losses.size(); ++k) {
                    s.x.push_back(static_cast<double>(k + 1));
                    s.y.push_back(run.losses[k]);
                }
                ChartSeries u;
                u.name = s.name;
                u.dashed = s.dashed;
                u.x = s.x;
                for (long count : run.underflowsPerStep)
                    u.y.push_back(static_cast<double>(count));
                underflows.push_back(std::move(u));
                series.push_back(std::move(s));
                const double meanLoss = meanOfLast(run.losses, 50);
                const long stepsWith = std::count_if(
                    run.underflowsPerStep.begin(), run.underflowsPerStep.end(), [](long u) { return u > 0; });
                const double share = 100.0 * static_cast<double>(run.underflowTotal) /
                                     (run.gradientValuesPerStep * static_cast<double>(run.losses.size()));
                const int row = static_cast<int>(i);
                m_table->setItem(row, 0, new QTableWidgetItem(name(run.recipe)));
                m_table->setItem(row, 1, new QTableWidgetItem(QString::number(meanLoss, 'g', 4)));
                m_table->setItem(row, 2,
                                 new QTableWidgetItem(
                                     tr("%1 (%2% of all)").arg(run.underflowTotal).arg(share, 0, 'g', 3)));
                m_table->setItem(row, 3,
                                 new QTableWidgetItem(tr("%1 of %2").arg(stepsWith).arg(run.losses.size())));
                m_table->setItem(row, 4, new QTableWidgetItem(QString::number(run.skippedSteps)));
                m_table->setItem(row, 5,
                                 new QTableWidgetItem(QString::number(run.lossScalePerStep.back(), 'g', 6)));
                m_table->setItem(row, 6,
                                 new QTableWidgetItem(QString::number(meanOfFirst(run.losses, 20), 'g', 4)));
                m_table->setItem(
                    row, 7, new QTableWidgetItem(tr("simulated: every value rounded by napkin's codecs")));
            }
            appendMeasuredRows(m_table, measured);
            m_chart->setSeries(series);
            m_underflows->setSeries(underflows);
            m_status->setText(tr("%1 steps per recipe.").arg(runs.front().losses.size()));
            emit updated();
        };
    });
}

// --- scenario: this page's controls to its section of napkin::Scenario and back ---

TrainingScenario::MixedPrecision MixedPrecisionPanel::scenario() const {
    return {m_steps->value()};
}

void MixedPrecisionPanel::applyScenario(const TrainingScenario::MixedPrecision& s) {
    if (s == scenario())
        return;
    m_steps->setValue(static_cast<int>(s.steps));
    run(); // on the runner's worker; the results shown so far were for the old step count
}
