// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The overhead ledger (engine/accounting/memory_overheads.h) as a comparison with a measured run takes
// it: which counted lines a run on this device can show, and where each shows. One function, so that
// `napkin-cli compare` and the app's Accounting page attribute a run's difference alike.
#include "engine/accounting/memory_overheads.h"
#include "engine/measured/measured_comparison.h"
#include "engine/measured/measured_timeline.h"

#include <vector>

namespace napkin {

/// The counted, non-zero lines of `overheads` for a run on `device`: none on the CPU (no context, no
/// cuBLAS workspace, no caching allocator). On a CUDA device the library workspaces, the allocator's
/// rounding and fp8's extra copies show inside memory_allocated(); fragmentation between allocated and
/// reserved; the CUDA context and NCCL's buffers outside the allocator altogether.
std::vector<MeasuredOverhead> measuredOverheadsOf(const MemoryOverheads& overheads, const MeasuredDevice& device);

} // namespace napkin
