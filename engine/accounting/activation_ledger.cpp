// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/activation_ledger.h"

#include "engine/accounting/pytorch_eager_ledger.h"

#include <algorithm>

namespace napkin {
namespace {

constexpr double kFp32Bytes = 4;

struct LedgerBuilder {
    std::vector<ActivationTensor> rows;
    double act = 2, mask = 1;
    std::string actName;

    void tensor(std::string name, std::string savedFor, double elements, ActivationSplit split,
                bool scores = false) {
        rows.push_back({std::move(name), std::move(savedFor), elements, act, actName, split, scores});
    }
    void dropoutMask(std::string name, double elements, ActivationSplit split, bool scores = false) {
        rows.push_back({std::move(name), "dropout backward", elements, mask, "mask", split, scores});
    }
    void fp32(std::string name, std::string savedFor, double elements, ActivationSplit split) {
        rows.push_back({std::move(name), std::move(savedFor), elements, kFp32Bytes, "fp32", split, false});
    }
};

constexpr auto tensorParallel = ActivationSplit::tensorParallel;
constexpr auto sequence = ActivationSplit::sequence;

// Score elements per token in one layer, averaged over the layers: a·s, windowed layers a·min(s, W).
double scoreElementsPerToken(const ModelSpec& m) {
    const double a = m.heads, s = m.seq, Lw = windowedLayerCount(m);
    if (Lw <= 0)
        return a * s;
    return a * ((m.layers - Lw) * s + Lw * std::min(s, m.slidingWindow)) / m.layers;
}

void attentionRows(LedgerBuilder& b, const ModelSpec& m, bool keepScores) {
    const double h = m.dModel, a = m.heads;
    // Q is a·d_qk wide; K and V g·d_h (GQA: shared, never repeated), MLA: a·d_qk and a·d_v after kv_b.
    const bool mla = isLatentAttention(m);
    const double q = a * queryKeyHeadWidth(m);
    const double k = mla ? q : kvHeadCount(m) * headWidth(m);
    const double v = mla ? a * valueHeadWidth(m) : k;
    const bool flash = m.attentionImpl == AttentionImpl::flash;
    b.tensor("attention norm input", "the norm's backward", h, sequence);
    b.tensor("attention norm output (QKV input)", "the QKV projection's weight gradient", h, sequence);
    if (mla) {
        if (m.qLoraRank > 0)
            b.tensor("query latent (q_b input)", "the q_b projection and its norm", m.qLoraRank, tensorParallel);
        b.tensor("key/value latent (kv_b input)", "the kv_b projection and its norm", m.kvLoraRank + m.qkRopeHeadDim,
                 tensorParallel);
    }
    if (m.qkNorm != QkNorm::none) {
        b.tensor("QK-norm input (queries)", "the QK-norm's backward", q, tensorParallel);
        b.tensor("QK-norm input (keys)", "the QK-norm's backward", k, tensorParallel);
    }
    const std::string qkvFor = flash ? "flash attention's backward" : "the QKᵀ and A·V matmuls";
    b.tensor("Q", qkvFor, q, tensorParallel);
    b.tensor("K", qkvFor, k, tensorParallel);
    b.tensor("V", qkvFor, v, tensorParallel);
    const double scores = scoreElementsPerToken(m);
    if (flash) {
        // No s×s tensor survives the forward: backward recomputes the scores from Q, K and this statistic.
        b.fp32("log-sum-exp per row", "flash attention's backward", a, tensorParallel);
    } else if (keepScores) {
        b.tensor("softmax output",
                 m.dropout ? "the softmax's backward" : "the softmax's backward and the A·V matmul", scores,
                 tensorParallel, true);
        if (m.dropout) {
            b.dropoutMask("attention-probability dropout mask", scores, tensorParallel, true);
            b.tensor("dropped-out probabilities (A·V input)", "the A·V matmul", scores, tensorParallel, true);
        }
    }
    b.tensor("attention output (output-projection input)",
             flash ? "the output projection and flash attention's backward" : "the output projection",
             mla ? v : a * valueHeadWidth(m), tensorParallel);
    if (m.normPlacement == NormPlacement::sandwich)
        b.tensor("attention post-norm input", "the post-norm's backward", h, sequence);
    if (m.dropout)
        b.dropoutMask("attention-output dropout mask", h, sequence);
}

void expertRows(LedgerBuilder& b, const ModelSpec& m, double copies, double width, const std::string& prefix) {
    const double f = copies * width;
    if (isGatedMlp(m)) {
        const std::string act = m.mlp == MlpKind::geglu ? "GELU" : "SiLU";
        b.tensor(prefix + "gate projection output (" + act + " input)", act + "'s backward", f, tensorParallel);
        b.tensor(prefix + act + " output", "the product's backward", f, tensorParallel);
        b.tensor(prefix + "up projection output", "the product's backward", f, tensorParallel);
        b.tensor(prefix + act + "·up (down-projection input)", "the down projection", f, tensorParallel);
    } else {
        b.tensor(prefix + "up projection output (GELU input)", "GELU's backward", f, tensorParallel);
        b.tensor(prefix + "GELU output (down-projection input)", "the down projection", f, tensorParallel);
    }
}

void mlpRows(LedgerBuilder& b, const ModelSpec& m) {
    const double h = m.dModel;
    b.tensor("MLP norm input", "the norm's backward", h, sequence);
    if (isMixtureOfExperts(m)) {
        const double K = m.topK, E = m.experts;
        b.tensor("MLP norm output (router input)", "the router's weight gradient", h, sequence);
        b.fp32("router probabilities", "the router softmax's backward", E, sequence);
        b.tensor("gate weights of the top-k experts", "the weighted sum of expert outputs", K, sequence);
        // Each token is copied to its K experts; with balanced routing every GPU holds K·s·b tokens'
        // worth whatever the expert-parallel size.
        b.tensor("routed token copies (expert inputs)", "the experts' first projections", K * h, sequence);
        expertRows(b, m, K, expertWidth(m), "experts: ");
        b.tensor("expert outputs", "the weighted sum's backward (gate-weight gradient)", K * h, sequence);
        if (m.sharedFfnDim > 0)
            expertRows(b, m, 1, m.sharedFfnDim, "shared expert: ");
    } else {
        b.tensor("MLP norm output (MLP input)",
                 isGatedMlp(m) ? "the gate and up projections (one tensor, counted once)" : "the up projection",
                 h, sequence);
        expertRows(b, m, 1, ffnWidth(m), "");
    }
    if (m.normPlacement == NormPlacement::sandwich)
        b.tensor("MLP post-norm input", "the post-norm's backward", h, sequence);
    if (m.dropout)
        b.dropoutMask("MLP-output dropout mask", h, sequence);
}

} // namespace

double dropoutMaskBytes(StorageType /*activations*/) {
    return 1.0;
}

std::vector<ActivationTensor> layerActivationLedger(const ModelSpec& m, StorageType activations,
                                                    Recompute recompute) {
    if (m.activationsOf == ActivationProfile::pytorchEager)
        return pytorchEagerLayerLedger(m, activations, recompute);
    LedgerBuilder b;
    b.act = bytesPerElement(activations);
    b.mask = dropoutMaskBytes(activations);
    b.actName = std::string(storageTypeName(activations));
    if (recompute == Recompute::full) {
        b.tensor("layer input (the checkpoint)", "re-running the layer's forward", m.dModel, sequence);
        return b.rows;
    }
    attentionRows(b, m, recompute == Recompute::none);
    mlpRows(b, m);
    return b.rows;
}

ActivationTensor logitsActivation(const ModelSpec& m) {
    return {"logits", "the cross-entropy's backward",  m.vocab, kFp32Bytes,
            "fp32",   ActivationSplit::tensorParallel, false};
}

std::vector<ActivationTensor> headActivationLedger(const ModelSpec& m, StorageType activations) {
    if (m.activationsOf == ActivationProfile::pytorchEager)
        return pytorchEagerHeadLedger(m, activations);
    return {logitsActivation(m)};
}

} // namespace napkin
