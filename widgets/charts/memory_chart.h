#pragma once
// One GPU's memory as a stacked bar (parameters, gradients, master weights, optimizer state,
// activations) against the GPU's capacity line.
#include "engine/numerics/quantity_format.h"
#include "widgets/charts/chart_view.h"

#include <QString>

#include <array>

class QCPBars;
class QCPItemStraightLine;
class QCPItemText;
class QMouseEvent;

/// What the chart shows, as plain values (bytes per GPU); tests read it back through data().
struct MemoryChartData {
    struct Segment {
        QString name;
        double bytes = 0;
        QString formula;
    };
    /// parameters, gradients, master weights, optimizer state, activations — bottom to top
    std::array<Segment, 5> segments;
    double capacityBytes = 0;
    QString capacityFormula;
    QString gpuLabel;     ///< x-axis label, e.g. "per H100-SXM"
    bool fits = true;     ///< the step's peak fits (not the sum: the bar is the sum)
    double peakBytes = 0; ///< the step's peak; 0: not known, the verdict shows the sum alone
    QString peakEvent;    ///< "backward layer 96"

    double totalBytes() const;
};

class MemoryChart : public ChartView {
    Q_OBJECT
public:
    explicit MemoryChart(QWidget* parent = nullptr);
    ~MemoryChart() override;

    /// Replaces all bars at once and queues one replot.
    void setData(const MemoryChartData& data);
    const MemoryChartData& data() const { return m_data; }
    /// GB (1e9) or GiB (2^30) on the axis and in tooltips.
    void setByteUnits(napkin::ByteUnits units);
    napkin::ByteUnits byteUnits() const { return m_units; }

    /// Index of the segment drawn at `bytes` on the bar (0 … 4), or -1 above the bar; for tooltips.
    int segmentAt(double bytes) const;
    /// The tooltip text for segment `index`: name, size and formula.
    QString tooltipFor(int index) const;
    /// True when the bar is so far below the capacity that the axis zooms to the bar and the
    /// capacity line is replaced by a note.
    bool capacityOffScale() const { return m_capacityOffScale; }

protected:
    void applySeriesColors() override;

private:
    void onMouseMove(QMouseEvent* event);
    void rebuild();

    std::array<QCPBars*, 5> m_bars{};
    QCPItemStraightLine* m_capacityLine = nullptr;
    QCPItemText* m_capacityLabel = nullptr;
    QCPItemText* m_verdict = nullptr;
    QString m_verdictText; ///< the verdict as worded; fitted to the plot's width at each replot
    MemoryChartData m_data;
    napkin::ByteUnits m_units = napkin::ByteUnits::decimal;
    bool m_capacityOffScale = false;
};
