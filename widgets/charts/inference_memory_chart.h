#pragma once
// Serving memory on one GPU as a stacked bar (weights, KV cache, activations) against the GPU's
// capacity line: the inference counterpart of MemoryChart's training bar.
#include "engine/numerics/quantity_format.h"
#include "widgets/charts/chart_view.h"

#include <QString>

#include <array>

class QCPBars;
class QCPItemStraightLine;
class QCPItemText;
class QMouseEvent;

/// What the chart shows, as plain values (bytes per GPU); tests read it back through data().
struct InferenceMemoryChartData {
    struct Segment {
        QString name;
        double bytes = 0;
        QString formula;
    };
    std::array<Segment, 3> segments; ///< weights, KV cache, activations — bottom to top
    double capacityBytes = 0;
    QString gpuLabel; ///< x-axis label, e.g. "one of 4 × H100-SXM"
    bool fits = true;

    double totalBytes() const;
};

class InferenceMemoryChart : public ChartView {
    Q_OBJECT
public:
    explicit InferenceMemoryChart(QWidget* parent = nullptr);
    ~InferenceMemoryChart() override;

    /// Replaces the bar at once and queues one replot.
    void setData(const InferenceMemoryChartData& data);
    const InferenceMemoryChartData& data() const { return m_data; }

    /// Index of the segment drawn at `bytes` on the bar (0 … 2), or -1 above it; for tooltips.
    int segmentAt(double bytes) const;
    QString tooltipFor(int index) const;

protected:
    void applySeriesColors() override { rebuild(); }

private:
    void onMouseMove(QMouseEvent* event);
    void rebuild();

    std::array<QCPBars*, 3> m_bars{};
    QCPItemStraightLine* m_capacityLine = nullptr;
    QCPItemText* m_capacityLabel = nullptr;
    QCPItemText* m_verdict = nullptr;
    InferenceMemoryChartData m_data;
};
