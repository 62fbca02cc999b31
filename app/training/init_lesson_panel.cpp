// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/training/init_lesson_panel.h"

#include "app/jobs/task_runner.h"
#include "app/training/lesson_export.h"
#include "engine/scenario/control_ranges.h"
#include "widgets/charts/series_chart.h"

#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>

#include <bit>
#include <cmath>

using namespace napkin;

InitLessonPanel::InitLessonPanel(QWidget* parent)
    : QWidget(parent)
    , m_dim(new QSlider(Qt::Horizontal, this))
    , m_layers(new QSlider(Qt::Horizontal, this))
    , m_seed(new QSpinBox(this))
    , m_dimLabel(new QLabel(this))
    , m_layersLabel(new QLabel(this))
    , m_summary(new QLabel(this))
    , m_chart(new SeriesChart(this))
    , m_runner(new TaskRunner(this)) {
    // The slider moves through powers of two, D = 2^position (the CLI goes to 4096: L·D² draws take seconds).
    const TrainingScenario::Init defaults;
    m_dim->setRange(std::bit_width(static_cast<unsigned long>(ranges::training::initDim.minimum)) - 1,
                    std::bit_width(static_cast<unsigned long>(ranges::training::initDim.maximum)) - 1);
    m_dim->setValue(std::countr_zero(static_cast<unsigned long>(defaults.dim)));
    m_layers->setRange(static_cast<int>(ranges::training::initLayers.minimum),
                       static_cast<int>(ranges::training::initLayers.maximum));
    m_layers->setValue(static_cast<int>(defaults.layers));
    m_seed->setRange(static_cast<int>(ranges::seed.minimum), static_cast<int>(ranges::seed.maximum));
    m_seed->setValue(static_cast<int>(defaults.seed));
    auto* exportButton = new QPushButton(tr("Export PNG…"), this);

    auto* controls = new QGridLayout;
    controls->addWidget(new QLabel(tr("Width D"), this), 0, 0);
    controls->addWidget(m_dim, 0, 1);
    controls->addWidget(m_dimLabel, 0, 2);
    controls->addWidget(new QLabel(tr("Layers L"), this), 1, 0);
    controls->addWidget(m_layers, 1, 1);
    controls->addWidget(m_layersLabel, 1, 2);
    controls->addWidget(new QLabel(tr("Seed"), this), 0, 3);
    controls->addWidget(m_seed, 0, 4);
    controls->addWidget(exportButton, 1, 4);
    controls->setColumnStretch(1, 1);

    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_chart->setAxisLabels(tr("layer (0 = the input)"), tr("std of the activations"));
    m_chart->setLogY(true);

    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(
        tr("A random batch (16 rows of N(0,1)^D) pushed through L bias-free D×D linear layers. "
           "With N(0,1) weights every layer multiplies the std by √D; dividing by √fan_in keeps it "
           "near 1; truncating the draws at ±3σ trims the variance to 0.9733."),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    layout->addLayout(controls);
    layout->addWidget(m_chart, 1);
    layout->addWidget(m_summary);

    connect(m_dim, &QSlider::valueChanged, this, &InitLessonPanel::recompute);
    connect(m_layers, &QSlider::valueChanged, this, &InitLessonPanel::recompute);
    connect(m_seed, &QSpinBox::valueChanged, this, &InitLessonPanel::recompute);
    connect(exportButton, &QPushButton::clicked, this, [this] {
        exportLessonChart(this, *m_chart,
                          QStringLiteral("init-std-D%1-L%2").arg(config().dim).arg(config().layers));
    });
    connect(m_runner, &TaskRunner::failed, this,
            [this](const QString& message) { m_summary->setText(message); });
    recompute();
}

InitStdConfig InitLessonPanel::config() const {
    InitStdConfig c;
    c.dim = 1L << m_dim->value();
    c.layers = m_layers->value();
    c.seed = static_cast<std::uint64_t>(m_seed->value());
    return c;
}

void InitLessonPanel::recompute() {
    const InitStdConfig c = config();
    m_dimLabel->setText(QString::number(c.dim));
    m_layersLabel->setText(QString::number(c.layers));
    m_summary->setText(tr("computing…"));
    m_runner->start([this, c](const TaskContext& task) -> TaskRunner::Deliver {
        InitStdResult r = runInitStdExperiment(c, [&task](long) { return task.keepGoing(); });
        return [this, r = std::move(r)] { show(r); };
    });
}

void InitLessonPanel::show(const InitStdResult& result) {
    std::vector<ChartSeries> series;
    QStringList lines;
    for (const InitStdCurve& curve : result.curves) {
        ChartSeries s;
        s.name = QString::fromUtf8(initSchemeName(curve.scheme).data(),
                                   static_cast<qsizetype>(initSchemeName(curve.scheme).size()));
        for (std::size_t l = 0; l < curve.stdPerLayer.size(); ++l) {
            s.x.push_back(static_cast<double>(l));
            s.y.push_back(curve.stdPerLayer[l]);
        }
        s.dashed = curve.scheme == InitScheme::truncatedXavier;
        const double layers = static_cast<double>(curve.stdPerLayer.size() - 1);
        const double measured =
            layers > 0 ? std::pow(curve.stdPerLayer.back() / curve.stdPerLayer.front(), 1.0 / layers) : 1.0;
        QString line = tr("%1: ×%2 per layer measured, ×%3 in theory; std %4 after layer %5")
                           .arg(s.name)
                           .arg(measured, 0, 'f', 4)
                           .arg(curve.predictedGrowthPerLayer, 0, 'f', 4)
                           .arg(curve.stdPerLayer.back(), 0, 'g', 4)
                           .arg(layers);
        if (curve.fp32OverflowLayer > 0)
            line += tr(" — in fp32 it would overflow to inf at layer %1").arg(curve.fp32OverflowLayer);
        lines << line;
        series.push_back(std::move(s));
    }
    m_chart->setSeries(series);
    m_summary->setText(lines.join(QLatin1Char('\n')));
    emit updated();
}

// --- scenario: this page's controls to its section of napkin::Scenario and back ---

TrainingScenario::Init InitLessonPanel::scenario() const {
    const InitStdConfig c = config();
    return {c.dim, c.layers, static_cast<long>(c.seed)};
}

void InitLessonPanel::applyScenario(const TrainingScenario::Init& s) {
    if (s == scenario())
        return; // nothing to recompute
    {
        const QSignalBlocker blockDim(m_dim);
        const QSignalBlocker blockLayers(m_layers);
        const QSignalBlocker blockSeed(m_seed);
        m_dim->setValue(std::countr_zero(static_cast<unsigned long>(s.dim))); // D = 2^slider
        m_layers->setValue(static_cast<int>(s.layers));
        m_seed->setValue(static_cast<int>(s.seed));
    }
    recompute(); // once, on the runner's worker
}
