// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/decode_throughput_chart.h"

#include "engine/numerics/quantity_format.h"
#include "widgets/charts/alert_colors.h"
#include "widgets/charts/unit_axis_ticker.h"
#include "widgets/text/engine_text.h"

#include <QFontMetrics>
#include <QMouseEvent>
#include <QToolTip>

#include <qcustomplot.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace {

const QColor kMemoryColor(0x4c, 0x72, 0xb0);
const QColor kComputeColor(0xdd, 0x84, 0x52);

// Log-scale ticks labelled as plain numbers ("100", "1e+04" → "10,000" style through formatNumber).
class TokensTicker : public QCPAxisTickerLog {
protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override { return numberText(tick); }
};

// The curve's four looks: bound (memory, compute) × fits (yes, no).
int lookOf(const DecodeThroughputChartData::Point& p) {
    return (p.computeBound ? 1 : 0) + (p.fits ? 0 : 2);
}

QCPItemText* label(QCustomPlot* chart, const QString& text, const QColor& color, Qt::Alignment alignment) {
    auto* item = new QCPItemText(chart);
    item->setText(text);
    item->setColor(color);
    item->setPositionAlignment(alignment);
    item->setPadding(QMargins(4, 2, 4, 2));
    return item;
}

} // namespace

DecodeThroughputChart::DecodeThroughputChart(QWidget* parent)
    : ChartView(parent) {
    setTitle(tr("Decode tokens/s against batch"));
    QCustomPlot* chart = &plot();
    chart->setMouseTracking(true);
    setMinimumChartSize({300, 220}, 46); // the note's longest line beside the tick labels and title
    setPowersOfTwoAxis(*chart->xAxis);
    chart->xAxis->setLabel(tr("batch B, sequences decoded together (log scale)"));
    chart->yAxis->setScaleType(QCPAxis::stLogarithmic);
    chart->yAxis->setTicker(QSharedPointer<TokensTicker>::create());
    chart->yAxis->setLabel(tr("decode tokens/s, at most (log scale)"));
    connect(chart, &QCustomPlot::mouseMove, this, &DecodeThroughputChart::onMouseMove);
    connect(chart, &QCustomPlot::beforeReplot, this, &DecodeThroughputChart::leaveRoomUnderDot);
    rebuild();
}

DecodeThroughputChart::~DecodeThroughputChart() = default;

void DecodeThroughputChart::setData(const DecodeThroughputChartData& data) {
    m_data = data;
    rebuild();
}

QString DecodeThroughputChart::tooltipFor(const DecodeThroughputChartData::Point& p) const {
    return tr("B = %1: %2 tokens/s (%3 per sequence)\n%4 bound%5")
        .arg(numberText(p.batch), numberText(p.tokensPerSecond), numberText(p.tokensPerSecond / p.batch),
             p.computeBound ? tr("compute") : tr("memory"), p.fits ? QString() : tr(", does not fit"));
}

void DecodeThroughputChart::onMouseMove(QMouseEvent* event) {
    QCustomPlot* chart = &plot();
    const double x = chart->xAxis->pixelToCoord(event->position().x());
    const DecodeThroughputChartData::Point* best = nullptr;
    double distance = std::numeric_limits<double>::max();
    for (const auto& p : m_data.points)
        if (const double d = std::fabs(std::log2(p.batch / std::max(x, 1e-9))); d < distance) {
            distance = d;
            best = &p;
        }
    const double dy = best ? chart->yAxis->coordToPixel(best->tokensPerSecond) - event->position().y() : 1e9;
    if (!best || std::fabs(dy) > 14)
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), tooltipFor(*best), chart);
}

