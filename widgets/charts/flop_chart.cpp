// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/flop_chart.h"

#include "engine/numerics/quantity_format.h"
#include "widgets/charts/unit_axis_ticker.h"

#include <QMouseEvent>
#include <QToolTip>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace {

constexpr double kBarWidth = 0.7;

const QColor kPhaseColor(0x4c, 0x72, 0xb0);
const QColor kComponentColor(0xdd, 0x84, 0x52);

} // namespace

FlopChart::FlopChart(QWidget* parent)
    : ChartView(parent) {
    setTitle(tr("FLOPs of one training step"));
    QCustomPlot* chart = &plot();
    chart->setMouseTracking(true);
    setMinimumChartSize({240, 200});
    chart->yAxis->setTicker(QSharedPointer<UnitAxisTicker>::create(
        [](double flops) { return QString::fromStdString(napkin::formatFlops(flops)); }, 1000.0));
    chart->yAxis->setLabel(tr("FLOPs per step (per GPU)"));
    chart->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    chart->xAxis->grid()->setVisible(false);
    chart->xAxis->setSubTicks(false);
    chart->xAxis->setTickLength(0, 0);
    chart->xAxis->setTickLabelRotation(-30);

    m_phaseBars = new QCPBars(chart->xAxis, chart->yAxis);
    m_phaseBars->setName(tr("step: forward, backward, recompute"));
    m_phaseBars->setWidth(kBarWidth);
    m_componentBars = new QCPBars(chart->xAxis, chart->yAxis);
    m_componentBars->setName(tr("forward, by component"));
    m_componentBars->setWidth(kBarWidth);
    // Below the axes: in the corner it covered the backward bar on a projector's 1024×768.
    setLegendBelow(true, 1); // one entry a row: side by side, both were cut at 1024×768

    connect(chart, &QCustomPlot::mouseMove, this, &FlopChart::onMouseMove);
    applySeriesColors();
    rebuild();
}

FlopChart::~FlopChart() = default;

void FlopChart::setData(const FlopChartData& data) {
    if (takeNewData(m_data, m_hasData, data))
        rebuild();
}

// Phases sit at x = 1, 2, 3; a gap; then components from x = phases + 2.
double FlopChart::componentX(std::size_t index) const {
    return static_cast<double>(m_data.phases.size() + 2 + index);
}

const FlopChartData::Bar* FlopChart::barAt(double x) const {
    const long nearest = std::lround(x);
    if (std::fabs(x - static_cast<double>(nearest)) > kBarWidth / 2)
        return nullptr;
    const long phases = static_cast<long>(m_data.phases.size());
    if (nearest >= 1 && nearest <= phases)
        return &m_data.phases[static_cast<std::size_t>(nearest - 1)];
    const long component = nearest - (phases + 2);
    if (component >= 0 && component < static_cast<long>(m_data.components.size()))
        return &m_data.components[static_cast<std::size_t>(component)];
    return nullptr;
}

QString FlopChart::tooltipFor(const FlopChartData::Bar& bar) const {
    return tr("%1: %2\n%3")
        .arg(bar.label, QString::fromStdString(napkin::formatFlops(bar.flops)), bar.formula);
}

void FlopChart::onMouseMove(QMouseEvent* event) {
    QCustomPlot* chart = &plot();
    const double x = chart->xAxis->pixelToCoord(event->position().x());
    const double y = chart->yAxis->pixelToCoord(event->position().y());
    const FlopChartData::Bar* bar = barAt(x);
    if (!bar || y < 0 || y > bar->flops) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(event->globalPosition().toPoint(), tooltipFor(*bar), chart);
}

void FlopChart::applySeriesColors() {
    m_phaseBars->setBrush(kPhaseColor);
    m_phaseBars->setPen(QPen(kPhaseColor.darker(130)));
    m_componentBars->setBrush(kComponentColor);
    m_componentBars->setPen(QPen(kComponentColor.darker(130)));
}

void FlopChart::rebuild() {
    QCustomPlot* chart = &plot();
    QVector<double> px, py, cx, cy;
    const auto ticker = chart->xAxis->ticker().staticCast<QCPAxisTickerText>();
    ticker->clear();
    double top = 1;
    for (std::size_t i = 0; i < m_data.phases.size(); ++i) {
        px.push_back(static_cast<double>(i + 1));
        py.push_back(m_data.phases[i].flops);
        ticker->addTick(px.back(), m_data.phases[i].label);
        top = std::max(top, m_data.phases[i].flops);
    }
    // Many layers (a 96-layer Cruncher) would crowd the axis: label every k-th component.
    const std::size_t stride = std::max<std::size_t>(1, m_data.components.size() / 16);
    for (std::size_t i = 0; i < m_data.components.size(); ++i) {
        cx.push_back(componentX(i));
        cy.push_back(m_data.components[i].flops);
        if (i % stride == 0)
            ticker->addTick(cx.back(), m_data.components[i].label);
        top = std::max(top, m_data.components[i].flops);
    }
    m_phaseBars->setData(px, py, true);
    m_componentBars->setData(cx, cy, true);
    chart->xAxis->setRange(0.3, componentX(m_data.components.size()) - 0.3);
    chart->yAxis->setRange(0, top * 1.25);
    queueReplot();
}
