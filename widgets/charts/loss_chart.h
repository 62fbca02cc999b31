#pragma once
// The training loss per step (a line).
#include "widgets/charts/chart_view.h"

#include <vector>

class LossChart : public ChartView {
    Q_OBJECT
public:
    explicit LossChart(QWidget* parent = nullptr);
    ~LossChart() override;

    /// losses[i] is the loss of step i + 1; queues one replot. The step axis runs from 0 to the last step
    /// drawn, or to `plannedSteps` when more (a run still training, or none yet: the steps it will take),
    /// or to 10 when neither is known; its ticks are whole steps.
    void setLosses(const std::vector<double>& losses, long plannedSteps = 0);
    const std::vector<double>& losses() const { return m_losses; }

protected:
    void applySeriesColors() override;

private:
    std::vector<double> m_losses;
};
