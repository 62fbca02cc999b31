// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Internal to widgets/charts: the reserved memory the simulated caching allocator predicts, as a stepped
// line over the memory timeline's allocated areas, event by event, named in the legend; what nvidia-smi
// follows (plus the CUDA context), where the areas are what torch.cuda.memory_allocated() reports. Hidden
// where the chart has no simulated figure. The timeline chart owns one.
#include <QPalette>
#include <QVector>

class QCPGraph;
class QCustomPlot;

class PredictedReservedGraph {
public:
    explicit PredictedReservedGraph(QCustomPlot& plot);

    /// `reserved[e]` over each drawn event e's block (e − ½ … e + ½), as the areas are drawn; empty or of
    /// another length: hidden. No replot.
    void setData(const QVector<int>& drawn, const QVector<double>& reserved);
    void applyColors(const QPalette& palette);
    /// The highest bytes drawn; 0 when hidden.
    double top() const { return m_top; }

private:
    QCPGraph* m_graph;
    double m_top = 0;
};
