// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Serving memory on one GPU as a stacked bar (weights, KV cache, activations) against the GPU's
// capacity line: the inference counterpart of MemoryChart's training bar (both a StackedBarChart).
#include "widgets/charts/stacked_bar_chart.h"

#include <QString>

#include <array>

/// What the chart shows, as plain values (bytes per GPU); tests read it back through data().
struct InferenceMemoryChartData {
    using Segment = StackedBarSegment;
    std::array<Segment, 3> segments; ///< weights, KV cache, activations — bottom to top
    double capacityBytes = 0;
    bool usableCapacity = false; ///< the line is the usable memory (memory_overheads.h), not the datasheet's
    double overheadBytes = 0;    ///< counted overheads on top of the total; 0: none
    QString gpuLabel; ///< x-axis label, e.g. "one of 4 × H100-SXM"
    bool fits = true;

    double totalBytes() const;
};

class InferenceMemoryChart : public StackedBarChart {
    Q_OBJECT
public:
    explicit InferenceMemoryChart(QWidget* parent = nullptr);
    ~InferenceMemoryChart() override;

    /// Replaces the bar at once and queues one replot.
    void setData(const InferenceMemoryChartData& data);
    const InferenceMemoryChartData& data() const { return m_data; }

private:
    void rebuild();

    InferenceMemoryChartData m_data;
};
