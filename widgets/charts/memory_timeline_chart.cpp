// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/memory_timeline_chart.h"

#include "widgets/charts/alert_colors.h"
#include "widgets/charts/chart_geometry.h"
#include "widgets/charts/measured_run_graphs.h"
#include "widgets/charts/memory_component_colors.h"
#include "widgets/charts/predicted_reserved_graph.h"
#include "widgets/charts/unit_axis_ticker.h"

#include <QFontMetricsF>
#include <QMouseEvent>
#include <QToolTip>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace {

constexpr int kLabelEveryEventUpTo = 24; // beyond, the axis names the phases only

// "forward layer 3" → "fwd 3", "backward head" → "bwd head": the axis's labels; tooltips name events in full.
QString shortEventName(QString name) {
    name.replace(QLatin1String("forward "), QLatin1String("fwd "))
        .replace(QLatin1String("backward "), QLatin1String("bwd "))
        .replace(QLatin1String("recompute "), QLatin1String("recomp "))
        .replace(QLatin1String("layer "), QString())
        .replace(QLatin1String("optimizer step"), QLatin1String("optimizer"));
    return name;
}

} // namespace

MemoryTimelineChart::MemoryTimelineChart(QWidget* parent)
    : ChartView(parent) {
    setTitle(tr("Memory over one training step"));
    QCustomPlot* chart = &plot();
    chart->setMouseTracking(true);
    setMinimumChartSize({320, 205}); // the answers below get the height at a projector's 1280×720 (issue 52)
    chart->yAxis->setTicker(byteAxisTicker(m_units));
    chart->yAxis->setLabel(tr("memory per GPU"));
    chart->xAxis->setLabel(tr("one training step, event by event"));
    chart->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    chart->xAxis->grid()->setVisible(false);
    chart->xAxis->setSubTicks(false);

    const std::array<QString, 6> names{tr("parameters"),      tr("gradients"),   tr("master weights"),
                                       tr("optimizer state"), tr("activations"), tr("temporaries")};
    for (std::size_t k = 0; k < m_areas.size(); ++k) {
        m_areas[k] = chart->addGraph();
        m_areas[k]->setName(names[k]);
        // Each event is a block one unit wide (from i − ½ to i + ½), not a ramp between events.
        m_areas[k]->setLineStyle(QCPGraph::lsStepLeft);
        if (k > 0)
            m_areas[k]->setChannelFillGraph(m_areas[k - 1]); // stacked: fill down to the area below
    }
    m_measured = chart->addGraph();
    m_measured->setName(tr("measured (ledger)"));
    m_measured->setLineStyle(QCPGraph::lsNone); // a mark on each event's block
    m_run = std::make_unique<MeasuredRunGraphs>(*chart);
    m_reserved = std::make_unique<PredictedReservedGraph>(*chart);
    for (std::size_t k = 0; k < m_sumBars.size(); ++k) {
        m_sumBars[k] = new QCPBars(chart->xAxis, chart->yAxis);
        if (k > 0)
            m_sumBars[k]->moveAbove(m_sumBars[k - 1]);
    }
    m_capacityLine = new QCPItemStraightLine(chart);
    m_capacityLabel = new QCPItemText(chart);
    standOffTheYAxis(*m_capacityLabel);
    m_peakArrow = new QCPItemLine(chart);
    m_peakArrow->setHead(QCPLineEnding::esSpikeArrow);
    m_peakLabel = new QCPItemText(chart);
    m_peakLabel->position->setType(QCPItemPosition::ptPlotCoords);
    m_sumLabel = new QCPItemText(chart);
    m_sumLabel->position->setType(QCPItemPosition::ptPlotCoords);
    m_sumLabel->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
    setLegendBelow(true, 7);

    connect(chart, &QCustomPlot::mouseMove, this, &MemoryTimelineChart::onMouseMove);
    connect(chart, &QCustomPlot::afterLayout, this, &MemoryTimelineChart::placeSumLabel);
    // Room above the data for the peak's label and the sum's, stacked, whatever the chart's height and
    // font (presentation mode's larger type on a short chart).
    connect(chart, &QCustomPlot::beforeReplot, this, [this] {
        const double room = labelHeight(*m_peakLabel) + labelHeight(*m_sumLabel) + 12;
        const double rangeTop = topLeavingRoom(m_top, room, m_capacityOffScale ? 1.6 : 1.25);
        plot().yAxis->setRange(0, rangeTop);
        placePeak(rangeTop);
    });
    applySeriesColors();
    rebuild();
}

