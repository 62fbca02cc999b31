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
    chart->yAxis->setLabel(tr("loss (MSE, before the update)"));
    applySeriesColors();
    setLosses({});
}

LossChart::~LossChart() = default;

void LossChart::setLosses(const std::vector<double>& losses) {
    m_losses = losses;
    QCustomPlot* chart = &plot();
    QVector<double> x, y;
    for (std::size_t i = 0; i < losses.size(); ++i) {
        x.push_back(static_cast<double>(i + 1));
        y.push_back(losses[i]);
    }
    chart->graph(0)->setData(x, y, true);
    const double top = losses.empty() ? 1.0 : *std::max_element(losses.begin(), losses.end());
    chart->xAxis->setRange(0.5, std::max<double>(2, static_cast<double>(losses.size())) + 0.5);
    chart->yAxis->setRange(0, top > 0 ? top * 1.1 : 1.0);
    queueReplot();
}

void LossChart::applySeriesColors() {
    QCustomPlot* chart = &plot();
    const QColor line(0x4c, 0x72, 0xb0);
    chart->graph(0)->setPen(QPen(line, 2));
    chart->graph(0)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, line, line, 5));
}
