// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/memory_timeline_recorder.h"

namespace napkin {

StepBytes stepBytesHeld(const MemoryLedger& ledger) {
    StepBytes b;
    b.parameters = ledger.currentBytes(MemoryTag::parameters);
    b.gradients = ledger.currentBytes(MemoryTag::gradients);
    b.masterWeights = ledger.currentBytes(MemoryTag::masterWeights);
    b.optimizerState = ledger.currentBytes(MemoryTag::optimizerState);
    b.activations = ledger.currentBytes(MemoryTag::activations);
    b.temporary = ledger.currentBytes(MemoryTag::workspace);
    return b;
}

void MemoryTimelineRecorder::record(StepPhase phase, StepPart part, long layer) {
    events_.push_back({{phase, part, layer}, stepBytesHeld(ledger_)});
}

} // namespace napkin
