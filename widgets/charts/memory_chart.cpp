#include "widgets/charts/memory_chart.h"

#include "widgets/charts/memory_component_colors.h"
#include "widgets/charts/unit_axis_ticker.h"

#include <QMouseEvent>
#include <QRegularExpression>
#include <QToolTip>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace {

constexpr double kBarX = 1.0;
constexpr double kBarWidth = 0.6;

const auto& kSegmentColors = kMemoryComponentColors; // the first five: no temporaries in the sum

} // namespace

double MemoryChartData::totalBytes() const {
    double total = 0;
    for (const Segment& s : segments)
        total += s.bytes;
    return total;
}

MemoryChart::MemoryChart(QWidget* parent)
    : ChartView(parent) {
    setTitle(tr("Training memory per GPU"));
    QCustomPlot* chart = &plot();
    chart->setMouseTracking(true);
    setMinimumChartSize({240, 200});
    chart->yAxis->setTicker(byteAxisTicker(m_units));
    chart->yAxis->setLabel(tr("memory per GPU"));
    auto xTicker = QSharedPointer<QCPAxisTickerText>::create();
    chart->xAxis->setTicker(xTicker);
    chart->xAxis->setRange(0, 2);
    chart->xAxis->grid()->setVisible(false);
    chart->xAxis->setSubTicks(false);
    chart->xAxis->setTickLength(0, 0);

    const std::array<QString, 5> names{tr("parameters"), tr("gradients"), tr("master weights"),
                                       tr("optimizer state"), tr("activations")};
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
    m_capacityLabel->position->setType(QCPItemPosition::ptPlotCoords);
    m_verdict = new QCPItemText(chart);
    m_verdict->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
    m_verdict->position->setType(QCPItemPosition::ptPlotCoords);

    // The legend sits under the plot, so that it never hides the bar or the capacity note.
    setLegendBelow(true);

    connect(chart, &QCustomPlot::mouseMove, this, &MemoryChart::onMouseMove);
    // The verdict over the bar keeps its room as the chart's size and font change.
    connect(chart, &QCustomPlot::beforeReplot, this, [this] {
        // Over a narrow bar chart (DeepSeek-V3's "sum …, peak … at backward loss — does not fit" at
        // 1024×768) the verdict breaks into more lines rather than run past the chart's edges.
        // A number keeps its unit on its line ("447.6 GB", not "447.6" then "GB").
        static const QRegularExpression numberThenUnit(QStringLiteral("(\\d) (?=[kMGTPE]?i?B\\b)"));
        const auto fitted = [this](QString text) {
            text.replace(numberThenUnit, QStringLiteral("\\1") + QChar(0x00A0));
            return fittedText(text, m_verdict->font(), plot().axisRect()->width() - 8)
                .replace(QChar(0x00A0), QLatin1Char(' '));
        };
        m_verdict->setText(fitted(m_verdictText));
        // Still taller than the axes can leave above the bar (DeepSeek-V3 at 1024×768: four lines over
        // 85 pixels): the peak and the verdict alone, the sum being the bar's height and the timeline's.
        if (labelHeight(*m_verdict) > 0.6 * plot().axisRect()->height() &&
            m_verdictText.contains(QLatin1Char('\n')))
            m_verdict->setText(fitted(m_verdictText.section(QLatin1String(", "), 1)));
        const double total = m_data.totalBytes();
        const double top = m_capacityOffScale
                               ? std::max(total, m_data.peakBytes)
                               : std::max({total, m_data.peakBytes, m_data.capacityBytes, 1.0});
        plot().yAxis->setRange(
            0, topLeavingRoom(top, labelHeight(*m_verdict) + 6, m_capacityOffScale ? 1.6 : 1.18));
    });
    applySeriesColors();
    rebuild();
}

MemoryChart::~MemoryChart() = default;

void MemoryChart::setData(const MemoryChartData& data) {
    m_data = data;
    rebuild();
}

void MemoryChart::setByteUnits(napkin::ByteUnits units) {
    m_units = units;
    plot().yAxis->setTicker(byteAxisTicker(units));
    rebuild();
}

