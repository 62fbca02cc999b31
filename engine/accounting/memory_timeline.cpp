// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/memory_timeline.h"

#include "engine/accounting/frozen_layers.h"
#include "engine/accounting/pytorch_eager_lora.h"
#include "engine/accounting/pytorch_eager_loss.h"
#include "engine/accounting/pytorch_eager_optimizer.h"
#include "engine/accounting/pytorch_eager_step_ops.h"
#include "engine/accounting/stage_memory.h"
#include "engine/accounting/timeline_builder.h"
#include "engine/accounting/timeline_layer_bytes.h"
#include "engine/text/formula_text.h"
#include "engine/text/name_table.h"
#include "engine/numerics/quantity_format.h"
#include "engine/text/text_concat.h"
#include "engine/numerics/work_counts.h"

#include <algorithm>

namespace napkin {
namespace {

constexpr NameTable<StepPhase, 6> kPhaseNames{{{StepPhase::start, "start"},
                                               {StepPhase::forward, "forward"},
                                               {StepPhase::recompute, "recompute"},
                                               {StepPhase::backward, "backward"},
                                               {StepPhase::optimizer, "optimizer"},
                                               {StepPhase::zeroGrad, "zero_grad"}}};
constexpr NameTable<TrainingStep, 2> kStepNames{
    {{TrainingStep::first, "first"}, {TrainingStep::steady, "steady"}}};

/// One bias-free matmul of a chain: `weights` parameters, `in` features in, `out` features out; `trains`:
/// its weight gets a gradient (frozen_layers.h).
struct ChainLayer {
    double weights, in, out;
    bool trains = true;
};

/// cruncher and linear2: layers then a head, each y = x·W. A layer that trains keeps its input for
/// backward (dW = xᵀ·dy); the first layer's input is the data, which is not counted (nor freed). An input
/// no backward needs (that of a frozen layer) is a temporary, freed once the layer's forward has read it.
/// Backward runs from the head down to the lowest layer that trains, which computes no dL/dx.
void chainTimeline(TimelineBuilder& t, const std::vector<ChainLayer>& chain, double batch,
                   double elementBytes) {
    const auto tensor = [&](double width) { return batch * width * elementBytes; };
    const std::size_t n = chain.size(); // the head is chain[n − 1]
    const ChainLayer& head = chain.back();
    std::size_t lowest = 0; // the lowest that trains (the head, at worst): backward stops there
    while (!chain[lowest].trains)
        ++lowest;
    for (std::size_t i = 0; i + 1 < n; ++i) {
        (chain[i + 1].trains ? t.now.activations : t.now.temporary) += tensor(chain[i].out);
        if (i + 2 == n)
            t.activationsComplete();
        t.emit(StepPhase::forward, StepPart::layer, static_cast<long>(i + 1));
        if (i > 0 && !chain[i].trains)
            t.now.temporary -= tensor(chain[i].in); // not kept: this forward was its last use
    }
    t.now.temporary += tensor(head.out); // y: the loss needs it, autograd does not keep it for the head
    t.emit(StepPhase::forward, StepPart::head);
    t.now.temporary += tensor(head.out); // dL/dy
    t.emit(StepPhase::backward, StepPart::loss);
    t.now.temporary -= tensor(head.out); // y's last use was dL/dy
    for (std::size_t i = n; i-- > lowest;) {
        const bool inputGradient = i > lowest;
        if (chain[i].trains)
            t.addGradients(chain[i].weights, i == lowest);
        if (inputGradient)
            t.now.temporary += tensor(chain[i].in); // dL/dx, the next layer down's dL/dy
        t.emit(StepPhase::backward, i + 1 == n ? StepPart::head : StepPart::layer,
               i + 1 == n ? 0 : static_cast<long>(i + 1));
        t.now.temporary -= tensor(chain[i].out); // dL/dy of this layer: used
        if (chain[i].trains && i > 0)
            t.now.activations -= tensor(chain[i].in); // its saved input: dW was its last use
    }
    t.endBackward();
}

/// Per-layer bytes and parameters as the difference of the accounting's own counts at one layer and
/// at none, so that the timeline follows every change to those formulas.
void transformerTimeline(TimelineBuilder& t, const AccountingInput& in, const AccountingResult& r) {
    const ModelSpec& m = in.model;
    const StorageType type = r.precision.activations;
    const double adapters = countAdapters(m, in.fineTuning).elementsPerToken; // LoRA's x·A per layer
    const ValuesOnly bytesOnly; // the ledgers below are read for their bytes alone
    const TimelineLayerBytes bytes = timelineLayerBytes(m, in.batch, type, in.recompute, adapters);
    double logits = bytes.logits; // fp32 4·s·b·V
    double kept = bytes.kept;
    // Without recompute no layer is re-created, so the whole layer's bytes are not read.
    double whole = bytes.whole;
    double keptFirst = kept, wholeFirst = whole;
    if (m.activationsOf == ActivationProfile::pytorchEager && hasAdapters(in.fineTuning)) {
        // pytorch-eager under LoRA: layer 1 keeps less than the others (pytorch_eager_lora.h).
        const EagerLoraStepBytes e =
            pytorchEagerLoraStepBytes(m, in.fineTuning, in.batch, type, in.recompute);
        logits = e.head;
        kept = e.laterLayer;
        whole = e.laterLayerRecomputed;
        keptFirst = e.firstLayer;
        wholeFirst = e.firstLayerRecomputed;
    }
    // What gets a gradient: each layer's parameters and the LM head's weight (tied: the token embedding),
    // or under LoRA each layer's adapters alone.
    const bool frozenBase = hasAdapters(in.fineTuning);
    const double layerParameters = frozenBase ? r.trainableParameters / m.layers : bytes.layerParameters;
    const double headParameters = frozenBase ? 0.0 : m.vocab * m.dModel;
    const double dh = tokensPerStep(m, in.batch) * m.dModel * bytesPerElement(type); // dL/dh, s·b·h
    const auto L = static_cast<long>(m.layers);

    const bool gathered = r.gathered.forwardBytes > 0; // ZeRO-3/FSDP: the root and layers gathered
    if (gathered)
        t.gather(false);
    for (long l = 1; l <= L; ++l) {
        t.now.activations += l == 1 ? keptFirst : kept;
        t.emit(StepPhase::forward, StepPart::layer, l);
    }
    t.activationsComplete(); // the fp32 logits, kept for the loss's backward
    const bool eager = m.activationsOf == ActivationProfile::pytorchEager;
    // pytorch-eager's cross-entropy (log-softmax, then NLL) reads the logits as the loss receives them (a
    // Llama-style model's fp32 upcast) while it makes the log-softmax output the head ledger keeps: one more
    // tensor of that size at the forward's high-water mark, freed when the forward returns. Its backward
    // makes dL/dlog-probs (NLL's), then dL/dlogits (log-softmax's) while both that and the log-softmax
    // output are held. Seen in torch 2.11's CUDA allocator trace of GPT-2 and in torch 1.13's CPU one
    // (docs/memory-timeline.md, "The loss's transients").
    const double lossTensor = eager ? pytorchEagerLossTensorBytes(m, in.batch, type) : 0.0;
    t.now.temporary += lossTensor;
    t.emit(StepPhase::forward, StepPart::head);
    t.now.temporary -= lossTensor;
    // dL/dlogits as the head's backward reads it: Megatron's fp32 logits' size; pytorch-eager's in the
    // activations' dtype (its head ledger also holds the final norm's tensors, so its size is not the
    // head's bytes).
    const double logitsGrad = eager ? tokensPerStep(m, in.batch) * m.vocab * bytesPerElement(type) : logits;
    const double lossGradients = eager ? 2 * lossTensor : logitsGrad; // dL/dlog-probs and dL/dlogits
    t.now.temporary += lossGradients;
    t.emit(StepPhase::backward, StepPart::loss);
    t.now.temporary += logitsGrad - lossGradients; // NLL's gradient used; a Llama's cast back to bf16
    t.now.activations -= logits;
    t.addGradients(headParameters, false);
    t.now.temporary += dh;
    t.emit(StepPhase::backward, StepPart::head);
    t.now.temporary -= logitsGrad;
    for (long l = L; l >= 1; --l) {
        double held = l == 1 ? keptFirst : kept;
        if (in.recompute != Recompute::none) { // the layer's forward again, keeping everything this time
            const double recreated = l == 1 ? wholeFirst : whole;
            t.now.activations += recreated - held;
            held = recreated;
            t.emit(StepPhase::recompute, StepPart::layer, l);
        }
        t.addGradients(layerParameters, false);
        t.now.temporary += dh; // dL/d(this layer's input)
        if (gathered)
            t.gather(true);
        t.now.temporary += t.gatheredGradients(); // its unsharded gradients, the reduce-scatter's input
        t.emit(StepPhase::backward, StepPart::layer, l);
        t.now.temporary -= t.gatheredGradients();
        t.now.temporary -= dh; // dL/d(its output): used
        t.now.activations = l == 1 ? 0.0 : t.now.activations - held;
    }
    t.addGradients(0, true); // position embeddings, the final norm: every gradient not yet created
    t.emit(StepPhase::backward, StepPart::embeddings);
    t.endBackward();
    if (gathered)
        t.releaseGathered(); // resharded after backward
}

} // namespace

double StepBytes::total() const {
    return parameters + gradients + masterWeights + optimizerState + activations + temporary;
}

namespace {

/// Every event of the step into `t`; returns the optimizer step's temporaries.
OptimizerTemporaries buildTimeline(TimelineBuilder& t, const AccountingInput& in, const AccountingResult& r,
                                   TrainingStep step) {
    // Event by event: start, two events per layer (three with recompute), the head, the loss, the
    // embeddings, the optimizer and zero_grad. (Validated layer counts are whole, at most 1e5.)
    if (isTimelineModelled(in) && in.model.layers >= 0 && in.model.layers <= 1e5)
        t.reserve(3 * static_cast<std::size_t>(in.model.layers) + 8);
    t.emit(StepPhase::start, StepPart::model);
    const ModelSpec& m = in.model;
    const double elementBytes = bytesPerElement(r.precision.activations);
    switch (m.kind) {
    case ModelKind::dense: // phases only: no architecture, so no activations or temporaries
        t.emit(StepPhase::forward, StepPart::model);
        t.addGradients(0, true);
        t.emit(StepPhase::backward, StepPart::model);
        break;
    case ModelKind::cruncher: {
        std::vector<ChainLayer> chain;
        for (long l = 1; l <= static_cast<long>(m.layers); ++l)
            chain.push_back({m.dim * m.dim, m.dim, m.dim, layerTrains(in.fineTuning.frozenLayers, l)});
        chain.push_back({m.dim, m.dim, 1});
        chainTimeline(t, chain, in.batch, elementBytes);
        break;
    }
    case ModelKind::linear2:
        chainTimeline(t, {{m.dim * m.dim, m.dim, m.dim}, {m.dim * m.out, m.dim, m.out}}, in.batch,
                      elementBytes);
        break;
    case ModelKind::transformer:
        if (isTimelineModelled(in) && eagerStepOpsUnsupported(in, r).empty()) {
            eagerStepTimeline(t, in, r); // op by op: each event at its high-water mark
            break;
        }
        if (isTimelineModelled(in)) {
            transformerTimeline(t, in, r);
            break;
        }
        // Tensor, pipeline, context or expert parallelism: phases only, from this GPU's figures. The
        // per-layer order of one GPU under a 1F1B schedule (micro-batches' forwards and backwards
        // interleaved, L/p layers, split tensors) is not modelled, so the peak shown is the sum's.
        t.activationsComplete();
        if (r.gathered.forwardBytes > 0)
            t.gather(false);
        t.emit(StepPhase::forward, StepPart::model);
        t.gradientsComplete();
        if (r.gathered.forwardBytes > 0)
            t.gather(true);
        t.now.temporary += t.gatheredGradients();
        t.emit(StepPhase::backward, StepPart::model);
        t.endBackward();
        t.releaseGathered();
        break;
    }
    OptimizerTemporaries update = pytorchEagerOptimizerTemporaries(in, r, step);
    t.finish(update.bytes);
    return update;
}

} // namespace

MemoryTimeline memoryTimeline(const AccountingInput& in, const AccountingResult& r, TrainingStep step) {
    ++workCounts().timelineBuilds;
    TimelineBuilder t(in, r, step);
    const OptimizerTemporaries update = buildTimeline(t, in, r, step);
    MemoryTimeline timeline = t.take();
    timeline.optimizerTemporaries = update.bytes;
    timeline.optimizerTemporariesFormula = update.formula;
    return timeline;
}

double memoryTimelinePeakBytes(const AccountingInput& in, const AccountingResult& r, TrainingStep step) {
    ++workCounts().timelineBuilds; // walked event by event all the same
    TimelineBuilder t(in, r, step, false);
    buildTimeline(t, in, r, step);
    return t.peakBytes();
}

bool isTimelineModelled(const AccountingInput& in) {
    switch (in.model.kind) {
    case ModelKind::dense:
        return false;
    case ModelKind::cruncher:
    case ModelKind::linear2:
        return true;
    case ModelKind::transformer:
        return isDataParallelOnly(in.parallel);
    }
    return false;
}

std::optional<std::size_t> peakEventIndex(std::span<const TimelineEvent> events) {
    if (events.empty())
        return std::nullopt;
    const auto peak = std::max_element(events.begin(), events.end(), [](const auto& a, const auto& b) {
        return a.bytes.total() < b.bytes.total();
    });
    return static_cast<std::size_t>(peak - events.begin());
}

std::string stepEventName(const StepEvent& e) {
    switch (e.phase) {
    case StepPhase::start:
    case StepPhase::zeroGrad:
        return std::string(stepPhaseName(e.phase));
    case StepPhase::optimizer:
        return "optimizer step";
    case StepPhase::forward:
    case StepPhase::recompute:
    case StepPhase::backward:
        break;
    }
    std::string name(stepPhaseName(e.phase));
    switch (e.part) {
    case StepPart::model:
        return name;
    case StepPart::layer:
        return name + " layer " + std::to_string(e.layer);
    case StepPart::head:
        return name + " head";
    case StepPart::loss:
        return name + " loss";
    case StepPart::embeddings:
        return name + " embeddings";
    }
    return name;
}

std::string_view stepPhaseName(StepPhase phase) {
    return nameIn(kPhaseNames, phase);
}

std::string_view trainingStepName(TrainingStep step) {
    return nameIn(kStepNames, step);
}

} // namespace napkin
