// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/pytorch_eager_lora.h"

#include "engine/accounting/pytorch_eager_llama.h"
#include "engine/accounting/pytorch_eager_rows.h"
#include "engine/numerics/quantity_format.h"

#include <algorithm>

namespace napkin {
namespace {

constexpr auto tensorParallel = ActivationSplit::tensorParallel;

std::string n(double v) {
    return formatNumber(v);
}

// Which tensors of a layer need dL/d(tensor): g for "needs a gradient". A tensor needs one when the
// layer input does or an adapter upstream of it in the layer trains.
struct LayerFlow {
    eager::Rows& b;
    const FineTuning& ft;
    bool gated; // a GELU MLP has no gate (all-linear names it; no adapter goes there)

    bool adapted(LoraTarget t) const { return targets(ft, t) && (t != LoraTarget::gate || gated); }

    // PEFT's lora.Linear: A's mm keeps its input (the frozen projection's input, a row of the caller's),
    // B's mm keeps the r-wide x·A, and `· scaling` keeps alpha/r as a 0-d double (a wrapped Python number).
    void adapter(LoraTarget t) {
        if (!adapted(t))
            return;
        const std::string name(loraTargetName(t));
        b.tensor(name + " adapter's x·A", name + " adapter B's weight gradient", ft.rank, tensorParallel);
        b.fixed(name + " adapter's scaling alpha/r (0-d double)", "the scaling mul's backward", 1,
                eager::kDoubleBytes, "fp64");
    }

