#include "widgets/charts/roofline_chart.h"

#include "engine/numerics/quantity_format.h"
#include "widgets/charts/unit_axis_ticker.h"
#include "widgets/text/engine_text.h"

#include <QApplication>
#include <QMouseEvent>
#include <QResizeEvent>
#include <QToolTip>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace {

// Log-scale ticks labelled as plain numbers ("0.1", "10", "1000"), FLOPs per byte.
class IntensityTicker : public QCPAxisTickerLog {
protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        return QString::fromStdString(napkin::formatNumber(tick));
    }
};

const QColor kRoofColor{0x33, 0x33, 0x33};
const QColor kMeasuredColor{0x4c, 0x72, 0xb0};
const QColor kAboveColor{0xd6, 0x27, 0x28};
const QColor kOtherColor{0xa0, 0xa0, 0xa0};
const QColor kAnalyticColor{0xdd, 0x84, 0x52};

QCPScatterStyle scatterFor(RooflineChartData::Style style) {
    switch (style) {
    case RooflineChartData::Style::measured:
        return {QCPScatterStyle::ssDisc, kMeasuredColor, kMeasuredColor, 8};
    case RooflineChartData::Style::aboveRoof:
        return {QCPScatterStyle::ssCrossSquare, QPen(kAboveColor, 2), Qt::NoBrush, 11};
    case RooflineChartData::Style::otherRoof:
        return {QCPScatterStyle::ssCircle, QPen(kOtherColor, 1.5), Qt::NoBrush, 8};
    case RooflineChartData::Style::analytic:
        return {QCPScatterStyle::ssDiamond, QPen(kAnalyticColor, 2), QBrush(kAnalyticColor), 11};
    }
    return {};
}

QString legendName(RooflineChartData::Style style) {
    switch (style) {
    case RooflineChartData::Style::measured:
        return RooflineChart::tr("measured GEMM");
    case RooflineChartData::Style::aboveRoof:
        return RooflineChart::tr("above its roof (an error)");
    case RooflineChartData::Style::otherRoof:
        return RooflineChart::tr("measured on another device or type");
    case RooflineChartData::Style::analytic:
        return RooflineChart::tr("inference (model)");
    }
    return {};
}

} // namespace

RooflineChart::RooflineChart(QWidget* parent)
    : ChartView(parent) {
    setTitle(tr("Roofline"));
    QCustomPlot* chart = &plot();
    chart->setMouseTracking(true);
    setMinimumChartSize({320, 240});
    chart->xAxis->setScaleType(QCPAxis::stLogarithmic);
    chart->xAxis->setTicker(QSharedPointer<IntensityTicker>::create());
    chart->xAxis->setLabel(tr("arithmetic intensity, FLOPs per byte of memory traffic (log scale)"));
    chart->yAxis->setScaleType(QCPAxis::stLogarithmic);
    chart->yAxis->setTicker(QSharedPointer<FlopsPerSecondLogTicker>::create());
    chart->yAxis->setLabel(tr("FLOP/s (log scale)"));
    connect(chart, &QCustomPlot::mouseMove, this, &RooflineChart::onMouseMove);
    // The labels were placed for axes of another size (the first layout, a new size, a legend that took
    // another row): placed again for the axes as drawn. Placing them changes no margin, so this settles.
    connect(this, &ChartView::replotted, this, [this] {
        const QSize axes = plot().axisRect()->rect().size();
        if ((axes - m_labelsPlacedFor).width() != 0 || (axes - m_labelsPlacedFor).height() != 0)
            rebuild();
    });
    rebuild();
}

RooflineChart::~RooflineChart() = default;

void RooflineChart::resizeEvent(QResizeEvent* event) {
    ChartView::resizeEvent(event);
    rebuild(); // labels are placed for the size they are drawn at
}

void RooflineChart::setData(const RooflineChartData& data) {
    m_data = data;
    rebuild();
}

QString RooflineChart::ridgeLabel() const {
    if (!m_data.roof || m_data.roof->ridgeFlopsPerByte() <= 0)
        return {};
    return tr("ridge %1 FLOP/B").arg(toQString(napkin::formatNumber(m_data.roof->ridgeFlopsPerByte())));
}