int MemoryChart::segmentAt(double bytes) const {
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

QString MemoryChart::tooltipFor(int index) const {
    if (index < 0 || index >= static_cast<int>(m_data.segments.size()))
        return {};
    const MemoryChartData::Segment& s = m_data.segments[static_cast<std::size_t>(index)];
    return tr("%1: %2 (%3 B)\n%4")
        .arg(s.name, QString::fromStdString(napkin::formatBytes(s.bytes, m_units)),
             QString::fromStdString(napkin::formatNumber(s.bytes)), s.formula);
}

void MemoryChart::onMouseMove(QMouseEvent* event) {
    QCustomPlot* chart = &plot();
    const double x = chart->xAxis->pixelToCoord(event->position().x());
    const double y = chart->yAxis->pixelToCoord(event->position().y());
    const int index = std::fabs(x - kBarX) <= kBarWidth / 2 ? segmentAt(y) : -1;
    if (index < 0) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(event->globalPosition().toPoint(), tooltipFor(index), chart);
}

void MemoryChart::applySeriesColors() {
    m_capacityLabel->setColor(palette().color(QPalette::WindowText));
    for (std::size_t i = 0; i < m_bars.size(); ++i) {
        m_bars[i]->setBrush(kSegmentColors[i]);
        m_bars[i]->setPen(QPen(kSegmentColors[i].darker(130)));
    }
}

void MemoryChart::rebuild() {
    QCustomPlot* chart = &plot();
    for (std::size_t i = 0; i < m_bars.size(); ++i) {
        m_bars[i]->setData(QVector<double>{kBarX}, QVector<double>{m_data.segments[i].bytes}, true);
        m_bars[i]->removeFromLegend();
    }
    // A zero segment (e.g. no master weights under fp32) would only clutter the legend.
    for (std::size_t i = 0; i < m_bars.size(); ++i)
        if (m_data.segments[i].bytes > 0)
            m_bars[i]->addToLegend();

    const auto xTicker = chart->xAxis->ticker().staticCast<QCPAxisTickerText>();
    xTicker->clear();
    xTicker->addTick(kBarX, m_data.gpuLabel.isEmpty() ? tr("per GPU") : m_data.gpuLabel);

    // A bar far below the capacity line (the lecture's 496-byte Cruncher on an 80 GB GPU) would be
    // invisible at full scale: zoom to the bar and say where the capacity is instead of drawing it.
    const double total = m_data.totalBytes();
    m_capacityOffScale = m_data.capacityBytes > 0 && total > 0 && total < m_data.capacityBytes / 20;
    const double top = m_capacityOffScale
                           ? std::max(total, m_data.peakBytes) * 1.6 // room for the verdict
                           : std::max({total, m_data.peakBytes, m_data.capacityBytes, 1.0}) * 1.18;
    chart->yAxis->setRange(0, top);

    const QColor capacityColor = m_data.fits ? QColor(0x2e, 0x7d, 0x32) : QColor(0xc0, 0x39, 0x2b);
    const QString capacity = QString::fromStdString(napkin::formatBytes(m_data.capacityBytes, m_units));
    m_capacityLine->setVisible(m_data.capacityBytes > 0 && !m_capacityOffScale);
    m_capacityLine->point1->setCoords(0, m_data.capacityBytes);
    m_capacityLine->point2->setCoords(2, m_data.capacityBytes);
    m_capacityLine->setPen(QPen(capacityColor, 2, Qt::DashLine));
    // Off the scale, the capacity is said under the axis rather than in the plot, where it ran into the
    // verdict above the bar and was cut at the chart's edge.
    m_capacityLabel->setVisible(m_data.capacityBytes > 0 && !m_capacityOffScale);
    chart->xAxis->setLabel(QString());
    if (m_capacityOffScale) {
        chart->xAxis->setLabel(
            tr("capacity %1 is off the scale: %2 × this bar")
                .arg(capacity, QString::fromStdString(napkin::formatNumber(m_data.capacityBytes / total))));
    } else {
        m_capacityLabel->position->setType(QCPItemPosition::ptPlotCoords);
        m_capacityLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        m_capacityLabel->position->setCoords(0.03, m_data.capacityBytes);
        m_capacityLabel->setText(tr("capacity %1").arg(capacity));
    }

    // Not fitting is marked on the bar itself: a red outline and a verdict above it.
    for (std::size_t i = 0; i < m_bars.size(); ++i)
        m_bars[i]->setPen(m_data.fits ? QPen(kSegmentColors[i].darker(130))
                                      : QPen(QColor(0xc0, 0x39, 0x2b), 2.5));
    m_verdict->position->setCoords(kBarX, total);
    m_verdict->setColor(capacityColor);
    // The verdict judges the step's peak; where it differs from the bar (the sum), both are named.
    const auto bytes = [this](double value) {
        return QString::fromStdString(napkin::formatBytes(value, m_units));
    };
    const QString sumText = bytes(total);
    const QString verdict = m_data.fits ? tr("fits") : tr("does not fit");
    if (m_data.peakBytes > 0 && m_data.peakBytes != total)
        m_verdictText = tr("sum %1, peak %2\nat %3 — %4")
                            .arg(sumText, bytes(m_data.peakBytes), m_data.peakEvent, verdict);
    else
        m_verdictText = tr("%1 — %2").arg(sumText, verdict);
    m_verdict->setText(m_verdictText);
    m_verdict->setVisible(total > 0);
    queueReplot();
}
