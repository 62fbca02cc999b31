// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The CPU's memory bandwidth as a STREAM-style triad (McCalpin, "Memory bandwidth and machine balance in
// current high performance computers", IEEE TCCA newsletter, 1995): a[i] = b[i] + s·c[i] over three fp64
// arrays far larger than the last-level cache, on every core.
#include "engine/compute/memory_bandwidth.h"

namespace napkin {

/// Runs the triad with `options.threads` OpenMP threads (0: one per physical core), each first touching
/// the part of the arrays it later streams (so on a multi-socket machine its pages sit on its own node).
/// Arrays of options.bytesPerArray (0: defaultBytesPerArray() of this CPU's last-level cache), warm-up
/// runs, then `repeats` timed runs with std::chrono::steady_clock; the median is reported and the result
/// array is checked. Throws std::bad_alloc when the arrays do not fit, std::invalid_argument for a size
/// below one element or repeats < 1.
MemoryBandwidthResult runCpuTriad(const MemoryBandwidthOptions& options);

} // namespace napkin