int RooflineChart::pointAt(QPointF pixel, double radius) const {
    const QCustomPlot* chart = &plot();
    double best = radius * radius;
    int hit = -1;
    for (std::size_t i = 0; i < m_data.points.size(); ++i) {
        const auto& p = m_data.points[i];
        const double dx = chart->xAxis->coordToPixel(p.flopsPerByte) - pixel.x();
        const double dy = chart->yAxis->coordToPixel(p.flopsPerSecond) - pixel.y();
        if (dx * dx + dy * dy < best) {
            best = dx * dx + dy * dy;
            hit = static_cast<int>(i);
        }
    }
    return hit;
}

void RooflineChart::onMouseMove(QMouseEvent* event) {
    const int hit = pointAt(event->position());
    if (hit < 0) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(event->globalPosition().toPoint(),
                       m_data.points[static_cast<std::size_t>(hit)].tooltip, &plot());
}

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
    std::vector<QRectF> markers; // the points themselves
    for (const auto& p : m_data.points)
        if (p.flopsPerByte > 0 && p.flopsPerSecond > 0)
            markers.emplace_back(px(p.flopsPerByte) - 5, py(p.flopsPerSecond) - 5, 10, 10);
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
    for (const RooflineChartData::Point* point : order) {
        const auto& p = *point;
        const QSizeF size = metrics.size(0, p.label) + QSizeF(8, 5);
        const QPointF at(px(p.flopsPerByte), py(p.flopsPerSecond));
        // The first free spot, else (an error's or the model's label) the one that overlaps the fewest.
        const Spot* chosen = nullptr;
        QRectF box;
        long fewest = std::numeric_limits<long>::max();
        // The model's points sit on the roof's line: their labels start under it.
        for (std::size_t k = p.style == Style::analytic ? 1 : 0; k < std::size(spots); ++k) {
            const Spot& spot = spots[k];
            const QRectF candidate(at.x() + spot.dx * size.width(), at.y() + spot.dy * size.height(),
                                   size.width(), size.height());
            // A spot past the axes' edges is cut: any spot inside them is better.
            const bool inside = QRectF(0, 0, width, height).contains(candidate);
            // The point's own marker (and those at about the same place) is where the label starts from.
            const long overlaps =
                std::count_if(taken.begin(), taken.end(),
                              [&](const QRectF& r) { return r.intersects(candidate); }) +
                std::count_if(markers.begin(), markers.end(),
                              [&](const QRectF& r) {
                                  return r.intersects(candidate) &&
                                         (r.center() - at).manhattanLength() > 12; // not the point's cluster
                              }) +
                (inside ? 0 : 1000);
            if (overlaps < fewest) {
                fewest = overlaps;
                chosen = &spot;
                box = candidate;
            }
            if (overlaps == 0)
                break;
        }
        if (fewest > 0 && !mustShow(p.style))
            continue; // no room: the point and its hover text stay, the label would pile on another
        taken.push_back(box);
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
    }
}

