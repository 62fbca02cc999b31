// SPDX-License-Identifier: GPL-3.0-or-later
// RooflineChart's label placement: where each point's name goes so that none piles on another, on the roof's
// line or off the axes (roofline_chart.cpp draws the roof and the points).
#include "widgets/charts/roofline_chart.h"
#include "widgets/charts/roofline_colors.h"

#include <QApplication>
#include <QFontMetricsF>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

// Each label goes where it overlaps no label placed before it: right of its point, then under, over,
// left-under, left-over, left. Overlap is judged on the plot's log axes at the size the axes were last
// laid out (or the chart's size less the usual margins before the first layout; replotted() places them
// again when the axes came out another size), with the label's text size in the drawn font. The roof's own
// texts and the markers are taken first. A label that finds no free spot is left out rather than piled on
// another (the point and its hover text stay): a sweep of thirty GEMMs piled its labels into an unreadable
// heap (issue 35). An error's label and the model's points are always drawn, first.
void RooflineChart::placeLabels(double left, double right, double bottom, double top, const QColor& text) {
    QCustomPlot* chart = &plot();
    // Set at the application's size: the base scales labels with presentation mode's font before each
    // replot (set from the chart's own font, they grew twice). Measured at the size they are drawn.
    QFont labelFont = QApplication::font();
    labelFont.setPointSizeF(labelFont.pointSizeF() * 0.85);
    QFont drawnFont = font();
    drawnFont.setPointSizeF(drawnFont.pointSizeF() * 0.85);
    const QFontMetricsF metrics(drawnFont);
    const QRect axes = chart->axisRect()->rect();
    const bool laidOut = axes.width() > 100 && axes.height() > 60;
    const double width = laidOut ? axes.width() : std::max(300, this->width() - 110);
    const double height = laidOut ? axes.height() : std::max(200, this->height() - 120);
    m_labelsPlacedFor = axes.size();
    const auto px = [&](double x) { return std::log(x / left) / std::log(right / left) * width; };
    const auto py = [&](double y) { return (1 - std::log(y / bottom) / std::log(top / bottom)) * height; };
    // The points themselves, and whether each was measured where another roof applies (grey).
    struct Marker {
        QRectF box;
        bool grey;
    };
    std::vector<Marker> markers;
    for (const auto& p : m_data.points)
        if (p.flopsPerByte > 0 && p.flopsPerSecond > 0)
            markers.push_back({QRectF(px(p.flopsPerByte) - 5, py(p.flopsPerSecond) - 5, 10, 10),
                               p.style == RooflineChartData::Style::otherRoof});
    // The texts placed, and the roof's line (a label it ran through was struck out).
    std::vector<QRectF> taken;
    if (m_data.roof && m_data.roof->ridgeFlopsPerByte() > 0) {
        const RooflineChartData::Roof& roof = *m_data.roof;
        const double ridge = roof.ridgeFlopsPerByte();
        const double flat = py(roof.peakFlopsPerSecond);
        taken.emplace_back(px(ridge), flat - 2, width - px(ridge), 4);
        constexpr int kSteps = 48; // the slanted roof as a chain of small boxes
        for (int k = 0; k < kSteps; ++k) {
            const double x0 = left * std::pow(ridge / left, double(k) / kSteps);
            const double x1 = left * std::pow(ridge / left, double(k + 1) / kSteps);
            taken.push_back(
                QRectF(QPointF(px(x0), py(roof.attainableAt(x0))), QPointF(px(x1), py(roof.attainableAt(x1))))
                    .normalized()
                    .adjusted(-1, -2, 1, 2));
        }
    }
    // The roof's texts (ridge, peak, slope), placed by rebuild() before the points' labels. One that would
    // run past the axes' top or left edge goes under its point, to the right where it ran off the left:
    // in presentation type the slope's "20 GB/s × intensity" lost its first digit and the ridge's label
    // its top (the line rises to the right, so under and right of a point on it is clear of it).
    const QFontMetricsF roofMetrics(font());
    const auto boxOf = [&](const QCPItemText& item) {
        const QMargins pad = item.padding();
        const QSizeF size =
            roofMetrics.size(0, item.text()) + QSizeF(pad.left() + pad.right(), pad.top() + pad.bottom());
        const QPointF at(px(item.position->coords().x()), py(item.position->coords().y()));
        const Qt::Alignment a = item.positionAlignment();
        const double x = a & Qt::AlignRight     ? at.x() - size.width()
                         : a & Qt::AlignHCenter ? at.x() - size.width() / 2
                                                : at.x();
        const double y = a & Qt::AlignBottom    ? at.y() - size.height()
                         : a & Qt::AlignVCenter ? at.y() - size.height() / 2
                                                : at.y();
        return QRectF(x, y, size.width(), size.height());
    };
    for (int i = 0; i < chart->itemCount(); ++i) {
        auto* item = qobject_cast<QCPItemText*>(chart->item(i));
        if (!item || item->position->type() != QCPItemPosition::ptPlotCoords)
            continue;
        QRectF box = boxOf(*item);
        if (box.left() < 0 || box.top() < 0) {
            const bool right = (item->positionAlignment() & Qt::AlignRight) && box.left() >= 0;
            item->setPositionAlignment((right ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
            item->setPadding(right ? QMargins(0, 4, 6, 0) : QMargins(6, 4, 0, 0));
            box = boxOf(*item);
        }
        taken.push_back(box);
    }
    struct Spot {
        Qt::Alignment alignment;
        QMargins padding;
        double dx, dy; // the box's top-left relative to the point, in units of its width and height
    };
    const Spot spots[] = {{Qt::AlignLeft | Qt::AlignVCenter, {8, 0, 0, 0}, 0, -0.5},
                          {Qt::AlignLeft | Qt::AlignTop, {6, 5, 0, 0}, 0, 0},
                          {Qt::AlignLeft | Qt::AlignBottom, {6, 0, 0, 5}, 0, -1},
                          {Qt::AlignRight | Qt::AlignTop, {0, 5, 6, 0}, -1, 0},
                          {Qt::AlignRight | Qt::AlignBottom, {0, 0, 6, 5}, -1, -1},
                          {Qt::AlignRight | Qt::AlignVCenter, {0, 0, 8, 0}, -1, -0.5}};
    using Style = RooflineChartData::Style;
    const auto mustShow = [](Style style) { return style == Style::aboveRoof || style == Style::analytic; };
    std::vector<const RooflineChartData::Point*> order;
    for (const auto& p : m_data.points)
        if (!p.label.isEmpty() && p.flopsPerByte > 0 && p.flopsPerSecond > 0)
            order.push_back(&p);
    // Errors and the model's points first, then what was measured on this roof, the grey ones last.
    const auto rank = [](Style style) {
        return style == Style::aboveRoof  ? 0
               : style == Style::analytic ? 1
               : style == Style::measured ? 2
                                          : 3;
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](const auto* a, const auto* b) { return rank(a->style) < rank(b->style); });
    // The labels placed, by text and where their points are: two sweeps' points of one size and type, a few
    // pixels apart, are named once.
    std::vector<std::pair<QString, QPointF>> named;
    for (const RooflineChartData::Point* point : order) {
        const auto& p = *point;
        const QSizeF size = metrics.size(0, p.label) + QSizeF(8, 5);
        const QPointF at(px(p.flopsPerByte), py(p.flopsPerSecond));
        if (std::any_of(named.begin(), named.end(), [&](const auto& n) {
                return n.first == p.label && (n.second - at).manhattanLength() <= 12;
            }))
            continue;
        // The first free spot, else (an error's or the model's label) the one that overlaps the fewest.
        const Spot* chosen = nullptr;
        QRectF box;
        long fewest = std::numeric_limits<long>::max();
        long fewestGrey = std::numeric_limits<long>::max();
        // The model's points sit on the roof's line: their labels start under it.
        for (std::size_t k = p.style == Style::analytic ? 1 : 0; k < std::size(spots); ++k) {
            const Spot& spot = spots[k];
            const QRectF candidate(at.x() + spot.dx * size.width(), at.y() + spot.dy * size.height(),
                                   size.width(), size.height());
            // A spot past the axes' edges is cut: any spot inside them is better.
            const bool inside = QRectF(0, 0, width, height).contains(candidate);
            // The point's own marker (and those at about the same place) is where the label starts from.
            // A grey marker does not keep a label off what was measured on this roof, only steers it: the
            // CPU's fp64 and bf16 points, at the fp32 points' intensities, left every blue point unnamed
            // (issue 35). A blue label over a grey marker covers it with the paper.
            const bool overGrey = p.style != Style::otherRoof;
            const auto overlapsMarker = [&](const Marker& m) {
                return m.box.intersects(candidate) &&
                       (m.box.center() - at).manhattanLength() > 12; // not the point's cluster
            };
            const long overlaps =
                std::count_if(taken.begin(), taken.end(),
                              [&](const QRectF& r) { return r.intersects(candidate); }) +
                std::count_if(markers.begin(), markers.end(),
                              [&](const Marker& m) { return !(overGrey && m.grey) && overlapsMarker(m); }) +
                (inside ? 0 : 1000);
            const long grey =
                overGrey ? std::count_if(markers.begin(), markers.end(),
                                         [&](const Marker& m) { return m.grey && overlapsMarker(m); })
                         : 0;
            if (overlaps < fewest || (overlaps == fewest && grey < fewestGrey)) {
                fewest = overlaps;
                fewestGrey = grey;
                chosen = &spot;
                box = candidate;
            }
            if (overlaps == 0 && grey == 0)
                break;
        }
        if (fewest > 0 && !mustShow(p.style))
            continue; // no room: the point and its hover text stay, the label would pile on another
        taken.push_back(box);
        named.emplace_back(p.label, at);
        auto* label = new QCPItemText(chart);
        label->position->setType(QCPItemPosition::ptPlotCoords);
        label->position->setCoords(p.flopsPerByte, p.flopsPerSecond);
        label->setPositionAlignment(chosen->alignment);
        label->setPadding(chosen->padding);
        label->setFont(labelFont);
        label->setColor(p.style == Style::aboveRoof   ? kAboveColor
                        : p.style == Style::otherRoof ? kOtherColor.darker(130)
                                                      : text);
        label->setText(p.label);
        if (fewestGrey > 0)
            label->setBrush(palette().color(QPalette::Base)); // the plot's paper
    }
}
