// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The memory timeline's builder (memory_timeline.cpp): the bytes held now, changed tensor by tensor as a
// step's events go by, and the events taken of them, or only their peak for a search's probe.
#include "engine/accounting/accounting.h"
#include "engine/accounting/memory_timeline.h"
#include "engine/accounting/op_run.h"
#include "engine/accounting/stage_memory.h"
#include "engine/text/formula_text.h"
#include "engine/numerics/quantity_format.h"
#include "engine/text/text_concat.h"

#include <vector>

namespace napkin {

/// The bytes held now, changed tensor by tensor, and the events taken of them.
class TimelineBuilder {
public:
    /// `keepEvents` false: a search's probe, which needs the peak alone; the events are not stored.
    TimelineBuilder(const AccountingInput& in, const AccountingResult& r, TrainingStep step,
                    bool keepEvents = true)
        : r_(r)
        , gradientBytesPerParameter_(r.bytesPerParameter.gradients)
        , gradientDivisor_(in.zeroStage >= 2 && !in.sharding.twoGradientCopies ? zeroShardGpus(in) : 1.0)
        , partitionDivisor_(in.sharding.twoGradientCopies ? zeroShardGpus(in) : 0.0)
        , step_(step)
        , keepEvents_(keepEvents) {
        now.parameters = r.memory.parameters.value;
        now.masterWeights = r.memory.masterWeights.value;
        now.optimizerState = step == TrainingStep::steady ? r.memory.optimizerState.value : 0.0;
    }

    StepBytes now;

    void reserve(std::size_t events) {
        if (keepEvents_)
            events_.reserve(events);
    }

    void emit(StepPhase phase, StepPart part, long layer = 0) { emitBytes({phase, part, layer}, now); }

    /// Op by op (pytorch_eager_step_ops.h): the high-water mark is looked for from here.
    void startHighWater() { high_ = now; }
    /// Plays `ops` onto the bytes held, keeping the largest total met for emitHighWater().
    void run(const OpRun& ops) {
        const StepBytes atPeak = changedBy(ops.peak());
        if (atPeak.total() > high_.total())
            high_ = atPeak;
        now = changedBy(ops.end());
        gradientCount_ += ops.end().gradientParameters;
    }
    /// An event at the high-water mark of what ran since the last one; the next is looked for from now.
    void emitHighWater(StepPhase phase, StepPart part, long layer = 0) {
        emitBytes({phase, part, layer}, high_);
        high_ = now;
    }

    /// The peak of the events emitted without keeping them.
    double peakBytes() const { return peakBytes_; }

    /// The gradients of `count` more parameters exist; `last`: these complete the model's.
    /// Sharded as model_state_memory.h shards them, in the same expression, so that the last event's
    /// bytes are memory_bytes.gradients to the bit.
    void addGradients(double count, bool last) {
        gradientCount_ = last ? r_.trainableParameters : gradientCount_ + count;
        now.gradients = gradientBytes(gradientCount_);
    }
    /// The gradients of `count` parameters as this GPU holds them.
    double gradientBytes(double count) const {
        double bytes = count * gradientBytesPerParameter_ / gradientDivisor_;
        if (partitionDivisor_ > 0) // DeepSpeed's fp32 partition beside the whole 16-bit buffer
            bytes += count * kFp32GradientBytes / partitionDivisor_;
        return bytes;
    }

    /// ZeRO-3/FSDP's gathered weights (forward: `backward` false) or weights and reduce buffers (backward)
    /// held above the shards at the next events; none() drops them.
    void gather(bool backward) {
        const GatheredWorkingSet& w = r_.gathered;
        now.parameters = r_.memory.parameters.value + w.parameterBytes;
        gatheredGradients_ = backward ? w.backwardBytes - w.parameterBytes : 0.0;
    }
    void releaseGathered() {
        now.parameters = r_.memory.parameters.value;
        gatheredGradients_ = 0;
    }
    /// The layer's unsharded gradients and the reduce-scatter input, held at a backward layer's event.
    double gatheredGradients() const { return gatheredGradients_; }

    /// The end of forward: every activation the formula counts is held.
    void activationsComplete() { now.activations = r_.memory.activations.value; }
    /// Every gradient this GPU holds exists, as memory_bytes.gradients counts them.
    void gradientsComplete() {
        gradientCount_ = r_.trainableParameters;
        now.gradients = r_.memory.gradients.value;
    }

    /// Backward is over: its temporaries and the last activations are gone (exactly, not by subtraction).
    void endBackward() {
        now.activations = 0;
        now.temporary = 0;
    }

    /// The optimizer's update (the first step creates its state) with the temporaries it holds at its
    /// high-water mark (none for a fused update), then zero_grad(set_to_none=True).
    void finish(double optimizerTemporaries = 0) {
        if (step_ == TrainingStep::first)
            now.optimizerState = r_.memory.optimizerState.value;
        now.temporary = optimizerTemporaries;
        emit(StepPhase::optimizer, StepPart::model);
        now.temporary = 0;
        now.gradients = 0;
        gradientCount_ = 0;
        emit(StepPhase::zeroGrad, StepPart::model);
    }

    MemoryTimeline take() {
        MemoryTimeline t;
        t.step = step_;
        t.events = std::move(events_);
        t.peakIndex = peakEventIndex(t.events).value_or(0);
        if (!t.events.empty()) {
            const TimelineEvent& peak = t.events[t.peakIndex];
            const StepBytes& b = peak.bytes;
            t.peakBytes = b.total();
            if (formulasWanted())
                t.peakFormula =
                    concat({"at ", stepEventName(peak.event), ": ", formatNumber(b.parameters), " + ",
                            formatNumber(b.gradients), " + ", formatNumber(b.masterWeights), " + ",
                            formatNumber(b.optimizerState), " + ", formatNumber(b.activations), " + ",
                            formatNumber(b.temporary), " = ", formatNumber(t.peakBytes), " B"});
        }
        return t;
    }

private:
    void emitBytes(const StepEvent& event, const StepBytes& bytes) {
        if (keepEvents_) {
            events_.push_back({event, bytes});
            return;
        }
        const double total = bytes.total(); // the first largest, as peakEventIndex() picks it
        if (!anyEvent_ || total > peakBytes_)
            peakBytes_ = total;
        anyEvent_ = true;
    }
    StepBytes changedBy(const HeldChange& c) const {
        StepBytes b = now;
        b.activations += c.activations;
        b.temporary += c.temporary;
        b.gradients = gradientBytes(gradientCount_ + c.gradientParameters);
        return b;
    }

    static constexpr double kFp32GradientBytes = 4; // model_state_memory.cpp's, DeepSpeed's partition
    const AccountingResult& r_;
    double gradientBytesPerParameter_, gradientDivisor_, partitionDivisor_;
    double gatheredGradients_ = 0;
    TrainingStep step_;
    bool keepEvents_;
    bool anyEvent_ = false;
    double peakBytes_ = 0;
    double gradientCount_ = 0;
    StepBytes high_; ///< op by op: the largest total since the last event
    std::vector<TimelineEvent> events_;
};

} // namespace napkin
