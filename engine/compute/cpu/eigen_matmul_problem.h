// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// GEMM problems for the CPU backend, one Eigen scalar type each (float, double, Eigen::bfloat16,
// Eigen::half). Eigen computes bfloat16/half products by converting to float per operation and
// rounding every partial sum back to 16 bits: correct, but slow and less accurate — reported as such.
#include "engine/compute/benchmark_backend.h"

#include <memory>

namespace napkin {

/// Seeded uniform [−1, 1] inputs of `shape`; throws std::invalid_argument for a dtype Eigen cannot do.
std::unique_ptr<MatmulProblem> makeEigenMatmulProblem(const MatmulCase& shape, std::uint64_t seed);

} // namespace napkin
