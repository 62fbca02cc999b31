#pragma once
// The training loss per step (a line).
#include "widgets/charts/chart_view.h"

#include <vector>

class LossChart : public ChartView {
    Q_OBJECT
public:
    explicit LossChart(QWidget* parent = nullptr);
    ~LossChart() override;

    /// losses[i] is the loss of step i + 1; queues one replot.
    void setLosses(const std::vector<double>& losses);
    const std::vector<double>& losses() const { return m_losses; }

protected:
    void applySeriesColors() override;

private:
    std::vector<double> m_losses;
};
