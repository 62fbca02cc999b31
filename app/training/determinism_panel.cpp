// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/training/determinism_panel.h"

#include "app/jobs/task_runner.h"
#include "app/training/lesson_export.h"
#include "engine/scenario/control_ranges.h"
#include "widgets/charts/series_chart.h"
#include "widgets/controls/spin_box_range.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <bit>
#include <cstdint>

using namespace napkin;

namespace {

ChartSeries lossSeries(const QString& name, const std::vector<double>& losses, bool dashed) {
    ChartSeries s;
    s.name = name;
    s.dashed = dashed;
    for (std::size_t i = 0; i < losses.size(); ++i) {
        s.x.push_back(static_cast<double>(i + 1));
        s.y.push_back(losses[i]);
    }
    return s;
}

// The first step whose loss differs in any bit, or −1.
long firstDifference(const std::vector<double>& a, const std::vector<double>& b) {
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
        if (std::bit_cast<std::uint64_t>(a[i]) != std::bit_cast<std::uint64_t>(b[i]))
            return static_cast<long>(i) + 1;
    return a.size() == b.size() ? -1 : static_cast<long>(std::min(a.size(), b.size())) + 1;
}

} // namespace

DeterminismPanel::DeterminismPanel(QWidget* parent)
    : QWidget(parent)
    , m_taskSeed(new QSpinBox(this))
    , m_steps(new QSpinBox(this))
    , m_chartA(new SeriesChart(this))
    , m_chartB(new SeriesChart(this))
    , m_verdict(new QLabel(this))
    , m_runner(new TaskRunner(this)) {
    const TrainingScenario::Determinism defaults;
    auto* runs = new QHBoxLayout;
    SeriesChart* charts[2] = {m_chartA, m_chartB};
    for (int run = 0; run < 2; ++run) {
        auto* box = new QGroupBox(run == 0 ? tr("Run a") : tr("Run b"), this);
        auto* form = new QFormLayout;
        for (int source = 0; source < 2; ++source) {
            m_seeds[run][source] = new QSpinBox(box);
            setRangeOf(m_seeds[run][source], ranges::seed);
        }
        m_seeds[run][0]->setValue(static_cast<int>(defaults.initSeed[run]));
        m_seeds[run][1]->setValue(
            static_cast<int>(defaults.dataSeed[run])); // b differs from a in the data order only
        form->addRow(tr("Initialization seed"), m_seeds[run][0]);
        form->addRow(tr("Data-order seed"), m_seeds[run][1]);
        auto* column = new QVBoxLayout(box);
        column->addLayout(form);
        charts[run]->setAxisLabels(tr("step"), tr("loss (MSE)"));
        charts[run]->setLogY(true);
        charts[run]->setLegendCorner(Qt::AlignTop | Qt::AlignRight);
        column->addWidget(charts[run], 1);
        runs->addWidget(box, 1);
        for (int source = 0; source < 2; ++source)
            connect(m_seeds[run][source], &QSpinBox::valueChanged, this, &DeterminismPanel::rerun);
    }
    setRangeOf(m_taskSeed, ranges::seed);
    m_taskSeed->setValue(static_cast<int>(defaults.datasetSeed));
    setRangeOf(m_steps, ranges::training::determinismSteps);
    m_steps->setValue(static_cast<int>(defaults.steps));
    auto* exportButton = new QPushButton(tr("Export PNG…"), this);
    auto* shared = new QHBoxLayout;
    shared->addWidget(new QLabel(tr("Dataset seed (both runs)"), this));
    shared->addWidget(m_taskSeed);
    shared->addWidget(new QLabel(tr("Steps"), this));
    shared->addWidget(m_steps);
    shared->addStretch(1);
    shared->addWidget(exportButton);

    auto* intro = new QLabel(
        tr("The lesson Cruncher (D=16, L=3, B=32, SGD, fp32) trained twice. Each source of randomness "
           "has its own seed: equal seeds give bit-identical losses; changing only the data-order "
           "seed keeps the weights and the examples and changes the order they are visited in."),
        this);
    intro->setWordWrap(true);
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(shared);
    layout->addLayout(runs, 1);
    layout->addWidget(m_verdict);

    connect(m_taskSeed, &QSpinBox::valueChanged, this, &DeterminismPanel::rerun);
    connect(m_steps, &QSpinBox::valueChanged, this, &DeterminismPanel::rerun);
    connect(exportButton, &QPushButton::clicked, this,
            [this] { exportLessonWidget(this, *this, QStringLiteral("determinism")); });
    connect(m_runner, &TaskRunner::failed, this,
            [this](const QString& message) { m_verdict->setText(message); });
    rerun();
}

