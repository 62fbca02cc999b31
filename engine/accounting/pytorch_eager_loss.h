// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The cross-entropy's transient tensors under the pytorch-eager profile, for the memory timeline: what
// F.cross_entropy(logits, targets) holds for a moment beyond the log-softmax output the head ledger keeps.
#include "engine/models/model_spec.h"
#include "engine/numerics/storage_type.h"

namespace napkin {

/// One tensor of the loss's input size and dtype, tokens·V elements: the logits as the loss reads them
/// (a Llama-style model's fp32 upcast, the activations' dtype otherwise), its log-softmax output, and
/// in backward dL/dlog-probs (NLL's) and dL/dlogits (log-softmax's), each of this size.
double pytorchEagerLossTensorBytes(const ModelSpec& model, double batch, StorageType activations);

} // namespace napkin
