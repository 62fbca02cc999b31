// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A GEMM problem on oneDNN's matmul: fp32, or bf16 (fp16) inputs and output with fp32 accumulation
// (AVX512_BF16 dot products where the CPU has them; fp16 where the oneDNN build has kernels for it). The same
// seeded inputs as Eigen's problem of the same shape, bit for bit, so the two backends can be compared entry
// by entry.
#include "engine/compute/benchmark_backend.h"

#include <memory>

namespace napkin {

/// A GEMM above this many FLOPs is run as column panels of C, with a cancel check between them: about a
/// quarter of a second at the 200 GFLOP/s oneDNN reaches on two AVX-512 cores, so n = 2048 (17 GFLOP) is
/// one call, as torch.mm makes it.
inline constexpr double kOnednnPanelFlops = 5e10;

/// Seeded uniform [−1, 1] inputs of `shape` (fp32, bf16 or fp16), `threads` OpenMP threads, panels of at
/// most about `panelFlops`. Throws std::invalid_argument for another dtype, std::runtime_error when oneDNN
/// has no kernel for it (or only its reference loop).
std::unique_ptr<MatmulProblem> makeOnednnMatmulProblem(const MatmulCase& shape, std::uint64_t seed,
                                                       int threads, double panelFlops = kOnednnPanelFlops);

} // namespace napkin
