// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/bench_compute_type.h"

namespace napkin {

std::optional<ComputeType> benchDtypeComputeType(BenchDtype dtype) {
    switch (dtype) {
    case BenchDtype::fp32:
        return ComputeType::fp32;
    case BenchDtype::tf32:
        return ComputeType::tf32;
    case BenchDtype::bf16:
        return ComputeType::bf16;
    case BenchDtype::fp16:
        return ComputeType::fp16;
    case BenchDtype::fp8e4m3:
        return ComputeType::fp8;
    case BenchDtype::fp64:
        return std::nullopt;
    }
    return std::nullopt;
}

} // namespace napkin
