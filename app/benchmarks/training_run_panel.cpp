// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/benchmarks/training_run_panel.h"

#include "app/benchmarks/export_buttons.h"
#include "app/hardware/hardware_profile_chooser.h"
#include "app/benchmarks/result_table.h"
#include "app/export/save_file.h"
#include "engine/benchmarks/cruncher_step_time.h"
#include "engine/numerics/quantity_format.h"
#include "engine/report/json_values.h"
#include "engine/report/memory_timeline_report.h"
#include "engine/report/training_report.h"
#include "engine/scenario/control_ranges.h"
#include "widgets/charts/loss_chart.h"
#include "widgets/charts/memory_timeline_chart.h"
#include "widgets/controls/controls_grid.h"
#include "widgets/controls/flow_splitter.h"
#include "widgets/controls/spin_box_range.h"
#include "widgets/controls/text_tone.h"
#include "widgets/controls/wrapping_column.h"
#include "widgets/text/engine_text.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

using namespace napkin;

namespace {

QSpinBox* spinBox(long value, ControlRange range, const char* name, QWidget* parent) {
    auto* box = new QSpinBox(parent);
    setRangeOf(box, range);
    box->setValue(static_cast<int>(value));
    box->setObjectName(QString::fromLatin1(name));
    return box;
}

// The prediction's components per event, the ledger's total on each event it recorded (all or none),
// and the napkin sum beside them.
MemoryTimelineChartData timelineData(const MemoryComparison& m) {
    MemoryTimelineChartData d;
    const std::vector<TimelineEvent>& events = m.predictedTimeline.events;
    QVector<double> measured;
    for (std::size_t i = 0; i < events.size(); ++i) {
        const StepBytes& b = events[i].bytes;
        d.events << QString::fromStdString(stepEventName(events[i].event));
        d.phases << QString::fromUtf8(stepPhaseName(events[i].event.phase).data());
        d.bytes.push_back(
            {b.parameters, b.gradients, b.masterWeights, b.optimizerState, b.activations, b.temporary});
        if (const std::optional<double> seen = measuredTotalAt(m.predictedTimeline, m.measuredTimeline, i))
            measured.push_back(*seen);
    }
    if (measured.size() == d.events.size())
        d.measured = measured;
    d.sum = {m.parameters.predicted, m.gradients.predicted, m.masterWeights.predicted,
             m.optimizerState.predicted, m.activations.predicted};
    return d;
}

// The recipes the CPU Cruncher trainers run (the oneDNN one both; Eigen and CUDA fp32 only).
constexpr PrecisionRecipe kPrecisions[] = {PrecisionRecipe::fp32, PrecisionRecipe::mixedBf16};

} // namespace