MemoryTimelineChart::~MemoryTimelineChart() = default;

void MemoryTimelineChart::setData(const MemoryTimelineChartData& data) {
    if (takeNewData(m_data, m_hasData, data))
        rebuild();
}

void MemoryTimelineChart::setByteUnits(napkin::ByteUnits units) {
    m_units = units;
    plot().yAxis->setTicker(byteAxisTicker(units));
    rebuild();
}

int MemoryTimelineChart::eventAt(double x) const {
    if (m_drawn.isEmpty() || x < -0.5 || x > static_cast<double>(m_data.events.size()) - 0.5)
        return -1;
    const auto after =
        std::lower_bound(m_drawn.begin(), m_drawn.end(), x, [](int e, double v) { return e < v; });
    if (after == m_drawn.begin())
        return *after;
    if (after == m_drawn.end() || x - *(after - 1) < *after - x)
        return *(after - 1);
    return *after;
}

QString MemoryTimelineChart::bytesText(double bytes) const {
    return QString::fromStdString(napkin::formatBytes(bytes, m_units));
}

QString MemoryTimelineChart::tooltipFor(int index) const {
    if (index < 0 || index >= m_data.events.size())
        return {};
    QString text =
        tr("%1 (event %2 of %3)").arg(m_data.events[index]).arg(index + 1).arg(m_data.events.size());
    for (std::size_t k = 0; k < m_areas.size(); ++k)
        if (const double b = index < m_data.bytes.size() ? m_data.bytes[index][k] : 0.0; b > 0)
            text += QStringLiteral("\n%1: %2").arg(m_areas[k]->name(), bytesText(b));
    text += tr("\ntotal: %1 (%2 B)")
                .arg(bytesText(m_data.totalAt(index)),
                     QString::fromStdString(napkin::formatExact(m_data.totalAt(index))));
    if (index < m_data.measured.size())
        text += tr("\nmeasured: %1 (%2 B)")
                    .arg(bytesText(m_data.measured[index]),
                         QString::fromStdString(napkin::formatExact(m_data.measured[index])));
    return text;
}

QString MemoryTimelineChart::peakText() const {
    const int peak = m_data.peakIndex();
    if (peak < 0)
        return {};
    const double bytes = m_data.totalAt(peak);
    // Phases alone (the step's order is not modelled): the engine takes the peak to be the sum, and the
    // answers say so; "at backward" would claim an order the chart does not know. The axis's title says
    // the order is not modelled (beside the peak it was cut in presentation type at 1024×768).
    if (!m_data.eventByEvent && bytes == m_data.sumBytes())
        return tr("peak = the sum, %1").arg(bytesText(bytes));
    return tr("peak %1 at %2").arg(bytesText(bytes), m_data.events[peak]);
}

void MemoryTimelineChart::onMouseMove(QMouseEvent* event) {
    QCustomPlot* chart = &plot();
    const int index = eventAt(chart->xAxis->pixelToCoord(event->position().x()));
    if (index < 0) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(event->globalPosition().toPoint(), tooltipFor(index), chart);
}

void MemoryTimelineChart::applySeriesColors() {
    const QColor text = palette().color(QPalette::WindowText);
    for (std::size_t k = 0; k < m_areas.size(); ++k) {
        QColor fill = kMemoryComponentColors[k];
        fill.setAlpha(210);
        m_areas[k]->setBrush(fill);
        m_areas[k]->setPen(QPen(kMemoryComponentColors[k].darker(130)));
    }
    for (std::size_t k = 0; k < m_sumBars.size(); ++k) {
        m_sumBars[k]->setBrush(kMemoryComponentColors[k]);
        m_sumBars[k]->setPen(QPen(kMemoryComponentColors[k].darker(130)));
    }
    m_measured->setPen(QPen(text, 1.5, Qt::DashLine));
    m_measured->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(text, 1.5), Qt::NoBrush, 7));
    m_run->applyColors(palette());
    m_reserved->applyColors(palette());
    m_capacityLabel->setColor(text);
    m_sumLabel->setColor(text);
    m_peakLabel->setColor(alertColor(palette())); // a lighter red on a dark palette: 4.5:1 at least
    m_peakArrow->setPen(QPen(alertColor(palette()), 1.5));
}

