// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Several named lines on one plot, with a legend and an optional log y axis (activation std per
// layer, loss curves of several runs).
#include "widgets/charts/chart_view.h"

#include <QColor>
#include <QString>

#include <vector>

struct ChartSeries {
    QString name;
    std::vector<double> x, y; ///< equal lengths; non-positive or non-finite y are left out on a log axis
    QColor color;             ///< invalid: the chart's own colour for this index
    bool dashed = false;
};

class SeriesChart : public ChartView {
    Q_OBJECT
public:
    explicit SeriesChart(QWidget* parent = nullptr);
    ~SeriesChart() override;

    void setAxisLabels(const QString& x, const QString& y);
    /// A log₁₀ y axis (powers of ten as ticks); the y range then spans the positive values only.
    void setLogY(bool logY);
    /// Where the legend sits inside the plot (default top left).
    void setLegendCorner(Qt::Alignment corner);
    void setLegendVisible(bool visible);
    /// Replaces every line; fits the axes; queues one replot.
    void setSeries(const std::vector<ChartSeries>& series);
    const std::vector<ChartSeries>& series() const { return m_series; }
    /// The y range shown after the last setSeries (for tests).
    double yLower() const;
    double yUpper() const;

    /// The colours lines get when ChartSeries::color is invalid (colour-blind safe, after Okabe & Ito).
    static QColor defaultColor(int index);

protected:
    void applySeriesColors() override;

private:
    std::vector<ChartSeries> m_series;
    bool m_logY = false;
};
