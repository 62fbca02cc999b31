// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/loss_chart.h"

#include "widgets/charts/series_chart.h"

#include <qcustomplot.h>

#include <algorithm>

LossChart::LossChart(QWidget* parent)
    : ChartView(parent) {
    setTitle(tr("Training loss"));
    QCustomPlot* chart = &plot();
    chart->xAxis->setLabel(tr("step"));
    // Steps are whole: ticks at multiples of one step. The default ticker labelled the empty axis 0.5, 1,
    // 1.5, 2, 2.5.
    auto steps = QSharedPointer<QCPAxisTickerFixed>::create();
    steps->setTickStep(1);
    steps->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    chart->xAxis->setTicker(steps);
    chart->yAxis->setLabel(tr("loss (MSE, before the update)"));
    setLosses({});
}

LossChart::~LossChart() = default;

const std::vector<double>& LossChart::losses() const {
    static const std::vector<double> none;
    return m_curves.empty() ? none : m_curves.front().losses;
}

void LossChart::setLosses(const std::vector<double>& losses, long plannedSteps) {
    setCurves({{tr("MSE loss"), losses, {}}}, plannedSteps);
}

void LossChart::setLegendShown(bool shown) {
    m_legendShown = shown;
    setCurves(m_curves, m_plannedSteps);
}

void LossChart::setCurves(const std::vector<LossCurve>& curves, long plannedSteps) {
    m_curves = curves;
    m_plannedSteps = plannedSteps;
    QCustomPlot* chart = &plot();
    // The graphs are kept while their number holds: a growing run redraws ten times a second.
    while (chart->graphCount() > static_cast<int>(curves.size()))
        chart->removeGraph(chart->graphCount() - 1);
    while (chart->graphCount() < static_cast<int>(curves.size()))
        chart->addGraph();
    double top = 0;
    std::size_t longest = 0;
    for (std::size_t c = 0; c < curves.size(); ++c) {
        const std::vector<double>& losses = curves[c].losses;
        QVector<double> x, y;
        for (std::size_t i = 0; i < losses.size(); ++i) {
            x.push_back(static_cast<double>(i + 1));
            y.push_back(losses[i]);
        }
        QCPGraph* graph = chart->graph(static_cast<int>(c));
        graph->setName(curves[c].name);
        graph->setData(x, y, true);
        if (!losses.empty())
            top = std::max(top, *std::max_element(losses.begin(), losses.end()));
        longest = std::max(longest, losses.size());
    }
    constexpr double kStepsWithoutPlan = 10;
    const double last = std::max(static_cast<double>(longest), static_cast<double>(plannedSteps));
    const double right = last > 0 ? last : kStepsWithoutPlan;
    // Room past the last step for its point: half a step, or 2 % of a long run.
    chart->xAxis->setRange(0, right + std::max(0.5, right * 0.02));
    chart->yAxis->setRange(0, top > 0 ? top * 1.1 : 1.0);
    // One entry per curve, as many to a row as there are recipes (four at most): the names are short.
    setLegendBelow(m_legendShown && !curves.empty(), std::clamp(static_cast<int>(curves.size()), 1, 4));
    applySeriesColors();
    queueReplot();
}

void LossChart::applySeriesColors() {
    QCustomPlot* chart = &plot();
    // Each curve's points in a shape of their own, so curves that coincide (recipes whose losses agree to
    // three digits) are told apart without colour too; and each curve wider than the one drawn over it, so
    // a curve that coincides with a later one shows as a band around it instead of vanishing under it.
    static constexpr QCPScatterStyle::ScatterShape kShapes[] = {
        QCPScatterStyle::ssDisc, QCPScatterStyle::ssSquare, QCPScatterStyle::ssTriangle,
        QCPScatterStyle::ssDiamond};
    const int count = std::min(chart->graphCount(), static_cast<int>(m_curves.size()));
    for (int g = 0; g < count; ++g) {
        // A single run keeps the blue it always had; further curves take the colour-blind-safe series
        // colours.
        QColor line = m_curves[static_cast<std::size_t>(g)].color;
        if (!line.isValid())
            line = g == 0 ? QColor(0x4c, 0x72, 0xb0) : SeriesChart::defaultColor(g);
        const int above = count - 1 - g; // curves drawn over this one
        chart->graph(g)->setPen(QPen(line, 2 + 2 * above));
        chart->graph(g)->setScatterStyle(QCPScatterStyle(kShapes[g % 4], line, line, 5 + 4 * above));
    }
}
