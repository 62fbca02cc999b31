// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/activation_memory.h"

#include "engine/accounting/caching_allocator.h"

#include "engine/accounting/activation_ledger_cache.h"
#include "engine/accounting/frozen_layers.h"
#include "engine/text/formula_text.h"
#include "engine/numerics/quantity_format.h"
#include "engine/text/text_concat.h"
#include "engine/numerics/work_counts.h"

namespace napkin {
namespace {

std::string n(double v) {
    return formatNumber(v);
}

// The text `spell` writes, or nothing in a search's probe, which reads the bytes alone (formula_text.h).
template <typename Spell> std::string text(Spell spell) {
    return formulasWanted() ? spell() : std::string();
}

// How many ways a tensor is divided on one GPU: t inside tensor parallelism, t on the residual path only
// with sequence parallelism, and cp for every token-indexed tensor.
double splitOf(ActivationSplit split, const ParallelLayout& l) {
    const double tp = split == ActivationSplit::tensorParallel || l.sp ? l.tp : 1.0;
    return tp * l.cp;
}

struct LayerBytes {
    double perSample = 0; ///< one layer, one sequence, on this GPU
    std::string text;     ///< "s·b·h·(34 + 5·a·s/h)"
};

// Korthikanti et al.'s closed forms (Table 2) for their block, in bytes with 16-bit activations.
LayerBytes korthikantiLayer(const ModelSpec& m, Recompute recompute, const ParallelLayout& l) {
    const double s = m.seq, h = m.dModel, a = m.heads, t = l.tp;
    const double linear = 18 + 4 * ffnMultiple(m); // 34 for the usual F = 4
    const double replicated = 10, split = linear - replicated;
    LayerBytes r;
    const bool tp = t > 1, sp = l.sp;
    switch (recompute) {
    case Recompute::none:
        if (!tp) {
            r.perSample = s * h * (linear + 5 * a * s / h);
            r.text = text([&] { return concat({"s·b·h·(", n(linear), " + 5·a·s/h)"}); });
        } else if (sp) {
            r.perSample = s * h * (linear + 5 * a * s / h) / t;
            r.text = text([&] { return concat({"s·b·h·(", n(linear), " + 5·a·s/h)/t"}); });
        } else {
            r.perSample = s * h * (replicated + split / t + 5 * a * s / (h * t));
            r.text = text([&] { return concat({"s·b·h·(10 + ", n(split), "/t + 5·a·s/(h·t))"}); });
        }
        break;
    case Recompute::selective:
        if (!tp) {
            r.perSample = s * h * linear;
            r.text = text([&] { return concat({n(linear), "·s·b·h"}); });
        } else if (sp) {
            r.perSample = s * h * linear / t;
            r.text = text([&] { return concat({n(linear), "·s·b·h/t"}); });
        } else {
            r.perSample = s * h * (replicated + split / t);
            r.text = text([&] { return concat({"s·b·h·(10 + ", n(split), "/t)"}); });
        }
        break;
    case Recompute::full:
        r.perSample = 2 * s * h / (sp ? t : 1.0);
        r.text = text([&] { return std::string(sp ? "2·s·b·h/t" : "2·s·b·h"); });
        break;
    }
    return r;
}

ActivationMemory transformerActivations(const ModelSpec& m, double b, StorageType type, Recompute recompute,
                                        const ParallelLayout& l, PipelineStage stage,
                                        double adapterElementsPerToken) {
    const double s = m.seq, L = m.layers;
    ActivationMemory memory;
    memory.layers = stageLayers(l, L, stage);
    memory.microBatchesInFlight = microBatchesInFlight(l, stage);
    // A search's probe reads the bytes alone: no rows, no texts (formula_text.h).
    const bool rows = formulasWanted();
    if (rows)
        memory.describes =
            m.activationsOf == ActivationProfile::pytorchEager
                ? "pytorch-eager: the tensors PyTorch eager autograd saves for a nanoGPT-style GPT-2 "
                  "(dropout "
                  "masks and LayerNorm statistics as the CUDA kernels keep them) or a Llama-style decoder "
                  "written as Hugging Face's modeling_llama.py eager path (with experts, "
                  "modeling_mixtral.py's "
                  "sparse MoE block), matched tensor by tensor against PyTorch 1.13 by tests/validation/"
                : "megatron: the tensors Megatron-LM keeps (Korthikanti et al. 2022, section 4.1), "
                  "generalised "
                  "to today's architectures";
    const bool logitsHere = l.pp == 1 || stage == PipelineStage::last;

    // The ledger, on this GPU, for one layer and one micro-batch of b sequences.
    // Each tensor's bytes for one sequence on this GPU and its fixed bytes (whatever the batch: a causal
    // mask's s²), added to the sums; its row holds the micro-batch's b sequences.
    auto addRows = [&](const std::vector<ActivationTensor>& tensors, bool perLayer, double& perSample,
                       double& fixed, double& rounding) {
        for (const ActivationTensor& t : tensors) {
            const double elementsPerSample = t.elementsPerToken * s / splitOf(t.split, l);
            perSample += elementsPerSample * t.bytesPerElement;
            fixed += t.fixedElements * t.bytesPerElement;
            rounding += allocatorRoundingBytes((b * elementsPerSample + t.fixedElements) * t.bytesPerElement);
            if (!rows)
                continue;
            const double elements = b * elementsPerSample + t.fixedElements;
            memory.ledger.push_back(
                {t.name, t.savedFor, t.dtype, elements, elements * t.bytesPerElement, perLayer, t.routed});
        }
    };
    double ledgerPerSample = 0, ledgerFixed = 0, layerRounding = 0, headRounding = 0;
    const SharedLedger layerLedger = cachedLayerActivationLedger(m, type, recompute);
    const SharedLedger headLedger = logitsHere ? cachedHeadActivationLedger(m, type) : nullptr;
    if (rows)
        memory.ledger.reserve(layerLedger->size() + (headLedger ? headLedger->size() : 0) + 1);
    addRows(*layerLedger, true, ledgerPerSample, ledgerFixed, layerRounding);
    if (adapterElementsPerToken > 0 && recompute != Recompute::full) {
        // LoRA: each adapted matrix a token passes keeps its r-wide x·A for B's weight gradient; A's
        // input x is the frozen matrix's input, already a row above.
        const double elementsPerSample =
            adapterElementsPerToken * s / splitOf(ActivationSplit::tensorParallel, l);
        const double elementBytes = bytesPerElement(type);
        ledgerPerSample += elementsPerSample * elementBytes;
        layerRounding += allocatorRoundingBytes(b * elementsPerSample * elementBytes);
        if (rows)
            memory.ledger.push_back({"LoRA x·A (r per adapted matrix)", "each adapter's B weight gradient",
                                     std::string(storageTypeName(type)), b * elementsPerSample,
                                     b * elementsPerSample * elementBytes, true});
    }
    // The head: Megatron's fp32 logits, 4·s·b·V split over the vocabulary by t; pytorch-eager's final norm
    // and loss tensors (one GPU: the profile refuses model parallelism).
    double logitsPerSample = 0, headFixed = 0;
    if (logitsHere)
        addRows(*headLedger, false, logitsPerSample, headFixed, headRounding);

    // Korthikanti's block with 16-bit activations keeps their closed form so that their numbers come out
    // exactly; everything else sums the ledger. Scaling the closed form for fp32 would double the 1-byte
    // dropout masks too, which stay torch.bool in every precision.
    const bool closedForm =
        hasKorthikantiBlock(m) && bytesPerElement(type) == 2 && adapterElementsPerToken == 0;
    LayerBytes layer;
    if (closedForm) {
        layer = korthikantiLayer(m, recompute, l);
    } else {
        layer.perSample = ledgerPerSample;
        layer.text = "s·b·Σledger";
    }
    const double layers = memory.layers * memory.microBatchesInFlight;
    memory.bytesPerSample = layers * layer.perSample + logitsPerSample;
    const double fixed = memory.layers * ledgerFixed + headFixed; // one mask per layer, not per micro-batch
    memory.bytes = b * memory.bytesPerSample + fixed;
    memory.layerBytesPerMicroBatch = b * memory.layers * layer.perSample;
    memory.layerFixedBytes = memory.layers * ledgerFixed;
    memory.headBytes = b * logitsPerSample + headFixed;
    memory.allocatorRoundingBytes = layers * layerRounding + headRounding;
    if (!rows)
        return memory;

    std::string layersText = "L·", layersNumbers = n(L);
    if (l.pp > 1) {
        const std::string_view stageLayersText = hasUnevenStages(l) ? "L_stage" : "(L/p)";
        layersText = concat({stageLayersText, l.virtualStages > 1               ? "·in-flight(p, m, v)·"
                                              : memory.microBatchesInFlight > 1
                                                  ? (stage == PipelineStage::middle ? "·min(p − 1, m)·" : "·min(p, m)·")
                                                                                : "·"});
        layersNumbers =
            concat({n(memory.layers), memory.microBatchesInFlight > 1 ? " × " : "",
                    memory.microBatchesInFlight > 1 ? n(memory.microBatchesInFlight) : std::string()});
    }
    const std::string_view cpText = l.cp > 1 ? "/cp" : "";
    const bool eager = m.activationsOf == ActivationProfile::pytorchEager;
    const std::string_view logitsText = eager ? "s·b·Σhead" : l.tp > 1 ? "4·s·b·V/t" : "4·s·b·V";
    // The symbols and the numbers grow in two strings sized once for what they usually hold.
    std::string& formula = memory.formula;
    formula.reserve(256);
    concatTo(formula, {layersText, layer.text, cpText});
    std::string numbers;
    numbers.reserve(128);
    concatTo(numbers, {layersNumbers, " × ", n(b * layer.perSample)});
    if (ledgerFixed > 0) {
        formula += " + L·Σfixed";
        concatTo(numbers, {" + ", n(memory.layers), " × ", n(ledgerFixed)});
    }
    if (logitsHere) {
        concatTo(formula, {" + ", logitsText, cpText, headFixed > 0 ? " + Σfixed" : ""});
        concatTo(numbers, {" + ", n(b * logitsPerSample), headFixed > 0 ? " + " : "",
                           headFixed > 0 ? n(headFixed) : std::string()});
    }
    concatTo(formula, {" = ", numbers, " = ", n(memory.bytes), " B"});
    return memory;
}

} // namespace

ActivationMemory activationMemory(const ModelSpec& m, double batch, StorageType type, Recompute recompute,
                                  double adapterElementsPerToken) {
    return activationMemory(m, batch, type, recompute, ParallelLayout{}, PipelineStage::first,
                            adapterElementsPerToken);
}

ActivationMemory activationMemory(const ModelSpec& m, double batch, StorageType type, Recompute recompute,
                                  const ParallelLayout& layout, PipelineStage stage,
                                  double adapterElementsPerToken) {
    ++workCounts().activationLedgers;
    const double elementBytes = bytesPerElement(type);
    ActivationMemory memory;
    switch (m.kind) {
    case ModelKind::dense:
        memory.modelled = false;
        memory.formula = "not modelled: a dense parameter count has no layers to store activations of "
                         "(choose cruncher, linear2 or transformer)";
        return memory;
    case ModelKind::cruncher:
        return cruncherActivations(m, batch, type, {});
    case ModelKind::linear2:
        memory.bytesPerSample = m.dim * elementBytes;
        memory.bytes = batch * memory.bytesPerSample;
        memory.formula = "B·D × " + n(elementBytes) + " B = " + n(batch) + " × " + n(m.dim) + " × " +
                         n(elementBytes) + " = " + n(memory.bytes) + " B";
        return memory;
    case ModelKind::transformer:
        return transformerActivations(m, batch, type, recompute, layout, stage, adapterElementsPerToken);
    }
    return memory;
}

} // namespace napkin
