// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the CUDA Cruncher trainer allocates before its first step, buffer by buffer: the one list the
// trainer allocates from (cuda_cruncher_trainer.cpp) and the host tests read, so that each memory tag's
// bytes — each buffer at its own dtype — can be checked against the accounting's prediction without a GPU.
#include "engine/compute/cruncher_config.h"
#include "engine/compute/cuda/cuda_kernels.h"
#include "engine/compute/memory_ledger.h"

#include <cstddef>
#include <vector>

namespace napkin::cuda {

/// Which of the trainer's tensors a buffer is.
enum class BufferRole {
    weights,    ///< what the GEMMs read, in the working type
    master,     ///< mixed precision: the fp32 weights the optimizer updates
    gradient,   ///< in the working type
    state1,     ///< fp32 optimizer state (momentum, Σg², Adam's m)
    state2,     ///< fp32 (Adam's v)
    output,     ///< h_l, kept for backward
    batch,      ///< X (B×D), in the working type
    targets,    ///< t (B), fp32
    truth,      ///< w* (D), fp32
    prediction, ///< y (B)
    lossGrad,   ///< dL/dy (B)
    upstream,   ///< dL/dh (B×D), two that swap
    downstream,
};

struct PlannedBuffer {
    const char* component = ""; ///< "parameters", "master_weights", ..., as DeviceAllocation names them
    MemoryTag tag = MemoryTag::parameters;
    BufferRole role = BufferRole::weights;
    std::size_t layer = 0; ///< parameters' roles and outputs: the layer from 0; L is the head
    std::size_t count = 0;
    ElementType type = ElementType::f32;
};

/// Bytes per element of the trainer's types: 4 (f32), 2 (bf16, f16), 8 (f64), 1 (e4m3).
std::size_t elementBytes(ElementType type);
/// The GEMMs' type of `config`'s recipe: f32 (fp32, tf32), bf16 (mixed-bf16), f16 (mixed-fp16); throws
/// std::invalid_argument naming the recipe for any other.
ElementType cruncherWorkingType(const CruncherConfig& config);
/// Every buffer, in allocation order, one component after another (parameters, master_weights in mixed
/// precision, gradients, optimizer_state, activations, inputs, workspace).
std::vector<PlannedBuffer> cruncherBufferPlan(const CruncherConfig& config);

} // namespace napkin::cuda
