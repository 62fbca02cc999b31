// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The measured side of a memory timeline (engine/accounting/memory_timeline.h): a trainer that
// allocates and frees its buffers through a MemoryLedger in PyTorch's eager order records the ledger's
// bytes at the same named events as the prediction, so the two compare event by event. Any trainer
// with a ledger can use it (the CPU Cruncher trainer does; each event is a copy of six numbers).
#include "engine/accounting/memory_timeline.h"
#include "engine/compute/memory_ledger.h"

#include <vector>

namespace napkin {

/// The ledger's current bytes as timeline components: each tag to its component, workspace as
/// temporaries; inputs (the data batch) are left out, as the formula leaves them out.
StepBytes stepBytesHeld(const MemoryLedger& ledger);

class MemoryTimelineRecorder {
public:
    /// `ledger` must outlive the recorder.
    explicit MemoryTimelineRecorder(const MemoryLedger& ledger)
        : ledger_(ledger) {}

    /// Forgets the previous step's events (keeping their storage: recording allocates nothing after
    /// the first step). Call first in each step.
    void beginStep() { events_.clear(); }
    /// The ledger's bytes now, recorded under `event`: call it where the prediction puts the event's
    /// high-water mark, after the event's new buffers exist and before the buffers it used last are freed.
    void record(StepPhase phase, StepPart part = StepPart::model, long layer = 0);
    /// The events of the last step begun.
    const std::vector<TimelineEvent>& lastStep() const { return events_; }

private:
    const MemoryLedger& ledger_;
    std::vector<TimelineEvent> events_;
};

} // namespace napkin
