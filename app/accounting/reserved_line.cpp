#include "app/accounting/reserved_line.h"

#include "app/accounting/memory_timeline_section.h"
#include "widgets/charts/memory_timeline_chart.h"

ReservedLine::ReservedLine(MemoryTimelineChart* chart, QObject* parent)
    : QObject(parent)
    , m_chart(chart) {
    m_timer.setSingleShot(true);
    m_timer.setInterval(100);
    connect(&m_timer, &QTimer::timeout, this, &ReservedLine::flush);
}

void ReservedLine::update(MemoryTimelineChartData& data, const napkin::AccountingInput& input,
                          const napkin::AccountingResult& result, const napkin::MemoryTimeline& timeline) {
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
    m_pending = Pending{input, result, timeline};
    m_timer.start();
}

void ReservedLine::flush() {
    m_timer.stop();
    if (!m_pending)
        return;
    const Pending p = std::move(*m_pending);
    m_pending.reset();
    MemoryTimelineChartData data = m_chart->data();
    data.reserved = predictedReservedBytes(p.input, p.result, p.timeline);
    m_chart->setData(data);
}