void DecodeThroughputChart::rebuild() {
    QCustomPlot* chart = &plot();
    chart->clearGraphs();
    chart->clearItems();
    m_here = nullptr;
    m_noteItem = nullptr;
    const std::array<QString, 4> names{tr("memory bound"), tr("compute bound"),
                                       tr("memory bound, does not fit"), tr("compute bound, does not fit")};
    std::array<QCPGraph*, 4> looks{};
    for (int i = 0; i < 4; ++i) {
        looks[i] = chart->addGraph();
        looks[i]->setName(names[i]);
        const QColor color = i % 2 ? kComputeColor : kMemoryColor;
        looks[i]->setPen(i < 2 ? QPen(color, 2.5) : QPen(color.lighter(130), 1.5, Qt::DashLine));
    }
    // Each segment takes the look of its right end; NaN breaks the line between segments of a look.
    std::array<QVector<double>, 4> xs, ys;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t i = 1; i < m_data.points.size(); ++i) {
        const auto& a = m_data.points[i - 1];
        const auto& b = m_data.points[i];
        const auto look = static_cast<std::size_t>(lookOf(b));
        xs[look] << a.batch << b.batch << (a.batch + b.batch) / 2;
        ys[look] << a.tokensPerSecond << b.tokensPerSecond << nan;
    }
    for (std::size_t i = 0; i < 4; ++i) {
        looks[i]->setData(xs[i], ys[i], true);
        if (xs[i].isEmpty())
            looks[i]->removeFromLegend();
    }
    double yMin = std::numeric_limits<double>::max(), yMax = 0;
    for (const auto& p : m_data.points) {
        yMin = std::min(yMin, p.tokensPerSecond);
        yMax = std::max(yMax, p.tokensPerSecond);
    }
    if (yMax <= 0) {
        yMin = 1;
        yMax = 1000;
    }
    const double right = std::max(2.0, m_data.lastBatch);
    const double top = yMax * 6;
    chart->xAxis->setRange(1 / 1.2, right); // B = 1's dot clear of the axis
    m_lowest = std::pow(10.0, std::floor(std::log10(yMin / 1.5)));
    chart->yAxis->setRange(m_lowest, top);
    addMarkers(top);
    setLegendBelow(!m_data.points.empty(), 2);
    queueReplot();
}

// The setting's label hangs under its dot: the axis starts enough whole decades lower for it to fit at the
// axes' height as last laid out (presentation mode's type on a short chart).
void DecodeThroughputChart::leaveRoomUnderDot() {
    // The note breaks into more lines rather than run past the axes (presentation mode's type at
    // 1280×720 cut "…as fast as the FLOPs").
    if (m_noteItem) {
        const QMargins pad = m_noteItem->padding(); // it starts 1 % in from the axis
        const int room = static_cast<int>(plot().axisRect()->width() * 0.98) - pad.left() - pad.right() - 2;
        QString note = fittedText(m_note, m_noteItem->font(), room);
        // A short chart (presentation mode at 1024×768) keeps the note's first clause ("memory bound at
        // every B up to 256", "crossover at B = 46"): the whole of it reached the setting's label.
        const int lines = static_cast<int>(note.count(QLatin1Char('\n'))) + 1;
        if (QFontMetrics(m_noteItem->font()).lineSpacing() * lines > plot().axisRect()->height() * 0.35)
            note = fittedText(m_note.section(QLatin1Char(':'), 0, 0), m_noteItem->font(), room);
        m_noteItem->setText(note);
    }
    QCPAxis* y = plot().yAxis;
    const double height = plot().axisRect()->height();
    const double dot = m_data.current.tokensPerSecond;
    double lower = m_lowest;
    const double top = y->range().upper;
    if (m_here && height > 0 && dot > lower) {
        const double need = labelHeight(*m_here) + 4;
        for (int i = 0; i < 6 && height * std::log10(dot / lower) / std::log10(top / lower) < need; ++i)
            lower /= 10;
    }
    y->setRange(lower, top);
}

