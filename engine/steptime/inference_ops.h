// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The ops one GPU runs to serve a transformer (inference_accounting.h's setting), in the step-time model's
// terms (step_ops.h): a prefill of B sequences of P tokens, or one decode step of B sequences with S tokens
// cached, each a forward pass of the same blocks the training step's op list runs (norms, projections,
// RoPE, attention, MLP or experts, residual adds, the head), every GEMM at its shape with its weights read
// once in the serving format, and the KV cache written (prefill, decode) and read (decode). Tensor
// parallelism over the input's N GPUs splits heads, the MLP's (and each expert's) width and the vocabulary as
// Megatron-LM does; its all-reduces are inference_time.h's. Mixtures of experts read, per layer, the experts
// the step's tokens route to (min(E, T·K) under balanced routing); multi-head latent attention caches the
// latent and, in decode, attends over it with the up-projections absorbed (DeepSeek-V3's inference code);
// a sliding window bounds the keys a windowed layer caches and reads to the last W.
#include "engine/inference/inference_accounting.h"
#include "engine/steptime/step_ops.h"

namespace napkin {

enum class InferencePass { prefill, decode };

/// The ops of one `pass` on one GPU; `whyNot` set (and no ops) for a model the list does not model
/// (transformerNotModelled's: QK-norm, attention sinks, GeGLU, post-norm). All rows are phase forward;
/// `dtype` is the weight format's arithmetic (weightComputeType), `activations` 16-bit (fp32 under fp32
/// weights, fp16 under fp16).
StepOpList inferenceOps(const InferenceInput& input, InferencePass pass);

/// The activations' storage type serving `weights`: fp32 for fp32, fp16 for fp16, else bf16.
StorageType inferenceActivationType(WeightFormat weights);

} // namespace napkin
