// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The training loss per step: one run's line, or several runs' on one axis (the recipes of one setup side
// by side), each named in the legend.
#include "widgets/charts/chart_view.h"

#include <QColor>
#include <QString>

#include <vector>

/// One run's losses: losses[i] is the loss of step i + 1.
struct LossCurve {
    QString name;
    std::vector<double> losses;
    QColor color; ///< invalid: the chart's own colour for this curve's place
};

class LossChart : public ChartView {
    Q_OBJECT
public:
    explicit LossChart(QWidget* parent = nullptr);
    ~LossChart() override;

    /// One run's curve; queues one replot. The step axis runs from 0 to the last step drawn, or to
    /// `plannedSteps` when more (a run still training, or none yet: the steps it will take), or to 10 when
    /// neither is known; its ticks are whole steps.
    void setLosses(const std::vector<double>& losses, long plannedSteps = 0);
    /// Several runs' curves on the same axes (as setLosses, the step axis to the longest or `plannedSteps`),
    /// each a line of its own, each wider than the next: a curve that follows an earlier one step for step
    /// (recipes whose losses agree) is drawn inside it and hides it not; queues one replot.
    void setCurves(const std::vector<LossCurve>& curves, long plannedSteps = 0);
    /// The legend under the plot, naming each curve (off: a single run's chart needs none); hidden while
    /// there is no curve.
    void setLegendShown(bool shown);

    /// The first curve's losses (empty when none).
    const std::vector<double>& losses() const;
    const std::vector<LossCurve>& curves() const { return m_curves; }

protected:
    void applySeriesColors() override;

private:
    std::vector<LossCurve> m_curves;
    long m_plannedSteps = 0;
    bool m_legendShown = false;
};
