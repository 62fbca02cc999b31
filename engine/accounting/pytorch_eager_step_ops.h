// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One training step of a nanoGPT-style GPT-2 under the pytorch-eager profile, allocation by allocation, in
// the order PyTorch's eager autograd makes them: inside each layer's forward its intermediates and the
// tensors it saves; inside each backward node its outputs, then the node's saved tensors and incoming
// gradient released as the node finishes (torch/csrc/autograd/engine.cpp: release_variables() after the
// node's apply), a parameter's gradient kept as it is made (AccumulateGrad steals it), and two gradients
// of one tensor summed out of place (input_buffer.cpp). The sequence is torch 1.13's on the CPU, one thread,
// tensor for tensor (tests/validation/check_memory_timeline.py compares every event's high-water mark with
// torch's allocator); docs/memory-timeline.md, "Op by op", lists it.
//
// The memory timeline's events are summaries of these runs: an event's bytes are the largest total inside
// it, so the step's peak is exact wherever it falls, in a layer's backward too.
#include "engine/accounting/accounting.h"
#include "engine/accounting/op_run.h"

#include <string_view>

namespace napkin {

class TimelineBuilder;

/// The runs of one step: the embeddings' forward (inside the first layer's event), one layer's forward,
/// the final norm, head and loss, the loss's and the head's backward, one layer's backward (layer 1's
/// apart: a Llama-style layer 1 frees RoPE's tables inside it; GPT-2's is the others'), the embeddings'
/// backward. Every layer runs the same allocations, so a run is built once, whatever the layer count.
struct EagerStepOps {
    OpRun embeddingsForward, layerForward, headForward, lossBackward, headBackward, layerBackward,
        firstLayerBackward, embeddingsBackward;
};

/// Why `input`'s step is not followed op by op, or empty. It is for a GPT-2-style transformer, or a
/// Llama-style one in fp32 (pytorch_eager_llama_ops.h), dense or with Mixtral-style experts given a token
/// slot each (b·s·K ≥ E; pytorch_eager_moe_ops.h), under pytorch-eager, fully trained on data
/// parallelism alone (ZeRO 0 or 1), with recompute and dropout off, in one dtype for parameters, gradients
/// and activations (fp32, fp16, bf16, or mixed-* with its master copy apart), at least two heads two wide,
/// two tokens and one layer. Elsewhere the timeline keeps its layer-by-layer events from the activation
/// ledger.
std::string_view eagerStepOpsUnsupported(const AccountingInput& input, const AccountingResult& result);

/// The runs of `model`'s step at `batch` sequences with activations (and gradients) of `activations`;
/// `gradientBytesPerParameter` weighs a gradient against the rest where a run looks for its high-water mark.
EagerStepOps eagerStepOps(const ModelSpec& model, double batch, StorageType activations,
                          double gradientBytesPerParameter);

/// The transformer's events into `t`, each at the high-water mark of its runs: forward layer 1…L, forward
/// head, backward loss, backward head, backward layer L…1, backward embeddings (memory_timeline.h).
void eagerStepTimeline(TimelineBuilder& t, const AccountingInput& input, const AccountingResult& result);

} // namespace napkin