void MemoryTimelineChart::rebuild() {
    QCustomPlot* chart = &plot();
    const int n = static_cast<int>(m_data.events.size());
    m_drawn = eventsToDraw(m_data);
    // Blocks: a step starts at each drawn event's left edge; one more point closes the last block.
    QVector<double> x, edges, stacked(m_drawn.size(), 0.0);
    for (int e : m_drawn) {
        x.push_back(e);
        edges.push_back(e - 0.5);
    }
    if (!m_drawn.isEmpty())
        edges.push_back(m_drawn.back() + 0.5);
    for (std::size_t k = 0; k < m_areas.size(); ++k) {
        bool any = false;
        for (int j = 0; j < m_drawn.size(); ++j) {
            const int e = m_drawn[j];
            const double b = e < m_data.bytes.size() ? m_data.bytes[e][k] : 0.0;
            stacked[j] += b;
            any = any || b > 0;
        }
        QVector<double> heights = stacked;
        if (!heights.isEmpty())
            heights.push_back(heights.back());
        m_areas[k]->setData(edges, heights, true);
        m_areas[k]->removeFromLegend();
        if (any) // a component that is never held (no master weights in fp32) would only clutter the legend
            m_areas[k]->addToLegend();
    }
    QVector<double> measured;
    double top = 0;
    for (int e : m_drawn) {
        if (e < m_data.measured.size())
            measured.push_back(m_data.measured[e]);
        top = std::max({top, m_data.totalAt(e), m_data.measured.value(e)});
    }
    m_measured->setData(measured.size() == x.size() ? x : QVector<double>{}, measured, true);
    m_measured->removeFromLegend();
    if (!measured.isEmpty())
        m_measured->addToLegend();
    m_run->setCurve(m_data.run);
    top = std::max(top, m_run->top());
    m_reserved->setData(m_drawn, m_data.reserved);
    top = std::max(top, m_reserved->top());

    // The napkin sum as a bar after the step, as wide as a few events, so that the two read together.
    const double sum = m_data.sumBytes();
    const double barWidth = std::max(0.8, 0.08 * n);
    const double sumX = n + barWidth;
    for (std::size_t k = 0; k < m_sumBars.size(); ++k) {
        m_sumBars[k]->setWidth(barWidth);
        m_sumBars[k]->setData(QVector<double>{sumX}, QVector<double>{m_data.sum[k]}, true);
        m_sumBars[k]->setVisible(sum > 0);
        m_sumBars[k]->removeFromLegend();
    }
    m_sumLabel->setVisible(sum > 0);
    m_sumX = sumX;
    m_sumLabel->position->setCoords(sumX, sum);
    m_sumLabel->setText(tr("sum %1").arg(bytesText(sum)));
    top = std::max(top, sum);

    // A timeline far below the capacity (the lecture's Cruncher on an 80 GB GPU) would be a flat line at
    // full scale: zoom to the data and say where the capacity is instead of drawing it, leaving room
    // above the peak for its label in presentation mode's larger type.
    const double capacity = m_data.capacityBytes;
    m_capacityOffScale = capacity > 0 && top > 0 && top < capacity / 20;
    m_top = m_capacityOffScale ? top : std::max({top, capacity, 1.0});
    const double rangeTop = m_top * (m_capacityOffScale ? 1.6 : 1.25);
    chart->yAxis->setRange(0, rangeTop);
    chart->xAxis->setRange(-0.7, sum > 0 ? sumX + barWidth : std::max(1.0, n - 0.3));
    m_capacityLine->setVisible(capacity > 0 && !m_capacityOffScale);
    m_capacityLine->point1->setCoords(0, capacity);
    m_capacityLine->point2->setCoords(1, capacity);
    m_capacityLine->setPen(QPen(QColor(0x2e, 0x7d, 0x32), 2, Qt::DashLine));
    // Off the scale, the capacity is said under the axis rather than in the plot: at the top it ran into
    // the peak's label (the lecture tour's Cruncher, in presentation mode's larger type).
    m_capacityLabel->setVisible(capacity > 0 && !m_capacityOffScale);
    const QString capacityText = bytesText(capacity);
    // "Event by event" only where it is: a step whose order is not modelled has its phases alone.
    const QString axisTitle = m_data.eventByEvent
                                  ? tr("one training step, event by event")
                                  : tr("one training step, phase by phase (order not modelled)");
    chart->xAxis->setLabel(axisTitle);
    if (m_capacityOffScale) {
        // "× the peak" from the peak the chart marks, not from the top of the axis (the sum bar's 496 B
        // stands above the Cruncher's 464 B peak).
        const int peakIndex = m_data.peakIndex();
        const double peak = peakIndex >= 0 && m_data.totalAt(peakIndex) > 0 ? m_data.totalAt(peakIndex) : top;
        chart->xAxis->setLabel(tr("%1 — %2 %3 is off the scale: %4 × the peak")
                                   .arg(axisTitle, m_data.usableCapacity ? tr("usable") : tr("capacity"),
                                        capacityText,
                                        QString::fromStdString(napkin::formatNumber(capacity / peak))));
    } else {
        m_capacityLabel->position->setType(QCPItemPosition::ptPlotCoords);
        m_capacityLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        m_capacityLabel->position->setCoords(chart->xAxis->range().lower, capacity); // padded off the axis
        m_capacityLabel->setText(m_data.usableCapacity ? tr("usable %1").arg(capacityText)
                                                       : tr("capacity %1").arg(capacityText));
    }
    placeTicks(sumX);
    placePeak(rangeTop);
    queueReplot();
}

