// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/throughput_chart.h"

#include "engine/numerics/quantity_format.h"
#include "widgets/charts/unit_axis_ticker.h"

#include <QMouseEvent>
#include <QToolTip>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace {

QColor colorFor(const QString& dtype) {
    if (dtype == QLatin1String("fp32"))
        return {0x4c, 0x72, 0xb0};
    if (dtype == QLatin1String("fp64"))
        return {0xdd, 0x84, 0x52};
    if (dtype == QLatin1String("bf16"))
        return {0x55, 0xa8, 0x68};
    if (dtype == QLatin1String("fp16"))
        return {0xc4, 0x4e, 0x52};
    return {0x81, 0x72, 0xb3};
}

} // namespace

ThroughputChart::ThroughputChart(QWidget* parent)
    : ChartView(parent) {
    setTitle(tr("Matrix-multiply throughput"));
    QCustomPlot* chart = &plot();
    chart->setMouseTracking(true);
    // 44 columns: a tick label ("100 MFLOP/s"), the y title's two lines and axes on which the x title
    // ("matrix size n (n×n×n GEMM, log scale)") breaks onto two lines at most, in any type.
    setMinimumChartSize({280, 220}, 44);
    setPowersOfTwoAxis(*chart->xAxis);
    chart->xAxis->setLabel(tr("matrix size n (n×n×n GEMM, log scale)"));
    chart->yAxis->setScaleType(QCPAxis::stLogarithmic);
    chart->yAxis->setTicker(QSharedPointer<FlopsPerSecondLogTicker>::create());
    chart->yAxis->setLabel(tr("measured FLOP/s (median, log scale)"));
    connect(chart, &QCustomPlot::mouseMove, this, &ThroughputChart::onMouseMove);
    rebuild();
}

ThroughputChart::~ThroughputChart() = default;

void ThroughputChart::setData(const ThroughputChartData& data) {
    m_data = data;
    rebuild();
}

QString ThroughputChart::tooltipFor(const ThroughputChartData::Series& series,
                                    const ThroughputChartData::Point& point) const {
    QString text = tr("%1, n = %2: %3 in %4\n%5")
                       .arg(series.dtype)
                       .arg(point.size)
                       .arg(QString::fromStdString(napkin::formatFlops(point.flops)),
                            QString::fromStdString(napkin::formatDuration(
                                point.flopsPerSecond > 0 ? point.flops / point.flopsPerSecond : 0)),
                            QString::fromStdString(napkin::formatFlops(point.flopsPerSecond, true)));
    if (point.mfu && series.promisedFlopsPerSecond)
        text += tr("\nMFU %1 of %2 promised")
                    .arg(QString::number(*point.mfu * 100, 'f', 1) + QLatin1Char('%'),
                         QString::fromStdString(napkin::formatFlops(*series.promisedFlopsPerSecond, true)));
    else
        text += tr("\nMFU: no promised peak for %1").arg(series.dtype);
    return text;
}

void ThroughputChart::onMouseMove(QMouseEvent* event) {
    QCustomPlot* chart = &plot();
    const QPointF at = event->position();
    double best = 12 * 12; // pixels², the hover radius
    const ThroughputChartData::Series* hitSeries = nullptr;
    const ThroughputChartData::Point* hitPoint = nullptr;
    for (const auto& s : m_data.series)
        for (const auto& p : s.points) {
            const double dx = chart->xAxis->coordToPixel(p.size) - at.x();
            const double dy = chart->yAxis->coordToPixel(p.flopsPerSecond) - at.y();
            if (dx * dx + dy * dy < best) {
                best = dx * dx + dy * dy;
                hitSeries = &s;
                hitPoint = &p;
            }
        }
    if (!hitPoint) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(event->globalPosition().toPoint(), tooltipFor(*hitSeries, *hitPoint), chart);
}

void ThroughputChart::rebuild() {
    QCustomPlot* chart = &plot();
    chart->clearGraphs();
    double xMin = std::numeric_limits<double>::max(), xMax = 0;
    double yMin = std::numeric_limits<double>::max(), yMax = 0;
    for (const auto& s : m_data.series) {
        for (const auto& p : s.points) {
            xMin = std::min(xMin, p.size);
            xMax = std::max(xMax, p.size);
            if (p.flopsPerSecond > 0) {
                yMin = std::min(yMin, p.flopsPerSecond);
                yMax = std::max(yMax, p.flopsPerSecond);
            }
        }
        if (s.promisedFlopsPerSecond && *s.promisedFlopsPerSecond > 0) {
            yMin = std::min(yMin, *s.promisedFlopsPerSecond);
            yMax = std::max(yMax, *s.promisedFlopsPerSecond);
        }
    }
    if (xMax <= 0) {
        xMin = 16;
        xMax = 256;
    }
    if (yMax <= 0) {
        yMin = 1e9;
        yMax = 1e11;
    }
    // A factor of 2 either side: the log-2 ticker then labels powers of two even for a single size.
    const double left = xMin / 2, right = xMax * 2;
    for (const auto& s : m_data.series) {
        const QColor color = colorFor(s.dtype);
        QCPGraph* measured = chart->addGraph();
        measured->setName(tr("%1 measured").arg(s.dtype));
        measured->setPen(QPen(color, 2));
        measured->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, color, color, 7));
        QVector<double> x, y;
        for (const auto& p : s.points)
            if (p.flopsPerSecond > 0) {
                x.push_back(p.size);
                y.push_back(p.flopsPerSecond);
            }
        measured->setData(x, y, true);
        if (s.promisedFlopsPerSecond && *s.promisedFlopsPerSecond > 0) {
            QCPGraph* peak = chart->addGraph();
            peak->setName(tr("%1 promised peak").arg(s.dtype));
            peak->setPen(QPen(color, 1.5, Qt::DashLine));
            peak->setData(QVector<double>{left, right},
                          QVector<double>{*s.promisedFlopsPerSecond, *s.promisedFlopsPerSecond}, true);
        }
    }
    // The legend sits in its own row under the axes (inside, it would hide the small-size points); it
    // leaves the layout while there is no data.
    setLegendBelow(!m_data.series.empty());
    chart->xAxis->setRange(left, right);
    // From a power of ten below the lowest point: at least two decade labels, whatever the spread.
    chart->yAxis->setRange(std::pow(10.0, std::floor(std::log10(yMin / 1.5))), yMax * 2);
    queueReplot();
}
