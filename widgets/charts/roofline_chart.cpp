// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/roofline_chart.h"

#include "engine/numerics/quantity_format.h"
#include "widgets/charts/roofline_colors.h"
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
        // What was measured on this roof, the errors and the model's points over the labels: a label that
        // covers a grey marker with the paper (placeLabels) leaves its own point whole.
        if (style != RooflineChartData::Style::otherRoof)
            graph->setLayer(QStringLiteral("axes"));
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
