#include "widgets/charts/inference_memory_chart.h"

#include "widgets/charts/memory_component_colors.h"
#include "widgets/charts/unit_axis_ticker.h"

#include <QMouseEvent>
#include <QToolTip>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace {

constexpr double kBarX = 1.0;
constexpr double kBarWidth = 0.6;
const QColor kFitColor(0x2e, 0x7d, 0x32);
const QColor kOverColor(0xc0, 0x39, 0x2b);

// Weights look like the training bar's parameters and activations like its activations; the KV cache
// has no training counterpart and gets its own teal.
const std::array<QColor, 3> kColors{kMemoryComponentColors[0], QColor(0x2a, 0x9d, 0x8f),
                                    kMemoryComponentColors[4]};

QString bytesText(double bytes) {
    return QString::fromStdString(napkin::formatBytes(bytes, napkin::ByteUnits::decimal));
}

} // namespace

double InferenceMemoryChartData::totalBytes() const {
    double total = 0;
    for (const Segment& s : segments)
        total += s.bytes;
    return total;
}

InferenceMemoryChart::InferenceMemoryChart(QWidget* parent)
    : ChartView(parent) {
    setTitle(tr("Inference memory per GPU"));
    QCustomPlot* chart = &plot();
    chart->setMouseTracking(true);
    setMinimumChartSize({220, 200});
    chart->yAxis->setTicker(byteAxisTicker(napkin::ByteUnits::decimal));
    chart->yAxis->setLabel(tr("memory per GPU"));
    chart->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    chart->xAxis->setRange(0, 2);
    chart->xAxis->grid()->setVisible(false);
    chart->xAxis->setSubTicks(false);
    chart->xAxis->setTickLength(0, 0);
    setLegendBelow(true, 1); // one per line (the bar is narrow); before the bars, which join the legend
    const std::array<QString, 3> names{tr("weights"), tr("KV cache"), tr("activations")};
    for (std::size_t i = 0; i < m_bars.size(); ++i) {
        m_bars[i] = new QCPBars(chart->xAxis, chart->yAxis);
        m_bars[i]->setName(names[i]);
        m_bars[i]->setWidth(kBarWidth);
        if (i > 0)
            m_bars[i]->moveAbove(m_bars[i - 1]);
        m_data.segments[i].name = names[i];
    }
    m_capacityLine = new QCPItemStraightLine(chart);
    m_capacityLabel = new QCPItemText(chart);
    m_capacityLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    m_verdict = new QCPItemText(chart);
    m_verdict->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
    m_verdict->setTextAlignment(Qt::AlignHCenter);
    m_verdict->setClipToAxisRect(false);
    connect(chart, &QCustomPlot::mouseMove, this, &InferenceMemoryChart::onMouseMove);
    // The capacity's label and the verdict keep their room as the chart's size and font change.
    connect(chart, &QCustomPlot::beforeReplot, this, [this] {
        const double room = std::max(labelHeight(*m_capacityLabel), labelHeight(*m_verdict)) + 6;
        plot().yAxis->setRange(
            0, topLeavingRoom(std::max({m_data.totalBytes(), m_data.capacityBytes, 1.0}), room, 1.18));
    });
    rebuild();
}

InferenceMemoryChart::~InferenceMemoryChart() = default;

void InferenceMemoryChart::setData(const InferenceMemoryChartData& data) {
    m_data = data;
    rebuild();
}

int InferenceMemoryChart::segmentAt(double bytes) const {
    if (bytes < 0)
        return -1;
    double top = 0;
    for (std::size_t i = 0; i < m_data.segments.size(); ++i) {
        top += m_data.segments[i].bytes;
        if (m_data.segments[i].bytes > 0 && bytes <= top)
            return static_cast<int>(i);
    }
    return -1;
}

QString InferenceMemoryChart::tooltipFor(int index) const {
    if (index < 0 || index >= static_cast<int>(m_data.segments.size()))
        return {};
    const auto& s = m_data.segments[static_cast<std::size_t>(index)];
    return tr("%1: %2 (%3 B)\n%4")
        .arg(s.name, bytesText(s.bytes), QString::fromStdString(napkin::formatNumber(s.bytes)), s.formula);
}

void InferenceMemoryChart::onMouseMove(QMouseEvent* event) {
    QCustomPlot* chart = &plot();
    const double x = chart->xAxis->pixelToCoord(event->position().x());
    const double y = chart->yAxis->pixelToCoord(event->position().y());
    const int index = std::fabs(x - kBarX) <= kBarWidth / 2 ? segmentAt(y) : -1;
    if (index < 0)
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), tooltipFor(index), chart);
}

void InferenceMemoryChart::rebuild() {
    QCustomPlot* chart = &plot();
    const QColor verdictColor = m_data.fits ? kFitColor : kOverColor;
    for (std::size_t i = 0; i < m_bars.size(); ++i) {
        m_bars[i]->setData(QVector<double>{kBarX}, QVector<double>{m_data.segments[i].bytes}, true);
        m_bars[i]->setBrush(kColors[i]);
        m_bars[i]->setPen(m_data.fits ? QPen(kColors[i].darker(130)) : QPen(kOverColor, 2.5));
    }
    const auto xTicker = chart->xAxis->ticker().staticCast<QCPAxisTickerText>();
    xTicker->clear();
    xTicker->addTick(kBarX, m_data.gpuLabel.isEmpty() ? tr("per GPU") : m_data.gpuLabel);

    const double total = m_data.totalBytes();
    chart->yAxis->setRange(0, std::max({total, m_data.capacityBytes, 1.0}) * 1.18);
    m_capacityLine->setVisible(m_data.capacityBytes > 0);
    m_capacityLine->point1->setCoords(0, m_data.capacityBytes);
    m_capacityLine->point2->setCoords(2, m_data.capacityBytes);
    m_capacityLine->setPen(QPen(verdictColor, 2, Qt::DashLine));
    m_capacityLabel->setVisible(m_data.capacityBytes > 0);
    m_capacityLabel->setColor(palette().color(QPalette::WindowText));
    m_capacityLabel->position->setCoords(0.03, m_data.capacityBytes);
    // Two lines, as the verdict: one ran past the narrow chart's edge in presentation mode.
    m_capacityLabel->setText(tr("capacity\n%1").arg(bytesText(m_data.capacityBytes)));
    m_verdict->position->setCoords(kBarX, total);
    m_verdict->setColor(verdictColor);
    // Two lines: the bar is narrow, and a one-line verdict would run off the axes.
    m_verdict->setText(m_data.fits ? tr("%1\nfits").arg(bytesText(total))
                                   : tr("%1\ndoes not fit").arg(bytesText(total)));
    m_verdict->setVisible(total > 0);
    queueReplot();
}
