#include "widgets/charts/loss_chart.h"

#include <qcustomplot.h>

#include <algorithm>

LossChart::LossChart(QWidget* parent)
    : ChartView(parent) {
    setTitle(tr("Training loss"));
    QCustomPlot* chart = &plot();
    chart->addGraph();
    chart->graph(0)->setName(tr("MSE loss"));
    chart->xAxis->setLabel(tr("step"));
    // Steps are whole: ticks at multiples of one step. The default ticker labelled the empty axis 0.5, 1,
    // 1.5, 2, 2.5.
    auto steps = QSharedPointer<QCPAxisTickerFixed>::create();
    steps->setTickStep(1);
    steps->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    chart->xAxis->setTicker(steps);
    chart->yAxis->setLabel(tr("loss (MSE, before the update)"));
    applySeriesColors();
    setLosses({});
}

LossChart::~LossChart() = default;

void LossChart::setLosses(const std::vector<double>& losses, long plannedSteps) {
    m_losses = losses;
    QCustomPlot* chart = &plot();
    QVector<double> x, y;
    for (std::size_t i = 0; i < losses.size(); ++i) {
        x.push_back(static_cast<double>(i + 1));
        y.push_back(losses[i]);
    }
    chart->graph(0)->setData(x, y, true);
    const double top = losses.empty() ? 1.0 : *std::max_element(losses.begin(), losses.end());
    constexpr double kStepsWithoutPlan = 10;
    const double last = std::max(static_cast<double>(losses.size()), static_cast<double>(plannedSteps));
    const double right = last > 0 ? last : kStepsWithoutPlan;
    // Room past the last step for its point: half a step, or 2 % of a long run.
    chart->xAxis->setRange(0, right + std::max(0.5, right * 0.02));
    chart->yAxis->setRange(0, top > 0 ? top * 1.1 : 1.0);
    queueReplot();
}

void LossChart::applySeriesColors() {
    QCustomPlot* chart = &plot();
    const QColor line(0x4c, 0x72, 0xb0);
    chart->graph(0)->setPen(QPen(line, 2));
    chart->graph(0)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, line, line, 5));
}
