// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The dynamic range of float formats on a log axis: one horizontal bar per format from its smallest
// subnormal to its largest finite value (the subnormal stretch drawn paler), and the typed value
// marked.
#include "widgets/charts/chart_view.h"

#include <QString>
#include <QVector>

#include <optional>

class DynamicRangeChart : public ChartView {
    Q_OBJECT
public:
    struct Bar {
        QString name;
        double minSubnormal = 0; ///< left end
        double minNormal = 0;    ///< where the subnormal stretch ends
        double max = 0;          ///< right end (largest finite)
    };

    explicit DynamicRangeChart(QWidget* parent = nullptr);
    ~DynamicRangeChart() override;

    /// One bar per entry, the first drawn at the top.
    void setBars(const QVector<Bar>& bars);
    QVector<Bar> bars() const { return m_bars; }
    /// Marks |value| with a vertical line; nullopt, 0, inf or NaN hide the mark (no place on a log axis).
    void setMarkedValue(std::optional<double> value);
    /// The magnitude currently marked, if any.
    std::optional<double> markedMagnitude() const { return m_marked; }

protected:
    void applySeriesColors() override { rebuild(); } // the bars are items, redrawn whole

private:
    void rebuild();

    QVector<Bar> m_bars;
    std::optional<double> m_marked;
};
