// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/stacked_bar_chart.h"

#include "widgets/charts/alert_colors.h"
#include "widgets/charts/chart_geometry.h"
#include "widgets/charts/unit_axis_ticker.h"

#include <QFontMetricsF>
#include <QMouseEvent>
#include <QToolTip>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <utility>

namespace {

constexpr double kBarWidth = 0.6;

} // namespace

StackedBarChart::StackedBarChart(const std::vector<QString>& names, std::vector<QColor> colors,
                                 QWidget* parent)
    : ChartView(parent)
    , m_colors(std::move(colors)) {
    QCustomPlot* chart = &plot();
    chart->setMouseTracking(true);
    chart->yAxis->setTicker(byteAxisTicker(m_units));
    chart->yAxis->setLabel(tr("memory per GPU"));
    chart->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    chart->xAxis->setRange(0, 2);
    chart->xAxis->grid()->setVisible(false);
    chart->xAxis->setSubTicks(false);
    chart->xAxis->setTickLength(0, 0);
    for (const QString& name : names) {
        auto* bars = new QCPBars(chart->xAxis, chart->yAxis);
        bars->setName(name);
        bars->setWidth(kBarWidth);
        if (!m_bars.empty())
            bars->moveAbove(m_bars.back());
        m_bars.push_back(bars);
        m_segments.push_back({name, 0, {}});
    }
    // The label before the line, so that the line draws over the label's paper (its box ends on the line).
    m_capacityLabel = new QCPItemText(chart);
    m_capacityLine = new QCPItemStraightLine(chart);
    m_capacityLabel->position->setType(QCPItemPosition::ptPlotCoords);
    m_capacityLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    standOffTheYAxis(*m_capacityLabel);
    m_verdict = new QCPItemText(chart);
    m_verdict->position->setType(QCPItemPosition::ptPlotCoords);
    m_verdict->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
    connect(chart, &QCustomPlot::mouseMove, this, &StackedBarChart::onMouseMove);
}

StackedBarChart::~StackedBarChart() = default;

void StackedBarChart::setBar(std::span<const StackedBarSegment> segments, const QString& gpuLabel,
                             bool fits) {
    m_segments.assign(segments.begin(), segments.end());
    m_fits = fits;
    for (std::size_t i = 0; i < m_bars.size(); ++i) {
        const double bytes = i < m_segments.size() ? m_segments[i].bytes : 0;
        m_bars[i]->setData(QVector<double>{kBarX}, QVector<double>{bytes}, true);
        // A zero segment (no master weights under fp32) would only clutter the legend.
        m_bars[i]->removeFromLegend();
        if (bytes > 0)
            m_bars[i]->addToLegend();
    }
    const auto ticker = plot().xAxis->ticker().staticCast<QCPAxisTickerText>();
    ticker->clear();
    ticker->addTick(kBarX, gpuLabel.isEmpty() ? tr("per GPU") : gpuLabel);
    applySeriesColors();
}

void StackedBarChart::setUnits(napkin::ByteUnits units) {
    m_units = units;
    plot().yAxis->setTicker(byteAxisTicker(units));
}

QString StackedBarChart::bytesText(double bytes) const {
    return QString::fromStdString(napkin::formatBytes(bytes, m_units));
}

QColor StackedBarChart::verdictColor(bool fits) const {
    return fits ? okColor(palette()) : alertColor(palette());
}

void StackedBarChart::drawCapacityLine(double capacityBytes, bool shown, bool fits) {
    m_capacityShown = shown;
    m_capacityLine->setVisible(shown);
    m_capacityLine->point1->setCoords(0, capacityBytes);
    m_capacityLine->point2->setCoords(2, capacityBytes);
    m_capacityLine->setPen(QPen(verdictColor(fits), 2, Qt::DashLine));
}

namespace {

QRectF boxOf(const QCPItemText& text) {
    return QRectF(text.topLeft->pixelPosition(), text.bottomRight->pixelPosition()).normalized();
}

} // namespace