    // The q, k and v adapters on the attention norm's output: their shared A input (one storage), each
    // adapter's rows; returns which of Q, K and V need a gradient.
    struct Qkv {
        bool q, k, v;
    };
    Qkv qkvAdapters(double h, bool gx) {
        using T = LoraTarget;
        if (adapted(T::q) || adapted(T::k) || adapted(T::v))
            b.tensor("attention norm output (q, k, v adapters' A input)", "the A matrices' weight gradient",
                     h);
        for (T t : {T::q, T::k, T::v})
            adapter(t);
        return {gx || adapted(T::q), gx || adapted(T::k), gx || adapted(T::v)};
    }
};

void gpt2Layer(LayerFlow& f, const ModelSpec& m, bool gx) {
    eager::Rows& b = f.b;
    const double h = m.dModel, a = m.heads, s = m.seq, ff = ffnWidth(m);
    using T = LoraTarget;
    if (gx) { // native_layer_norm keeps input, mean and 1/σ only for dL/dx here (its weight is frozen)
        b.tensor("attention norm input", "LayerNorm's backward", h);
        b.layerNormStatistics("attention norm");
    }
    const auto [gq, gk, gv] = f.qkvAdapters(h, gx);
    // bmm keeps each operand for the other's gradient: Q for dK, Kᵀ for dQ.
    if (gk)
        b.tensor("Q (matmul's contiguous copy)", "the q @ kᵀ bmm (K's gradient)", h, tensorParallel);
    if (gq)
        b.tensor("Kᵀ (matmul's contiguous copy)", "the q @ kᵀ bmm (Q's gradient)", h, tensorParallel);
    const bool gs = gq || gk; // the scores
    if (gs) {
        b.fixed("score scale 1/√d_h (0-d double)", "the scaling mul's backward", 1, eager::kDoubleBytes,
                "fp64");
        b.fixed("causal mask (bias[:s, :s] == 0)", "masked_fill's backward", s * s, eager::kBoolBytes,
                "bool");
    }
    if (m.dropout && gs)
        b.mask("attention-probability dropout mask", a * s, true);
    if (m.dropout) {
        if (gs)
            b.tensor("softmax output", "the softmax's backward", a * s, tensorParallel, true);
        if (gv)
            b.tensor("dropped-out probabilities (A·V input)", "the A·V bmm (V's gradient)", a * s,
                     tensorParallel, true);
    } else if (gs || gv) { // one storage: the softmax's result is the A·V bmm's operand
        b.tensor("softmax output", "the softmax's backward and the A·V bmm", a * s, tensorParallel, true);
    }
    if (gs)
        b.tensor("V (matmul's contiguous copy)", "the A·V bmm (the probabilities' gradient)", h,
                 tensorParallel);
    const bool ga = gs || gv; // the attention output
    if (f.adapted(T::o))
        b.tensor("attention output (o adapter's A input)", "the A matrix's weight gradient", h,
                 tensorParallel);
    f.adapter(T::o);
    const bool go = ga || f.adapted(T::o);
    if (m.dropout && go)
        b.mask("attention-output dropout mask", h);
    const bool g2 = gx || go; // the residual stream after attention
    if (g2) {
        b.tensor("MLP norm input", "LayerNorm's backward", h);
        b.layerNormStatistics("MLP norm");
    }
    if (f.adapted(T::up))
        b.tensor("MLP norm output (up adapter's A input)", "the A matrix's weight gradient", h);
    f.adapter(T::up);
    const bool gu = g2 || f.adapted(T::up);
    if (gu)
        b.tensor("up projection output (GELU input)", "GELU's backward", ff, tensorParallel);
    if (f.adapted(T::down))
        b.tensor("GELU output (down adapter's A input)", "the A matrix's weight gradient", ff,
                 tensorParallel);
    f.adapter(T::down);
    if (m.dropout && (gu || f.adapted(T::down)))
        b.mask("MLP-output dropout mask", h);
}

void llamaLayer(LayerFlow& f, const ModelSpec& m, StorageType activations, bool gx) {
    eager::Rows& b = f.b;
    const double h = m.dModel, a = m.heads, s = m.seq, ff = ffnWidth(m), q = a * headWidth(m);
    using T = LoraTarget;
    // A frozen RMSNorm keeps what dL/dx needs, not the normalised x (its weight's gradient alone reads
    // it) nor the output.
    if (gx)
        b.rmsNormStatistics("attention norm", h);
    const auto [gq, gk, gv] = f.qkvAdapters(h, gx);
    if (gk)
        b.tensor("Q after RoPE (bmm's operand)", "the q @ kᵀ bmm (K's gradient)", q, tensorParallel);
    if (gq)
        b.tensor("K after RoPE and repeat_kv (bmm's operand)", "the q @ kᵀ bmm (Q's gradient)", q,
                 tensorParallel);
    const bool gs = gq || gk;
    if (gs)
        b.fixed("score scale d_h^-0.5 (0-d double)", "the scaling mul's backward", 1, eager::kDoubleBytes,
                "fp64");
    // fp32: .to(q.dtype) returns the softmax's result itself, the A·V bmm's operand too.
    const bool fp32 = bytesPerElement(activations) == eager::kFp32Bytes;
    if (gs || (fp32 && gv))
        b.fp32("softmax output (fp32)", "the softmax's backward", a * s, tensorParallel, true);
    if (!fp32 && gv)
        b.tensor("probabilities cast back (A·V input)", "the A·V bmm (V's gradient)", a * s, tensorParallel,
                 true);
    if (gs)
        b.tensor("V after repeat_kv (bmm's operand)", "the A·V bmm (the probabilities' gradient)", q,
                 tensorParallel);
    if (f.adapted(T::o))
        b.tensor("attention output (o adapter's A input)", "the A matrix's weight gradient", q,
                 tensorParallel);
    f.adapter(T::o);
    const bool g2 = gx || gs || gv || f.adapted(T::o);
    if (g2)
        b.rmsNormStatistics("MLP norm", h);
    if (f.adapted(T::gate) || f.adapted(T::up))
        b.tensor("MLP norm output (gate and up adapters' A input)", "the A matrices' weight gradient", h);
    f.adapter(T::gate);
    f.adapter(T::up);
    const bool gg = g2 || f.adapted(T::gate), gu = g2 || f.adapted(T::up);
    // silu(gate) · up: mul keeps each operand for the other's gradient.
    if (gg)
        b.tensor("gate projection output (SiLU input)", "SiLU's backward", ff, tensorParallel);
    if (gu)
        b.tensor("SiLU output", "the SiLU · up mul's backward (up's gradient)", ff, tensorParallel);
    if (gg)
        b.tensor("up projection output", "the SiLU · up mul's backward (SiLU's gradient)", ff,
                 tensorParallel);
    if (f.adapted(T::down))
        b.tensor("SiLU · up (down adapter's A input)", "the A matrix's weight gradient", ff, tensorParallel);
    f.adapter(T::down);
}

bool anyAdapted(const LayerFlow& f, std::initializer_list<LoraTarget> roles) {
    return std::any_of(roles.begin(), roles.end(), [&](LoraTarget t) { return f.adapted(t); });
}

} // namespace

std::string pytorchEagerLoraUnsupported(const ModelSpec& model, const FineTuning& ft) {
    if (ft.method == FineTuneMethod::qlora)
        return "describes LoRA on a frozen base in the recipe's dtype; QLoRA's NF4 matmuls "
               "(bitsandbytes) are not measured (torch 1.13 has none); use lora or megatron";
    // The LoRA rows follow a dense block op by op; a frozen router and experts behind adapters keep other
    // tensors (the routing of tokens that need gradients), which no reference has measured yet.
    if (isMixtureOfExperts(model))
        return "describes LoRA on dense blocks; LoRA on a mixture of experts is not measured yet; use "
               "megatron";
    return {};
}

std::vector<ActivationTensor> pytorchEagerLoraLayerLedger(const ModelSpec& m, const FineTuning& ft,
                                                          StorageType activations, Recompute recompute,
                                                          bool inputNeedsGradient) {
    eager::Rows b(activations);
    if (recompute == Recompute::full) {
        b.tensor("layer input (the checkpoint)", "torch.utils.checkpoint re-running the layer", m.dModel);
        return b.rows;
    }
    LayerFlow f{b, ft, isGatedMlp(m)};
    if (isLlamaStyle(m))
        llamaLayer(f, m, activations, inputNeedsGradient);
    else
        gpt2Layer(f, m, inputNeedsGradient);
    return b.rows;
}

std::vector<ActivationTensor> pytorchEagerLoraHeadLedger(const ModelSpec& m, const FineTuning& ft,
                                                         StorageType activations, Recompute recompute) {
    eager::Rows b(activations);
    if (isLlamaStyle(m)) {
        eager::Rows probe(activations);
        LayerFlow f{probe, ft, true};
        // RoPE's muls keep cos and sin (one storage each for every layer) where q or k needs a gradient:
        // from layer 2 on always, in layer 1 where q or k is adapted. The checkpoint keeps them as inputs.
        if (recompute == Recompute::full || m.layers >= 2 || anyAdapted(f, {LoraTarget::q, LoraTarget::k})) {
            const double table = m.seq * headWidth(m);
            b.fixed("RoPE cos (1, s, d_h)", "the layers' RoPE muls", table, b.act, b.actName);
            b.fixed("RoPE sin (1, s, d_h)", "the layers' RoPE muls", table, b.act, b.actName);
        }
        b.rmsNormStatistics("final norm", m.dModel);
        b.fp32("log-softmax output (fp32: the loss upcasts the logits)", "the cross-entropy's backward",
               m.vocab, tensorParallel);
        b.fixed("loss total weight (0-d)", "the cross-entropy's backward", 1, eager::kFp32Bytes, "fp32");
        return b.rows;
    }
    // The checkpoint needs the embeddings' output to require grad: its dropout then keeps a mask.
    if (m.dropout && recompute == Recompute::full)
        b.mask("embedding dropout mask", m.dModel);
    b.tensor("final norm input", "LayerNorm's backward", m.dModel);
    b.layerNormStatistics("final norm");
    b.tensor("log-softmax output", "the cross-entropy's backward", m.vocab, tensorParallel);
    b.fixed("loss total weight (0-d)", "the cross-entropy's backward", 1, b.act, b.actName);
    return b.rows;
}

ActivationMemory pytorchEagerLoraActivations(const ModelSpec& m, const FineTuning& ft, double batch,
                                             StorageType activations, Recompute recompute) {
    const std::vector<ActivationTensor> first = pytorchEagerLoraLayerLedger(m, ft, activations, recompute,
                                                                            recompute == Recompute::full),
                                        later =
                                            pytorchEagerLoraLayerLedger(m, ft, activations, recompute, true);
    // Layer 1 keeps a subset of what a later layer keeps (fewer tensors need a gradient): the rest are
    // the later layers' alone.
    std::vector<ActivationTensor> laterOnly;
    for (const ActivationTensor& t : later)
        if (std::none_of(first.begin(), first.end(),
                         [&](const ActivationTensor& f) { return f.name == t.name; }))
            laterOnly.push_back(t);

    ActivationMemory memory;
    memory.layers = m.layers;
    memory.describes = "pytorch-eager with LoRA: the tensors PyTorch eager autograd saves with the base "
                       "frozen and PEFT-style adapters on the targeted projections (layer 1 keeps nothing "
                       "before its first adapter), matched tensor by tensor against PyTorch 1.13 by "
                       "tests/cli/lora_torch_check.py";
    const double s = m.seq, L = m.layers;
    struct Sum {
        double perSample = 0, fixed = 0;
    };
    auto add = [&](const std::vector<ActivationTensor>& rows, double copies, bool perLayer,
                   const std::string& prefix) {
        Sum sum;
        for (const ActivationTensor& t : rows) {
            sum.perSample += t.elementsPerToken * s * t.bytesPerElement;
            sum.fixed += t.fixedElements * t.bytesPerElement;
            const double elements = copies * (batch * t.elementsPerToken * s + t.fixedElements);
            memory.ledger.push_back(
                {prefix + t.name, t.savedFor, t.dtype, elements, elements * t.bytesPerElement, perLayer});
        }
        return sum;
    };
    const Sum each = add(first, 1, true, "");
    const Sum rest = L > 1 ? add(laterOnly, L - 1, false, "layers 2–L: ") : Sum{};
    const Sum head = add(pytorchEagerLoraHeadLedger(m, ft, activations, recompute), 1, false, "");
    memory.bytesPerSample = L * each.perSample + (L - 1) * rest.perSample + head.perSample;
    const double fixed = L * each.fixed + (L - 1) * rest.fixed + head.fixed;
    memory.bytes = batch * memory.bytesPerSample + fixed;
    memory.formula = "L·(s·b·Σlayer 1 + fixed) + (L − 1)·(s·b·Σlayers 2–L's more + fixed) + s·b·Σhead + "
                     "fixed = " +
                     n(L) + " × " + n(batch * each.perSample + each.fixed) + " + " + n(L - 1) + " × " +
                     n(batch * rest.perSample + rest.fixed) + " + " + n(batch * head.perSample + head.fixed) +
                     " = " + n(memory.bytes) + " B";
    return memory;
}

EagerLoraStepBytes pytorchEagerLoraStepBytes(const ModelSpec& m, const FineTuning& ft, double batch,
                                             StorageType activations, Recompute recompute) {
    const auto bytes = [&](const std::vector<ActivationTensor>& rows) {
        double sum = 0;
        for (const ActivationTensor& t : rows)
            sum += (batch * t.elementsPerToken * m.seq + t.fixedElements) * t.bytesPerElement;
        return sum;
    };
    const bool checkpoint = recompute == Recompute::full;
    EagerLoraStepBytes b;
    b.head = bytes(pytorchEagerLoraHeadLedger(m, ft, activations, recompute));
    b.firstLayer = bytes(pytorchEagerLoraLayerLedger(m, ft, activations, recompute, checkpoint));
    b.laterLayer = bytes(pytorchEagerLoraLayerLedger(m, ft, activations, recompute, true));
    b.firstLayerRecomputed =
        bytes(pytorchEagerLoraLayerLedger(m, ft, activations, Recompute::none, checkpoint));
    b.laterLayerRecomputed = bytes(pytorchEagerLoraLayerLedger(m, ft, activations, Recompute::none, true));
    return b;
}

} // namespace napkin
