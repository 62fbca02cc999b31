// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The overhead ledger (memory_overheads.h) of serving a model: what a real PyTorch process holds on each
// GPU beside the weights, the KV cache and the activations — the CUDA context, one cuBLAS and one cuBLASLt
// workspace (serving runs no autograd backward thread, which holds training's second handle), a
// fragmentation allowance the user sets, and NCCL's buffers for the tensor-parallel group — and the card's
// usable memory. The allocator's rounding is not counted: serving's tensors (weights, cache blocks) are
// not enumerated. In the datasheet basis nothing counts, as in training.
#include "engine/accounting/memory_overheads.h"

namespace napkin {

struct GpuSpec;
struct InferenceInput;

/// The ledger for serving `input` on `gpu` whose tensors peak at `peakBytes` per GPU (weights + KV cache
/// + activations). Lines as training's, with the workspaces of one handle and no rounding.
MemoryOverheads inferenceOverheads(const InferenceInput& input, const GpuSpec& gpu, double peakBytes);

} // namespace napkin
