// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/series_chart.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>

SeriesChart::SeriesChart(QWidget* parent)
    : ChartView(parent) {
    plot().legend->setVisible(true);
    plot().axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
}

SeriesChart::~SeriesChart() = default;

QColor SeriesChart::defaultColor(int index) {
    static const QColor colors[] = {QColor(0x00, 0x72, 0xb2), QColor(0xd5, 0x5e, 0x00),
                                    QColor(0x00, 0x9e, 0x73), QColor(0xcc, 0x79, 0xa7),
                                    QColor(0xe6, 0x9f, 0x00), QColor(0x56, 0xb4, 0xe9)};
    return colors[index % 6];
}

void SeriesChart::setAxisLabels(const QString& x, const QString& y) {
    plot().xAxis->setLabel(x);
    plot().yAxis->setLabel(y);
    queueReplot();
}

void SeriesChart::setLegendCorner(Qt::Alignment corner) {
    plot().axisRect()->insetLayout()->setInsetAlignment(0, corner);
    queueReplot();
}

void SeriesChart::setLegendVisible(bool visible) {
    plot().legend->setVisible(visible);
    queueReplot();
}

void SeriesChart::setLogY(bool logY) {
    m_logY = logY;
    plot().yAxis->setScaleType(logY ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (logY) {
        auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
        ticker->setLogBase(10);
        plot().yAxis->setTicker(ticker);
        plot().yAxis->setNumberFormat(QStringLiteral("eb"));
        plot().yAxis->setNumberPrecision(0);
    } else {
        plot().yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        plot().yAxis->setNumberFormat(QStringLiteral("gb"));
        plot().yAxis->setNumberPrecision(6);
    }
    setSeries(m_series);
}

void SeriesChart::setSeries(const std::vector<ChartSeries>& series) {
    m_series = series;
    plot().clearGraphs();
    double xLo = std::numeric_limits<double>::infinity(), xHi = -xLo, yLo = xLo, yHi = -xLo;
    for (std::size_t s = 0; s < series.size(); ++s) {
        const ChartSeries& line = series[s];
        QCPGraph* graph = plot().addGraph();
        graph->setName(line.name);
        QVector<double> x, y;
        for (std::size_t i = 0; i < std::min(line.x.size(), line.y.size()); ++i) {
            const double v = line.y[i];
            if (!std::isfinite(v) || (m_logY && v <= 0))
                continue; // a diverged (NaN/inf) or zero value has no place on the axis
            x.push_back(line.x[i]);
            y.push_back(v);
            xLo = std::min(xLo, line.x[i]);
            xHi = std::max(xHi, line.x[i]);
            yLo = std::min(yLo, v);
            yHi = std::max(yHi, v);
        }
        graph->setData(x, y, true);
    }
    if (!(xLo <= xHi)) {
        xLo = 0;
        xHi = 1;
        yLo = m_logY ? 0.1 : 0;
        yHi = 1;
    }
    if (xLo == xHi)
        xHi = xLo + 1;
    plot().xAxis->setRange(xLo, xHi);
    if (m_logY) {
        // Whole decades around the data, so the ticks are powers of ten.
        const double lo = std::pow(10.0, std::floor(std::log10(yLo))),
                     hi = std::pow(10.0, std::ceil(std::log10(yHi)));
        plot().yAxis->setRange(lo, hi > lo ? hi : lo * 10);
    } else {
        const double pad = yHi > yLo ? 0.05 * (yHi - yLo) : std::max(1e-12, std::abs(yHi) * 0.1);
        plot().yAxis->setRange(std::min(0.0, yLo - pad), yHi + pad);
    }
    applySeriesColors();
    queueReplot();
}

double SeriesChart::yLower() const {
    return plot().yAxis->range().lower;
}
double SeriesChart::yUpper() const {
    return plot().yAxis->range().upper;
}

void SeriesChart::applySeriesColors() {
    for (int g = 0; g < plot().graphCount() && g < static_cast<int>(m_series.size()); ++g) {
        const ChartSeries& line = m_series[static_cast<std::size_t>(g)];
        const QColor color = line.color.isValid() ? line.color : defaultColor(g);
        plot().graph(g)->setPen(QPen(color, 2, line.dashed ? Qt::DashLine : Qt::SolidLine));
    }
}
