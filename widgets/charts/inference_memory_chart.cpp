// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/inference_memory_chart.h"

#include "widgets/charts/memory_component_colors.h"

#include <qcustomplot.h>

#include <algorithm>

double InferenceMemoryChartData::totalBytes() const {
    double total = 0;
    for (const Segment& s : segments)
        total += s.bytes;
    return total;
}

// Weights look like the training bar's parameters and activations like its activations; the KV cache
// has no training counterpart and gets its own teal.
InferenceMemoryChart::InferenceMemoryChart(QWidget* parent)
    : StackedBarChart({tr("weights"), tr("KV cache"), tr("activations")},
                      {kMemoryComponentColors[0], QColor(0x2a, 0x9d, 0x8f), kMemoryComponentColors[4]},
                      parent) {
    setTitle(tr("Inference memory per GPU"));
    setMinimumChartSize({220, 200});
    for (std::size_t i = 0; i < m_data.segments.size(); ++i)
        m_data.segments[i].name = plot().plottable(static_cast<int>(i))->name();
    setLegendBelow(true, 1); // one per line: the bar is narrow
    verdict()->setTextAlignment(Qt::AlignHCenter);
    verdict()->setClipToAxisRect(false);
    // The capacity's label and the verdict keep their room as the chart's size and font change.
    connect(&plot(), &QCustomPlot::beforeReplot, this, [this] {
        const double room = std::max(labelHeight(*capacityLabel()), labelHeight(*verdict())) + 6;
        const double top = std::max({m_data.totalBytes(), m_data.capacityBytes, 1.0});
        plot().yAxis->setRange(0, topLeavingRoom(top, room, 1.18));
        // A verdict that rose over the capacity line and its label needs the label's height more room.
        if (placeVerdict(m_data.totalBytes())) {
            plot().yAxis->setRange(0, topLeavingRoom(top, room + labelHeight(*capacityLabel()) + 2, 1.18));
            placeVerdict(m_data.totalBytes());
        }
    });
    rebuild();
}

InferenceMemoryChart::~InferenceMemoryChart() = default;

void InferenceMemoryChart::setData(const InferenceMemoryChartData& data) {
    m_data = data;
    rebuild();
}

void InferenceMemoryChart::rebuild() {
    setBar(m_data.segments, m_data.gpuLabel, m_data.fits);
    const double total = m_data.totalBytes();
    plot().yAxis->setRange(0, std::max({total, m_data.capacityBytes, 1.0}) * 1.18);
    drawCapacityLine(m_data.capacityBytes, m_data.capacityBytes > 0, m_data.fits);
    capacityLabel()->setVisible(m_data.capacityBytes > 0);
    capacityLabel()->position->setCoords(0, m_data.capacityBytes); // the axes' left edge, padded
    // Two lines, as the verdict: one ran past the narrow chart's edge in presentation mode.
    capacityLabel()->setText(m_data.usableCapacity ? tr("usable\n%1").arg(bytesText(m_data.capacityBytes))
                                                   : tr("capacity\n%1").arg(bytesText(m_data.capacityBytes)));
    verdict()->position->setCoords(kBarX, total);
    verdict()->setColor(verdictColor(m_data.fits));
    // Two lines: the bar is narrow, and a one-line verdict would run off the axes.
    verdict()->setText(m_data.fits ? tr("%1\nfits").arg(bytesText(total))
                                   : tr("%1\ndoes not fit").arg(bytesText(total)));
    verdict()->setVisible(total > 0);
    queueReplot();
}
