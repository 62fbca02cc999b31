// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The memory timeline's data as plain values (bytes per GPU, event by event), and which events a chart
// of a very long step draws: what MemoryTimelineChart maps onto its plot, testable without one.
#include <QString>
#include <QStringList>
#include <QVector>

#include <array>

/// A run the user measured (a profiler trace, a memory snapshot), its samples placed on the events' axis
/// by step phase (engine/measured/measured_comparison.h's alignToPredicted): drawn over the prediction.
struct MeasuredRunCurve {
    QVector<double> x;         ///< on the events' axis (event i spans i − ½ … i + ½)
    QVector<double> allocated; ///< bytes allocated after each sample
    QVector<double> reserved;  ///< bytes reserved after each sample; empty where the run has no figure
    QString label;             ///< the run's file, for the legend ("run.json")
    bool isEmpty() const { return x.isEmpty(); }
    double peakAllocated() const; ///< the largest allocated drawn; 0 without samples
    bool operator==(const MeasuredRunCurve&) const = default;
};

/// What the chart shows, as plain values (bytes per GPU); tests read it back through data().
struct MemoryTimelineChartData {
    QStringList events; ///< event names in step order ("forward layer 1", ...)
    QStringList phases; ///< each event's phase ("start", "forward", "backward", "optimizer", ...)
    /// Per event, the bytes of parameters, gradients, master weights, optimizer state, activations and
    /// temporaries (bottom to top); as long as `events`.
    QVector<std::array<double, 6>> bytes;
    QVector<double> measured; ///< a measured total per event; empty: nothing measured
    MeasuredRunCurve run;     ///< the user's measured run; empty: none
    /// What PyTorch's caching allocator would hold reserved after each event (memory_reserved(), the
    /// simulation of engine/allocator/step_reserved.h); as long as `events`, or empty: not simulated.
    QVector<double> reserved;
    double capacityBytes = 0; ///< 0: no capacity line (a CPU run)
    bool usableCapacity =
        false; ///< the capacity line is the usable memory (memory_overheads.h), not the datasheet's
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
