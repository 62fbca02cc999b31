// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Whether a CPU GEMM's operands fit in this machine's memory, asked before they are allocated.
#include "engine/compute/benchmark_result.h"

namespace napkin {

/// Throws std::runtime_error (with the sizes) when A, B and C of `shape` need more than half of this
/// machine's physical memory: past that a sweep would swap, or be killed, rather than measure.
void requireMatmulFitsInMemory(const MatmulCase& shape);

} // namespace napkin
