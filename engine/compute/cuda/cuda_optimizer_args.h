// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The kernel's optimizer arguments from a Cruncher configuration (host only: the engine headers are C++20,
// the .cu file is compiled as C++17).
#include "engine/compute/cruncher_config.h"
#include "engine/compute/cuda/cuda_kernels.h"

namespace napkin::cuda {

/// Hyper-parameters copied, kind = OptimizerKind's index, Adam's bias corrections 1 − β^step (step from 1).
OptimizerArgs optimizerArgsFor(const CruncherConfig& config, long step);

} // namespace napkin::cuda
