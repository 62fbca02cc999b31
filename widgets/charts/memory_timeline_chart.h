// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Memory over one training step: stacked areas per component (parameters, gradients, master weights,
// optimizer state, activations, temporaries) against the step's events, the peak marked, the GPU's
// capacity as a line (the usable memory or the datasheet's, as the memory bar draws it), and the napkin
// sum as a bar beside it for contrast. Optionally a measured total per event drawn over the prediction
// (the Benchmarks page's training run), and a run the user measured (a profiler trace, a memory snapshot)
// as allocated and reserved lines over the step's phases.
#include "engine/numerics/quantity_format.h"
#include "widgets/charts/chart_view.h"
#include "widgets/charts/memory_timeline_data.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <array>
#include <memory>

class MeasuredRunGraphs;
class PredictedReservedGraph;
class QCPBars;
class QCPGraph;
class QCPItemLine;
class QCPItemStraightLine;
class QCPItemText;
class QMouseEvent;

class MemoryTimelineChart : public ChartView {
    Q_OBJECT
public:
    /// Beyond this many events (a transformer of thousands of layers) the chart draws, of each run of
    /// neighbouring events, the one with the largest total, so that the peak is always drawn.
    static constexpr int kMostDrawn = kMostTimelineEventsDrawn;

    explicit MemoryTimelineChart(QWidget* parent = nullptr);
    ~MemoryTimelineChart() override;

    /// Replaces everything at once and queues one replot.
    void setData(const MemoryTimelineChartData& data);
    const MemoryTimelineChartData& data() const { return m_data; }
    /// GB (1e9) or GiB (2^30) on the axis and in tooltips.
    void setByteUnits(napkin::ByteUnits units);
    napkin::ByteUnits byteUnits() const { return m_units; }

    /// The events drawn, in order: every event, or `most` of them chosen as described at kMostDrawn.
    static QVector<int> eventsToDraw(const MemoryTimelineChartData& data, int most = kMostDrawn) {
        return timelineEventsToDraw(data, most);
    }
    const QVector<int>& drawnEvents() const { return m_drawn; }
    /// The event nearest plot x, or -1 off the timeline (for tooltips).
    int eventAt(double x) const;
    /// The tooltip for event `index`: its name, each component and the total (and what was measured).
    QString tooltipFor(int index) const;
    /// The peak label's text ("peak 464 B at backward layer 2"), empty without events.
    QString peakText() const;
    /// True when the capacity is so far above the peak that the axis zooms to the data and the capacity
    /// line is replaced by a note.
    bool capacityOffScale() const { return m_capacityOffScale; }

protected:
    void applySeriesColors() override;

private:
    void onMouseMove(QMouseEvent* event);
    void rebuild();
    void placeTicks(double sumX);
    void placePeak(double top);
    void placeSumLabel();
    void liftPeakOverSum();
    void keepPeakInside();
    QString bytesText(double bytes) const;

    std::array<QCPGraph*, 6> m_areas{};
    QCPGraph* m_measured = nullptr;
    std::unique_ptr<MeasuredRunGraphs> m_run;
    std::unique_ptr<PredictedReservedGraph> m_reserved;
    std::array<QCPBars*, 5> m_sumBars{};
    QCPItemStraightLine* m_capacityLine = nullptr;
    QCPItemText* m_capacityLabel = nullptr;
    QCPItemText* m_peakLabel = nullptr;
    QCPItemLine* m_peakArrow = nullptr;
    QCPItemText* m_sumLabel = nullptr;
    MemoryTimelineChartData m_data;
    bool m_hasData = false; ///< setData() was called: an equal setData() draws nothing
    QVector<int> m_drawn;
    napkin::ByteUnits m_units = napkin::ByteUnits::decimal;
    bool m_capacityOffScale = false;
    double m_sumX = 0; ///< where the sum's bar stands on the x axis
    double m_top = 0;  ///< the highest bytes drawn: the data, and the capacity when on the scale
};
