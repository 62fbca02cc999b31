// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One GPU's training memory as a stacked bar (parameters, gradients, master weights, optimizer state,
// activations) against the GPU's capacity line, with the step's peak judged over the bar.
#include "engine/numerics/quantity_format.h"
#include "widgets/charts/stacked_bar_chart.h"

#include <QString>

#include <array>

/// What the chart shows, as plain values (bytes per GPU); tests read it back through data().
struct MemoryChartData {
    using Segment = StackedBarSegment;
    /// parameters, gradients, master weights, optimizer state, activations — bottom to top
    std::array<Segment, 5> segments;
    double capacityBytes = 0;
    QString capacityFormula;
    QString gpuLabel;            ///< x-axis label, e.g. "per H100-SXM"
    bool fits = true;            ///< the step's peak fits (not the sum: the bar is the sum)
    double peakBytes = 0;        ///< the step's peak; 0: not known, the verdict shows the sum alone
    QString peakEvent;           ///< "backward layer 96"
    double overheadBytes = 0;    ///< the counted overheads on top of the peak (memory_overheads.h); 0: none
    bool usableCapacity = false; ///< the capacity line is the usable memory, not the datasheet's

    double totalBytes() const;
    bool operator==(const MemoryChartData&) const = default;
};

class MemoryChart : public StackedBarChart {
    Q_OBJECT
public:
    explicit MemoryChart(QWidget* parent = nullptr);
    ~MemoryChart() override;

    /// Replaces all bars at once and queues one replot.
    void setData(const MemoryChartData& data);
    const MemoryChartData& data() const { return m_data; }
    /// GB (1e9) or GiB (2^30) on the axis and in tooltips.
    void setByteUnits(napkin::ByteUnits units);
    /// True when the bar is so far below the capacity that the axis zooms to the bar and the
    /// capacity line is replaced by a note.
    bool capacityOffScale() const { return m_capacityOffScale; }

private:
    void rebuild();
    /// The y axis's top before the room left for the verdict, for a bar of `total` bytes.
    double axisTop(double total) const;

    QString m_verdictText; ///< the verdict as worded; fitted to the plot's width at each replot
    MemoryChartData m_data;
    bool m_hasData = false; ///< setData() was called: an equal setData() draws nothing
    bool m_capacityOffScale = false;
};
