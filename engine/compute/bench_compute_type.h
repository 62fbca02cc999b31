// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What arithmetic a matmul benchmark's element type runs in, as the hardware catalog's peaks and the step
// time's profiles name it: one mapping for the roofline page and the calibration run.
#include "engine/compute/bench_dtype.h"
#include "engine/numerics/storage_type.h"

#include <optional>

namespace napkin {

/// fp32, tf32, bf16, fp16 as themselves, fp8-e4m3 as fp8; none for fp64, in which no training recipe
/// computes and no catalog part has a peak.
std::optional<ComputeType> benchDtypeComputeType(BenchDtype dtype);

} // namespace napkin
