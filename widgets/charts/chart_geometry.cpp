// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/chart_geometry.h"
#include "widgets/text/measured_text.h"

#include <QFontMetrics>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

void addGraphBoxes(const QCPGraph& graph, const QRect& clip, std::vector<QRect>& out) {
    constexpr double kStep = 4.0; // a box laid over the line meets at least one of them
    const auto box = [&](QPointF p) {
        const QRect r(qRound(p.x()) - 1, qRound(p.y()) - 1, 3, 3);
        if (clip.intersects(r))
            out.push_back(r);
    };
    QPointF previous;
    bool havePrevious = false;
    for (auto it = graph.data()->constBegin(); it != graph.data()->constEnd(); ++it) {
        if (!std::isfinite(it->key) || !std::isfinite(it->value)) {
            havePrevious = false;
            continue;
        }
        const QPointF p(graph.keyAxis()->coordToPixel(it->key), graph.valueAxis()->coordToPixel(it->value));
        if (havePrevious && graph.lineStyle() != QCPGraph::lsNone) {
            // A step line goes across at the old value first, then up or down.
            const QPointF corner =
                graph.lineStyle() == QCPGraph::lsStepLeft ? QPointF(p.x(), previous.y()) : p;
            for (const auto& [a, b] : {std::pair{previous, corner}, std::pair{corner, p}}) {
                const double length = std::hypot(b.x() - a.x(), b.y() - a.y());
                const int steps = static_cast<int>(std::ceil(length / kStep)) - 1;
                for (int k = 1; k <= steps; ++k)
                    box(a + (b - a) * (k * kStep / length));
            }
        }
        box(p);
        previous = p;
        havePrevious = true;
    }
}

void addBarBoxes(const QCPBars& bars, const QRect& clip, std::vector<QRect>& out) {
    const QCPAxis* key = bars.keyAxis();
    const QCPAxis* value = bars.valueAxis();
    const double base = value->coordToPixel(std::max(0.0, value->range().lower));
    int i = 0;
    for (auto it = bars.data()->constBegin(); it != bars.data()->constEnd(); ++it, ++i) {
        if (!std::isfinite(it->value) || it->value == 0)
            continue;
        const double top = bars.dataPixelPosition(i).y();
        const double x1 = key->coordToPixel(it->key - bars.width() / 2);
        const double x2 = key->coordToPixel(it->key + bars.width() / 2);
        const QRect r = QRectF(QPointF(x1, top), QPointF(x2, base)).normalized().toAlignedRect() & clip;
        if (!r.isEmpty())
            out.push_back(r);
    }
}

bool axisTitleCut(const QCPAxis& axis, const QSize& chart) {
    if (axis.label().isEmpty() || !axis.visible())
        return false;
    int length = 0;
    for (const QString& line : axis.label().split(QLatin1Char('\n')))
        length = std::max(length, measuredText::horizontalAdvance(axis.labelFont(), line));
    const QRect r = axis.axisRect()->rect();
    const bool vertical = axis.orientation() == Qt::Vertical;
    const double centre = vertical ? r.center().y() : r.center().x();
    const int extent = vertical ? chart.height() : chart.width();
    return centre - length / 2.0 < 0 || centre + length / 2.0 > extent;
}

