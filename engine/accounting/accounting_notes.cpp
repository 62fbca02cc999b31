// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/accounting_notes.h"

#include "engine/accounting/parallel_layout.h"
#include "engine/accounting/pytorch_eager_step_ops.h"
#include "engine/numerics/quantity_format.h"
#include "engine/text/text_concat.h"

#include <cmath>
#include <string_view>

namespace napkin {

// The end of the peak-above-sum note: what is held on top and what judges the peak.
constexpr const char* kHeldOnTop =
    " are held on top; fits, max_batch, max_sequence and the fit advice judge the peak";
namespace {

std::string n(double v) {
    return formatNumber(v);
}

} // namespace

void addStepNotes(AccountingResult& r, const AccountingInput& in) {
    if (!r.activationsModelled)
        r.notes.emplace_back(
            "activations are not modelled for a dense parameter count; memory is model states only");
    if (in.recompute != Recompute::none && in.model.kind != ModelKind::transformer)
        r.notes.emplace_back("activation recompute is modelled for transformers only; ignored here");
    // The closed forms are Megatron's; the pytorch-eager ledger is tensor by tensor in every dtype.
    if (in.model.kind == ModelKind::transformer && in.model.activationsOf == ActivationProfile::megatron &&
        bytesPerElement(r.precision.activations) != 2)
        r.notes.push_back("Korthikanti et al.'s closed forms assume 16-bit activations; with " +
                          std::string(storageTypeName(r.precision.activations)) +
                          " the activation ledger is summed tensor by tensor (dropout masks stay 1 B)");
    if (in.gpus > 1 && isDataParallelOnly(in.parallel))
        r.notes.emplace_back(
            "memory and FLOPs per step are per GPU; each GPU runs its own batch (data parallel)");
}

// Notes about the architecture options and parallel layouts; none of them applies to a GPT-2 on data
// parallelism alone, whose notes stay those above.
void addLayoutNotes(AccountingResult& r, const AccountingInput& in) {
    const ModelSpec& m = in.model;
    const ParallelLayout& l = in.parallel;
    if (!isDataParallelOnly(l))
        r.notes.push_back("memory is that of one GPU" +
                          (r.memoryStage ? " of the " + std::string(pipelineStageName(*r.memoryStage)) +
                                               " pipeline stage, the most loaded"
                                         : std::string()) +
                          "; FLOPs per step are one replica's (" + n(in.batch * l.microbatches) +
                          (in.batch * l.microbatches == 1 ? " sequence" : " sequences") +
                          " over tp·pp·cp = " + n(modelParallelSize(l)) + " GPUs) divided evenly");
    if (l.microbatches > 1 && l.pp == 1)
        r.notes.emplace_back("batch is the micro-batch: activations are held for one micro-batch at a time "
                             "(gradient accumulation); FLOPs per step cover all of them");
    if (l.pp > 1)
        r.notes.push_back(
            "pipeline bubble: " + n(r.pipelineBubbleFraction.value) + " of each step is idle, " +
            (l.virtualStages > 1
                 ? "(p − 1)/(v·m + p − 1) with " + n(l.virtualStages) + " interleaved chunks per stage"
                 : std::string("(p − 1)/(m + p − 1)")) +
            "; the MFU is taken to include it");
    if (m.kind != ModelKind::transformer)
        return;
    if (isMixtureOfExperts(m))
        r.notes.push_back(
            "mixture of experts: FLOPs per token count the " + n(m.topK) + " active experts (" +
            formatExact(r.parameters.active) + " active parameters); memory holds all " + n(m.experts) +
            (m.activationsOf == ActivationProfile::pytorchEager
                 // modeling_mixtral.py's loop saves b·s·K token slots whatever the split.
                 ? ". The ledger's routed rows (index lists included) hold the b·s·" + n(m.topK) +
                       " token slots, however the router splits them among the experts"
                 : ". Routing is taken as balanced, with no capacity factor; the routing "
                   "indices are left out of the activations"));
    if (in.recompute == Recompute::selective && m.attentionImpl == AttentionImpl::flash)
        r.notes.emplace_back(
            "flash attention keeps no s×s scores, so selective recompute keeps as much as none");
}

// The peak and the sum differ for most models; say which decides and why, where it matters.
void addPeakNotes(AccountingResult& r, const AccountingInput& in) {
    if (!r.peakFromTimeline) {
        if (in.model.kind == ModelKind::transformer)
            r.notes.emplace_back("the order of a tensor-, pipeline-, context- or expert-parallel step is not "
                                 "modelled event by event: the peak is taken to be the sum");
        return;
    }
    if (isMixtureOfExperts(in.model) && eagerStepOpsUnsupported(in, r).empty()) {
        // pytorch_eager_moe_ops.h: the experts' sizes follow the data's routing, which napkin is not told.
        const double slots = in.batch * in.model.seq * in.model.topK, E = in.model.experts;
        const double extra = std::fmod(slots, E);
        constexpr std::string_view lead = "the timeline takes the routing as balanced: backward runs the "
                                          "experts one by one, last first, and its peak follows how many "
                                          "token slots each got; token slot j (of b·s·K = ";
        r.notes.push_back(concat(
            {lead, n(slots), ") is taken to go to expert j mod ", n(E), ", so each expert gets ",
             n(std::floor(slots / E)), extra > 0 ? " and the first " + n(extra) + " one more" : "",
             ". A skewed routing moves the backward layers' peaks"}));
    }
    const double sum = r.memory.total.value, peak = r.peakMemory.value;
    if (peak > sum)
        r.notes.push_back(
            concat({"the step's peak (", formatBytes(peak), " at ", r.peakEvent, ") is above the sum (",
                    formatBytes(sum), "): backward's temporaries",
                    in.recompute != Recompute::none ? " and the recomputed layer's activations" : "",
                    kHeldOnTop}));
}

} // namespace napkin