void DecodeThroughputChart::addMarkers(double top) {
    QCustomPlot* chart = &plot();
    const QColor text = palette().color(QPalette::WindowText);
    const double right = chart->xAxis->range().upper;
    const double bottom = chart->yAxis->range().lower;
    if (m_data.crossoverBatch) {
        const double b = *m_data.crossoverBatch;
        auto* shade = new QCPItemRect(chart);
        shade->setLayer(QStringLiteral("background"));
        shade->topLeft->setCoords(b, top);
        shade->bottomRight->setCoords(right, bottom);
        shade->setPen(Qt::NoPen);
        QColor fill = kComputeColor;
        fill.setAlpha(40);
        shade->setBrush(fill);
        auto* line = new QCPItemStraightLine(chart);
        line->point1->setCoords(b, 1);
        line->point2->setCoords(b, 2);
        line->setPen(QPen(kComputeColor.darker(120), 1.5, Qt::DashLine));
        QCPItemText* crossover = label(chart, tr("compute bound from B = %1").arg(numberText(b)),
                                       kComputeColor.darker(140), Qt::AlignRight | Qt::AlignTop);
        crossover->position->setCoords(b, top);
        crossover->setRotation(-90);
        m_note = tr("crossover at B = %1: one step's FLOPs/peak = its bytes/bandwidth").arg(numberText(b));
    } else {
        m_note =
            tr("memory bound at every B up to %1:\nthe KV cache's reads grow with B\nas fast as the FLOPs")
                .arg(numberText(right));
    }
    // Said in the note rather than in a corner of its own, where a narrow chart (DeepSeek-V3 served at
    // 1024×768) drew it over the note.
    if (m_data.maxBatch < 1)
        m_note = tr("not one sequence fits;\n") + m_note;
    if (m_data.maxBatch >= 1 && m_data.maxBatch < right) {
        auto* line = new QCPItemStraightLine(chart);
        line->point1->setCoords(m_data.maxBatch, 1);
        line->point2->setCoords(m_data.maxBatch, 2);
        line->setPen(QPen(alertColor(palette()), 1.5, Qt::DotLine));
        // Named in the legend, with the line's own look: written up the line, the name was taller than a
        // short chart in presentation mode's type and ran into the note.
        QCPGraph* fits = chart->addGraph();
        fits->setName(tr("largest batch that fits: %1").arg(numberText(m_data.maxBatch)));
        fits->setPen(line->pen());
    }
    // Drawn after the marker lines, so that its background hides them where they cross it (the fit line ran
    // through "memory bound at every B" in presentation mode at 1280×720).
    QCPItemText* note = label(chart, m_note, m_data.maxBatch < 1 ? alertColor(palette()) : text,
                              Qt::AlignLeft | Qt::AlignTop);
    note->setBrush(palette().color(QPalette::Base)); // readable over the marker lines
    note->position->setType(QCPItemPosition::ptAxisRectRatio);
    note->position->setCoords(0.01, 0.01);
    m_noteItem = note;
    if (m_data.current.batch >= 1) {
        QCPGraph* dot = chart->addGraph();
        dot->setName(tr("this setting"));
        const QColor color = m_data.current.computeBound ? kComputeColor : kMemoryColor;
        dot->setLineStyle(QCPGraph::lsNone);
        dot->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, text, color, 11));
        dot->setData(QVector<double>{m_data.current.batch}, QVector<double>{m_data.current.tokensPerSecond},
                     true);
        QCPItemText* here =
            label(chart,
                  tr("B = %1: %2 tokens/s")
                      .arg(numberText(m_data.current.batch), numberText(m_data.current.tokensPerSecond)),
                  text, Qt::AlignLeft | Qt::AlignTop);
        // Below the dot, on the side away from the right edge: the curve rises to the right of it.
        here->position->setCoords(m_data.current.batch, m_data.current.tokensPerSecond);
        here->setPadding(QMargins(8, 6, 8, 2));
        m_here = here;
        if (m_data.current.batch > std::sqrt(right))
            here->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
    }
}
