// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/accounting/reserved_line.h"

#include "app/accounting/memory_timeline_section.h"
#include "app/hardware/session_gpu_catalog.h"
#include "widgets/charts/memory_timeline_chart.h"

ReservedLine::ReservedLine(MemoryTimelineChart* chart, QObject* parent)
    : QObject(parent)
    , m_chart(chart) {
    m_timer.setSingleShot(true);
    m_timer.setInterval(100);
    connect(&m_timer, &QTimer::timeout, this, &ReservedLine::flush);
}

void ReservedLine::update(MemoryTimelineChartData& data, const napkin::AccountingInput& input,
                          const napkin::AccountingResult& result) {
    const MemoryTimelineChartData& shown = m_chart->data();
    // The same step as the one drawn (its events and bytes, its kind): its line still holds.
    if (!m_pending && !shown.reserved.isEmpty() && shown.events == data.events && shown.bytes == data.bytes &&
        shown.eventByEvent == data.eventByEvent) {
        data.reserved = shown.reserved;
        return;
    }
    data.reserved.clear();
    m_pending.reset();
    m_timer.stop();
    if (!result.peakFromTimeline) // phases only: no order to replay (predictedReservedBytes)
        return;
    m_pending = input;
    m_timer.start();
}

void ReservedLine::flush() {
    m_timer.stop();
    if (!m_pending)
        return;
    const napkin::AccountingInput input = std::move(*m_pending);
    m_pending.reset();
    const napkin::GpuSpec* gpu = sessionGpuCatalog().find(input.gpu);
    if (!gpu)
        return;
    const napkin::AccountingResult result = napkin::account(input, *gpu);
    MemoryTimelineChartData data = m_chart->data();
    data.reserved = predictedReservedBytes(input, result, napkin::memoryTimeline(input, result));
    m_chart->setData(data);
}
