// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/pytorch_eager_loss.h"

#include "engine/accounting/pytorch_eager_llama.h"
#include "engine/accounting/pytorch_eager_rows.h"

namespace napkin {

double pytorchEagerLossTensorBytes(const ModelSpec& m, double batch, StorageType activations) {
    // LlamaForCausalLM upcasts the logits before the loss (logits.float()); nanoGPT's GPT-2 does not.
    const double element = isLlamaStyle(m) ? eager::kFp32Bytes : bytesPerElement(activations);
    return tokensPerStep(m, batch) * m.vocab * element;
}

} // namespace napkin
