// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Mixtral's sparse MoE block (pytorch_eager_moe.h) op by op: the allocations and frees of
// modeling_mixtral.py's eager MixtralSparseMoeBlock in a training step, in the order torch 1.13 makes them
// on the CPU with one thread (tests/validation/check_memory_timeline.py compares them with its allocator).
// The sizes of every expert's tensors follow how many token slots the router sent it, m_e, which is an
// input here: the data decides it, napkin cannot. The step's default is balanced routing
// (balancedRouting()); the ledger's rows, and so the end of forward, hold Σ m_e = b·s·K slots whatever
// the split, but backward runs the experts one by one, last first, and its high-water mark follows m_e.
#include "engine/accounting/eager_op_writer.h"
#include "engine/models/model_spec.h"
#include "engine/numerics/storage_type.h"

#include <vector>

namespace napkin::eager {

/// `experts` consecutive experts (in the block's order) that each got `tokens` token slots. A routing is a
/// list of these, E experts in all; a list keeps a step's work bounded however many experts there are.
struct ExpertShare {
    double tokens, experts;
    bool operator==(const ExpertShare&) const = default;
};

/// The token slots `experts` experts get from `slots` (b·s·K) under balanced routing, the assumption of
/// napkin's step: slot j (token ⌊j/K⌋'s (j mod K)-th choice) goes to expert j mod E, so every expert gets
/// ⌊slots/E⌋ and the first (slots mod E) experts one more. At most two shares; none of no experts.
std::vector<ExpertShare> balancedRouting(double slots, double experts);

/// The block's tensors in bytes, and the slots each expert got.
struct MoeSizes {
    double h, f, e;                   // width, an expert's width (elements), the activations' element bytes
    double nh;                        // one s·b·h tensor (the output's zeros, a gather's gradient)
    double probs;                     // the router's logits or their fp32 softmax: s·b·E
    double slots32, slots64;          // one fp32 (or int64) value per token slot: s·b·K
    double perToken;                  // the top-k probabilities' sum, fp32: s·b
    double mask;                      // one_hot's s·b·K·E int64 mask
    double weights;                   // the routing weights in the activations' dtype: s·b·K
    double experts;                   // E
    std::vector<ExpertShare> routing; // m_e: the token slots each expert got (Σ = s·b·K)
};

/// `model`'s block at `batch` sequences with activations of `activations`, its experts routed as
/// `routing` says (E experts in all; empty: balancedRouting()).
MoeSizes moeSizes(const ModelSpec& model, double batch, StorageType activations,
                  std::vector<ExpertShare> routing = {});

/// The block's forward after its norm: the router's logits (a temporary) and fp32 softmax (kept), top-k's
/// values and int64 indices (kept), the values' sum and the in-place division's clone of them (kept), the
/// output's zeros, one_hot's two 0-d int64 scalars and its mask; then for each expert that got a slot,
/// torch.where's (m, 2) pairs, the gather's token list and the gathered m·h, the SwiGLU's four m·f tensors,
/// the expert's output, the routing weights' two index lists, the m weights and the weighted output, all
/// kept (index_add_ writes into the zeros); as the block returns, the logits, the divided values and the
/// mask freed. The output's zeros are left held: the layer's residual add frees them. The experts' tensors
/// are all kept, so a share's are written together (the same bytes at the same high-water mark).
void moeForward(OpWriter w, const MoeSizes& z);

/// Its backward from dL/d(the block's output), which every index_add_ passes on as it is: the experts last
/// first, each index_add_'s (the output's gradient gathered to m·h), the weight mul's, the weights' gather
/// (zeros of every slot's weight, summed into the others'), the down projection's, SiLU · up's, the up
/// projection's, SiLU's, the gate projection's (its dX summed into up's) and the gather's (zeros of
/// s·b·h, summed into the other experts'); then the in-place division's, the sum's, top-k's (zeros of the
/// probabilities), the softmax's and the router's, whose dX joins the experts' and frees the norm's output.
/// The experts of a share after the first run the same nodes, written once and repeated (OpRun::repeat).
void moeBackward(OpWriter w, const MoeSizes& z);

} // namespace napkin::eager
