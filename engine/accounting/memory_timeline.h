// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Memory over one training step: the bytes each component holds at each named event of the step, in
// PyTorch's eager order with zero_grad(set_to_none=True), and the peak. The napkin sum (memory_bytes)
// is an upper bound that no moment of the step reaches for most models: activations pile up through
// forward and are freed layer by layer in backward while the gradients appear. docs/memory-timeline.md
// says what is modelled and what is not.
#include "engine/accounting/accounting.h"

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

enum class StepPhase { start, forward, recompute, backward, optimizer, zeroGrad };

/// What an event runs: the whole model (dense), one layer, the head (the last matmul: the Cruncher's
/// D×1 head, a transformer's logits), the loss, the embeddings, the optimizer's update.
enum class StepPart { model, layer, head, loss, embeddings };

/// One named moment of a step. `layer` counts from 1 for StepPart::layer and is 0 otherwise.
struct StepEvent {
    StepPhase phase = StepPhase::start;
    StepPart part = StepPart::model;
    long layer = 0;
    bool operator==(const StepEvent&) const = default;
};

/// Bytes held at one event, per component (per GPU).
struct StepBytes {
    double parameters = 0, gradients = 0, masterWeights = 0, optimizerState = 0, activations = 0;
    double temporary = 0; ///< backward temporaries: the model output, dL/d(output), gradients of activations;
                          ///< pytorch-eager's optimizer step: torch.optim's per-tensor temporaries
    double total() const; ///< the six above
    bool operator==(const StepBytes&) const = default;
};

/// The bytes of an event are those at its high-water mark: after the tensors it creates exist and
/// before the ones it used for the last time are freed (frees show at the next event). zero_grad only
/// frees, and shows the bytes after it. So the largest total over the events is the step's peak.
struct TimelineEvent {
    StepEvent event;
    StepBytes bytes;
    bool operator==(const TimelineEvent&) const = default;
};

/// The first step creates the optimizer state (at its update); every later step starts with it.
enum class TrainingStep { first, steady };

struct MemoryTimeline {
    TrainingStep step = TrainingStep::steady;
    std::vector<TimelineEvent> events;
    std::size_t peakIndex = 0; ///< the first event whose total is the largest
    double peakBytes = 0;
    std::string peakFormula; ///< "at backward layer 2: 144 + 80 + 0 + 144 + 32 + 64 = 464 B"
    /// The optimizer step's temporaries (pytorch_eager_optimizer.h); 0 and empty where the update is fused.
    double optimizerTemporaries = 0;
    std::string optimizerTemporariesFormula;
};

/// The events of one step of `input`'s model, from the same byte counts as account() (`result` must be
/// account(input, ...)'s): parameters, master weights and, in a steady step, optimizer state are
/// memory_bytes' at every event; gradients reach memory_bytes.gradients at the optimizer step;
/// activations reach memory_bytes.activations at the end of forward. Events, in order:
///   start; forward layer 1…L, forward head; backward loss, backward head, [recompute layer l,]
///   backward layer l for l = L…1, [backward embeddings]; optimizer step; zero_grad.
/// cruncher and linear2 (a chain of bias-free matmuls): a layer keeps its input for backward (the
/// first layer's input is the data, not counted); the head's output y (B·K) and dL/dy are temporaries,
/// as is each dL/dh (B·D) from the backward of the layer above to that of the layer below. With frozen
/// Cruncher layers (fineTuning.frozenLayers, frozen_layers.h) a frozen layer's input is a temporary
/// until its forward, it makes no gradient, and backward ends at the lowest layer that trains.
/// transformer: a layer's activations are Korthikanti et al.'s per-layer count under the recompute
/// mode; the fp32 logits are kept until the loss's backward; dL/dlogits (fp32) and dL/dh (s·b·h) are
/// temporaries; selective and full recompute re-create a layer's dropped activations just before its
/// backward (a `recompute layer l` event). Under pytorch-eager a GPT-2-style step, and a Llama-style
/// one in fp32, dense or Mixtral-style (pytorch_eager_moe_ops.h: routing taken as balanced), is followed op
/// by op (pytorch_eager_step_ops.h, pytorch_eager_llama_ops.h): each event is the
/// high-water mark of the allocations and frees inside it, in eager autograd's order, so its peak is exact
/// inside a layer's backward too. dense: phases only (start, forward, backward, optimizer step, zero_grad),
/// with no activations.
MemoryTimeline memoryTimeline(const AccountingInput& input, const AccountingResult& result,
                              TrainingStep step = TrainingStep::steady);

/// memoryTimeline(input, result, step).peakBytes, bit for bit, with no event stored: a search's probe.
double memoryTimelinePeakBytes(const AccountingInput& input, const AccountingResult& result,
                               TrainingStep step = TrainingStep::steady);

/// Whether memoryTimeline() follows `input`'s step event by event (cruncher, linear2, a transformer on data
/// parallelism alone); false where it has phases only from the memory totals, whose peak is their sum
/// (dense; a transformer with tensor, pipeline, context or expert parallelism).
bool isTimelineModelled(const AccountingInput& input);

/// The index of the first event with the largest total; nullopt for no events.
std::optional<std::size_t> peakEventIndex(std::span<const TimelineEvent> events);

/// "start", "forward layer 3", "recompute layer 3", "backward head", "optimizer step", "zero_grad".
std::string stepEventName(const StepEvent& event);
/// "start", "forward", "recompute", "backward", "optimizer", "zero_grad".
std::string_view stepPhaseName(StepPhase phase);
std::string_view trainingStepName(TrainingStep step); ///< "first", "steady"

} // namespace napkin