TrainingRunPanel::TrainingRunPanel(QWidget* parent)
    : QGroupBox(tr("Cruncher training"), parent)
    , m_optimizer(new QComboBox(this))
    , m_precision(new QComboBox(this))
    , m_precisionNote(new QLabel(this))
    , m_train(new QPushButton(tr("Train"), this))
    , m_compare(new QPushButton(tr("Compare recipes"), this))
    , m_profile(new HardwareProfileChooser(this))
    , m_chart(new LossChart(this))
    , m_timeline(new MemoryTimelineChart(this))
    , m_summary(new QLabel(this))
    , m_memory(makeResultTable({tr("component"), tr("predicted"), tr("measured"), tr("agree")}, this)) {
    const BenchmarksScenario defaults;
    m_dim = spinBox(defaults.dim, ranges::benchmarks::dim, "dim", this);
    m_layers = spinBox(defaults.layers, ranges::benchmarks::layers, "layers", this);
    m_batch = spinBox(defaults.batch, ranges::benchmarks::batch, "batch", this);
    m_steps = spinBox(defaults.steps, ranges::benchmarks::steps, "steps", this);
    for (OptimizerKind k : allOptimizers())
        m_optimizer->addItem(
            QString::fromUtf8(optimizerName(k).data(), static_cast<qsizetype>(optimizerName(k).size())),
            static_cast<int>(k));
    m_optimizer->setCurrentIndex(m_optimizer->findData(static_cast<int>(defaults.optimizer)));
    m_precision->setObjectName(QStringLiteral("precision"));
    for (PrecisionRecipe r : kPrecisions)
        m_precision->addItem(toQString(precisionRecipeName(r)), static_cast<int>(r));
    m_precision->setCurrentIndex(m_precision->findData(static_cast<int>(defaults.precision)));
    m_compare->setObjectName(QStringLiteral("compareRecipes"));
    m_compare->setToolTip(tr("Train this setup once in each recipe the device runs (fp32, tf32, mixed-bf16, "
                             "mixed-fp16), from the same seeds, and show them side by side"));
    m_precision->setToolTip(tr("mixed-bf16: bf16 weights, activations and gradients in the GEMMs (fp32 "
                               "accumulation), fp32 master weights and optimizer state. It runs on the "
                               "oneDNN CPU backend."));
    // A grid on a column that asks for its rows' wrapped height (controls_grid.h): in a form layout's
    // spanning row the refused-recipes note got the height of its lines at its natural width and was cut.
    auto* controls = new WrappingColumn(this);
    auto* form = new ControlsGrid(controls);
    form->addLabelled(tr("Width D"), m_dim);
    form->addLabelled(tr("Layers L"), m_layers);
    form->addLabelled(tr("Batch B"), m_batch);
    form->addLabelled(tr("Steps"), m_steps);
    form->addLabelled(tr("Optimizer"), m_optimizer);
    form->addLabelled(tr("Precision"), m_precision);
    m_precisionNote->setObjectName(QStringLiteral("precisionNote"));
    m_precisionNote->setWordWrap(true);
    setTextTone(m_precisionNote, TextTone::note);
    m_precisionNote->hide();
    form->addSpanning(m_precisionNote);
    // Train and Compare recipes on a row of their own: with the three exports beside them the column's
    // 340 px would cut their words.
    auto* runs = new QHBoxLayout;
    runs->addWidget(m_train);
    runs->addWidget(m_compare);
    form->addSpanning(runs);
    form->addSpanning(m_profile);
    auto* buttons = new QHBoxLayout;
    addExportButtons(buttons, this,
                     {[this](const QString& path) { return exportChartPng(path); },
                      [this](const QString& path) { return exportCsv(path); },
                      [this](const QString& path) { return exportJson(path); }, QStringLiteral("loss"),
                      QStringLiteral("train"), tr("Export the loss chart as PNG"),
                      tr("Export the run: the same document as napkin-cli bench train --json")});
    form->addSpanning(buttons);
    form->endRows();
    controls->setMaximumWidth(340);

    m_summary->setObjectName(QStringLiteral("trainingSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_memory->setObjectName(QStringLiteral("memory"));
    auto* numbers = new QWidget(this);
    auto* numbersColumn = new QVBoxLayout(numbers);
    numbersColumn->setContentsMargins(0, 0, 0, 0);
    numbersColumn->addWidget(m_summary);
    numbersColumn->addWidget(m_memory, 1);
    // The controls and the charts in one pane, the summary and memory table beside them while the row has
    // room, under them (the panel's whole width) when not: three columns side by side were 1029 px at the
    // least in presentation type, wider than a 1024-pixel window's viewport, which cut them at the right.
    auto* top = new QWidget(this);
    auto* topRow = new QHBoxLayout(top);
    topRow->setContentsMargins(0, 0, 0, 0);
    auto* charts = new QVBoxLayout;
    charts->addWidget(m_chart, 1);
    charts->addWidget(m_timeline, 1);
    topRow->addWidget(controls);
    topRow->addLayout(charts, 1);
    auto* row = new FlowSplitter(this);
    row->addWidget(top);
    row->addWidget(numbers);
    row->setStretchFactor(0, 2);
    row->setStretchFactor(1, 1);
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(row);
    connect(m_train, &QPushButton::clicked, this, &TrainingRunPanel::trainClicked);
    connect(m_compare, &QPushButton::clicked, this, &TrainingRunPanel::compareClicked);
    // Before a run, the empty loss chart's step axis follows the steps asked for.
    connect(m_steps, &QSpinBox::valueChanged, this, [this](int steps) {
        if (!m_run && m_chart->losses().empty())
            m_chart->setLosses({}, steps);
    });
    showRun(std::nullopt);
}

TrainingRunRequest TrainingRunPanel::request() const {
    TrainingRunRequest r;
    r.config.dim = m_dim->value();
    r.config.layers = m_layers->value();
    r.config.batch = m_batch->value();
    r.config.optimizer = static_cast<OptimizerKind>(m_optimizer->currentData().toInt());
    r.config.hyper.learningRate = defaultLearningRate(r.config.optimizer, r.config.dim);
    r.config.precision = static_cast<PrecisionRecipe>(m_precision->currentData().toInt());
    r.steps = m_steps->value();
    return r;
}

void TrainingRunPanel::setTrainEnabled(bool enabled) {
    m_train->setEnabled(enabled);
    m_compare->setEnabled(enabled);
}

void TrainingRunPanel::setUnsupportedRecipes(const std::map<PrecisionRecipe, std::string>& reasons) {
    QStringList lines;
    for (int i = 0; i < m_precision->count(); ++i) {
        const auto recipe = static_cast<PrecisionRecipe>(m_precision->itemData(i).toInt());
        const auto it = reasons.find(recipe);
        // Qt::UserRole - 1 holds a QStandardItemModel item's flags: enabled and selectable, or neither.
        m_precision->setItemData(
            i, it == reasons.end() ? QVariant(int(Qt::ItemIsEnabled | Qt::ItemIsSelectable)) : QVariant(0),
            Qt::UserRole - 1);
        m_precision->setItemData(i, it == reasons.end() ? QVariant() : QVariant(toQString(it->second)),
                                 Qt::ToolTipRole);
        if (it != reasons.end())
            lines << tr("%1: %2").arg(toQString(precisionRecipeName(recipe)), toQString(it->second));
    }
    m_precisionNote->setText(lines.join(QLatin1Char('\n')));
    m_precisionNote->setVisible(!lines.isEmpty());
}

void TrainingRunPanel::showRun(const std::optional<TrainingRun>& run) {
    m_run = run;
    m_memory->setRowCount(0);
    // Before a run the memory chart would be an empty stub beside the loss chart: it appears with data.
    m_timeline->setVisible(run.has_value());
    if (!run) {
        m_chart->setLosses({}, m_steps->value()); // the axis of the steps a run will take
        m_timeline->setData({});
        m_summary->setText(tr("No training run yet."));
        return;
    }
    const TrainingRun& t = *run;
    const CruncherConfig& c = t.request.config;
    m_chart->setLosses(t.losses);
    m_timeline->setData(timelineData(t.memory));
    QString summary =
        tr("D=%1 L=%2 B=%3 %10, %4 steps: loss %5 → %6\nstep %7 (median), %8 per step (6·B·P − 2·B·D²), %9")
            .arg(c.dim)
            .arg(c.layers)
            .arg(c.batch)
            .arg(t.losses.size())
            .arg(t.losses.empty() ? 0.0 : t.losses.front(), 0, 'g', 4)
            .arg(t.losses.empty() ? 0.0 : t.losses.back(), 0, 'g', 4)
            .arg(QString::fromStdString(formatDuration(t.stepTiming.medianSeconds)),
                 QString::fromStdString(formatFlops(t.flopsPerStep)),
                 QString::fromStdString(formatFlops(t.flopsPerSecond, true)),
                 toQString(precisionRecipeName(c.precision)));
    if (t.mfu)
        summary += tr(", MFU %1%").arg(*t.mfu * 100, 0, 'f', 1);
    summary += QLatin1Char('\n') + toQString(predictedStepLine(t));
    if (!t.device.cpuBackend.empty()) // which library trained it
        summary += tr("\nran on %1 %2 (%3)")
                       .arg(QString::fromStdString(t.device.cpuBackend),
                            QString::fromStdString(t.device.cpuBackendVersion),
                            QString::fromStdString(t.device.isa));
    m_summary->setText(summary);
    auto addRow = [this](const QString& name, const BytesPredictedMeasured& bytes) {
        const int row = m_memory->rowCount();
        m_memory->insertRow(row);
        setResultCell(m_memory, row, 0, name);
        setResultCell(m_memory, row, 1, bytesText(bytes.predicted),
                      QString::fromStdString(formatExact(bytes.predicted)) + tr(" B"));
        setResultCell(m_memory, row, 2, bytesText(bytes.measured),
                      QString::fromStdString(formatExact(bytes.measured)) + tr(" B"));
        setResultCell(m_memory, row, 3, bytes.predicted == bytes.measured ? tr("yes") : tr("no"));
    };
    const MemoryComparison& m = t.memory;
    addRow(tr("parameters"), m.parameters);
    addRow(tr("gradients"), m.gradients);
    addRow(tr("optimizer state"), m.optimizerState);
    addRow(tr("activations"), m.activations);
    if (m.masterWeights.predicted != 0)
        addRow(tr("master weights"), m.masterWeights);
    addRow(tr("total"), m.total);
    addRow(tr("peak over one step"), {m.predictedTimeline.peakBytes, m.peakMeasuredBytes});
    if (m.measuredTimeline.empty()) { // the CUDA trainer allocates every buffer up front
        const int peakRow = m_memory->rowCount() - 1;
        const QString why = tr("not recorded: this trainer allocates every buffer before the first step, so "
                               "its memory does not move within a step; train on the CPU (eigen or onednn) "
                               "to follow it event by event");
        setResultCell(m_memory, peakRow, 2, tr("not recorded: allocated up front"), why);
        setResultCell(m_memory, peakRow, 3, tr("—"), why);
    }
    const int row = m_memory->rowCount();
    m_memory->insertRow(row);
    setResultCell(m_memory, row, 0, tr("not in the formula"),
                  tr("the input batch and targets (inputs), the head output, dL/dy and two B·D backward "
                     "temporaries (workspace: the timeline's temporaries) and, on oneDNN, its scratchpad "
                     "(scratch: in no prediction)"));
    setResultCell(m_memory, row, 2, bytesText(m.inputsBytes + m.workspaceBytes + m.scratchBytes));
}

void TrainingRunPanel::showRunningLosses(const std::vector<double>& losses, long steps) {
    m_run.reset();
    m_chart->setLosses(losses, steps); // the curve grows across the axis of the whole run
    if (losses.empty())
        return;
    m_summary->setText(tr("Training: step %1 of %2, loss %3 → %4. The step time, FLOP/s and memory come "
                          "when the run ends.")
                           .arg(losses.size())
                           .arg(steps)
                           .arg(losses.front(), 0, 'g', 4)
                           .arg(losses.back(), 0, 'g', 4));
}

QString TrainingRunPanel::exportChartPng(const QString& path) const {
    return saveChart(*m_chart, path, QSize(1600, 900));
}

QString TrainingRunPanel::exportCsv(const QString& path) const {
    if (!m_run)
        return tr("no training run to export yet: train first");
    return saveFile(path, QByteArray::fromStdString(trainingRunCsv(*m_run)));
}

QString TrainingRunPanel::exportJson(const QString& path) const {
    if (!m_run)
        return tr("no training run to export yet: train first");
    return saveFile(path, QByteArray::fromStdString(jsonText(trainingRunJson(*m_run))));
}

// --- scenario: the panel's controls to its part of napkin::BenchmarksScenario and back ---

void TrainingRunPanel::writeScenario(BenchmarksScenario& s) const {
    s.dim = m_dim->value();
    s.layers = m_layers->value();
    s.batch = m_batch->value();
    s.steps = m_steps->value();
    s.optimizer = static_cast<OptimizerKind>(m_optimizer->currentData().toInt());
    s.precision = static_cast<PrecisionRecipe>(m_precision->currentData().toInt());
}

void TrainingRunPanel::readScenario(const BenchmarksScenario& s) {
    m_dim->setValue(static_cast<int>(s.dim));
    m_layers->setValue(static_cast<int>(s.layers));
    m_batch->setValue(static_cast<int>(s.batch));
    m_steps->setValue(static_cast<int>(s.steps));
    m_optimizer->setCurrentIndex(m_optimizer->findData(static_cast<int>(s.optimizer)));
    m_precision->setCurrentIndex(m_precision->findData(static_cast<int>(s.precision)));
}