void StackedBarChart::narrowBarBesideCapacityLabel(double barTop) {
    const double pixelsPerUnit = plot().axisRect()->width() / plot().xAxis->range().size();
    double width = kBarWidth;
    if (pixelsPerUnit > 0 && m_capacityLabel->visible() && !m_capacityLabel->text().isEmpty() &&
        barTop > m_capacityLabel->position->coords().y()) {
        const QFontMetricsF metrics(m_capacityLabel->font());
        double text = 0;
        for (const QString& line : m_capacityLabel->text().split(QLatin1Char('\n')))
            text = std::max(text, metrics.horizontalAdvance(line));
        const QMargins pad = m_capacityLabel->padding();
        const double labelRight =
            m_capacityLabel->position->coords().x() + (text + pad.left() + pad.right() + 4) / pixelsPerUnit;
        // No narrower than a quarter: a label that wide is better over the bar than the bar a hairline.
        width = std::clamp(2 * (kBarX - labelRight), 0.25, kBarWidth);
    }
    for (QCPBars* bars : m_bars)
        bars->setWidth(width);
}

bool StackedBarChart::placeVerdict(double barTop) {
    narrowBarBesideCapacityLabel(barTop);
    m_verdict->position->setCoords(kBarX, barTop);
    if (!m_capacityShown || !m_verdict->visible())
        return false;
    const double linePx = plot().yAxis->coordToPixel(m_capacityLine->point1->coords().y());
    const QRectF verdict = boxOf(*m_verdict);
    const bool struck = verdict.top() - 1 < linePx && linePx < verdict.bottom() + 1;
    const bool labelShown = m_capacityLabel->visible() && !m_capacityLabel->text().isEmpty();
    const QRectF label = labelShown ? boxOf(*m_capacityLabel) : QRectF();
    const bool sameColumns = labelShown && verdict.left() < label.right() && label.left() < verdict.right();
    if (!struck && !(sameColumns && verdict.intersects(label)))
        return false;
    // Its bottom above the line, or above the label where the two share columns.
    const double bottom = (sameColumns ? std::min(label.top(), linePx) : linePx) - 2;
    if (bottom >= verdict.bottom())
        return false;
    m_verdict->position->setCoords(
        kBarX,
        plot().yAxis->pixelToCoord(bottom - (verdict.bottom() - m_verdict->position->pixelPosition().y())));
    return true;
}

// Not fitting is marked on the bar itself: a red outline (and the verdict above it, the subclass's).
void StackedBarChart::applySeriesColors() {
    m_capacityLabel->setColor(palette().color(QPalette::WindowText));
    // On the plot's paper: a grid line passes behind the text, not through it (the dark screenshot's
    // 25 GB line struck "+ overheads 69.21 MB — fits").
    m_capacityLabel->setBrush(palette().brush(QPalette::Base));
    m_verdict->setBrush(palette().brush(QPalette::Base));
    // The verdict's colours follow the palette (a dark one gets lighter green and red).
    m_verdict->setColor(verdictColor(m_fits));
    QPen line = m_capacityLine->pen();
    line.setColor(verdictColor(m_fits));
    m_capacityLine->setPen(line);
    for (std::size_t i = 0; i < m_bars.size() && i < m_colors.size(); ++i) {
        m_bars[i]->setBrush(m_colors[i]);
        m_bars[i]->setPen(m_fits ? QPen(m_colors[i].darker(130)) : QPen(verdictColor(false), 2.5));
    }
}

int StackedBarChart::segmentAt(double bytes) const {
    if (bytes < 0)
        return -1;
    double top = 0;
    for (std::size_t i = 0; i < m_segments.size(); ++i) {
        top += m_segments[i].bytes;
        if (m_segments[i].bytes > 0 && bytes <= top)
            return static_cast<int>(i);
    }
    return -1;
}

QString StackedBarChart::tooltipFor(int index) const {
    if (index < 0 || index >= static_cast<int>(m_segments.size()))
        return {};
    const StackedBarSegment& s = m_segments[static_cast<std::size_t>(index)];
    // The exact bytes beside the rounded size, for checking by hand ("1.074 GB (1073741824 B)").
    return tr("%1: %2 (%3 B)\n%4")
        .arg(s.name, bytesText(s.bytes), QString::fromStdString(napkin::formatExact(s.bytes)), s.formula);
}

void StackedBarChart::onMouseMove(QMouseEvent* event) {
    QCustomPlot* chart = &plot();
    const double x = chart->xAxis->pixelToCoord(event->position().x());
    const double y = chart->yAxis->pixelToCoord(event->position().y());
    const int index = std::fabs(x - kBarX) <= kBarWidth / 2 ? segmentAt(y) : -1;
    if (index < 0)
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), tooltipFor(index), chart);
}
