// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The copy benchmark and the allocation check on a CUDA device, as plain C++ (no CUDA headers), so
// that engine/benchmarks/copy_sweep.cpp can reach them the way backend_registry.cpp reaches the backend.
#include "engine/compute/copy_benchmark.h"

namespace napkin {

/// Times every case on device 0 with CUDA events; a case that fails (allocation, driver) is recorded
/// with its message. Throws std::runtime_error when the device cannot be used at all.
CopySweep runCudaCopySweep(const std::vector<CopyCase>& cases, const CopyRunOptions& options);

/// Two 32x32 fp32 tensors on device 0, counted by the accounting allocator and by cudaMemGetInfo.
/// Throws std::runtime_error on driver errors.
AllocCheck runCudaAllocCheck();

} // namespace napkin
