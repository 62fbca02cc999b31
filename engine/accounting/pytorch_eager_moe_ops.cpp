// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/pytorch_eager_moe_ops.h"

#include "engine/accounting/pytorch_eager_rows.h"

#include <cmath>

namespace napkin::eager {
namespace {

/// One expert's m-sized tensors in bytes.
struct ExpertSizes {
    double mh, mf, list, weight; // its tokens' h- and f-wide rows, an int64 token list, its m weights
};

ExpertSizes expertSizes(const MoeSizes& z, double m) {
    return {m * z.h * z.e, m * z.f * z.e, m * kInt64Bytes, m * z.e};
}

// `x` of one expert, scaled by the share's count: every tensor is kept, so the share's order is immaterial.
void expertForward(OpWriter& w, const ExpertSizes& x) {
    w.keep(2 * x.list); // torch.where: nonzero's (m, 2) pairs, which index_add_ keeps a view of
    w.keep(x.list);     // x[None, top_x_list]: the list as an int64 tensor
    w.keep(x.mh);       // the gathered tokens: the gate and up projections' input
    w.keep(x.mf);       // gate projection: SiLU's input
    w.keep(x.mf);       // SiLU
    w.keep(x.mf);       // up projection
    w.keep(x.mf);       // SiLU · up: the down projection's input
    w.keep(x.mh);       // the expert's output
    w.keep(x.list);     // routing_weights[top_x_list, idx_list, None]: both lists as int64 tensors
    w.keep(x.list);
    w.keep(x.weight); // the gathered weights
    w.keep(x.mh);     // the weighted output, which index_add_ keeps
}

// `first`: the first expert backward reaches, whose gradients start the sums the others join.
void expertBackward(OpWriter& w, const MoeSizes& z, const ExpertSizes& x, bool first) {
    w.temp(x.mh); // IndexAddBackward: the output's gradient index_select-ed to the expert's tokens
    w.release(2 * x.list);
    w.release(x.mh);
    w.temp(x.mh); // MulBackward (output · weight): grad · weight, then grad · output summed to (m, 1)
    w.temp(x.mh);
    w.temp(x.weight);
    w.drop(x.mh);
    w.drop(x.mh);
    w.release(x.mh);
    w.release(x.weight);
    w.temp(z.weights); // IndexBackward (the weights' gather): zeros of every slot's weight
    w.drop(x.weight);
    w.release(x.list);
    w.release(x.list);
    if (!first)
        w.accumulate(z.weights);
    w.grad(z.f * z.h); // down projection: dW, then dX
    w.temp(x.mf);
    w.drop(x.mh);
    swigluBackwardBelowDown(w, x.mf, x.mh, z.h * z.f);
    w.release(x.mh); // the gathered tokens
    w.accumulate(x.mh);
    w.temp(z.nh); // IndexBackward (the gather): zeros of s·b·h, the expert's rows put in
    w.drop(x.mh);
    w.release(x.list);
    if (!first) // into dL/d(the norm's output), through x[None]'s view
        w.accumulate(z.nh);
}

} // namespace

std::vector<ExpertShare> balancedRouting(double slots, double experts) {
    if (!(experts >= 1))
        return {};
    const double each = std::floor(slots / experts), extra = slots - each * experts;
    std::vector<ExpertShare> routing;
    if (extra > 0)
        routing.push_back({each + 1, extra});
    routing.push_back({each, experts - extra});
    return routing;
}

MoeSizes moeSizes(const ModelSpec& m, double batch, StorageType activations,
                  std::vector<ExpertShare> routing) {
    const double n = tokensPerStep(m, batch), K = m.topK, E = m.experts;
    MoeSizes z{};
    z.e = bytesPerElement(activations);
    z.h = m.dModel;
    z.f = expertWidth(m);
    z.nh = n * z.h * z.e;
    z.probs = n * E * kFp32Bytes;
    z.slots32 = n * K * kFp32Bytes;
    z.slots64 = n * K * kInt64Bytes;
    z.perToken = n * kFp32Bytes;
    z.mask = n * K * E * kInt64Bytes;
    z.weights = n * K * z.e;
    z.experts = E;
    z.routing = routing.empty() ? balancedRouting(n * K, E) : std::move(routing);
    return z;
}

void moeForward(OpWriter w, const MoeSizes& z) {
    w.temp(z.probs);              // the router's logits
    w.keep(z.probs);              // softmax(dtype=float)
    w.temp(z.slots32);            // top-k's values (the routing weights, divided in place below)
    w.keep(z.slots64);            // and int64 indices
    w.keep(z.perToken);           // their sum
    w.keep(z.slots32);            // /=: the division keeps a clone of the values it overwrites
    w.temp(z.nh);                 // the output's zeros
    for (int i = 0; i < 2; ++i) { // one_hot on the CPU reads the indices' min and max as 0-d int64
        w.temp(kInt64Bytes);
        w.drop(kInt64Bytes);
    }
    w.temp(z.mask);
    for (const ExpertShare& s : z.routing)
        if (s.tokens > 0) // an expert no slot chose is skipped
            expertForward(w, expertSizes(z, s.tokens * s.experts));
    w.drop(z.probs); // as the block returns: the logits, the divided values, the mask
    w.drop(z.slots32);
    w.drop(z.mask);
}

void moeBackward(OpWriter w, const MoeSizes& z) {
    bool first = true;
    for (auto i = z.routing.size(); i-- > 0;) { // made last, run first
        const ExpertShare& s = z.routing[i];
        if (!(s.tokens > 0) || !(s.experts >= 1))
            continue;
        const ExpertSizes x = expertSizes(z, s.tokens);
        double rest = s.experts;
        if (first) { // its gradients start the sums
            expertBackward(w, z, x, true);
            first = false;
            rest -= 1;
        }
        if (rest > 0) {
            OpRun piece = w.piece();
            OpWriter p(piece);
            expertBackward(p, z, x, false);
            w.repeat(piece, rest);
        }
    }
    for (int i = 0; i < 4; ++i) // DivBackward (the in-place division): grad / sum, and the sum's gradient
        w.temp(z.slots32);
    for (int i = 0; i < 3; ++i)
        w.drop(z.slots32);
    w.temp(z.slots32);
    w.temp(z.perToken); // summed to one per token
    w.drop(z.slots32);
    w.drop(z.slots32);     // dL/d(the weights)
    w.release(z.slots32);  // the values' clone
    w.release(z.perToken); // the sum
    w.temp(z.slots32);     // SumBackward's expanded gradient joins the division's, out of place
    w.drop(z.slots32);
    w.drop(z.perToken);
    w.temp(z.probs); // TopkBackward: zeros of the probabilities, the slots' gradients put in
    w.drop(z.slots32);
    w.release(z.slots64);
    w.temp(z.probs); // SoftmaxBackward
    w.drop(z.probs);
    w.release(z.probs);
    w.grad(z.experts * z.h); // the router: dW, then dX
    w.temp(z.nh);
    w.drop(z.probs);
    w.release(z.nh); // the norm's output
    w.accumulate(z.nh);
}

} // namespace napkin::eager
