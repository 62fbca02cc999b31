// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Deterministic counts of the work a recompute does: how many peaks it evaluated, timelines it built,
// activation ledgers it summed and numbers it spelled out. The slider tick's budget (8 ms) and one
// account()'s (20 µs) are guarded by asserting these counts in tests, which, unlike a timed test, fail on
// any machine when a search starts rebuilding whole timelines per probe (tests/engine/tst_work_counts.cpp).
#include <cstdint>

namespace napkin {

struct WorkCounts {
    std::int64_t peakEvaluations = 0;   ///< accountPeak(): one setup's memory and peak, formulas included
    std::int64_t fastPeaks = 0;         ///< peakBytes(): a peak alone, with no string or timeline kept
    std::int64_t timelineBuilds = 0;    ///< memoryTimeline(): every event of one step
    std::int64_t activationLedgers = 0; ///< activationMemory(): the tensor-by-tensor ledger of a step
    std::int64_t formattedNumbers = 0;  ///< formatNumber() calls: the formula strings' cost
    std::int64_t configsParsed = 0;     ///< parseHfConfig(): a config.json read (the zoo's are kept)
    std::int64_t allocatorEvents = 0;   ///< a simulated caching allocator's malloc() or free() calls
    std::int64_t stepReplays = 0;       ///< stepReserved(): a predicted step through the simulated allocator
    bool operator==(const WorkCounts&) const = default;
};

/// This thread's running counts (each thread counts its own work; the GUI's is the GUI thread's).
inline WorkCounts& workCounts() {
    thread_local WorkCounts counts;
    return counts;
}

/// The work done between construction and `counted()`, on this thread.
class WorkCounter {
public:
    WorkCounter()
        : start_(workCounts()) {}
    WorkCounts counted() const {
        const WorkCounts& now = workCounts();
        return {now.peakEvaluations - start_.peakEvaluations, now.fastPeaks - start_.fastPeaks,
                now.timelineBuilds - start_.timelineBuilds, now.activationLedgers - start_.activationLedgers,
                now.formattedNumbers - start_.formattedNumbers, now.configsParsed - start_.configsParsed,
                now.allocatorEvents - start_.allocatorEvents, now.stepReplays - start_.stepReplays};
    }

private:
    WorkCounts start_;
};

} // namespace napkin
