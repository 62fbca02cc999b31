// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/dynamic_range_chart.h"

#include "widgets/charts/alert_colors.h"

#include <qcustomplot.h>

#include <cmath>

namespace {
const QColor kBarColour(0x29, 0x80, 0xb9);
} // namespace

DynamicRangeChart::DynamicRangeChart(QWidget* parent)
    : ChartView(parent) {
    setTitle(tr("Range of each number format"));
    QCustomPlot* chart = &plot();
    chart->xAxis->setScaleType(QCPAxis::stLogarithmic);
    auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
    ticker->setLogBase(10);
    ticker->setSubTickCount(0);
    chart->xAxis->setTicker(ticker);
    chart->xAxis->setNumberFormat(QStringLiteral("eb"));
    chart->xAxis->setNumberPrecision(0);
    chart->xAxis->setLabel(
        tr("magnitude (log scale): smallest subnormal … largest finite; paler = subnormal"));
    chart->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    setMinimumChartSize({240, 180});
    rebuild();
}

DynamicRangeChart::~DynamicRangeChart() = default;

void DynamicRangeChart::setBars(const QVector<Bar>& bars) {
    m_bars = bars;
    rebuild();
}

void DynamicRangeChart::setMarkedValue(std::optional<double> value) {
    if (value && std::isfinite(*value) && *value != 0.0)
        m_marked = std::fabs(*value);
    else
        m_marked.reset();
    rebuild();
}

// Everything is redrawn from m_bars and m_marked: a handful of items, cheap, and never stale.
void DynamicRangeChart::rebuild() {
    QCustomPlot* chart = &plot();
    chart->clearGraphs();
    chart->clearItems();
    auto ticker = chart->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    ticker->clear();
    double lo = 1e-2, hi = 1e2;
    const int n = int(m_bars.size());
    for (int i = 0; i < n; ++i) {
        const Bar& bar = m_bars[i];
        const double y = n - 1 - i; // first bar on top
        ticker->addTick(y, bar.name);
        auto* subnormal = new QCPItemRect(chart);
        subnormal->topLeft->setCoords(bar.minSubnormal, y + 0.3);
        subnormal->bottomRight->setCoords(bar.minNormal, y - 0.3);
        QColor pale = kBarColour;
        pale.setAlpha(70);
        subnormal->setPen(Qt::NoPen);
        subnormal->setBrush(pale);
        auto* normal = new QCPItemRect(chart);
        normal->topLeft->setCoords(bar.minNormal, y + 0.3);
        normal->bottomRight->setCoords(bar.max, y - 0.3);
        normal->setPen(Qt::NoPen);
        normal->setBrush(kBarColour);
        lo = i == 0 ? bar.minSubnormal : std::min(lo, bar.minSubnormal);
        hi = i == 0 ? bar.max : std::max(hi, bar.max);
    }
    if (m_marked) {
        auto* mark = new QCPItemStraightLine(chart);
        mark->point1->setCoords(*m_marked, 0);
        mark->point2->setCoords(*m_marked, 1);
        mark->setPen(QPen(alertColor(palette()), 2));
        auto* label = new QCPItemText(chart);
        label->position->setCoords(*m_marked, n - 0.5);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        label->setText(QStringLiteral(" %1").arg(*m_marked, 0, 'g', 6));
        label->setColor(alertColor(palette())); // a lighter red on a dark palette
        label->setClipToAxisRect(false);
        lo = std::min(lo, *m_marked);
        hi = std::max(hi, *m_marked);
    }
    chart->xAxis->setRange(lo / 10, hi * 10);
    chart->yAxis->setRange(-0.7, std::max(n, 1) - 0.3 + 0.4);
    queueReplot();
}
