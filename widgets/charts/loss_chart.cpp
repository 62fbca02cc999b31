#include "widgets/charts/loss_chart.h"
#include "widgets/charts/plot_palette.h"

#include <QEvent>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <algorithm>

LossChart::LossChart(QWidget* parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setMinimumSize(240, 180);
    m_plot->addGraph();
    m_plot->graph(0)->setName(tr("MSE loss"));
    m_plot->xAxis->setLabel(tr("step"));
    m_plot->yAxis->setLabel(tr("loss (MSE, before the update)"));
    applyColors();
    setLosses({});
}

LossChart::~LossChart() = default;

void LossChart::setLosses(const std::vector<double>& losses) {
    m_losses = losses;
    QVector<double> x, y;
    for (std::size_t i = 0; i < losses.size(); ++i) {
        x.push_back(static_cast<double>(i + 1));
        y.push_back(losses[i]);
    }
    m_plot->graph(0)->setData(x, y, true);
    const double top = losses.empty() ? 1.0 : *std::max_element(losses.begin(), losses.end());
    m_plot->xAxis->setRange(0.5, std::max<double>(2, static_cast<double>(losses.size())) + 0.5);
    m_plot->yAxis->setRange(0, top > 0 ? top * 1.1 : 1.0);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QPixmap LossChart::render(int width, int height, double scale) { return m_plot->toPixmap(width, height, scale); }

void LossChart::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange) {
        applyColors();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
    QWidget::changeEvent(event);
}

void LossChart::applyColors() {
    const QPalette& p = palette();
    applyPaletteToPlot(*m_plot, p);
    const QColor line(0x4c, 0x72, 0xb0);
    m_plot->graph(0)->setPen(QPen(line, 2));
    m_plot->graph(0)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, line, line, 5));
}
