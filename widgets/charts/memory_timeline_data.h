#pragma once
// The memory timeline's data as plain values (bytes per GPU, event by event), and which events a chart
// of a very long step draws: what MemoryTimelineChart maps onto its plot, testable without one.
#include <QString>
#include <QStringList>
#include <QVector>

#include <array>

/// What the chart shows, as plain values (bytes per GPU); tests read it back through data().
struct MemoryTimelineChartData {
    QStringList events; ///< event names in step order ("forward layer 1", ...)
    QStringList phases; ///< each event's phase ("start", "forward", "backward", "optimizer", ...)
    /// Per event, the bytes of parameters, gradients, master weights, optimizer state, activations and
    /// temporaries (bottom to top); as long as `events`.
    QVector<std::array<double, 6>> bytes;
    QVector<double> measured;    ///< a measured total per event; empty: nothing measured
    double capacityBytes = 0;    ///< 0: no capacity line (a CPU run)
    std::array<double, 5> sum{}; ///< the napkin sum's parts (no temporaries); all 0: no sum bar
    /// The step's events in their order; false: phases only, from the memory totals (the order of a
    /// dense or a tensor-parallel step is not modelled), whose peak is the sum.
    bool eventByEvent = true;

    double totalAt(int event) const; ///< the predicted total at `event`
    int peakIndex() const;           ///< the first event with the largest predicted total; -1 for none
    double sumBytes() const;
    bool operator==(const MemoryTimelineChartData&) const = default;
};

/// Beyond this many events the chart draws one per run of neighbouring events.
constexpr int kMostTimelineEventsDrawn = 1500;

/// The events drawn, in order: every event when there are at most `most`; else the largest of each run of
/// neighbouring events (the first of equals), so that the step's peak is one of them, and both ends.
QVector<int> timelineEventsToDraw(const MemoryTimelineChartData& data, int most = kMostTimelineEventsDrawn);
