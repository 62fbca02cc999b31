// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/pytorch_eager_moe.h"

namespace napkin {

using eager::kInt64Bytes;

std::string moeEagerUnsupported(const ModelSpec& m) {
    if (m.sharedFfnDim > 0 || m.sharedExpertGate)
        return "describes Mixtral-style experts without a shared expert so far";
    if (m.denseLayers > 0)
        return "describes Mixtral-style experts in every layer so far (no dense-first layers)";
    if (m.routerBias)
        return "describes Mixtral-style routers without a bias so far";
    return {};
}

void mixtralMoeRows(eager::Rows& b, const ModelSpec& m) {
    const double h = m.dModel, E = m.experts, K = m.topK, f = expertWidth(m);
    // Per token. The router's logits are not kept: softmax(dtype=float) converts them (a copy that keeps
    // nothing) and keeps its own fp32 output.
    b.fp32("router probabilities (softmax in fp32)", "the softmax's backward", E);
    b.typed("top-k expert indices (int64)", "topk's backward (scatters the gradient back)", K, kInt64Bytes,
            "int64");
    // routing_weights /= routing_weights.sum(-1): the in-place division keeps the top-k probabilities as
    // they were (its numerator) and the sum (its denominator), both fp32.
    b.fp32("top-k probabilities before the division (fp32)", "the renormalising division's backward", K);
    b.fp32("their sum per token (fp32)", "the renormalising division's backward", 1);
    // Per routed token slot, in one tensor per expert. The indices: index() converts each Python list
    // to an int64 tensor it keeps (the gather's token list, the weights' token and slot lists), and
    // index_add_ keeps torch.where's token index, a view of nonzero's (n, 2) int64 result.
    const std::string act = b.actName;
    b.routed("gather's token indices (int64)", "the gather's backward (index_put)", 1, K, kInt64Bytes,
             "int64");
    b.routed("routing weights' token indices (int64)", "the weight gather's backward", 1, K, kInt64Bytes,
             "int64");
    b.routed("routing weights' slot indices (int64)", "the weight gather's backward", 1, K, kInt64Bytes,
             "int64");
    b.routed("torch.where's (token, slot) pairs (int64)", "index_add_'s backward", 2, K, kInt64Bytes,
             "int64");
    b.routed("expert input (the gathered tokens)", "the gate and up projections' weight gradients", h, K,
             b.act, act);
    b.routed("gate projection output (SiLU input)", "SiLU's backward", f, K, b.act, act);
    b.routed("SiLU output", "the SiLU · up mul's backward", f, K, b.act, act);
    b.routed("up projection output", "the SiLU · up mul's backward", f, K, b.act, act);
    b.routed("SiLU · up (down-projection input)", "the down projection", f, K, b.act, act);
    b.routed("expert output", "the routing-weight mul's backward (the weight's gradient)", h, K, b.act, act);
    b.routed("token's routing weight", "the routing-weight mul's backward (the output's gradient)", 1, K,
             b.act, act);
    b.routed("weighted expert output", "index_add_'s backward", h, K, b.act, act);
}

} // namespace napkin
