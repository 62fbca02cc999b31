// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The ops of one training step on one GPU, each at its shape and dtype: every GEMM of forward, backward
// and recompute, and the memory-bound ops by the bytes they read and write, as PyTorch's eager modules
// run them (the torch.nn models of tests/validation/reference_models.py: nanoGPT's GPT-2 block and
// Hugging Face's Llama eager path). Built from the model, layout and precision the accounting used; its
// model FLOPs are checked against the accounting's own count (flop_count.h) before anything is timed.
#include "engine/accounting/accounting.h"
#include "engine/steptime/hardware_profile.h"

#include <optional>

#include <string>
#include <string_view>
#include <vector>

namespace napkin {

enum class StepTimePhase { forward, backward, recompute, optimizer, communication, pipeline };
std::string_view stepTimePhaseName(StepTimePhase phase);

struct StepOp {
    std::string name; ///< "qkv projection", "softmax"
    StepTimePhase phase = StepTimePhase::forward;
    bool gemm = false; ///< a GEMM (timed at its shape's rate) or a memory-bound op (timed by its bytes)
    double m = 0, n = 0, k = 0, batch = 1; ///< GEMM: batch matrices of [m×k]·[k×n] (forward's shape)
    double flops = 0;                      ///< executed per occurrence
    double bytes = 0;                      ///< read + written per occurrence
    double launches = 1;                   ///< ops dispatched per occurrence (each pays the per-op overhead)
    double count = 1;  ///< occurrences per step on this GPU (layers × micro-batches, ...)
    std::string shape; ///< "[8192×768]·[768×2304]" or "T·d = 6.3e6 elements × 2 passes × 2 B"
    /// A backward GEMM row: computes the input's gradient (g·W) as well as the weight's (gᵀ·x); false for a
    /// layer whose input needs no gradient (its backward is gᵀ·x alone).
    bool inputGradient = true;
    /// A GEMM row that is one GEMM of this orientation (the Cruncher's own dX and dW); unset: a linear
    /// layer's row as above (its forward, or its backward's one or two GEMMs).
    std::optional<GemmOrientation> orientation;
    /// The optimizer's update: streams at the profile's measured rate for this update (UpdateRate) when
    /// it has one, else at the elementwise rate.
    bool optimizerUpdate = false;
    /// Of `bytes`, the weights a serving GEMM reads once per pass in the serving format (inference_ops.h);
    /// 0 where the list does not tell them apart (the training step's rows count every operand alike).
    double weightBytes = 0;
};

struct StepOpList {
    std::vector<StepOp> ops;
    ComputeType dtype = ComputeType::fp32;          ///< what the GEMMs run in
    StorageType activations = StorageType::fp32;    ///< what the memory-bound ops stream
    double microbatchesPerStep = 1;                 ///< m: the pipeline bubble's unit is one micro-batch
    OptimizerKind optimizer = OptimizerKind::adamw; ///< the update's, as torch.optim runs it
    OptimizerImplementation optimizerImplementation = OptimizerImplementation::singleTensor;
    StorageType updateDtype = StorageType::fp32; ///< what the update reads and writes (master weights: fp32)
    double updateElements = 0;                   ///< elements the update touches on this GPU
    std::vector<std::string> notModelled;        ///< what this list leaves out, in words
    std::string whyNot; ///< non-empty: this setup's ops are not modelled, and why (nothing is timed)
};

/// The ops one GPU runs in one optimizer step (`result` is account(input, gpu)'s), for pipeline `stage`:
/// the last by default (the output layer and loss make it the slowest of equal stages). Transformers
/// (GPT-2- and Llama-style: LayerNorm or RMSNorm, GELU or SwiGLU, learned or rotary positions, full,
/// grouped-query or latent attention, sliding windows, dense or with experts, eager or flash) and the
/// dense, cruncher and linear2 models; QK-norm, attention sinks, GeGLU, non-pre-norm placements and
/// fine-tuning say so in `whyNot`.
StepOpList stepOps(const AccountingInput& input, const AccountingResult& result,
                   PipelineStage stage = PipelineStage::last);

/// What the transformer op lists (this one and inference_ops.h) do not model in `model`, in one line ("QK-norm
/// is not in the step-time model yet"); empty when they model it.
std::string transformerNotModelled(const ModelSpec& model);

/// Forward FLOPs of one replica's step (batch × micro-batches sequences, before tp·pp·cp split it) as
/// the op list counts them with the mask's score pairs: what must equal countStepFlops()'s forward.
double opListReplicaForwardFlops(const AccountingInput& input);

} // namespace napkin
