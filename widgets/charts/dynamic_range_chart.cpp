#include "widgets/charts/dynamic_range_chart.h"

#include <qcustomplot.h>

#include <QEvent>
#include <QVBoxLayout>

#include <cmath>

namespace {
const QColor kBarColour(0x29, 0x80, 0xb9);
const QColor kMarkColour(0xc0, 0x39, 0x2b);
} // namespace

DynamicRangeChart::DynamicRangeChart(QWidget* parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
    ticker->setLogBase(10);
    ticker->setSubTickCount(0);
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setNumberFormat(QStringLiteral("eb"));
    m_plot->xAxis->setNumberPrecision(0);
    m_plot->xAxis->setLabel(
        tr("magnitude (log scale): smallest subnormal … largest finite; paler = subnormal"));
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    m_plot->setMinimumHeight(180);
    rebuild();
}

DynamicRangeChart::~DynamicRangeChart() = default;

void DynamicRangeChart::setBars(const QVector<Bar>& bars) {
    m_bars = bars;
    rebuild();
}

void DynamicRangeChart::setMarkedValue(std::optional<double> value) {
    if (value && std::isfinite(*value) && *value != 0.0)
        m_marked = std::fabs(*value);
    else
        m_marked.reset();
    rebuild();
}

void DynamicRangeChart::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        rebuild();
}

// Everything is redrawn from m_bars and m_marked: a handful of items, cheap, and never stale.
void DynamicRangeChart::rebuild() {
    m_plot->clearGraphs();
    m_plot->clearItems();
    const QColor text = palette().color(QPalette::WindowText);
    m_plot->setBackground(palette().brush(QPalette::Base));
    for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis}) {
        axis->setBasePen(QPen(text));
        axis->setTickPen(QPen(text));
        axis->setTickLabelColor(text);
        axis->setLabelColor(text);
    }
    auto ticker = m_plot->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    ticker->clear();
    double lo = 1e-2, hi = 1e2;
    const int n = int(m_bars.size());
    for (int i = 0; i < n; ++i) {
        const Bar& bar = m_bars[i];
        const double y = n - 1 - i; // first bar on top
        ticker->addTick(y, bar.name);
        auto* subnormal = new QCPItemRect(m_plot);
        subnormal->topLeft->setCoords(bar.minSubnormal, y + 0.3);
        subnormal->bottomRight->setCoords(bar.minNormal, y - 0.3);
        QColor pale = kBarColour;
        pale.setAlpha(70);
        subnormal->setPen(Qt::NoPen);
        subnormal->setBrush(pale);
        auto* normal = new QCPItemRect(m_plot);
        normal->topLeft->setCoords(bar.minNormal, y + 0.3);
        normal->bottomRight->setCoords(bar.max, y - 0.3);
        normal->setPen(Qt::NoPen);
        normal->setBrush(kBarColour);
        lo = i == 0 ? bar.minSubnormal : std::min(lo, bar.minSubnormal);
        hi = i == 0 ? bar.max : std::max(hi, bar.max);
    }
    if (m_marked) {
        auto* mark = new QCPItemStraightLine(m_plot);
        mark->point1->setCoords(*m_marked, 0);
        mark->point2->setCoords(*m_marked, 1);
        mark->setPen(QPen(kMarkColour, 2));
        auto* label = new QCPItemText(m_plot);
        label->position->setCoords(*m_marked, n - 0.5);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        label->setText(QStringLiteral(" %1").arg(*m_marked, 0, 'g', 6));
        label->setColor(kMarkColour);
        label->setClipToAxisRect(false);
        lo = std::min(lo, *m_marked);
        hi = std::max(hi, *m_marked);
    }
    m_plot->xAxis->setRange(lo / 10, hi * 10);
    m_plot->yAxis->setRange(-0.7, std::max(n, 1) - 0.3 + 0.4);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}