QStringList crowdedTickLabels(const QCPAxis& axis, const QVector<double>& ticks,
                              const QVector<QString>& labels, double gap) {
    QStringList crowded;
    if (!axis.visible() || !axis.tickLabels())
        return crowded;
    struct Placed {
        double at;
        QSize size;
        QString text;
    };
    std::vector<Placed> placed;
    for (qsizetype i = 0; i < ticks.size() && i < labels.size(); ++i) {
        if (labels[i].isEmpty())
            continue;
        const QSize size = measuredText::boundingSize(axis.tickLabelFont(), labels[i]);
        placed.push_back({axis.coordToPixel(ticks[i]), size, labels[i]});
    }
    std::sort(placed.begin(), placed.end(), [](const Placed& a, const Placed& b) { return a.at < b.at; });
    // Labels of one axis are parallel boxes offset along the axis by the ticks' distance d. Turned by θ,
    // that offset is d·cos θ along their text and d·sin θ across it; they overlap when both are short of
    // the boxes' extents. A vertical axis stacks unturned labels: across them is its direction.
    const double theta = axis.tickLabelRotation() * std::numbers::pi / 180.0;
    const bool vertical = axis.orientation() == Qt::Vertical;
    for (std::size_t i = 1; i < placed.size(); ++i) {
        const Placed& a = placed[i - 1];
        const Placed& b = placed[i];
        const double d = b.at - a.at;
        const double along = vertical ? 0.0 : std::fabs(d * std::cos(theta));
        const double across = vertical ? d : std::fabs(d * std::sin(theta));
        // Unturned labels are centred on their ticks; turned ones end at them.
        const double alongNeeded = (theta == 0.0 ? (a.size.width() + b.size.width()) / 2.0
                                                 : std::max(a.size.width(), b.size.width())) +
                                   gap;
        const double acrossNeeded = (a.size.height() + b.size.height()) / 2.0 + gap;
        const bool overlapAlong = vertical || along < alongNeeded;
        const bool overlapAcross = (!vertical && theta == 0.0) || across < acrossNeeded;
        if (overlapAlong && overlapAcross)
            crowded << QStringLiteral("%1 / %2").arg(a.text, b.text);
    }
    return crowded;
}

QStringList crowdedTickLabels(const QCPAxis& axis) {
    return crowdedTickLabels(axis, axis.tickVector(), axis.tickVectorLabels(), -2.0);
}

namespace {

// Where each drawn tick label of a horizontal axis reaches, left and right, in pixels: QCustomPlot centres
// an unturned label on its tick; turned clockwise it starts there, counter-clockwise it ends there (the
// box's height reaching a little the other way).
template <typename Visit> void tickLabelSpans(const QCPAxis& axis, Visit visit) {
    if (!axis.visible() || !axis.tickLabels() || axis.orientation() != Qt::Horizontal)
        return;
    const double theta = axis.tickLabelRotation() * std::numbers::pi / 180.0;
    const QVector<double> ticks = axis.tickVector();
    const QVector<QString> labels = axis.tickVectorLabels();
    for (qsizetype i = 0; i < ticks.size() && i < labels.size(); ++i) {
        if (labels[i].isEmpty() || !axis.range().contains(ticks[i]))
            continue;
        const QSize size = measuredText::boundingSize(axis.tickLabelFont(), labels[i]);
        const double along = size.width() * std::cos(theta);
        const double across = size.height() * std::fabs(std::sin(theta));
        const double at = axis.coordToPixel(ticks[i]);
        if (theta == 0.0)
            visit(labels[i], at - size.width() / 2.0, at + size.width() / 2.0);
        else if (theta > 0)
            visit(labels[i], at - across / 2, at + along + across / 2);
        else
            visit(labels[i], at - along, at + across / 2);
    }
}

} // namespace

QStringList tickLabelsPastEdges(const QCPAxis& axis, int chartWidth) {
    QStringList past;
    tickLabelSpans(axis, [&](const QString& label, double left, double right) {
        if (left < 0 || right > chartWidth)
            past << label;
    });
    return past;
}

int tickLabelOverhang(const QCPAxis& axis) {
    double overhang = 0;
    const int edge = axis.axisRect()->rect().right();
    tickLabelSpans(
        axis, [&](const QString&, double, double right) { overhang = std::max(overhang, right - edge); });
    return static_cast<int>(std::ceil(overhang));
}

namespace {

// The legend's entries; its grid's empty cells (a last row not full) count as items but are null.
int legendEntries(const QCPLegend& legend) {
    int entries = 0;
    for (int i = 0; i < legend.itemCount(); ++i)
        entries += legend.item(i) ? 1 : 0;
    return entries;
}

} // namespace

