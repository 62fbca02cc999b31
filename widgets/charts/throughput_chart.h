// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Measured matmul throughput (FLOP/s) against matrix size n on a log axis, one series per dtype, with
// the device's promised peak per dtype as a dashed horizontal line.
#include "widgets/charts/chart_view.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

class QMouseEvent;

/// What the chart shows, as plain values; tests read it back through data().
struct ThroughputChartData {
    struct Point {
        double size = 0;           ///< n of the n×n×n GEMM
        double flops = 0;          ///< 2·n³
        double flopsPerSecond = 0; ///< measured (median)
        std::optional<double> mfu; ///< flopsPerSecond / promised
    };
    struct Series {
        QString dtype;             ///< "fp32", "fp64", ...
        std::vector<Point> points; ///< successful cases only, in size order
        std::optional<double> promisedFlopsPerSecond;
    };
    std::vector<Series> series;
    QString promisedBasis; ///< which peak the promise is (measured FMA loop or spec)
};

class ThroughputChart : public ChartView {
    Q_OBJECT
public:
    explicit ThroughputChart(QWidget* parent = nullptr);
    ~ThroughputChart() override;

    /// Replaces all series at once and queues one replot.
    void setData(const ThroughputChartData& data);
    const ThroughputChartData& data() const { return m_data; }

    QString tooltipFor(const ThroughputChartData::Series& series,
                       const ThroughputChartData::Point& point) const;

protected:
    void applySeriesColors() override { rebuild(); } // each series' pen is made with its graph

private:
    void onMouseMove(QMouseEvent* event);
    void rebuild();

    ThroughputChartData m_data;
};
