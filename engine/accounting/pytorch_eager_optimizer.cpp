// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/pytorch_eager_optimizer.h"

#include "engine/accounting/pytorch_eager_llama.h"
#include "engine/numerics/quantity_format.h"

#include <algorithm>

namespace napkin {
namespace {

// The parameter list being written: a name prefix for the tensors that follow.
struct TensorList {
    std::vector<ParameterTensor> tensors;
    std::string where;

    void add(const std::string& name, double elements) { tensors.push_back({where + name, elements}); }
    void linear(const std::string& name, double in, double out, bool bias) {
        add(name + ".weight", in * out);
        if (bias)
            add(name + ".bias", out);
    }
    void norm(const std::string& name, const ModelSpec& m) {
        add(name + ".weight", m.dModel);
        if (m.norm == NormKind::layernorm && hasNormBias(m))
            add(name + ".bias", m.dModel);
    }
};

// "layer 2" stands for every layer from 2 on (and "expert 2" for every later expert): a pair of
// neighbours (this parameter, the previous one) that occurs in layer 7 occurs in layer 2 already.
std::string repeated(const char* what, long index, double count) {
    std::string s = std::string(what) + " " + std::to_string(index);
    if (index == 2 && count > 2)
        s += "–" + formatNumber(count);
    return s;
}

// What the profiler shows (torch 1.13, CPU, one thread), as allocations of c10's CPU allocator:
// - every step() first makes and frees 4 + 288 B (its record_function frame) before any update;
// - a Python float meeting a tensor makes a 0-d double (8 B) and a 0-d tensor of the parameter's dtype,
//   freed by the op's end: 8 + e B ("wrapped scalars"); with the fp32 `step` tensor, 8 + 4 B.
constexpr double kFrameBytes = 4 + 288;
constexpr double kStepScalarBytes = 8 + 4;

/// One moment inside a parameter's update: k × this parameter + the previous one's kept temporary + c.
struct Moment {
    double k = 0;
    bool previous = false;
    double scalars = 0;
};

/// The moments of one parameter's update, in the order the profiler lists them (steady step).
std::vector<Moment> moments(OptimizerKind kind, double wrapped) {
    switch (kind) {
    case OptimizerKind::sgd: // param.add_(grad, alpha=-lr): in place, no scalar tensor
        return {};
    case OptimizerKind::momentum: // buf.mul_(momentum).add_(grad): in place
        return {{0, false, wrapped}};
    case OptimizerKind::adagrad: // std = state_sum.sqrt().add_(eps), the previous std freed at rebinding
        return {{0, true, kStepScalarBytes}, {1, true, wrapped}};
    case OptimizerKind::rmsprop: // avg = square_avg.sqrt().add_(eps): the previous avg freed at once
        return {{0, true, wrapped}, {1, true, 0}, {1, false, wrapped}};
    case OptimizerKind::adam:
    case OptimizerKind::adamw: // denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
        return {{0, true, kStepScalarBytes}, {0, true, wrapped}, {2, true, wrapped}, {1, true, wrapped}};
    }
    return {};
}

/// Whether torch.optim creates the state inside the first step() (after its frame), rather than at
/// construction (Adagrad) or never (SGD).
bool stateMadeInFirstStep(OptimizerKind kind) {
    return kind != OptimizerKind::sgd && kind != OptimizerKind::adagrad;
}

} // namespace

std::vector<ParameterTensor> pytorchEagerParameterTensors(const ModelSpec& m) {
    TensorList t;
    if (m.kind != ModelKind::transformer)
        return {};
    const double d = m.dModel, f = ffnWidth(m);
    // Two layers and two experts hold every neighbouring pair the whole list has, and keep the list short
    // whatever the layer and expert counts (up to 1e5 × 1024).
    const long layers = std::min(static_cast<long>(m.layers), 2L);
    if (isLlamaStyle(m)) { // reference_models.Decoder
        const double a = m.heads, g = kvHeadCount(m), dh = headWidth(m);
        t.add("embed.weight", m.vocab * d);
        const bool moe = isMixtureOfExperts(m);
        const double width = moe ? expertWidth(m) : f;
        const long experts = moe ? std::min(static_cast<long>(m.experts), 2L) : 1L;
        for (long l = 1; l <= layers; ++l) {
            t.where = repeated("layer", l, m.layers) + " ";
            t.norm("attention norm", m);
            t.norm("mlp norm", m);
            t.linear("q", d, a * dh, hasQkvBias(m));
            t.linear("k", d, g * dh, hasQkvBias(m));
            t.linear("v", d, g * dh, hasQkvBias(m));
            t.linear("o", a * dh, d, hasOutBias(m));
            if (moe)
                t.add("router.weight", d * m.experts);
            for (long e = 1; e <= experts; ++e) {
                t.where = repeated("layer", l, m.layers) + " " +
                          (moe ? repeated("expert", e, m.experts) + " " : "");
                t.linear("up", d, width, hasMlpBias(m));
                t.linear("gate", d, width, hasMlpBias(m));
                t.linear("down", width, d, hasMlpBias(m));
            }
        }
        t.where.clear();
        t.norm("final norm", m);
    } else { // nanoGPT's GPT-2
        t.add("wte.weight", m.vocab * d);
        t.add("wpe.weight", m.seq * d);
        for (long l = 1; l <= layers; ++l) {
            t.where = repeated("layer", l, m.layers) + " ";
            t.norm("ln_1", m);
            t.linear("c_attn", d, 3 * d, hasQkvBias(m));
            t.linear("attn.c_proj", d, d, hasOutBias(m));
            t.norm("ln_2", m);
            t.linear("c_fc", d, f, hasMlpBias(m));
            t.linear("mlp.c_proj", f, d, hasMlpBias(m));
        }
        t.where.clear();
        t.norm("ln_f", m);
    }
    if (m.embeddings != EmbeddingTying::tied)
        t.add("head.weight", m.vocab * d);
    return t.tensors;
}

OptimizerTemporaries pytorchEagerOptimizerTemporaries(const AccountingInput& in, const AccountingResult& r,
                                                      TrainingStep step) {
    const ModelSpec& m = in.model;
    // Measured for full training of fp32 or pure bf16 weights, state in the weights' dtype, one GPU's
    // whole optimizer (no ZeRO, no offload); LoRA and master-weight recipes are not.
    if (m.activationsOf != ActivationProfile::pytorchEager || !isTimelineModelled(in) ||
        isFineTuningSet(in.fineTuning) || in.zeroStage > 0 ||
        r.precision.masterWeights != StorageType::none ||
        (r.precision.parameters != StorageType::fp32 && r.precision.parameters != StorageType::bf16))
        return {};
    const std::string name(optimizerName(in.optimizer));
    switch (in.optimizerImplementation) {
    case OptimizerImplementation::fused: // one kernel per parameter group, in place
        return {0, name + ", torch.optim fused: updated in place = 0 B"};
    case OptimizerImplementation::forEach: { // whole lists at once: k × every parameter's bytes
        const double k = foreachTemporariesPerParameterByte(in.optimizer);
        const double all = r.memory.parameters.value;
        if (k == 0)
            return {0, name + ", torch.optim foreach: updated in place = 0 B"};
        return {k * all, name + ", torch.optim foreach (torch ≥ 2.0 on a GPU): " +
                             (k == 1 ? std::string() : formatNumber(k) + " × ") + formatNumber(all) +
                             " (lists as large as the parameters) = " + formatNumber(k * all) + " B"};
    }
    case OptimizerImplementation::singleTensor:
        break;
    }
    const std::vector<ParameterTensor> tensors = pytorchEagerParameterTensors(m);
    const double e = bytesPerElement(r.precision.parameters);
    const double wrapped = 8 + e;
    const bool firstMakesState = step == TrainingStep::first && stateMadeInFirstStep(in.optimizer);
    std::vector<Moment> each = moments(in.optimizer, wrapped);
    if (firstMakesState && in.optimizer == OptimizerKind::momentum)
        each.clear(); // the first step clones grad into the buffer (state) and multiplies nothing
    double best = 0, bestB = 0, bestPrevious = 0;
    Moment bestMoment;
    long bestIndex = -1;
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        const double b = tensors[i].elements * e, previous = i > 0 ? tensors[i - 1].elements * e : 0.0;
        for (const Moment& mo : each) {
            const double held = mo.k * b + (mo.previous ? previous : 0.0) + mo.scalars;
            if (held > best) {
                best = held;
                bestB = b;
                bestPrevious = mo.previous ? previous : 0.0;
                bestMoment = mo;
                bestIndex = static_cast<long>(i);
            }
        }
    }
    // The frame comes before any update: on top of the state in a steady step; before the state exists
    // in a first step that makes it.
    const double frame = firstMakesState ? kFrameBytes - r.memory.optimizerState.value : kFrameBytes;
    if (frame <= 0 && best == 0) // a first step whose loop only makes the state (momentum's clone)
        return {0, name + ", torch.optim single-tensor, first step: nothing beyond the state it makes = 0 B"};
    if (frame >= best)
        return {frame, name + ", torch.optim single-tensor: its step's record_function frame 4 + 288 = " +
                           formatNumber(frame) + " B"};
    const auto at = static_cast<std::size_t>(bestIndex);
    std::string f = name + ", torch.optim single-tensor, at " + tensors[at].name +
                    (at > 0 ? " (after " + tensors[at - 1].name + ")" : std::string()) +
                    " in model.parameters() order: ";
    std::vector<std::string> parts;
    if (bestMoment.k > 0)
        parts.push_back((bestMoment.k == 1 ? "" : formatNumber(bestMoment.k) + " × ") + formatNumber(bestB) +
                        " (its temporaries)");
    if (bestMoment.previous)
        parts.push_back(formatNumber(bestPrevious) + " (the previous parameter's)");
    if (bestMoment.scalars > 0)
        parts.push_back(formatNumber(bestMoment.scalars) + " (0-d scalars)");
    for (std::size_t i = 0; i < parts.size(); ++i)
        f += (i > 0 ? " + " : "") + parts[i];
    return {best, f + " = " + formatNumber(best) + " B"};
}

} // namespace napkin