int legendWidth(const QCPLegend& legend, int columns) {
    std::vector<int> widest(static_cast<std::size_t>(columns), 0);
    int placed = 0;
    for (int i = 0; i < legend.itemCount(); ++i) {
        const QCPAbstractLegendItem* item = legend.item(i);
        if (!item)
            continue;
        int& column = widest[static_cast<std::size_t>(placed++ % columns)];
        column = std::max(column, item->minimumOuterSizeHint().width());
    }
    int width = legend.margins().left() + legend.margins().right() + legend.columnSpacing() * (columns - 1);
    for (const int w : widest)
        width += w;
    return width;
}

bool fitLegendColumns(QCPLegend& legend, int most, int width) {
    const int entries = legendEntries(legend);
    int columns = std::max(1, std::min(most, entries));
    while (columns > 1 && legendWidth(legend, columns) > width)
        --columns;
    if (!legend.visible() || columns == legend.wrap())
        return false;
    legend.setWrap(columns);
    legend.setFillOrder(QCPLayoutGrid::foColumnsFirst, true); // re-wraps the entries already there
    return true;
}

int extraLegendHeight(const QCPLegend& legend, int asked) {
    const int entries = legend.visible() ? legendEntries(legend) : 0;
    const int wrap = std::max(1, legend.wrap());
    const int extraRows = (entries + wrap - 1) / wrap - (entries + asked - 1) / std::max(1, asked);
    return std::max(0, extraRows) * (QFontMetrics(legend.font()).height() + legend.rowSpacing());
}

bool legendCut(const QCPLegend& legend) {
    if (!legend.visible() || legend.itemCount() == 0)
        return false;
    return legendWidth(legend, std::max(1, legend.columnCount())) > legend.outerRect().width() + 1;
}

void fitTickRotation(QCPAxis& axis) {
    const auto ticker = axis.ticker().dynamicCast<QCPAxisTickerText>();
    if (!ticker || axis.orientation() != Qt::Horizontal || axis.axisRect()->rect().isEmpty())
        return;
    static const char* const kChosenRotation = "napkinChosenTickRotation";
    if (!axis.property(kChosenRotation).isValid())
        axis.setProperty(kChosenRotation, std::fabs(axis.tickLabelRotation()));
    const double chosen = axis.property(kChosenRotation).toDouble();
    QVector<double> ticks;
    QVector<QString> labels;
    ticker->generate(axis.range(), axis.parentPlot()->locale(), QLatin1Char('g'), axis.numberPrecision(),
                     ticks, nullptr, &labels);
    for (const double angle : {chosen, 45.0, 60.0, 90.0}) {
        if (angle < chosen)
            continue;
        // Turned counter-clockwise, a label ends at its tick (as matplotlib's rotation with ha="right"):
        // it reads as its bar's, and the last one cannot run past the chart's right edge, where
        // QCustomPlot leaves out a label it would cut ("model" vanished from the FLOP chart).
        axis.setTickLabelRotation(-angle);
        if (crowdedTickLabels(axis, ticks, labels, 2.0).isEmpty())
            return;
    }
}

void fitTickCount(QCPAxis& axis, int most) {
    const QSharedPointer<QCPAxisTicker> ticker = axis.ticker();
    if (ticker.dynamicCast<QCPAxisTickerText>()) {
        fitTickRotation(axis);
        return;
    }
    if (!ticker || axis.axisRect()->rect().isEmpty())
        return;
    const QString format = axis.numberFormat();
    const QChar formatChar = format.isEmpty() ? QLatin1Char('g') : format.at(0);
    const QFontMetrics fm(axis.tickLabelFont());
    const double gap = axis.orientation() == Qt::Vertical ? fm.height() / 2.0 : 2.0 * fm.averageCharWidth();
    for (int count = most; count >= 2; --count) {
        ticker->setTickCount(count);
        QVector<double> ticks;
        QVector<QString> labels;
        ticker->generate(axis.range(), axis.parentPlot()->locale(), formatChar, axis.numberPrecision(), ticks,
                         nullptr, &labels);
        if (crowdedTickLabels(axis, ticks, labels, gap).isEmpty())
            return;
    }
}

void standOffTheYAxis(QCPItemText& label) {
    constexpr int kGap = 6;
    QMargins padding = label.padding();
    padding.setLeft(kGap);
    label.setPadding(padding);
}