void MemoryTimelineChart::placeTicks(double sumX) {
    QCustomPlot* chart = &plot();
    const auto ticker = chart->xAxis->ticker().staticCast<QCPAxisTickerText>();
    ticker->clear();
    const int n = static_cast<int>(m_data.events.size());
    if (n <= kLabelEveryEventUpTo) {
        for (int i = 0; i < n; ++i)
            ticker->addTick(i, shortEventName(m_data.events[i]));
    } else { // where forward, backward and the update begin (recompute interleaves with backward)
        QString previous;
        for (int i = 0; i < n; ++i) {
            const QString phase = m_data.phases.value(i);
            if (phase == QLatin1String("recompute"))
                continue;
            if (phase != previous &&
                (phase == QLatin1String("forward") || phase == QLatin1String("backward") ||
                 phase == QLatin1String("optimizer")))
                ticker->addTick(i, phase);
            previous = phase;
        }
    }
    if (m_data.sumBytes() > 0)
        ticker->addTick(sumX, tr("sum"));
}

void MemoryTimelineChart::placePeak(double top) {
    const int peak = m_data.peakIndex();
    m_peakLabel->setVisible(peak >= 0);
    m_peakArrow->setVisible(peak >= 0);
    if (peak < 0)
        return;
    const double bytes = m_data.totalAt(peak), n = static_cast<double>(m_data.events.size());
    const double labelY = bytes + 0.1 * top;
    m_peakArrow->start->setCoords(peak, labelY);
    m_peakArrow->end->setCoords(peak, bytes);
    // Near either end the label leans inwards, so that it is not cut off by the axis.
    const double at = static_cast<double>(peak) / std::max(1.0, n - 1);
    const Qt::Alignment side = at < 0.2 ? Qt::AlignLeft : at > 0.8 ? Qt::AlignRight : Qt::AlignHCenter;
    m_peakLabel->setPositionAlignment(side | Qt::AlignBottom);
    m_peakLabel->position->setCoords(peak, labelY);
    m_peakLabel->setText(peakText());
}

