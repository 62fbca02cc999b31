// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/parallel_layout.h"

#include "engine/accounting/parallel_layout_knobs.h"
#include "engine/numerics/quantity_format.h"

#include <algorithm>
#include <cmath>

namespace napkin {
namespace {

std::string n(double v) {
    return formatNumber(v);
}

bool divides(double divisor, double value) {
    return std::fmod(value, divisor) == 0;
}

// The uneven split: p ≥ 2 stages of the plain 1F1B schedule, the first and last within the layers, the
// stages between sharing the rest in whole layers, at least one each.
InputError validateUnevenStages(const ParallelLayout& l, double layers) {
    const char* field = l.firstStageLayers ? "first-stage-layers" : "last-stage-layers";
    if (l.pp < 2)
        return {field, "sets a pipeline stage's layers; it needs --pp ≥ 2"};
    if (l.virtualStages > 1)
        return {field, "uneven stages are for the plain 1F1B schedule; --virtual-stages must be 1"};
    const double first = l.firstStageLayers.value_or(0), last = l.lastStageLayers.value_or(0);
    const double others = l.pp - (l.firstStageLayers ? 1 : 0) - (l.lastStageLayers ? 1 : 0);
    const double rest = layers - first - last;
    if (others == 0) {
        if (rest != 0)
            return {field, "with 2 stages the first and last hold every layer: " + n(first) + " + " + n(last) +
                               " must be " + n(layers)};
        return {};
    }
    if (rest < others || !divides(others, rest))
        return {field, "the other " + n(others) + " stages must share the remaining " + n(rest) + " of " +
                           n(layers) + " layers evenly, at least one each"};
    return {};
}

} // namespace

std::string_view pipelineStageName(PipelineStage stage) {
    switch (stage) {
    case PipelineStage::first:
        return "first";
    case PipelineStage::last:
        return "last";
    case PipelineStage::middle:
        return "second";
    }
    return "first";
}

bool hasUnevenStages(const ParallelLayout& l) {
    return l.firstStageLayers.has_value() || l.lastStageLayers.has_value();
}

StageLayerCounts stageLayerCounts(const ParallelLayout& l, double layers) {
    const double p = l.pp;
    if (p <= 1)
        return {layers, layers, layers};
    if (!hasUnevenStages(l))
        return {layers / p, layers / p, layers / p};
    if (l.firstStageLayers && l.lastStageLayers) {
        const double first = *l.firstStageLayers, last = *l.lastStageLayers;
        return {first, p > 2 ? (layers - first - last) / (p - 2) : 0.0, last};
    }
    if (l.firstStageLayers) {
        const double rest = (layers - *l.firstStageLayers) / (p - 1);
        return {*l.firstStageLayers, rest, rest};
    }
    const double rest = (layers - *l.lastStageLayers) / (p - 1);
    return {rest, rest, *l.lastStageLayers};
}

double stageLayers(const ParallelLayout& l, double layers, PipelineStage stage) {
    const StageLayerCounts c = stageLayerCounts(l, layers);
    switch (stage) {
    case PipelineStage::first:
        return c.first;
    case PipelineStage::last:
        return c.last;
    case PipelineStage::middle:
        return c.middle;
    }
    return c.first;
}

double stageLayers(const ParallelLayout& l, double layers, double index) {
    const StageLayerCounts c = stageLayerCounts(l, layers);
    return index <= 0 ? c.first : index >= l.pp - 1 ? c.last : c.middle;
}

double modelParallelSize(const ParallelLayout& l) {
    return l.tp * l.pp * l.cp;
}

double dataParallelSize(const ParallelLayout& l, double gpus) {
    return gpus / modelParallelSize(l);
}

double pipelineBubbleFraction(const ParallelLayout& l) {
    if (l.virtualStages > 1)
        return (l.pp - 1) / (l.virtualStages * l.microbatches + l.pp - 1);
    return (l.pp - 1) / (l.microbatches + l.pp - 1);
}

double microBatchesInFlight(const ParallelLayout& l, PipelineStage stage) {
    if (l.pp == 1 || stage == PipelineStage::first)
        return microBatchesInFlight(l, 0.0);
    return microBatchesInFlight(l, stage == PipelineStage::middle ? 1.0 : l.pp - 1);
}

double microBatchesInFlight(const ParallelLayout& l, double i) {
    const double p = l.pp, m = l.microbatches, v = l.virtualStages;
    if (v <= 1 || p == 1)
        return i == p - 1 ? 1.0 : std::min(p - i, m);
    return std::min(2 * (p - i - 1) + (v - 1) * p + 1, v * m) / v;
}

bool isDataParallelOnly(const ParallelLayout& l) {
    return l.tp == 1 && l.pp == 1 && l.cp == 1 && l.ep == 1 && !l.sp;
}

std::string layoutText(const ParallelLayout& l) {
    std::string text = "tp " + n(l.tp) + " × pp " + n(l.pp);
    if (l.cp > 1)
        text += " × cp " + n(l.cp);
    if (l.ep > 1)
        text += ", ep " + n(l.ep);
    if (l.virtualStages > 1)
        text += ", interleaved v " + n(l.virtualStages);
    if (l.sp)
        text += ", sequence parallel";
    return text;
}

InputError validateLayout(const ParallelLayout& l, const ModelSpec& m, double gpus) {
    // Each size a whole number in its range, in the table's words (parallel_layout_knobs.h).
    if (auto [field, message] = checkNumberKnobs(parallelLayoutKnobs(), l); !field.empty())
        return {field, message};
    if (l.virtualStages > 1 && l.pp == 1)
        return {"virtual-stages", "interleaves model chunks over pipeline stages; it needs --pp > 1"};
    if (l.virtualStages > 1 && !divides(l.pp, l.microbatches))
        return {"virtual-stages", "Megatron-LM's interleaved schedule needs the micro-batches to be a multiple "
                                  "of the pipeline stages (" + n(l.pp) + "), got --microbatches " +
                                      n(l.microbatches)};
    if (l.sp && l.tp == 1)
        return {"sp",
                "sequence parallelism splits activations over the tensor-parallel GPUs; it needs --tp > 1"};
    if (m.kind != ModelKind::transformer) {
        for (const auto& [field, size] : {std::pair{"tp", l.tp}, {"pp", l.pp}, {"cp", l.cp}, {"ep", l.ep}})
            if (size > 1)
                return {field,
                        "splits a transformer's layers, heads or sequence; a " +
                            std::string(modelKindName(m.kind)) +
                            " model is accounted with data parallelism only (use --model transformer)"};
        return {};
    }
    if (!divides(l.tp, m.heads))
        return {"tp", "must divide heads (" + n(m.heads) + "): each GPU takes whole heads, got " + n(l.tp)};
    if (!divides(l.tp, kvHeadCount(m)))
        return {"tp", "must divide kv-heads (" + n(kvHeadCount(m)) +
                          "): each GPU takes whole key/value heads, got " + n(l.tp)};
    if (hasUnevenStages(l)) {
        if (InputError error = validateUnevenStages(l, m.layers); !error.ok())
            return error;
    } else if (!divides(l.pp, m.layers)) {
        return {"pp", "must divide layers (" + n(m.layers) + "): each stage holds L/p layers, got " + n(l.pp) +
                          " (uneven stages: --first-stage-layers, --last-stage-layers)"};
    } else if (!divides(l.pp * l.virtualStages, m.layers)) {
        return {"virtual-stages", "p·v must divide layers (" + n(m.layers) + "): each chunk holds L/(p·v) layers, got " +
                                      n(l.pp) + " × " + n(l.virtualStages)};
    }
    if (l.cp > 1 && m.attentionImpl != AttentionImpl::flash)
        return {"cp", "context parallelism runs ring attention over flash-attention blocks; it needs "
                      "--attention-impl flash"};
    if (!divides(l.cp, m.seq))
        return {"cp", "must divide seq (" + n(m.seq) + "): each GPU takes s/cp tokens, got " + n(l.cp)};
    if (l.ep > 1 && !isMixtureOfExperts(m))
        return {"ep", "expert parallelism splits the experts; it needs --experts > 1"};
    if (!divides(l.ep, isMixtureOfExperts(m) ? m.experts : 1))
        return {"ep",
                "must divide experts (" + n(m.experts) + "): each GPU takes whole experts, got " + n(l.ep)};
    if (!divides(modelParallelSize(l), gpus))
        return {"gpus", "must be a multiple of tp·pp·cp = " + n(modelParallelSize(l)) +
                            " so that data parallel = gpus / (tp·pp·cp) is whole, got " + n(gpus)};
    const double dpcp = dataParallelSize(l, gpus) * l.cp;
    if (!divides(l.ep, dpcp))
        return {"ep", "must divide dp·cp = " + n(dpcp) +
                          ": expert parallelism is carved out of the data-parallel "
                          "GPUs, got " +
                          n(l.ep)};
    return {};
}

} // namespace napkin
