// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The lecture's Cruncher trained on oneDNN's GEMMs, in fp32 or in mixed bf16 precision (Micikevicius et
// al. 2018, with bf16 in place of fp16, so no loss scaling): bf16 weights, activations and gradients in the
// GEMMs (fp32 accumulation), fp32 master weights that the optimizer updates with fp32 state, the bf16
// weights rounded from them after each step. Every buffer is allocated through the trainer's MemoryLedger
// under its tag, in its own dtype, so the measured bytes are the accounting recipe's component by component.
// Frozen layers (config.frozenLayers) follow engine/accounting/frozen_layers.h: bf16 weights alone in mixed
// precision, with no master, gradient or state.
#include "engine/compute/benchmark_backend.h"

#include <memory>

namespace napkin {

/// config.precision fp32 or mixedBf16 (std::invalid_argument otherwise, and for non-positive sizes);
/// `threads` OpenMP threads per GEMM. Checkpoints hold the fp32 master weights as the parameters (the
/// bf16 copy is rounded from them on load), so a checkpoint moves between precisions and backends.
std::unique_ptr<CruncherTrainer> makeOnednnCruncherTrainer(const CruncherConfig& config, int threads);

} // namespace napkin