void DeterminismPanel::rerun() {
    LessonCruncherConfig a;
    a.steps = m_steps->value();
    a.seedTask = static_cast<std::uint64_t>(m_taskSeed->value());
    a.seedInit = static_cast<std::uint64_t>(m_seeds[0][0]->value());
    a.seedData = static_cast<std::uint64_t>(m_seeds[0][1]->value());
    LessonCruncherConfig b = a;
    b.seedInit = static_cast<std::uint64_t>(m_seeds[1][0]->value());
    b.seedData = static_cast<std::uint64_t>(m_seeds[1][1]->value());
    m_verdict->setText(tr("training…"));
    m_runner->start([this, a, b](const TaskContext& task) -> TaskRunner::Deliver {
        auto go = [&task](long) { return task.keepGoing(); };
        LessonTrainingRun runA = trainPrecisionLesson(a, PrecisionLesson::fp32, go);
        LessonTrainingRun runB = trainPrecisionLesson(b, PrecisionLesson::fp32, go);
        return [this, runA = std::move(runA), runB = std::move(runB)] {
            m_chartA->setSeries({lossSeries(tr("run a"), runA.losses, false)});
            m_chartB->setSeries(
                {lossSeries(tr("run b"), runB.losses, false), lossSeries(tr("run a"), runA.losses, true)});
            const long diff = firstDifference(runA.losses, runB.losses);
            QStringList lines;
            lines << (diff < 0 ? tr("Losses: bit-identical in all %1 steps.").arg(runA.losses.size())
                               : tr("Losses: first differ at step %1.").arg(diff));
            lines << (runA.initChecksum == runB.initChecksum
                          ? tr("Initial weights: identical (checksum %1).")
                                .arg(runA.initChecksum, 16, 16, QLatin1Char('0'))
                          : tr("Initial weights: different."));
            lines << (runA.datasetChecksum == runB.datasetChecksum ? tr("Dataset: identical.")
                                                                   : tr("Dataset: different."));
            QStringList firstA, firstB;
            for (std::size_t i = 0; i < 8 && i < runA.firstEpochOrder.size(); ++i) {
                firstA << QString::number(runA.firstEpochOrder[i]);
                firstB << QString::number(runB.firstEpochOrder[i]);
            }
            lines << (runA.firstEpochOrder == runB.firstEpochOrder
                          ? tr("Data order: identical (%1, …).").arg(firstA.join(QStringLiteral(", ")))
                          : tr("Data order: a visits %1, …; b visits %2, … (same examples, another order).")
                                .arg(firstA.join(QStringLiteral(", ")), firstB.join(QStringLiteral(", "))));
            m_verdict->setText(lines.join(QLatin1Char(' ')));
            emit updated();
        };
    });
}

// --- scenario: this page's controls to its section of napkin::Scenario and back ---

TrainingScenario::Determinism DeterminismPanel::scenario() const {
    TrainingScenario::Determinism s;
    s.datasetSeed = m_taskSeed->value();
    s.steps = m_steps->value();
    for (int run = 0; run < 2; ++run) {
        s.initSeed[run] = m_seeds[run][0]->value();
        s.dataSeed[run] = m_seeds[run][1]->value();
    }
    return s;
}

void DeterminismPanel::applyScenario(const TrainingScenario::Determinism& s) {
    if (s == scenario())
        return;
    const auto set = [](QSpinBox* box, long value) {
        const QSignalBlocker block(box);
        box->setValue(static_cast<int>(value));
    };
    set(m_taskSeed, s.datasetSeed);
    set(m_steps, s.steps);
    for (int run = 0; run < 2; ++run) {
        set(m_seeds[run][0], s.initSeed[run]);
        set(m_seeds[run][1], s.dataSeed[run]);
    }
    rerun(); // once, on the runner's worker
}
