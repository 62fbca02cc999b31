// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Device-memory bandwidth on a CUDA device, as plain C++ (no CUDA headers), so that
// engine/benchmarks/memory_bandwidth_run.cpp can reach it the way copy_sweep.cpp reaches the copies.
#include "engine/compute/memory_bandwidth.h"

namespace napkin {

/// Times cudaMemcpyAsync device-to-device of options.bytesPerArray (0: defaultBytesPerArray() of the
/// device's L2) on device 0 with CUDA events, counting 2 × bytes (read + write); the promise is the
/// catalog's memory bandwidth when the device name matches an entry. Throws std::runtime_error when the
/// device cannot be used or the buffers cannot be allocated.
MemoryBandwidthResult runCudaDeviceCopyBandwidth(const MemoryBandwidthOptions& options);

} // namespace napkin
