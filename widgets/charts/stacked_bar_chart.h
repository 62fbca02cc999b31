// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One GPU's memory as a bar of stacked segments against the GPU's capacity line, with a verdict over the
// bar: what the training bar (MemoryChart) and the serving bar (InferenceMemoryChart) share, once. Each
// of them names its segments and colours, words its verdict and places its capacity note.
#include "engine/numerics/quantity_format.h"
#include "widgets/charts/chart_view.h"

#include <QColor>
#include <QString>

#include <span>
#include <vector>

class QCPBars;
class QCPItemStraightLine;
class QCPItemText;
class QMouseEvent;

/// One segment of the bar: its name, its bytes per GPU and the formula its tooltip shows.
struct StackedBarSegment {
    QString name;
    double bytes = 0;
    QString formula;
    bool operator==(const StackedBarSegment&) const = default;
};

class StackedBarChart : public ChartView {
    Q_OBJECT
public:
    ~StackedBarChart() override;

    /// Index of the segment drawn at `bytes` on the bar (0 at the bottom), or -1 above it; for tooltips.
    int segmentAt(double bytes) const;
    /// The tooltip text for segment `index`: name, size and formula.
    QString tooltipFor(int index) const;
    napkin::ByteUnits byteUnits() const { return m_units; }

protected:
    /// The segments' names, bottom to top, and as many colours.
    StackedBarChart(const std::vector<QString>& names, std::vector<QColor> colors, QWidget* parent);

    /// The bar as `segments` (bottom to top; a zero one leaves the legend) over `gpuLabel`, outlined in red
    /// when it does not fit.
    void setBar(std::span<const StackedBarSegment> segments, const QString& gpuLabel, bool fits);
    /// GB (1e9) or GiB (2^30) on the axis and in the tooltips.
    void setUnits(napkin::ByteUnits units);
    QString bytesText(double bytes) const;
    /// The capacity as a dashed line across the axes in the verdict's colour, or hidden.
    void drawCapacityLine(double capacityBytes, bool shown, bool fits);
    /// Green when the bar fits, red when not: the capacity line, the verdict and a bar that does not fit;
    /// lighter on a dark palette, so that the verdict keeps WCAG AA's 4.5:1 on its background (dark green
    /// on a projector's black was about 4:1).
    QColor verdictColor(bool fits) const;
    /// Puts the verdict over the bar's top (`barTop` bytes) in the axes as they are now, or higher where
    /// the capacity line would strike it through or it would cover the capacity's label: above the line,
    /// and above the label when they share its columns. Whether it rose; the axis then needs the label's
    /// height more room above (call again after widening the range).
    bool placeVerdict(double barTop);
    /// The bar (its top at `barTop` bytes) as wide as it may be while the capacity's label, left of it and
    /// above the line, keeps clear of it in the axes as last laid out: a bar that does not fit, on a narrow
    /// chart in presentation mode's type, ran under "capacity 80 GB". Full width when it stays below.
    void narrowBarBesideCapacityLabel(double barTop);

    void applySeriesColors() override;
    QCPItemText* capacityLabel() const { return m_capacityLabel; }
    QCPItemText* verdict() const { return m_verdict; }

    static constexpr double kBarX = 1.0;

private:
    void onMouseMove(QMouseEvent* event);

    std::vector<QCPBars*> m_bars;
    std::vector<QColor> m_colors;
    std::vector<StackedBarSegment> m_segments;
    bool m_fits = true;
    bool m_capacityShown = false;
    QCPItemStraightLine* m_capacityLine = nullptr;
    QCPItemText* m_capacityLabel = nullptr;
    QCPItemText* m_verdict = nullptr;
    napkin::ByteUnits m_units = napkin::ByteUnits::decimal;
};