// On a narrow chart the peak's label reaches the sum's, which stands at much the same height: the peak's
// then goes above it (the range leaves room for both).
void MemoryTimelineChart::liftPeakOverSum() {
    if (!m_peakLabel->visible() || !m_sumLabel->visible())
        return;
    const QCustomPlot* chart = &plot();
    const auto span = [](const QCPItemText& label, double anchor) {
        const double width = QFontMetricsF(label.font()).horizontalAdvance(label.text()) +
                             label.padding().left() + label.padding().right();
        const Qt::Alignment a = label.positionAlignment();
        const double left = a & Qt::AlignLeft    ? anchor
                            : a & Qt::AlignRight ? anchor - width
                                                 : anchor - width / 2;
        return std::pair{left, left + width};
    };
    const auto [peakLeft, peakRight] =
        span(*m_peakLabel, chart->xAxis->coordToPixel(m_peakLabel->position->coords().x()));
    const auto [sumLeft, sumRight] =
        span(*m_sumLabel, chart->xAxis->coordToPixel(m_sumLabel->position->coords().x()));
    if (peakRight + 6 < sumLeft || sumRight + 6 < peakLeft)
        return;
    const double sumTop =
        chart->yAxis->coordToPixel(m_sumLabel->position->coords().y()) - labelHeight(*m_sumLabel);
    const double peakBottom = chart->yAxis->coordToPixel(m_peakLabel->position->coords().y());
    if (peakBottom <= sumTop - 2)
        return;
    const double y = chart->yAxis->pixelToCoord(sumTop - 2);
    m_peakLabel->position->setCoords(m_peakLabel->position->coords().x(), y);
    m_peakArrow->start->setCoords(m_peakArrow->start->coords().x(), y);
}

// Once the layout knows the width (on screen, or the size of an export): the sum's label stays inside the
// chart and the peak's clears it. Event names that would overlap turn, and the legend drops columns that
// would cut its names, as on every chart (ChartView's fitting before each replot).
void MemoryTimelineChart::placeSumLabel() {
    QCustomPlot* chart = &plot();
    // The sum's label is centred on its bar unless that would cut it at the right edge.
    const double right = chart->xAxis->range().upper;
    const double room = chart->xAxis->coordToPixel(right) - chart->xAxis->coordToPixel(m_sumX);
    const bool tight = QFontMetricsF(m_sumLabel->font()).horizontalAdvance(m_sumLabel->text()) / 2 > room;
    m_sumLabel->setPositionAlignment((tight ? Qt::AlignRight : Qt::AlignHCenter) | Qt::AlignBottom);
    m_sumLabel->position->setCoords(tight ? right : m_sumX, m_sumLabel->position->coords().y());
    keepPeakInside();
    liftPeakOverSum();
}

// The peak's label slides along the axes to stay inside them, its arrow still on the peak; a label wider
// than the axes breaks before "at" (the control panel's width in presentation mode left 450 pixels).
void MemoryTimelineChart::keepPeakInside() {
    if (!m_peakLabel->visible())
        return;
    QCustomPlot* chart = &plot();
    const QRect axes = chart->axisRect()->rect();
    const QFontMetricsF fm(m_peakLabel->font());
    const double padding = m_peakLabel->padding().left() + m_peakLabel->padding().right();
    const auto widthOf = [&](const QString& text) {
        double widest = 0;
        for (const QString& line : text.split(QLatin1Char('\n')))
            widest = std::max(widest, fm.horizontalAdvance(line));
        return widest + padding;
    };
    QString text = peakText();
    if (const qsizetype at = text.indexOf(QLatin1String(" at ")); at >= 0 && widthOf(text) > axes.width() - 4)
        text[at] = QLatin1Char('\n');
    m_peakLabel->setText(text);
    const double width = widthOf(text);
    const double peakX = chart->xAxis->coordToPixel(m_data.peakIndex());
    const double lowest = axes.left() + 2.0;
    const double left = std::clamp(peakX - width / 2, lowest, std::max(lowest, axes.right() - 2.0 - width));
    m_peakLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    m_peakLabel->position->setCoords(chart->xAxis->pixelToCoord(left), m_peakLabel->position->coords().y());
}
