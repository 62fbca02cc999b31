// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Decode tokens per second against batch size B (log-log), from the roofline lower bound of a decode
// step: the memory-bound and compute-bound stretches in their own colours, the crossover batch and the
// largest batch that fits marked, batches that do not fit dashed, and the current B as a dot.
#include "widgets/charts/chart_view.h"

#include <QString>

#include <optional>
#include <vector>

class QCPItemText;
class QMouseEvent;

/// What the chart shows, as plain values; tests read it back through data().
struct DecodeThroughputChartData {
    struct Point {
        double batch = 0;
        double tokensPerSecond = 0;
        bool computeBound = false;
        bool fits = true;
    };
    std::vector<Point> points; ///< increasing batch
    Point current;             ///< the page's own B
    double maxBatch = 0;       ///< largest B that fits; 0: not one sequence
    std::optional<double> crossoverBatch;
    double lastBatch = 0; ///< the sweep's right end (no crossover up to here is said in the note)
};

class DecodeThroughputChart : public ChartView {
    Q_OBJECT
public:
    explicit DecodeThroughputChart(QWidget* parent = nullptr);
    ~DecodeThroughputChart() override;

    /// Replaces the curve at once and queues one replot.
    void setData(const DecodeThroughputChartData& data);
    const DecodeThroughputChartData& data() const { return m_data; }

    QString tooltipFor(const DecodeThroughputChartData::Point& point) const;
    /// The note in the plot's corner: the crossover, or why there is none (tests read it).
    QString noteText() const { return m_note; }

protected:
    void applySeriesColors() override { rebuild(); }

private:
    void onMouseMove(QMouseEvent* event);
    void rebuild();
    void addMarkers(double top);
    void leaveRoomUnderDot();

    DecodeThroughputChartData m_data;
    QString m_note;
    QCPItemText* m_here = nullptr;     ///< the setting's label, under its dot
    QCPItemText* m_noteItem = nullptr; ///< the note in the top-left corner, broken to the axes' width
    double m_lowest = 1;               ///< the axis's bottom the data alone asks for
};
