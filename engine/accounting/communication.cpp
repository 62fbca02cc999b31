// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/communication.h"

#include "engine/models/transformer_parameters.h"
#include "engine/text/name_table.h"
#include "engine/numerics/quantity_format.h"
#include "engine/text/text_concat.h"

namespace napkin {
namespace {

std::string n(double v) {
    return formatNumber(v);
}

constexpr NameTable<CommunicationGroup, 5> kGroups{
    {{CommunicationGroup::dataParallel, "data_parallel"},
     {CommunicationGroup::tensorParallel, "tensor_parallel"},
     {CommunicationGroup::contextParallel, "context_parallel"},
     {CommunicationGroup::expertParallel, "expert_parallel"},
     {CommunicationGroup::pipelineParallel, "pipeline_parallel"}}};
constexpr auto kAllGroups = valuesIn(kGroups);

struct Link {
    std::optional<double> bytesPerSecond;
    std::string text;
};

// A group of `size` GPUs whose ranks are `stride` apart stays inside one GPU-link domain when
// stride·size ≤ the GPUs the link joins (Megatron-LM's rank order: tp fastest, then cp, dp, pp).
Link linkFor(const GpuSpec& gpu, double stride, double size) {
    if (gpu.gpuLinkBytesPerSecondPerDirection && stride * size <= gpu.gpuLinkGpus)
        return {gpu.gpuLinkBytesPerSecondPerDirection,
                concat({gpu.gpuLinkName, ", ", formatNumber(*gpu.gpuLinkBytesPerSecondPerDirection),
                        " B/s per direction"})};
    if (stride * size <= 1)
        return {std::nullopt, "none"};
    if (gpu.networkBytesPerSecondPerDirection)
        return {gpu.networkBytesPerSecondPerDirection,
                "network, " + formatNumber(*gpu.networkBytesPerSecondPerDirection) + " B/s per direction"};
    return {std::nullopt, stride * size <= gpu.gpuLinkGpus || !gpu.gpuLinkBytesPerSecondPerDirection
                              ? "the catalog gives no GPU-to-GPU link for the " + gpu.id
                              : "the catalog gives no network figure for the " + gpu.id};
}

class LedgerBuilder {
public:
    explicit LedgerBuilder(const GpuSpec& gpu)
        : m_gpu(gpu) {}

    void add(CommunicationGroup group, std::string name, double bytes, std::string formula, double stride,
             double size) {
        if (bytes <= 0)
            return;
        const Link link = linkFor(m_gpu, stride, size);
        CommunicationItem item{std::move(name), group, bytes, std::nullopt, link.text, std::move(formula)};
        if (link.bytesPerSecond) {
            item.seconds = bytes / *link.bytesPerSecond;
            concatTo(item.formula, {" B; / ", n(*link.bytesPerSecond), " B/s = ", n(*item.seconds), " s"});
        } else {
            concatTo(item.formula, {" B; time unknown: ", link.text});
        }
        m_ledger.items.push_back(std::move(item));
    }

