// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/memory_chart.h"

#include "widgets/charts/memory_component_colors.h"

#include <QRegularExpression>

#include <qcustomplot.h>

#include <algorithm>
#include <vector>

double MemoryChartData::totalBytes() const {
    double total = 0;
    for (const Segment& s : segments)
        total += s.bytes;
    return total;
}

MemoryChart::MemoryChart(QWidget* parent)
    : StackedBarChart(
          {tr("parameters"), tr("gradients"), tr("master weights"), tr("optimizer state"), tr("activations")},
          // the first five: no temporaries in the sum
          std::vector<QColor>(kMemoryComponentColors.begin(), kMemoryComponentColors.begin() + 5), parent) {
    setTitle(tr("Training memory per GPU"));
    setMinimumChartSize({240, 200});
    for (std::size_t i = 0; i < m_data.segments.size(); ++i)
        m_data.segments[i].name = plot().plottable(static_cast<int>(i))->name();
    // The legend sits under the plot, so that it never hides the bar or the capacity note.
    setLegendBelow(true);
    // The verdict over the bar keeps its room as the chart's size and font change.
    connect(&plot(), &QCustomPlot::beforeReplot, this, [this] {
        // Over a narrow bar chart (DeepSeek-V3's "sum …, peak … at backward loss — does not fit" at
        // 1024×768) the verdict breaks into more lines rather than run past the chart's edges.
        // A number keeps its unit on its line ("447.6 GB", not "447.6" then "GB").
        static const QRegularExpression numberThenUnit(QStringLiteral("(\\d) (?=[kMGTPE]?i?B\\b)"));
        const auto fitted = [this](QString text) {
            text.replace(numberThenUnit, QStringLiteral("\\1") + QChar(0x00A0));
            return fittedText(text, verdict()->font(), plot().axisRect()->width() - 8)
                .replace(QChar(0x00A0), QLatin1Char(' '));
        };
        verdict()->setText(fitted(m_verdictText));
        // Still taller than the axes can leave above the bar (DeepSeek-V3 at 1024×768: four lines over
        // 85 pixels): the peak and the verdict alone, the sum being the bar's height and the timeline's.
        if (labelHeight(*verdict()) > 0.6 * plot().axisRect()->height() &&
            m_verdictText.contains(QLatin1Char('\n')))
            verdict()->setText(fitted(m_verdictText.section(QLatin1String(", "), 1)));
        const double total = m_data.totalBytes();
        const double top = axisTop(total);
        const auto leaveRoom = [&](double extra) {
            plot().yAxis->setRange(
                0, topLeavingRoom(top, labelHeight(*verdict()) + 6 + extra, m_capacityOffScale ? 1.6 : 1.18));
        };
        leaveRoom(0);
        // A verdict that rose over the capacity line and its label needs their height above the top too.
        if (placeVerdict(total)) {
            leaveRoom(labelHeight(*capacityLabel()) + 2);
            placeVerdict(total);
        }
    });
    rebuild();
}

MemoryChart::~MemoryChart() = default;

void MemoryChart::setData(const MemoryChartData& data) {
    if (takeNewData(m_data, m_hasData, data))
        rebuild();
}

void MemoryChart::setByteUnits(napkin::ByteUnits units) {
    setUnits(units);
    rebuild();
}

// Off the scale the axis follows the bar and its peak: the overheads (69 MB of CUDA context and workspaces
// under a 496-byte Cruncher) are named in the verdict, never drawn, and scaled to them the bar was invisible.
// On the scale, the capacity and the peak with its overheads, which `fits` holds against it, are in view.
double MemoryChart::axisTop(double total) const {
    if (m_capacityOffScale)
        return std::max(total, m_data.peakBytes);
    return std::max({total, m_data.peakBytes + m_data.overheadBytes, m_data.capacityBytes, 1.0});
}

void MemoryChart::rebuild() {
    QCustomPlot* chart = &plot();
    setBar(m_data.segments, m_data.gpuLabel, m_data.fits);
    // A bar far below the capacity line (the lecture's 496-byte Cruncher on an 80 GB GPU) would be
    // invisible at full scale: zoom to the bar and say where the capacity is instead of drawing it.
    const double total = m_data.totalBytes();
    m_capacityOffScale = m_data.capacityBytes > 0 && total > 0 && total < m_data.capacityBytes / 20;
    chart->yAxis->setRange(0, axisTop(total) * (m_capacityOffScale ? 1.6 : 1.18)); // room for the verdict

    const QString capacity = bytesText(m_data.capacityBytes);
    drawCapacityLine(m_data.capacityBytes, m_data.capacityBytes > 0 && !m_capacityOffScale, m_data.fits);
    // Off the scale, the capacity is said under the axis rather than in the plot, where it ran into the
    // verdict above the bar and was cut at the chart's edge.
    QCPItemText* capacityNote = capacityLabel();
    capacityNote->setVisible(m_data.capacityBytes > 0 && !m_capacityOffScale);
    chart->xAxis->setLabel(QString());
    if (m_capacityOffScale) {
        chart->xAxis->setLabel(
            tr("capacity %1 is off the scale: %2 × this bar")
                .arg(capacity, QString::fromStdString(napkin::formatNumber(m_data.capacityBytes / total))));
    } else {
        capacityNote->position->setCoords(0, m_data.capacityBytes); // the axes' left edge, padded
        capacityNote->setText(m_data.usableCapacity ? tr("usable %1").arg(capacity)
                                                    : tr("capacity %1").arg(capacity));
    }

    // Not fitting is marked on the bar itself (StackedBarChart's red outline) and in a verdict above it.
    verdict()->position->setCoords(kBarX, total); // placeVerdict moves it clear of the capacity
    verdict()->setColor(verdictColor(m_data.fits));
    // The verdict judges the step's peak; where it differs from the bar (the sum), both are named.
    const auto bytes = [this](double value) { return bytesText(value); };
    const QString sumText = bytesText(total);
    const QString judged = m_data.fits ? tr("fits") : tr("does not fit");
    if (m_data.peakBytes > 0 && m_data.overheadBytes > 0)
        m_verdictText = tr("sum %1, peak %2\n+ overheads %3 — %4")
                            .arg(sumText, bytes(m_data.peakBytes), bytes(m_data.overheadBytes), judged);
    else if (m_data.peakBytes > 0 && m_data.peakBytes != total)
        m_verdictText =
            tr("sum %1, peak %2\nat %3 — %4").arg(sumText, bytes(m_data.peakBytes), m_data.peakEvent, judged);
    else
        m_verdictText = tr("%1 — %2").arg(sumText, judged);
    verdict()->setText(m_verdictText);
    verdict()->setVisible(total > 0);
    queueReplot();
}
