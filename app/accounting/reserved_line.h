// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The memory timeline's predicted reserved line (predictedReservedBytes: the caching allocator simulated
// over the step), drawn 100 ms after the controls settle rather than on every tick: the simulation of a
// 295-event GPT-3 step took about 1 ms, an eighth of a tick's budget (bench_accounting_page). While the
// step drawn is the same the line stays; a step that changed drops it until it is simulated again, so the
// line never belongs to another setup than the areas under it. A tick keeps only the input; the step is
// accounted again once, at rest.
#include "engine/accounting/accounting.h"
#include "engine/accounting/memory_timeline.h"
#include "widgets/charts/memory_timeline_data.h"

#include <QObject>
#include <QTimer>

#include <optional>

class MemoryTimelineChart;

class ReservedLine : public QObject {
    Q_OBJECT
public:
    explicit ReservedLine(MemoryTimelineChart* chart, QObject* parent = nullptr);

    /// Before `data` goes to the chart: keeps the chart's line where its step is `data`'s, else leaves
    /// it out and simulates the step of `input` (whose accounting is `result`) once the controls rest.
    void update(MemoryTimelineChartData& data, const napkin::AccountingInput& input,
                const napkin::AccountingResult& result);
    /// Simulates now what is pending (tests; the page's export).
    void flush();
    /// The rest after the last change before the simulation runs (100 ms).
    void setDelay(int milliseconds) { m_timer.setInterval(milliseconds); }

private:
    MemoryTimelineChart* m_chart;
    QTimer m_timer;
    /// The input of the step drawn, accounted again once at rest: a tick keeps no copy of its result.
    std::optional<napkin::AccountingInput> m_pending;
};
