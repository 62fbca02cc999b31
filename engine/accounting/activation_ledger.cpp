#include "engine/accounting/activation_ledger.h"

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

void attentionRows(LedgerBuilder& b, const ModelSpec& m, bool keepScores) {
    const double h = m.dModel, a = m.heads, s = m.seq;
    const double kv = kvHeadCount(m) * h / a; // GQA: K and V are g·d/a wide (shared, never repeated)
    const bool flash = m.attentionImpl == AttentionImpl::flash;
    b.tensor("attention norm input", "the norm's backward", h, sequence);
    b.tensor("attention norm output (QKV input)", "the QKV projection's weight gradient", h, sequence);
    const std::string qkvFor = flash ? "flash attention's backward" : "the QKᵀ and A·V matmuls";
    b.tensor("Q", qkvFor, h, tensorParallel);
    b.tensor("K", qkvFor, kv, tensorParallel);
    b.tensor("V", qkvFor, kv, tensorParallel);
    if (flash) {
        // No s×s tensor survives the forward: backward recomputes the scores from Q, K and this statistic.
        b.fp32("log-sum-exp per row", "flash attention's backward", a, tensorParallel);
    } else if (keepScores) {
        b.tensor("softmax output",
                 m.dropout ? "the softmax's backward" : "the softmax's backward and the A·V matmul", a * s,
                 tensorParallel, true);
        if (m.dropout) {
            b.dropoutMask("attention-probability dropout mask", a * s, tensorParallel, true);
            b.tensor("dropped-out probabilities (A·V input)", "the A·V matmul", a * s, tensorParallel, true);
        }
    }
    b.tensor("attention output (output-projection input)",
             flash ? "the output projection and flash attention's backward" : "the output projection", h,
             tensorParallel);
    if (m.dropout)
        b.dropoutMask("attention-output dropout mask", h, sequence);
}

void expertRows(LedgerBuilder& b, const ModelSpec& m, double copies, const std::string& prefix) {
    const double f = copies * ffnWidth(m);
    if (m.mlp == MlpKind::swiglu) {
        b.tensor(prefix + "gate projection output (SiLU input)", "SiLU's backward", f, tensorParallel);
        b.tensor(prefix + "SiLU output", "the product's backward", f, tensorParallel);
        b.tensor(prefix + "up projection output", "the product's backward", f, tensorParallel);
        b.tensor(prefix + "SiLU·up (down-projection input)", "the down projection", f, tensorParallel);
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
        expertRows(b, m, K, "experts: ");
        b.tensor("expert outputs", "the weighted sum's backward (gate-weight gradient)", K * h, sequence);
    } else {
        b.tensor("MLP norm output (MLP input)",
                 m.mlp == MlpKind::swiglu ? "the gate and up projections (one tensor, counted once)"
                                          : "the up projection",
                 h, sequence);
        expertRows(b, m, 1, "");
    }
    if (m.dropout)
        b.dropoutMask("MLP-output dropout mask", h, sequence);
}

} // namespace

double dropoutMaskBytes(StorageType /*activations*/) {
    return 1.0;
}

std::vector<ActivationTensor> layerActivationLedger(const ModelSpec& m, StorageType activations,
                                                    Recompute recompute) {
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

} // namespace napkin