void RooflineChart::rebuild() {
    QCustomPlot* chart = &plot();
    chart->clearGraphs();
    chart->clearItems();
    const QColor text = palette().color(QPalette::WindowText);
    const QColor roofColor =
        palette().color(QPalette::Base).lightness() < 128 ? QColor(0xdd, 0xdd, 0xdd) : kRoofColor;

    // The range: every point and the ridge, a factor of 4 to each side in x; from under the lowest point to
    // over the roof in y.
    double xMin = std::numeric_limits<double>::max(), xMax = 0;
    double yMin = std::numeric_limits<double>::max(), yMax = 0;
    for (const auto& p : m_data.points)
        if (p.flopsPerByte > 0 && p.flopsPerSecond > 0) {
            xMin = std::min(xMin, p.flopsPerByte);
            xMax = std::max(xMax, p.flopsPerByte);
            yMin = std::min(yMin, p.flopsPerSecond);
            yMax = std::max(yMax, p.flopsPerSecond);
        }
    const double ridge = m_data.roof ? m_data.roof->ridgeFlopsPerByte() : 0;
    if (ridge > 0) {
        xMin = std::min(xMin, ridge / 30);
        xMax = std::max(xMax, ridge * 10);
        yMax = std::max(yMax, m_data.roof->peakFlopsPerSecond);
    }
    if (xMax <= 0) {
        xMin = 0.1;
        xMax = 1000;
    }
    const double left = std::pow(10.0, std::floor(std::log10(xMin / 2)));
    const double right = std::pow(10.0, std::ceil(std::log10(xMax * 2)));
    if (ridge > 0)
        yMin = std::min(yMin, m_data.roof->attainableAt(left));
    if (yMax <= 0) {
        yMin = 1e9;
        yMax = 1e15;
    }
    const double bottom = std::pow(10.0, std::floor(std::log10(yMin / 2)));
    const double top = yMax * 6;

    if (m_data.roof && ridge > 0) {
        const auto& roof = *m_data.roof;
        QCPGraph* line = chart->addGraph();
        line->setName(tr("roof: %1").arg(roof.name));
        line->setPen(QPen(roofColor, 2.5));
        line->setData(
            QVector<double>{left, ridge, right},
            QVector<double>{roof.attainableAt(left), roof.peakFlopsPerSecond, roof.peakFlopsPerSecond}, true);
        QCPGraph* ridgeMark = chart->addGraph();
        ridgeMark->removeFromLegend();
        ridgeMark->setLineStyle(QCPGraph::lsNone);
        ridgeMark->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(roofColor, 2), Qt::white, 10));
        ridgeMark->setData(QVector<double>{ridge}, QVector<double>{roof.peakFlopsPerSecond}, true);
        auto* ridgeText = new QCPItemText(chart);
        ridgeText->position->setType(QCPItemPosition::ptPlotCoords);
        ridgeText->position->setCoords(ridge, roof.peakFlopsPerSecond);
        ridgeText->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        ridgeText->setPadding(QMargins(0, 0, 0, 8));
        ridgeText->setColor(text);
        ridgeText->setText(ridgeLabel());
        auto* peakText = new QCPItemText(chart);
        peakText->position->setType(QCPItemPosition::ptPlotCoords);
        peakText->position->setCoords(right, roof.peakFlopsPerSecond);
        peakText->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        peakText->setPadding(QMargins(0, 0, 6, 4));
        peakText->setColor(text);
        peakText->setText(tr("peak %1").arg(toQString(napkin::formatFlops(roof.peakFlopsPerSecond, true))));
        auto* slopeText = new QCPItemText(chart);
        slopeText->position->setType(QCPItemPosition::ptPlotCoords);
        const double slopeX = std::sqrt(left * ridge) / 1.5; // on the slanted roof, left of the ridge
        slopeText->position->setCoords(slopeX, roof.attainableAt(slopeX));
        slopeText->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        slopeText->setPadding(QMargins(0, 0, 6, 2));
        slopeText->setColor(text);
        slopeText->setText(
            tr("%1/s × intensity").arg(toQString(napkin::formatBytes(roof.bandwidthBytesPerSecond))));
    }

    // One graph per style, so that the legend names each once; labels beside each point, alternately
    // above and below where two points sit close.
    for (auto style : {RooflineChartData::Style::measured, RooflineChartData::Style::otherRoof,
                       RooflineChartData::Style::analytic, RooflineChartData::Style::aboveRoof}) {
        QVector<double> x, y;
        for (const auto& p : m_data.points)
            if (p.style == style && p.flopsPerByte > 0 && p.flopsPerSecond > 0) {
                x.push_back(p.flopsPerByte);
                y.push_back(p.flopsPerSecond);
            }
        if (x.isEmpty())
            continue;
        QCPGraph* graph = chart->addGraph();
        graph->setName(legendName(style));
        graph->setLineStyle(QCPGraph::lsNone);
        graph->setScatterStyle(scatterFor(style));
        graph->setData(x, y, false);
    }
    placeLabels(left, right, bottom, top, text);
    if (!m_data.note.isEmpty()) {
        auto* note = new QCPItemText(chart);
        note->position->setType(QCPItemPosition::ptAxisRectRatio);
        note->position->setCoords(0.02, 0.03);
        note->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        note->setColor(text);
        note->setText(m_data.note);
    }
    setLegendBelow(chart->graphCount() > 0, 3);
    chart->xAxis->setRange(left, right);
    chart->yAxis->setRange(bottom, top);
    queueReplot();
}
