#include "widgets/charts/flop_chart.h"
#include "widgets/charts/plot_palette.h"

#include "engine/numerics/quantity_format.h"

#include <QEvent>
#include <QMouseEvent>
#include <QToolTip>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace {

constexpr double kBarWidth = 0.7;

// Tick labels as "1.2 PFLOPs" with steps that are round in the shown SI unit.
class FlopAxisTicker : public QCPAxisTicker {
protected:
    static double unitFor(double flops) {
        double unit = 1;
        while (flops / unit >= 1000.0 && unit < 1e18)
            unit *= 1000.0;
        return unit;
    }
    double getTickStep(const QCPRange& range) override {
        const double unit = unitFor(std::max(std::fabs(range.upper), std::fabs(range.lower)));
        return QCPAxisTicker::getTickStep(QCPRange(range.lower / unit, range.upper / unit)) * unit;
    }
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        if (std::fabs(tick) < 1e-9)
            return QStringLiteral("0");
        return QString::fromStdString(napkin::formatFlops(tick));
    }
};

const QColor kPhaseColor(0x4c, 0x72, 0xb0);
const QColor kComponentColor(0xdd, 0x84, 0x52);

} // namespace

FlopChart::FlopChart(QWidget* parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setMouseTracking(true);
    m_plot->setMinimumSize(240, 200);
    m_plot->yAxis->setTicker(QSharedPointer<FlopAxisTicker>::create());
    m_plot->yAxis->setLabel(tr("FLOPs per step (per GPU)"));
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    m_plot->xAxis->grid()->setVisible(false);
    m_plot->xAxis->setSubTicks(false);
    m_plot->xAxis->setTickLength(0, 0);
    m_plot->xAxis->setTickLabelRotation(30);

    m_phaseBars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    m_phaseBars->setName(tr("step: forward, backward, recompute"));
    m_phaseBars->setWidth(kBarWidth);
    m_componentBars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    m_componentBars->setName(tr("forward, by component"));
    m_componentBars->setWidth(kBarWidth);
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);

    connect(m_plot, &QCustomPlot::mouseMove, this, &FlopChart::onMouseMove);
    connect(m_plot, &QCustomPlot::afterReplot, this, &FlopChart::replotted);
    applyColors();
    rebuild();
}

FlopChart::~FlopChart() = default;

void FlopChart::setData(const FlopChartData& data) {
    m_data = data;
    rebuild();
}

// Phases sit at x = 1, 2, 3; a gap; then components from x = phases + 2.
double FlopChart::componentX(std::size_t index) const {
    return static_cast<double>(m_data.phases.size() + 2 + index);
}

const FlopChartData::Bar* FlopChart::barAt(double x) const {
    const long nearest = std::lround(x);
    if (std::fabs(x - static_cast<double>(nearest)) > kBarWidth / 2)
        return nullptr;
    const long phases = static_cast<long>(m_data.phases.size());
    if (nearest >= 1 && nearest <= phases)
        return &m_data.phases[static_cast<std::size_t>(nearest - 1)];
    const long component = nearest - (phases + 2);
    if (component >= 0 && component < static_cast<long>(m_data.components.size()))
        return &m_data.components[static_cast<std::size_t>(component)];
    return nullptr;
}

QString FlopChart::tooltipFor(const FlopChartData::Bar& bar) const {
    return tr("%1: %2\n%3").arg(bar.label, QString::fromStdString(napkin::formatFlops(bar.flops)), bar.formula);
}

QStringList FlopChart::tickLabels() const { return m_plot->yAxis->tickVectorLabels(); }

QPixmap FlopChart::render(int width, int height, double scale) { return m_plot->toPixmap(width, height, scale); }

double FlopChart::averageReplotMs() const { return m_plot->replotTime(true); }

void FlopChart::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange) {
        applyColors();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
    QWidget::changeEvent(event);
}

void FlopChart::onMouseMove(QMouseEvent* event) {
    const double x = m_plot->xAxis->pixelToCoord(event->position().x());
    const double y = m_plot->yAxis->pixelToCoord(event->position().y());
    const FlopChartData::Bar* bar = barAt(x);
    if (!bar || y < 0 || y > bar->flops) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(event->globalPosition().toPoint(), tooltipFor(*bar), m_plot);
}

void FlopChart::applyColors() {
    const QPalette& p = palette();
    applyPaletteToPlot(*m_plot, p);
    m_phaseBars->setBrush(kPhaseColor);
    m_phaseBars->setPen(QPen(kPhaseColor.darker(130)));
    m_componentBars->setBrush(kComponentColor);
    m_componentBars->setPen(QPen(kComponentColor.darker(130)));
}

void FlopChart::rebuild() {
    QVector<double> px, py, cx, cy;
    const auto ticker = m_plot->xAxis->ticker().staticCast<QCPAxisTickerText>();
    ticker->clear();
    double top = 1;
    for (std::size_t i = 0; i < m_data.phases.size(); ++i) {
        px.push_back(static_cast<double>(i + 1));
        py.push_back(m_data.phases[i].flops);
        ticker->addTick(px.back(), m_data.phases[i].label);
        top = std::max(top, m_data.phases[i].flops);
    }
    // Many layers (a 96-layer Cruncher) would crowd the axis: label every k-th component.
    const std::size_t stride = std::max<std::size_t>(1, m_data.components.size() / 16);
    for (std::size_t i = 0; i < m_data.components.size(); ++i) {
        cx.push_back(componentX(i));
        cy.push_back(m_data.components[i].flops);
        if (i % stride == 0)
            ticker->addTick(cx.back(), m_data.components[i].label);
        top = std::max(top, m_data.components[i].flops);
    }
    m_phaseBars->setData(px, py, true);
    m_componentBars->setData(cx, cy, true);
    m_plot->xAxis->setRange(0.3, componentX(m_data.components.size()) - 0.3);
    m_plot->yAxis->setRange(0, top * 1.25);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}