    CommunicationLedger finish() {
        CommunicationTotal& total = m_ledger.total;
        total.seconds = 0.0;
        std::string bytesText, secondsText;
        for (const CommunicationItem& item : m_ledger.items) {
            CommunicationTotal& g = m_ledger.perGroup.at(static_cast<std::size_t>(item.group));
            if (g.formula.empty())
                g.seconds = 0.0;
            concatTo(g.formula, {g.formula.empty() ? "" : " + ", n(item.bytes)});
            g.bytes += item.bytes;
            if (g.seconds && item.seconds)
                *g.seconds += *item.seconds;
            else
                g.seconds.reset();
            total.bytes += item.bytes;
            if (total.seconds && item.seconds)
                *total.seconds += *item.seconds;
            else
                total.seconds.reset();
        }
        for (CommunicationTotal& g : m_ledger.perGroup) {
            if (g.formula.empty()) {
                g.seconds = 0.0;
                g.formula = "0 B";
            } else {
                concatTo(g.formula, {" = ", n(g.bytes), " B", g.seconds ? " in " : "",
                                     g.seconds ? n(*g.seconds) : std::string(), g.seconds ? " s" : ""});
            }
        }
        total.formula =
            m_ledger.items.empty()
                ? "one GPU: no communication = 0 B"
                : concat({"sum of the ledger = ", n(total.bytes), " B", total.seconds ? " in " : "",
                          total.seconds ? n(*total.seconds) : std::string(),
                          total.seconds ? " s if nothing overlaps" : ""});
        return std::move(m_ledger);
    }

private:
    const GpuSpec& m_gpu;
    CommunicationLedger m_ledger;
};

std::string ring(double size) {
    return n(size - 1) + "/" + n(size);
}

// ZeRO's collectives over one group of `ranks` GPUs that replicate `parameters` on this GPU.
void dataParallelRows(LedgerBuilder& b, const CommunicationInput& in, double parameters, double ranks,
                      double stride, const std::string& what, const std::string& symbol) {
    if (ranks <= 1 || parameters <= 0)
        return;
    const double r = (ranks - 1) / ranks;
    const std::string ratio = ring(ranks);
    const double grads = r * parameters * in.gradientBytes, params = r * parameters * in.parameterBytes;
    const auto text = [&](const char* times, double bytesPerElement) {
        return concat({times, "(n−1)/n·", symbol, "·", n(bytesPerElement), " B = ", times, ratio, " × ",
                       n(parameters), " × ", n(bytesPerElement), " ="});
    };
    // Sharded gradients are reduced, and ZeRO-3's parameters gathered, for every micro-batch: under
    // gradient accumulation DeepSpeed's ZeRO-2/3 and FSDP FULL_SHARD (without no_sync, which would keep
    // the unsharded gradients this ledger's memory does not) repeat them per forward and backward.
    const double m = in.layout.microbatches;
    const auto perMicroBatch = [&](double bytesPerElement) {
        if (m <= 1)
            return text("", bytesPerElement);
        return concat({"m·(n−1)/n·", symbol, "·", n(bytesPerElement), " B = ", n(m), " × ", ratio, " × ",
                       n(parameters), " × ", n(bytesPerElement), " ="});
    };
    auto add = [&](std::string_view name, double bytes, const std::string& formula) {
        b.add(CommunicationGroup::dataParallel, concat({what, name}), bytes, concat({formula, " ", n(bytes)}),
              stride, ranks);
    };
    switch (in.zeroStage) {
    case 0:
        add("gradient all-reduce", 2 * grads, text("2·", in.gradientBytes));
        break;
    case 1:
        add("gradient reduce-scatter", grads, text("", in.gradientBytes));
        add("parameter all-gather after the step", params, text("", in.parameterBytes));
        break;
    case 2:
        add("gradient reduce-scatter", m * grads, perMicroBatch(in.gradientBytes));
        add("parameter all-gather after the step", params, text("", in.parameterBytes));
        break;
    default:
        add("parameter all-gather (forward)", m * params, perMicroBatch(in.parameterBytes));
        add("parameter all-gather (backward)", m * params, perMicroBatch(in.parameterBytes));
        add("gradient reduce-scatter", m * grads, perMicroBatch(in.gradientBytes));
        break;
    }
}

void transformerRows(LedgerBuilder& b, const CommunicationInput& in, double dp) {
    const ModelSpec& m = in.model;
    const ParallelLayout& l = in.layout;
    const double s = m.seq, h = m.dModel, bsz = in.batch, mb = l.microbatches, t = l.tp, cp = l.cp;
    const double layers = stageLayers(l, m.layers, in.stage), act = in.activationBytes;
    const bool full = in.recompute == Recompute::full;
    const std::string layersText = l.pp == 1 ? "L·m·" : hasUnevenStages(l) ? "L_stage·m·" : "(L/p)·m·";
    const std::string layersNumbers = n(layers) + " × " + n(mb) + " × ";
    const double slab = s * bsz * h * act / cp; // one s·b·h activation of this GPU's tokens
    const std::string slabText = "s·b·h·" + n(act) + " B" + (cp > 1 ? "/cp" : "");
    if (t > 1) {
        const double r = (t - 1) / t, collectives = full ? 12 : 8;
        const double bytes = layers * mb * collectives * r * slab;
        b.add(CommunicationGroup::tensorParallel,
              l.sp ? "all-gathers and reduce-scatters in the layers" : "all-reduces in the layers", bytes,
              layersText + n(collectives) + "·(t−1)/t·" + slabText + " = " + layersNumbers + n(collectives) +
                  " × " + ring(t) + " × " + n(slab) + " = " + n(bytes),
              1, t);
        const bool first = l.pp == 1 || in.stage == PipelineStage::first;
        const bool last = l.pp == 1 || in.stage == PipelineStage::last;
        const double edge = mb * 2 * r * slab;
        const std::string edgeText = "m·2·(t−1)/t·" + slabText + " = " + n(mb) + " × 2 × " + ring(t) + " × " +
                                     n(slab) + " = " + n(edge);
        if (first)
            b.add(CommunicationGroup::tensorParallel, "vocabulary-parallel embedding", edge, edgeText, 1, t);
        if (last)
            b.add(CommunicationGroup::tensorParallel, "output layer (input gradient)", edge, edgeText, 1, t);
    }
    if (cp > 1) {
        const double kv = kvHeadCount(m) * headWidth(m), passes = full ? 4 : 3;
        const double chunk = 2 * s * bsz * kv * act / (cp * t); // this GPU's K and V
        const double bytes = layers * mb * passes * (cp - 1) * chunk;
        b.add(CommunicationGroup::contextParallel, "K/V ring (forward; K/V and their gradients backward)",
              bytes,
              layersText + n(passes) + "·(cp−1)·2·s·b·d_kv·" + n(act) + " B/(cp·t) = " + layersNumbers +
                  n(passes) + " × " + n(cp - 1) + " × " + n(chunk) + " = " + n(bytes),
              t, cp);
    }
    const double tokensSplit = cp * (l.sp ? t : 1.0); // the tokens one GPU routes and sends on
    if (l.ep > 1) {
        const double r = (l.ep - 1) / l.ep, passes = full ? 6 : 4;
        const double routed = m.topK * s * bsz * h * act / tokensSplit;
        const double bytes = layers * mb * passes * r * routed;
        b.add(CommunicationGroup::expertParallel, "token all-to-alls (dispatch and combine)", bytes,
              layersText + n(passes) + "·(ep−1)/ep·K·s·b·h·" + n(act) + " B" +
                  (tokensSplit > 1 ? "/" + n(tokensSplit) : "") + " = " + layersNumbers + n(passes) + " × " +
                  ring(l.ep) + " × " + n(routed) + " = " + n(bytes),
              t * cp, l.ep); // carved out of the data-parallel ranks, tp·cp apart
    }
    if (l.pp > 1) {
        const double boundary = s * bsz * h * act / tokensSplit;
        // Interleaved 1F1B: each micro-batch passes every GPU v times, so it crosses v times as many stage
        // boundaries ("the amount of communication also increases by v", Narayanan et al. 2021, §2.2.2).
        const double v = l.virtualStages;
        // A middle stage (uneven stages) sends both: activations on, gradients back.
        const bool middle = in.stage == PipelineStage::middle;
        const double bytes = (middle ? 2 : 1) * mb * v * boundary;
        const double stride = t * cp * dp;
        b.add(CommunicationGroup::pipelineParallel,
              middle                              ? "activations to the next stage, gradients to the previous"
              : in.stage == PipelineStage::first ? "activations to the next stage"
                                                 : "gradients to the previous stage",
              bytes,
              std::string(middle ? "2·" : "") + (v > 1 ? "m·v·s·b·h·" : "m·s·b·h·") + n(act) + " B" +
                  (tokensSplit > 1 ? "/" + n(tokensSplit) : "") + " = " + (middle ? "2 × " : "") + n(mb) +
                  (v > 1 ? " × " + n(v) : std::string()) + " × " + n(boundary) + " = " + n(bytes),
              stride, 2);
        const TransformerParameters p = transformerParameters(m);
        if (p.outputHead ==
            0) { // Megatron keeps the tied embedding on both ends and all-reduces its gradient
            const double tied = p.tokenEmbedding / t * in.gradientBytes;
            b.add(CommunicationGroup::pipelineParallel,
                  "tied-embedding gradient all-reduce (first ↔ last stage)", tied,
                  "2·(1/2)·V·d/t·" + n(in.gradientBytes) + " B = " + n(p.tokenEmbedding / t) + " × " +
                      n(in.gradientBytes) + " = " + n(tied),
                  stride * (l.pp - 1), 2);
        }
    }
}

} // namespace

std::string_view communicationGroupName(CommunicationGroup group) {
    return nameIn(kGroups, group);
}

std::span<const CommunicationGroup> allCommunicationGroups() {
    return kAllGroups;
}

CommunicationLedger communicationPerStep(const CommunicationInput& in, const GpuSpec& gpu) {
    LedgerBuilder b(gpu);
    const ParallelLayout& l = in.layout;
    const double dp = dataParallelSize(l, in.gpus);
    const double dpcp = dp * l.cp;
    const bool moe = in.model.kind == ModelKind::transformer && isMixtureOfExperts(in.model);
    const bool split = moe && l.ep > 1;
    // The experts are replicated over dp·cp/ep GPUs, the rest over dp·cp; without expert parallelism
    // both share one group and one collective.
    const double dense = split ? in.onGpu.dense : in.onGpu.total();
    const std::string denseSymbol = isDataParallelOnly(l) ? "P" : "P_gpu";
    if (in.shardGroup > 0 && in.shardGroup < dpcp && in.zeroStage > 0) {
        // HSDP: ZeRO within each group of g GPUs (tp apart), then the groups all-reduce their gradient shard.
        const double g = in.shardGroup, groups = dpcp / g;
        dataParallelRows(b, in, dense, g, l.tp, "", denseSymbol);
        const double r = (groups - 1) / groups;
        const double bytes = 2 * r * dense * in.gradientBytes / g;
        b.add(CommunicationGroup::dataParallel, "gradient-shard all-reduce across replicas (HSDP)", bytes,
              "2·(n−1)/n·" + denseSymbol + "·" + n(in.gradientBytes) + " B/g = 2 × " + ring(groups) + " × " +
                  n(dense) + " × " + n(in.gradientBytes) + " / " + n(g) + " = " + n(bytes),
              l.tp * g, groups);
    } else {
        dataParallelRows(b, in, dense, dpcp, l.tp, "", denseSymbol);
    }
    if (split)
        dataParallelRows(b, in, in.onGpu.experts, dpcp / l.ep, l.tp * l.ep, "expert ", "P_experts");
    if (in.model.kind == ModelKind::transformer)
        transformerRows(b, in, dp);
    return b.finish();
}

} // namespace napkin
