// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// FLOPs of one training step: forward / backward / recompute bars, then the forward FLOPs of each
// component (attention, MLP, head for transformers; each layer for Cruncher).
#include "widgets/charts/chart_view.h"

#include <QString>

#include <vector>

class QCPBars;
class QMouseEvent;

/// What the chart shows, as plain values; tests read it back through data().
struct FlopChartData {
    struct Bar {
        QString label;
        double flops = 0;
        QString formula;
        bool operator==(const Bar&) const = default;
    };
    std::vector<Bar> phases;     ///< forward, backward, recompute (per step, per GPU)
    std::vector<Bar> components; ///< forward FLOPs by component; they sum to the forward bar
    bool operator==(const FlopChartData&) const = default;
};

class FlopChart : public ChartView {
    Q_OBJECT
public:
    explicit FlopChart(QWidget* parent = nullptr);
    ~FlopChart() override;

    /// Replaces all bars at once and queues one replot.
    void setData(const FlopChartData& data);
    const FlopChartData& data() const { return m_data; }

    /// The bar at x-axis position `x` (phases first, then components), or nullptr; for tooltips.
    const FlopChartData::Bar* barAt(double x) const;
    QString tooltipFor(const FlopChartData::Bar& bar) const;

protected:
    void applySeriesColors() override;

private:
    void onMouseMove(QMouseEvent* event);
    void rebuild();
    double componentX(std::size_t index) const;

    QCPBars* m_phaseBars = nullptr;
    QCPBars* m_componentBars = nullptr;
    FlopChartData m_data;
    bool m_hasData = false; ///< setData() was called: an equal setData() draws nothing
};
