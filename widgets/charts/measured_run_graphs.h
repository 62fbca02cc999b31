// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Internal to widgets/charts: the user's measured run as two lines over the memory timeline's predicted
// areas, allocated solid and reserved dashed, each in the legend with the run's file; hidden without a
// run. The timeline chart owns one and hands it the curve.
#include "widgets/charts/memory_timeline_data.h"

#include <QPalette>

class QCPGraph;
class QCustomPlot;

class MeasuredRunGraphs {
public:
    explicit MeasuredRunGraphs(QCustomPlot& plot);

    /// Replaces both lines (no replot: the chart queues one).
    void setCurve(const MeasuredRunCurve& curve);
    /// Colours from the palette's text, so that the lines read over the areas on light and dark themes.
    void applyColors(const QPalette& palette);
    /// The highest bytes drawn (allocated or reserved); 0 without a run.
    double top() const { return m_top; }

private:
    QCPGraph* m_allocated;
    QCPGraph* m_reserved;
    double m_top = 0;
};
